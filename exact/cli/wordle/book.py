"""``exact wordle book``: the opener book, built opener by opener (the book is :mod:`exact.wordle.study.book`)."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import ANSWERS_HELP, GUESSES_HELP, check_outputs, exit_interrupted, list_answers, list_guesses
from exact.cli.common import guess_limit, words_option
from exact.errors import ExactError
from exact.wordle.study.book import book_file, build_book, read_book
from exact.words import load_or_default, read_words


@click.command("book")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--hard", is_flag=True, help="Hard mode: every guess must use the hints so far.")
@click.option("--openers", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The openers, one word a line (# comments), built in this order "
                   "(instances/wordle/openers.txt: the openers players use most, with its source).")
@click.option("--max-guesses", type=guess_limit(1), default=6, show_default=True,
              help="Every answer must be solved within this many guesses.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The book file (gzip'd JSON) [default: results/wordle/book/LIST[-hard].json.gz]. An existing "
                   "book of the same lists and mode is resumed: its openers are kept, the others added.")
def book(answers, guesses, hard, openers, max_guesses, out):
    """Build the opener book: the proven fewest-guesses tree after each opener, written after each one
    (a kill loses at most the opener in progress; Ctrl-C keeps what is done; the same command resumes).

    `exact wordle play` and `exact wordle analyse` answer at once from the committed book after any of its
    openers.
    """
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    out = out or Path(book_file(answer_list, guess_list, hard))
    check_outputs(out)
    if out.is_dir():
        raise ExactError("is a directory, not an opener book", path=str(out))
    resume = read_book(out, answer_list, guess_list, hard) if out.exists() else None
    if resume is not None:
        click.echo(f"resuming {out}: {len(resume.openers)} openers done", err=True)
    result = build_book(answer_list, guess_list, read_words(openers).words, hard=hard, max_guesses=max_guesses,
                        out=out, resume=resume)
    for entry in result.openers.values():
        click.echo(f"{entry.word}  {entry.total}  mean {entry.mean:.4f}")
    click.echo(f"wrote {out}: {len(result.openers)} openers")
    if result.interrupted:
        exit_interrupted()
