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
  (:class:`exact.wordle.study.fallback.FewestGuesses`) plays on: the fewest total guesses, guessing remaining candidates (and, given
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

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from exact.errors import ExactError
from exact.feedback import all_green, feedback, format_pattern
from exact.game.hard import broken_rule, constraint, no_constraint
from exact.game.position import Position, after, start, word_classes
from exact.game.tree import Tree, tree_depth
from exact.partitions import feedback_matrix
from exact.progress import say
from exact.weights import Weights, weights_sha256
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.study.fallback import FewestGuesses, complete, guesses_to_solve
from exact.wordle.wins.dp import Search, make_wins_instance
from exact.wordle.wins.trees import best_guess, node_tree
from exact.words import WordList, describe_lists, list_date, list_name, lists_record

History = tuple[tuple[str, int], ...]

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
        if result.interrupted:  # Ctrl-C or SIGTERM during the solve: its tree is the best so far, not proven
            raise KeyboardInterrupt
        return result.tree


#: A live solve over more candidates than this first says, on stderr, that it is thinking and for how long.
THINKING_MIN = 100
#: Seconds one live proof of the fewest guesses takes, by answers left (an estimate, not a bound: classes of
#: one size vary by 10x). Measured on this project's 2-core machine with other work running: the classes of
#: 16, 40, 90, 134 and 263 answers after crane on the original lists (``solve_guesses(A, G, after=(("crane",
#: pattern),))``, the kernels compiled; docs/serve.md); the last point is issue 31's report of the whole game
#: after fuzzy on nyt2023 (3158 answers, over an hour of CPU). A worker adds about 3 s (docs/serve.md).
MEASURED_SECONDS = ((1, 0.1), (16, 0.8), (40, 0.8), (90, 0.9), (134, 10.8), (263, 18.0), (3158, 3600.0))


def expected_seconds(n: int) -> float:
    """The expected duration of a live fewest-guesses proof on ``n`` answers left, on 2 cores:
    :data:`MEASURED_SECONDS` interpolated on a log-log scale (beyond the table, its last slope continues).
    It fits the other measurements within a factor of a few (358 answers left after crane bbbbb on nyt2023
    took 35 s: the estimate says 35; 216 after adieu took 18 s: it says 15). An estimate, said as one, never
    a bound; ``exact wordle play`` and ``exact wordle serve`` both say it."""
    table = MEASURED_SECONDS
    if n <= table[0][0]:
        return table[0][1]
    pairs = list(zip(table, table[1:]))
    (n0, s0), (n1, s1) = next(((a, b) for a, b in pairs if n <= b[0]), pairs[-1])
    slope = (math.log(s1) - math.log(s0)) / (math.log(n1) - math.log(n0))
    return s0 * math.exp(slope * (math.log(n) - math.log(n0)))


#: The rate of :func:`proof_seconds` on 2 cores: seconds per contender per answer left (a contender is searched
#: or ruled out over the answers left; the best guess's own proof is one of them). Fitted (the geometric mean
#: of measured / modelled) to the proofs ``python -m exact.bench.live_estimate --seed 4`` measured on an idle
#: machine (docs/serve.md, "How long a live proof takes").
PER_CONTENDER_ANSWER = 8e-5


def proof_seconds(n: int, contenders: int) -> float:
    """The expected duration of a live fewest-guesses proof on ``n`` answers left, from the start of its
    search, once the search has counted its ``contenders`` (the first guesses whose bound is below the first
    strategy it found: :class:`exact.wordle.fewest.search.Bounds`). The count matters as much as ``n``: after
    coypu on nyt2023 (87 answers) 13889 of the 14855 guesses are contenders and the proof took 214 s, after
    cones (151 answers) 153 are and it took 3 s (results/wordle/live/estimate-nyt2023.csv). An estimate, said
    as one, never a bound."""
    return PER_CONTENDER_ANSWER * n * contenders


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
            if (why := broken_rule(word, self.position.history)) is not None:
                raise ExactError(f"{word!r} breaks the hard-mode rule after this game's feedback: {why}")

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
