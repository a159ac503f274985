"""What every command shares: error reporting, interrupts, JSON output, atomic output files."""

from __future__ import annotations

import json
import signal
import sys
import warnings
from pathlib import Path

import click

from exact import stop
from exact.errors import ExactError


class ExactGroup(click.Group):
    """A click group that turns user errors into one line on stderr and a non-zero exit (2), and
    interrupts (Ctrl-C, SIGTERM) into a line and exit 130 or 143 (:mod:`exact.stop`)."""

    def invoke(self, ctx):
        previous = {s: signal.getsignal(s) for s in stop.SIGNALS}
        stop.reset()
        stop.install()
        try:
            return super().invoke(ctx)
        except ExactError as e:
            click.echo(f"exact: error: {e}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("exact: interrupted", err=True)
            stop.exit_now()
        except MemoryError:
            click.echo("exact: error: out of memory (use smaller word lists, or free memory)", err=True)
            sys.exit(2)
        finally:  # for callers in the same process (tests, notebooks)
            for s, handler in previous.items():
                if handler is not None:
                    signal.signal(s, handler)


def exit_interrupted() -> None:
    """End a command whose result was marked interrupted (after printing and writing it)."""
    click.echo("exact: interrupted: the result above is the best found so far", err=True)
    stop.exit_now()


def show_warning(message, category, filename, lineno, file=None, line=None):
    click.echo(f"exact: warning: {message}", err=True)


warnings.showwarning = show_warning


def echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2))


def words_option(name: str, help: str):
    return click.option(name, type=click.Path(dir_okay=False, path_type=Path), default=None, help=help)


def check_outputs(*paths) -> None:
    """Before long work: every output path given can be written (else a one-line error now)."""
    from exact.fileio import check_writable

    for path in paths:
        if path is not None:
            check_writable(path)


def write_all(writes) -> ExactError | None:
    """Run each write (a no-argument callable); the first failure is returned, not raised, so that
    the command can still print its result before it exits non-zero."""
    failed = None
    for write in writes:
        try:
            write()
        except ExactError as e:
            click.echo(f"exact: error: {e}", err=True)
            failed = failed or e
    return failed
