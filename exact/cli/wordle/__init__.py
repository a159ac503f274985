"""``exact wordle ...``: the Wordle commands, one module per kind of work.

- :mod:`~exact.cli.wordle.solve` (with :mod:`~exact.cli.wordle.solve_guesses`): ``solve`` (one position),
  ``compare-ranking``;
- :mod:`~exact.cli.wordle.rank`: ``rank`` (every first guess);
- :mod:`~exact.cli.wordle.trees`: ``verify``, ``convert``, ``complete``, ``export``;
- :mod:`~exact.cli.wordle.play`: ``play``;
- :mod:`~exact.cli.wordle.analyse`: ``analyse``;
- :mod:`~exact.cli.wordle.study`: ``openers``, ``endgames``, ``evaluate``, ``tradeoff``, ``memorable``, ``ladder``, ``bench``;
- :mod:`~exact.cli.wordle.card`: ``card``;
- :mod:`~exact.cli.wordle.book`: ``book`` (the opener book).
"""

from __future__ import annotations

import click

from exact.cli.wordle import analyse, book, play, rank, solve, solve_guesses, study, trees


@click.group()
def wordle():
    """Wordle: adaptive guessing within k guesses (Riddler, 14 Jan 2022)."""


for command in (solve.solve, rank.rank, trees.verify, trees.convert, trees.complete, trees.wordle_export, play.wordle_play,
                analyse.analyse, study.openers, study.endgames, study.evaluate, study.tradeoff, study.memorable, study.ladder, study.bench,
                solve_guesses.compare_ranking_command, book.book):
    wordle.add_command(command)

from exact.cli.wordle import card  # noqa: E402  (the card command)

wordle.add_command(card.card)
