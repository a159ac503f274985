"""Playing a strategy along with a person: the logic behind ``exact wordle play``.

Data types, stated once:

- a :class:`Position` is the game so far: the answer list the strategy covers, the history
  ``((guess, pattern), ...)`` and the *candidates*, the answers consistent with every feedback seen;
- a *strategy* (:class:`Strategy`) gives, for a position, its *plan*: a :class:`~exact.game.tree.Tree`
  whose root is the next guess and whose children say what to play after each feedback, or None when
  it has no guess there (a tree file that stops at its depth, or guesses beyond a live solver's depth);
- where the strategy has no plan, the *rescue* strategies are asked in turn (``exact wordle play``
  gives a fewest-guesses tree the opener book, then the live exact search, and a depth-k tree the live
  exact DP, for a player who left the tree by playing another word); then the *fallback*
  (:class:`FewestGuesses`) plays on: the fewest total guesses, guessing remaining candidates (and, given
  the allowed guesses, a few probe words);
- feedback that fits no candidate answer but fits allowed words (the list is a dated snapshot) takes the
  game on over every allowed word consistent with it, played by the fallback (:meth:`Game.go_beyond`);
- a live solve over more than :data:`THINKING_MIN` candidates first says on stderr that it is thinking,
  with a rough estimate of its time (:func:`expected_seconds`);
- a *complete plan* is the strategy's plan with every branch it lacks filled by the fallback, so every
  candidate is solved; the :class:`Advice` at a position reports, under the complete plan, how many
  candidates are won within the depth (guesses that count as a win) and the expected number of guesses
  still to play, each candidate equally likely;
- with *weights* (a prior, :mod:`exact.weights`) each candidate a counts w_a instead of 1: the live solvers
  maximise the weight won (or minimise the weighted total), the fallback minimises the weighted total,
  and the advice's chances are weight won / weight left and the weighted mean of the guesses to play
  (the probability of an answer is its weight over the weight left). Unit weights are no weights.

Tiny example: three answers, a tree that stops after one guess (the fallback plays on).

>>> from exact.words import words_from_lines
>>> A = words_from_lines(["caber", "cabin", "cable"])
>>> game = Game(TreeStrategy(Tree("cabin", 3, {}), "demo tree", depth=2), A)
>>> a = game.advice()
>>> a.guess, a.wins, len(a.candidates), round(a.expected, 3)
('cabin', 2, 3, 2.0)
>>> game.give(feedback("cabin", "cable")).candidates
('caber', 'cable')
>>> game.advice().source
'fallback: fewest guesses, guessing only candidates'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

import numpy as np

from exact.errors import ExactError, InternalError
from exact.feedback import all_green, compute_feedback_matrix, feedback, format_pattern
from exact.game.hard import constraint, is_allowed, no_constraint
from exact.game.position import Position, after, start, word_classes
from exact.game.tree import Tree, tree_depth
from exact.partitions import feedback_matrix
from exact.progress import say
from exact.weights import Weights, weights_sha256
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.wins.dp import Search, make_wins_instance
from exact.wordle.wins.trees import best_guess, node_tree
from exact.words import WordList, describe_lists, list_date, list_name, lists_record

History = tuple[tuple[str, int], ...]

#: Above this many candidates the fallback only tries the guesses that make the most classes.
FALLBACK_EXACT_MAX = 150
FALLBACK_WIDTH = 25
#: The fallback also tries this many probe words (allowed guesses outside the candidates) at nodes
#: with at most PROBE_MAX candidates.
PROBES = 10
PROBE_MAX = 40


# --- strategies ---------------------------------------------------------------------------------


class Strategy(Protocol):
    """What ``play`` needs from a strategy: a name to show, its depth, and its plan at a position.

    A new objective (another solver) plugs in by implementing this and registering a factory in
    :data:`OBJECTIVES`.
    """

    name: str
    depth: int  # guesses that count as a win

    def plan(self, position: Position) -> Tree | None: ...


@dataclass
class TreeStrategy:
    """A strategy read from a tree (any format :mod:`exact.game.formats` reads)."""

    tree: Tree
    name: str
    depth: int = 0  # 0: the tree's own depth

    def __post_init__(self):
        if self.depth <= 0:
            self.depth = tree_depth(self.tree)

    def plan(self, position: Position) -> Tree | None:
        node = self.tree
        for guess, pattern in position.history:
            if node.guess != guess:
                return None
            node = node.children.get(pattern)
            if node is None:
                return None
        return node


@dataclass
class LiveWins:
    """The exact DP of :mod:`exact.wordle.wins.dp`, live: at each position the tree that wins the most
    candidates within the guesses left (its tie-break), or None once no guess is left."""

    answers: WordList
    guesses: WordList
    depth: int = 3
    hard: bool = False
    first: str | None = None  # a fixed first guess (the DP then only solves the positions after it)
    name: str = ""
    weights: Weights | None = None  # the most weight won (the weighted kernels of exact.wordle.wins.weighted)
    _search: object = field(default=None, repr=False)

    def __post_init__(self):
        if not self.name:
            mode = ", hard mode" if self.hard else ""
            self.name = f"exact DP, live: most wins within {self.depth} guesses{mode}{weighed(self.weights)}"

    def search(self):
        if self._search is None:
            self._search = Search(make_wins_instance(self.answers, self.guesses, self.hard, weights=self.weights))
        return self._search

    def plan(self, position: Position) -> Tree | None:
        k = self.depth - position.played
        if k < 1 or not position.candidates:
            return None
        search = self.search()
        index = self.answers.index
        T = np.array(sorted(index[a] for a in position.candidates), dtype=np.int64)
        length = self.answers.length
        rule = constraint(position.history, length) if self.hard else no_constraint(length)
        if position.played == 0 and self.first is not None:
            g = self.guesses.index[self.first]
        else:
            say_thinking(len(position.candidates), f"the exact DP for the most wins within {k}")
            g = best_guess(search, T, k, rule)
        return node_tree(search, T, k, rule, g)


@dataclass
class LiveGuesses:
    """The exact fewest-guesses search of :mod:`exact.wordle.fewest.search`, live: at each position the
    complete tree with the fewest total guesses over the candidates, every one solved within
    ``max_guesses`` guesses of the game (proven there), or None where none exists."""

    answers: WordList
    guesses: WordList
    max_guesses: int = 6
    hard: bool = False
    first: str | None = None
    name: str = ""
    weights: Weights | None = None  # the least weighted total (expected guesses under the prior)
    _F: object = field(default=None, repr=False)

    def __post_init__(self):
        if not self.name:
            mode = ", hard mode" if self.hard else ""
            self.name = f"exact fewest guesses, live: every answer within {self.max_guesses}{mode}{weighed(self.weights)}"

    @property
    def depth(self) -> int:
        return self.max_guesses

    def plan(self, position: Position) -> Tree | None:
        if not position.candidates or position.played >= self.max_guesses:
            return None
        if self._F is None:
            self._F = feedback_matrix(self.guesses, self.answers)
        first = self.first if position.played == 0 else None
        cands = position.candidates
        largest = max(map(len, word_classes(first, cands).values())) if first is not None else len(cands)
        say_thinking(len(cands), "the exact fewest-guesses solve", largest)
        try:
            result = solve_guesses(self.answers, self.guesses, first=first, max_guesses=self.max_guesses,
                                   hard=self.hard, after=position.history, progress=False, F=self._F,
                                   weights=self.weights)
        except ExactError:
            return None
        return result.tree


#: A live solve over more candidates than this first says, on stderr, that it is thinking and for how long.
THINKING_MIN = 100
#: The measured anchor of :func:`expected_seconds`: the fewest-guesses solve after crane bbbbb on nyt2023
#: (358 answers left) took 35 s on 2 cores (issue 31).
ANCHOR_ANSWERS, ANCHOR_SECONDS = 358, 35.0


def expected_seconds(n: int) -> float:
    """A rough estimate of a live fewest-guesses solve over n answers, on 2 cores, from their number only:
    35 s x (n / 358)^3. The cube fits the anchors within a factor of a few: 216 answers left after adieu
    took 18 s (the estimate says 8), the whole game after fuzzy (1842 answers left in its largest class)
    over an hour (the estimate: 80 minutes). It is an estimate, said as one, never a bound."""
    return ANCHOR_SECONDS * (n / ANCHOR_ANSWERS) ** 3


def say_thinking(n: int, what: str, largest: int | None = None) -> None:
    """One line on stderr before a live solve over more than :data:`THINKING_MIN` candidates; with
    ``largest`` (the largest class the solve must prove, for a fixed guess), the estimate of
    :func:`expected_seconds` for it, else none (the DP's time is not estimated)."""
    if n <= THINKING_MIN:
        return
    if largest is None:
        say(f"thinking: {what} over the {n} answers left")
        return
    t = expected_seconds(largest)
    when = (f"about {t:.0f} s" if t < 90 else f"about {t / 60:.0f} min" if t < 5400 else f"about {t / 3600:.1f} h")
    say(f"thinking: {what} over the {n} answers left ({when} on 2 cores, a rough estimate from the "
        f"{largest} answers of the largest class to prove)")


def weighed(weights: Weights | None) -> str:
    """What a strategy's name adds for weights: nothing for none or unit weights, else their source."""
    return "" if weights is None or weights.unit else f", weighted by {weights.source}"


def weight_map(weights: Weights | None, answers: WordList) -> dict[str, int] | None:
    """word -> weight of the answers (None for no or unit weights: every candidate counts 1)."""
    if weights is None or weights.unit:
        return None
    return {w: int(v) for w, v in zip(answers.words, weights.values)}


def restrict_weights(weights: Weights | None, answers: WordList, part: WordList) -> Weights | None:
    """The weights of the answers ``part`` (some of ``answers``, the list ``weights`` was read for, e.g.
    what ``--exclude`` leaves), in its order; None stays None."""
    if weights is None or part is answers:
        return weights
    full = dict(zip(answers.words, weights.values.tolist()))
    values = np.array([full[w] for w in part.words], dtype=np.int64)
    return Weights(values, weights.source, weights_sha256(part, values))


#: --objective name -> factory(answers, guesses, depth, hard, first, weights) returning a Strategy.
OBJECTIVES = {
    "wins": lambda answers, guesses, depth, hard, first, weights=None:
        LiveWins(answers, guesses, depth, hard, first, weights=weights),
    "guesses": lambda answers, guesses, depth, hard, first, weights=None:
        LiveGuesses(answers, guesses, depth, hard, first, weights=weights),
}


class Choice(NamedTuple):
    """The fallback's answer at a node: its cost (total guesses) and the guess that attains it."""

    cost: int
    guess: int


class FewestGuesses:
    """The fallback: the fewest total guesses to solve every candidate, guessing candidates and, when
    ``guesses`` is given, a few *probe* words that split the candidates better.

    cost(T) = min over the guesses g tried at T of |T| + sum over the non-green classes P of g on T of
    cost(P), with cost({a}) = 1 (a guess outside T has no green class). Guesses tried at T: every
    candidate, plus (with ``guesses``, for 3 <= |T| <= :data:`PROBE_MAX`) the :data:`PROBES` allowed
    words outside T that make the most classes on T. Exact over that choice of guesses.

    Branch and bound: every answer needs a guess, and every answer but the one guessed needs at
    least two, so cost(P) >= 2|P| - 1 and a guess making c classes on T costs at least 3|T| - 1 - c
    (a candidate) or 3|T| - c (a probe). Guesses are tried by that bound (then candidates before
    probes, then list order: the tie-break), and a guess is dropped once its classes so far plus the
    bounds of the rest reach the best found. Above :data:`FALLBACK_EXACT_MAX` candidates only the
    :data:`FALLBACK_WIDTH` candidates with the most classes are tried at that node.

    With ``weights`` (word -> positive integer, a prior) answer a's guesses count w_a times: cost(T) =
    W(T) + sum over the non-green classes of cost(P), cost({a}) = w_a (W: the total weight). The bounds,
    re-argued: at most one answer of P (weighing at most max_P w, the heaviest) is solved by P's first
    guess, every other needs two, so cost(P) >= 2 W(P) - max_P w. A candidate g making c classes on T
    leaves c - 1 non-green classes partitioning T - {g}; their heaviest answers are distinct answers of
    T, so they weigh at most top_{c-1}(T), the c - 1 heaviest weights of T, and g costs at least
    W(T) + 2 (W(T) - w_g) - top_{c-1}(T); a probe (no green class) at least 3 W(T) - top_c(T). Unit
    weights give the bounds above exactly (top_c = c), so the same guesses in the same order.

    >>> f = FewestGuesses(("caber", "cabin", "cable"))
    >>> f.tree(("caber", "cabin", "cable")).guess, f.cost(("caber", "cabin", "cable")), f.cost(("cabin", "cable"))
    ('caber', 5, 3)
    """

    def __init__(self, words: Sequence[str] | None = None, guesses: Sequence[str] | None = None,
                 weights: dict[str, int] | None = None):
        self._words = tuple(words) if words is not None else None
        self._guesses = tuple(guesses) if guesses is not None else None
        self._weights = weights
        self._F = None
        self._memo: dict[bytes, Choice] = {}
        self.name = ("fallback: fewest guesses, guessing candidates and probe words" if guesses is not None
                     else "fallback: fewest guesses, guessing only candidates")

    def _indices(self, T: Sequence[str]) -> np.ndarray:
        if self._words is None:
            self._words = tuple(T)
        if self._F is None:
            self._index = {w: i for i, w in enumerate(self._words)}
            self._F = compute_feedback_matrix(self._words, self._words)
            self._G = None if self._guesses is None else compute_feedback_matrix(self._guesses, self._words)
            self._green = all_green(len(self._words[0]))
            self._w = np.array([self._weights[w] if self._weights else 1 for w in self._words], dtype=np.int64)
        try:
            return np.array(sorted(self._index[w] for w in T), dtype=np.int64)
        except KeyError as e:
            raise ExactError(f"{e.args[0]!r} is not one of the fallback's {len(self._words)} words") from None

    def _row(self, g: int, T: np.ndarray) -> np.ndarray:
        """The feedback of guess g (a candidate's index >= 0, or -1 - a probe's row) on T."""
        return self._F[g, T] if g >= 0 else self._G[-1 - g, T]

    def _word(self, g: int) -> str:
        return self._words[g] if g >= 0 else self._guesses[-1 - g]

    def _split(self, g: int, T: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """[(pattern, class)] of guess g on T (classes in list order)."""
        row = self._row(g, T)
        perm = np.argsort(row, kind="stable")
        pats = row[perm]
        starts = np.flatnonzero(np.r_[True, pats[1:] != pats[:-1]])
        return [(int(pats[a]), P) for a, P in zip(starts, np.split(T[perm], starts[1:]))]

    def _low(self, P: np.ndarray) -> int:
        """The lower bound 2 W(P) - max_P w on cost(P) (the class docstring; 2|P| - 1 unweighted)."""
        w = self._w[P]
        return 2 * int(w.sum()) - int(w.max())

    def _options(self, T: np.ndarray) -> list[tuple[int, int, int]]:
        """(bound, order, guess) of the guesses tried at T, best bound first (the class docstring)."""
        n = len(T)
        wT = self._w[T]
        W = int(wT.sum())
        top = np.concatenate([[0], np.cumsum(np.sort(wT)[::-1])])  # top[c]: the c heaviest weights of T
        counts = 1 + np.count_nonzero(np.diff(np.sort(self._F[np.ix_(T, T)], axis=1), axis=1), axis=1)
        options = [(3 * W - 2 * int(wT[i]) - int(top[c - 1]), i, int(g)) for i, (g, c) in enumerate(zip(T, counts))]
        options.sort()
        if n > FALLBACK_EXACT_MAX:
            options = options[:FALLBACK_WIDTH]
        if self._G is not None and 3 <= n <= PROBE_MAX:
            sub = np.sort(self._G[:, T], axis=1)
            probe_counts = 1 + np.count_nonzero(np.diff(sub, axis=1), axis=1)
            best = np.argsort(-probe_counts, kind="stable")[: PROBES + n]
            inside = {self._words[t] for t in T}
            # A probe making one class learns nothing (and would recurse on T itself): never tried.
            rows = [int(r) for r in best if probe_counts[r] > 1 and self._guesses[r] not in inside][:PROBES]
            options += [(3 * W - int(top[probe_counts[r]]), n + j, -1 - r) for j, r in enumerate(rows)]
            options.sort()
        return options

    def _best(self, T: np.ndarray) -> Choice:
        """cost(T) and the guess that attains it."""
        n = len(T)
        if n == 1:
            return Choice(int(self._w[T[0]]), int(T[0]))
        key = T.tobytes()
        if key in self._memo:
            return self._memo[key]
        best_cost, best_guess = None, None
        for bound, _, g in self._options(T):
            if best_cost is not None and bound >= best_cost:
                break
            rest = sorted((P for p, P in self._split(g, T) if p != self._green), key=len, reverse=True)
            total, remaining = int(self._w[T].sum()), sum(self._low(P) for P in rest)
            for P in rest:
                remaining -= self._low(P)
                total += self._best(P).cost
                if best_cost is not None and total + remaining >= best_cost:
                    break
            else:
                if best_cost is None or total < best_cost:
                    best_cost, best_guess = total, g
        self._memo[key] = Choice(best_cost, best_guess)
        return self._memo[key]

    def cost(self, T: Sequence[str]) -> int:
        return self._best(self._indices(T)).cost

    def node_tree(self, T: np.ndarray) -> Tree:
        g = self._best(T).guess
        children = {p: self.node_tree(P) for p, P in self._split(g, T) if p != self._green}
        return Tree(self._word(g), len(T), children)

    def tree(self, T: Sequence[str]) -> Tree:
        return self.node_tree(self._indices(T))

    def plan(self, position: Position) -> Tree | None:
        return self.tree(position.candidates) if position.candidates else None


def complete(plan: Tree | None, candidates: Sequence[str], fallback: FewestGuesses) -> Tree:
    """The plan with every branch it lacks (for these candidates) filled by the fallback."""
    if plan is None:
        return fallback.tree(candidates)
    green = all_green(len(plan.guess))
    children = {}
    for p, P in sorted(word_classes(plan.guess, candidates).items()):
        if p != green:
            children[p] = complete(plan.children.get(p), P, fallback)
    return Tree(plan.guess, len(candidates), children)


def guesses_to_solve(plan: Tree, candidates: Sequence[str], strict: bool = True) -> dict[str, int | None]:
    """How many guesses a plan plays until each candidate is guessed (1: the root guess).

    A candidate whose feedback has no child is an internal error for a complete plan (``strict``);
    otherwise it maps to None (the plan never finds it).
    """
    out: dict[str, int | None] = {}

    def visit(node: Tree, reaching: Sequence[str], step: int) -> None:
        for p, P in word_classes(node.guess, reaching).items():
            if p == all_green(len(node.guess)):
                out[P[0]] = step
            elif p in node.children:
                visit(node.children[p], P, step + 1)
            elif strict:
                raise InternalError(f"the plan has no guess after {node.guess} "
                                    f"{format_pattern(p, len(node.guess))}")
            else:
                out.update((a, None) for a in P)

    visit(plan, candidates, 1)
    return out


# --- the game -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    guess: str
    source: str  # the strategy that chose it (or the fallback)
    position: Position
    depth: int
    wins: int  # candidates won within the depth under the complete plan (their weight, with weights)
    expected: float  # mean guesses still to play (this one included) under the complete plan (weighted mean)
    worst: int  # most guesses still to play
    weight: int = 0  # the candidates' total weight (0: their number, no weights)

    @property
    def candidates(self) -> tuple[str, ...]:
        return self.position.candidates

    @property
    def guesses_left(self) -> int:
        """Guesses left within the depth, this one included (0 or less: beyond the depth)."""
        return self.depth - self.position.played

    @property
    def total(self) -> int:
        """The candidates' total weight (their number without weights): P(win) = wins / total."""
        return self.weight or len(self.candidates)

    @property
    def probability(self) -> float:
        return self.wins / self.total if self.candidates else 0.0


class ImpossibleFeedback(ExactError):
    """No candidate answer gives this feedback to the guess played."""


class Game:
    """A game in progress: ``advice()`` says what to play, ``give(pattern)`` records its feedback."""

    def __init__(self, strategy: Strategy, answers: WordList, fallback: FewestGuesses | None = None,
                 guesses: WordList | None = None, hard: bool = False,
                 rescue: Strategy | Sequence[Strategy] | None = None, weights: Weights | None = None):
        """``guesses``: the allowed guesses (a word the player chooses instead of the advice must be
        one; the fallback probes with them, except in hard mode where a probe could break the rule).
        ``rescue``: one strategy or several, asked in turn for a plan where the strategy has none (a tree
        the player left by playing another word), before the fallback; e.g. the opener book, then
        :class:`LiveWins` with the same depth. ``weights``: the answers' prior (the module docstring): the
        advice's chances are weighted by it and the fallback minimises the weighted total."""
        self.strategy = strategy
        self.rescues = tuple(rescue) if isinstance(rescue, (list, tuple)) else (rescue,) if rescue else ()
        self.allowed = guesses
        self.hard = hard
        self.weights = weight_map(weights, answers)
        self.prior = weights.source if self.weights else None  # the header names it
        probes = None if guesses is None or hard else guesses.words
        self.fallback = fallback or FewestGuesses(answers.words, probes, self.weights)
        self.positions = [start(answers)]
        self._advice: dict[int, Advice] = {}
        self.beyond: str | None = None  # set once the game goes on over every allowed word: the line saying why

    @property
    def position(self) -> Position:
        return self.positions[-1]

    @property
    def solved(self) -> bool:
        h = self.position.history
        return bool(h) and h[-1][1] == all_green(len(h[-1][0]))

    def advice(self) -> Advice:
        """The next guess with the chances under the strategy (computed once per position)."""
        key = len(self.positions)
        if key not in self._advice:
            pos = self.position
            if not pos.candidates:
                raise ExactError("no candidate answer is left")
            plan, source = (None, "") if self.beyond else (self.strategy.plan(pos), self.strategy.name)
            for rescue in () if self.beyond else self.rescues:
                if plan is None:
                    plan, source = rescue.plan(pos), rescue.name
            if plan is None:
                source = self.fallback.name
            full = complete(plan, pos.candidates, self.fallback)
            steps = guesses_to_solve(full, pos.candidates)
            within = self.strategy.depth - pos.played
            w = self.weights or dict.fromkeys(steps, 1)
            weight = sum(w[a] for a in steps)
            self._advice[key] = Advice(
                guess=full.guess, source=source, position=pos, depth=self.strategy.depth,
                wins=sum(w[a] for a, s in steps.items() if s <= within),
                expected=sum(w[a] * s for a, s in steps.items()) / weight, worst=max(steps.values()),
                weight=weight if self.weights else 0)
        return self._advice[key]

    def possible(self) -> dict[int, tuple[str, ...]]:
        """The feedback patterns the advised guess can get, with the candidates giving each."""
        return word_classes(self.advice().guess, self.position.candidates)

    def give(self, pattern: int, guess: str | None = None) -> Position:
        """Record the feedback of the advised guess (or of ``guess``, another word the player chose:
        the strategy then continues from there where it can, else the fallback); feedback no candidate
        gives is an ImpossibleFeedback."""
        if guess is not None and guess != self.advice().guess:
            self.check_guess(guess)
        guess = guess or self.advice().guess
        length = len(guess)
        if pattern not in word_classes(guess, self.position.candidates) and not self.go_beyond(guess, pattern):
            raise ImpossibleFeedback(
                f"no candidate answer gives {format_pattern(pattern, length, 'emoji')} "
                f"({format_pattern(pattern, length)}) to {guess}; "
                f"{len(self.position.candidates)} candidates were left")
        self.positions.append(after(self.position, guess, pattern))
        return self.position

    def go_beyond(self, guess: str, pattern: int) -> bool:
        """Feedback no candidate answer gives: when it fits allowed words (the answer list is a dated
        snapshot; the game may have picked a word it lacks), the game goes on over every allowed word
        consistent with the feedback so far, played by the fallback (exact over candidates and probe
        words), and :attr:`beyond` says so in one line; False (nothing changes) when no allowed word fits.
        The prior weighs only the list's answers: beyond it every word counts 1 (the line says so)."""
        if self.allowed is None or self.beyond:
            return False
        history = self.position.history + ((guess, pattern),)
        fits = start(self.allowed)
        for g, p in history:
            fits = after(fits, g, p)
        if not fits.candidates:
            return False
        answers = self.positions[0].answers
        self.beyond = (f"no answer of the {len(answers)} of {answers.source} ({list_date(answers, self.allowed)}) "
                       f"gives this feedback, but {len(fits.candidates)} allowed word(s) do: going on over every "
                       f"allowed word" + ("; the prior weighs only the list's answers: every word counts 1"
                                         if self.weights else ""))
        positions = [start(self.allowed)]
        for g, p in self.position.history:
            positions.append(after(positions[-1], g, p))
        self._within_list = (self.positions, self.fallback, self.weights)  # what undoing this feedback restores
        self.positions = positions
        self.weights = None
        self.fallback = FewestGuesses(fits.candidates, None if self.hard else self.allowed.words)
        self._advice.clear()
        return True

    def check_guess(self, word: str) -> None:
        """An ExactError unless ``word`` may be played here: an allowed guess of the advice's length,
        keeping the hard-mode rule in hard mode."""
        length = len(self.advice().guess)
        if len(word) != length or not word.isalpha() or not word.islower():
            raise ExactError(f"{word!r} is not a {length}-letter lowercase word")
        if self.allowed is not None and word not in self.allowed.index:
            raise ExactError(f"{word!r} is not an allowed guess of {self.allowed.source}")
        if self.hard:
            if not is_allowed(word, self.position.history):
                raise ExactError(f"{word!r} breaks the hard-mode rule after this game's feedback")

    def undo(self) -> bool:
        """Forget the last feedback; False when there is none."""
        if len(self.positions) == 1:
            return False
        if self.beyond and len(self.positions) == len(self._within_list[0]) + 1:  # back within the list
            self.positions, self.fallback, self.weights = self._within_list
            self.beyond = None
            self._advice.clear()
            return True
        self._advice.pop(len(self.positions), None)
        self.positions.pop()
        return True


@dataclass(frozen=True)
class Turn:
    advice: Advice
    pattern: int
    note: str | None = None  # a line to print after this turn (the game went on over every allowed word)


def play_answer(game: Game, answer: str, max_guesses: int = 30) -> tuple[list[Turn], bool]:
    """Play the game against a known answer: (turns, solved). The answer need not be in the list: the
    game then stops (unsolved) when no candidate is left."""
    turns: list[Turn] = []
    while len(turns) < max_guesses:
        if not game.position.candidates:
            return turns, False
        advice = game.advice()
        pattern = feedback(advice.guess, answer)
        beyond = game.beyond
        try:
            game.give(pattern)
        except ImpossibleFeedback:
            turns.append(Turn(advice, pattern))
            return turns, False
        turns.append(Turn(advice, pattern, game.beyond if game.beyond != beyond else None))
        if game.solved:
            return turns, True
    return turns, False


# --- the record of a game -------------------------------------------------------------------------


def game_header(game: Game, answer: str | None = None) -> str:
    """The first line ``exact wordle play`` prints: the lists, the mode and the strategy (its objective)."""
    answers, guesses = game.positions[0].answers, game.allowed
    if guesses is not None and list_name(answers, guesses) is not None:
        lists = describe_lists(lists_record(answers, guesses))
    else:
        lists = f"answers {answers.source} ({len(answers)})" + (
            f", guesses {guesses.source} ({len(guesses)})" if guesses is not None else "")
    snapshot = f"; {list_date(answers, guesses)}" if guesses is not None and list_name(answers, guesses) else ""
    prior = f"; answers weighted by {game.prior}" if game.prior else ""
    return (f"{lists}{', hard mode' if game.hard else ''}{prior}; strategy: {game.strategy.name}"
            + (f"; answer {answer}" if answer is not None else "") + snapshot)


def game_record(game: Game, answer: str, notation: str = "emoji") -> tuple[list[str], bool]:
    """(the lines ``exact wordle play --answer`` prints after :func:`game_header`, solved?): a whole game
    against ``answer``.

    >>> from exact.words import words_from_lines
    >>> A = words_from_lines(["caber", "cabin", "cable"])
    >>> lines, solved = game_record(Game(TreeStrategy(Tree("cabin", 3, {}), "demo tree", depth=2), A), "caber", "digits")
    >>> solved, lines[-1]
    (True, 'solved in 2 guesses (a win)')
    """
    strategy = game.strategy
    lines = []
    turns, solved = play_answer(game, answer)
    for t in turns:
        a = t.advice
        chance = (f"P(win within {a.depth}) {a.probability:6.2%}" if a.guesses_left > 0
                  else f"beyond {a.depth} guesses")
        lines.append(f"{format_pattern(t.pattern, len(a.guess), notation)}  {a.guess}   {len(a.candidates):5d} "
                     + ("candidate, " if len(a.candidates) == 1 else "candidates,")
                     + f" {chance}, expected guesses {a.expected:.3f}"
                     + ("" if a.source == strategy.name else f"  [{a.source}]"))
        if t.note:
            lines.append(t.note)
    if solved:
        n = len(turns)
        verdict = "a win" if n <= strategy.depth else f"not within {strategy.depth}"
        lines.append(f"solved in {n} guess{'es' if n > 1 else ''} ({verdict})")
    else:
        answers = game.positions[0].answers
        lines.append(f"{answer!r} is not one of the {len(answers)} answers of {answers.source}: after "
                     f"{len(turns)} guess{'es' if len(turns) > 1 else ''} no candidate gives this feedback, so the "
                     f"strategy cannot find it")
    return lines, solved
