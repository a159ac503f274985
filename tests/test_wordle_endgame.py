"""The endgame bound (exact.wordle.fewest.endgame): its premise, checked with the slow scorer, and
the bound against brute force on sets made of endgames, in normal and hard mode."""

import itertools
import random

import numpy as np
import pytest

from exact.feedback import feedback
from exact.game.hard import no_constraint
from exact.wordle.fewest.objective import Objective
from exact.wordle.fewest.search import make_guesses_instance, solve_guesses
from exact.game.hard import constraint
from exact.wordle.fewest.endgame import MIN_ENDGAME, endgame_bound, endgames
from exact.words import wordle_answers, words_from_lines

from oracles import brute_fewest

IGHT = ["eight", "fight", "light", "might", "night", "right", "sight", "tight", "wight"]
ATCH = ["batch", "catch", "hatch", "latch", "match", "patch", "watch"]
OTHERS = ["bring", "child", "swamp", "rough", "wormy"]


@pytest.mark.slow
def test_a_guess_splits_an_endgame_into_one_default_class_and_singletons():
    """The premise of the bound, on every endgame of the answer list and 300 guesses: every answer
    that scores as it would with a letter the guess lacks at the blanked position is in one class
    (the default), every other answer scores alone; so any class of two or more is the default."""
    A = wordle_answers()
    codes = np.array([[ord(c) - 97 for c in w] for w in A.words])
    ans_end, members, start, _, _ = endgames(codes, np.arange(len(A)), 6)
    assert len(start) > 100
    guesses = random.Random(5).sample(A.words, 300)
    for e in range(len(start) - 1):
        E = [A.words[i] for i in members[start[e]:start[e + 1]]]
        assert len(E) >= MIN_ENDGAME
        w = next(i for i in range(5) if len({x[i] for x in E}) > 1)
        assert all(x[:w] + x[w + 1:] == E[0][:w] + E[0][w + 1:] for x in E)
        for g in guesses:
            lacked = next(c for c in "abcdefghijklmnopqrstuvwxyz" if c not in g)
            default = feedback(g, E[0][:w] + lacked + E[0][w + 1:])
            others = [s for s in (feedback(g, x) for x in E) if s != default]
            assert len(others) == len(set(others))


def brute_cost(answers, guesses, S, t, max_guesses, hard):
    """cost(S, t) with c[s] = s, by brute force (None: impossible)."""
    r = brute_fewest(list(S), guesses, max_guesses - t + 1, hard)
    return None if r is None else r[-1] + (t - 1) * len(S)


def instance(answers, guesses, max_guesses, hard):
    A = words_from_lines(sorted(answers), "answers")
    G = words_from_lines(sorted(set(guesses) | set(answers)), "guesses")
    return A, G, make_guesses_instance(A, G, Objective(()), max_guesses, hard)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("words", [IGHT, ATCH])
def test_the_endgame_bound_never_exceeds_the_cost(words, hard):
    """Every subset of an endgame plus a few other answers, at every step: the bound is at most the
    brute-force cost, and infinite only where no strategy exists."""
    rng = random.Random(len(words) + hard)
    extra = ["crowd", "plumb"]
    answers = words + OTHERS[:2]
    for max_guesses in (3, 4):
        A, G, inst = instance(answers, answers + extra, max_guesses, hard)
        greens, least = no_constraint(5)
        subsets = [c for k in range(MIN_ENDGAME, len(answers) + 1)
                   for c in itertools.combinations(range(len(A)), k)]
        for cols in rng.sample(subsets, 40) + [tuple(range(len(A)))]:
            S = np.array(cols, dtype=np.int64)
            for t in range(1, max_guesses + 1):
                truth = brute_cost(A.words, G.words, [A.words[i] for i in cols], t, max_guesses, hard)
                bound = endgame_bound(inst.ctx, S, t, greens, least)
                if truth is not None:
                    assert bound <= truth, (cols, t, max_guesses, hard, int(bound), truth)


@pytest.mark.slow
def test_the_endgame_bound_bites():
    """Nine _ight words and no other guesses: each guess splits off at most its own word, so the
    bound is the whole cost 1 + 2 + ... + 9 = 45, where the node bound says 1 + 8 * 2 = 17; with four
    guesses it proves no strategy exists (the cut), as the brute force finds."""
    A, G, inst = instance(IGHT, IGHT, 9, False)
    S = np.arange(len(A), dtype=np.int64)
    greens, least = no_constraint(5)
    truth = brute_cost(A.words, G.words, A.words, 1, 9, False)
    assert truth == 45 == endgame_bound(inst.ctx, S, 1, greens, least)
    A4, G4, inst4 = instance(IGHT, IGHT, 4, False)
    assert brute_fewest(A4.words, G4.words, 4) is None
    assert endgame_bound(inst4.ctx, S, 1, greens, least) >= 1 << 60


@pytest.mark.slow
@pytest.mark.parametrize("max_guesses", [3, 4, 5])
def test_the_hard_mode_cap_after_a_first_guess(max_guesses):
    """Hard mode after every first guess and feedback: with the greens known a guess can split off
    one answer per non-green position; the capped bound is at most the brute-force cost from step 2
    (and bites: some positions are proven impossible by it alone)."""
    answers = IGHT + ATCH[:4] + OTHERS[:1]
    A, G, inst = instance(answers, answers + ["crowd", "plumb"], max_guesses, True)
    cut = 0
    for g in G.words:
        for p in sorted({feedback(g, a) for a in A.words}):
            cols = [i for i, a in enumerate(A.words) if feedback(g, a) == p]
            if len(cols) < MIN_ENDGAME:
                continue
            greens, least = constraint(((g, p),), 5)
            bound = endgame_bound(inst.ctx, np.array(cols, dtype=np.int64), 2, greens, least)
            truth = brute_fewest(A.words, G.words, max_guesses, True, history=((g, p),))
            if truth is None:
                cut += bound >= 1 << 60
            else:
                assert bound <= truth[-1], (g, p, int(bound), truth)
    assert max_guesses == 5 or cut > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("hard", [False, True])
def test_solver_matches_brute_force_on_endgames(seed, hard):
    """The whole solver, with the bound in use, on endgame-heavy lists at tight guess limits."""
    rng = random.Random(seed)
    words = rng.sample(IGHT, 5) + rng.sample(ATCH, 3)
    answers = sorted(words + rng.sample(OTHERS, 1))
    guesses = sorted(set(answers) | set(rng.sample(["crowd", "plumb", "flint", "magic", "sweat"], 2)))
    A, G = words_from_lines(answers, "answers"), words_from_lines(guesses, "guesses")
    for max_guesses in (3, 4, 5):
        expected = brute_fewest(A.words, G.words, max_guesses, hard)
        r = solve_guesses(A, G, max_guesses=max_guesses, hard=hard, progress=False)
        if expected is None:
            assert r.status == "INFEASIBLE"
        else:
            assert r.status == "OPTIMAL" and r.total == expected[-1], (seed, hard, max_guesses)


def brute_under(answers, guesses, S, t, max_guesses, hard, greens, least):
    """cost(S, t) under a hard-mode constraint (c[s] = s), every guess tried: None if impossible."""
    from functools import lru_cache

    from exact.feedback import all_green, encode
    from exact.game.hard import add_feedback, allows, letter_counts

    codes = encode(list(guesses))
    counts = letter_counts(codes)
    green = all_green(5)

    @lru_cache(maxsize=None)
    def best(T, step, gr, le):
        if step > max_guesses:
            return None
        out = None
        for j, g in enumerate(guesses):
            if hard and not allows(np.array(gr, dtype=np.int8), np.array(le, dtype=np.int8), codes[j], counts[j]):
                continue
            classes = {}
            for a in T:
                classes.setdefault(feedback(g, a), []).append(a)
            if len(classes) == 1 and green not in classes:
                continue
            total = 0
            for p, P in classes.items():
                if p == green:
                    total += step
                    continue
                g2, l2 = (add_feedback(np.array(gr, dtype=np.int8), np.array(le, dtype=np.int8), codes[j], p)
                          if hard else (np.array(gr), np.array(le)))
                sub = best(tuple(P), step + 1, tuple(int(x) for x in g2), tuple(int(x) for x in l2))
                if sub is None:
                    total = None
                    break
                total += sub
            if total is not None and (out is None or total < out):
                out = total
        return out

    return best(tuple(S), t, tuple(int(x) for x in greens), tuple(int(x) for x in least))


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_every_memo_entry_is_a_valid_bound(hard):
    """After a solve, every entry of the memo (the unions stored for letters known absent among them)
    is at most the brute-force cost of its set, step and constraint, and equal to it when exact."""
    from exact.wordle.fewest.search import node_value
    from exact.wordle.fewest.memo import new_memo

    answers = sorted(IGHT[:6] + ATCH[:4] + OTHERS[:2])
    A, G, inst = instance(answers, answers + ["crowd", "plumb", "flank"], 5, hard)
    memo = new_memo()
    node_value(inst, memo, np.arange(len(A), dtype=np.int64), 1, no_constraint(5))
    vals, exact, steps, members, rules = memo.value, memo.exact, memo.step, memo.members, memo.rules
    assert len(vals) > 10
    for i in range(len(vals)):
        S = [A.words[j] for j in members[i]]
        truth = brute_under(A.words, G.words, S, int(steps[i]), 5, hard, rules[i][:5], rules[i][5:])
        if truth is None:
            continue
        assert vals[i] <= truth, (S, int(steps[i]), int(vals[i]), truth)
        if exact[i]:
            assert vals[i] == truth, (S, int(steps[i]), int(vals[i]), truth)


def letters_mask(word_letters: str) -> np.int64:
    return np.int64(sum(1 << (ord(x) - ord("a")) for x in set(word_letters)))


def test_the_hard_cap_leaves_out_the_positions_the_yellows_demand():
    """After donko scores o green and d, n yellow, a hard-mode guess has o at position 2 and a d and
    an n among its other four positions: two are left for the letters of an endgame such as _ound
    (b f h m p r s w), three if d were one of them, four without the yellows; normal mode: five."""
    from exact.wordle.fewest.endgame import _free

    greens, least = constraint((("donko", feedback("donko", "bound")),), 5)
    assert list(greens) == [-1, ord("o") - ord("a"), -1, -1, -1]
    ound = letters_mask("bfhmprsw")
    assert _free(5, True, greens, least, ound) == 2
    assert _free(5, True, greens, least, letters_mask("bfhmprswd")) == 3
    assert _free(5, True, greens, np.zeros(26, dtype=np.int64), ound) == 4
    assert _free(5, False, greens, least, ound) == 5


@pytest.mark.slow
def test_donko_leaves_no_hard_mode_strategy_within_6():
    """Selby's solver says Infinity for donko in hard mode; so does the search: the class of donko
    YGYBB (eight _ound answers and nomad) has no strategy within the five guesses left."""
    from exact.game.position import position
    from exact.wordle.fewest.search import node_value
    from exact.wordle.fewest.memo import INF, new_memo
    from exact.words import wordle_allowed

    A, G = wordle_answers(), wordle_allowed()
    inst = make_guesses_instance(A, G, Objective(()), 6, True)
    p = feedback("donko", "bound")
    S, rule = position(A, (("donko", p),), True)
    assert sorted(A.words[a] for a in S) == sorted(["bound", "found", "hound", "mound", "nomad", "pound", "round",
                                                    "sound", "wound"])
    assert node_value(inst, new_memo(), S, 2, rule)[0] >= INF
    r = solve_guesses(A, G, hard=True, first="donko", progress=False, F=inst.F)
    assert r.status == "INFEASIBLE"


def test_the_endgames_command_lists_the_groups_and_writes_their_words(tmp_path, cli, write_lines):
    words = write_lines(tmp_path / "w.txt", IGHT + ATCH + OTHERS)
    out = tmp_path / "groups.txt"
    r = cli("wordle", "endgames", "--answers", words, "--min-size", "8", "--out", out)
    assert r.returncode == 0, r.stderr
    assert "1 groups of 8 words or more, 9 words in all" in r.stdout and "_ight   9  eight fight" in r.stdout
    assert out.read_text().split() == sorted(IGHT)
    r = cli("wordle", "endgames", "--answers", words)
    assert "_atch   7  batch catch hatch latch match patch watch" in r.stdout


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_no_strategy_for_a_subset_means_none_for_the_list(seed, hard):
    """The argument behind proving a worst case on a subset (`exact wordle endgames --out`): a strategy
    for the answers solves each of its subsets as fast, so where a subset needs more than N guesses
    (by the feasibility search) so does the list, and the search agrees on both (brute force). In
    hard mode too: whether a guess is allowed depends only on the guesses and patterns above it in
    the tree (exact.game.hard), never on which answers remain, so the tree restricted to a subset
    keeps every guess allowed."""
    rng = random.Random(seed)
    A = IGHT + ATCH + rng.sample(OTHERS, 2)
    G = A + ["crowd", "plumb"]
    for k in (3, 4):
        whole = solve_guesses(words_from_lines(A), words_from_lines(G), objective="feasible", max_guesses=k,
                              hard=hard, progress=False)
        for part in (IGHT, ATCH, IGHT[:6] + ATCH[:3]):
            sub = solve_guesses(words_from_lines(part), words_from_lines(G), objective="feasible", max_guesses=k,
                                hard=hard, progress=False)
            assert (sub.status == "INFEASIBLE") == (brute_fewest(part, G, k, hard) is None)
            if sub.status == "INFEASIBLE":
                assert whole.status == "INFEASIBLE"
        assert (whole.status == "INFEASIBLE") == (brute_fewest(A, G, k, hard) is None)


def test_the_shipped_endgame_subset_is_what_the_command_makes():
    from exact.wordle.fewest.endgame import endgame_groups
    from exact.words import embedded, named_lists

    groups = endgame_groups(named_lists("all")[0], 14)
    assert len(groups) == 15 and groups[0][0] == "_ills" and len(groups[0][1]) == 19
    assert list(embedded("wordle/all-endgames-14.txt").words) == sorted({w for _, ws in groups for w in ws})


@pytest.mark.slow
def test_the_hard_mode_class_cap_bounds_every_allowed_guess():
    """most_classes_at: after any one or two guesses and their feedback (hard mode), every guess the
    rule allows makes at most 3^(positions without a green) classes on the answers left, as the
    slow scorer counts them; and the cap bites (below the answers left and the list's own m)."""
    from exact.game.hard import is_allowed
    from exact.wordle.fewest.lower_bounds import most_classes_at

    answers = sorted(IGHT + ATCH + OTHERS)
    A, G, inst = instance(answers, answers + ["crowd", "plumb", "flank"], 6, True)
    rng = random.Random(9)
    histories = [((g, feedback(g, a)),) for g in G.words for a in A.words]
    histories += [h + ((g2, feedback(g2, a)),) for h in rng.sample(histories, 60) for g2 in G.words
                  for a in A.words if feedback(h[0][0], a) == h[0][1]]
    bites = 0
    for history in histories:
        T = [a for a in A.words if all(feedback(g, a) == p for g, p in history)]
        greens, _ = constraint(history, 5)
        cap = most_classes_at(inst.ctx, greens)
        for g in G.words:
            if is_allowed(g, history):
                assert len({feedback(g, a) for a in T}) <= cap, (history, g)
        bites += cap < min(len(T), inst.ctx.most_classes)
    assert bites > 0
