"""``exact lingo ...``: Lingo commands."""

from __future__ import annotations

import click

from exact.cli.common import echo_json, words_option
from exact.words import load_or_default, wordle_answers


@click.group()
def lingo():
    """Lingo: choose k guesses in advance, told the first letter (Riddler, 29 Jan 2021)."""


@lingo.command()
@click.argument("guesses", nargs=-1, required=True)
@words_option("--words", "The pool (guesses and answers), one word a line [default: the embedded Wordle answers].")
@click.option("--allow-nonwords", is_flag=True, help="Score guesses outside the pool (any letter strings of the pool's length).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a report.")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True, help="Stumper classes to list in the report.")
def score(guesses, words, allow_nonwords, as_json, top):
    """The exact win probability of the fixed GUESSES on the pool."""
    from exact.lingo.score import score_guesses

    pool = load_or_default(words, wordle_answers)
    result = score_guesses(pool, guesses, allow_nonwords=allow_nonwords)
    if as_json:
        echo_json(result.to_json())
        return
    click.echo(f"pool:        {pool.source} ({result.n} words, sha256 {pool.sha256[:12]})")
    click.echo(f"guesses:     {' '.join(result.guesses)}")
    click.echo(f"wins:        {result.wins} / {result.n} = {result.probability:.4%}")
    click.echo(f"alone:       {result.solved_exactly} answers are alone in their class")
    click.echo(f"largest:     {result.largest_class} words in each of {len(result.stumpers)} class(es)")
    for c in result.stumpers[:top]:
        click.echo(f"  stumper:   {' '.join(c)}")
    if len(result.stumpers) > top:
        click.echo(f"  ... and {len(result.stumpers) - top} more (see --json)")
    click.echo("by first letter:")
    click.echo("  letter  words   wins  P(win)")
    for s in result.by_letter:
        click.echo(f"  {s.letter:>6} {s.n:6d} {s.wins:6d}  {s.wins / s.n:7.2%}")
