"""Strategy trees: the networkx schema, every file format, the independent replay, simple policies."""

import json
import math

import networkx as nx
import pytest
from click.testing import CliRunner

from exact.cli import main
from exact.errors import ExactError
from exact.feedback import all_green, feedback, format_pattern, parse_pattern
from exact.wordle.policies import POLICIES, evaluate_policy
from exact.wordle.tree import Tree, count_nodes, from_networkx, replay, to_networkx, tree_depth
from exact.wordle.treeio import FORMATS, parse_tree_text, read_tree, tree_text, write_tree
from exact.words import wordle_allowed, wordle_answers, words_from_lines

# A tiny deterministic instance: every 60th answer, and every 150th allowed word plus the answers.
ANSWERS = words_from_lines(wordle_answers().words[::60], source="tiny-answers")
GUESSES = words_from_lines(sorted(set(wordle_allowed().words[::150]) | set(ANSWERS.words) | {"slate"}), source="tiny-guesses")


def W(*words):
    return words_from_lines(words, source="test")


@pytest.fixture(scope="module")
def policy_trees():
    return {p: evaluate_policy(ANSWERS, GUESSES, "slate", p, depth=3) for p in POLICIES}


# --- Tree, networkx schema --------------------------------------------------------------------------


def hand_tree():
    """cabin first; cable's class (caber, cable) gets cable, cache's class gets cache."""
    return Tree("cabin", 4, {
        feedback("cabin", "cable"): Tree("cable", 2, {}),
        feedback("cabin", "cache"): Tree("cache", 1, {}),
    })


HAND = W("caber", "cabin", "cable", "cache")


def test_networkx_schema():
    t = hand_tree()
    G = to_networkx(t)
    assert G.graph["root"] == "n0"
    assert sorted(G.nodes) == ["n0", "n1", "n2"]
    assert all(set(d) == {"guess", "answers"} for _, d in G.nodes(data=True))
    assert {d["feedback"] for _, _, d in G.edges(data=True)} == {
        format_pattern(feedback("cabin", "cable"), 5), format_pattern(feedback("cabin", "cache"), 5)}
    assert G.nodes["n0"] == {"guess": "cabin", "answers": 4}
    assert from_networkx(G) == t
    assert tree_depth(t) == 2 and count_nodes(t) == 3


@pytest.mark.parametrize("breakage, fragment", [
    (lambda G: G.graph.pop("root"), "no 'root'"),
    (lambda G: G.nodes["n1"].pop("guess"), "'guess'"),
    (lambda G: G.nodes["n1"].update(answers="many"), "'answers'"),
    (lambda G: G.edges["n0", "n1"].update(feedback="0213"), "'feedback'"),
    (lambda G: G.edges["n0", "n1"].update(feedback="22222"), "all-green"),
    (lambda G: G.add_edge("n2", "n0", feedback="00000"), "parent"),
    (lambda G: G.add_node("n9", guess="fresh", answers=0), "not reachable"),
])
def test_from_networkx_rejects_bad_graphs(breakage, fragment):
    G = to_networkx(hand_tree())
    breakage(G)
    with pytest.raises(ExactError, match=fragment):
        from_networkx(G)


# --- replay -----------------------------------------------------------------------------------------


def test_replay_wins_and_losses():
    r = replay(hand_tree(), HAND, HAND, depth=2)
    # cabin wins at guess 1; cable and cache at guess 2; caber shares cable's class and is lost.
    assert (r.wins, r.n, r.lost, r.wins_at, r.invalid) == (3, 4, ("caber",), (1, 2), ())
    assert math.isclose(r.probability, 0.75)


def test_replay_depth_one_loses_everything_but_the_first_guess():
    r = replay(hand_tree(), HAND, HAND, depth=1)
    assert r.wins == 1 and r.lost == ("caber", "cable", "cache")
    # A tree deeper than the depth is not invalid: its deeper nodes are notes, and the statistics
    # still describe the whole tree.
    assert r.valid and [p.kind for p in r.notes] == ["depth", "depth"]
    assert (r.histogram, r.unsolved, r.beyond, r.wins_within) == ((1, 2), ("caber",), ("cable", "cache"), (1, 3))


def test_replay_statistics():
    r = replay(hand_tree(), HAND, HAND, depth=2)
    assert (r.histogram, r.total_guesses, r.solved, r.complete, r.worst) == ((1, 2), 5, 3, False, 2)
    assert math.isclose(r.mean_guesses, 5 / 3)
    t = hand_tree()
    t.children[feedback("cabin", "cable")] = Tree("cable", 2, {feedback("cable", "caber"): Tree("caber", 1, {})})
    r = replay(t, HAND, HAND, depth=2)
    assert (r.histogram, r.wins, r.lost, r.beyond, r.unsolved, r.complete) == ((1, 2, 1), 3, ("caber",), ("caber",), (), True)
    assert (r.total_guesses, r.worst, r.wins_within, r.valid) == (8, 3, (1, 3, 4), True)
    data = replay(t, HAND, HAND, depth=3).to_json()
    assert (data["total_guesses"], data["mean_guesses"], data["worst"], data["lost"]) == (8, 2.0, 3, [])


def test_replay_missing_branch_is_reported_and_lost():
    t = hand_tree()
    del t.children[feedback("cabin", "cache")]
    r = replay(t, HAND, HAND, depth=2)
    assert r.wins == 2 and r.lost == ("caber", "cache")
    assert [p.kind for p in r.invalid] == ["missing-branch"]
    assert format_pattern(feedback("cabin", "cache"), 5) in r.invalid[0].message
    r = replay(t, HAND, HAND, depth=1)
    assert r.invalid == () and r.notes[0].kind == "depth"  # no branch is missing at the last guess


def test_replay_not_allowed_and_count():
    t = hand_tree()
    t.children[feedback("cabin", "cable")] = Tree("cable", 3, {})
    r = replay(t, HAND, W("cabin", "cache"), depth=2)
    assert [p.kind for p in r.invalid] == ["not-allowed"]
    assert [p.kind for p in r.notes] == ["count"]  # counts for another list are a note, not an error
    # An answer reached only through a guess that is not allowed is never a win: cable's class
    # (caber, cable) is lost; cabin and cache are won.
    assert (r.wins, r.unsolved) == (2, ("caber", "cable"))


def test_replay_hard_mode():
    # After crane 20100 (c green, a yellow), hard mode needs c first and an a somewhere.
    A = W("cacao", "cocoa")
    t = Tree("crane", 2, {parse_pattern("20100"): Tree("trace", 2, {})})
    assert feedback("crane", "cacao") == feedback("crane", "cocoa") == parse_pattern("20100")
    r = replay(t, A, depth=2, hard=True)
    assert [p.kind for p in r.invalid] == ["hard-mode"]
    assert replay(t, A, depth=2, hard=False).invalid == ()
    t.children[parse_pattern("20100")] = Tree("cocoa", 2, {})  # c first, an a: allowed
    assert replay(t, A, depth=2, hard=True).invalid == ()
    # Answers won below a guess that breaks the rule are not wins in hard mode (they are in normal mode).
    t.children[parse_pattern("20100")] = Tree("tacos", 2, {feedback("tacos", a): Tree(a, 1, {}) for a in A})
    assert (replay(t, A, depth=3).wins, replay(t, A, depth=3, hard=True).wins) == (2, 0)


def test_replay_green_child_is_invalid():
    t = Tree("cabin", 1, {all_green(5): Tree("cabin", 0, {})})
    assert [p.kind for p in replay(t, W("cabin"), depth=2).invalid] == ["green-child"]


# --- file formats ------------------------------------------------------------------------------------


def shape(t):
    """A tree without its answer counts (the formats without lost answers cannot keep those)."""
    return t.guess, {p: shape(c) for p, c in t.children.items()}


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_round_trips(tmp_path, fmt, policy_trees):
    for policy, e in policy_trees.items():
        path = tmp_path / f"{policy}{FORMATS[fmt].suffixes[0]}"
        write_tree(e.tree, path, answers=ANSWERS)
        back = read_tree(path)
        if fmt in ("olson", "lists"):  # they record won answers only; these depth-3 trees lose some
            assert shape(back) == shape(e.tree), (policy, fmt)
        else:
            assert back == e.tree, (policy, fmt)
        ignore = {"notes": [], "claims_checked": 0}  # olson also writes, and so checks, each node's counts
        assert replay(back, ANSWERS, GUESSES, 3).to_json() | ignore == e.replay.to_json() | ignore


@pytest.mark.parametrize("fmt", ["graphml", "json", "dot"])
def test_graph_formats_keep_lossy_and_unreachable_nodes(tmp_path, fmt):
    t = hand_tree()
    t.children[parse_pattern("00000")] = Tree("dummy", 0, {})
    write_tree(t, tmp_path / f"t.{fmt}")
    assert read_tree(tmp_path / f"t.{fmt}") == t


def test_graphml_and_json_schema_for_other_tools(tmp_path, policy_trees):
    tree = policy_trees["most-classes"].tree
    write_tree(tree, tmp_path / "t.graphml")
    write_tree(tree, tmp_path / "t.json")
    G = nx.read_graphml(tmp_path / "t.graphml")
    data = json.loads((tmp_path / "t.json").read_text())
    H = nx.node_link_graph(data, edges="edges")
    for graph in (G, H):
        assert graph.graph["root"] == "n0" and graph.nodes["n0"]["guess"] == "slate"
        assert graph.nodes["n0"]["answers"] == len(ANSWERS)
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
    t = parse_tree_text(text)
    assert (t.guess, t.answers) == ("crane", 6)
    built = t.children[parse_pattern("bbbbb")]
    assert (built.guess, built.answers, len(built.children)) == ("built", 4, 2)
    quilt = built.children[parse_pattern("bgggg")]
    assert (quilt.guess, quilt.answers, list(quilt.children.values())) == ("quilt", 2, [Tree("guilt", 1, {})])
    A = W("pilot", "guilt", "quilt", "built", "mound", "crane")
    assert replay(t, A, depth=4).wins == 6
    assert replay(t, A, depth=3).lost == ("guilt",)
    assert tree_text(t, A) == text.replace("crane GGGGG1", "      GGGGG1")
    assert parse_tree_text(tree_text(t, A)) == t


def test_text_format_lists_lost_answers():
    text = tree_text(hand_tree(), HAND)
    assert text == ("cabin GGBBB1 cache GGGGG2\n"
                    "      GGGBB1 cable GGGBY2\n"
                    "                   GGGGG2\n"
                    "      GGGGG1\n")
    assert parse_tree_text(text) == hand_tree()


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
        parse_tree_text(text)


def test_text_format_needs_the_answers(tmp_path):
    with pytest.raises(ExactError, match="answer list"):
        write_tree(hand_tree(), tmp_path / "t.txt")
    assert not (tmp_path / "t.txt").exists()


def test_dot_reader_accepts_hand_edits(tmp_path):
    (tmp_path / "t.dot").write_text(
        "// a comment\nstrict digraph T {\n root = a\n node [answers=0]\n"
        ' a [guess=cabin, answers=4]; b [guess="cable" answers=2] c [guess=cache answers = 1]\n'
        ' a -> b [feedback="22200"]\n a -> c [ feedback = "22000" ] /* done */\n}\n')
    assert read_tree(tmp_path / "t.dot") == hand_tree()


# --- policies against brute force ----------------------------------------------------------------------


def classes_of(g, P):
    out = {}
    for a in P:
        out.setdefault(feedback(g, a), []).append(a)
    return out


def brute_choice(policy, P, answers, guesses):
    """The policy's second guess, from its definition, with plain Python loops."""
    if policy in ("most-classes", "min-worst", "max-entropy"):
        cands = list(guesses)
    elif policy == "most-classes-answers":
        cands = [w for w in guesses if w in set(answers)]
    else:
        cands = [w for w in guesses if w in set(P)]

    def key(g):
        sizes = [len(c) for c in classes_of(g, P).values()]
        n = len(P)
        entropy = -sum(s / n * math.log2(s / n) for s in sizes)
        first = {"min-worst": (max(sizes), -len(sizes)), "max-entropy": (-round(entropy, 9),)}.get(policy, (-len(sizes),))
        return first + (g not in P, max(sizes), guesses.index(g))

    return min(cands, key=key)


def brute_wins(policy, first, answers, guesses, depth):
    """Wins of the policy by recursion over classes (a lone or last class: guess an answer of it)."""
    def wins(P, step, g=None):
        if step > 1 and (step == depth or len(P) == 1):
            return 1
        g = g or brute_choice(policy, P, answers, guesses)
        return sum(1 if pat == all_green(5) else (wins(Q, step + 1) if step < depth else 0)
                   for pat, Q in classes_of(g, P).items())
    return wins(list(answers), 1, first)


@pytest.mark.parametrize("policy", POLICIES)
def test_policies_match_brute_force(policy, policy_trees):
    assert policy_trees[policy].wins == brute_wins(policy, "slate", ANSWERS.words, GUESSES.words, 3)


@pytest.mark.parametrize("policy", ["most-classes", "min-worst", "max-entropy"])
def test_policies_match_brute_force_deeper(policy):
    A = W(*ANSWERS.words[:25])
    G = W(*sorted(set(GUESSES.words[:40]) | set(A.words)))
    for depth in (2, 4):
        assert evaluate_policy(A, G, G[1], policy, depth).wins == brute_wins(policy, G[1], A.words, G.words, depth)


def test_most_classes_is_the_depth3_optimum_by_brute_force(policy_trees):
    # With the first guess fixed, wins_3 = sum over its classes P of max_g (classes of g on P).
    best = sum(max(len(classes_of(g, P)) for g in GUESSES.words) if pat != all_green(5) else 1
               for pat, P in classes_of("slate", ANSWERS.words).items())
    assert policy_trees["most-classes"].wins == best
    assert all(e.wins <= best for e in policy_trees.values())


# --- the CLI ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lists(tmp_path_factory, write_lines):
    d = tmp_path_factory.mktemp("lists")
    return write_lines(d / "answers.txt", ANSWERS.words), write_lines(d / "guesses.txt", GUESSES.words)


def cli(*args):
    """The CLI in-process (click's runner): exit code, stdout, stderr."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


def test_cli_evaluate_then_verify(tmp_path, lists, policy_trees, run_exact):
    answers, guesses = lists
    out = tmp_path / "tree.graphml"
    code, stdout, stderr = cli("wordle", "evaluate", "--first", "SLATE", "--second", "min-worst", "--answers", answers,
                               "--guesses", guesses, "--out", out, "--json")
    assert code == 0, stderr
    assert json.loads(stdout)["wins"] == policy_trees["min-worst"].wins
    # The installed entry point, end to end.
    r = run_exact("wordle", "verify", out, "--answers", answers, "--guesses", guesses, "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert (report["wins"], report["n"], report["valid"]) == (policy_trees["min-worst"].wins, len(ANSWERS), True)
    assert len(report["lost"]) == len(ANSWERS) - report["wins"]
    # The same tree checked against a guess list without its second guesses: invalid, exit 1.
    code, stdout, _ = cli("wordle", "verify", out, "--answers", answers, "--guesses", answers)
    assert code == 1 and "not-allowed" in stdout


MALFORMED = [
    ("bad.json", "{not json", "not valid JSON"),
    ("bad.graphml", "<graphml><graph", "not valid GraphML"),
    ("bad.txt", "cabin GGGBB1 cable\n", ":1: the line ends in a guess"),
    ("bad.dot", "graph { a -- b }", "not a DOT digraph"),
    ("bad.csv", "x", "unknown tree format"),
    ("missing.json", None, "no such file"),
]


def assert_one_line_error(code, stderr, *fragments):
    assert code == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("exact: error: "), stderr
    assert all(f in lines[0] for f in fragments), stderr


@pytest.mark.parametrize("name, text, fragment", MALFORMED)
def test_cli_malformed_files_one_line_error(tmp_path, name, text, fragment):
    if text is not None:
        (tmp_path / name).write_text(text)
    assert_one_line_error(*cli("wordle", "verify", tmp_path / name)[::2], name, fragment)


def test_cli_malformed_file_through_the_entry_point(tmp_path, run_exact):
    (tmp_path / "bad.txt").write_text("cabin GGGBB1 cable GGGGG2\n  GGGGG1\n")
    r = run_exact("wordle", "verify", tmp_path / "bad.txt")
    assert_one_line_error(r.returncode, r.stderr, "bad.txt:2:", "does not line up")
