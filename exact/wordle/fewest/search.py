"""Fewest guesses, exact: the least total number of guesses over all answers, every answer solved
within ``max_guesses``, and lexicographic objectives such as "most answers within 3, then fewest
guesses".

The quantity. A complete strategy tree plays, at every node, a guess to the set T of answers still
possible; each answer a is solved at some step s(a) (the guess that names it). An objective is a
non-decreasing per-answer *cost table* ``c[s]`` (``c[s] = INF`` for s > max_guesses) and the value
of a tree is ``sum_a c[s(a)]``. With ``c[s] = s`` this is the total number of guesses (Selby's
objective; mean = total / n). For T reached before step t, with the answers of T solved from step
t on,

    cost(T, t) = min over allowed g of  sum over the classes P of g on T of  cost'(P),
    cost'({g}) = c[t] (the all-green class: solved now),  cost'(P) = cost(P, t + 1) otherwise,

and cost({a}, t) = c[t]. The classes of a guess are disjoint and their subtrees independent, so the
best tree for g is the sum of the best subtrees of its classes: the recursion is exact.

Lexicographic objectives (``win3,guesses``, ``win3,win4,guesses``, ...). Level j "winK" counts the
answers *not* solved within K guesses (to be minimised), the last level "guesses" the total. They are
folded into one integer cost table ``c[s] = s + sum_j W_j [s > K_j]`` with weights chosen so that the
lower levels can never outweigh one unit of a higher level: ``W_last = N * n + 1`` for the last win
level (N = max_guesses, n = the answers; the total of any complete tree of a subset of the answers
lies in [|T|, N |T|], so two totals differ by less than N n), and ``W_j = (n + 1) W_{j+1}`` above it
(the counts of a level differ by at most n). So comparing weighted sums is comparing the vectors
(lost_K1, lost_K2, ..., total) lexicographically, for every subset T, at every node. Lexicographic
order on integer vectors is compatible with addition (u <= v implies u + w <= v + w), so the
minimum of a sum of independent parts is the sum of their minima: the per-class lexicographic
optima add up to the lexicographic optimum of the node, and the recursion above stays exact at every
level.

Lower bounds and the search: a depth-first branch and bound in numba with a memo; each bound's
argument is in :mod:`exact.wordle.fewest.lower_bounds`, the search in :mod:`exact.wordle.fewest.kernels`.

Tie-break (which optimal tree is written): at every node the first optimal guess in the order of the
scan above (smallest guess bound, then smallest sum of squared class sizes, then list order).

Fail-soft: when no guess gets below beta, a node returns the least of (the bound each evaluated
guess returned, the guess bound of the guesses not evaluated): >= beta, valid, and often larger;
the memo keeps it as a lower bound for later visits.

Parallelism: the first guess's classes are disjoint answer sets, so their subproblems share no memo
entry; they are solved by ``workers`` threads, each with its own memo.

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
>>> r = solve_guesses(A, A, progress=False)
>>> r.status, r.total, r.n, r.first, r.wins_at
('OPTIMAL', 17, 8, 'cigar', (1, 5, 2, 0, 0, 0))
"""

from __future__ import annotations

import concurrent.futures as cf
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from exact import progress as prog
from exact.errors import ExactError, InternalError
from exact.feedback import all_green, encode, feedback
from exact.partitions import classes, feedback_matrix, largest_first
from exact.game.hard import Constraint, add_feedback, allows, clue_lists, letter_counts
from exact.game.position import check_guess_limit, position
from exact.game.tree import Tree, replay_position
from exact.wordle.fewest.endgame import endgame_caps, endgames
from exact.wordle.fewest.kernels import search_node
from exact.wordle.fewest.lower_bounds import most_patterns, node_bound
from exact.wordle.fewest.scan import candidates, lookahead
from exact.wordle.fewest.context import Context
from exact.wordle.fewest.memo import INF, memo_size, new_memo
from exact.wordle.fewest.objective import Objective, parse_objective
from exact.wordle.fewest.result import GuessesResult
from exact.weights import Weights, as_values
from exact.words import WordList, check_answers_are_guesses, require_in_pool



class Infeasible(ExactError):
    """No strategy solves these answers within the guess limit."""


# --- the instance -----------------------------------------------------------------------------

@dataclass
class GuessesInstance:
    """A Wordle instance ready for the fewest-guesses kernels (``ctx`` is what they read: a
    :class:`exact.wordle.fewest.context.Context`)."""

    answers: WordList
    guesses: WordList
    F: np.ndarray = field(repr=False)
    hard: bool
    cost: np.ndarray
    ctx: Context = field(repr=False)
    weights: Weights | None = None

    @property
    def green(self) -> int:
        return all_green(self.answers.length)

    @property
    def max_guesses(self) -> int:
        return len(self.cost) - 3


def make_guesses_instance(answers: WordList, guesses: WordList, objective: Objective, max_guesses: int,
                          hard: bool = False, F: np.ndarray | None = None,
                          sharp: bool = True, weights: Weights | None = None,
                          weighted_path: bool | None = None) -> GuessesInstance:
    """The arrays the kernels read. ``sharp`` False switches off the sharper class bound of
    ``quick`` (a baseline for the benchmark: the node bound only). ``weights``: the answers' weights
    (None: every answer 1); ``weighted_path`` forces the kernels' weighted path (True) even for unit
    weights (the benchmark's paired run), default: the counting path exactly when all weights are 1.

    The weighted sums cannot overflow: (total weight) x (the largest finite cost) must stay below
    INF / 4 (checked here), and every value the kernels add is at most that."""
    check_answers_are_guesses(answers, guesses)
    if F is None:
        F = feedback_matrix(guesses, answers)
    F = np.ascontiguousarray(F)
    L = answers.length
    codes = encode(guesses.words)
    ans_row = np.array([guesses.index[a] for a in answers.words], dtype=np.int64)
    row_ans = np.full(len(guesses), -1, dtype=np.int64)
    row_ans[ans_row] = np.arange(len(answers))
    rng = np.random.default_rng(20220114)
    big = np.iinfo(np.int64)

    def rand(*shape):
        return rng.integers(big.min, big.max, size=shape, dtype=np.int64)

    weight = as_values(weights, answers)
    total = int(weight.sum())
    cost = objective.costs(max_guesses, total)  # the levels' factors use the total weight (see the module)
    if total * int(cost[max_guesses]) >= int(INF) // 4:
        raise ExactError(f"{weights.source if weights else 'weights'}: the total weight {total} is too large for "
                         f"objective {objective.name} (weight x cost must stay below 2^58)")
    unit = bool(np.all(weight == 1)) if weighted_path is None else not weighted_path
    FT = np.ascontiguousarray(F.T)
    counts = letter_counts(codes)
    ans_end, members, start, caps, letters = endgames(codes, ans_row, max_guesses)
    endgame_caps(FT, members, start, 3 ** L, caps)
    ctx = Context(feedback=F, answer_row=ans_row, row_answer=row_ans, cost=cost, hard=bool(hard), codes=codes,
                  counts=counts, zobrist_answer=rand(len(answers)),
                  zobrist_step=rand(max_guesses + 3), zobrist_green=rand(L, 27), zobrist_least=rand(26, L + 1),
                  sharp=bool(sharp), most_classes=most_patterns(F, 3 ** L), feedback_t=FT, endgame_of=ans_end,
                  endgame_caps=caps, endgame_members=members, endgame_start=start, endgame_letters=letters,
                  clues=clue_lists(codes, counts), weight=weight, unit=unit)
    return GuessesInstance(answers, guesses, F, hard, cost, ctx, weights)



class Branch(NamedTuple):
    """One class of a guess at a node: its pattern, its answers (columns) and the constraint below it."""

    pattern: int
    members: np.ndarray
    rule: Constraint


def constraint_after(inst: GuessesInstance, rule: Constraint, g: int, pattern: int) -> Constraint:
    if not inst.hard:
        return rule
    return Constraint(*add_feedback(rule.greens, rule.least, inst.ctx.codes[g], pattern))


def node_value(inst: GuessesInstance, memo, T: np.ndarray, t: int, rule: Constraint, beta: int = INF,
               greedy: bool = False, stats: np.ndarray | None = None) -> tuple[int, int]:
    """(cost(T, t), best guess row), or (a bound >= beta, -1)."""
    stats = np.zeros(2, dtype=np.int64) if stats is None else stats
    v, g = search_node(inst.ctx, memo, np.ascontiguousarray(T, dtype=np.int64), t, rule.greens, rule.least,
                 np.int64(beta), greedy, stats, np.int64(-1))
    return int(v), int(g)


def guess_value(inst: GuessesInstance, memo, T: np.ndarray, g: int, t: int, rule: Constraint, beta: int = INF,
                greedy: bool = False, stats: np.ndarray | None = None) -> int:
    """The cost of playing guess row g on T at step t (exact below beta, else a bound >= beta)."""
    stats = np.zeros(2, dtype=np.int64) if stats is None else stats
    v, _ = search_node(inst.ctx, memo, np.ascontiguousarray(T, dtype=np.int64), t, rule.greens, rule.least,
                 np.int64(beta), greedy, stats, np.int64(g))
    return int(v)


def subtree(inst: GuessesInstance, memo, T: np.ndarray, t: int, rule: Constraint, greedy: bool = False,
            guess: int | None = None) -> Tree:
    """The tree the search chose for (T, t) (solving any node the memo lacks; greedy: greedy picks)."""
    T = np.asarray(T, dtype=np.int64)
    if guess is None:
        value, guess = node_value(inst, memo, T, t, rule, greedy=greedy)
        if guess < 0:
            words = " ".join(inst.answers.words[a] for a in T[:8]) + (" ..." if len(T) > 8 else "")
            raise Infeasible(f"no strategy solves these {len(T)} answers ({words}) from guess {t} within "
                             f"{inst.max_guesses} guesses")
    children = {}
    for pattern, P in sorted(classes(inst.F, guess, T).items()):
        if pattern != inst.green:
            children[pattern] = subtree(inst, memo, P, t + 1, constraint_after(inst, rule, guess, pattern), greedy)
    return Tree(inst.guesses.words[guess], len(T), children)


# --- the solver -------------------------------------------------------------------------------

class _Worker(threading.local):
    memo = None


def solve_guesses(answers: WordList, guesses: WordList, *, objective: str | Objective = "guesses",
                  first: str | None = None, max_guesses: int = 6, hard: bool = False,
                  cutoff: int | None = None, after=(), workers: int | None = None,
                  progress: bool | None = None, F: np.ndarray | None = None,
                  sharp: bool = True, weights: Weights | None = None,
                  weighted_path: bool | None = None, report: Callable[[Bounds], None] | None = None) -> GuessesResult:
    """The best complete strategy for an objective (default: fewest total guesses), proven.

    ``first`` fixes the guess at the position (the first guess of the game when ``after`` is
    empty); without it every allowed guess is considered. ``cutoff``: only strategies whose value
    is at most ``cutoff`` are sought (Selby's -b; the search's ``beta`` is ``cutoff + 1``); when
    none exists the status is INFEASIBLE with a proven ``lower_bound`` > cutoff. ``after``: (guess,
    pattern) pairs already played. ``weights`` (:mod:`exact.weights`): answer a's term is weighted
    by w_a (the total becomes the weighted total; expected guesses = total / total weight).
    Ctrl-C (or SIGTERM) returns the best tree so far, completed greedily, with status FEASIBLE.
    ``report``: called with the :class:`Bounds` known as the search goes (:class:`Watch`), for a live page.
    """
    started = time.perf_counter()
    if isinstance(objective, str):
        objective = parse_objective(objective)
    max_guesses = check_guess_limit(max_guesses)  # bounded: exact.game.position.MAX_GUESSES
    if cutoff is not None and cutoff < 0:
        raise ExactError(f"cutoff must be at least 0, not {cutoff}")
    inst = make_guesses_instance(answers, guesses, objective, max_guesses, hard, F, sharp, weights, weighted_path)
    history = tuple(after)
    T, rule = position(answers, history, hard)
    t0 = len(history) + 1
    if t0 > max_guesses:
        raise ExactError(f"after: {len(history)} guesses played leave none of the {max_guesses} allowed")
    workers = workers or min(2, prog.cores())
    firsts, first_bounds = _first_guesses(inst, T, t0, rule, first)
    cutoff_beta = INF if cutoff is None else np.int64(cutoff) + 1
    stats = np.zeros(2, dtype=np.int64)
    watch = Watch(report, inst, T, t0, rule, first_bounds) if report is not None else None
    scan = _scan(inst, objective, T, t0, rule, firsts, first_bounds, cutoff_beta, workers, stats, progress, watch)
    best, interrupted = scan.best, scan.interrupted
    if best is None:
        status = "UNKNOWN" if interrupted else "INFEASIBLE"
        bound_all = int(cutoff_beta) if not interrupted and cutoff_beta < INF else None
        result = _result(inst, objective, status, None, None, bound_all, started, stats, history, cutoff,
                         interrupted, scan.top, T)
        result.first_fixed = first is not None
        return result
    status = "OPTIMAL" if (best.exact and not interrupted) else "FEASIBLE"
    if interrupted and best.exact and first is not None:
        status = "OPTIMAL"  # the fixed first guess was fully solved before the interruption: the run is complete
        interrupted = False
    result = _result(inst, objective, status, best.tree, best.cost, best.cost if status == "OPTIMAL" else None,
                     started, stats, history, cutoff, interrupted, scan.top, T)
    result.first_fixed = first is not None
    return result


def _first_guesses(inst: GuessesInstance, T: np.ndarray, t0: int, rule: Constraint,
                   first: str | None) -> tuple[np.ndarray, np.ndarray]:
    """(the guess rows to try at the position, their guess bounds): ``first`` alone (checked: in the
    list, and allowed in hard mode), else every candidate in bound order (one answer of T when T has
    at most two answers: naming one is optimal, the heaviest with weights: w_a + 2 w_b is least when
    w_a >= w_b; the first of T among equals)."""
    guesses = inst.guesses
    if first is not None:
        require_in_pool([first], guesses, "first")
        g = guesses.index[first]
        if inst.hard and not allows(rule.greens, rule.least, inst.ctx.codes[g], inst.ctx.counts[g]):
            raise ExactError(f"first: {first!r} breaks the hard-mode rule after the guesses played")
        return np.array([g], dtype=np.int64), np.zeros(1, dtype=np.int64)
    firsts, first_bounds, _ = candidates(inst.ctx, T, t0, rule.greens, rule.least, INF)
    if len(T) <= 2 or len(firsts) == 0:
        heaviest = T[int(np.argmax(inst.ctx.weight[T]))]
        return np.array([inst.ctx.answer_row[heaviest]], dtype=np.int64), np.zeros(1, dtype=np.int64)
    return firsts, first_bounds


class Incumbent(NamedTuple):
    """The best first guess so far: its cost, its guess row, its tree, and whether the cost is exact."""

    cost: int
    guess: int
    tree: Tree
    exact: bool


class Scan(NamedTuple):
    """The scan of the first guesses: the incumbent (None: none below beta), every first guess
    valued exactly with its cost (in the order found), and whether Ctrl-C stopped it."""

    best: Incumbent | None
    top: list[tuple[str, int]]
    interrupted: bool


class Bounds(NamedTuple):
    """What a search knows of the position's value (the objective's cost, the played guesses included) while
    it runs: the optimum is at least ``lower`` and at most ``upper``, the cost of a complete strategy opening
    with ``guess`` (None: none known yet). ``contenders``: the first guesses whose guess bound was below the
    first upper bound when the scan began, each searched or ruled out by it (what its time grows with)."""

    lower: int
    upper: int | None
    guess: str | None
    contenders: int = 0


@dataclass
class Watch:
    """The bounds of a running scan, told to ``report`` when they change. The optimum is the least cost of
    any first guess. A guess solved exactly costs what it costs (the incumbent: an upper bound); one rejected
    costs at least the beta it reached, the incumbent's cost or less; the guess being solved at least its
    guess bound and its classes' total so far (exact values where known, bounds elsewhere:
    :meth:`_Classes.total`); the guesses not yet tried at least the next guess bound (they are tried in
    bound order). So the least of these is a lower bound, and it only rises as the scan goes. Before the
    first guess is solved, the upper bound is a greedy strategy's cost (:func:`subtree` with greedy picks).
    (With a cutoff and no incumbent, a rejected guess costs at least the bound it returned: ``rejected``.)"""

    report: Callable[[Bounds], None]
    inst: GuessesInstance
    T: np.ndarray
    t0: int
    rule: Constraint
    first_bounds: np.ndarray
    upper: int | None = None
    guess: str | None = None
    rejected: int = int(INF)
    contenders: int = 0
    told: Bounds | None = None

    def __post_init__(self):
        greedy = subtree(self.inst, new_memo(), self.T, self.t0, self.rule, greedy=True)
        cost = tree_cost(self.inst, greedy, self.T, self.t0)
        if cost < INF:
            self.upper, self.guess = cost, greedy.guess
        self.contenders = int(np.count_nonzero(self.first_bounds < (self.upper if self.upper is not None else INF)))

    def found(self, cost: int, guess: int) -> None:
        """A first guess solved exactly at ``cost``, below the incumbent's."""
        if self.upper is None or cost <= self.upper:
            self.upper, self.guess = cost, self.inst.guesses.words[guess]

    def tell(self, *lowers: int) -> None:
        """Report the bounds, the lower one the least of ``lowers`` (and the upper one), when they changed."""
        lower = min(*lowers, self.rejected, self.upper if self.upper is not None else INF)
        now = Bounds(int(min(lower, INF)), self.upper, self.guess, self.contenders)
        if now != self.told:
            self.told = now
            self.report(now)


def _scan(inst: GuessesInstance, objective: Objective, T, t0: int, rule: Constraint, firsts, first_bounds,
          cutoff_beta, workers: int, stats, show, watch: Watch | None = None) -> Scan:
    """Each first guess in bound order, solved against beta = the least of ``cutoff_beta`` and the
    incumbent's cost; the scan stops at the first whose guess bound reaches beta (those left are in
    bound order: none is better). ``watch``: told the bounds as they change."""
    best: Incumbent | None = None
    top: list[tuple[str, int]] = []
    interrupted = False
    bar = prog.bar(total=len(firsts), desc=f"{objective.name}: first guesses", unit="guess",
                       disable=(not show) if show is not None else None) if len(firsts) > 1 else None
    try:
        for i, (g, bound) in enumerate(zip(firsts, first_bounds)):
            beta = cutoff_beta if best is None else min(cutoff_beta, best.cost)
            if bound >= beta:
                break  # the guess bound of every guess left is no better (they are in bound order)
            ahead = int(first_bounds[i + 1]) if i + 1 < len(firsts) else int(INF)
            tell = (lambda total, bound=int(bound), ahead=ahead: watch.tell(max(bound, total), ahead)) \
                if watch is not None else None
            v, tree, exact = _play(inst, T, int(g), t0, rule, int(beta), workers, stats, show and len(firsts) == 1,
                                   tell)
            if exact and v < beta:
                best = Incumbent(v, int(g), tree, True)
                top.append((inst.guesses.words[g], v))
                if watch is not None:
                    watch.found(v, int(g))
            elif watch is not None and exact is False:
                watch.rejected = min(watch.rejected, int(v))
            if watch is not None:
                watch.tell(ahead)
            if bar is not None:
                bar.update(1)
                if best is not None:
                    bar.set_postfix(best=best.cost, first=inst.guesses.words[best.guess])
            if exact is None:  # interrupted inside
                if tree is not None and (best is None or v < best.cost):
                    best = Incumbent(v, int(g), tree, False)
                interrupted = True
                break
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    if interrupted:
        prog.say("interrupted; reporting the best strategy found so far")
    return Scan(best, top, interrupted)


@dataclass
class _Classes:
    """The classes of one guess being solved: their branches, the cost of the green class (0 when
    the guess is no answer), a lower bound of each, the exact values and trees found so far, and
    whether a class reached its beta (the guess then reaches its own)."""

    parts: list[Branch]
    green_cost: int
    lower: list[int]
    exact: dict[int, int] = field(default_factory=dict)
    trees: dict[int, Tree] = field(default_factory=dict)
    failed: bool = False

    def total(self, skip: int | None = None) -> int:
        """The guess's cost so far: exact values where known, bounds elsewhere (without class ``skip``)."""
        s = self.green_cost
        for i in range(len(self.parts)):
            if i != skip:
                s += self.exact.get(i, self.lower[i])
        return min(s, int(INF))


def _play(inst: GuessesInstance, T, g: int, t: int, rule: Constraint, beta: int, workers: int, stats, show,
          tell: Callable[[int], None] | None = None):
    """Solve guess g at the position: (cost, tree, exact) with exact True (cost exact, < beta),
    False (cost >= beta, a bound; no tree) or None (interrupted: tree completed greedily). ``tell``: told
    the guess's lower bound as its classes are solved."""
    split = largest_first(classes(inst.F, g, T))
    green_cost = int(inst.cost[t]) * int(inst.ctx.weight[inst.ctx.row_answer[g]]) \
        if any(p == inst.green for p, _ in split) else 0
    parts = [Branch(p, P, constraint_after(inst, rule, g, p)) for p, P in split if p != inst.green]
    lower = [int(node_bound(inst.ctx, new_memo(), b.members, t + 1, b.rule.greens, b.rule.least)) for b in parts]
    cs = _Classes(parts, green_cost, lower)
    if cs.total() >= beta or (beta < INF and _look_ahead(inst, cs, t, beta)):
        return cs.total(), None, False
    if tell is not None:
        tell(cs.total())
    if _solve_classes(inst, cs, t, beta, workers, stats, show, tell):
        return _complete_greedily(inst, cs, T, g, t)
    if cs.failed or cs.total() >= beta:
        return max(cs.total(), beta), None, False
    tree = Tree(inst.guesses.words[g], len(T), dict(sorted((b.pattern, cs.trees[i]) for i, b in enumerate(parts))))
    return cs.total(), tree, True


def _look_ahead(inst: GuessesInstance, cs: _Classes, t: int, beta: int) -> bool:
    """Raise each class's bound to its look-ahead bound, largest first, against the beta it has left;
    True as soon as the guess's total reaches ``beta``."""
    look = new_memo()
    parts, lower = cs.parts, cs.lower
    for i in sorted(range(len(parts)), key=lambda i: -len(parts[i].members)):
        P, r = parts[i].members, parts[i].rule
        if len(P) < 3:
            break
        class_beta = beta - (cs.total() - lower[i])
        lower[i] = max(lower[i], int(lookahead(inst.ctx, look, P, t + 1, r.greens, r.least, np.int64(class_beta))))
        if cs.total() >= beta:
            return True
    return False


def _solve_class(inst: GuessesInstance, cs: _Classes, i: int, t: int, beta: int, lock, local, stats) -> None:
    """Class i solved exactly against the beta it has left (``beta`` less the other classes' total),
    in this thread's memo; a class that reaches its beta marks the guess failed."""
    if cs.failed:
        return
    p, P, r = cs.parts[i]
    if local.memo is None:
        local.memo = new_memo()
    with lock:
        class_beta = beta - cs.total(skip=i) if beta < INF else INF
    st = np.zeros(2, dtype=np.int64)
    v, guess = node_value(inst, local.memo, P, t + 1, r, class_beta, stats=st)
    tree = subtree(inst, local.memo, P, t + 1, r, guess=guess) if v < class_beta and guess >= 0 else None
    with lock:
        stats[:] += st
        if v >= class_beta:
            cs.failed = True
            cs.exact[i] = max(v, cs.lower[i])
        else:
            cs.exact[i] = v
            cs.trees[i] = tree
    if memo_size(local.memo) > 5_000_000:
        local.memo = new_memo()


def _solve_classes(inst: GuessesInstance, cs: _Classes, t: int, beta: int, workers: int, stats, show,
                   tell: Callable[[int], None] | None = None) -> bool:
    """Every class of the guess, smallest first, on ``workers`` threads (each with its own memo),
    until one fails; True when Ctrl-C stopped it (the classes in progress are finished). ``tell``: told the
    guess's total so far (a lower bound) as classes end."""
    parts = cs.parts
    lock, local = threading.Lock(), _Worker()
    bar = prog.bar(total=len(parts), desc="classes", unit="class",
                       disable=(not show) if show is not None else None) if show is not False else None
    pool = cf.ThreadPoolExecutor(max_workers=workers)
    futures = [pool.submit(_solve_class, inst, cs, i, t, beta, lock, local, stats)
               for i in sorted(range(len(parts)), key=lambda i: (len(parts[i].members), i))]
    interrupted = False
    try:
        pending = set(futures)
        while pending:
            done, pending = cf.wait(pending, timeout=0.2, return_when=cf.FIRST_COMPLETED)
            for f in done:
                f.result()
                if bar is not None:
                    bar.update(1)
            if done and tell is not None:
                with lock:
                    tell(cs.total())
            if cs.failed:
                for f in pending:
                    f.cancel()
                cf.wait(pending)
                break
    except KeyboardInterrupt:
        interrupted = True
        cs.failed = True
        for f in futures:
            f.cancel()
        prog.say("interrupted; finishing the classes in progress")
        cf.wait(futures)
    finally:
        pool.shutdown(wait=True)
        if bar is not None:
            bar.close()
    return interrupted


def _complete_greedily(inst: GuessesInstance, cs: _Classes, T, g: int, t: int):
    """After Ctrl-C: the classes not solved get greedy subtrees; (their total, the tree, None)."""
    memo = new_memo()
    for i, (p, P, r) in enumerate(cs.parts):
        if i not in cs.trees:
            cs.trees[i] = subtree(inst, memo, P, t + 1, r, greedy=True)
            cs.exact[i] = tree_cost(inst, cs.trees[i], P, t + 1)
    tree = Tree(inst.guesses.words[g], len(T), {cs.parts[i].pattern: cs.trees[i]
                                                for i in sorted(cs.trees, key=lambda i: cs.parts[i].pattern)})
    return cs.total(), tree, None


def tree_cost(inst: GuessesInstance, tree: Tree, T: np.ndarray, t: int) -> int:
    """The weighted cost of a tree for the answers T starting at step t (INF when one is unsolved)."""
    total = 0
    for a in T:
        word = inst.answers.words[a]
        node, step = tree, t
        while node is not None and node.guess != word:
            node, step = node.children.get(feedback(node.guess, word)), step + 1
        total += int(inst.cost[min(step, len(inst.cost) - 1)]) * int(inst.ctx.weight[a]) if node is not None \
            else int(INF)
    return min(total, int(INF))


def _result(inst, objective, status, tree, cost_value, lower, started, stats, history, cutoff,
            interrupted, top, T) -> GuessesResult:
    answers = inst.answers
    wins_at: tuple[int, ...] = ()
    total = None
    if tree is not None:
        played = replay_position(tree, answers, inst.guesses, history, inst.max_guesses, inst.hard)
        if not played.valid or played.lost:
            raise InternalError(f"the tree does not replay ({len(played.invalid)} invalid nodes, "
                                f"{len(played.lost)} answers unsolved)")
        wins_at = weighted_wins(inst, tree, T, len(history) + 1, len(played.wins_at)) if inst.weights \
            else played.wins_at
        total = sum((k + 1) * w for k, w in enumerate(wins_at))
        if sum(wins_at) != int(inst.ctx.weight[T].sum()):
            raise InternalError(f"the tree solves weight {sum(wins_at)} of {int(inst.ctx.weight[T].sum())}")
        if tree_cost(inst, tree, T, len(history) + 1) != cost_value:
            raise InternalError("the tree's replayed cost differs from the search's value")
    return GuessesResult(
        status=status, objective=objective.name, n=len(T), max_guesses=inst.max_guesses, hard=inst.hard,
        first=tree.guess if tree is not None else None, tree=tree, total=total, wins_at=wins_at,
        cost=cost_value, lower_bound=lower, seconds=time.perf_counter() - started, cores=prog.cores(),
        nodes=int(stats[0]), searched=int(stats[1]), answers=answers, guesses=inst.guesses,
        after=history, cutoff=cutoff, interrupted=interrupted, top=top,
        weights=inst.weights.record() if inst.weights else None, weight=int(inst.ctx.weight[T].sum()))


def weighted_wins(inst: GuessesInstance, tree: Tree, T: np.ndarray, t: int, depth: int) -> tuple[int, ...]:
    """The weight the tree (already replayed: every answer of T solved) solves with exactly 1, 2, ...,
    ``depth`` guesses, the tree starting at step t."""
    out = [0] * depth
    for a in T:
        word = inst.answers.words[a]
        node, step = tree, t
        while node.guess != word:
            node, step = node.children[feedback(node.guess, word)], step + 1
        out[step - 1] += int(inst.ctx.weight[a])
    return tuple(out)
