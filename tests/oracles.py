"""The oracles and the tiny instances every cross-checking test shares.

An oracle is a brute force that reads only the rules: the feedback rule (:func:`exact.feedback.feedback`,
word against word, no matrix) and the hard-mode rule (:func:`exact.game.hard.is_allowed` on the whole
history), with every allowed guess tried at every node (useless ones included: the guess limit ends those
paths; :func:`node_optimum` skips them, with the argument), memoized on what is left. None of them calls
an engine, a bound, a kernel or a feedback matrix, so a test comparing an engine with one compares it with
the definition.

- :func:`brute_fewest`: the least (lost within each K, ..., total guesses) of any complete tree, compared as
  tuples (the lexicographic order by definition, not the solver's weighted encoding).
- :func:`brute_wins` / :func:`brute_values`: the most (weight of) answers won within k guesses, the best
  first guess's or every first guess's.
- :func:`node_optimum`: either objective from a node (answers left, guess number, hard-mode clues), for
  audits of every node of a tree.
- :func:`brute_memorable`: the most wins within 3 of at most M distinct second guesses.
- :func:`brute_policy_wins`: what a simple second-guess policy wins, from the policy's definition.

Tiny instances (all seeded, all from the shipped Wordle lists): :func:`every_nth`, :func:`look_alike` (answers hard to split),
:func:`sampled` (seeded answers plus seeded non-answers), :func:`random_sized` (sizes drawn too),
:func:`clustered` (-ight, -atch, -ound: answers that cannot all be won), :func:`families` (more such
families), :func:`random_tree`, :func:`random_weights`.
"""

import itertools
import math
import random
from functools import lru_cache

import numpy as np

from exact.feedback import all_green, feedback
from exact.game.hard import is_allowed
from exact.game.tree import Tree
from exact.weights import Weights, weights_sha256
from exact.words import wordle_allowed, wordle_answers, words_from_lines

#: A cost no tree reaches (an unsolvable node under the fewest objective).
INF = 10 ** 12


def split(g, T) -> dict:
    """The classes of the answers ``T`` under guess ``g``: pattern -> answers, by the feedback rule."""
    parts: dict = {}
    for a in T:
        parts.setdefault(feedback(g, a), []).append(a)
    return parts


def _clue(hist: tuple, g: str, p: int, hard: bool) -> tuple:
    """The history after (g, p) as the hard-mode rule reads it: a set of clues (kept sorted, so that every
    ordering of the same clues is one memo key); nothing in normal mode."""
    return tuple(sorted({*hist, (g, p)})) if hard else ()


# --- the fewest-guesses objective ------------------------------------------------------------------

def brute_fewest(answers, guesses, max_guesses, hard=False, wins=(), first=None, history=(), weights=None):
    """The lexicographically least (lost within each K of ``wins``..., total guesses) of any complete
    tree, or None when no tree solves every answer within max_guesses; with ``weights`` (answer ->
    weight) each answer's terms count its weight. ``first``: the guess after ``history`` is this one."""
    green = all_green(len(answers[0]))
    weights = weights or {}

    def add(u, v):
        return tuple(a + b for a, b in zip(u, v))

    def leaf(step, a):
        w = weights.get(a, 1)
        return tuple(w * int(step > k) for k in wins) + (w * step,)

    @lru_cache(maxsize=None)
    def best(S, step, hist):
        if step > max_guesses:
            return None
        options = [first] if (first is not None and step == len(history) + 1) else guesses
        result = None
        for g in options:
            if hard and not is_allowed(g, hist):
                continue
            total = tuple([0] * (len(wins) + 1))
            for p, P in split(g, S).items():
                sub = leaf(step, g) if p == green else best(tuple(P), step + 1, _clue(hist, g, p, hard))
                if sub is None:
                    total = None
                    break
                total = add(total, sub)
            if total is not None and (result is None or total < result):
                result = total
        return result

    S = tuple(a for a in answers if all(feedback(g, a) == p for g, p in history))
    return best(S, len(history) + 1, tuple(history) if hard else ())


# --- the depth-k objective ----------------------------------------------------------------------------

def _wins_oracle(answers, guesses, hard, weights):
    """``value(g, T, k, hist)``: the weight won within k guesses from answers T with g guessed first, the
    best play after; one memo for every call (:func:`brute_values` asks every first guess)."""
    green = all_green(len(answers[0]))
    won = weights or {a: 1 for a in answers}

    @lru_cache(maxsize=None)
    def wins(T, k, hist):
        if k == 0 or not T:
            return 0
        return max(value(g, T, k, hist) for g in guesses if not hard or is_allowed(g, hist))

    def value(g, T, k, hist):
        return sum(won[g] if p == green else wins(tuple(P), k - 1, _clue(hist, g, p, hard))
                   for p, P in split(g, T).items())

    return value, wins


def brute_wins(answers, guesses, depth, hard=False, weights=None, first=None):
    """The most weight won within ``depth`` guesses over every strategy (``weights``: answer -> weight, 1
    each without), by the definition: the all-green class wins its answer's weight; ``first``: the first
    guess is this one."""
    value, wins = _wins_oracle(answers, guesses, hard, weights)
    T = tuple(answers)
    return wins(T, depth, ()) if first is None else value(first, T, depth, ())


def brute_values(answers, guesses, k, hard=False, weights=None):
    """value_k(g, A) for every first guess g: the most weight won within k guesses with g first."""
    value, _ = _wins_oracle(answers, guesses, hard, weights)
    return {g: value(g, tuple(answers), k, ()) for g in guesses}


# --- either objective from a node ---------------------------------------------------------------------

def node_optimum(guesses, weights, hard, objective, limit):
    """opt(T, t, clues): the optimum of the answers T (a frozenset) before guess t with these hard-mode
    clues (sorted (guess, pattern) pairs; () in normal mode): the least weighted total of guesses (every
    answer within ``limit``; :data:`INF` when none does), or, for the objective ``"wins"``, the most weight
    won within ``limit`` guesses. ``weights``: answer -> weight, or None for 1 each. Every allowed guess is
    tried at every node but one that leaves T whole without winning: that is T again a guess later, with a
    clue more (which only narrows what hard mode allows), never better under either objective; skipping it
    keeps the audits' 40-guess lists to seconds."""
    fewest = objective == "guesses"
    green = None

    @lru_cache(maxsize=None)
    def opt(T: frozenset, t: int, clues: tuple) -> int:
        nonlocal green
        if t > limit:
            return INF if fewest else 0
        green = green or all_green(len(next(iter(T))))
        best = INF if fewest else 0
        for g in guesses:
            if hard and not is_allowed(g, clues):
                continue
            parts = split(g, T)
            if len(parts) == 1 and g not in T:
                continue  # T whole a guess later (its clue only narrows what hard mode allows): never better
            total = 0
            for p, P in parts.items():
                if p == green:
                    w = 1 if weights is None else weights[g]
                    total += t * w if fewest else w
                else:
                    total += opt(frozenset(P), t + 1, _clue(clues, g, p, hard))
            best = min(best, total) if fewest else max(best, total)
        return best

    return opt


# --- the memorable strategy -----------------------------------------------------------------------

def brute_memorable(answers, guesses, first: str, M: int) -> int:
    """Most wins within 3 after ``first`` over every set S of at most M second guesses, from the plain
    feedback rule (no matrix, no model): the hit of ``first`` plus, per first feedback class, the most
    classes a guess of S makes on it."""
    classes: dict[int, list[str]] = split(first, answers.words)
    hit = len(classes.pop(all_green(answers.length), []))
    w = {(c, g): len({feedback(g, a) for a in P}) for c, P in classes.items() for g in guesses.words}
    best = 0
    for size in range(1, M + 1):
        for S in itertools.combinations(guesses.words, size):
            best = max(best, sum(max(w[c, g] for g in S) for c in classes))
    return hit + best


# --- a simple second-guess policy -----------------------------------------------------------------

def policy_choice(policy, P, answers, guesses):
    """The policy's guess on the answers P, from its definition, with plain Python loops."""
    if policy in ("most-classes", "min-worst", "max-entropy"):
        cands = list(guesses)
    elif policy == "most-classes-answers":
        cands = [w for w in guesses if w in set(answers)]
    else:
        cands = [w for w in guesses if w in set(P)]

    def key(g):
        sizes = [len(c) for c in split(g, P).values()]
        n = len(P)
        entropy = -sum(s / n * math.log2(s / n) for s in sizes)
        first = {"min-worst": (max(sizes), -len(sizes)), "max-entropy": (-round(entropy, 9),)}.get(policy, (-len(sizes),))
        return first + (g not in P, max(sizes), guesses.index(g))

    return min(cands, key=key)


def brute_policy_wins(policy, first, answers, guesses, depth):
    """Wins of the policy by recursion over classes (a lone or last class: guess an answer of it)."""
    def wins(P, step, g=None):
        if step > 1 and (step == depth or len(P) == 1):
            return 1
        g = g or policy_choice(policy, P, answers, guesses)
        return sum(1 if pat == all_green(5) else (wins(Q, step + 1) if step < depth else 0)
                   for pat, Q in split(g, P).items())
    return wins(list(answers), 1, first)


# --- tiny instances -------------------------------------------------------------------------------

def every_nth():
    """Every 60th answer; guesses: every 150th allowed word, the answers, and slate (the policies' instance)."""
    answers = words_from_lines(wordle_answers().words[::60], source="tiny-answers")
    words = set(wordle_allowed().words[::150]) | set(answers.words) | {"slate"}
    return answers, words_from_lines(sorted(words), source="tiny-guesses")


def look_alike(seed, n_answers=6, n_extra=3):
    """Answers that look alike (hard to split) plus a few extra guesses, from the Wordle answers."""
    rng = random.Random(seed)
    pool = wordle_answers().words
    stem = rng.choice(pool)
    near = sorted(pool, key=lambda w: (-sum(a == b for a, b in zip(w, stem)), rng.random()))
    answers = sorted(near[:n_answers])
    extra = sorted(rng.sample([w for w in pool if w not in answers], n_extra))
    return words_from_lines(answers, "answers"), words_from_lines(sorted(answers + extra), "guesses")


def sampled(seed: int, n: int, extra: int):
    """n seeded answers; guesses: those plus ``extra`` seeded allowed non-answers."""
    answers, allowed = wordle_answers(), wordle_allowed()
    rng = random.Random(seed)
    picked = sorted(rng.sample(answers.words, n))
    others = sorted(rng.sample([w for w in allowed.words if w not in answers.index], extra))
    return words_from_lines(picked, f"tiny-{seed}-a"), words_from_lines(sorted(picked + others), f"tiny-{seed}-g")


def random_sized(seed):
    """6 to 10 seeded answers; guesses: those plus 6 to 12 seeded allowed words (the sizes seeded too)."""
    rng = random.Random(seed)
    A = sorted(rng.sample(wordle_answers().words, rng.randint(6, 10)))
    G = sorted(set(A) | set(rng.sample(wordle_allowed().words, rng.randint(6, 12))))
    return words_from_lines(A, f"tiny{seed}"), words_from_lines(G, f"tiny{seed}-guesses")


def clustered(seed: int, extra: int):
    """-ight, -atch, -ound words (they cannot all be split: answers are lost) and some other guesses."""
    A = [w for w in wordle_answers().words if w[1:] in ("ight", "atch", "ound")]
    G = sorted(set(A) | set(random.Random(seed).sample(wordle_allowed().words, extra)))
    return words_from_lines(A, "clustered"), words_from_lines(G, "clustered-guesses")


def families(extra: int = 40):
    """Answers in look-alike families (-ight, -atch, -ound, -ower, -aker, -ill, -ake, -ash): depth 3 cannot
    win them all; guesses: those and every 400th allowed word (the first ``extra``)."""
    A = [w for w in wordle_answers().words if w[1:] in ("ight", "atch", "ound", "ower", "aker", "ill")
         or w[2:] in ("ake", "ash")]
    G = sorted(set(A) | set(wordle_allowed().words[::400][:extra]))
    return words_from_lines(A, "clustered"), words_from_lines(G, "clustered-guesses")


def random_tree(answers, guesses, seed: int, t: int = 1) -> Tree:
    """A complete tree of a random guess among the three that split T most (a candidate for two answers)."""
    rng = np.random.default_rng(seed)

    def build(T, t):
        if len(T) <= 2:
            g = T[0]
        else:
            ranked = sorted(guesses, key=lambda g: (-len(split(g, T)), g))[:3]
            g = ranked[int(rng.integers(len(ranked)))]
        children = {p: build(P, t + 1) for p, P in split(g, T).items() if p != all_green(5)}
        return Tree(g, len(T), children)
    return build(list(answers), t)


def reaching(tree: Tree, history, answers) -> frozenset:
    return frozenset(a for a in answers if all(feedback(g, a) == p for g, p in history))


def random_weights(A, seed, top=9) -> Weights:
    """Random positive integer weights of the answers A, 1 to ``top`` (seeded)."""
    rng = random.Random(seed)
    values = np.array([rng.randint(1, top) for _ in A.words], dtype=np.int64)
    return Weights(values, f"random{seed}", weights_sha256(A, values))
