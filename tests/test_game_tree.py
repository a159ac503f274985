"""Strategy trees (exact.game.tree): the networkx schema and the independent replay."""

import math

import pytest

from exact.errors import ExactError
from exact.feedback import all_green, feedback, format_pattern, parse_pattern
from exact.game.tree import Tree, count_nodes, from_networkx, replay, to_networkx, tree_depth
from exact.words import words_from_lines


def W(*words):
    return words_from_lines(words, source="test")


# --- Tree, networkx schema --------------------------------------------------------------------------


def test_networkx_schema(hand_tree):
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
def test_from_networkx_rejects_bad_graphs(breakage, fragment, hand_tree):
    G = to_networkx(hand_tree())
    breakage(G)
    with pytest.raises(ExactError, match=fragment):
        from_networkx(G)


# --- replay -----------------------------------------------------------------------------------------


def test_replay_wins_and_losses(hand_answers, hand_tree):
    r = replay(hand_tree(), hand_answers, hand_answers, depth=2)
    # cabin wins at guess 1; cable and cache at guess 2; caber shares cable's class and is lost.
    assert (r.wins, r.n, r.lost, r.wins_at, r.invalid) == (3, 4, ("caber",), (1, 2), ())
    assert math.isclose(r.probability, 0.75)


def test_replay_depth_one_loses_everything_but_the_first_guess(hand_answers, hand_tree):
    r = replay(hand_tree(), hand_answers, hand_answers, depth=1)
    assert r.wins == 1 and r.lost == ("caber", "cable", "cache")
    # A tree deeper than the depth is not invalid: its deeper nodes are notes, and the statistics
    # still describe the whole tree.
    assert r.valid and [p.kind for p in r.notes] == ["depth", "depth"]
    assert (r.histogram, r.unsolved, r.beyond, r.wins_within) == ((1, 2), ("caber",), ("cable", "cache"), (1, 3))


def test_replay_statistics(hand_answers, hand_tree):
    r = replay(hand_tree(), hand_answers, hand_answers, depth=2)
    assert (r.histogram, r.total_guesses, r.solved, r.complete, r.worst) == ((1, 2), 5, 3, False, 2)
    assert math.isclose(r.mean_guesses, 5 / 3)
    t = hand_tree()
    t.children[feedback("cabin", "cable")] = Tree("cable", 2, {feedback("cable", "caber"): Tree("caber", 1, {})})
    r = replay(t, hand_answers, hand_answers, depth=2)
    assert (r.histogram, r.wins, r.lost, r.beyond, r.unsolved, r.complete) == ((1, 2, 1), 3, ("caber",), ("caber",), (), True)
    assert (r.total_guesses, r.worst, r.wins_within, r.valid) == (8, 3, (1, 3, 4), True)
    data = replay(t, hand_answers, hand_answers, depth=3).to_json()
    assert (data["total_guesses"], data["mean_guesses"], data["worst"], data["lost"]) == (8, 2.0, 3, [])


def test_replay_missing_branch_is_reported_and_lost(hand_answers, hand_tree):
    t = hand_tree()
    del t.children[feedback("cabin", "cache")]
    r = replay(t, hand_answers, hand_answers, depth=2)
    assert r.wins == 2 and r.lost == ("caber", "cache")
    assert [p.kind for p in r.invalid] == ["missing-branch"]
    assert format_pattern(feedback("cabin", "cache"), 5) in r.invalid[0].message
    r = replay(t, hand_answers, hand_answers, depth=1)
    assert r.invalid == () and r.notes[0].kind == "depth"  # no branch is missing at the last guess


def test_replay_not_allowed_and_count(hand_answers, hand_tree):
    t = hand_tree()
    t.children[feedback("cabin", "cable")] = Tree("cable", 3, {})
    r = replay(t, hand_answers, W("cabin", "cache"), depth=2)
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
