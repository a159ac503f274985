"""``exact wordle serve``: the store of solved positions, the advice (trees, store, live proofs), the web
app through Starlette's test client, and the page in a real headless Chromium (slow; skipped without
Debian's chromium and chromium-driver)."""

import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # Starlette's note that its test client will move to httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from exact.cli.wordle.serve import serve
from exact.cli.wordle.serve_app import make_app, page_html
from exact.feedback import feedback, format_pattern
from exact.game.hard import is_allowed
from exact.game.position import after, start, word_classes
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.wins.dp import solve
from exact.wordle.study.explorer import browser_paths
from exact.wordle.study.analyse import analyse_game
from exact.wordle.study.book import lookup
from exact.wordle.study import live
from exact.wordle.study.live import Solver
from exact.wordle.study.play import MEASURED_SECONDS, expected_seconds
from exact.wordle.study.serve import (InstantAdvice, Setup, few_left, heuristic_guess, rate,
                                      rate_max, read_position, shipped_opener_book, shipped_trees,
                                      RATE_SECONDS)
from exact.wordle.study.store import SQLITE_HEADER, Solution, Store, position_key
from exact.errors import ExactError
from exact.words import ExactWarning, named_lists, wordle_answers, words_from_lines

ROOT = Path(__file__).resolve().parents[1]
SMALL = wordle_answers().words[::45]  # 52 answers: a live proof in seconds


def crowded(opener: str) -> tuple:
    """The history after ``opener`` whose feedback leaves the most of :data:`SMALL` (a proof to run)."""
    largest = max(word_classes(opener, SMALL).values(), key=len)
    assert len(largest) > 2
    return ((opener, feedback(opener, largest[0])),)


def wait_until(condition, seconds: float):
    """Poll ``condition()`` until it is truthy (returned) or ``seconds`` pass (AssertionError)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if (value := condition()):
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s")


@pytest.fixture
def small():
    A = words_from_lines(SMALL, "small-answers")
    return Setup(A, A)


# --- the store ------------------------------------------------------------------------------------


def test_the_store_persists_across_openings(tmp_path):
    path = tmp_path / "s.sqlite"
    store = Store(path)
    store.put("a", Solution("salet", 7920, 2315, True))
    store.close()
    assert Store(path).get("a") == Solution("salet", 7920, 2315, True)


def test_the_store_keeps_its_cap_evicting_the_least_recently_used(tmp_path):
    store = Store(tmp_path / "s.sqlite", cap=3)
    for i in range(3):
        store.put(f"k{i}", Solution("crane", i, 5, True))
    store.get("k0")  # k0 used again: k1 is now the least recently used
    store.put("k3", Solution("crane", 3, 5, True))
    assert len(store) == 3 and store.get("k1") is None and store.get("k0") is not None


def test_a_corrupt_store_is_set_aside_with_one_line_and_never_trusted(tmp_path):
    path = tmp_path / "s.sqlite"
    path.write_bytes(SQLITE_HEADER + b"not a database at all, " * 100)  # an SQLite file, broken
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        store = Store(path)
    lines = [str(w.message) for w in caught if issubclass(w.category, ExactWarning)]
    assert len(lines) == 1 and "\n" not in lines[0] and "corrupt-1" in lines[0]
    assert (tmp_path / "s.sqlite.corrupt-1").read_bytes().startswith(SQLITE_HEADER + b"not a database")
    assert len(store) == 0
    store.put("a", Solution("trace", 1, 1, True))
    assert store.get("a").guess == "trace"


@pytest.mark.parametrize("text", [b"root:x:0:0:root:/root:/bin/bash\n", b"SQLite format 2\x00" + b"x" * 200])
def test_a_file_that_is_not_sqlite_is_refused_in_one_line_and_left_as_it_is(tmp_path, text):
    path = tmp_path / "passwd"
    path.write_bytes(text)
    with pytest.raises(ExactError, match="not an SQLite file") as caught:
        Store(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    assert path.read_bytes() == text and sorted(p.name for p in tmp_path.iterdir()) == ["passwd"]


def test_a_store_in_a_missing_folder_is_refused_naming_the_folder_and_nothing_is_made(tmp_path, cli):
    missing = tmp_path / "no" / "such"
    with pytest.raises(ExactError, match=f"no folder {missing}"):
        Store(missing / "s.sqlite")
    code, out, err = cli("wordle", "serve", "--no-browser", "--list", "original", "--store", str(missing / "s.sqlite"))
    assert code == 2 and f"no folder {missing}" in err and "Traceback" not in err + out
    assert not (tmp_path / "no").exists()
    assert len(Store(tmp_path / "made" / "s.sqlite", make_folder=True)) == 0  # the default store's cache folder


def test_an_exception_inside_a_write_leaves_the_store_as_it_was(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    store.put("a", Solution("trace", 1, 1, True))
    with pytest.raises(RuntimeError):
        with store._transaction() as db:
            db.execute("INSERT INTO solved VALUES ('b', 'crane', 2, 2, 1, 0)")
            db.execute("DELETE FROM solved WHERE key = 'a'")
            raise RuntimeError("killed mid-write")
    assert store.get("a") is not None and store.get("b") is None and len(store) == 1


def test_a_store_killed_mid_write_opens_consistent(tmp_path):
    """A process writing in a loop is SIGKILLed; the store then opens with no warning, every row whole."""
    path = tmp_path / "s.sqlite"
    code = ("import sys; from exact.wordle.study.store import Store, Solution\n"
            "s = Store(sys.argv[1], cap=50); print('ready', flush=True)\n"
            "i = 0\nwhile True:\n    s.put(f'k{i}', Solution('crane', i, i + 1, True)); i += 1\n")
    child = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    child.kill()
    child.wait()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        store = Store(path, cap=50)
    rows = store._db.execute("SELECT key, value, n FROM solved").fetchall()
    assert 0 < len(rows) <= 50 and all(key == f"k{value}" and n == value + 1 for key, value, n in rows)


def test_the_key_is_the_lists_mode_objective_and_answers_left():
    A, G = named_lists("original")
    left = ("cigar", "rebut")
    key = position_key(A, G, False, "guesses", 6, (("salet", 0),), left)
    assert key == position_key(A, G, False, "guesses", 6, (("crane", 0),), left)  # other guesses, same answers
    assert key != position_key(A, G, True, "guesses", 6, (("salet", 0),), left)
    assert key != position_key(A, G, False, "wins", 6, (("salet", 0),), left)
    assert key != position_key(A, G, False, "guesses", 6, (("salet", 0), ("crane", 0)), left)  # fewer guesses left
    assert key != position_key(A, G, False, "guesses", 6, (("salet", 0),), left[:1])


# --- the advice -----------------------------------------------------------------------------------


def test_one_or_two_answers_left_are_proven_at_once(small):
    pos = start(small.answers)
    two = pos.__class__(pos.answers, (("cigar", 0),), ("cigar", "rebut"))
    assert few_left(small, two) == Solution("cigar", 3, 2, True)
    assert few_left(small, pos) is None


def test_the_heuristic_guess_makes_the_most_classes(small):
    pos = read_position(small, crowded(SMALL[0]))
    guess = heuristic_guess(small, pos)
    most = max(len(word_classes(g, pos.candidates)) for g in small.guesses.words)
    assert len(word_classes(guess, pos.candidates)) == most


def test_the_expected_duration_grows_with_the_answers_left_and_meets_the_table():
    assert all(abs(expected_seconds(n) - s) < 1e-6 * s for n, s in MEASURED_SECONDS)
    times = [expected_seconds(n) for n in range(1, 5000, 50)]
    assert times == sorted(times)


def test_instant_advice_walks_a_shipped_tree_and_marks_only_positions_after_the_opener_proven():
    A, G = named_lists("original")
    setup = Setup(A, G)
    (tree,) = shipped_trees(setup)
    instant = InstantAdvice([tree], setup)
    root = instant.advice(start(A))
    assert root.guess == tree.guess and not root.proven
    answer = A.words[100]
    history = ((tree.guess, feedback(tree.guess, answer)),)
    found = instant.advice(read_position(setup, history))
    assert found.proven and found.guess == tree.children[history[0][1]].guess
    assert instant.advice(read_position(setup, (("fuzzy", feedback("fuzzy", answer)),))) is None


def test_hard_mode_reads_its_own_tree_and_refuses_a_guess_that_breaks_the_rule():
    A, G = named_lists("original")
    setup = Setup(A, G, hard=True)
    (tree,) = shipped_trees(setup)
    answer = A.words[500]
    history = ((tree.guess, feedback(tree.guess, answer)),)
    found = InstantAdvice([tree], setup).advice(read_position(setup, history))
    assert found.proven and found.guess == tree.children[history[0][1]].guess
    first_green = 2  # the pattern code of the first letter green, the rest gray
    breaking = next(g for g in G.words if g[0] != tree.guess[0])  # drops that green letter
    with pytest.raises(ExactError, match=f"hard-mode rule at guess 2: {tree.guess[0].upper()} had to stay in "
                                         f"place 1 \\(green at guess 1\\)"):  # which rule, in the player's words
        read_position(setup, ((tree.guess, first_green), (breaking, 0)))


# --- the web app ----------------------------------------------------------------------------------


PORT = 8031  # the port the test client's requests name (nothing listens on it: the client calls the app)
JSON = {"content-type": "application/json"}


def app_client(solver: Solver, **headers) -> TestClient:
    """Starlette's test client of the app over ``solver``, its requests as the page sends them: to
    127.0.0.1:PORT, with the page's token."""
    app = make_app(solver, port=PORT)
    return TestClient(app, base_url=f"http://127.0.0.1:{PORT}", headers={"X-Exact-Token": app.state.token, **headers})


@pytest.fixture
def client(small):
    with app_client(Solver(small, InstantAdvice([], small), None)) as c:
        yield c


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", json.dumps({"tab": "a b"}).encode(),
                                  json.dumps({"tab": "t", "history": [["zzzzz", "bbbbb"]]}).encode(),
                                  json.dumps({"tab": "t", "history": [[SMALL[0], "bbbbq"]]}).encode(),
                                  json.dumps({"tab": "t", "history": "cigar"}).encode()])
def test_bad_requests_get_400_and_one_line_of_json(client, body):
    r = client.post("/api/advice", content=body, headers=JSON)
    assert r.status_code == 400
    assert list(r.json()) == ["error"] and r.json()["error"] and "\n" not in r.json()["error"]
    assert "Traceback" not in r.text


def test_feedback_no_answer_gives_is_a_400_naming_the_guess(client):
    guess = SMALL[0]
    impossible = next(p for p in range(243) if p not in word_classes(guess, SMALL))
    r = client.post("/api/advice", json={"tab": "t", "history": [[guess, format_pattern(impossible, 5)]]})
    assert r.status_code == 400 and guess in r.json()["error"]


def test_the_page_escapes_what_it_renders(tmp_path, write_lines):
    A = words_from_lines(SMALL, "<b>answers</b>.txt")
    html = page_html(Setup(A, A))
    assert "<b>answers" not in html and "&lt;b&gt;answers" in html
    assert "Wordle: fewest guesses" in html.split("<title>")[1]  # the game and its objective, not file names
    assert 'id="move" autofocus' in html and "width=device-width" in html


def test_the_page_never_inserts_text_as_html():
    page = (ROOT / "exact" / "cli" / "wordle" / "serve.html").read_text()
    assert "innerHTML" not in page and "insertAdjacentHTML" not in page and "document.write" not in page


def test_the_server_binds_to_this_machine_only_by_default():
    (host,) = [p for p in serve.params if p.name == "host"]
    assert host.default == "127.0.0.1"


def test_the_tab_asking_about_a_new_position_cancels_its_old_proof(small, tmp_path):
    solver = Solver(small, InstantAdvice([], small), Store(tmp_path / "s.sqlite"))
    try:
        assert solver.ask("t", ()).status == "working"
        job = solver.jobs["t"]
        guessed = wait_until(lambda: solver.ask("t", ()).guess, 60)  # the heuristic guess, computed off the request
        assert guessed == heuristic_guess(small, start(small.answers)) and solver.jobs["t"] is job
        solver.ask("t", crowded(SMALL[0]))  # answered at once; the old worker ends meanwhile
        assert solver.jobs["t"] is not job
        wait_until(lambda: not job.process.is_alive(), 10)
        job = solver.jobs["t"]
        solver.close("t")
        assert "t" not in solver.jobs
        wait_until(lambda: not job.process.is_alive(), 10)
    finally:
        solver.shutdown()


def _deaf_to_sigterm(ready) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # as a worker inside a numba call or compile
    ready.set()
    time.sleep(120)


def test_a_cancelled_worker_that_ignores_sigterm_is_killed(monkeypatch):
    monkeypatch.setattr(live, "CANCEL_GRACE", 0.2)
    context = multiprocessing.get_context("fork")
    ready = context.Event()
    process = context.Process(target=_deaf_to_sigterm, args=(ready,), daemon=True)
    process.start()
    receive, send = context.Pipe(duplex=False)
    assert ready.wait(30)
    job = live.Job("k", _deaf_to_sigterm, (), 1, None, 0.0, process=process, conn=receive)
    job.cancel()
    assert not process.is_alive() and process.exitcode == -signal.SIGKILL


def test_a_tab_that_stops_asking_has_its_proof_cancelled(small):
    solver = Solver(small, InstantAdvice([], small), None, tab_timeout=0.0)
    try:
        solver.ask("t", ())
        job = solver.jobs["t"]
        time.sleep(0.05)
        solver.reap()
        assert "t" not in solver.jobs
        wait_until(lambda: not job.process.is_alive(), 10)
    finally:
        solver.shutdown()


def test_several_tabs_each_have_their_own_proof_and_a_closed_tab_only_its_own(small):
    with app_client(Solver(small, InstantAdvice([], small), None, workers=2)) as c:
        solver = c.app.state.solver
        for tab in ("one", "two"):
            assert c.post("/api/advice", json={"tab": tab, "history": []}).json()["status"] == "working"
        one, two = solver.jobs["one"], solver.jobs["two"]
        assert one is not two and one.process.is_alive() and two.process.is_alive()
        assert c.post("/api/close", json={"tab": "one"}).status_code == 200
        assert "one" not in solver.jobs and two.process.is_alive()
        wait_until(lambda: not one.process.is_alive(), 10)  # the close is answered at once, the worker ends after
    assert not two.process.is_alive()  # the server's shut-down ends every proof


def proc_stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process from /proc/PID/stat, None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text.rsplit(")", 1)[1].split()[:2]  # the name, in brackets, may hold spaces
    return state, int(ppid)


def alive(pid: int) -> bool:
    stat = proc_stat(pid)
    return stat is not None and stat[0] not in "ZX"  # a zombie has ended


def workers_of(server: int) -> list[int]:
    """The live worker processes of a server: the children of its forkserver (a child of the server whose
    command line names multiprocessing.forkserver), read from /proc."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := proc_stat(int(entry.name))) is not None and stat[0] not in "ZX":
            parents[int(entry.name)] = stat[1]

    def forkserver(pid: int) -> bool:
        try:
            return b"forkserver" in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return False
    servers = {pid for pid, parent in parents.items() if parent == server and forkserver(pid)}
    return sorted(pid for pid, parent in parents.items() if parent in servers)


def test_thirty_tabs_asking_for_proofs_run_at_most_the_workers_and_the_rest_wait(small):
    """Issue 49's repro: 30 tabs POST a position no tree covers; at most ``workers`` worker processes live,
    each other tab is told it waits for a free core, and a closed tab's core goes to the one waiting longest."""
    with app_client(Solver(small, InstantAdvice([], small), None, workers=2)) as c:
        solver = c.app.state.solver
        replies = [c.post("/api/advice", json={"tab": f"tab{i}", "history": []}).json() for i in range(30)]
        assert solver.running() <= 2 and len(workers_of(os.getpid())) <= 2
        assert [r["status"] for r in replies[:2]] == ["working"] * 2
        assert {r["status"] for r in replies[2:]} == {"waiting"}
        assert "free core" in replies[2]["message"] and "at most 2 at once" in replies[2]["message"]
        assert "27 more asked before" in replies[-1]["message"]
        c.post("/api/close", json={"tab": "tab0"})
        wait_until(lambda: solver.jobs["tab2"].process is not None, 10)  # once tab0's worker has ended
        assert solver.jobs["tab3"].waiting  # first come, first served
        assert solver.running() <= 2 and len(workers_of(os.getpid())) <= 2
        assert c.post("/api/advice", json={"tab": "tab2", "history": []}).json()["status"] in ("working", "proven")
    assert not workers_of(os.getpid())


def test_a_rating_waits_in_the_same_line_as_the_proofs(small):
    solver = Solver(small, InstantAdvice([], small), None, rate_limit=WORKER_LIMIT, workers=1)
    try:
        assert solver.ask("proof", ()).status == "working"
        rating = solver.rate("t", worker_game())
        assert rating.status == "waiting" and "free core" in rating.message and solver.jobs["t"].process is None
        assert solver.running() == 1
        solver.close("proof")
        wait_until(lambda: solver.jobs["t"].process is not None, 10)  # its turn, once the proof's worker ended
    finally:
        solver.shutdown()


def test_a_tab_beyond_the_most_tabs_is_told_the_server_is_busy(small, monkeypatch):
    monkeypatch.setattr(live, "MAX_TABS", 3)
    with app_client(Solver(small, InstantAdvice([], small), None, workers=1)) as c:
        for i in range(3):
            assert c.post("/api/advice", json={"tab": f"t{i}", "history": []}).status_code == 200
        r = c.post("/api/advice", json={"tab": "t3", "history": []})
        assert r.status_code == 503 and "busy" in r.json()["error"] and "t3" not in c.app.state.solver.jobs


FOREIGN = [({"host": "evil.example:8031"}, 403), ({"host": "127.0.0.1:9999"}, 403),
           ({"origin": "http://evil.example"}, 403), ({"origin": "null"}, 403),
           ({"origin": f"http://127.0.0.1:{PORT}.evil.example"}, 403), ({"x-exact-token": "guessed"}, 403),
           ({"x-exact-token": ""}, 403), ({"content-type": "text/plain"}, 415),
           ({"content-type": "application/x-www-form-urlencoded"}, 415)]


@pytest.mark.parametrize("path", ["/api/advice", "/api/rate"])
@pytest.mark.parametrize("headers, status", FOREIGN)
def test_a_request_of_another_site_is_refused_in_one_line_and_starts_nothing(small, path, headers, status):
    """DNS rebinding (a foreign Host), a cross-site POST (a foreign Origin, no token, a body another site may
    send without asking the browser first): refused with one line of JSON, no worker, no CORS header."""
    with app_client(Solver(small, InstantAdvice([], small), None, rate_limit=WORKER_LIMIT)) as c:
        game = worker_game() if path == "/api/rate" else ()  # each a worker's job once accepted
        body = json.dumps({"tab": "t", "history": [[w, format_pattern(p, 5)] for w, p in game]})
        assert c.post(path, content=body, headers=JSON).status_code == 200 and c.app.state.solver.jobs  # accepted
        c.post("/api/close", json={"tab": "t"})
        wait_until(lambda: not workers_of(os.getpid()), 10)  # the closed tab's worker has ended
        r = c.post(path, content=body, headers={**JSON, **headers})
        assert r.status_code == status and list(r.json()) == ["error"] and "\n" not in r.json()["error"]
        assert not c.app.state.solver.jobs and not workers_of(os.getpid())
        assert not any(h.startswith("access-control-") for h in r.headers)


def test_the_page_is_served_only_to_its_own_address_and_carries_the_token(small):
    with app_client(Solver(small, InstantAdvice([], small), None)) as c:
        token = c.app.state.token
        assert c.get("/", headers={"host": "evil.example:8031"}).status_code == 403  # a rebound name reads nothing
        page = c.get("/", headers={"host": f"localhost:{PORT}"}).text
        config = json.loads(page.split('<script id="config" type="application/json">')[1].split("</script>")[0])
        assert config["token"] == token and len(token) >= 32
        assert c.post("/api/close", json={"tab": "t"}, headers={"origin": f"http://localhost:{PORT}"}).status_code == 200
        assert c.post("/api/close", json={"tab": "t"}).status_code == 200  # no Origin: not a browser's cross-site POST
    other = make_app(Solver(small, InstantAdvice([], small), None), port=PORT)
    assert other.state.token != token  # a fresh token per server


def test_the_page_closes_with_json_and_the_token_not_a_beacon():
    page = (ROOT / "exact" / "cli" / "wordle" / "serve.html").read_text()
    assert "sendBeacon" not in page and "keepalive: true" in page and '"X-Exact-Token": config.token' in page


@pytest.mark.parametrize("body", [b"[" * 5000, b'{"tab": "t", "history": ' + b"[" * 8000 + b"]" * 8000 + b"}"])
def test_json_nested_too_deep_is_a_400_not_a_traceback(client, body):
    r = client.post("/api/advice", content=body, headers=JSON)
    assert r.status_code == 400 and list(r.json()) == ["error"] and "Traceback" not in r.text


def test_an_unknown_path_and_a_wrong_method_answer_one_line_of_json(client):
    for r, status in ((client.get("/nowhere"), 404), (client.get("/api/advice"), 405),
                      (client.post("/nowhere", json={}), 404)):
        assert r.status_code == status and list(r.json()) == ["error"] and "\n" not in r.json()["error"]


def test_an_internal_error_is_a_500_with_one_line_of_json_not_a_traceback(small, monkeypatch):
    solver = Solver(small, InstantAdvice([], small), None)
    monkeypatch.setattr(solver, "ask", lambda tab, history: 1 / 0)
    app = make_app(solver, port=PORT)
    with TestClient(app, base_url=f"http://127.0.0.1:{PORT}", headers={"X-Exact-Token": app.state.token},
                    raise_server_exceptions=False) as c:
        r = c.post("/api/advice", json={"tab": "t", "history": []})
    assert r.status_code == 500 and r.json() == {"error": "internal error: ZeroDivisionError"}


def test_a_history_longer_than_the_guess_limit_is_a_400_and_starts_nothing(client, small):
    answer = SMALL[7]
    moves = [[w, format_pattern(feedback(w, answer), 5)] for w in SMALL[10:17]]  # 7 guesses, the game has 6
    r = client.post("/api/advice", json={"tab": "t", "history": moves})
    assert r.status_code == 400 and "6" in r.json()["error"] and not client.app.state.solver.jobs


def test_a_body_over_the_cap_is_refused_by_its_length_before_it_is_read(client):
    r = client.post("/api/advice", content=b" " * 20_000, headers=JSON)
    assert r.status_code == 413 and "16384 bytes" in r.json()["error"] and not client.app.state.solver.jobs


# --- the rating of a game that ended ---------------------------------------------------------------


def ranking_total(first: str) -> int:
    """A first guess's exact total in the committed fewest-guesses ranking of the original lists."""
    ranking = json.loads((ROOT / "results" / "wordle" / "ranking-guesses-certificate.json").read_text())
    return ranking["first_guesses"][first]["total"]


def test_a_game_after_crane_is_rated_from_the_ranking_then_the_book():
    A, G = named_lists("original")
    setup = Setup(A, G)
    book = shipped_opener_book(setup)
    with app_client(Solver(setup, InstantAdvice(shipped_trees(setup), setup, book), None)) as c:
        answer, moves = A.words[1234], [["crane", format_pattern(feedback("crane", A.words[1234]), 5)]]
        while (reply := c.post("/api/advice", json={"tab": "t", "history": moves}).json())["status"] != "solved":
            assert reply["status"] == "proven", reply  # the book answers after crane
            moves.append([reply["guess"], format_pattern(feedback(reply["guess"], answer), 5)])
        r = c.post("/api/rate", json={"tab": "t", "history": moves})
        assert not c.app.state.solver.jobs  # nothing left to compute: no worker
    rating = r.json()
    assert r.status_code == 200 and rating["status"] == "done" and len(rating["rows"]) == len(moves) > 2
    first = rating["rows"][0]
    assert first["guess"] == "crane" and first["played"]["state"] == "exact"
    assert first["played"]["total"] == ranking_total("crane") and first["played"]["answers"] == len(A)
    assert "ranking-guesses-certificate.json" in first["played"]["sources"]  # the file, behind the details
    assert first["played"]["known"] == "exact: the proven ranking of every first guess"
    assert first["best"]["total"] == ranking_total(first["best_guess"]) <= first["played"]["total"]
    assert first["loss"] == pytest.approx((first["played"]["total"] - first["best"]["total"]) / len(A))
    history = tuple((w, feedback(w, answer)) for w, _ in moves)
    for i, row in enumerate(rating["rows"][1:], 1):
        advice = lookup(book, history[:i])  # the book's proven total from there, this guess included
        assert row["played"]["state"] == "exact" and "opener book" in row["played"]["known"]
        assert row["played"]["total"] == advice.total and row["loss"] == 0 and row["best_guess"] == row["guess"]
        assert row["played"]["expected"] == pytest.approx(advice.total / row["answers"])


def test_a_first_guess_the_ranking_only_bounds_is_rated_at_least_said_as_such():
    A, G = named_lists("original")
    setup = Setup(A, G)
    ranking = json.loads((ROOT / "results" / "wordle" / "ranking-guesses-certificate.json").read_text())
    bound = ranking["first_guesses"]["fuzzy"]["at_least"]  # rejected: a lower bound only, its largest class too large
    assert max(len(P) for P in word_classes("fuzzy", A.words).values()) > rate_max()
    solver = Solver(setup, InstantAdvice([], setup), None)
    try:
        first = solver.rate("t", (("fuzzy", feedback("fuzzy", A.words[0])),)).rows[0]
    finally:
        solver.shutdown()
    assert first["played"]["state"] == "at least" and first["played"]["total"] is None
    assert first["played"]["at_least"] == pytest.approx(bound / len(A)) and first["loss_at_least"]
    assert first["played"]["known"].endswith(": a bound, not exact (the proven ranking of every first guess)")
    assert first["best"]["state"] == "exact"


@pytest.mark.parametrize("body", [{"tab": "t", "history": []}, {"tab": "t", "history": [["<img src=x>", "bbbbb"]]},
                                  {"tab": "<b>", "history": [[SMALL[0], "bbbbb"]]},
                                  {"tab": "t", "history": [[SMALL[0], "bbbbq"]]}])
def test_a_bad_rating_request_is_a_400_with_one_line_of_json(client, body):
    r = client.post("/api/rate", json=body)
    assert r.status_code == 400 and r.headers["content-type"] == "application/json"  # a word named is JSON, not HTML
    assert list(r.json()) == ["error"] and r.json()["error"] and "\n" not in r.json()["error"]


def test_a_rating_of_the_most_wins_is_refused_in_one_line(small):
    setup = Setup(small.answers, small.guesses, objective="wins")
    with app_client(Solver(setup, InstantAdvice([], setup), None)) as c:
        r = c.post("/api/rate", json={"tab": "t", "history": [[SMALL[0], "bbbbb"]]})
    assert r.status_code == 400 and "expected guesses" in r.json()["error"]


def test_the_rating_limit_is_a_minute_by_the_live_proofs_estimate():
    n = rate_max()
    assert expected_seconds(n) <= RATE_SECONDS < expected_seconds(n + 1)


def small_game(answer_index: int = 7) -> tuple:
    answer = SMALL[answer_index]
    return tuple((w, feedback(w, answer)) for w in (SMALL[5], SMALL[9], answer))


#: The most answers a rating solves in :func:`worker_game`'s tests: its first guess is too large (a class of
#: 9), its last position (3 answers) is solved in a worker (more than two answers: no closed form).
WORKER_LIMIT = 4


def worker_game() -> tuple:
    """bloke (9 answers of SMALL left), aback (3 left), wrath: a rating of it needs a worker."""
    return tuple((w, feedback(w, "wrath")) for w in ("bloke", "aback", "wrath"))


def test_what_the_files_lack_is_computing_then_too_large_beyond_the_limit_and_a_new_game_cancels_it(small):
    solver = Solver(small, InstantAdvice([], small), None, rate_limit=WORKER_LIMIT)
    try:
        rating = solver.rate("t", worker_game())
        first, second, last = rating.rows
        assert rating.status == "working" and last["played"]["state"] == "computing" and last["answers"] == 3
        assert first["played"]["state"] == "not computed" and "too large" in first["played"]["known"]
        assert second["played"]["state"] == "not computed" and second["answers"] > WORKER_LIMIT
        # one or two answers left: valued at once, never "computing" (the one-answer row)
        assert all(r["played"]["state"] == "exact" for r in solver.rate("u", small_game()).rows[1:])
        job = solver.jobs["t"]
        assert job.process.is_alive() or job.check() is not None
        solver.ask("t", ())  # New game: the rating's worker is cancelled
        assert solver.jobs.get("t") is not job
        wait_until(lambda: not job.process.is_alive(), 10)
    finally:
        solver.shutdown()


@pytest.mark.slow
def test_a_rating_computed_live_is_analyse_s(small):
    solver = Solver(small, InstantAdvice([], small), None)
    game = small_game()
    try:
        assert solver.rate("t", game).status == "working"
        rating = wait_until(lambda: (r := solver.rate("t", game)).status != "working" and r, 300)
    finally:
        solver.shutdown()
    analysis = analyse_game(game, small.answers, small.guesses)
    assert rating.status == "done" and rating.next is None
    for row, step in zip(rating.rows, analysis.steps, strict=True):
        assert row["played"]["state"] == row["best"]["state"] == "exact" and row["best_guess"] == step.best_guess
        assert row["played"]["expected"] == pytest.approx(step.played.expected - (step.number - 1))
        assert row["loss"] == pytest.approx(step.extra)


@pytest.mark.slow
def test_a_game_given_up_is_rated_with_the_best_next_guess(small):
    game = small_game()[:1]  # given up after the first guess
    with app_client(Solver(small, InstantAdvice([], small), None)) as c:
        assert c.post("/api/rate", json={"tab": "t", "history": [[w, format_pattern(p, 5)] for w, p in game]}
                      ).json()["status"] == "working"
        rating = wait_until(lambda: (r := c.post("/api/rate", json={"tab": "t", "history": [
            [w, format_pattern(p, 5)] for w, p in game]}).json())["status"] != "working" and r, 300)
    analysis = analyse_game(game, small.answers, small.guesses)
    assert rating["status"] == "done" and rating["next"]["guess"] == analysis.next_guess
    assert rating["next"]["expected"] == pytest.approx(analysis.next_best.expected - 1)


def test_a_game_given_up_on_the_book_gets_the_book_s_next_guess_at_once():
    """Every row from the opener book and the ranking: the rating had no next guess (next null), while
    ``analyse`` printed one; the book's node after the last feedback is the proven best next guess."""
    A, G = named_lists("original")
    setup = Setup(A, G)
    game = (("crane", feedback("crane", "skunk")),)
    advice = lookup(shipped_opener_book(setup), game)
    rating = rate(setup, game, rate_max(), quick=True)
    assert rating.status == "done" and rating.next["guess"] == advice.guess and rating.next["state"] == "exact"
    assert rating.next["expected"] == pytest.approx(advice.expected)


def test_a_game_given_up_too_large_to_prove_still_gets_a_next_guess_said_to_be_unproven(small):
    game = small_game()[:1]
    left = read_position(small, game)
    rating = rate(small, game, live_max=1, quick=True)  # nothing solved live
    assert rating.status == "done" and rating.next["guess"] == heuristic_guess(small, left)
    assert rating.next["state"] == "not computed" and "not proven" in rating.next["known"]


@pytest.mark.slow
def test_a_live_proof_of_the_most_wins_matches_the_dp(tmp_path):
    A = words_from_lines(SMALL, "small-answers")
    setup = Setup(A, A, objective="wins", limit=3)
    history = crowded(SMALL[2])
    solver = Solver(setup, InstantAdvice([], setup), None)
    try:
        reply = wait_until(lambda: (r := solver.ask("t", history)).status != "working" and r, 300)
    finally:
        solver.shutdown()
    left = read_position(setup, history).candidates
    assert reply.status == "proven" and reply.value == solve(words_from_lines(left), A, depth=2, progress=False).wins


@pytest.mark.slow
def test_a_live_proof_matches_the_engine_and_is_stored(small, tmp_path):
    store = Store(tmp_path / "s.sqlite")
    solver = Solver(small, InstantAdvice([], small), store)
    history = ()  # the whole game: positions below the root have classes of more than two answers
    try:
        reply = solver.ask("t", history)
        deadline = time.monotonic() + 300
        while reply.status == "working" and time.monotonic() < deadline:
            time.sleep(0.2)
            reply = solver.ask("t", history)
    finally:
        solver.shutdown()
    r = solve_guesses(small.answers, small.guesses, after=history, progress=False)
    n = len(read_position(small, history).candidates)
    assert reply.status == "proven" and reply.value == r.total and reply.guess == r.first  # no guess played yet
    assert store.get(small.key(read_position(small, history))) == Solution(r.first, r.total, n, True)
    # every position the proven tree reaches next is stored too, with the engine's own value there
    pattern, _ = max(word_classes(r.first, read_position(small, history).candidates).items(), key=lambda c: len(c[1]))
    later = history + ((r.first, pattern),)
    m = len(read_position(small, later).candidates)
    assert m > 2
    again = solve_guesses(small.answers, small.guesses, after=later, progress=False)
    stored = store.get(small.key(read_position(small, later)))
    assert stored.proven and stored.n == m and stored.value == again.total - m  # ties may pick another guess


def play_with_the_server(solver: Solver, answer: str, opener: str) -> tuple:
    """A whole game as the page plays it: ``opener``, then each guess the server advises (waiting for its
    proof), until the answer; the history."""
    history = ((opener, feedback(opener, answer)),)
    while history[-1][0] != answer:
        reply = wait_until(lambda: (r := solver.ask("t", history)).status in ("proven", "solved") and r, 300)
        history += ((reply.guess, feedback(reply.guess, answer)),)
    return history


@pytest.mark.slow
def test_a_rating_reads_what_the_server_proved_and_starts_no_worker(small, tmp_path):
    solver = Solver(small, InstantAdvice([], small), Store(tmp_path / "s.sqlite"), rate_limit=2)
    opener = SMALL[5]
    answer = max(word_classes(opener, SMALL).values(), key=len)[-1]
    try:
        game = play_with_the_server(solver, answer, opener)
        assert len(game) >= 3
        rating = solver.rate("r", game)
        assert rating.status == "done" and "r" not in solver.jobs  # nothing left to solve: no worker
    finally:
        solver.shutdown()
    analysis = analyse_game(game, small.answers, small.guesses)
    for row, step in zip(rating.rows[1:], analysis.steps[1:], strict=True):  # every move the server advised
        assert row["played"]["state"] == row["best"]["state"] == "exact"
        assert row["played"]["expected"] == pytest.approx(step.played.expected - (step.number - 1))
        assert row["loss"] == pytest.approx(0)
    assert "store" in rating.rows[1]["best"]["how"]  # the opener's class: proven live, then stored


@pytest.mark.slow
def test_what_a_rating_solves_is_stored_and_the_next_rating_is_at_once(small, tmp_path):
    store = Store(tmp_path / "s.sqlite")
    solver = Solver(small, InstantAdvice([], small), store)
    game = small_game()
    try:
        assert solver.rate("t", game).status == "working"
        first = wait_until(lambda: (r := solver.rate("t", game)).status != "working" and r, 300)
        assert len(store) > 0
        solver.ask("t", ())  # the page moves on; the same game rated again in another tab
        again = solver.rate("u", game)
    finally:
        solver.shutdown()
    assert first.status == again.status == "done" and "u" not in solver.jobs
    assert [row["played"]["expected"] for row in again.rows] == [row["played"]["expected"] for row in first.rows]
    assert [row["best_guess"] for row in again.rows] == [row["best_guess"] for row in first.rows]


@pytest.mark.slow
def test_a_live_proof_shows_its_bounds_narrowing(small):
    solver = Solver(small, InstantAdvice([], small), None)
    history = ()
    seen = []
    try:
        while True:
            reply = solver.ask("t", history)
            if reply.status != "working":
                break
            if reply.known is not None:
                seen.append(reply.to_json())
            time.sleep(0.05)
    finally:
        solver.shutdown()
    assert reply.status == "proven" and seen, "no bounds were shown while the proof ran"
    optimum = reply.value / reply.n
    for data in seen:
        known = data["known"]
        assert known["lower"] <= optimum + 1e-9 and (known["upper"] is None or known["upper"] >= optimum - 1e-9)
        assert data["source"] == live.FOUND if known["upper"] is not None else data["source"] == live.HEURISTIC
    lowers = [d["known"]["lower"] for d in seen]
    assert lowers == sorted(lowers)


# --- the page in a real browser -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    """``start(*options)``: ``exact wordle serve --no-browser`` on a free port; its URL once it answers."""
    started = []

    def start_server(*options):
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "exact", "wordle", "serve", "--no-browser", "--port", str(port),
                                 "--store", str(tmp_path / "store.sqlite"), *map(str, options)],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        started.append(proc)
        url = f"http://127.0.0.1:{port}/"
        for _ in range(600):
            try:
                urllib.request.urlopen(url, timeout=1).read()
                return url
            except OSError:
                assert proc.poll() is None, proc.stdout.read()
                time.sleep(0.1)
        raise AssertionError("the server did not answer within a minute")

    start_server.procs = started
    yield start_server
    for proc in started:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture
def browser():
    if browser_paths() is None:
        pytest.skip("no Chromium with chromedriver installed (apt install chromium chromium-driver)")
    pytest.importorskip("selenium", reason="selenium drives the browser")
    from exact.wordle.study.explorer import chromium

    driver = chromium((500, 900))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",  # a phone's screen: 360 CSS pixels wide
                           {"width": PHONE_WIDTH, "height": 740, "deviceScaleFactor": 1, "mobile": True})
    yield driver
    driver.quit()


PHONE_WIDTH = 360


def wait_for(driver, condition, seconds: float):
    """Poll ``condition(driver)`` until it is truthy (returned) or ``seconds`` pass (AssertionError)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if (value := condition(driver)):
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s: {driver.find_element('id', 'status').text!r} "
                         f"{driver.find_element('id', 'error').text!r}")


def played(driver) -> int:
    return len(driver.find_elements("css selector", "#board .row"))


def type_move(driver, text: str) -> None:
    box = driver.find_element("id", "move")
    assert driver.switch_to.active_element == box  # the input is focused
    box.send_keys(text + "\n")


@pytest.mark.slow
def test_a_whole_game_from_the_opener_each_advice_proven_from_a_file(server, browser):
    """Every advice after crane comes from the opener book (proven, no live proof: never "working"); how fast
    that is belongs in a benchmark, not here (a loaded machine is not a slow page)."""
    A, G = named_lists("original")
    answer = A.words[1234]
    d = browser
    d.get(server("--list", "original", "--objective", "guesses"))
    assert d.title == "Wordle: fewest guesses, every answer within 6"
    wait_for(d, lambda d: d.find_element("id", "status").get_attribute("data-status") == "proven", 10)
    opening = d.find_element("id", "status").text  # salet: the ranking proves it best of all, and it is no answer
    assert "SALET" in opening and "proven best of all first guesses" in opening and "cannot be the answer" in opening
    guess, pos = "crane", start(A)  # a player's own opener: the opener book covers it
    while True:
        pattern = feedback(guess, answer)
        type_move(d, f"{guess} {format_pattern(pattern, 5, 'letters')}" if pos.played == 0
                  else format_pattern(pattern, 5, "letters"))
        pos = after(pos, guess, pattern)
        wait_for(d, lambda d: played(d) == pos.played and d.find_element("id", "status").get_attribute(
            "data-status") != "asking", 30)
        status = d.find_element("id", "status").get_attribute("data-status")
        if guess == answer:
            assert status == "solved" and f"Solved in {pos.played} guesses" in d.find_element("id", "status").text
            break
        assert status == "proven", d.find_element("id", "status").text
        assert "Expected guesses from here" in d.find_element("id", "value").text
        assert f"{len(pos.candidates)} answer" in d.find_element("id", "left").text
        assert "P(win" not in d.find_element("tag name", "body").text
        guess = d.find_element("id", "next").get_attribute("data-guess")
        assert guess in pos.candidates or len(pos.candidates) > 2
    # the game is rated: the opener's row reads the ranking's exact value
    row = wait_for(d, lambda d: d.find_elements("css selector", '#rating tr[data-guess="crane"]'), 10)[0]
    assert d.find_element("id", "rating").is_displayed() and row.get_attribute("data-state") == "exact"
    assert f"{ranking_total('crane') / len(A):.3f}" in row.text
    assert len(d.find_elements("css selector", "#rating-rows tr[data-guess]")) == pos.played
    assert d.execute_script("return [window.innerWidth, document.documentElement.scrollWidth]") == [PHONE_WIDTH] * 2


@pytest.mark.slow
def test_an_opener_no_tree_covers_gets_a_proven_guess_live(server, browser, tmp_path, write_lines):
    answers = write_lines(tmp_path / "answers.txt", SMALL)
    setup = Setup(words_from_lines(SMALL), words_from_lines(SMALL))
    opener = SMALL[5]
    answer = max(word_classes(opener, SMALL).values(), key=len)[0]  # the most answers left: a proof to run
    d = browser
    d.get(server("--answers", answers, "--guesses", answers))
    wait_for(d, lambda d: d.find_element("id", "status").get_attribute("data-status") in ("working", "proven"), 30)
    type_move(d, f"{opener} {format_pattern(feedback(opener, answer), 5)}")
    wait_for(d, lambda d: played(d) == 1, 5)
    seen = {d.find_element("id", "status").get_attribute("data-status")}
    status = wait_for(d, lambda d: (s := d.find_element("id", "status").get_attribute("data-status")) != "working" and s,
                      300)
    seen.add(status)
    history = ((opener, feedback(opener, answer)),)
    n = len(read_position(setup, history).candidates)
    r = solve_guesses(setup.answers, setup.guesses, after=history, progress=False)
    assert status == "proven" and d.find_element("id", "next").get_attribute("data-guess") == r.first
    assert f"{(r.total - n) / n:.3f}" in d.find_element("id", "value").text
    assert n > 2 and "working" in seen


@pytest.mark.slow
def test_the_page_shows_a_running_proof_s_bounds_narrowing_to_the_value(server, browser):
    """tains then its feedback 82 on nyt2023 (79 answers, a proof of seconds that rules out 438 contenders): while
    it runs the page shows the proven bounds and the best strategy's guess; they hold the value proven."""
    pattern = format_pattern(82, 5)
    d = browser
    d.get(server("--list", "nyt2023"))
    wait_for(d, lambda d: d.find_element("id", "status").get_attribute("data-status") in ("working", "proven"), 60)
    type_move(d, f"tains {pattern}")
    wait_for(d, lambda d: played(d) == 1, 5)
    shown = []
    def proven(d):
        status, value = d.find_element("id", "status").get_attribute("data-status"), d.find_element("id", "value").text
        if status == "working" and "with the best play" in value:
            shown.append(value)
        return status == "proven" and value
    value = wait_for(d, proven, 300)
    expected = float(value.split("Expected guesses from here: ")[1].split()[0])
    assert shown, "no bounds were shown while the proof ran"
    for text in shown:
        numbers = [float(x) for x in text.split("best play: ")[1].split(" so far")[0].replace("at least ", "").split(" to ")]
        assert numbers[0] <= expected + 1e-3 and (len(numbers) == 1 or numbers[1] >= expected - 1e-3), (text, expected)


def page_token(url: str) -> str:
    """The token a served page carries (its config; "" where it has none)."""
    page = urllib.request.urlopen(url, timeout=30).read().decode()
    config = json.loads(page.split('<script id="config" type="application/json">')[1].split("</script>")[0])
    return config.get("token", "")


def post_json(url: str, data: dict, token: str) -> dict:
    request = urllib.request.Request(url, json.dumps(data).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-Exact-Token": token})
    return json.loads(urllib.request.urlopen(request, timeout=60).read())


def memory_kib(pid: int) -> dict[str, int]:
    """VmRSS (resident now) and VmHWM (its peak so far) of a process, in KiB, from /proc/PID/status."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {k: int(v.split()[0]) for k, v in (line.split(":", 1) for line in lines) if k in ("VmRSS", "VmHWM")}


def post_raw(port: int, head: bytes, chunks) -> int | None:
    """Send a request's head then its chunks on a socket, stopping once the server answers (or closes);
    the status the server answered, None when it did not within 30 s."""
    reply = bytearray()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        def read():
            try:
                while data := sock.recv(65536):
                    reply.extend(data)
            except OSError:
                pass
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            sock.sendall(head)
            for chunk in chunks:
                if reply:
                    break
                sock.sendall(chunk)
        except OSError:
            pass  # the server closed the connection: it refused the rest
        reader.join(30)
    return int(reply.split(b" ", 2)[1]) if reply else None


@pytest.mark.slow
def test_a_huge_body_is_refused_while_it_is_read_and_the_server_stays_small(server, tmp_path, write_lines):
    """300 MB sent chunked (made lazily) to a real server: refused, and the server's memory grows by a few MB
    at most; a Content-Length over the cap is refused before a byte of the body is sent."""
    answers = write_lines(tmp_path / "answers.txt", SMALL)
    url = server("--answers", answers, "--guesses", answers)
    pid, port, token = server.procs[-1].pid, int(url.rstrip("/").rsplit(":", 1)[1]), page_token(url)
    head = (f"POST /api/advice HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"X-Exact-Token: {token}\r\n").encode()
    before = memory_kib(pid)
    megabyte = b" " * (1 << 20)
    chunks = (b"%x\r\n%s\r\n" % (len(megabyte), megabyte) for _ in range(300))
    assert post_raw(port, head + b"Transfer-Encoding: chunked\r\n\r\n", chunks) in (400, 413)
    assert post_raw(port, head + b"Content-Length: 314572800\r\n\r\n", ()) == 413
    after = memory_kib(pid)
    grown = max(after["VmRSS"] - before["VmRSS"], after["VmHWM"] - before["VmHWM"])
    assert grown < 20 * 1024, (before, after)
    assert post_json(url + "api/close", {"tab": "t"}, token) == {"closed": "t"}  # it serves on


@pytest.mark.slow
def test_the_workers_die_with_the_server_even_when_it_is_killed(server):
    """A proof that runs for an hour (fuzzy all gray on the original lists) outlives no SIGKILL of its server."""
    url = server("--list", "original")
    proc = server.procs[-1]
    reply = post_json(url + "api/advice", {"tab": "t", "history": [["fuzzy", "bbbbb"]]}, page_token(url))
    assert reply["status"] == "working"
    workers = wait_until(lambda: workers_of(proc.pid), 60)
    forkservers = sorted({proc_stat(pid)[1] for pid in workers})
    proc.kill()
    proc.wait()
    try:
        wait_until(lambda: not any(alive(pid) for pid in workers + forkservers), 10)
    finally:
        for pid in workers + forkservers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_a_server_stopped_with_a_proof_running_says_nothing_more(server):
    """Ctrl-C with a live proof running: the server stops (exit 130) with one line, and no warning (a worker's
    progress bar held a multiprocessing semaphore that its cancellation leaked: the resource tracker warned)."""
    url = server("--list", "original")
    proc = server.procs[-1]
    reply = post_json(url + "api/advice", {"tab": "t", "history": [["fuzzy", "bbbbb"]]}, page_token(url))
    assert reply["status"] == "working"
    wait_until(lambda: workers_of(proc.pid), 60)
    time.sleep(3)  # the worker is proving
    proc.send_signal(signal.SIGINT)
    output = proc.communicate(timeout=60)[0]
    assert proc.returncode == 130, output
    assert "Warning" not in output and "leaked" not in output and "Traceback" not in output, output


@pytest.mark.slow
def test_a_second_page_waits_for_a_free_core_and_gets_it_when_the_first_closes(server, browser):
    """--workers 1: the second page's proof waits (the page says so) until the first page closes (its close
    request, JSON with the token, keepalive, cancels its proof)."""
    url = server("--list", "original", "--workers", "1")
    d = browser

    def status(d):
        return d.find_element("id", "status").get_attribute("data-status")
    d.get(url)
    wait_for(d, lambda d: status(d) == "proven", 30)
    type_move(d, "fuzzy bbbbb")
    wait_for(d, lambda d: status(d) == "working", 30)
    first = d.current_window_handle
    d.switch_to.new_window("tab")
    d.get(url)
    wait_for(d, lambda d: status(d) == "proven", 30)
    type_move(d, "fuzzy bbbbb")
    wait_for(d, lambda d: status(d) == "waiting", 30)
    assert "Waiting for a free core" in d.find_element("id", "status").text
    assert "heuristic" in d.find_element("id", "next").get_attribute("class")
    second = d.current_window_handle
    d.switch_to.window(first)
    d.close()
    d.switch_to.window(second)
    wait_for(d, lambda d: status(d) == "working", 30)


def test_a_taken_port_is_one_line_and_exit_2(cli, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = cli("wordle", "serve", "--no-browser", "--list", "original", "--port", str(port),
                             "--store", str(tmp_path / "s.sqlite"))
    assert code == 2 and f"cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err + out


def test_a_store_path_that_is_no_file_is_one_line_and_left_alone(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(ExactError, match="must be a regular file"):
        Store(folder)
    assert folder.is_dir() and not list(tmp_path.glob("*.corrupt-*"))
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    with pytest.raises(ExactError, match="cannot be made here"):
        Store(blocker / "s.sqlite")  # a file where the folder should be


def test_a_row_the_store_did_not_write_is_not_trusted(tmp_path, small):
    store = Store(tmp_path / "s.sqlite")
    store._db.execute("INSERT INTO solved VALUES ('typed', 'crane', 'many', 2, 1, 0)")
    assert store.get("typed") is None
    position = read_position(small, crowded(SMALL[0]))
    store.put(small.key(position), Solution("zzzzz", 1, len(position.candidates), True))  # not an allowed guess
    solver = Solver(small, InstantAdvice([], small), store)
    try:
        assert solver.ask("t", position.history).status == "working"
    finally:
        solver.shutdown()


@pytest.mark.parametrize("objective, value, proven", [("guesses", lambda n: n - 1, True),  # fewer guesses than answers
                                                      ("guesses", lambda n: 2 * n - 2, True),  # below 2n - 1
                                                      ("guesses", lambda n: 5 * n + 1, True),  # beyond 5 guesses each
                                                      ("guesses", lambda n: -1, True),
                                                      ("guesses", lambda n: 2 * n, False),  # not proven
                                                      ("wins", lambda n: n + 1, True), ("wins", lambda n: -1, True)])
def test_a_stored_value_that_is_impossible_there_is_not_served_as_proven(tmp_path, objective, value, proven):
    A = words_from_lines(SMALL, "small-answers")
    setup = Setup(A, A, objective=objective)
    store = Store(tmp_path / "s.sqlite")
    position = read_position(setup, crowded(SMALL[0]))
    n = len(position.candidates)
    store.put(setup.key(position), Solution(SMALL[1], value(n), n, proven))
    solver = Solver(setup, InstantAdvice([], setup), store)
    try:
        assert solver.ask("t", position.history).status == "working"
        store.put(setup.key(position), Solution(SMALL[1], 2 * n if objective == "guesses" else n, n, True))
        assert solver.ask("t", position.history).status == "proven"  # a possible value is read (not proven here)
    finally:
        solver.shutdown()


def test_a_stored_guess_that_breaks_the_hard_mode_rule_is_not_served(tmp_path):
    A = words_from_lines(SMALL, "small-answers")
    setup = Setup(A, A, hard=True)
    store = Store(tmp_path / "s.sqlite")
    opener = SMALL[0]
    hinted = max((P for p, P in word_classes(opener, SMALL).items() if p), key=len)  # a class with a hint to keep
    position = read_position(setup, ((opener, feedback(opener, hinted[0])),))
    n = len(position.candidates)
    assert n > 2
    breaking = next(g for g in SMALL if not is_allowed(g, position.history))
    store.put(setup.key(position), Solution(breaking, 2 * n, n, True))
    solver = Solver(setup, InstantAdvice([], setup), store)
    try:
        assert solver.ask("t", position.history).status == "working"
    finally:
        solver.shutdown()


def test_the_prior_s_page_opens_at_once_from_its_proven_tree_and_is_titled_by_the_game():
    """--list nyt-prior: the opening came from a 2.7-hour live proof (a heuristic TEARS meanwhile) under a
    title holding the weights' file path; its fewest-guesses tree after tares (proven under the prior) answers
    at once, and only under that prior."""
    from exact.weights import named_weights, unit_weights
    A, G = named_lists("nyt-prior")
    prior = Setup(A, G, weights=named_weights("nyt-prior", A))
    assert prior.title == "Wordle, under a word-frequency prior: fewest guesses, every answer within 6"
    certificate = json.loads((ROOT / "results/wordle/ranking-guesses-prior20-certificate.json").read_text())
    found = InstantAdvice(shipped_trees(prior), prior).advice(read_position(prior, ()))
    assert (found.guess, found.value) == (certificate["best"]["guess"], certificate["best"]["total"])
    values = unit_weights(A).values.copy()
    values[0] = 2  # another prior over the same answers: no tree of this one
    other = Setup(A, G, weights=type(prior.weights)(values, "other.txt", "0" * 64))
    assert shipped_trees(other) == [] and "other.txt" in other.title
