"""The bounds that reject first guesses early, and the ranking of first guesses, against brute force
(tests/oracles.brute_fewest: every tree of tiny instances), in normal and hard mode."""

import json
import shlex

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exact.errors import ExactError
from exact.game.position import position
from exact.wordle.fewest.objective import Objective
from exact.wordle.fewest.search import make_guesses_instance
from exact.wordle.fewest.lower_bounds import _floor, node_bound
from exact.wordle.fewest.scan import lookahead
from exact.wordle.fewest.memo import new_memo
from exact.wordle.fewest.ranking import first_value, rank_first_guesses, read_checkpoint
from exact.words import words_from_lines

from oracles import brute_fewest, look_alike


#: words that differ in one letter: every guess among them makes at most 2 classes on them, so
#: m = 2 and the wide term of _floor (n > m) is what the bound is made of
FAMILY = ["bight", "fight", "light", "might", "night", "right", "sight", "tight", "wight"]

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def brute_from(words, guesses, t, max_guesses, hard):
    """The fewest total guesses of the answers ``words`` reached before step t (counted from the game
    start, c[s] = s), no constraint yet: brute force from step 1 with max_guesses - (t - 1), shifted."""
    v = brute_fewest(list(words), list(guesses), max_guesses - (t - 1), hard=hard)
    return None if v is None else v[-1] + (t - 1) * len(words)


def instances():
    yield "family", words_from_lines(FAMILY), words_from_lines(FAMILY)
    for seed in range(4):
        A, G = look_alike(seed, 7, 3)
        yield f"tiny{seed}", A, G


CASES = list(instances())


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("case", range(len(CASES)), ids=[c[0] for c in CASES])
@SETTINGS
@given(data=st.data())
def test_each_bound_is_at_most_the_brute_force_value(case, hard, data):
    _, A, G = CASES[case]
    family = A.words[0] == "bight"
    max_guesses = (5 if hard else 7) if family else 5
    inst = make_guesses_instance(A, G, Objective(()), max_guesses, hard)
    most = 4 if family and hard else len(A)  # brute force in hard mode keys on the whole history
    S = np.array(sorted(data.draw(st.sets(st.integers(0, len(A) - 1), min_size=1, max_size=most), label="S")),
                 dtype=np.int64)
    t = data.draw(st.integers(1, 2), label="t")
    beta = data.draw(st.integers(0, 60), label="beta")
    _, rule = position(A, (), hard)
    true = brute_from([A.words[a] for a in S], G.words, t, max_guesses, hard)
    true = float("inf") if true is None else true
    n, m = len(S), int(inst.ctx.most_classes)
    node = int(_floor(inst.cost, t, n, min(n, m), min(n, m))) if n >= 2 else int(inst.cost[t])
    sharp = int(node_bound(inst.ctx, new_memo(), S, t, rule.greens, rule.least))
    look = int(lookahead(inst.ctx, new_memo(), S, t, rule.greens, rule.least, np.int64(beta)))
    assert node <= sharp <= true or sharp >= 2 ** 59  # INF is a bound only when nothing fits the limit
    assert node <= true or true == float("inf")
    assert sharp <= look or look >= 2 ** 59
    assert look <= true


def test_the_wide_term_is_used_and_tight_enough():
    """On FAMILY (m = 2) the wide term lifts the node bound well above 2n - 1, and stays valid."""
    A = words_from_lines(FAMILY)
    inst = make_guesses_instance(A, A, Objective(()), 9)
    assert int(inst.ctx.most_classes) == 2
    n = len(A)
    wide = int(_floor(inst.cost, 1, n, 2, 2))
    assert wide == 1 + 2 + 3 * (n - 2)  # Selby's 3n - 1 + max(0, n - m), counted from step 1: minus n
    assert wide > 2 * n - 1
    assert wide <= brute_fewest(FAMILY, FAMILY, 9)[-1]


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_first_value_is_exact_below_the_threshold_and_a_bound_above(seed, hard):
    A, G = look_alike(seed, 8, 4)
    inst = make_guesses_instance(A, G, Objective(()), 5, hard)
    S, rule = position(A, (), hard)
    for g, word in enumerate(G.words):
        true = brute_fewest(A.words, G.words, 5, hard=hard, first=word)
        true = true[-1] if true else None
        for thr in (10, 16, 18, 20, 40):
            v, exact, _ = first_value(inst, new_memo(), S, g, 1, rule, thr)
            if exact:
                assert v == true and v < thr
            else:
                assert v >= thr and (true is None or v <= true)


@pytest.mark.parametrize("hard", [False, True])
def test_first_value_reports_each_class_search(hard):
    """With no threshold every class is searched exactly: one record each, whose values (with the
    answer the first guess hits, 1 guess) add up to the first guess's exact total; with a threshold
    the searches stop at the class that rejected it, whose value then reaches its class threshold."""
    A, G = look_alike(2, 8, 4)
    inst = make_guesses_instance(A, G, Objective(()), 5, hard)
    S, rule = position(A, (), hard)
    for g, word in enumerate(G.words):
        searches = []
        v, exact, _ = first_value(inst, new_memo(), S, g, 1, rule, 10**9, searches=searches)
        assert exact and v == (word in A.index) + sum(c.value for c in searches)
        assert sum(c.size for c in searches) == len(A) - (word in A.index)
        assert all(c.value >= c.lower and c.seconds >= 0 for c in searches)
        searches = []
        v, exact, stage = first_value(inst, new_memo(), S, g, 1, rule, v, searches=searches)
        assert not exact and (stage != "exact" or searches[-1].value >= searches[-1].class_beta)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_ranking_matches_brute_force(seed, hard):
    A, G = look_alike(seed, 8, 4)
    values = {w: brute_fewest(A.words, G.words, 5, hard=hard, first=w) for w in G.words}
    values = {w: (v[-1] if v else None) for w, v in values.items()}
    best = min(v for v in values.values() if v is not None)
    r = rank_first_guesses(A, G, hard=hard, max_guesses=5, progress=False)
    assert r.status == "OPTIMAL" and r.exact[0][1] == best
    assert values[r.exact[0][0]] == best
    for w, fv in r.values.items():
        assert (fv.total == values[w]) if fv.exact else (values[w] is None or fv.total <= values[w])
        if not fv.exact:
            assert fv.total >= best
    assert r.tree is not None and r.tree.guess == r.exact[0][0]
    top = rank_first_guesses(A, G, hard=hard, max_guesses=5, top=3, progress=False)
    proven = sorted(v for v in values.values() if v is not None)[:top.proven_top]
    assert top.proven_top >= 3 and [v for _, v in top.exact[:top.proven_top]] == proven
    cut = rank_first_guesses(A, G, hard=hard, max_guesses=5, cutoff=best - 1, progress=False)
    assert cut.status == "INFEASIBLE" and cut.least_bound >= best


def test_checkpoint_resume_and_bad_lines(tmp_path):
    A, G = look_alike(1, 8, 4)
    full = rank_first_guesses(A, G, max_guesses=5, progress=False, top=2)
    path = tmp_path / "rank.jsonl"
    part = rank_first_guesses(A, G, max_guesses=5, progress=False, top=2, checkpoint=path, limit=4)
    assert part.interrupted and part.status in ("FEASIBLE", "UNKNOWN") and len(part.values) == 4
    if part.exact:  # stopped early, it still writes the tree of the best first guess so far, of its value
        assert part.tree is not None and part.tree.guess == part.exact[0][0]
        assert part.certificate()["tree"]["replay"]["total"] == part.exact[0][1]
    header, records = read_checkpoint(path)
    assert header["answers"]["sha256"] == A.sha256 and len(records) == 4
    done = rank_first_guesses(A, G, max_guesses=5, progress=False, top=2, resume=path)
    assert done.status == "OPTIMAL" and done.exact[:done.proven_top] == full.exact[:full.proven_top]
    assert len(read_checkpoint(path)[1]) == len(G)
    with open(path, "a") as f:
        f.write('{"guess": 3}\n')
    with pytest.raises(ExactError, match=r"rank.jsonl:\d+: not a first-guess record"):
        read_checkpoint(path)
    other = words_from_lines(A.words[:-1])
    path.write_text(path.read_text().rsplit("\n", 2)[0] + "\n")
    with pytest.raises(ExactError, match="answers"):
        rank_first_guesses(other, G, max_guesses=5, progress=False, resume=path)


def test_cli_first_all_and_file(tmp_path, cli, write_lines):
    A, G = look_alike(2, 8, 4)
    answers = write_lines(tmp_path / "a.txt", A.words)
    guesses = write_lines(tmp_path / "g.txt", G.words)
    cert, tree = tmp_path / "rank.json", tmp_path / "best.txt"
    r = cli("wordle", "rank", "--objective", "guesses", "--answers", answers,
            "--guesses", guesses, "--max-guesses", "5", "--certificate", cert, "--out", tree)
    assert r.returncode == 0, r.stderr
    data = json.loads(cert.read_text())
    best = min(v[-1] for v in (brute_fewest(A.words, G.words, 5, first=w) for w in G.words) if v)
    assert data["status"] == "OPTIMAL" and data["best"]["total"] == best
    assert set(data["first_guesses"]) == set(G.words)
    assert all(("total" in v) != ("at_least" in v) for v in data["first_guesses"].values())
    assert data["tree"]["replay"]["total"] == best and tree.is_file()
    some = write_lines(tmp_path / "some.txt", G.words[:3])
    r = cli("wordle", "rank", "--objective", "guesses", "--first", some, "--answers", answers,
            "--guesses", guesses, "--max-guesses", "5", "--json", "--certificate", cert, "--out", tree)
    assert r.returncode == 0, r.stderr
    assert set(json.loads(r.stdout)["first_guesses"]) == set(G.words[:3])
    assert json.loads(cert.read_text())["first_guesses_source"] == str(some)  # the command says what it ranked
    r = cli("wordle", "verify", cert)
    assert r.returncode == 0 and r.stdout.strip().endswith("verified"), r.stdout[-800:]
    bad = write_lines(tmp_path / "bad.txt", [G.words[0], "zzzzz"])
    r = cli("wordle", "rank", "--objective", "guesses", "--first", bad, "--answers", answers,
            "--guesses", guesses)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "bad.txt:2" in lines[0] and "zzzzz" in lines[0]
    # no strategy within 2 guesses for 8 answers: every first guess bounded infinite, said in words
    r = cli("wordle", "rank", "--objective", "guesses", "--answers", answers,
            "--guesses", guesses, "--max-guesses", "2")
    assert r.returncode == 0, r.stderr
    assert "status INFEASIBLE" in r.stdout and "least bound: none solves every answer within 2" in r.stdout
    # --objective feasible: the first guess found has a tree within the limit, written and replayed
    r = cli("wordle", "rank", "--objective", "feasible", "--answers", answers,
            "--guesses", guesses, "--max-guesses", "5", "--out", tree)
    assert r.returncode == 0, r.stderr
    assert "first guesses after which every answer is solved within 5: " in r.stdout and tree.is_file()
    r = cli("wordle", "solve", "--objective", "win3", "--first", "all", "--answers", answers,
            "--guesses", guesses)  # the old spelling: the library's refusal
    assert r.returncode == 2 and "takes --objective guesses or feasible, not win3" in r.stderr
    r = cli("wordle", "rank", "--objective", "win3", "--answers", answers, "--guesses", guesses)
    assert r.returncode == 2 and "'win3' is not one of 'guesses', 'feasible'" in r.stderr


def test_parse_peer_lines():
    from exact.bench.wordle import parse_peer

    text = ("First guess salet  =       7920         0 /     9    dCPU =      1.03   CPU =      1.03\n"
            "First guess trace >=       7921         1 /     9    dCPU =      9.18   CPU =     10.20\n")
    assert parse_peer(text) == {"salet": (7920, True, 1.03), "trace": (7921, False, 9.18)}


FAKE_PEER = """import shutil, sys
argv = sys.argv[1:]
args = {flag: value for flag, value in zip(argv, argv[1:]) if flag in ("-a", "-h", "-t", "-b")}
shutil.copy(args["-h"], OUT + "/answers.txt")
shutil.copy(args["-a"], OUT + "/guesses.txt")
for word in open(args["-t"]).read().split():
    print(f"First guess {word} >= {args['-b']:>10}  0 / 1    dCPU =      0.01   CPU =      0.01")
"""


def test_the_rejection_bench_gives_the_peer_the_chosen_lists(tmp_path):
    """The bench runs the project and the peer on the lists asked for (a fake peer that records what
    it was given and bounds every first guess at the cutoff + 1)."""
    import sys

    from exact.bench.wordle import run_ranking_bench

    A, G = look_alike(1, 8, 4)
    peer = tmp_path / "peer"
    peer.write_text(f"#!{sys.executable}\nOUT = {str(tmp_path)!r}\n" + FAKE_PEER)
    peer.chmod(0o755)
    words = tuple(G.words[:3])
    out = run_ranking_bench(words, cutoff=0, peer=str(peer), echo=lambda *a: None, lists=(A, G))
    assert (tmp_path / "answers.txt").read_text().split() == list(A.words)
    assert (tmp_path / "guesses.txt").read_text().split() == list(G.words)
    assert set(out["peer"]) == set(out["project"]) == set(words)
    assert all(not r["exact"] and r["value"] >= 1 for r in out["project"].values())
    with pytest.raises(ExactError, match="not in"):
        run_ranking_bench(("zzzzz",), cutoff=0, lists=(A, G), echo=lambda *a: None)


def test_bench_words_is_checked_before_any_timing(tmp_path, cli, write_lines):
    words = write_lines(tmp_path / "w.txt", ["salet"])
    r = cli("wordle", "bench", "--words", words)
    assert r.returncode == 2 and "--words goes with the rejection bench" in r.stderr
    bad = write_lines(tmp_path / "bad.txt", ["salet", "zzzzq"])
    r = cli("wordle", "bench", "--objective", "guesses", "--cutoff", "1", "--words", bad)
    assert r.returncode != 0 and f"{bad}:2: 'zzzzq' is not in" in r.stderr and len(r.stderr.splitlines()) == 1


def test_bench_refuses_hard_where_it_would_time_normal_mode(cli):
    r = cli("wordle", "bench", "--hard", "--no-baseline")
    assert r.returncode == 2 and "--hard goes with" in r.stderr and len(r.stderr.splitlines()) == 1


@pytest.mark.slow
def test_two_worker_local_cluster_matches_in_process(tmp_path):
    pytest.importorskip("distributed", reason="Dask distributed is not installed (pip install -e '.[cluster]')")
    A, G = look_alike(0, 8, 4)
    here = rank_first_guesses(A, G, max_guesses=5, progress=False, top=3)
    path = tmp_path / "cluster.jsonl"
    there = rank_first_guesses(A, G, max_guesses=5, progress=False, top=3, cluster="local", workers=2, batch=3,
                               checkpoint=path)
    assert there.status == here.status == "OPTIMAL"
    k = min(there.proven_top, here.proven_top)
    assert k >= 3 and [v for _, v in there.exact[:k]] == [v for _, v in here.exact[:k]]  # ties may differ
    assert there.exact[0] == here.exact[0]
    assert len(read_checkpoint(path)[1]) == len(G)
    assert there.tree is not None and there.tree.guess == here.exact[0][0]


# --- against the published tables (instances/peers/selby/) ------------------------------------------

def test_a_table_line_that_is_not_word_total_is_a_one_line_error(tmp_path):
    from exact.wordle.fewest.compare import read_table

    path = tmp_path / "t.txt"
    path.write_text("salet 7920\n# a comment\ntarse 3.5526 11219\nreast seven\n")
    with pytest.raises(ExactError, match=r"t.txt:4: expected 'word total' or 'word mean total', got 'reast seven'"):
        read_table(path)
    path.write_text("salet 7920\nsalet 7921\n")
    with pytest.raises(ExactError, match=r"t.txt:2: salet is listed twice"):
        read_table(path)


def test_compare_ranking_exits_1_on_a_contradiction(tmp_path, cli):
    import json

    cert, table = tmp_path / "c.json", tmp_path / "t.txt"
    cert.write_text(json.dumps({"first_guesses": {"salet": {"total": 7920}, "reast": {"at_least": 7924}}}))
    table.write_text("salet 7920\nreast 7924\n")
    r = cli("wordle", "compare-ranking", cert, table)
    assert r.returncode == 0 and "1 first guess agrees exactly, 1 rejected here with a bound" in r.stdout, r.stderr
    table.write_text("salet 7921\nreast 7923\n")
    r = cli("wordle", "compare-ranking", cert, table)
    assert r.returncode == 1 and "salet: here total 7920, the table 7921" in r.stdout
    assert "reast: here at_least 7924, the table 7923" in r.stdout


@pytest.mark.parametrize("certificate, table", [
    ("ranking-guesses-certificate.json", "normal.top105.proven"),
    ("ranking-guesses-hard-certificate.json", "hard.top101.proven"),
    ("ranking-guesses-nyt2023-certificate.json", "results_easy_nyt20230701"),
    ("ranking-guesses-nyt2023-hard-certificate.json", "results_hard_nyt20230701"),
    ("ranking-guesses-nyt2022-certificate.json", "results_easy_nyt20220830"),
    ("ranking-guesses-nyt2022-hard-certificate.json", "results_hard_nyt20220830")])
def test_the_committed_rankings_agree_with_selbys_tables(root, certificate, table):
    """Every exact value the same as his; every rejection bound at most his value."""
    from exact.fileio import read_json
    from exact.wordle.fewest.compare import compare_ranking, read_table

    path = root / "results" / "wordle" / certificate
    if not path.is_file():
        pytest.skip(f"{certificate} is not committed yet (its checkpoint is)")
    data, theirs = read_json(path), read_table(root / "instances" / "peers" / "selby" / table)
    c = compare_ranking(data, theirs)
    assert c.ok and not c.unlisted, c.to_json()
    best = min(theirs, key=theirs.get)
    if data["status"] == "OPTIMAL":
        assert data["first_guesses"][best] == {"total": theirs[best]}


def test_a_first_word_with_no_strategy_is_infinite_on_both_sides(tmp_path):
    """Selby writes 'word Infinity 1000000000'; a certificate bounds such a word at the search's
    impossible (2**60): consistent; an exact value where the table says Infinity is a contradiction."""
    from exact.wordle.fewest.compare import INFINITE, compare_ranking, read_table

    path = tmp_path / "t.txt"
    path.write_text("tarse 3.6818 11627\nsalet Infinity 1000000000\n")
    table = read_table(path)
    assert table == {"tarse": 11627, "salet": INFINITE}
    c = compare_ranking({"first_guesses": {"tarse": {"total": 11627}, "salet": {"at_least": 1 << 60}}}, table)
    assert c.ok and c.agree == ["tarse"] and c.bounded == ["salet"]
    c = compare_ranking({"first_guesses": {"salet": {"total": 11700}}}, table)
    assert not c.ok and c.contradicted[0][0] == "salet"


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_feasible_ranking_matches_brute_force(hard):
    """--objective feasible over every first guess: INFEASIBLE with every first guess bounded
    infinite exactly when no first guess has a tree within the limit (brute force), else the first
    one found has a tree and the certificate says OPTIMAL."""
    from exact.wordle.fewest.memo import INF as KERNEL_INF

    A, G = look_alike(3, 8, 3)
    seen = set()
    for max_guesses in (2, 3, 4):
        feasible = [g for g in G.words if brute_fewest(A.words, G.words, max_guesses, hard, first=g) is not None]
        r = rank_first_guesses(A, G, hard=hard, max_guesses=max_guesses, objective="feasible", progress=False)
        assert r.to_json()["objective"] == "feasible"
        if not feasible:
            assert r.status == "INFEASIBLE" and all(v.total >= KERNEL_INF for v in r.values.values())
        else:
            assert r.status == "OPTIMAL" and r.exact[0][1] == 0 and r.exact[0][0] in feasible
            assert all(w in feasible for w, _ in r.exact)
        seen.add(r.status)
    assert seen == {"INFEASIBLE", "OPTIMAL"}


def test_the_vendored_selby_tables_are_what_their_readme_says(root):
    """Each table's (and tree's) lines and sha256 as its README's table gives them."""
    import hashlib
    import re

    folder = root / "instances" / "peers" / "selby"
    rows = re.findall(r"^\| `([^`]+)` \| (\d+) \| `([0-9a-f]{64})` \|", (folder / "README.md").read_text(), re.M)
    assert len(rows) == 8
    for name, lines, sha in rows:
        data = (folder / name).read_bytes()
        assert data.count(b"\n") == int(lines) and hashlib.sha256(data).hexdigest() == sha, name


def test_an_interrupted_ranking_builds_the_best_tree_on_a_memo_of_its_own(monkeypatch):
    """After a signal the search it abandoned may still write the shared memo (a thread of
    exact.stop.abandonable): the tree of the best so far is built on another memo (sharing it crashed
    the process), and it is the optimal tree of that first guess."""
    from exact import firstguess
    from exact.wordle.fewest import ranking as fewest_ranking

    A, G = look_alike(1, 8, 4)
    drive, first_value, first_tree = firstguess.drive, fewest_ranking.first_value, fewest_ranking.first_tree
    searched, built = [], []

    def interrupted(*args, **kwargs):
        run = drive(*args, **{**kwargs, "limit": 4})
        run.interrupted = True  # as after Ctrl-C with an evaluation abandoned
        return run

    monkeypatch.setattr(fewest_ranking.firstguess, "drive", interrupted)
    monkeypatch.setattr(fewest_ranking, "first_value", lambda inst, memo, *a, **k: searched.append(memo) or
                        first_value(inst, memo, *a, **k))
    monkeypatch.setattr(fewest_ranking, "first_tree", lambda inst, memo, *a: built.append(memo) or
                        first_tree(inst, memo, *a))
    r = rank_first_guesses(A, G, max_guesses=5, progress=False, top=2)
    assert r.interrupted and r.exact and r.tree is not None and len(built) == 1
    assert all(built[0] is not memo for memo in searched)
    assert r.certificate()["tree"]["replay"]["total"] == r.exact[0][1]


def test_a_checkpoint_in_the_way_names_the_command_that_resumes_it_and_the_log_says_one_time_left(
        tmp_path, cli, write_lines):
    A, G = look_alike(2, 8, 4)
    answers = write_lines(tmp_path / "a.txt", A.words)
    guesses = write_lines(tmp_path / "g.txt", G.words)
    checkpoint = tmp_path / "run.jsonl"
    command = ["wordle", "rank", "--objective", "guesses", "--answers", str(answers), "--guesses", str(guesses),
               "--max-guesses", "5", "--checkpoint", str(checkpoint)]
    r = cli(*command, env={"EXACT_PROGRESS_SECONDS": "0"})
    assert r.returncode == 0, r.stderr
    bars = [line for line in r.stderr.splitlines() if "elapsed" in line]
    assert bars and not any(" left" in line for line in bars)  # the bar shows no second time-left figure
    r = cli(*command)
    (line,) = r.stderr.strip().splitlines()
    assert r.returncode == 2 and "the checkpoint exists and is not empty" in line
    again = shlex.split(line.split(": ")[-1])
    assert again == ["exact", *command, "--resume", str(checkpoint)]
    r = cli(*again[1:])
    assert r.returncode == 0 and "status OPTIMAL" in r.stdout, r.stderr
