"""``exact wordle ...``: Wordle commands."""

from __future__ import annotations

import click

from exact.cli.common import echo_json, words_option
from exact.words import load_or_default, wordle_allowed, wordle_answers

ANSWERS_HELP = "Answer list, one word a line [default: the embedded 2315 Wordle answers]."
GUESSES_HELP = "Allowed guesses, one word a line [default: the embedded 12972 allowed words]."


@click.group()
def wordle():
    """Wordle: adaptive guessing within k guesses (Riddler, 14 Jan 2022)."""


@wordle.command()
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--metric", type=click.Choice(["classes", "worst", "mean", "expected", "entropy"]),
              default="classes", show_default=True,
              help="classes: most classes; worst: smallest largest class; mean: smallest n/classes; "
                   "expected: smallest sum |C|^2/n; entropy: most bits.")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True, help="How many openers to list.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def openers(answers, guesses, metric, top, as_json):
    """Rank first guesses by how they split the answers."""
    from exact.wordle.openers import rank_openers

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    ranked = rank_openers(answer_list, guess_list, metric, top)
    if as_json:
        echo_json([o.to_json() for o in ranked])
        return
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} ({len(guess_list)}), by {metric}")
    click.echo(f"{'rank':>4}  {'guess':<8} {'classes':>7} {'worst':>5} {'n/classes':>9} {'sum|C|^2/n':>10} {'entropy':>7}")
    for rank, o in enumerate(ranked, start=1):
        click.echo(f"{rank:4d}  {o.guess:<8} {o.classes:7d} {o.worst:5d} {o.mean_size:9.3f} {o.expected_size:10.3f} {o.entropy:7.3f}")
