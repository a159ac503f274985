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
argument is in :mod:`exact.wordle.fewest.kernels`, beside the kernels that use it.

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
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from exact import progress as prog
from exact.errors import ExactError, InternalError
from exact.feedback import all_green, encode, feedback
from exact.partitions import classes, feedback_matrix, largest_first
from exact.game.hard import Constraint, add_feedback, allows, letter_counts
from exact.game.position import check_guess_limit, position
from exact.game.tree import Tree, replay_position
from exact.wordle.fewest.endgame import endgame_caps, endgames
from exact.wordle.fewest.kernels import candidates, lookahead, most_patterns, node_bound, search_node
from exact.wordle.fewest.context import Context
from exact.wordle.fewest.memo import INF, memo_size, new_memo
from exact.wordle.fewest.objective import Objective, parse_objective
from exact.wordle.fewest.result import GuessesResult
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

    @property
    def green(self) -> int:
        return all_green(self.answers.length)

    @property
    def max_guesses(self) -> int:
        return len(self.cost) - 3


def make_guesses_instance(answers: WordList, guesses: WordList, objective: Objective, max_guesses: int,
                          hard: bool = False, F: np.ndarray | None = None,
                          sharp: bool = True) -> GuessesInstance:
    """The arrays the kernels read. ``sharp`` False switches off the sharper class bound of
    ``quick`` (a baseline for the benchmark: the node bound only)."""
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

    cost = objective.costs(max_guesses, len(answers))
    FT = np.ascontiguousarray(F.T)
    ans_end, members, start, caps, letters = endgames(codes, ans_row, max_guesses)
    endgame_caps(FT, members, start, 3 ** L, caps)
    ctx = Context(feedback=F, answer_row=ans_row, row_answer=row_ans, cost=cost, hard=bool(hard), codes=codes,
                  counts=letter_counts(codes), zobrist_answer=rand(len(answers)),
                  zobrist_step=rand(max_guesses + 3), zobrist_green=rand(L, 27), zobrist_least=rand(26, L + 1),
                  sharp=bool(sharp), most_classes=most_patterns(F, 3 ** L), feedback_t=FT, endgame_of=ans_end,
                  endgame_caps=caps, endgame_members=members, endgame_start=start, endgame_letters=letters)
    return GuessesInstance(answers, guesses, F, hard, cost, ctx)



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
                  sharp: bool = True) -> GuessesResult:
    """The best complete strategy for an objective (default: fewest total guesses), proven.

    ``first`` fixes the guess at the position (the first guess of the game when ``after`` is
    empty); without it every allowed guess is considered. ``cutoff``: only strategies whose value
    is at most ``cutoff`` are sought (Selby's -b); when none exists the status is INFEASIBLE with a
    proven ``lower_bound`` > cutoff. ``after``: (guess, pattern) pairs already played. Ctrl-C (or
    SIGTERM) returns the best tree so far, completed greedily, with status FEASIBLE.
    """
    started = time.perf_counter()
    if isinstance(objective, str):
        objective = parse_objective(objective)
    max_guesses = check_guess_limit(max_guesses)  # bounded: exact.game.position.MAX_GUESSES
    if cutoff is not None and cutoff < 0:
        raise ExactError(f"cutoff must be at least 0, not {cutoff}")
    show = progress
    inst = make_guesses_instance(answers, guesses, objective, max_guesses, hard, F, sharp)
    history = tuple(after)
    T, rule = position(answers, history, hard)
    t0 = len(history) + 1
    if t0 > max_guesses:
        raise ExactError(f"after: {len(history)} guesses played leave none of the {max_guesses} allowed")
    workers = workers or min(2, prog.cores())
    if first is not None:
        require_in_pool([first], guesses, "first")
        g = guesses.index[first]
        if hard and not allows(rule.greens, rule.least, inst.ctx.codes[g], inst.ctx.counts[g]):
            raise ExactError(f"first: {first!r} breaks the hard-mode rule after the guesses played")
        firsts = np.array([g], dtype=np.int64)
        first_bounds = np.zeros(1, dtype=np.int64)
    else:
        firsts, first_bounds, _ = candidates(inst.ctx, T, t0, rule.greens, rule.least, INF)
        if len(T) <= 2 or len(firsts) == 0:
            firsts = np.array([inst.ctx.answer_row[T[0]]], dtype=np.int64)
            first_bounds = np.zeros(1, dtype=np.int64)
    limit = INF if cutoff is None else np.int64(cutoff) + 1
    stats = np.zeros(2, dtype=np.int64)
    best: Incumbent | None = None
    top: list[tuple[str, int]] = []
    bound_all = None
    interrupted = False
    bar = prog.bar(total=len(firsts), desc=f"{objective.name}: first guesses", unit="guess",
                       disable=(not show) if show is not None else None) if len(firsts) > 1 else None
    try:
        for g, bound in zip(firsts, first_bounds):
            thr = limit if best is None else min(limit, best.cost)
            if bound >= thr:
                break  # the guess bound of every guess left is no better (they are in bound order)
            outcome = _play(inst, T, int(g), t0, rule, int(thr), workers, stats, show and len(firsts) == 1)
            v, tree, exact = outcome
            if exact and v < thr:
                best = Incumbent(v, int(g), tree, True)
                top.append((guesses.words[g], v))
            if bar is not None:
                bar.update(1)
                if best is not None:
                    bar.set_postfix(best=best.cost, first=guesses.words[best.guess])
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
    if best is None:
        status = "UNKNOWN" if interrupted else "INFEASIBLE"
        if not interrupted:
            bound_all = int(limit) if limit < INF else None
        result = _result(inst, objective, status, None, None, bound_all, started, stats, history, cutoff,
                         interrupted, top, T)
        result.first_fixed = first is not None
        return result
    cost_value, g, tree, exact = best
    status = "OPTIMAL" if (exact and not interrupted) else "FEASIBLE"
    if interrupted and exact and first is not None:
        status = "OPTIMAL"  # the fixed first guess was fully solved before the interruption: the run is complete
        interrupted = False
    result = _result(inst, objective, status, tree, cost_value, cost_value if status == "OPTIMAL" else None,
                     started, stats, history, cutoff, interrupted, top, T)
    result.first_fixed = first is not None
    return result


class Incumbent(NamedTuple):
    """The best first guess so far: its cost, its guess row, its tree, and whether the cost is exact."""

    cost: int
    guess: int
    tree: Tree
    exact: bool


def _play(inst: GuessesInstance, T, g: int, t: int, rule: Constraint, thr: int, workers: int, stats, show):
    """Solve guess g at the position: (cost, tree, exact) with exact True (cost exact, < thr),
    False (cost >= thr, a bound; no tree) or None (interrupted: tree completed greedily)."""
    split = largest_first(classes(inst.F, g, T))
    green_cost = int(inst.cost[t]) if any(p == inst.green for p, _ in split) else 0
    parts = [Branch(p, P, constraint_after(inst, rule, g, p)) for p, P in split if p != inst.green]
    lower = [int(node_bound(inst.ctx, new_memo(), b.members, t + 1, b.rule.greens, b.rule.least)) for b in parts]
    exact_vals: dict[int, int] = {}
    trees: dict[int, Tree] = {}
    lock = threading.Lock()
    local = _Worker()
    failed = [False]

    def total_now(skip: int | None = None) -> int:
        s = green_cost
        for i in range(len(parts)):
            if i != skip:
                s += exact_vals.get(i, lower[i])
        return min(s, int(INF))

    if total_now() >= thr:
        return total_now(), None, False
    if thr < INF:  # the look-ahead bound of each class, largest first, against the threshold left
        look = new_memo()
        for i in sorted(range(len(parts)), key=lambda i: -len(parts[i].members)):
            P, r = parts[i].members, parts[i].rule
            if len(P) < 3:
                break
            beta = thr - (total_now() - lower[i])
            lower[i] = max(lower[i], int(lookahead(inst.ctx, look, P, t + 1, r.greens, r.least, np.int64(beta))))
            if total_now() >= thr:
                return total_now(), None, False

    def task(i: int):
        if failed[0]:
            return
        p, P, r = parts[i]
        if local.memo is None:
            local.memo = new_memo()
        with lock:
            beta = thr - total_now(skip=i) if thr < INF else INF
        st = np.zeros(2, dtype=np.int64)
        v, guess = node_value(inst, local.memo, P, t + 1, r, beta, stats=st)
        tree = subtree(inst, local.memo, P, t + 1, r, guess=guess) if v < beta and guess >= 0 else None
        with lock:
            stats[:] += st
            if v >= beta:
                failed[0] = True
                exact_vals[i] = max(v, lower[i])
            else:
                exact_vals[i] = v
                trees[i] = tree
        if memo_size(local.memo) > 5_000_000:
            local.memo = new_memo()

    bar = prog.bar(total=len(parts), desc="classes", unit="class",
                       disable=(not show) if show is not None else None) if show is not False else None
    pool = cf.ThreadPoolExecutor(max_workers=workers)
    futures = [pool.submit(task, i) for i in sorted(range(len(parts)), key=lambda i: (len(parts[i].members), i))]
    interrupted = False
    try:
        pending = set(futures)
        while pending:
            done, pending = cf.wait(pending, timeout=0.2, return_when=cf.FIRST_COMPLETED)
            for f in done:
                f.result()
                if bar is not None:
                    bar.update(1)
            if failed[0]:
                for f in pending:
                    f.cancel()
                cf.wait(pending)
                break
    except KeyboardInterrupt:
        interrupted = True
        failed[0] = True
        for f in futures:
            f.cancel()
        prog.say("interrupted; finishing the classes in progress")
        cf.wait(futures)
    finally:
        pool.shutdown(wait=True)
        if bar is not None:
            bar.close()
    if interrupted:
        memo = new_memo()
        for i, (p, P, r) in enumerate(parts):
            if i not in trees:
                trees[i] = subtree(inst, memo, P, t + 1, r, greedy=True)
                exact_vals[i] = tree_cost(inst, trees[i], P, t + 1)
        tree = Tree(inst.guesses.words[g], len(T), {parts[i].pattern: trees[i]
                                                    for i in sorted(trees, key=lambda i: parts[i].pattern)})
        return total_now(), tree, None
    if failed[0] or total_now() >= thr:
        return max(total_now(), thr), None, False
    tree = Tree(inst.guesses.words[g], len(T), dict(sorted((b.pattern, trees[i]) for i, b in enumerate(parts))))
    return total_now(), tree, True


def tree_cost(inst: GuessesInstance, tree: Tree, T: np.ndarray, t: int) -> int:
    """The weighted cost of a tree for the answers T starting at step t (INF when one is unsolved)."""
    total = 0
    for a in T:
        word = inst.answers.words[a]
        node, step = tree, t
        while node is not None and node.guess != word:
            node, step = node.children.get(feedback(node.guess, word)), step + 1
        total += int(inst.cost[min(step, len(inst.cost) - 1)]) if node is not None else int(INF)
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
        wins_at = played.wins_at
        total = sum((k + 1) * w for k, w in enumerate(wins_at))
        if sum(wins_at) != len(T):
            raise InternalError(f"the tree solves {sum(wins_at)} of {len(T)} answers")
        if tree_cost(inst, tree, T, len(history) + 1) != cost_value:
            raise InternalError("the tree's replayed cost differs from the search's value")
    return GuessesResult(
        status=status, objective=objective.name, n=len(T), max_guesses=inst.max_guesses, hard=inst.hard,
        first=tree.guess if tree is not None else None, tree=tree, total=total, wins_at=wins_at,
        cost=cost_value, lower_bound=lower, seconds=time.perf_counter() - started, cores=prog.cores(),
        nodes=int(stats[0]), searched=int(stats[1]), answers=answers, guesses=inst.guesses,
        after=history, cutoff=cutoff, interrupted=interrupted, top=top)
