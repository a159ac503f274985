"""Tree formats (exact.game.formats): the published trees of other solvers, every format's reader and
writer, detection, the documented examples, and malformed files."""

import json
import random
import re
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

from exact.errors import ExactError
from exact.feedback import feedback, parse_pattern
from exact.game.tree import Tree, replay
from exact.game.formats import ALL_SUFFIXES, FORMATS, detect_format, format_for_path, load_tree, read_tree, write_tree
from exact.game.formats.selby import generate_selby, parse_selby
from exact.words import wordle_allowed, wordle_answers, words_from_lines

ROOT = Path(__file__).resolve().parents[1]
PEERS = ROOT.parent / "shared" / "data" / "peers"
DOCS = ROOT / "docs" / "tree-formats.md"


# --- the published trees (../shared/data/peers/README.md) ---------------------------------------------

# file -> (format, hard mode, histogram 1..k, total, worst): the numbers their authors publish, as the
# peers README lists them (xangregg and bakergo publish only the worst case, 5; their totals are ours).
PUBLISHED = {
    "selby-salet-normal.tree": ("txt", False, (0, 78, 1225, 971, 41), 7920, 5),
    "selby-salet-hard.tree": ("txt", True, (0, 131, 1062, 952, 154, 16), 8122, 6),
    "olson-salet.tree.total.js": ("olson", False, (0, 78, 1223, 975, 39), 7920, 5),
    "xangregg-raise.txt": ("emoji", False, None, None, 5),
    "bakergo-any-wordle-5.json": ("lists", False, None, None, 5),
}


@pytest.fixture(scope="module")
def peers():
    if not (PEERS / "README.md").is_file():
        pytest.skip(f"{PEERS} is absent (the other solvers' trees are not committed)")
    return PEERS


@pytest.fixture(scope="module")
def lists():
    return wordle_answers(), wordle_allowed()


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_trees_reproduce_their_totals(name, peers, lists):
    fmt, hard, histogram, total, worst = PUBLISHED[name]
    tree, detected = load_tree(peers / name)
    assert detected == fmt
    r = replay(tree, *lists, depth=6, hard=hard)
    assert r.valid and r.complete and r.wins == r.n == 2315 and r.lost == ()
    assert r.worst == worst
    if histogram is not None:
        assert r.histogram == histogram and r.total_guesses == total
        assert round(r.mean_guesses, 4) == round(total / 2315, 4)
    if name.startswith("selby"):  # README: "total 7920 guesses = mean 3.4212", "8122 = mean 3.5084"
        assert f"{r.mean_guesses:.4f}" == {7920: "3.4212", 8122: "3.5084"}[total]
    assert not [p for p in r.notes if p.kind != "depth"]  # made for these lists: every count agrees


def test_olson_counts_are_checked(peers, lists, tmp_path, cli):
    tree = read_tree(peers / "olson-salet.tree.total.js")
    r = replay(tree, *lists, depth=6)
    assert r.claims_checked == 533 and not [p for p in r.invalid + r.notes if p.kind == "claim"]
    # The same file with one node's counts changed: verify reports it and exits 1.
    text = (peers / "olson-salet.tree.total.js").read_text()
    assert text.endswith('"ranking":{"counts":[0,78,1223,975,39]}}')
    bad = text.replace('"counts":[0,78,1223,975,39]}}', '"counts":[0,78,1224,974,39]}}')
    path = tmp_path / "bad.js"
    path.write_text(bad)
    code, stdout, _ = cli("wordle", "verify", path)
    assert code == 1 and "1 differ" in stdout and "claim: at [root] salet" in stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", ["olson-salet.tree.total.js", "xangregg-raise.txt", "bakergo-any-wordle-5.json"])
def test_published_trees_convert_to_every_format(name, peers, lists, tmp_path):
    tree = read_tree(peers / name)
    want = replay(tree, *lists, depth=6).to_json()
    for fmt, f in FORMATS.items():
        if fmt == "dot":  # pydot's parser takes many seconds on a full tree; dot round-trips in test_wordle_tree
            continue
        path = tmp_path / f"t{f.suffixes[0]}"
        write_tree(tree, path, answers=lists[0])
        back, detected = load_tree(path)
        assert (detected, back) == (fmt, tree)  # complete trees: every format keeps everything
        assert replay(back, *lists, depth=6).to_json() | {"claims_checked": 0} == want | {"claims_checked": 0}


@pytest.mark.parametrize("name", PUBLISHED)
def test_writers_give_back_the_published_files(name, peers, lists, tmp_path):
    """Each reader and its writer agree with the file: Selby's bytes, the JSON values, the emoji lines."""
    fmt = PUBLISHED[name][0]
    out = tmp_path / f"out{FORMATS[fmt].suffixes[0]}"
    write_tree(read_tree(peers / name), out, answers=lists[0])
    original = (peers / name).read_text(encoding="utf-8")
    written = out.read_text(encoding="utf-8")
    if fmt == "txt":
        assert written == original
    elif fmt == "olson":
        assert json.loads(written.removeprefix("export default ")) == json.loads(original.removeprefix("export default "))
    elif fmt == "lists":
        assert json.loads(written) == json.loads(original)
    else:  # the same lines (the published file orders branches otherwise)
        assert sorted(written.splitlines()) == sorted(original.splitlines())


@pytest.mark.slow
def test_cli_verify_and_convert_a_published_tree(peers, tmp_path, cli):
    code, stdout, stderr = cli("wordle", "verify", peers / "olson-salet.tree.total.js", "--json")
    assert code == 0, stderr
    report = json.loads(stdout)
    assert (report["format"], report["total_guesses"], report["worst"], report["histogram"]) == (
        "olson", 7920, 5, [0, 78, 1223, 975, 39])
    assert report["wins_within"] == [0, 78, 1301, 2276, 2315] and report["complete"]
    out = tmp_path / "salet.tree"
    code, stdout, stderr = cli("wordle", "convert", peers / "olson-salet.tree.total.js", out)
    assert code == 0 and "total 7920 guesses" in stdout, stderr
    code, stdout, _ = cli("wordle", "verify", out, "--depth", "4")
    # Deeper than --depth is not invalid: the wins within 4 and a note on the 39 answers solved at 5.
    assert code == 0 and "wins 2276 / 2315" in stdout and "39 answers are solved only after guess 4" in stdout
    assert "total 7920 guesses, mean 3.4212, worst case 5" in stdout


# --- the documented examples ------------------------------------------------------------------------------


def example_tree():
    return Tree("cabin", 4, {feedback("cabin", "cable"): Tree("cable", 2, {feedback("cable", "caber"): Tree("caber", 1, {})}),
                             feedback("cabin", "cache"): Tree("cache", 1, {})})


EXAMPLE_ANSWERS = words_from_lines(["caber", "cabin", "cable", "cache"], source="example")


def doc_examples() -> dict[str, str]:
    text = DOCS.read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in re.finditer(r"<!-- example: (\w+) -->\n```\w*\n(.*?)```", text, re.DOTALL)}


def test_docs_show_an_example_of_every_format():
    assert set(doc_examples()) == set(FORMATS)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_docs_examples_read_and_write(fmt, tmp_path):
    text = doc_examples()[fmt]
    assert detect_format(text) == fmt
    tree = FORMATS[fmt].parse(text)
    assert tree == example_tree()
    assert FORMATS[fmt].generate(example_tree(), EXAMPLE_ANSWERS) == text
    r = replay(tree, EXAMPLE_ANSWERS, EXAMPLE_ANSWERS, depth=6)
    assert (r.histogram, r.total_guesses) == ((1, 2, 1), 8)  # as the page says


def test_suffixes():
    assert [format_for_path(f"t{s}") for s in (".lists.json", ".json", ".emoji.txt", ".txt", ".js", ".gv")] == [
        "lists", "json", "emoji", "txt", "olson", "dot"]
    assert set(ALL_SUFFIXES) == {s for f in FORMATS.values() for s in f.suffixes}
    with pytest.raises(ExactError, match="unknown tree format"):
        format_for_path("t.csv")


# --- format details ---------------------------------------------------------------------------------------


def test_lists_all_green_leaf_means_won_here():
    # bakergo writes a guess that wins with others left as "(2, 2, 2, 2, 2)": [guess, {guess: null}].
    a = FORMATS["lists"].parse('["cabin", {"(2, 2, 2, 2, 2)": ["cabin", {"cabin": null}], '
                              '"(2, 2, 2, 0, 0)": ["cable", {"cable": null}]}]')
    b = FORMATS["lists"].parse('["cabin", {"cabin": null, "(2, 2, 2, 0, 0)": ["cable", {"cable": null}]}]')
    assert a == b == Tree("cabin", 2, {feedback("cabin", "cable"): Tree("cable", 1, {})})


def test_emoji_lost_answers_and_other_squares():
    text = "cabin\ncabin 🟩🟩🟩⬛⬛ 2\ncabin 🟩🟩🟩⬛⬛ 2\n"
    tree = FORMATS["emoji"].parse(text)
    assert tree == Tree("cabin", 3, {})
    r = replay(tree, words_from_lines(["cabin", "cable", "caber"]), depth=1)
    assert r.lost == ("cable", "caber") and r.valid
    assert FORMATS["emoji"].parse("cabin 🟧🟧🟦⬜⬜ 1 bacon\n").children == {parse_pattern("22100"): Tree("bacon", 1, {})}


def test_dot_hand_edits_and_defaults(tmp_path):
    (tmp_path / "t.gv").write_text(
        "/* drawn by hand */\ndigraph {\n graph [root=a]\n edge [feedback=22000]\n node [answers=1]\n"
        ' a [guess=cabin, answers=2]; b [guess="cache"]\n a -> b\n}\n')
    assert read_tree(tmp_path / "t.gv") == Tree("cabin", 2, {feedback("cabin", "cache"): Tree("cache", 1, {})})


def test_graph_formats_keep_claims(tmp_path):
    tree = FORMATS["olson"].parse(doc_examples()["olson"])
    assert tree.claims == {"counts": (1, 2, 1)}
    for fmt in ("graphml", "json", "dot"):
        write_tree(tree, tmp_path / f"t.{fmt}")
        assert read_tree(tmp_path / f"t.{fmt}").claims == {"counts": (1, 2, 1)}


def test_replay_not_allowed_guess_is_never_a_win():
    r = replay(example_tree(), EXAMPLE_ANSWERS, words_from_lines(["cabin", "cache", "caber"]), depth=6)
    assert r.unsolved == ("caber", "cable") and r.wins == 2 and [p.kind for p in r.invalid] == ["not-allowed"]


# --- malformed files: one line, path and line, exit 2 ---------------------------------------------------------

MALFORMED = [
    ("a.js", 'export default {"guess":"cabin","map":{"2220":"cable"}}', None, "key '2220' is not 5 digits"),
    ("a.js", 'export default {"guess":"cabin","map":{"22222":"cable"}}', None, "all-green key maps to 'cable'"),
    ("a.js", 'export default {"guess":"cabin",\n"map":{"22200":"cable",}}', 2, "not valid Olson JSON"),
    ("a.js", '{"guess":"cabin","map":{},"ranking":{"counts":[1,"x"]}}', None, "ranking.counts"),
    ("a.json", '["cabin", {"(2, 2, 2, 0)": ["cable", {"cable": null}]}]', None, "is not 5 digits"),
    ("a.json", '["cabin", {"cable": null}]', None, "'cable': null, but the node guesses 'cabin'"),
    ("a.json", '["cabin", {"(2, 2, 2, 0, 0)": "cable"}]', None, "a node is [guess, {...}]"),
    ("a.txt", "cabin\ncabin 🟩🟩🟩⬜⬜ 2 cable\n", 2, "the count after this pattern is 2 but 1 lines go through it"),
    ("a.txt", "cabin\ncabin 🟩🟩🟩⬜ 1 cable\n", 2, "is not 5 emoji squares"),
    ("a.txt", "cabin 🟩🟩🟩⬜⬜ 1 cable\ncabin 🟩🟩🟩⬜⬜ 2 caber\n", 2, "count 2 after 🟩🟩🟩⬜⬜ but line 1 says 1"),
    ("a.txt", "cabin 🟩🟩🟩⬜⬜ 1 cable\ncrane\n", 2, "first guess 'crane'"),
    ("a.dot", "digraph {\n a -> b\n c [x=\"1]\n}\n", 3, "not valid DOT"),
    ("a.dot", 'digraph { root=a; a [guess=cabin answers=1]; a -> b [feedback="22200"] }', None, "'guess'"),
    ("a.txt", "hello world\n", 1, "unknown tree format"),
]


@pytest.mark.parametrize("name, text, line, fragment", MALFORMED)
def test_malformed_files_one_line_error_with_path_and_line(tmp_path, name, text, line, fragment, cli):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ExactError) as caught:
        read_tree(path)
    assert caught.value.path == str(path) and caught.value.line == line
    assert fragment in caught.value.message, caught.value.message
    code, stdout, stderr = cli("wordle", "verify", path)
    assert code == 2 and stdout == ""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"exact: error: {path}{'' if line is None else f':{line}'}: ")


def test_convert_leaves_nothing_half_written(tmp_path, cli):
    (tmp_path / "bad.js").write_text('{"guess":"cabin","map":{"x":"cable"}}')
    code, _, stderr = cli("wordle", "convert", tmp_path / "bad.js", tmp_path / "out.tree")
    assert code == 2 and "bad.js" in stderr and not (tmp_path / "out.tree").exists()
    code, _, stderr = cli("wordle", "convert", tmp_path / "bad.js", tmp_path / "out.csv")
    assert code == 2 and "out.csv" in stderr and "unknown tree format" in stderr


# --- random trees: every format, and the replay's totals against a plain per-answer walk -------------------


SMALL_ANSWERS = words_from_lines(wordle_answers().words[::97], source="small-answers")  # 24 answers
SMALL_GUESSES = words_from_lines(sorted(set(SMALL_ANSWERS.words) | set(wordle_allowed().words[::1300])), source="small-guesses")


def random_tree(rng, reaching, step=1):
    """A random strategy over ``reaching``: random guesses, some classes left lost, depth at most 6."""
    guess = rng.choice(SMALL_GUESSES.words if rng.random() < 0.5 else reaching)
    classes = {}
    for a in reaching:
        classes.setdefault(feedback(guess, a), []).append(a)
    children = {p: random_tree(rng, members, step + 1) for p, members in sorted(classes.items())
                if p != 242 and step < 6 and rng.random() < 0.85}
    return Tree(guess, len(reaching), children)


def walk_one(tree, answer, allowed):
    """Guesses the tree takes to solve ``answer``, or None: one answer, step by step."""
    node, k, ok = tree, 1, True
    while True:
        ok = ok and node.guess in allowed
        if node.guess == answer:
            return k if ok else None
        node = node.children.get(feedback(node.guess, answer))
        if node is None:
            return None
        k += 1


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(1, 6))
def test_random_trees_round_trip_and_replay_matches_a_plain_walk(tmp_path_factory, seed, depth):
    rng = random.Random(seed)
    tree = random_tree(rng, list(SMALL_ANSWERS.words))
    allowed = set(rng.sample(SMALL_GUESSES.words, len(SMALL_GUESSES) - 2))  # two guesses not allowed
    r = replay(tree, SMALL_ANSWERS, words_from_lines(sorted(allowed)), depth=depth)
    taken = {a: walk_one(tree, a, allowed) for a in SMALL_ANSWERS.words}
    solved = [k for k in taken.values() if k is not None]
    assert sum(r.histogram) == len(solved) and r.total_guesses == sum(solved)
    assert all(r.histogram[k - 1] == solved.count(k) for k in range(1, len(r.histogram) + 1))
    assert r.wins == sum(k <= depth for k in solved)
    assert r.lost == tuple(a for a, k in taken.items() if k is None or k > depth)
    assert r.unsolved == tuple(a for a, k in taken.items() if k is None)
    d = tmp_path_factory.mktemp("random")
    for fmt, f in FORMATS.items():
        write_tree(tree, d / f"t{f.suffixes[0]}", answers=SMALL_ANSWERS)
        back, detected = load_tree(d / f"t{f.suffixes[0]}")
        assert detected == fmt
        again = replay(back, SMALL_ANSWERS, words_from_lines(sorted(allowed)), depth=depth)
        assert (again.histogram, again.lost, again.unsolved, again.wins) == (r.histogram, r.lost, r.unsolved, r.wins), fmt


# --- every format on the tiny instance's policy trees and on hand-made trees ----------------------------


def shape(t):
    """A tree without its answer counts (the formats without lost answers cannot keep those)."""
    return t.guess, {p: shape(c) for p, c in t.children.items()}


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_round_trips(tmp_path, fmt, policy_trees, tiny_answers, tiny_guesses):
    for policy, e in policy_trees.items():
        path = tmp_path / f"{policy}{FORMATS[fmt].suffixes[0]}"
        write_tree(e.tree, path, answers=tiny_answers)
        back = read_tree(path)
        if fmt in ("olson", "lists"):  # they record won answers only; these depth-3 trees lose some
            assert shape(back) == shape(e.tree), (policy, fmt)
        else:
            assert back == e.tree, (policy, fmt)
        ignore = {"notes": [], "claims_checked": 0}  # olson also writes, and so checks, each node's counts
        assert replay(back, tiny_answers, tiny_guesses, 3).to_json() | ignore == e.replay.to_json() | ignore


@pytest.mark.parametrize("fmt", ["graphml", "json", "dot"])
def test_graph_formats_keep_lossy_and_unreachable_nodes(tmp_path, fmt, hand_tree):
    t = hand_tree()
    t.children[parse_pattern("00000")] = Tree("dummy", 0, {})
    write_tree(t, tmp_path / f"t.{fmt}")
    assert read_tree(tmp_path / f"t.{fmt}") == t


def test_graphml_and_json_schema_for_other_tools(tmp_path, policy_trees, tiny_answers):
    tree = policy_trees["most-classes"].tree
    write_tree(tree, tmp_path / "t.graphml")
    write_tree(tree, tmp_path / "t.json")
    G = nx.read_graphml(tmp_path / "t.graphml")
    data = json.loads((tmp_path / "t.json").read_text())
    H = nx.node_link_graph(data, edges="edges")
    for graph in (G, H):
        assert graph.graph["root"] == "n0" and graph.nodes["n0"]["guess"] == "slate"
        assert graph.nodes["n0"]["answers"] == len(tiny_answers)
        assert all(isinstance(d["feedback"], str) and len(d["feedback"]) == 5 for _, _, d in graph.edges(data=True))
        assert nx.is_arborescence(graph)


def test_text_format_reads_published_layout():
    # The layout of the published trees (one line per answer; indentation shares the path), on our
    # own small instance; the last line restates its whole path, which readers must also accept.
    text = ("crane BBBBB1 built BBYYG2 pilot GGGGG3\n"
            "                   BGGGG2 quilt BGGGG3 guilt GGGGG4\n"
            "                                GGGGG3\n"
            "                   GGGGG2\n"
            "      BBBGB1 mound GGGGG2\n"
            "crane GGGGG1\n")
    t = parse_selby(text)
    assert (t.guess, t.answers) == ("crane", 6)
    built = t.children[parse_pattern("bbbbb")]
    assert (built.guess, built.answers, len(built.children)) == ("built", 4, 2)
    quilt = built.children[parse_pattern("bgggg")]
    assert (quilt.guess, quilt.answers, list(quilt.children.values())) == ("quilt", 2, [Tree("guilt", 1, {})])
    A = words_from_lines(["pilot", "guilt", "quilt", "built", "mound", "crane"], source="test")
    assert replay(t, A, depth=4).wins == 6
    assert replay(t, A, depth=3).lost == ("guilt",)
    assert generate_selby(t, A) == text.replace("crane GGGGG1", "      GGGGG1")
    assert parse_selby(generate_selby(t, A)) == t


def test_text_format_lists_lost_answers(hand_answers, hand_tree):
    text = generate_selby(hand_tree(), hand_answers)
    assert text == ("cabin GGBBB1 cache GGGGG2\n"
                    "      GGGBB1 cable GGGBY2\n"
                    "                   GGGGG2\n"
                    "      GGGGG1\n")
    assert parse_selby(text) == hand_tree()


@pytest.mark.parametrize("text, fragment", [
    ("cabin GGGBB1 cable\n", "ends in a guess"),
    ("cabin GGGBB2 cable GGGGG2\n", "says guess 2"),
    ("cabin GGGBB1 cable GGGGG2\n  GGGGG1\n", "does not line up"),
    ("cabin GGGBB1 cable GGGGG2\ncable GGGGG1\n", "first guess"),
    ("cabin GGGBB1 cable GGGGG2\n      GGGBB1 cache GGGGG2\n", "earlier line plays"),
    ("cabin GGGQB1 cable GGGGG2\n", "pattern"),
    ("cabin GGGGG1 cable GGGGG2\n", "goes on after"),
    ("cabin GGGGG1\ncabin GGGGG1\n", "second line wins"),
])
def test_text_format_errors(text, fragment):
    with pytest.raises(ExactError, match=fragment):
        parse_selby(text)


def test_text_format_needs_the_answers(tmp_path, hand_tree):
    with pytest.raises(ExactError, match="answer list"):
        write_tree(hand_tree(), tmp_path / "t.txt")
    assert not (tmp_path / "t.txt").exists()


def test_dot_reader_accepts_hand_edits(tmp_path, hand_tree):
    (tmp_path / "t.dot").write_text(
        "// a comment\nstrict digraph T {\n root = a\n node [answers=0]\n"
        ' a [guess=cabin, answers=4]; b [guess="cable" answers=2] c [guess=cache answers = 1]\n'
        ' a -> b [feedback="22200"]\n a -> c [ feedback = "22000" ] /* done */\n}\n')
    assert read_tree(tmp_path / "t.dot") == hand_tree()


# --- malformed files through `exact wordle verify` ------------------------------------------------------


MALFORMED_FOR_VERIFY = [
    ("bad.json", "{not json", "not valid JSON"),
    ("bad.graphml", "<graphml><graph", "not valid GraphML"),
    ("bad.txt", "cabin GGGBB1 cable\n", ":1: the line ends in a guess"),
    ("bad.dot", "graph { a -- b }", "not a DOT digraph"),
    ("bad.csv", "x", "unknown tree format"),
    ("missing.json", None, "no such file"),
]


@pytest.mark.parametrize("name, text, fragment", MALFORMED_FOR_VERIFY)
def test_cli_malformed_files_one_line_error(tmp_path, name, text, fragment, cli, assert_one_line_error):
    if text is not None:
        (tmp_path / name).write_text(text)
    assert_one_line_error(cli("wordle", "verify", tmp_path / name), name, fragment)


@pytest.mark.slow
def test_cli_malformed_file_through_the_entry_point(tmp_path, cli, assert_one_line_error):
    (tmp_path / "bad.txt").write_text("cabin GGGBB1 cable GGGGG2\n  GGGGG1\n")
    r = cli("wordle", "verify", tmp_path / "bad.txt")
    assert_one_line_error(r, "bad.txt:2:", "does not line up")


# --- faults a deployment meets: detection in linear time, huge numbers, clear messages, bounded size --


@pytest.mark.parametrize("text", ["#" * 5000, "/" * 5000, "#" * 3000 + "\n" + "/" * 3000, "/*" * 3000])
def test_detection_is_linear_on_runs_of_comment_characters(text):
    """A run of '#' or '/' made the DOT-head regex backtrack exponentially (40 '#' ran for minutes)."""
    import time

    start = time.perf_counter()
    with pytest.raises(ExactError, match="unknown tree format"):
        detect_format(text)
    assert time.perf_counter() - start < 2


def test_a_selby_tree_with_a_banner_reads(tmp_path):
    tree = read_tree(ROOT / "results" / "wordle" / "optimal-depth3.txt")
    banner = "#" * 60 + "\n# optimal depth-3 tree\n" + "#" * 60 + "\n"
    (tmp_path / "t.tree").write_text(banner + (ROOT / "results" / "wordle" / "optimal-depth3.txt").read_text())
    assert load_tree(tmp_path / "t.tree") == (tree, "txt")
    (tmp_path / "many.tree").write_text("#\n" * 101 + "cabin GGGGG1\n")  # more comment lines than detection reads
    assert load_tree(tmp_path / "many.tree")[1] == "txt"


@pytest.mark.parametrize("name, text, message", [
    ("a.tree", "cabin GGGGG" + "9" * 5000 + "\n", "says guess 9999"),
    ("a.emoji", "cabin\ncabin 🟩🟩🟩⬜⬜ " + "9" * 5000 + " cable\n", "is not a count of answers"),
    ("a.json", '{"nodes": [{"id": 0, "guess": "cabin", "answers": ' + "9" * 5000 + "}], \"edges\": []}", "too many digits"),
    ("a.js", '{"guess": "cabin", "map": {"22222": "cabin"}, "ranking": {"counts": [' + "9" * 5000 + "]}}", "too many digits"),
    ("a.graphml", '<graphml xmlns="http://graphml.graphdrawing.org/xmlns"><key id="d0" for="node" attr.name="answers" '
                  'attr.type="long"/><graph edgedefault="directed"><node id="a"><data key="d0">' + "9" * 5000
                  + "</data></node></graph></graphml>", "too many digits"),
    ("a.emoji", "cabin\ncabin 🟩🟩🟩⬜⬜ ² cable\n", "is not a count of answers"),
])
def test_numbers_of_thousands_of_digits_are_one_line_errors(tmp_path, name, text, message):
    (tmp_path / name).write_text(text)
    with pytest.raises(ExactError, match=message) as e:
        read_tree(tmp_path / name)
    assert "\n" not in str(e.value) and len(str(e.value)) < 300


@pytest.mark.parametrize("text, message", [
    ("TRACE BBBBB1 soily GGGGG2\n", "1: 'TRACE' is not a 5-letter lowercase word"),
    ("#\n" * 101, "only blank and comment"),
    ("hello world\n", "3: unknown tree format: the first line that is not a comment, 'hello world'"),
])
def test_unknown_format_messages_say_what_is_wrong(tmp_path, text, message):
    (tmp_path / "t.tree").write_text(("#x\n\n" + text) if "hello" in text else text)
    with pytest.raises(ExactError, match=re.escape(message)):
        read_tree(tmp_path / "t.tree")


def test_big_dot_and_text_trees_are_bounded(tmp_path):
    import time

    from exact.game.formats.base import MAX_TREE
    from exact.game.formats.dot import MAX_DOT

    (tmp_path / "big.dot").write_text("digraph {\n" + '  "n0" [guess="cabin", answers="1"];\n' * (MAX_DOT // 30) + "}\n")
    start = time.perf_counter()
    with pytest.raises(ExactError, match="DOT trees are read up to"):
        read_tree(tmp_path / "big.dot")
    with open(tmp_path / "big.tree", "w") as f:
        f.write("cabin BBBBB1\n" * (MAX_TREE // 13 + 1))
    with pytest.raises(ExactError, match="larger than 16 MiB"):
        read_tree(tmp_path / "big.tree")
    assert time.perf_counter() - start < 10


@pytest.mark.slow
def test_trees_are_written_to_a_pipe_through_dev_stdout(cli):
    import subprocess
    import sys

    r = subprocess.run(f"{sys.executable} -m exact wordle convert --to json "
                       f"{ROOT / 'results' / 'wordle' / 'optimal-depth3.txt'} /dev/stdout | cat", shell=True,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert '"directed": true' in r.stdout
