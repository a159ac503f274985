"""``exact lingo play``: a fixed Lingo set played in the terminal, the consistent words after each guess."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import click

from exact import stop
from exact.cli.common import NOTATION_HELP, read_line, squares, show_words, words_option
from exact.errors import ExactError
from exact.feedback import feedback, parse_pattern
from exact.fileio import read_json
from exact.game.position import word_classes
from exact.lingo.score import score_guesses
from exact.words import WordList, check_words, enable_words, load_or_default, read_words, require_in_pool


def read_set(text: str, pool_length: int | None) -> tuple[tuple[str, ...], str | None]:
    """The fixed guesses from WORDS (space or comma separated), a result JSON, or a word-list file;
    also the pool path a result file names (or None)."""
    path = Path(text)
    if path.suffix == ".json" or path.is_file():
        if path.suffix == ".json":
            data = read_json(path, "Lingo result")
            if not isinstance(data, dict) or not isinstance(data.get("guesses"), list):
                raise ExactError(f"{path}: not a Lingo result (no 'guesses' list)")
            words = data["guesses"]
            return check_words(words, len(words[0]), str(path)), data.get("words")
        return read_words(path).words, None
    words = text.replace(",", " ").split()
    if not words:
        raise ExactError("--set: give the fixed guesses (words, a result .json, or a file)")
    return check_words(words, pool_length or len(words[0]), "--set"), None


@click.command("play")
@click.option("--set", "set_text", required=True, metavar="FILE|WORDS",
              help="The fixed guesses: words ('blink chomp gudes warty'), a result .json, or a list file.")
@words_option("--words", "The pool [default: the pool a result file names, else the vendored 8636 ENABLE words].")
@click.option("--answer", default=None, metavar="WORD", help="Play against WORD and print the game.")
@click.option("--show", type=click.IntRange(min=0), default=30, show_default=True,
              help="List the consistent words when at most this many.")
@click.option("--notation", type=click.Choice(["emoji", "letters", "digits"]), default="emoji",
              show_default=True, help="How feedback is printed.")
def lingo_play(set_text, words, answer, show, notation):
    """Play a fixed Lingo set: the first letter, the feedback of each guess, the consistent words.

    At the end the player picks uniformly among the consistent words: the win probability of the pick
    is 1 / (their number). Feedback that no word of the pool gives is refused and asked again.
    """
    try:
        lingo_session(set_text, words, answer, show, notation)
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(stop.exit_code())


def lingo_session(set_text, words, answer, show, notation):
    played = session_set(set_text, words)
    pool, guesses = played.pool, played.guesses
    if answer is not None:
        (answer,) = check_words([answer], pool.length, "--answer")
    if answer is None:
        click.echo(f"Type the first letter, then the feedback of each guess ({NOTATION_HELP}); q quits.")
    letter = answer[0] if answer else read_first_letter()
    if letter is None:
        return
    candidates = tuple(w for w in pool.words if w[0] == letter)
    click.echo(f"first letter {letter}: {len(candidates)} words")
    if not candidates:
        click.echo(f"no word of {pool.source} starts with {letter!r}: the answer is not in the pool")
        sys.exit(1)
    for i, g in enumerate(guesses, start=1):
        possible = word_classes(g, candidates)
        pattern = read_guess_feedback(g, f"guess {i} of {len(guesses)}", possible, answer, pool, letter, notation)
        if pattern is None:
            return
        candidates = possible[pattern]
        click.echo(f"{squares(pattern, pool.length, notation)}  {g}   {len(candidates)} consistent")
    n = len(candidates)
    click.echo(f"consistent words ({n}): {show_words(candidates, show)}")
    click.echo(f"pick one at random: P(win) = 1/{n} = {1 / n:.2%}")
    if answer is not None and answer not in candidates:
        click.echo(f"{answer!r} is not in {pool.source}, so no pick can win")
        sys.exit(1)
    if answer is not None:
        click.echo(f"the answer {answer} is {'the only' if n == 1 else 'one of the'} consistent word{'s' if n > 1 else ''}")


@dataclass(frozen=True)
class SessionSet:
    """The pool played in and the fixed guesses, checked against it."""

    pool: WordList
    guesses: tuple[str, ...]


def session_set(set_text, words) -> SessionSet:
    """The set to play (``--set``) and its pool (``--words``, else the one a result file names, else
    the default), with the set's score echoed."""
    guesses, named_pool = read_set(set_text, None)
    if words is None and named_pool and Path(named_pool).is_file():
        pool = read_words(named_pool)
    else:
        pool = load_or_default(words, enable_words)
    guesses = check_words(guesses, pool.length, "--set")
    require_in_pool(guesses, pool)
    score = score_guesses(pool, guesses)
    click.echo(f"pool: {pool.source} ({len(pool)} words); guesses: {' '.join(guesses)}; "
               f"P(win) = {score.wins}/{score.n} = {score.probability:.2%}")
    return SessionSet(pool, guesses)


def read_first_letter() -> str | None:
    """The answer's first letter as typed (asked again until it is one letter a-z); None: quit."""
    while True:
        letter = read_line("first letter> ")
        if letter is None or letter.strip().lower() in ("q", "quit"):
            click.echo("bye")
            return None
        letter = letter.strip().lower()
        if len(letter) == 1 and "a" <= letter <= "z":
            return letter
        click.echo("not understood: type one letter a-z")


def read_guess_feedback(g: str, which: str, possible: dict, answer: str | None, pool: WordList, letter: str,
                        notation: str) -> int | None:
    """The feedback of ``g``: computed from ``answer`` if given (exit 1 when no word of the pool gives
    it), else typed, asked again until some candidate gives it; None: quit."""
    while True:
        if answer is not None:
            pattern = feedback(g, answer)
        else:
            line = read_line(f"feedback for {g} ({which})> ")
            if line is None or line.strip().lower() in ("q", "quit"):
                click.echo("bye")
                return None
            try:
                pattern = parse_pattern(line, pool.length)
            except ExactError as e:
                click.echo(f"not understood: {e}")
                continue
        if pattern in possible:
            return pattern
        if answer is not None:
            click.echo(f"{squares(pattern, pool.length, notation)}  {g}")
            click.echo(f"{answer!r} is not in {pool.source}: no word of the pool gives this feedback")
            sys.exit(1)
        click.echo(f"refused: no word of the pool starting with {letter!r} and consistent so far gives "
                   f"{squares(pattern, pool.length, 'digits')} to {g}; check the colours")
