"""``exact wordle ...``: the Wordle commands, one module per kind of work.

- :mod:`~exact.cli.wordle.solve` (with :mod:`~exact.cli.wordle.solve_guesses`): ``solve`` (one position),
  ``compare-ranking``;
- :mod:`~exact.cli.wordle.rank`: ``rank`` (every first guess);
- :mod:`~exact.cli.wordle.trees`: ``verify``, ``convert``, ``complete``, ``export``;
- :mod:`~exact.cli.wordle.play`: ``play``;
- :mod:`~exact.cli.wordle.analyse`: ``analyse``;
- :mod:`~exact.cli.wordle.study`: ``openers``, ``endgames``, ``evaluate``, ``tradeoff``, ``memorable``, ``ladder``, ``bench``;
- :mod:`~exact.cli.wordle.card`: ``card``;
- :mod:`~exact.cli.wordle.prior`: ``prior``;
- :mod:`~exact.cli.wordle.audit`: ``audit``;
- :mod:`~exact.cli.wordle.serve`: ``serve`` (the local web app; its routes in :mod:`~exact.cli.wordle.serve_app`);
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

from exact.cli.wordle import prior  # noqa: E402  (the prior command)

wordle.add_command(prior.prior)

from exact.cli.wordle import audit  # noqa: E402  (the audit command)

wordle.add_command(audit.audit)

from exact.cli.wordle import serve  # noqa: E402  (the local web app)

wordle.add_command(serve.serve)
