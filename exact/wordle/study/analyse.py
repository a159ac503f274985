"""Rating a game that was played: for each guess, the exact expected number of guesses with it
against the best guess there, the answers left, and the luck of the feedback.

Data types, stated once:

- a *game* is a history ``((guess, pattern), ...)`` (patterns as codes sum(fb[i] * 3**i)), read by
  :func:`exact.wordle.study.game_text.parse_game` from ``salet.bbbyb.drone.ybbbg.crane`` (guess.pattern pairs in any notation of
  :func:`exact.feedback.parse_pattern`; a last guess without a pattern solved the game), from the
  guesses alone with the answer, or from the emoji grid a player pastes (the guesses on the grid's
  lines or given apart);
- the *value* of a guess g at a position S reached before guess t is the fewest-guesses cost of
  :mod:`exact.wordle.fewest.search`: the least total number of guesses, counted from the start of the
  game, over the answers of S, with g played now and every later guess played optimally (every answer
  within ``max_guesses``). The *expected guesses* is value / |S|: the game's expected length, each
  answer of S equally likely. The best guess at S is the one of least value;
- the *luck* of a feedback: E_before - E_after, where E_before is the expected guesses of the guess
  played (averaged over its feedbacks) and E_after that of the position it led to, played optimally
  from there (the guess count when it solved). Positive: the feedback left fewer guesses to play than
  this guess leaves on average. The feedbacks' lucks, weighted by their answers, average to zero
  (the classes' optimal subtrees are independent, so E_before is their weighted mean);
- with *weights* (a prior, :mod:`exact.weights`), answer a counts w_a: a value is the weighted total,
  the expected guesses value / W(S) (W: the total weight), the best guess the one of least weighted
  total, and the probability of a feedback is the weight of its class over W(S). Luck is the same
  difference, and the feedbacks' lucks, each weighted by its class's weight, sum to zero (E_before is
  the W(P)/W(S)-weighted mean of the classes' E_after by the same independence). A committed file values
  a first guess only under its own weights (the sha256 it records; an unweighted file only without
  weights: a weighted total is not a count), and the opener book (proven without weights) is not used
  under weights; unit weights are no weights;
- an :class:`Analysis` holds one :class:`Step` per guess; each :class:`Value` says how it was
  obtained: ``solved`` (:func:`exact.wordle.fewest.search.solve_guesses`, proven), ``certificate`` (a
  committed proven certificate of this list and mode), or None with a reason (not computed).

What is exact. Every value given is exact (solved here or read from a proven file), or a lower bound said
as one. A position with more than ``live_max`` answers (the first guess's, on a full list) is solved only
with ``full=True`` (minutes or more). Without it, the first guess is valued from the committed files of
the lists and mode (:func:`first_guess_values`): a fewest-guesses certificate, a ranking over every first
guess (its certificate or the checkpoint of a run in progress: an exact total, or "at least N" from a
rejection bound, kept as :attr:`Value.at_least`: above the ranking's floor only once the first stages of
verify's search re-derive it, :func:`record_holds`, else the floor), or the opener book; a played first guess they do not
value exactly is solved here when its largest class has at most ``live_max`` answers. The best first guess
is the ranking's when the ranking covers every allowed guess and its best total is at most every bound
("proven best of all N first guesses"), else the best valued in the files, said *not* proven over every
guess (``best_scope``). A later position the opener book covers (:mod:`exact.wordle.study.book`) takes
its proven best guess and value at once. Feedback that fits no answer of the list but fits allowed words
(the list is a dated snapshot) is analysed over every allowed word, said in one line
(:func:`beyond_the_list`).

Tiny example (guesses = answers): a game that solves "focal" in 3.

>>> from exact.words import words_from_lines
>>> from exact.wordle.study.game_text import parse_game
>>> A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
>>> game = parse_game("rebut.bbbbb.sissy.bbbbb.focal", A)
>>> a = analyse_game(game, A, A)
>>> [(s.guess, s.before, s.after, s.played.expected, s.best.expected, s.best_guess) for s in a.steps]
[('rebut', 8, 2, 2.125, 2.125, 'cigar'), ('sissy', 2, 1, 2.5, 2.5, 'sissy'), ('focal', 1, 1, 3.0, 3.0, 'focal')]
>>> [round(s.luck, 3) for s in a.steps]
[-0.375, -0.5, 0.0]
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from exact.errors import ExactError, InternalError
from exact.feedback import all_green, feedback, format_pattern
from exact.game.hard import broken_rule
from exact.game.position import after, position_answers, start, word_classes
from exact.game.tree import Tree
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.certificate import ranking_floor
from exact.wordle.rederive import confirmed
from exact.weights import Weights
from exact.wordle.study.book import lookup, shipped_book
from exact.wordle.study.play import restrict_weights, weight_map
from exact.words import WordList, list_date, words_from_lines, list_name, shipped_results

#: Positions with more answers than this are solved only when asked (``full``): on a full list the
#: first guess's alternatives take minutes to hours.
LIVE_MAX = 300



@dataclass(frozen=True)
class Value:
    """A guess's value at a position: ``total`` guesses over ``n`` answers (None: not computed,
    ``how`` says why), obtained ``how`` ("solved", "certificate FILE", or the reason)."""

    total: int | None
    n: int
    how: str
    at_least: int | None = None  # a proven lower bound on the total when it is not known exactly
    weight: int | None = None  # with weights: the n answers' total weight (``total`` is then weighted)

    @property
    def expected(self) -> float | None:
        return self.total / (self.weight or self.n) if self.total is not None else None

    @property
    def expected_at_least(self) -> float | None:
        return self.at_least / (self.weight or self.n) if self.at_least is not None else None

    def to_json(self) -> dict:
        bound = {} if self.at_least is None else {"at_least": self.at_least}
        weighed = {} if self.weight is None else {"weight": self.weight}
        return {"total": self.total, "answers": self.n, "expected": self.expected, "how": self.how, **bound,
                **weighed}


@dataclass
class Step:
    number: int  # 1 for the first guess
    guess: str
    pattern: int
    before: int  # answers possible before the guess
    after: int  # answers possible after its feedback
    played: Value
    best: Value
    best_guess: str | None
    best_scope: str  # "proven best at this position" or what the best was chosen among
    expected_class: float  # the expected size of the class the guess leaves (sum |P|^2 / |S|; weighted:
    # sum W(P) |P| / W(S), each answer as likely as its weight)
    expected_after: float | None  # the expected guesses after the feedback, played optimally
    tree: Tree | None = field(default=None, repr=False, compare=False)  # the played guess's optimal tree

    @property
    def solved(self) -> bool:
        return self.pattern == all_green(len(self.guess))

    @property
    def luck(self) -> float | None:
        """E_before - E_after (see the module): positive when the feedback saved guesses."""
        if self.played.expected is None or self.expected_after is None:
            return None
        return self.played.expected - self.expected_after

    @property
    def extra(self) -> float | None:
        """The expected guesses the played guess costs beyond the best one (0 when it is best)."""
        if self.played.expected is None or self.best.expected is None:
            return None
        return self.played.expected - self.best.expected

    def to_json(self) -> dict:
        return {"number": self.number, "guess": self.guess, "pattern": format_pattern(self.pattern, len(self.guess)),
                "answers_before": self.before, "answers_after": self.after, "played": self.played.to_json(),
                "best": self.best.to_json(), "best_guess": self.best_guess, "best_scope": self.best_scope,
                "extra_expected": self.extra, "expected_class_size": self.expected_class,
                "expected_after": self.expected_after, "luck": self.luck}


@dataclass
class Analysis:
    steps: list[Step]
    answers: WordList = field(repr=False)
    guesses: WordList = field(repr=False)
    hard: bool
    max_guesses: int
    live_max: int | None
    next_best: Value | None = None  # an unfinished game: the best value after the last feedback
    next_guess: str | None = None
    weights: Weights | None = None  # the prior the values are weighted by (None: every answer 1)
    learned: list[Learned] = field(default_factory=list, repr=False)  # the positions solved on the way

    @property
    def solved(self) -> bool:
        return bool(self.steps) and self.steps[-1].solved

    def to_json(self) -> dict:
        return {"list": list_name(self.answers, self.guesses), "hard": self.hard, "max_guesses": self.max_guesses,
                "answers": {"source": self.answers.source, "count": len(self.answers)},
                "guesses": {"source": self.guesses.source, "count": len(self.guesses)},
                "live_max": self.live_max, "solved": self.solved, "steps": [s.to_json() for s in self.steps],
                "next": None if self.solved or self.next_best is None else
                {"best_guess": self.next_guess, "best": self.next_best.to_json()},
                "method": METHOD, **({"weights": self.weights.record()} if self.weights is not None else {})}


METHOD = ("values: the fewest-guesses cost of exact.wordle.fewest.search (total guesses from the start of the game, the "
          "rest played optimally, every answer within max_guesses), solved exactly by solve_guesses or read from "
          "a committed proven certificate; luck = expected guesses before the feedback - after it")


# --- the analysis -----------------------------------------------------------------------------------

class Proven(NamedTuple):
    """A position's best guess and its total *from there* (this guess included; weighted under weights), proven
    outside the committed files: by a server that proved or looked up the position (``analyse_game(known=)``)."""

    guess: str
    total: int
    how: str


class Learned(NamedTuple):
    """A position solved during an analysis (``before``: the moves that reach it): a guess, its total counted
    from the game's first guess, and its optimal tree; what a server keeps for the next time. ``best``: the
    guess is the position's best (else it was the guess played, solved as given: only the positions below
    it are proven, each by its subtree)."""

    before: tuple
    guess: str
    total: int
    tree: Tree
    best: bool = True


class Certified(NamedTuple):
    """A first guess's proven fewest-guesses total and where it is proven (the certificate file)."""

    total: int
    source: str


def certificate_values(answers: WordList, guesses: WordList, hard: bool,
                       max_guesses: int = 6, weights_sha256: str | None = None) -> dict[str, Certified]:
    """First guess -> (total, source): the committed proven fewest-guesses certificates of these lists and
    mode (from the game's start, objective ``guesses``), read from ``results/wordle/`` of a checkout; only
    those of the same weights (``weights_sha256``; None: unweighted certificates only, since a weighted
    total is not a count)."""
    out = {}
    for path in shipped_results("results/wordle/*-certificate.json"):
        try:
            c = read_once(path, json.loads)
        except (OSError, ValueError):
            continue
        if (c.get("objective") == "guesses" and c.get("status") == "OPTIMAL" and not c.get("after")
                and c.get("hard") == hard and c.get("max_guesses") == max_guesses and c.get("first")
                and c.get("answers", {}).get("sha256") == answers.sha256
                and c.get("guesses", {}).get("sha256") == guesses.sha256 and c.get("total") is not None
                and (c.get("weights") or {}).get("sha256") == weights_sha256):
            out[c["first"]] = Certified(int(c["total"]), f"certificate results/wordle/{path.name}")
    return out


@dataclass
class Valuation:
    """The value of the guess played and of the best guess at one position, and how far it is proven."""

    played: Value
    best: Value
    best_first: str | None
    scope: str
    tree: Tree | None  # the played guess's tree when solved here


def check_game(history: tuple, max_guesses: int, hard: bool) -> None:
    """At most ``max_guesses`` guesses, each obeying the hard-mode rule when ``hard``."""
    if len(history) > max_guesses:
        raise ExactError(f"game: {len(history)} guesses, more than the {max_guesses} allowed")
    if hard:
        for i, (g, _) in enumerate(history):
            if (why := broken_rule(g, history[:i])) is not None:
                raise ExactError(f"game: {g!r} breaks the hard-mode rule at guess {i + 1}: {why}")


class FirstGuessValues(NamedTuple):
    """What the committed files prove of the first guesses of a list and mode: exact totals (fewest-guesses
    certificates, the rankings, the opener book), lower bounds (a ranking's rejections: "at least N"), and,
    when a ranking covers every allowed guess and its best total is at most every bound, that best guess
    with the file that proves it best of all (else None)."""

    exact: dict[str, Certified]
    at_least: dict[str, Certified]
    best_of_all: Certified | None
    best_guess: str | None
    shown_bound: Callable[[str], "Certified | None"] = lambda guess: None  # the "at least" shown (first_guess_values)


#: path -> ((mtime_ns, size), what ``read_once`` parsed from it)
_READ: dict[tuple[str, Callable], tuple[tuple[int, int], object]] = {}


def read_once(path: Path, parse: Callable[[str], object]):
    """``parse`` of the file's text, read again only when the file changed (its modification time or size):
    the committed certificates and rankings (about 85000 JSON lines) are read once per process, not once
    per game rated (2 s each, every rating of the web app). The result is shared: callers only read it."""
    stat = path.stat()
    stamp, key = (stat.st_mtime_ns, stat.st_size), (str(path), parse)
    if (kept := _READ.get(key)) is None or kept[0] != stamp:
        kept = _READ[key] = stamp, parse(path.read_text())
    return kept[1]


def _ranking_records(path) -> tuple[dict, list[dict]]:
    """(header, records) of a ranking certificate (``first_guesses``) or checkpoint (JSON lines), read once
    (:func:`read_once`)."""
    return read_once(path, _parse_ranking if path.suffix == ".json" else _parse_checkpoint)


def _parse_ranking(text: str) -> tuple[dict, list[dict]]:
    c = json.loads(text)
    return c, [{"guess": w, **r} for w, r in (c.get("first_guesses") or {}).items()]


def _parse_checkpoint(text: str) -> tuple[dict, list[dict]]:
    lines = [json.loads(line) for line in text.splitlines() if line.strip().endswith("}")]
    return (lines[0], lines[1:]) if lines else ({}, [])


def _weights_sha256(header: dict) -> str | None:
    """The sha256 of the weights a ranking was made under: its certificate records them as a record
    (``weights.sha256``), its checkpoint's header as the sha256 itself; None without weights."""
    w = header.get("weights")
    return w.get("sha256") if isinstance(w, dict) else w


def first_guess_values(answers: WordList, guesses: WordList, hard: bool, max_guesses: int = 6,
                       book=None, weights_sha256: str | None = None, weights: Weights | None = None) -> FirstGuessValues:
    """The :class:`FirstGuessValues` of these lists and mode, from ``results/wordle/`` (``book``: a
    :class:`exact.wordle.study.book.Book` whose proven openers count as exact values), the files of the
    same weights only (``weights_sha256``, of ``weights``; None: unweighted files only). Its ``shown_bound``
    is the "at least" shown for a guess: a bound above its ranking's floor only once it re-derives
    (:func:`record_holds`), else the floor."""
    exact = dict(certificate_values(answers, guesses, hard, max_guesses, weights_sha256))
    at_least: dict[str, Certified] = {}
    taken: dict[str, tuple] = {}  # guess -> (file, header, record, floor) of the ranking bound kept
    for path in (shipped_results("results/wordle/ranking-guesses*-certificate.json")
                 + shipped_results("results/wordle/ranking-guesses*-checkpoint.jsonl")):
        try:
            header, records = _ranking_records(path)
        except (OSError, ValueError):
            continue
        if (header.get("objective") != "guesses" or bool(header.get("hard")) != hard
                or header.get("max_guesses") != max_guesses
                or (header.get("answers") or {}).get("sha256") != answers.sha256
                or (header.get("guesses") or {}).get("sha256") != guesses.sha256
                or _weights_sha256(header) != weights_sha256):
            continue
        source = f"ranking results/wordle/{path.name}"
        floor = ranking_floor(header, sorted(r["total"] for r in records if isinstance(r.get("total"), int)))
        for r in records:
            if isinstance(r.get("total"), int):
                exact.setdefault(r["guess"], Certified(r["total"], source))
            elif isinstance(r.get("at_least"), int) and r["at_least"] > at_least.get(r["guess"], (0,))[0]:
                at_least[r["guess"]] = Certified(r["at_least"], source)
                taken[r["guess"]] = path, header, r, floor
    for w, e in (book.openers.items() if book is not None else ()):
        exact.setdefault(w, Certified(e.total, "the opener book"))
    best_guess = min(exact, key=lambda w: (exact[w].total, w)) if exact else None
    covered = best_guess is not None and all(w in exact or w in at_least for w in guesses.words)
    proven = covered and all(exact[best_guess].total <= b.total for b in at_least.values())
    best_of_all = None
    if proven:
        sources = sorted({c.source for c in (*exact.values(), *at_least.values()) if c.source.startswith("ranking")})
        best_of_all = Certified(exact[best_guess].total, ", ".join(sources) or exact[best_guess].source)
    def shown_bound(guess: str) -> Certified | None:
        """A bound at the ranking's floor is its claim; another is shown once it re-derives, else the floor
        where that is below it (None where it is not: the file's claim does not cover the guess)."""
        if guess not in taken:
            return at_least.get(guess)
        path, header, record, floor = taken[guess]
        if record["at_least"] == floor or record_holds(path, header, record, answers, guesses, weights):
            return at_least[guess]
        if floor > record["at_least"]:
            return None
        return Certified(floor, f"{at_least[guess].source}, its floor (cutoff + 1 or the top-th exact value)")
    return FirstGuessValues(exact, at_least, best_of_all, best_guess, shown_bound)


def record_holds(path, header: dict, record: dict, answers: WordList, guesses: WordList,
                 weights: Weights | None) -> bool:
    """Whether a ranking's "at least b" re-derives by the first stages of verify's search against b (class
    bounds and look-ahead, :func:`exact.wordle.rederive.confirmed` with ``bounds_only``: seconds, never the
    full solve a false bound would cost; once per machine, remembered under the installation's seal); one
    that does not is not shown (a warning names the file)."""
    why = confirmed(path, header, record, answers, guesses, weights, bounds_only=True)
    if why is not None:
        warnings.warn(f"{path}: its record of {record['guess']} is not re-derived here ({why}); not shown, only "
                      f"the ranking's floor")
    return why is None


def certified_valuation(guess: str, n: int, values: FirstGuessValues, limit: int,
                        weight: int | None = None) -> Valuation:
    """A position too large to solve here (the first guess): the committed files' values, exact or "at
    least N" (a ranking's rejection bound), and the best first guess they prove best of all when they do;
    ``weight``: the answers' total weight when the values are weighted totals."""
    why = f"not computed: {n} answers > {limit} (full analysis: minutes or more)"
    proven = values.exact.get(guess)
    bound = values.shown_bound(guess) if proven is None else None
    if proven is not None:
        played = Value(proven.total, n, proven.source, weight=weight)
    elif bound is not None:
        played = Value(None, n, f"at least {bound.total} (a rejection bound of the {bound.source}), not exact",
                       at_least=bound.total, weight=weight)
    else:
        played = Value(None, n, why)
    if values.best_guess is None:
        return Valuation(played, Value(None, n, why), None, "not computed", None)
    if values.best_of_all is not None:
        best = Value(values.best_of_all.total, n, values.best_of_all.source, weight=weight)
        scope = f"proven best of all {len(set(values.exact) | set(values.at_least))} first guesses"
        return Valuation(played, best, values.best_guess, scope, None)
    best = values.exact[values.best_guess]
    return Valuation(played, Value(best.total, n, best.source, weight=weight), values.best_guess,
                     f"best of the {len(values.exact)} first guesses valued in committed files, not proven over "
                     f"every guess", None)


def solved_valuation(solve, before: tuple, guess: str, n: int) -> Valuation:
    """A position solved here: the best guess's value and the played guess's (one search if they agree)."""
    best_result = solve(before)
    played_result = best_result if best_result.first == guess else solve(before, guess)
    return Valuation(_value(played_result, n), _value(best_result, n), best_result.first,
                     "proven best at this position", played_result.tree)


def fill_expected_after(steps: list, answers: WordList, history: tuple, hard: bool,
                        w: dict[str, int] | None = None) -> None:
    """The expected guesses after each feedback: the next step's best, the tree's (weighted by ``w``),
    or the guess count."""
    for step, following in zip(steps, steps[1:] + [None]):
        if step.solved:
            step.expected_after = float(step.number)
        elif following is not None and following.best.expected is not None and following.best_scope.startswith("proven"):
            step.expected_after = following.best.expected
        elif step.tree is not None and step.pattern in step.tree.children:
            S = position_answers(answers, history[:step.number], hard).words
            step.expected_after = (_tree_total(step.tree.children[step.pattern], S, step.number + 1, w)
                                   / weigh(S, w))


def beyond_the_list(history, answers: WordList, guesses: WordList, hard: bool, say=None) -> WordList:
    """The answers to analyse ``history`` over: ``answers``, or, when its feedback fits no answer of the
    list but fits allowed words (an answer the list, a dated snapshot, does not have), every allowed
    word, said in one line through ``say``. Feedback no allowed word gives stays an error (below)."""
    in_list, allowed = start(answers), start(guesses)
    for i, (guess, pattern) in enumerate(history, 1):
        in_list, allowed = after(in_list, guess, pattern), after(allowed, guess, pattern)
        if not in_list.candidates:
            if allowed.candidates:
                if say is not None:
                    say(f"the feedback of guess {i} fits no answer of {answers.source} ({len(answers)} answers, "
                        f"{list_date(answers, guesses)}) but fits allowed words: going on over every allowed word")
                return guesses
            break
    return answers


def analyse_game(history, answers: WordList, guesses: WordList, hard: bool = False, max_guesses: int = 6,
                 live_max: int | None = LIVE_MAX, full: bool = False, progress: bool | None = False,
                 say=None, weights: Weights | None = None, known: Mapping[tuple, Proven] | None = None) -> Analysis:
    """Each guess of ``history`` valued against the best guess at its position (see the module).
    ``live_max``: the most answers a position may have to be solved here without ``full``. ``weights``:
    the answers' prior (the module docstring; beyond the list every allowed word counts 1). ``known``: the
    positions (by the moves that reach them) proven elsewhere, read as the opener book is; the positions
    solved here are :attr:`Analysis.learned`."""
    history = tuple(history)
    check_game(history, max_guesses, hard)
    listed = answers
    answers = beyond_the_list(history, answers, guesses, hard, say)
    weights = weights if answers is listed and weights is not None and not weights.unit else None
    known = known if answers is listed else None  # proven over the list: not over every allowed word
    w = weight_map(weights, answers)
    limit = None if full else live_max
    book = shipped_book(answers, guesses, hard) if weights is None else None  # proven without weights
    book = book if book is not None and book.max_guesses == max_guesses else None
    steps, learned = [], []

    # Past the first guess a position holds only answers its first feedback leaves: solving over those
    # (the same positions, the same values) keeps the instance small when every allowed word is an answer.
    narrowed = narrow(answers, history[:1], hard) if answers is guesses and history else answers

    def solve(before, first=None):
        over = narrowed if before else answers
        result = solve_guesses(over, guesses, after=before, first=first, hard=hard, max_guesses=max_guesses,
                               progress=progress, weights=restrict_weights(weights, answers, over))
        if result.status == "OPTIMAL":
            learned.append(Learned(tuple(before), result.first, result.total, result.tree, first is None))
        return result

    places = Places(answers, hard, w, known or {}, max_guesses)
    for i, (guess, pattern) in enumerate(history):
        before = history[:i]
        S = position_answers(answers, before, hard).words if before else answers.words
        split = word_classes(guess, S)
        left = split.get(pattern, ())
        if not left:
            raise ExactError(f"game: no answer of {answers.source} gives {format_pattern(pattern, len(guess))} "
                             f"to {guess!r} at guess {i + 1}")
        if say is not None:
            say(f"guess {i + 1}, {guess}: {len(S)} answer{'s' if len(S) != 1 else ''}")
        v = valuation(solve, before, guess, split, len(S), limit, book,
                      lambda: first_guess_values(answers, guesses, hard, max_guesses, book,
                                                 weights.sha256 if weights is not None else None, weights),
                      weigh(S, w) if w else None, places)
        check_best(v, guess, i + 1)
        steps.append(Step(i + 1, guess, pattern, len(S), len(left), v.played, v.best, v.best_first, v.scope,
                          sum(weigh(P, w) * len(P) for P in split.values()) / weigh(S, w), None, v.tree))
    analysis = Analysis(steps, answers, guesses, hard, max_guesses, limit, weights=weights, learned=learned)
    fill_expected_after(steps, answers, history, hard, w)
    if not steps[-1].solved and len(history) < max_guesses:
        found = next_valuation(history, position_answers(answers, history, hard).words, book, solve, limit,
                               places)
        if found is not None:
            analysis.next_best, analysis.next_guess = found
            steps[-1].expected_after = analysis.next_best.expected
    return analysis


@dataclass(frozen=True)
class Places:
    """The positions proven elsewhere (``known``, by the moves that reach them), valued as the analysis
    counts: totals from the game's first guess, weighted by ``w`` (None: every answer 1)."""

    answers: WordList
    hard: bool
    w: dict[str, int] | None
    known: Mapping[tuple, Proven]
    max_guesses: int = 6

    def best(self, before: tuple) -> tuple[str, Value] | None:
        """The best guess at the position after ``before`` and its value, when it is known."""
        found = self.known.get(tuple(before))
        if found is None:
            return None
        S = position_answers(self.answers, before, self.hard).words if before else self.answers.words
        weight = weigh(S, self.w) if self.w else None
        return found.guess, Value(found.total + len(before) * (weight or len(S)), len(S), found.how, weight=weight)

    def few(self, before: tuple, guess: str) -> Value | None:
        """``guess``'s value at a position of one or two answers, without a search (None: more answers, or the
        guess limit would bind): the guess solves the answer it names now; an answer it separates takes one
        more guess; two it leaves together take two more and three, the heavier first (naming an answer
        left keeps the hard-mode rule, so the best play below is the same in both modes)."""
        S = position_answers(self.answers, before, self.hard).words if before else self.answers.words
        weight = {a: (self.w or {}).get(a, 1) for a in S}
        if len(S) > 2:
            return None
        steps = {}
        for P in word_classes(guess, S).values():
            rest = sorted((a for a in P if a != guess), key=lambda a: -weight[a])  # stable: the first among equals
            steps.update({guess: 1} if guess in P else {}, **{a: 2 + j for j, a in enumerate(rest)})
        if max(steps.values()) > self.max_guesses - len(before):
            return None
        total = sum(weight[a] * (s + len(before)) for a, s in steps.items())
        return Value(total, len(S), "solved", weight=sum(weight.values()) if self.w else None)


def next_valuation(history: tuple, S, book, solve, limit: int | None,
                   places: Places | None = None) -> tuple[Value, str] | None:
    """A game not finished (given up): the best next guess and its value at the position after ``history``
    (``S`` its answers): the opener book's where it covers the position (at once), else a position proven
    elsewhere (``places``), else solved when at most ``limit`` answers are left, else None."""
    advice = lookup(book, history) if book is not None else None
    if advice is not None:
        total = advice.total + len(history) * len(S)  # counted from the game's first guess, as every value
        return Value(total, len(S), f"the opener book (after {advice.opener})"), advice.guess
    found = places.best(history) if places is not None else None
    if found is not None:
        return found[1], found[0]
    if limit is None or len(S) <= limit:
        r = solve(history)
        return _value(r, len(S)), r.first
    return None


def valuation(solve, before: tuple, guess: str, split: dict, n: int, limit: int | None, book,
              first_values, weight: int | None = None, places: Places | None = None) -> Valuation:
    """The played and best values at one position of n answers (of total ``weight`` under weights): the
    opener book's where it covers the position, a position proven elsewhere (``places``), the committed
    files' (``first_values()``, of the same weights) for a first guess too large to solve, else solved."""
    advice = lookup(book, before) if book is not None and before else None
    if advice is not None:
        best = Value(advice.total + len(before) * n, n, f"the opener book (after {advice.opener})")
        return known_valuation(advice.guess, best, solve, before, guess, n, limit)
    found = places.best(before) if places is not None else None
    if found is not None:
        if not before and guess != found[0] and max(len(P) for P in unknown_classes(guess, split, places)) == 0:
            return Valuation(class_by_class(solve, guess, split, places), found[1], found[0],
                             "proven best at this position", None)  # every class of the first guess is known
        if guess != found[0] and (few := places.few(before, guess)) is not None:
            return Valuation(few, found[1], found[0], "proven best at this position", None)
        return known_valuation(*found, solve, before, guess, n, limit)
    if limit is not None and n > limit and not before:
        return live_first_guess(certified_valuation(guess, n, first_values(), limit, weight), solve, guess, split,
                                limit, places)
    if limit is not None and n > limit:
        return certified_valuation(guess, n, NO_VALUES, limit)
    return solved_valuation(solve, before, guess, n)


NO_VALUES = FirstGuessValues({}, {}, None, None)


def check_best(v: Valuation, guess: str, number: int) -> None:
    """A played guess worth less than the best claimed at its position would be a negative loss: the best
    claimed is not the best, a broken invariant (an InternalError: a claimed optimum that is not one, such as
    a worse subtree in an opener book), never a number to print."""
    if v.played.total is not None and v.best.total is not None and v.played.total < v.best.total:
        raise InternalError(f"guess {number}, {guess}: its exact total {v.played.total} ({v.played.how}) is below "
                            f"{v.best.total}, the best claimed ({v.best_first}, {v.best.how}; {v.scope}): the claimed "
                            f"optimum is not one")


def narrow(answers: WordList, history: tuple, hard: bool) -> WordList:
    """The answers left after ``history``, as a list of their own."""
    left = position_answers(answers, history, hard)
    return words_from_lines(left.words, f"{answers.source} after {' '.join(g for g, _ in history)}")


def known_valuation(best_guess: str, best: Value, solve, before: tuple, guess: str, n: int,
                    limit: int | None) -> Valuation:
    """A position whose best guess and value are known (the opener book, a position proven elsewhere):
    the played guess is that value when it is the best guess, else solved here when small enough."""
    if guess == best_guess:
        return Valuation(best, best, best_guess, "proven best at this position", None)
    if limit is None or n <= limit:
        played_result = solve(before, guess)
        return Valuation(_value(played_result, n), best, best_guess, "proven best at this position",
                         played_result.tree)
    why = f"not computed: {n} answers > {limit} (full analysis: minutes or more)"
    return Valuation(Value(None, n, why), best, best_guess, "proven best at this position", None)


def live_first_guess(v: Valuation, solve, guess: str, split: dict, limit: int,
                     places: Places | None = None) -> Valuation:
    """A first guess the committed files do not value exactly, solved here when its largest class not proven
    elsewhere (``places``) has at most ``limit`` answers (then each class is a later position ``analyse``
    solves anyway: about a minute or less on 2 cores; a poor opener's large classes take an hour or more,
    and keep the files' bound)."""
    if v.played.total is not None or max(len(P) for P in unknown_classes(guess, split, places)) > limit:
        return v
    if places is not None and places.known:
        played, tree = class_by_class(solve, guess, split, places), None
    else:
        result = solve((), guess)
        played, tree = _value(result, v.played.n), result.tree
    if (played.total is not None and v.best.total is not None and played.total < v.best.total
            and not v.scope.startswith("proven")):  # better than every file's: the best known is the one played
        return Valuation(played, played, guess, f"{v.scope}; the guess played, solved here, is better", tree)
    return Valuation(played, v.best, v.best_first, v.scope, tree)


def unknown_classes(guess: str, split: dict, places: Places | None) -> list:
    """The classes of the first guess ``guess`` (``split``: pattern -> answers) no other proof values; [()]
    when none (so that their largest is 0)."""
    green = all_green(len(guess))
    return [P for p, P in split.items() if p != green
            and (places is None or places.best(((guess, p),)) is None)] or [()]


def class_by_class(solve, guess: str, split: dict, places: Places) -> Value:
    """The first guess's value as the sum of its classes' (they are independent): each class's best total,
    proven elsewhere (``places``) or solved here; the green class is the guess itself, solved at guess 1."""
    green, w = all_green(len(guess)), places.w
    total = sum(weigh(P, w) for p, P in split.items() if p == green)
    for p, P in split.items():
        if p != green:
            found = places.best(((guess, p),))
            value = found[1] if found is not None else _value(solve(((guess, p),)), len(P))
            if value.total is None:
                return Value(None, sum(len(P) for P in split.values()), value.how)
            total += value.total
    S = [a for P in split.values() for a in P]
    return Value(total, len(S), "solved", weight=weigh(S, w) if w else None)


def _value(result, n: int) -> Value:
    if result.status == "OPTIMAL" and result.total is not None:
        return Value(result.total, n, "solved", weight=result.weight if result.weights else None)
    return Value(None, n, f"no strategy solves every answer within {result.max_guesses} guesses"
                 if result.status == "INFEASIBLE" else f"not proven ({result.status})")


def _tree_total(tree: Tree, words, t: int, w: dict[str, int] | None = None) -> int:
    """The total guesses (from the game's start) the tree takes on ``words``, its root played at step t
    (each word's guesses times its weight ``w``)."""
    total = 0
    for word in words:
        node, step = tree, t
        while node.guess != word:
            node, step = node.children[feedback(node.guess, word)], step + 1
        total += step * (w[word] if w else 1)
    return total


def weigh(words, w: dict[str, int] | None) -> int:
    """W(words): their total weight (their number without weights)."""
    return sum(w[a] for a in words) if w else len(words)


# --- printing -----------------------------------------------------------------------------------

def game_summary(analysis: Analysis) -> str:
    """The game in one line a player reads: its length, the best play's expected length from the start, the
    guesses its choices cost against that, and what luck gave or took. They add up: the guesses played are
    the best play's expected guesses, plus the choices' cost, less the luck (each guess's value is the best
    one's plus its loss, and the next position's best is that value less the feedback's luck). A value not
    known exactly leaves its part out, said so ("at least" where a bound gives it)."""
    steps = analysis.steps
    best = steps[0].best.expected
    n = len(steps)
    head = f"Solved in {n} guess{'es' if n != 1 else ''}" if analysis.solved else \
        f"Given up after {n} guess{'es' if n != 1 else ''}"
    if best is None:
        return f"{head}; the best play from the start is not known here, so neither is what the choices cost."
    losses = [s.extra for s in steps]
    floors = [s.extra if s.extra is not None else (s.played.expected_at_least - s.best.expected
              if s.played.expected_at_least is not None and s.best.expected is not None else None) for s in steps]
    if all(x is not None for x in losses):
        cost = sum(losses)
        choices = "every choice was the best one" if abs(cost) < 5e-4 else f"your choices cost {cost:.2f} guesses"
    elif all(x is not None for x in floors):
        choices = f"your choices cost at least {sum(floors):.2f} guesses (some are known only as bounds)"
    else:
        choices = "what some choices cost is not computed"
    lucks = [s.luck for s in steps]
    if all(x is not None for x in lucks) and (analysis.solved or analysis.next_best is not None):
        luck = sum(lucks)
        told = "luck evened out" if abs(luck) < 5e-4 else (f"luck saved you {luck:.2f}" if luck > 0
                                                          else f"luck cost you {-luck:.2f}")
    else:
        told = "luck is not computed for every guess"
    return f"{head}: the best play expects {best:.2f} guesses from the start; {choices}; {told}."


def analysis_lines(analysis: Analysis, notation: str = "letters") -> list[str]:
    """The text ``exact wordle analyse`` prints: one line per guess, then a summary and what is exact."""
    def num(x, width=6):
        return f"{x:{width}.3f}" if x is not None else " " * (width - 1) + "-"

    def signed(x):
        return f"{x:+.3f}" if x is not None else "     -"

    out = ["  # guess  feedback  answers  expected   best  best guess  extra    luck"]
    for s in analysis.steps:
        played = num(s.played.expected, 7) if s.played.at_least is None else f">={s.played.expected_at_least:.3f}"
        out.append(f"{s.number:3d} {s.guess}  {format_pattern(s.pattern, len(s.guess), notation)}  "
                   f"{s.before:5d}>{s.after:<5d} {played} {num(s.best.expected)}  "
                   f"{(s.best_guess or '-'):10s} {signed(s.extra):>6s}  {signed(s.luck):>6s}")
    total_extra = [s.extra for s in analysis.steps]
    if all(x is not None for x in total_extra):
        out.append(f"guesses cost beyond the best, in expected guesses: {sum(total_extra):.3f}; "
                   f"luck: {sum(s.luck for s in analysis.steps if s.luck is not None):+.3f}")
    out.append(game_summary(analysis))
    if analysis.solved:
        n = len(analysis.steps)
        out.append(f"solved in {n} guess{'es' if n != 1 else ''}")
    elif analysis.next_guess is not None:
        out.append(f"not solved yet: best next guess {analysis.next_guess}, expected guesses "
                   f"{analysis.next_best.expected:.3f}")
    for s in analysis.steps:
        if s.played.how != "solved" or s.best.how != "solved":
            best = s.best.how if s.best.total is None else f"{s.best.how}, {s.best_scope}"
            out.append(f"guess {s.number}: played: {s.played.how}; best: {best}")
    likely = (f"each answer left as likely as its weight in {analysis.weights.source}" if analysis.weights is not None
              else "each answer left equally likely")
    out.append(f"expected: the game's expected length (guesses from the first), {likely}, "
               "the rest played optimally (exact); extra: expected guesses lost to the best guess; luck: expected "
               "guesses before the feedback - after it (positive: lucky)")
    return out
