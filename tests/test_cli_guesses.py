"""The command line of the fewest-guesses objective, complete trees, positions and their errors."""

import json

import pytest

from exact.game.tree import replay_position
from exact.wordle.fewest import search as gm
from exact.wordle.fewest.search import solve_guesses
from exact.words import wordle_answers, words_from_lines


@pytest.fixture(scope="module")
def pool_file(tmp_path_factory, write_lines):
    return write_lines(tmp_path_factory.mktemp("pool") / "pool.txt", wordle_answers().words[:120])


def lists(pool_file):
    return ["--answers", str(pool_file), "--guesses", str(pool_file)]


@pytest.fixture
def verify(cli):
    """``verify(tree_file, *args)``: the JSON report of ``exact wordle verify``, which must succeed."""
    def run(path, *args):
        r = cli("wordle", "verify", path, "--json", *args)
        assert r.returncode == 0, r.stdout + r.stderr
        return json.loads(r.stdout)
    return run


@pytest.mark.slow
def test_solve_objective_guesses_writes_a_tree_that_replays(tmp_path, pool_file, cli, verify):
    out_txt, out_graphml = tmp_path / "t.txt", tmp_path / "t.graphml"
    r = cli("wordle", "solve", "--objective", "guesses", *lists(pool_file), "--out", out_txt,
            "--out", out_graphml, "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    A = words_from_lines(wordle_answers().words[:120])
    lib = solve_guesses(A, A, progress=False)
    assert data["status"] == "OPTIMAL" and data["total"] == lib.total and data["first"] == lib.first
    for path in (out_txt, out_graphml):
        v = verify(path, *lists(pool_file), "--depth", "6")
        assert v["valid"] and v["wins"] == 120
        assert sum((k + 1) * w for k, w in enumerate(v["wins_at"])) == data["total"]


@pytest.mark.slow
def test_after_compare_and_cutoff(pool_file, cli):
    A = words_from_lines(wordle_answers().words[:120])
    g = A.words[0]
    from exact.feedback import feedback, format_pattern

    pattern = format_pattern(feedback(g, A.words[5]), 5, "letters").upper()
    r = cli("wordle", "solve", "--objective", "guesses", *lists(pool_file), "--after", f"{g} {pattern}",
            "--compare", A.words[7], "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["after"] == [[g, format_pattern(feedback(g, A.words[5]), 5)]]
    c = data["compare"]
    assert c["guess"] == A.words[7] and c["extra_guesses"] == c["value"]["total"] - c["best_value"]["total"] >= 0
    # the same position by the DP objective
    r = cli("wordle", "solve", "--depth", "3", *lists(pool_file), "--after", f"{g} {pattern}",
            "--compare", A.words[7], "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["compare"]["fewer_wins"] == d["compare"]["best_wins"] - d["compare"]["wins"] >= 0
    # --cutoff below the optimum: proven, no tree
    full = solve_guesses(A, A, progress=False)
    r = cli("wordle", "solve", "--objective", "guesses", *lists(pool_file), "--cutoff", str(full.total - 1), "--json")
    data = json.loads(r.stdout)
    assert r.returncode == 0 and data["status"] == "INFEASIBLE" and data["lower_bound"] >= full.total


@pytest.mark.slow
def test_depth_trees_are_complete_unless_truncated(tmp_path, pool_file, cli, verify):
    full, cut = tmp_path / "full.graphml", tmp_path / "cut.graphml"
    r = cli("wordle", "solve", "--depth", "2", *lists(pool_file), "--out", full, "--json")
    assert r.returncode == 0, r.stderr
    wins = json.loads(r.stdout)["wins"]
    v = verify(full, *lists(pool_file), "--depth", "6")
    assert v["valid"] and v["wins"] == 120 and sum(v["wins_at"][:2]) == wins
    r = cli("wordle", "solve", "--depth", "2", *lists(pool_file), "--out", cut, "--truncate")
    assert r.returncode == 0, r.stderr
    assert verify(cut, *lists(pool_file), "--depth", "2")["wins"] == wins
    # evaluate and memorable write complete trees too
    ev = tmp_path / "ev.txt"
    r = cli("wordle", "evaluate", "--first", "about", "--second", "min-worst", *lists(pool_file), "--out", ev, "--json")
    assert r.returncode == 0, r.stderr
    v = verify(ev, *lists(pool_file), "--depth", "6")
    assert v["valid"] and v["wins"] == 120 and sum(v["wins_at"][:3]) == json.loads(r.stdout)["wins"]
    mem = tmp_path / "mem.json"
    r = cli("wordle", "memorable", "--max-distinct-second", "2", "--first", "about", *lists(pool_file),
            "--out", mem, "--json")
    assert r.returncode == 0, r.stderr
    v = verify(mem, *lists(pool_file), "--depth", "6")
    assert v["valid"] and v["wins"] == 120 and sum(v["wins_at"][:3]) == json.loads(r.stdout)["wins"]
    # exact wordle complete on the truncated tree gives the same wins within 2
    done = tmp_path / "done.txt"
    r = cli("wordle", "complete", cut, "--depth", "2", *lists(pool_file), "--out", done)
    assert r.returncode == 0, r.stderr
    v = verify(done, *lists(pool_file), "--depth", "6")
    assert v["valid"] and v["wins"] == 120 and sum(v["wins_at"][:2]) == wins


@pytest.mark.slow
def test_tradeoff_table(tmp_path, pool_file, cli):
    out = tmp_path / "trade.json"
    r = cli("wordle", "tradeoff", "--first", "about,adobe", *lists(pool_file), "--out", out, "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert [row["first"] for row in data["rows"]] == ["about", "adobe"]
    for row in data["rows"]:
        plain, lex = row["guesses"], row["win3,guesses"]
        assert lex["wins_within"] >= plain["wins_within"] and lex["total"] >= plain["total"]
    assert out.with_suffix(".md").is_file() and out.with_suffix(".csv").is_file()


def test_bad_input_is_one_line(tmp_path, pool_file, cli, write_lines, assert_one_line_error):
    small = write_lines(tmp_path / "small.txt", wordle_answers().words[:50])
    # an answer that is not a guess: one line, no traceback (evaluate used to raise RuntimeError)
    assert_one_line_error(cli("wordle", "evaluate", "--first", "about", "--second", "most-classes",
                              "--answers", pool_file, "--guesses", small), "is not in", "small.txt")
    assert_one_line_error(cli("wordle", "solve", "--objective", "guesses", "--answers", pool_file,
                              "--guesses", small), "is not in")
    for args, fragment in [
        (["--objective", "fewest"], "--objective"),
        (["--objective", "guesses,win3"], "last"),
        (["--objective", "guesses", "--after", "about"], "--after"),
        (["--objective", "guesses", "--after", "about QQQQQ"], "--after"),
        (["--objective", "guesses", "--after", "zzzzz BBBBB"], "--after"),
        (["--objective", "guesses", "--compare", "ab1ut"], "--compare"),
        (["--objective", "guesses", "--first", "zzzzz"], "--first"),
        (["--objective", "guesses", "--depth", "3"], "--depth"),
        (["--objective", "guesses", "--truncate"], "--truncate"),
        (["--depth", "3", "--cutoff", "10"], "--cutoff"),
        (["--depth", "7"], "--max-guesses"),
    ]:
        assert_one_line_error(cli("wordle", "solve", *lists(pool_file), *args), fragment)


def test_interrupt_returns_a_complete_feasible_tree(monkeypatch):
    """Ctrl-C during the search: the classes solved so far are kept, the rest filled greedily."""
    A = words_from_lines(wordle_answers().words[:150])
    full = solve_guesses(A, A, first="about", progress=False, workers=1)
    calls = {"n": 0}
    real = gm.node_value

    def interrupting(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3 and not kwargs.get("greedy"):
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(gm, "node_value", interrupting)
    r = solve_guesses(A, A, first="about", progress=False, workers=1)
    assert r.interrupted and r.status == "FEASIBLE"
    assert sum(r.wins_at) == 150 and r.total >= full.total
    played = replay_position(r.tree, A, A, (), 6)
    assert played.valid and not played.lost


def test_after_names_the_next_guess_not_the_first(cli, tmp_path, write_lines):
    words = write_lines(tmp_path / "w.txt", ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
    code, out, err = cli("wordle", "solve", "--objective", "guesses", "--answers", words, "--guesses", words,
                         "--after", "rebut bbbbb")
    assert code == 0, err
    line = out.splitlines()[1]
    assert line.startswith("guess 2 ") and "first guess" not in out, out
    assert "2 answers" in line and ("1 node searched" in line or "nodes searched" in line)
    code, out, err = cli("wordle", "solve", "--objective", "guesses", "--answers", words, "--guesses", words,
                         "--after", "rebut bbbbb sissy bbbbb")
    assert code == 0 and "over 1 answer," in out, out + err
