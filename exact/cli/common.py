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


def words_option(name: str, help: str, list_default: str = "original"):
    """A word-list file option; ``--answers`` brings ``--list NAME`` with it (every Wordle command gets
    both), whose lists :func:`list_answers` and :func:`list_guesses` read where a file is not given."""
    option = click.option(name, type=click.Path(dir_okay=False, path_type=Path), default=None, help=help)
    if name != "--answers":
        return option
    return lambda f: list_option(list_default)(option(f))


def list_option(default: str = "original"):
    """``--list NAME``: a named pair of shipped lists (:data:`exact.words.NAMED_LISTS`)."""
    from exact.words import NAMED_LISTS

    names = "; ".join(f"{e.name}: {e.what}" for e in NAMED_LISTS.values())
    return click.option("--list", "list_name", type=click.Choice(list(NAMED_LISTS)), default=default,
                        show_default=True, expose_value=False, is_eager=True, callback=_remember_list,
                        help=f"The game's answer and guess lists ({names}). --answers and --guesses override.")


def _remember_list(ctx, param, value):
    ctx.meta[LIST_KEY] = value
    return value


LIST_KEY = "exact.list"


def chosen_list(default: str = "original") -> str:
    """The ``--list`` of the command running (``default`` outside one)."""
    ctx = click.get_current_context(silent=True)
    return (ctx.meta.get(LIST_KEY) if ctx is not None else None) or default


def list_answers():
    """The answers of the chosen ``--list``."""
    from exact.words import named_lists

    return named_lists(chosen_list())[0]


def list_guesses():
    """The guesses of the chosen ``--list``."""
    from exact.words import named_lists

    return named_lists(chosen_list())[1]


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
