"""exact.plot and `exact plot ...`: the numbers behind each figure, and real PNG/SVG files."""

import json

import pytest

from exact.errors import ExactError
from exact.plot import first_guess_values, guess_counts, is_depth_certificate, lingo_runs, log_history
from exact.wordle.wins.dp import solve
from exact.wordle.wins.trees import best_tree
from exact.game.tree import replay
from exact.game.formats import write_tree
from exact.words import wordle_answers, words_from_lines

pytest.importorskip("matplotlib", reason="matplotlib draws the figures")
SMALL = wordle_answers().words[:80]


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    d = tmp_path_factory.mktemp("trees")
    A = words_from_lines(SMALL, "small")
    paths = []
    for depth in (2, 3):
        r = solve(A, A, depth=depth, progress=False)
        path = d / f"depth{depth}.json"
        write_tree(best_tree(A, A, depth, r.optimal_first[0]), path)
        paths.append((path, r.wins))
    return A, d, paths


def test_guess_counts_are_the_replay(trees):
    A, _, paths = trees
    from exact.game.formats import read_tree

    for path, wins in paths:
        c = guess_counts(read_tree(path), A)
        r = replay(read_tree(path), A, depth=c.depth)
        assert c.wins == wins == r.wins and c.n == len(A)
        assert c.solved_at[: c.depth] == r.wins_at and c.unsolved == len(r.lost)


def test_guess_counts_of_a_tree_that_plays_on(trees):
    from exact.wordle.study.fallback import FewestGuesses, complete
    from exact.game.formats import read_tree

    A, _, paths = trees
    tree = read_tree(paths[0][0])  # depth 2: some answers lost
    full = complete(tree, A.words, FewestGuesses(A.words))
    c = guess_counts(full, A, depth=2)
    assert c.wins == paths[0][1] and c.unsolved == 0 and len(c.solved_at) > 2
    assert sum(c.solved_at[2:]) == len(replay(tree, A, depth=2).lost)


@pytest.mark.slow
def test_first_guess_values_from_the_certificates(tmp_path, root, write_lines):
    paths = [p for p in sorted((root / "results" / "wordle").glob("*-certificate.json")) if is_depth_certificate(p)]
    if not paths:
        pytest.skip("no certificates in results/wordle")
    groups = {(g.depth, g.hard): g for g in first_guess_values(paths) if g.list == "original"}
    for g in first_guess_values(paths):  # each list apart, with its own answer count
        assert g.n == {"original": 2315, "nyt2022": 2309, "nyt2023": 3158, "all": 12972}[g.list]
    depth3 = json.loads((root / "results/wordle/optimal-depth3-certificate.json").read_text())
    assert groups[(3, False)].values[0] == (depth3["optimal_first"][0], depth3["wins"])
    assert [v for _, v in groups[(3, False)].values] == sorted((r["wins"] for r in depth3["top"]), reverse=True)
    feasible = tmp_path / "f.json"
    feasible.write_text(json.dumps({**depth3, "status": "FEASIBLE"}))
    assert first_guess_values([feasible]) == []
    with pytest.raises(ExactError, match="not an `exact wordle solve` certificate"):
        first_guess_values([write_lines(tmp_path / "x.json", ["{}"])])
    assert not is_depth_certificate(root / "results/wordle/salet-guesses-certificate.json")
    global4 = root / "results/wordle/optimal-depth4-certificate.json"
    if global4.is_file():  # the global search's ranking below the optimum is partial: the plot says so
        bound = json.loads(global4.read_text())["largest_pruning_bound"]
        assert groups[(4, False)].others_at_most == bound
        ranking3 = root / "results/wordle/ranking-depth3-certificate.json"  # the within-3 ranking's bound, if any
        bound3 = json.loads(ranking3.read_text())["largest_pruning_bound"] if ranking3.is_file() else None
        assert groups[(3, False)].others_at_most == bound3


def test_lingo_history_from_a_file_or_a_log(tmp_path, write_lines):
    result = tmp_path / "r.json"
    result.write_text(json.dumps({"n": 100, "wins": 90, "upper_bound": 95, "seconds": 12.0,
                                  "stats": {"history": [[0.5, 80], [3.0, 90]]}}))
    (run,) = lingo_runs([result])
    assert run.history == ((0.5, 80), (3.0, 90)) and run.bound == 95
    log = write_lines(tmp_path / "run.log", ["exact: search     1.0s  best 85/100 (85%)  worker 0 round 1",
                                             "exact: search     4.5s  best 88/100 (88%)  worker 1 round 3"])
    assert log_history(log) == ((1.0, 85), (4.5, 88))
    assert lingo_runs([result], [log])[0].history == ((1.0, 85), (4.5, 88))
    with pytest.raises(ExactError, match="no 'search"):
        log_history(write_lines(tmp_path / "empty.log", ["nothing"]))


def assert_figures(stem):
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in svg.read_text()[:2000]


@pytest.mark.slow
def test_plot_commands_write_png_and_svg(trees, tmp_path, root, cli, write_lines):
    A, d, paths = trees
    answers = write_lines(tmp_path / "a.txt", SMALL)
    r = cli("plot", "histogram", paths[0][0], paths[1][0], "--label", "depth 2", "--label", "depth 3",
            "--answers", answers, "--out", tmp_path / "hist")
    assert r.returncode == 0, r.stderr
    assert_figures(tmp_path / "hist")
    r = cli("plot", "memorable", root / "results/wordle/memorable-curve.json", "--out", tmp_path / "m.png")
    assert r.returncode == 0, r.stderr
    assert_figures(tmp_path / "m")
    r = cli("plot", "memorable-openers", *sorted((root / "results/wordle").glob("memorable-curve*.json")),
            "--out", tmp_path / "o")
    assert r.returncode == 0, r.stderr
    assert_figures(tmp_path / "o")
    result = tmp_path / "r.json"
    result.write_text(json.dumps({"n": 100, "wins": 90, "upper_bound": 95, "seconds": 12.0}))
    r = cli("plot", "lingo", result, "--out", tmp_path / "l")
    assert r.returncode == 0, r.stderr
    assert_figures(tmp_path / "l")


@pytest.mark.slow
def test_plot_errors_are_one_line(tmp_path, cli):
    r = cli("plot", "memorable", tmp_path / "missing.json", "--out", tmp_path / "m")
    assert r.returncode == 2 and r.stderr.startswith("exact: error: ") and "no such file" in r.stderr
    assert not (tmp_path / "m.png").exists()


@pytest.mark.slow
def test_lingo_log_of_a_real_run(tmp_path, cli, write_lines):
    """The progress lines `exact lingo solve` writes are what `exact plot lingo --log` reads."""
    pool = write_lines(tmp_path / "pool.txt", wordle_answers().words[:200])
    r = cli("lingo", "solve", "--words", pool, "--time-limit", "2", "--workers", "1", "--cpsat-max-n", "0",
            "--bound-time", "0.5", "--out", tmp_path / "run.json")
    assert r.returncode == 0, r.stderr
    (tmp_path / "run.log").write_text(r.stderr)
    history = log_history(tmp_path / "run.log")
    result = json.loads((tmp_path / "run.json").read_text())
    assert history[-1][1] == result["wins"] and all(a[1] < b[1] for a, b in zip(history, history[1:]))
    r = cli("plot", "lingo", tmp_path / "run.json", "--log", tmp_path / "run.log", "--out", tmp_path / "l")
    assert r.returncode == 0, r.stderr
    assert_figures(tmp_path / "l")


def test_side_by_side_titles_do_not_overlap():
    """Three panels as in histogram-objectives (full-size numbers, labels of that length), and three
    where answers are solved beyond the depth: no title runs into its neighbour's."""
    from exact.plot import GuessCounts, draw_histogram, pyplot

    for counts in (GuessCounts((0, 80, 1239, 937, 59, 0), 0, 6), GuessCounts((1, 75, 1312, 747, 172, 8, 0, 0), 0, 3)):
        fig = draw_histogram([("fewest guesses (salet, 7920)", counts), ("most within 3 (trace)", counts),
                              ("most within 4 (tenor)", counts)], "t")
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        boxes = [ax.title.get_window_extent(renderer) for ax in fig.axes]
        for left, right in zip(boxes, boxes[1:]):
            assert right.x0 - left.x1 >= 0.25 * fig.dpi, (left, right)  # a quarter inch between them
        pyplot().close(fig)


@pytest.mark.slow
def test_figures_from_any_folder(tmp_path, cli):
    """The committed results are found from any working folder (the checkout, or the wheel's copy); the
    results page from any folder: tests/test_docs.py::test_committed_results_page_is_up_to_date."""
    r = cli("plot", "memorable", "--out", "m", cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "m.png").is_file(), r.stderr
    r = cli("plot", "first-guesses", "--out", "f", cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "f.svg").is_file(), r.stderr
