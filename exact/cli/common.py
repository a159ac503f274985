"""What every command shares: error reporting, JSON output, atomic output files."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import click

from exact.errors import ExactError


class ExactGroup(click.Group):
    """A click group that turns user errors into one line on stderr and a non-zero exit."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ExactError as e:
            click.echo(f"exact: error: {e}", err=True)
            sys.exit(2)


def show_warning(message, category, filename, lineno, file=None, line=None):
    click.echo(f"exact: warning: {message}", err=True)


warnings.showwarning = show_warning


def echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2))


def words_option(name: str, help: str):
    return click.option(name, type=click.Path(dir_okay=False, path_type=Path), default=None, help=help)
