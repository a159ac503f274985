"""The ``exact`` command: parses arguments, calls the solvers, prints their results."""

import click

from exact import __version__
from exact.bench.kernels import run_bench
from exact.cli.common import ExactGroup
from exact.cli.lingo import lingo
from exact.cli.wordle import wordle


@click.group(cls=ExactGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="exact")
def main():
    """Proven-optimal strategies for Lingo and Wordle.

    \b
    Examples:
      exact wordle play                          play today's game along with a proven strategy
      exact wordle play --answer crane           a whole game by itself
      exact wordle analyse salet.bybyb.drone.bgbgg.crane --list original
                                                 rate a game: exact expected guesses, luck
      exact wordle solve --objective guesses --first salet --list original
                                                 prove the fewest guesses after salet (7920)
      exact wordle export --html today.html      a page that plays along, offline
      exact lingo score blink chomp gudes warty  the exact win probability of a Lingo set
      exact wordle --help                        the Wordle commands (and so on for each group)
    """


@main.command()
@click.option("--pairs", type=click.IntRange(min=1000), default=200_000, show_default=True,
              help="Random word pairs timed with the naive scorer.")
@click.option("--lingo-words", type=click.Path(dir_okay=False), default=None,
              help="Lingo pool for the score timing [default: 8636 words sampled from the allowed list].")
def bench(pairs, lingo_words):
    """Time the core kernels against a naive pure-Python scorer, in one run."""
    run_bench(pairs=pairs, lingo_words=lingo_words, echo=click.echo)


from exact.cli.docs import docs  # noqa: E402
from exact.cli.plot import plot  # noqa: E402

for group in (lingo, wordle, plot, docs):
    main.add_command(group)

from exact.cli.common import add_mkdir_options  # noqa: E402

add_mkdir_options(main)
