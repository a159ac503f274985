"""A card a person can learn: a memorable depth-3 strategy (:mod:`exact.wordle.study.memorable`) laid out to
be remembered, with the value it is certified to win.

The strategy. Play the first guess; after its feedback play the second guess the card names for that
feedback (one of at most M words); then play, as the third guess, any answer of the list consistent with
both feedbacks. The count is the one :mod:`exact.wordle.study.memorable` certifies: the first guess wins when it
is the answer; on a first-feedback class P the second guess g wins ``w(P, g)``, the number of feedback
classes g makes on P (its own all-green class at guess 2 when g is in P; one answer of each other
class at guess 3, the one the third guess names). Whichever consistent answer the third guess names,
exactly one answer of each such class is won, so every player who follows the card wins the same
number of answers; the third guess is sure to win only where one answer is consistent.

Data types, stated once:

- a *row* (:class:`Row`): one first-feedback pattern (a code, ``sum(fb[i] * 3**i)``), how many answers
  give it, and how many of them the card wins within three guesses;
- a *group* (:class:`Group`): a second guess and the rows that lead to it, in the card's order;
- a :class:`Card`: the first guess, its groups (the *default* group, the one with the most rows, last:
  the card reads "otherwise play ..."), the wins, the upper bound and its status (OPTIMAL only when the
  solve proved that no strategy with this first guess and at most M second guesses wins more), and the
  lists it was made on (:func:`exact.words.lists_record`). As JSON: :meth:`Card.to_json`, read back by
  :func:`read_card`.

The order a person can remember. A class may be served equally well by several of the M guesses; it is
given to the group that is best on the most classes first (so the default group takes every class it
ties on and the exceptions to learn are as few as possible). Inside a group the rows are ordered by the
letters of the first guess they find (green or yellow), fewest first, then by which of them are green.

>>> from exact.words import words_from_lines
>>> A = words_from_lines("quack quail quake qualm quart quash quasi queen queer quell query quest".split())
>>> card = card_of_selection(A, A, "quest", ["quail", "queer"], M=2, status="OPTIMAL", bound=len(A))  # wins all
>>> card.wins, [(g.guess, len(g.rows)) for g in card.groups]
(12, [('queer', 1), ('quail', 4)])
>>> sum(r.wins for g in card.groups for r in g.rows) + card.first_wins == card.wins
True
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from exact.errors import ExactError
from exact.feedback import GREEN, YELLOW, all_green, compute_feedback_matrix, format_pattern, parse_pattern
from exact.fileio import check_fields, read_json
from exact.game.tree import Tree, check_tree_lists, record_lists
from exact.partitions import classes
from exact.progress import say
from exact.wordle.study.memorable import solve_memorable
from exact.words import WordList, check_answers_are_guesses, lists_record, require_in_pool, shipped_result

#: The committed memorable curve a card reuses when one of its points matches (same lists, first guess, M).
CURVE = "results/wordle/memorable-curve.json"
FORMAT = "exact wordle card"


@dataclass(frozen=True)
class Row:
    pattern: int  # the first guess's feedback
    answers: int  # how many answers give it
    wins: int  # how many of those the card wins within three guesses


@dataclass
class Group:
    guess: str  # the second guess
    rows: list[Row]  # the first feedbacks that lead to it, in the card's order


@dataclass
class Card:
    first: str
    M: int
    wins: int  # answers won within three guesses by following the card
    bound: int  # no strategy with this first guess and at most M second guesses wins more
    status: str  # OPTIMAL (wins == bound, proven) or FEASIBLE
    n: int
    first_wins: int  # 1 when the first guess is an answer (won at guess 1), else 0
    groups: list[Group]  # the default group (most rows) last
    lists: dict = field(default_factory=dict)
    source: str = ""  # where the selection and its bound come from

    @property
    def probability(self) -> float:
        return self.wins / self.n

    def second_guess(self, pattern: int) -> str | None:
        """The second guess after the first feedback ``pattern`` (None after all green or a pattern no answer gives)."""
        return next((g.guess for g in self.groups for r in g.rows if r.pattern == pattern), None)

    def to_json(self) -> dict:
        length = len(self.first)
        return {"format": FORMAT, "first": self.first, "M": self.M, "wins": self.wins, "bound": self.bound,
                "status": self.status, "n": self.n, "probability": round(self.probability, 6),
                "first_wins": self.first_wins, "lists": self.lists, "source": self.source,
                "third_guess": THIRD_GUESS,
                "groups": [{"guess": g.guess, "rows": [{"pattern": format_pattern(r.pattern, length),
                                                        "answers": r.answers, "wins": r.wins} for r in g.rows]}
                           for g in self.groups]}


THIRD_GUESS = ("Third guess: an answer of the list consistent with both feedbacks: the only one when one is "
               "left (a sure win), else any of them. The count credits one win for each feedback the second "
               "guess can give (the second guess itself when it is the answer, else the one answer the third "
               "guess names), so every consistent choice wins the same total.")


# --- Building a card -----------------------------------------------------------------------------

def found_key(pattern: int, length: int) -> tuple:
    """The card's order of first feedbacks: letters found (green or yellow) fewest first, then which
    positions found them, then which of those are green."""
    digits = [(pattern // 3**i) % 3 for i in range(length)]
    found = tuple(i for i, d in enumerate(digits) if d in (GREEN, YELLOW))
    greens = tuple(i for i, d in enumerate(digits) if d == GREEN)
    return len(found), found, greens


def card_of_selection(answers: WordList, guesses: WordList, first: str, second: list[str], *, M: int,
                      status: str, bound: int, source: str = "") -> Card:
    """The card of a memorable selection: each first-feedback class plays the best of the ``second``
    guesses on it, ties going to the guess best on the most classes."""
    check_answers_are_guesses(answers, guesses)
    require_in_pool([first], guesses, "first guess")
    require_in_pool(list(second), guesses, "second guess")
    if not second:
        raise ExactError("a card needs at least one second guess")
    words = [first] + list(second)
    F = compute_feedback_matrix(words, answers.words)  # (1 + len(second), n): only the rows the card plays
    length, green = answers.length, all_green(answers.length)
    first_row = F[0]
    patterns = sorted({int(p) for p in first_row} - {green})
    members = [np.flatnonzero(first_row == p) for p in patterns]
    # W[c, s]: the feedback classes second guess s makes on class c (the wins it scores there)
    W = np.array([[len(np.unique(F[1 + s, P])) for s in range(len(second))] for P in members], dtype=np.int64)
    best = W.max(axis=1)
    serves = W == best[:, None]
    order = sorted(range(len(second)), key=lambda s: (-int(serves[:, s].sum()), s))
    chosen = [next(s for s in order if serves[c, s]) for c in range(len(patterns))]
    groups = []
    for s in order:
        rows = [Row(p, len(P), int(W[c, s])) for c, (p, P) in enumerate(zip(patterns, members)) if chosen[c] == s]
        if rows:
            groups.append(Group(second[s], sorted(rows, key=lambda r: found_key(r.pattern, length))))
    groups.reverse()  # the default (most rows) last
    first_wins = int(green in set(first_row.tolist()))
    wins = first_wins + int(best.sum())
    if wins > bound or (status == "OPTIMAL") != (wins == bound):
        raise ExactError(f"second guesses {' '.join(second)} win {wins}: not {status} with bound {bound}")
    return Card(first, M, wins, bound, status, len(answers), first_wins, groups,
                lists_record(answers, guesses), source)


def card_from_curve(answers: WordList, guesses: WordList, first: str, M: int, curve_path=None) -> Card | None:
    """The card of a committed curve point for these lists, first guess and M, or None when there is
    none; a point whose selection does not win what it records is an error, and so is a ``curve_path``
    given that is missing or not a curve (the committed curve, absent from an installation, is skipped)."""
    path = Path(curve_path) if curve_path is not None else shipped_result(CURVE)
    if curve_path is None and (path is None or not path.is_file()):
        return None
    data = read_json(path, "memorable curve")
    if not isinstance(data, dict):
        raise ExactError("not a memorable curve (exact wordle memorable --curve writes one)", path=str(path))
    check_fields(data, {"problem": "str", "first": "str", "points": "list", "answers": "dict", "guesses": "dict"},
                 source=str(path))
    if data.get("first") != first:
        return None
    if ((data.get("answers") or {}).get("sha256"), (data.get("guesses") or {}).get("sha256")) != \
            (answers.sha256, guesses.sha256):
        return None
    point = next((p for p in data.get("points", []) if isinstance(p, dict) and p.get("M") == M), None)
    if point is None:
        return None
    check_fields(point, {"wins": "int", "bound": "int", "status": "str", "second_guesses": "list"},
                 source=str(path), where=f"point M = {M}")
    card = card_of_selection(answers, guesses, first, point["second_guesses"], M=M, status=point["status"],
                             bound=point["bound"], source=f"{path.name} (M = {M})")
    if card.wins != point["wins"]:
        raise ExactError(f"M = {M}: its second guesses win {card.wins}, not the {point['wins']} it records",
                         path=str(path))
    return card


def card_of_result(result, answers: WordList, guesses: WordList) -> Card:
    """The card of a :class:`~exact.wordle.study.memorable.MemorableResult` (its status and bound kept)."""
    card = card_of_selection(answers, guesses, result.first, result.second_guesses, M=result.M,
                             status=result.status, bound=result.bound,
                             source=f"solved now ({result.seconds:.1f} s, {result.workers} CP-SAT workers)")
    if card.wins != result.wins:
        raise ExactError(f"the card wins {card.wins}, the solve {result.wins}: they must agree")
    return card


def make_card(answers: WordList, guesses: WordList, first: str, M: int, *, time_limit=60, workers: int = 2,
              curve_path=None) -> tuple[Card, bool]:
    """(the card for at most M second guesses after ``first``, whether the solve was interrupted): from
    the committed curve when it has the point, else solved by :func:`exact.wordle.study.memorable.solve_memorable`."""
    if M < 1:
        raise ExactError(f"M must be at least 1, not {M}")
    check_answers_are_guesses(answers, guesses)
    require_in_pool([first], guesses, "first guess")
    card = card_from_curve(answers, guesses, first, M, curve_path)
    if card is not None:
        return card, False

    say(f"no committed curve point for first guess {first}, M = {M} on these lists: solving it (on the original "
        f"lists trace took 16 s for M = 1 and 73 s for M = 2 on 2 cores)")
    result = solve_memorable(answers, guesses, first, M, time_limit=time_limit, workers=workers)
    return card_of_result(result, answers, guesses), result.interrupted


# --- Reading a card and playing it ---------------------------------------------------------------

def read_card(path) -> Card:
    """A card written by :meth:`Card.to_json` (a one-line error naming the file and the field)."""
    source = str(path)
    data = read_json(path, "card")
    check_fields(data, {"format": "str", "first": "str", "M": "int", "wins": "int", "bound": "int",
                        "status": "str", "n": "int", "first_wins": "int", "groups": "list"},
                 {"lists": "dict", "source": "str"}, source=source)
    if data["format"] != FORMAT:
        raise ExactError(f"not a card (format {data['format']!r}, want {FORMAT!r})", path=source)
    groups = []
    for i, g in enumerate(data["groups"]):
        check_fields(g, {"guess": "str", "rows": "list"}, source=source, where=f"group {i + 1}")
        rows = []
        for j, r in enumerate(g["rows"]):
            where = f"group {i + 1} ({g['guess']}), row {j + 1}"
            check_fields(r, {"pattern": "str", "answers": "int", "wins": "int"}, source=source, where=where)
            try:
                rows.append(Row(parse_pattern(r["pattern"], len(data["first"]), "digits"), r["answers"], r["wins"]))
            except ExactError as e:
                raise ExactError(f"{where}: {e}", path=source) from None
        groups.append(Group(g["guess"], rows))
    return Card(data["first"], data["M"], data["wins"], data["bound"], data["status"], data["n"],
                data["first_wins"], groups, data.get("lists") or {}, data.get("source", ""))


def card_tree(card: Card, answers: WordList, guesses: WordList, name: str = "the card") -> Tree:
    """The card as a depth-3 tree on these lists: the first guess; after each first feedback the card's
    second guess; after each second feedback the first consistent answer in list order. A card made on
    other lists, one that misses or repeats a first feedback these answers give, has more than M second
    guesses or claims other wins than its guesses win, is refused."""
    if card.lists:
        check_tree_lists(Tree(card.first, card.n, {}, {"lists": card.lists}), answers, guesses, name)
    words = [card.first] + [g.guess for g in card.groups]
    for w in words:
        if w not in guesses.index:
            raise ExactError(f"{name}: {w!r} is not in {guesses.source}")
    F = compute_feedback_matrix(words, answers.words)
    green = all_green(answers.length)
    given = sorted({int(p) for p in F[0]} - {green})
    listed = [r.pattern for g in card.groups for r in g.rows]
    if sorted(listed) != given:
        missing = sorted(set(given) - set(listed))
        what = (f"no second guess after {format_pattern(missing[0], answers.length)}" if missing
                else "a first feedback listed twice or one no answer gives")
        raise ExactError(f"{name}: {what} (first guess {card.first}, {answers.source})")
    if len(card.groups) > card.M:
        raise ExactError(f"{name}: {len(card.groups)} second guesses, more than its M = {card.M}")
    children, wins = {}, int(green in F[0])
    for s, group in enumerate(card.groups, start=1):
        for row in group.rows:
            P = np.flatnonzero(F[0] == row.pattern)
            split = classes(F, s, P)
            wins += len(split)  # its all-green class at guess 2, one answer of each other class at guess 3
            below = {p: Tree(answers.words[int(Q.min())], len(Q), {}) for p, Q in split.items() if p != green}
            children[row.pattern] = Tree(group.guess, len(P), dict(sorted(below.items())))
    if wins != card.wins:
        raise ExactError(f"{name}: it claims {card.wins} wins within 3, its guesses win {wins} on {answers.source}")
    return record_lists(Tree(card.first, len(answers), dict(sorted(children.items()))), answers, guesses)


# --- The card as text and as a page --------------------------------------------------------------

def value_line(card: Card) -> str:
    """What following the card is worth, with its status (OPTIMAL only when proven)."""
    line = (f"Following this card wins {card.wins} of {card.n} answers within 3 guesses: "
            f"P(win within 3) = {card.probability:.2%}")
    if card.status == "OPTIMAL":
        return line + (f" (OPTIMAL: proven best with first guess {card.first} and at most {card.M} "
                       f"second guess{'es' if card.M > 1 else ''})")
    return line + f" (FEASIBLE: no such card wins more than {card.bound})"


def found_letters(first: str, pattern: int) -> str:
    """The letters of ``first`` a feedback finds, upper case green, lower case yellow, '-' for none."""
    found = [(c.upper() if d == GREEN else c) for i, c in enumerate(first)
             if (d := (pattern // 3**i) % 3) in (GREEN, YELLOW)]
    return "".join(found) or "-"


def group_heading(card: Card, i: int) -> str:
    group = card.groups[i]
    size = f"{len(group.rows)} feedbacks, {sum(r.answers for r in group.rows)} answers"
    if i < len(card.groups) - 1:
        return f"Play {group.guess.upper()} after these {size.replace(', ', ' (', 1)})"
    return f"{'Otherwise' if len(card.groups) > 1 else 'After any feedback'} play {group.guess.upper()} ({size})"


def card_text(card: Card) -> str:
    """The card as plain text (what the command prints)."""
    length = len(card.first)
    lines = [f"First guess: {card.first.upper()}", value_line(card)]
    for i, group in enumerate(card.groups):
        lines.append(group_heading(card, i) + ("" if i == len(card.groups) - 1 else ":"))
        if i < len(card.groups) - 1:
            lines += [f"  {format_pattern(r.pattern, length, 'letters')}  found {found_letters(card.first, r.pattern)}"
                      for r in group.rows]
    lines.append(THIRD_GUESS)
    return "\n".join(lines)


def card_html(card: Card) -> str:
    """The card as a self-contained HTML page (inline CSS, no scripts, nothing fetched)."""
    colour = {0: "#787c7e", 1: "#c9b458", 2: "#6aaa64"}

    def tiles(pattern: int) -> str:
        return "".join(f'<span class="t" style="background:{colour[(pattern // 3**i) % 3]}">{c.upper()}</span>'
                       for i, c in enumerate(card.first))

    parts = [f"<h1>Wordle card: {html.escape(card.first.upper())}, then at most {card.M} second "
             f"guess{'es' if card.M > 1 else ''}</h1>", f"<p class='v'>{html.escape(value_line(card))}</p>",
             f"<p>1. Play <b>{html.escape(card.first.upper())}</b>.</p><p>2. Read its colours:</p>"]
    for i, group in enumerate(card.groups):
        parts.append(f"<h2>{html.escape(group_heading(card, i))}</h2>")
        if i < len(card.groups) - 1:
            parts.append('<div class="g">' + "".join(
                f'<div class="r">{tiles(r.pattern)}<small>{html.escape(found_letters(card.first, r.pattern))}'
                f'</small></div>' for r in group.rows) + "</div>")
    parts.append(f"<p>3. {html.escape(THIRD_GUESS)}</p>")
    lists = card.lists.get("list") or f"{card.lists.get('answers_count', card.n)} answers"
    parts.append(f"<p class='s'>Lists: {html.escape(str(lists))}; source: {html.escape(card.source)}. "
                 f"Colours: green = right place, yellow = in the word elsewhere, gray = not (more).</p>")
    style = ("body{font-family:sans-serif;max-width:60em;margin:1em auto}h1{font-size:1.4em}h2{font-size:1.1em}"
             ".g{display:flex;flex-wrap:wrap;gap:.4em}.r{display:flex;align-items:center;gap:1px}"
             ".t{display:inline-block;width:1.3em;text-align:center;color:#fff;font-weight:bold}"
             "small{margin-left:.3em;color:#555}.v{font-weight:bold}.s{color:#666;font-size:.8em}")
    return (f"<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>Wordle card "
            f"{html.escape(card.first)} M={card.M}</title><style>{style}</style></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")
