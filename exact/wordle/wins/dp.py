"""The exact dynamic programme: the most answers a strategy can win within k guesses.

For a set T of candidate answers and k guesses left,

    wins_0(T) = 0,    wins_k(T) = max over allowed g of value_k(g, T),
    value_k(g, T) = sum over the classes P of g on T of wins_{k-1}(P),

where the all-green class {g} (g in T) counts 1: it is won at this guess (and wins_{k-1}({g}) = 1
for k >= 2, so it is the same formula). So wins_1(T) = 1 for non-empty T (answers must be guesses),
wins_2(T) = the most classes one guess makes on T, and wins_k(T) <= |T|.

Data types:

- ``F``: the feedback matrix (guesses x answers, :mod:`exact.partitions`); guesses and answers are
  row and column indices; a *set* T is a sorted int64 array of answer columns;
- ``caps[g]``: how many classes guess g makes on a set S; for every subset P of S it bounds the
  classes of g on P, so scanning guesses by decreasing cap can stop once the cap is no better than
  the best count found (``order``: guesses by decreasing cap, ties by list order);
- a *hard-mode constraint* (``greens``, ``least``) as in :mod:`exact.game.hard`; ``hard`` False
  ignores it;
- a value comes with a flag ``exact``: False means the search stopped early because even an upper
  bound (the returned number) could not reach the threshold it was asked to reach.

Pruning, and why it is valid: see :mod:`exact.wordle.wins.kernels`, beside the kernels it justifies.

Tie-break of the tree (:func:`best_tree`): at every node the guess of highest value; among equals,
a guess that is itself a candidate answer (it may win at once), then the earliest in the guess list.

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["abbey", "abide", "cabin", "cable", "caber", "cabal"])
>>> r = solve(A, A, depth=2, progress=False)
>>> r.wins, r.status, r.optimal_first, r.top[-1]
(6, 'OPTIMAL', ['abide', 'cable'], ('cabin', 4))
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numba
import numpy as np

from exact import progress as prog, stop
from exact.errors import ExactError
from exact.feedback import encode, pattern_count
from exact.partitions import classes, feedback_matrix, largest_first
from exact.game.hard import Constraint, HardMode, add_feedback, letter_counts
from exact.game.position import position
from exact.weights import Weights, as_values
from exact.wordle.wins.features import feature_caps
from exact.wordle.wins.kernels import bitset_words, class_caps, node_matrix, scratch, values3, wins2
from exact.wordle.wins.result import METHOD, SolveResult
from exact.wordle.wins.weighted import by_weight, values2w, values3w, wins2w
from exact.words import WordList, check_answers_are_guesses, require_in_pool

#: First guesses evaluated per parallel batch at the root (the threshold is raised between batches);
#: the first batch is small, so that a threshold (the 10th best so far) is in force early.
BATCH = 256
#: Seconds a kernel call at the root aims at (a Ctrl-C waits for the call to end).
PIECE_SECONDS = 0.5
FIRST_BATCH = 16


# --- the problem and the recursion --------------------------------------------------------------

@dataclass
class WinsInstance:
    """A Wordle instance ready for the wins_k kernels (the fewest-guesses solver has its own,
    :class:`exact.wordle.fewest.search.GuessesInstance`)."""

    answers: WordList
    guesses: WordList
    F: np.ndarray
    hard: bool
    codes: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)
    npat: int
    in_answers: np.ndarray = field(repr=False)  # guess row -> answer column, or -1
    answer_codes: np.ndarray = field(repr=False)  # the encoded answers, by column
    #: answer weights (int64 by answer column, :mod:`exact.wordle.wins.weighted`); None: unit weights
    w: np.ndarray | None = field(default=None, repr=False)

    @property
    def green(self) -> int:
        return self.npat - 1


def make_wins_instance(answers: WordList, guesses: WordList, hard: bool = False,
                       F: np.ndarray | None = None, weights: Weights | None = None) -> WinsInstance:
    """Check the lists (same length, every answer a guess) and load the feedback matrix; ``weights``
    (not unit) switch the kernels to the weighted ones (:mod:`exact.wordle.wins.weighted`)."""
    check_answers_are_guesses(answers, guesses)
    if F is None:
        F = feedback_matrix(guesses, answers)
    codes = encode(guesses.words)
    in_answers = np.full(len(guesses), -1, dtype=np.int64)
    for j, a in enumerate(answers.words):
        in_answers[guesses.index[a]] = j
    w = None if weights is None or weights.unit else as_values(weights, answers)
    return WinsInstance(answers, guesses, F, hard, codes, letter_counts(codes),
                        pattern_count(answers.length), in_answers, encode(answers.words), w=w)



@dataclass
class NodeFeatures:
    """The feature caps of a node's answers (:func:`exact.wordle.wins.features.feature_caps`)."""

    FEAT: np.ndarray  # FEAT[kind, i, c]: the number of each feature set
    caps: np.ndarray  # caps[f, j]: the classes of the guess at position j of the node's order on set f
    most: np.ndarray  # most[f] = the largest of caps[f]: a bound on wins_2 of any class inside set f


@dataclass
class Node:
    """A set T of answers with its guesses in decreasing cap order and its node matrix."""

    T: np.ndarray
    order: np.ndarray  # guess rows, by decreasing number of classes on T, ties by list order
    caps: np.ndarray  # caps[j] = classes of guess order[j] on T (non-increasing)
    FT: np.ndarray = field(repr=False)  # FT[r, j] = F[order[j], T[r]]
    codes: np.ndarray = field(repr=False)  # encoded guesses, in the same order (hard mode)
    counts: np.ndarray = field(repr=False)
    #: the node's feature caps (:func:`node_features`), once counted
    features: NodeFeatures | None = field(default=None, repr=False)

    def caps_by_row(self) -> np.ndarray:
        caps = np.empty_like(self.caps)
        caps[self.order] = self.caps
        return caps

    def positions(self, rows: np.ndarray) -> np.ndarray:
        where = np.empty_like(self.order)
        where[self.order] = np.arange(len(self.order))
        return where[np.asarray(rows, dtype=np.int64)]


def make_node(inst: WinsInstance, T: np.ndarray) -> Node:
    T = np.asarray(T, dtype=np.int64)
    with stop.held():  # a signal inside numba's parallel kernels crashes the process
        by_row = class_caps(inst.F, T, inst.npat)
        order = np.lexsort((np.arange(len(by_row)), -by_row)).astype(np.int64)
        FT = node_matrix(inst.F, order, T)
    return Node(T, order, by_row[order], FT, inst.codes[order], inst.counts[order])


def node_features(inst: WinsInstance, node: Node) -> NodeFeatures:
    """The feature caps of :func:`feature_caps` on the node's answers, ``caps[f, j]`` for the guess at
    position j of the node's order (the kernels read them by position), counted on first use."""
    if node.features is None:
        with stop.held():  # see make_node
            FEAT, caps = feature_caps(inst.F, inst.answer_codes[node.T], inst.npat, node.T, node.order)
        node.features = NodeFeatures(FEAT, caps, caps.max(axis=1).astype(np.int64))
    return node.features


def allowed_rows(inst: WinsInstance, rows: np.ndarray, rule: Constraint) -> np.ndarray:
    """The guess rows hard mode allows under ``rule`` (all of them in normal mode)."""
    if not inst.hard:
        return rows
    greens, least = rule
    ok = np.all((greens < 0) | (inst.codes[rows] == greens), axis=1)
    ok &= np.all(inst.counts[rows] >= least, axis=1)
    return rows[ok]


class TimeUp(Exception):
    """The search's deadline (``Search.deadline``) has passed; the value being computed is lost."""


class Search:
    """The recursion for any k, with the kernels for k <= 3 and Python above that.

    :meth:`wins2` and :meth:`values3` are the two kernel entry points (the benchmark swaps in the
    baseline kernels of :mod:`exact.bench.dp_baseline` by overriding them).
    """

    #: whether :meth:`values3` raises the threshold itself, candidate by candidate
    raises_inside = True
    #: the unweighted kernels (a benchmark swaps in variants compiled with another hard-mode filter:
    #: :mod:`exact.bench.filter_baseline`)
    wins2_kernel = staticmethod(wins2)
    values3_kernel = staticmethod(values3)
    #: feature caps (:func:`node_features`) at the root only (None), or also at every node of at least
    #: this many answers (:class:`exact.wordle.wins.bounds.StagedSearch`)
    node_features_min: int | None = None
    #: the staged search's kernel additions (:class:`exact.wordle.wins.bounds.StagedSearch`, arguments
    #: 5 and 6): value_3 bounds each class by its feature sets' maxima before scanning, wins_2 counts
    #: no guess that cannot reach its need (:func:`exact.wordle.wins.kernels.value3`, ``wins2``), and
    #: in normal mode wins_2 of a class met again at a node is answered from a memo
    tight = False

    def __init__(self, inst: WinsInstance):
        self.inst = inst
        self.root: Node | None = None
        self.last: Node | None = None
        self.deadline: float | None = None  # time.perf_counter() after which value() raises TimeUp

    def node(self, T: np.ndarray) -> Node:
        if len(T) == len(self.inst.answers):  # the root set is used again and again: keep it
            return self.root_node()
        if self.last is not None and self.last.T is T:  # asked twice in a row (wins above depth 3)
            return self.last
        self.last = make_node(self.inst, T)
        return self.last

    def root_node(self) -> Node:
        if self.root is None:
            self.root = make_node(self.inst, np.arange(len(self.inst.answers), dtype=np.int64))
        return self.root

    def after(self, rule: Constraint, g: int, pattern: int) -> Constraint:
        if not self.inst.hard:
            return rule
        return add_feedback(rule[0], rule[1], self.inst.codes[g], pattern)

    # kernel entry points
    def wins2(self, node: Node, P, need, rule):
        """wins_2 of the answers P (rows of the node's matrix), no feature sets (P is not a class)."""
        if self.inst.w is not None:
            return self.wins2_weighted(node, P, need, rule)
        fcaps = self.no_features().caps
        work = scratch(self.inst.npat, len(node.caps))
        return self.wins2_kernel(node.FT, P, node.caps, need, bitset_words(self.inst.npat),
                                 self.hard_mode(node, rule), fcaps, np.zeros(0, dtype=np.int64), 0, work,
                                 self.tight)

    def values3(self, node: Node, positions, threshold, rule, raising=0, keep=0):
        """value_3 at a node, with feature caps where :meth:`featured` says."""
        if self.inst.w is not None:
            wrows = self.inst.w[node.T]
            return values3w(node.FT, positions, node.caps, threshold, raising, keep, numba.get_num_threads(),
                            self.inst.npat, self.hard_mode(node, rule), wrows, by_weight(wrows))
        featured = self.featured(node)
        feats = node_features(self.inst, node) if featured else self.no_features()
        most = feats.most if self.tight else feats.most[:0]
        return self.values3_kernel(node.FT, positions, node.caps, threshold, raising, keep, numba.get_num_threads(),
                                   self.inst.npat, self.hard_mode(node, rule), feats.caps, feats.FEAT, featured, most,
                                   self.tight)

    def featured(self, node: Node) -> bool:
        """Whether value_3 at the node counts its feature caps: always at the root (all answers), below
        it at nodes of at least ``node_features_min`` answers (counting them costs about 11 |T| G
        operations, against the scans they shorten; on small nodes they cost more than they save)."""
        if node is self.root:
            return True
        return self.node_features_min is not None and len(node.T) >= self.node_features_min

    def wins2_weighted(self, node: Node, P, need, rule):
        """Weighted wins_2 of the rows P (:func:`exact.wordle.wins.weighted.wins2w`)."""
        P, wP = self.heaviest_first(node, P)
        top = np.zeros(len(P) + 1, dtype=np.int64)
        top[1:] = np.cumsum(wP)
        return wins2w(node.FT, P, wP, top, node.caps, need, bitset_words(self.inst.npat),
                      self.hard_mode(node, rule), scratch(self.inst.npat, len(node.caps)))

    def heaviest_first(self, node: Node, P) -> tuple[np.ndarray, np.ndarray]:
        """The rows P by decreasing weight (ties in order), with their weights."""
        P = np.asarray(P, dtype=np.int64)
        wP = self.inst.w[node.T[P]]
        order = by_weight(wP)
        return P[order], np.ascontiguousarray(wP[order])

    def weight(self, T: np.ndarray) -> int:
        """W(T), the total weight of the answers T (|T| with unit weights)."""
        return len(T) if self.inst.w is None else int(self.inst.w[T].sum())

    def values2(self, cands: np.ndarray, T: np.ndarray, node: Node | None = None) -> np.ndarray:
        """value_2(g, T) of each candidate row g: its classes on T, or with weights the sum of each
        class's heaviest weight."""
        node = node or self.node(T)
        if self.inst.w is None:
            return node.caps_by_row()[cands]
        P, wP = self.heaviest_first(node, np.arange(len(node.T), dtype=np.int64))
        return values2w(node.FT, node.positions(cands), P, wP, self.inst.npat)

    def hard_mode(self, node: Node, rule: Constraint) -> HardMode:
        """The rule as the kernels read it at ``node`` (its guesses in the node's scan order)."""
        return HardMode(self.inst.hard, rule[0], rule[1], node.codes, node.counts)

    def no_features(self) -> NodeFeatures:
        return NodeFeatures(np.zeros((3, self.inst.codes.shape[1], 26), dtype=np.int64),
                            np.zeros((0, 0), dtype=np.int16), np.zeros(0, dtype=np.int64))

    def separates(self, T: np.ndarray, rule: Constraint) -> bool:
        """Whether one allowed guess splits T into singletons (wins_2(T) = |T|), scanned on the
        root's node matrix (caps on all answers bound the classes on T), with no node for T.

        With weights w >= 1: wins_2(T) = W(T) iff some guess splits T into singletons (a guess wins the
        heaviest answer of each class, so it misses w >= 1 of every class of two or more), so the scan
        asks for W(T) (|T| unweighted) and may stop as soon as its bound falls below it."""
        root = self.root_node()
        W = self.weight(T)
        v, _ = self.wins2(root, np.asarray(T, dtype=np.int64), W, rule)
        return int(v) == W

    def wins(self, T: np.ndarray, k: int, rule: Constraint, need: int = 0) -> tuple[int, bool]:
        """(wins_k(T), True), or (a bound < need, False) when T cannot reach ``need``.

        Shortcuts keep large ``k`` cheap (see :func:`effective_depth`): wins_k(T) <= |T| < need
        is decided at once, and so are wins_k(T) = |T| for k >= |T| and, once wins_{k-1}(T) = |T|,
        wins_k(T) = |T| (wins never decreases with k). Above depth 3 only *useful*
        guesses are tried (:meth:`useful`), so every step of the recursion shrinks the set and it
        is at most |T| levels deep.

        With integer weights w >= 1 each shortcut holds with |T| read as W(T), the weight of T (the
        weight won within k): at most every answer is won (wins_k(T) <= W(T)); one guess left wins the
        heaviest candidate (hard mode allows every candidate), wins_1(T) = max w; guessing a candidate
        each time wins every answer within |T| guesses (k >= |T|, or |T| <= 2: W(T)); a separating
        guess wins every answer at k >= 3 (:meth:`separates`); wins_k >= wins_{k-1} guess by guess.
        """
        n, W = len(T), self.weight(T)
        if need > W:
            return W, False  # wins_k(T) <= W(T) (|T| unweighted) < need
        if k == 0 or n == 0:
            value = 0
        elif k == 1:
            value = 1 if self.inst.w is None else int(self.inst.w[T].max())  # the heaviest candidate
        elif n <= 2 or k >= n:
            value = W  # guessing a candidate each time wins every answer within |T| guesses
        elif k == 2:
            node = self.node(T)
            v, ok = self.wins2(node, np.arange(n, dtype=np.int64), need, rule)
            return int(v), bool(ok)
        elif self.separates(T, rule):
            value = W  # a guess splits T into singletons: every answer is won
        elif k > 3 and self.wins(T, k - 1, rule)[0] == W:
            value = W  # wins_k >= wins_{k-1} = |T|: deeper depths are decided at once
        else:
            cands = None if k <= 3 else self.useful(T, rule)
            values, exact, _ = self.values(T, k, rule, need, cands=cands, first_pass=32)
            best = int(values.max()) if len(values) else 0
            return best, bool(exact[values == best].any()) if len(values) else need <= 0
        return value, value >= need

    def useful(self, T: np.ndarray, rule: Constraint) -> np.ndarray:
        """The allowed guesses (rows, in the node's order) except those that neither hit nor split T.

        Such a guess g leaves T whole, so value_k(g, T) = wins_{k-1}(T); and some useful guess
        reaches at least wins_{k-1}(T) (by induction on k: at k - 1 = 1 a candidate answer does),
        while value_k >= value_{k-1} guess by guess. So wins_k(T) is the maximum over useful
        guesses alone. With weights the same: at k - 1 = 1 the heaviest candidate, a useful guess
        (it hits T), reaches wins_1(T) = max w.
        """
        node = self.node(T)
        rows = allowed_rows(self.inst, node.order, rule)
        caps = node.caps_by_row()[rows]
        return rows[(caps > 1) | np.isin(self.inst.in_answers[rows], T)]

    def values(self, T: np.ndarray, k: int, rule: Constraint, threshold: int,
               cands: np.ndarray | None = None, first_pass: int = 0, strict: bool = False):
        """value_k(g, T) for the allowed candidates g (rows): (values, exact, cands).

        A value flagged not exact is a bound below the threshold in force for it: ``threshold``,
        raised (when ``first_pass`` > 0) to the best exact value found before it + 1 (or to the best
        exact value itself with ``strict``, so that every guess tying the best stays exact). The
        kernels raise it candidate by candidate; the baseline (and k > 3) after ``first_pass``.
        """
        node = self.node(T)
        if cands is None:
            cands = allowed_rows(self.inst, node.order, rule)
        values = np.zeros(len(cands), dtype=np.int64)
        exact = np.zeros(len(cands), dtype=bool)
        raising = (2 if strict else 1) if first_pass else 0
        if k == 3 and self.raises_inside:
            if len(cands):
                values[:], exact[:] = self.values3(node, node.positions(cands), threshold, rule, raising)
            return values, exact, cands
        head = min(first_pass, len(cands)) if first_pass else len(cands)
        for lo, hi, t in ((0, head, threshold), (head, len(cands), None)):
            if lo == hi:
                continue
            if t is None:
                found = values[:lo][exact[:lo]]
                best = int(found.max()) if len(found) else -1
                t = max(threshold, best if strict else best + 1)
            values[lo:hi], exact[lo:hi] = self.value_many(cands[lo:hi], T, k, rule, t, node)
        return values, exact, cands

    def value_many(self, cands, T, k, rule, threshold, node: Node | None = None, keep: int = 0):
        """value_k(g, T) of each candidate row g, each exact or a bound < threshold (with ``keep`` = K
        at k = 3, or below a K-th best exact value found in this call: see :func:`values3`)."""
        cands = np.asarray(cands, dtype=np.int64)
        if k <= 2:
            if k == 2:
                values = self.values2(cands, T, node)
            else:
                values = np.isin(self.inst.in_answers[cands], T).astype(np.int64)
                if self.inst.w is not None:
                    values *= self.inst.w[np.maximum(self.inst.in_answers[cands], 0)]
            return values, values >= threshold
        if k == 3:
            node = node or self.node(T)
            with stop.held():  # see make_node
                return self.values3(node, node.positions(cands), threshold, rule, keep=keep)
        pairs = [self.value(int(g), T, k, rule, threshold) for g in cands]
        return (np.array([v for v, _ in pairs], dtype=np.int64).reshape(-1),
                np.array([e for _, e in pairs], dtype=bool).reshape(-1))

    def value(self, g: int, T: np.ndarray, k: int, rule: Constraint, threshold: int = 0) -> tuple[int, bool]:
        """(value_k(g, T), True), or (a bound < threshold, False).

        Above depth 3 the classes are valued largest first, each against ``threshold - exact so far -
        W(P) for every class left``, and the bound returned is ``exact so far + W(P) for the rest``: an
        upper bound, as wins_{k-1}(P) <= W(P) (|P| unweighted; with weights, the weight of P)."""
        if k <= 3:
            v, e = self.value_many(np.array([g]), T, k, rule, threshold)
            return int(v[0]), bool(e[0])
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise TimeUp
        split = largest_first(classes(self.inst.F, g, T))
        rest = sum(self.weight(P) for _, P in split)
        total = 0
        for pattern, P in split:
            rest -= self.weight(P)
            if pattern == self.inst.green:
                total += self.weight(P)
                continue
            v, ok = self.wins(P, k - 1, self.after(rule, g, pattern), threshold - total - rest)
            total += v
            if not ok:
                return total + rest, False
        return total, total >= threshold


def effective_depth(depth: int, n: int) -> int:
    """The depth that decides wins_depth on n answers: min(depth, n) (and at least 1).

    wins_k(T) <= |T| for every k, and wins_k(T) = |T| for k >= |T|: guessing a remaining candidate
    answer every time either wins or removes it, so every answer is won within |T| guesses (in hard
    mode too: a candidate always keeps the rule). And wins_k(T) never decreases with k (a strategy
    for k - 1 guesses is one for k). So wins_k(T) = wins_{|T|}(T) = |T| for k >= |T|, and the same
    holds for value_k(g, T), class by class.
    """
    return max(1, min(depth, n))


@dataclass
class Sweep:
    """The first guesses valued so far: ``values[:done]`` of ``cands[:done]``, exact where ``exact``,
    and why the sweep stopped early, if it did."""

    cands: np.ndarray | None
    values: np.ndarray
    exact: np.ndarray
    done: int = 0
    interrupted: bool = False
    timed_out: bool = False
    all_won: bool = False


def first_candidates(inst: WinsInstance, guesses: WordList, first: str | None, rule: Constraint) -> np.ndarray | None:
    """The row of ``first`` (checked against the pool and the hard-mode rule), or None for every guess."""
    if first is None:
        return None
    require_in_pool([first], guesses, "first")
    cands = np.array([guesses.index[first]], dtype=np.int64)
    if len(allowed_rows(inst, cands, rule)) == 0:
        raise ExactError(f"first: {first!r} breaks the hard-mode rule after the guesses played")
    return cands


def sweep_first_guesses(sweep: Sweep, search: Search, T: np.ndarray, k: int, rule: Constraint, top: int,
                        bar, started: float, time_limit: float | None, until_all_won: bool, everything: int) -> None:
    """Value ``sweep.cands`` in batches (BATCH at depth <= 3, one at a time above), each batch with
    the threshold of the ``top``-th value found so far (a guess below it needs no exact value);
    ``everything``: W(T), the value that wins every answer."""
    step = BATCH if k <= 3 else 1
    piece = numba.get_num_threads()
    values, exact, cands = sweep.values, sweep.exact, sweep.cands
    while sweep.done < len(cands):
        done = sweep.done
        if time_limit is not None and done and time.perf_counter() - started > time_limit:
            sweep.timed_out = True
            return
        if until_all_won and done and (values[:done][exact[:done]] == everything).any():
            sweep.all_won = True
            return
        hi = min(done + (step if done else min(step, FIRST_BATCH)), len(cands))
        found = np.sort(values[:done][exact[:done]])[::-1]
        threshold = int(found[top - 1]) if len(found) >= top else 0
        # in pieces of about PIECE_SECONDS, so that an interrupt held back during a kernel
        # call is raised soon (the threshold is the same within a batch: the same values)
        while sweep.done < hi:
            end = min(sweep.done + piece, hi)
            tick = time.perf_counter()
            v, e = search.value_many(cands[sweep.done:end], T, k, rule, threshold, keep=top)
            values[sweep.done:end], exact[sweep.done:end] = v, e
            bar.update(end - sweep.done)
            sweep.done = end
            took = time.perf_counter() - tick
            piece = max(1, piece // 2) if took > 2 * PIECE_SECONDS else \
                piece * 2 if took < PIECE_SECONDS / 2 else piece
        if len(found):
            bar.set_postfix(best=int(found[0]))


def solve(answers: WordList, guesses: WordList, depth: int = 3, hard: bool = False,
          first: str | None = None, top: int = 10, progress: bool | None = None,
          F: np.ndarray | None = None, after=(), engine: type[Search] | None = None,
          time_limit: float | None = None, until_all_won: bool = False,
          weights: Weights | None = None) -> SolveResult:
    """The most answers winnable within ``depth`` guesses, every first guess attaining it, the top ones.

    ``after``: (guess, pattern) pairs already played; then the answers are those consistent with
    them, ``depth`` still counts from the start of the game, and ``first`` is the next guess.
    Ctrl-C (or SIGTERM, after :func:`exact.stop.install`) stops the search and returns the best found
    so far, marked ``interrupted``, with status FEASIBLE (UNKNOWN when no first guess was valued).
    A depth beyond the number of answers is computed as that number (:func:`effective_depth`).
    ``engine``: the :class:`Search` class (the benchmark passes the baseline's).
    ``time_limit`` (seconds): stop once it is spent, between first guesses at depth <= 3 (after one
    batch at least), also inside a first guess's search above depth 3 (that guess is then left out),
    with status FEASIBLE (the best found so far, ``timed_out``; UNKNOWN if none was finished). ``until_all_won``: stop as soon as a first guess wins every
    answer; that value is the bound |T|, so the status is OPTIMAL, but ``optimal_first`` then lists
    only the optimal first guesses found (``all_optimal_first`` False).
    ``weights`` (:mod:`exact.weights`, not unit): the most *weight* won within ``depth`` (P(win) = that
    over the total weight, ``weight``), by the weighted kernels; unit weights are the unweighted search itself.
    """
    if depth < 1:
        raise ExactError(f"depth must be at least 1, not {depth}")
    started = time.perf_counter()
    inst = make_wins_instance(answers, guesses, hard, F, weights)
    search = (engine or Search)(inst)
    if time_limit is not None:
        search.deadline = started + time_limit
    history = tuple(after)
    T, rule = position(answers, history, hard)
    if depth - len(history) < 1:
        raise ExactError(f"after: {len(history)} guesses played leave none of the {depth} (depth)")
    k = effective_depth(depth - len(history), len(T))
    cands = first_candidates(inst, guesses, first, rule)
    sweep = Sweep(cands, np.full(len(guesses), -1, dtype=np.int64), np.zeros(len(guesses), dtype=bool))
    bar = prog.bar(total=len(cands) if cands is not None else len(guesses),
                   desc=f"first guesses (depth {depth})", unit="guess", eta=False,
                   disable=(not progress) if progress is not None else None)
    try:
        if sweep.cands is None:
            sweep.cands = allowed_rows(inst, search.node(T).order, rule)
        sweep_first_guesses(sweep, search, T, k, rule, top, bar, started, time_limit, until_all_won,
                            search.weight(T))
    except TimeUp:  # a first guess above depth 3 ran past the time limit: the values before it stand
        sweep.timed_out = True
    except (KeyboardInterrupt, SystemError) as e:
        if not stop.is_interrupt(e):
            raise
        sweep.interrupted = True
        prog.say("interrupted; reporting the best found so far")
    finally:
        bar.close()
    return solve_result(sweep, answers, guesses, len(T), depth, hard, first, top, history, started,
                        weights=weights if inst.w is not None else None,
                        weight=search.weight(T) if inst.w is not None else None)


def solve_result(sweep: Sweep, answers: WordList, guesses: WordList, n: int, depth: int, hard: bool,
                 first: str | None, top: int, history: tuple, started: float,
                 weights: Weights | None = None, weight: int | None = None) -> SolveResult:
    """The result of a sweep: the exact values ranked (value down, then row), the status by how it ended."""
    cands = sweep.cands if sweep.cands is not None else np.zeros(0, dtype=np.int64)
    values, exact, done = sweep.values, sweep.exact, sweep.done
    ranked = sorted((i for i in range(done) if exact[i]), key=lambda i: (-values[i], cands[i]))
    status = "UNKNOWN" if not ranked else "OPTIMAL" if sweep.all_won else \
        "FEASIBLE" if sweep.interrupted or sweep.timed_out else "OPTIMAL"
    best = int(values[ranked[0]]) if ranked else 0
    optimal = sorted(guesses.words[cands[i]] for i in ranked if values[i] == best)
    return SolveResult(
        wins=best, n=n, depth=depth, hard=hard, status=status,
        optimal_first=optimal, top=[(guesses.words[cands[i]], int(values[i])) for i in ranked[:top]],
        evaluated=done, exact_count=int(exact[:done].sum()), seconds=time.perf_counter() - started,
        cores=prog.cores(), answers=answers, guesses=guesses, first=first, method=METHOD,
        interrupted=sweep.interrupted, after=history, timed_out=sweep.timed_out,
        all_optimal_first=not (sweep.all_won or sweep.interrupted or sweep.timed_out), weights=weights, weight=weight,
    )



