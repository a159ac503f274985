"""The exact Wordle DP against brute force (normal and hard mode), and its trees replayed."""

import itertools
import random
from dataclasses import dataclass

import numpy as np
import pytest

from exact.errors import ExactError
from exact.feedback import encode, feedback
from exact.partitions import feedback_matrix
from exact.wordle.wins import dp
from exact.wordle.wins.dp import solve
from exact.wordle.wins.trees import best_tree, tie_break_first
from exact.wordle.wins.features import ABSENT, ELSEWHERE, GREEN, class_features, feature_caps, feature_sets
from exact.wordle.wins.kernels import _allowed_positions, _bounded, bitset_words, scratch, wins2
from exact.bench.dp_baseline import _allowed_positions as allowed_positions_before
from exact.game.hard import HardMode, add_feedback, constraint, is_allowed, letter_counts, no_constraint
from exact.game.tree import replay
from exact.words import wordle_allowed, wordle_answers, words_from_lines

from oracles import brute_values, random_sized


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(16))
def test_dp_matches_brute_force(seed):
    A, G = random_sized(seed)
    k, hard = 1 + seed % 4, seed % 3 == 1
    values = brute_values(A.words, G.words, k, hard)
    best = max(values.values())
    r = solve(A, G, depth=k, hard=hard, progress=False)
    assert r.status == "OPTIMAL"
    assert r.wins == best
    assert r.optimal_first == sorted(g for g, v in values.items() if v == best)
    assert [v for _, v in r.top] == sorted(values.values(), reverse=True)[:10]
    assert all(values[g] == v for g, v in r.top)
    for g in G.words[:3]:
        assert solve(A, G, depth=k, hard=hard, first=g, progress=False).wins == values[g]


@pytest.mark.parametrize("seed", range(6))
def test_tree_replays_to_the_dp_value(seed):
    A, G = random_sized(100 + seed)
    k, hard = 2 + seed % 3, seed % 2 == 1
    r = solve(A, G, depth=k, hard=hard, progress=False)
    tree = best_tree(A, G, k, tie_break_first(r), hard)
    played = replay(tree, A, G, depth=k, hard=hard)
    assert played.valid, played.invalid
    assert played.wins == r.wins


@pytest.mark.slow
@pytest.mark.parametrize("k", [2, 3])
def test_pruning_agrees_on_clustered_answers(k):
    # -ight, -atch, -ound words cannot all be split: every level prunes and loses answers
    A = [w for w in wordle_answers().words if w[1:] in ("ight", "atch", "ound")]
    G = sorted(set(A) | set(random.Random(5).sample(wordle_allowed().words, 25)))
    A, G = words_from_lines(A), words_from_lines(G)
    values = brute_values(A.words, G.words, k)
    r = solve(A, G, depth=k, progress=False)
    assert r.wins == max(values.values()) < len(A)
    assert [v for _, v in r.top] == sorted(values.values(), reverse=True)[:10]


def test_answers_must_be_guesses():
    A = words_from_lines(["cabin", "cable"], "a.txt")
    G = words_from_lines(["cabin", "caber"], "g.txt")
    with pytest.raises(ExactError, match="'cable' is not in g.txt"):
        solve(A, G, progress=False)
    with pytest.raises(ExactError, match="^first 'zzzzz'"):  # the library names its parameter
        solve(A, words_from_lines(["cabin", "cable"]), first="zzzzz", progress=False)


def test_solve_command_writes_tree_and_certificate(tmp_path):
    import json

    from click.testing import CliRunner

    from exact.cli import main
    from exact.game.formats import read_tree

    A, G = random_sized(3)
    (tmp_path / "a.txt").write_text("\n".join(A.words) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(G.words) + "\n")
    args = ["wordle", "solve", "--answers", str(tmp_path / "a.txt"), "--guesses", str(tmp_path / "g.txt"),
            "--depth", "2", "--out", str(tmp_path / "t.graphml"), "--out", str(tmp_path / "t.txt"),
            "--certificate", str(tmp_path / "c.json"), "--json"]
    run = CliRunner().invoke(main, args)
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data == json.loads((tmp_path / "c.json").read_text())
    assert data["status"] == "OPTIMAL" and data["tree"]["replay"]["wins"] == data["wins"]
    assert data["answers"]["sha256"] == A.sha256
    tree = read_tree(tmp_path / "t.graphml")
    assert replay(tree, A, G, depth=2).wins == data["wins"] == max(brute_values(A.words, G.words, 2).values())
    bad = CliRunner().invoke(main, args[:6] + ["--first", "zzzzz"])
    assert bad.exit_code == 2 and "not in" in bad.output
    text = CliRunner().invoke(main, args[:-1])  # the text report names every file it wrote
    assert text.exit_code == 0 and f"wrote the certificate {tmp_path / 'c.json'} (status OPTIMAL" in text.output
    assert f"wrote {tmp_path / 't.graphml'}, {tmp_path / 't.txt'}" in text.output


@pytest.mark.slow
def test_class_features_hold_for_every_guess_and_answer():
    """Every feature set the kernel infers from a pattern holds the answers with that pattern, and
    each set is what its kind says: on random words over four letters (many repeats)."""
    rng = random.Random(7)
    words = sorted({"".join(rng.choice("abcd") for _ in range(5)) for _ in range(150)})
    codes = encode(words)
    FEAT, sets = feature_sets(codes)
    members = [set(S.tolist()) for S in sets]
    for i in range(5):
        for c in range(26):
            letter = chr(ord("a") + c)
            assert members[FEAT[GREEN, i, c]] == {a for a, w in enumerate(words) if w[i] == letter}
            assert members[FEAT[ELSEWHERE, i, c]] == {a for a, w in enumerate(words) if w[i] != letter and letter in w}
            assert members[FEAT[ABSENT, i, c]] == {a for a, w in enumerate(words) if letter not in w}
    out = np.empty(5, dtype=np.int64)
    used = 0
    for g, guess in enumerate(words):
        for a, answer in enumerate(words):
            m = class_features(codes[g], feedback(guess, answer), FEAT, out)
            used += m
            assert all(a in members[f] for f in out[:m]), (guess, answer)
    assert used > len(words) ** 2  # features are found, not only vacuously true


def test_feature_caps_count_the_classes_on_each_set():
    A = words_from_lines(random.Random(3).sample(wordle_answers().words, 120))
    G = words_from_lines(sorted(set(A.words) | set(random.Random(4).sample(wordle_allowed().words, 80))))
    F = feedback_matrix(G, A)
    FEAT, caps = feature_caps(F, encode(A.words), 243)
    _, sets = feature_sets(encode(A.words))
    for f, S in enumerate(sets):
        assert caps[f].tolist() == [len(set(F[g, S].tolist())) for g in range(len(G))]


def node_instance(hard: bool = False):
    """300 answers and 500 more guesses: nodes of a few dozen answers, classes of 8 or more in them."""
    A = words_from_lines(random.Random(11).sample(wordle_answers().words, 300))
    G = words_from_lines(sorted(set(A.words) | set(random.Random(12).sample(wordle_allowed().words, 500))))
    return dp.make_wins_instance(A, G, hard)


def gray_class(inst) -> np.ndarray:
    """The answers a guess leaves all gray: the largest such class (a node below the root)."""
    sizes = (inst.F == 0).sum(axis=1)
    return np.flatnonzero(inst.F[int(np.argmax(sizes))] == 0).astype(np.int64)


@pytest.mark.slow
def test_node_features_count_the_classes_on_each_set_of_the_node():
    """caps[f, j] of a node (not the root) is the number of classes the guess at position j of the
    node's order makes on the node's answers in feature set f; most[f] the largest of them."""
    inst = node_instance()
    T = gray_class(inst)
    node = dp.make_node(inst, T)
    feats = dp.node_features(inst, node)
    _, sets = feature_sets(encode([inst.answers.words[a] for a in T]))
    assert feats.caps.shape == (len(sets), len(node.order))
    for f, S in enumerate(sets):
        counts = [len(set(inst.F[g, T[S]].tolist())) for g in node.order]
        assert feats.caps[f].tolist() == counts and feats.most[f] == max(counts)


@pytest.mark.parametrize("hard", [False, True])
def test_value3_with_a_nodes_feature_caps_is_value3_without(hard):
    """At a node below the root, value_3 of every guess is the same with the node's feature caps
    (and with them the class bounds by feature maxima, and wins_2 counting only guesses that can
    reach their need) as without: exact where it was exact (threshold 0), and with a threshold the
    same guesses kept, the same exact values, and every pruned bound below the threshold."""
    inst = node_instance(hard)
    search = dp.Search(inst)
    T = gray_class(inst)
    node = dp.make_node(inst, T)
    hm = search.hard_mode(node, no_constraint(5))
    feats, none = dp.node_features(inst, node), search.no_features()
    positions = np.arange(len(node.order), dtype=np.int64)
    variants = ((none, False, none.most, False), (feats, True, none.most, False), (feats, True, none.most, True),
                (feats, True, feats.most, True))

    def run(threshold, f, featured, most, tight):
        return dp.values3(node.FT, positions, node.caps, threshold, 0, 0, 1, inst.npat, hm, f.caps, f.FEAT,
                          featured, most, tight)

    plain, *rest = (run(0, *v) for v in variants)
    for fv, fe in rest:
        assert plain[1].all() and fe.all() and plain[0].tolist() == fv.tolist()
    assert (feats.caps.min(axis=0) < node.caps).mean() > 0.5  # the feature caps bite: tighter than most caps
    best = int(plain[0].max())
    for threshold in (best, best - 5):
        (pv, pe), *rest = (run(threshold, *v) for v in variants)
        for fv, fe in rest:
            assert fe.tolist() == pe.tolist() and fv[fe].tolist() == pv[pe].tolist()
            assert (fv[~fe] < threshold).all() and (fv[~fe] >= plain[0][~fe]).all()


def class_counts(FT: np.ndarray, Q: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """The number of classes each guess (a position of the node's order) makes on the rows Q."""
    rows = np.sort(FT[Q][:, positions], axis=0)
    return 1 + (np.diff(rows, axis=0) != 0).sum(axis=0)


@dataclass
class ClassCase:
    """A class Q (rows of a node below the root) of the guess at position j, pattern p, with what the
    kernels read for it: the node's feature caps, its feature sets, the hard-mode rule after p and the
    positions that rule allows (every one in normal mode)."""

    node: dp.Node
    feats: dp.NodeFeatures
    Q: np.ndarray
    fidx: np.ndarray
    nf: int
    below: HardMode
    allowed: np.ndarray


def class_cases(hard: bool, seed: int, guesses: int, min_size: int, largest_only: bool):
    """Classes of at least ``min_size`` answers of random guesses at the gray class's node."""
    inst = node_instance(hard)
    node = dp.make_node(inst, gray_class(inst))
    feats = dp.node_features(inst, node)
    hm = dp.Search(inst).hard_mode(node, no_constraint(5))
    for j in random.Random(seed).sample(range(len(node.order)), guesses):
        patterns = [int(np.bincount(node.FT[:, j]).argmax())] if largest_only else np.unique(node.FT[:, j]).tolist()
        for p in patterns:
            Q = np.flatnonzero(node.FT[:, j] == p).astype(np.int64)
            if len(Q) < min_size:
                continue
            greens, least = add_feedback(hm.greens, hm.least, node.codes[j], p)
            allowed = _allowed_positions(greens, least, node.codes, node.counts) if hard else np.arange(len(node.order))
            fidx = np.empty(5, dtype=np.int64)
            nf = class_features(node.codes[j], p, feats.FEAT, fidx)
            yield ClassCase(node, feats, Q, fidx, nf, HardMode(hard, greens, least, hm.codes, hm.counts), allowed)


@pytest.mark.parametrize("hard", [False, True])
def test_wins2_is_exact_or_a_bound_below_its_need(hard):
    """wins_2 of classes of a node (with their feature sets, tight or not) is, for needs around its
    value, the exact count (the most classes an allowed guess makes, counted directly) when it reaches
    the need, else a bound at least that count and below the need."""
    checked = 0
    for c in class_cases(hard, seed=4, guesses=60, min_size=8, largest_only=False):
        exact = int(class_counts(c.node.FT, c.Q, c.allowed).max())
        for need, tight in itertools.product((0, exact - 1, exact, exact + 1, exact + 3), (False, True)):
            work = scratch(243, len(c.node.order))
            v, ok = wins2(c.node.FT, c.Q, c.node.caps, need, bitset_words(243), c.below, c.feats.caps, c.fidx, c.nf,
                          work, tight)
            assert ok == (exact >= need) and (v == exact if ok else exact <= v < need), (need, tight)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("hard", [False, True])
def test_bounded_keeps_every_guess_above_the_level(hard):
    """After the first block, _bounded keeps, in order, exactly the allowed guesses whose bound
    min(|Q|, cap, feature caps of Q's sets) exceeds the level, with those bounds; top is the largest
    of them, and ``dropped`` (at most the level) bounds every other guess after the block."""
    nb = 16
    for c in class_cases(hard, seed=5, guesses=20, min_size=1, largest_only=True):
        s = len(c.Q)
        bound = np.minimum(np.minimum(c.node.caps, s), c.feats.caps[c.fidx[:c.nf]].min(axis=0, initial=s))
        after = c.allowed[nb:]
        for level in (0, s // 3, s - 2):
            cand, ccap = np.empty(len(c.node.order), dtype=np.int64), np.empty(len(c.node.order), dtype=np.int64)
            m, top, dropped = _bounded(c.node.caps, s, level, nb, len(c.allowed), c.allowed, c.below.on,
                                       c.feats.caps, c.fidx, c.nf, cand, ccap)
            kept = after[bound[after] > level]
            assert cand[:m].tolist() == kept.tolist() and ccap[:m].tolist() == bound[kept].tolist()
            assert top == max(bound[kept].tolist(), default=0)
            assert dropped <= level and dropped >= max(bound[after[bound[after] <= level]].tolist(), default=0)


def test_allowed_positions_are_the_hard_mode_rule():
    """The kernels' filter keeps exactly the guesses the rule as read allows (``is_allowed``, plain
    Python), in order, after random histories of one to three guesses (none: every guess), and the
    same as the filter before it (exact.bench.dp_baseline); on words with repeated letters too."""
    rng = random.Random(5)
    G = sorted(set(rng.sample(wordle_allowed().words, 400)) | {"eerie", "geese", "mamma", "llama", "sassy"})
    codes = encode(G)
    counts = letter_counts(codes)
    for trial in range(60):
        answer = rng.choice(G)
        history = [(guess, feedback(guess, answer)) for guess in rng.sample(G, trial % 4)]
        greens, least = constraint(history, 5)
        got = _allowed_positions(greens, least, codes, counts)
        assert got.tolist() == [j for j, w in enumerate(G) if is_allowed(w, history)], history
        assert got.tolist() == allowed_positions_before(greens, least, codes, counts).tolist()


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_depth3_kernel_agrees_with_the_baseline_kernel(hard):
    """On a mid-sized instance (pruning by feature caps and thresholds at work), the top 10 first
    guesses and their values equal those of the baseline kernels (exact.bench.dp_baseline)."""
    from exact.bench.dp_baseline import BaselineSearch

    A = words_from_lines(random.Random(11).sample(wordle_answers().words, 300))
    G = words_from_lines(sorted(set(A.words) | set(random.Random(12).sample(wordle_allowed().words, 500))))
    new = solve(A, G, depth=3, hard=hard, progress=False)
    old = solve(A, G, depth=3, hard=hard, progress=False, engine=BaselineSearch)
    assert new.status == old.status == "OPTIMAL"
    assert new.top == old.top and new.optimal_first == old.optimal_first
