"""``exact wordle card``: a card a person can learn (the card is :mod:`exact.wordle.study.card`)."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import (ANSWERS_HELP, GUESSES_HELP, check_outputs, exit_interrupted, list_answers,
                              list_guesses, words_option, write_all)
from exact.cli.common import seconds
from exact.errors import ExactError
from exact.fileio import write_json, write_text
from exact.words import check_words, load_or_default

SUFFIXES = (".png", ".svg", ".html", ".json")


@click.command("card")
@click.option("--max-distinct-second", "M", type=click.IntRange(min=1), required=True,
              help="At most this many distinct second guesses on the card.")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--first", default=None, metavar="WORD", help="The first guess [default: trace].")
@click.option("--curve", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Reuse this curve of `exact wordle memorable --curve` when it has the point (same lists, first "
                   "guess and M) [default: the committed results/wordle/memorable-curve.json].")
@click.option("--time-limit", type=seconds(0.1, open=False), default=60, show_default=True,
              help="Seconds per CP-SAT call, when the card must be solved.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="CP-SAT worker threads.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), multiple=True, required=True,
              help="Write the card here (repeatable): .png, .svg or .html (one page), or .json (what "
                   "`exact wordle play --card` plays).")
def card(M, answers, guesses, first, curve, time_limit, workers, out):
    """Write a card a person can learn: the first guess, the M second guesses with the first feedbacks
    that lead to each, the proven P(win within 3) of following it, and the third-guess rule.

    A point of the committed memorable curve is reused (seconds); any other is solved with
    `exact wordle memorable` (trace on the original lists: M = 1 about 16 s, M = 2 about 73 s on 2
    cores; from M = 3 the result may be FEASIBLE, with its bound printed).
    """
    from exact.wordle.study import card as cards  # lazy: start-up (measured 0.55 s, ortools)
    from exact.wordle.study.memorable import DEFAULT_FIRST  # lazy: start-up (measured 0.53 s, ortools)

    for path in out:
        if path.suffix not in SUFFIXES:
            raise ExactError(f"--out {path}: write {', '.join(SUFFIXES)}")
    check_outputs(*out)
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    first = check_words([first], guess_list.length, "--first")[0] if first else DEFAULT_FIRST
    the_card, interrupted = cards.make_card(answer_list, guess_list, first, M, time_limit=time_limit,
                                            workers=workers, curve_path=curve)
    failed = write_all([lambda path=path: write_card(the_card, path) for path in out])
    click.echo(cards.card_text(the_card))
    if not failed:
        click.echo("wrote " + ", ".join(map(str, out)))
    if interrupted:
        exit_interrupted()
    if failed:
        raise SystemExit(2)


def write_card(the_card, path: Path) -> None:
    from exact.wordle.study.card import card_html  # lazy: start-up (measured 0.55 s, ortools)

    if path.suffix == ".json":
        write_json(path, the_card.to_json())
    elif path.suffix == ".html":
        write_text(path, card_html(the_card))
    else:
        from exact.plot import draw_card, save_one  # lazy: start-up (measured 1.1 s, matplotlib)

        save_one(draw_card(the_card), path)
