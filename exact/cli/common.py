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
        from exact import fileio

        folders = fileio.MAKE_FOLDERS
        fileio.set_make_folders(False)  # a missing output folder is an error unless the command has --mkdir
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
            fileio.set_make_folders(folders)
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


# --- what the Wordle and Lingo commands share ------------------------------------------------------

ANSWERS_HELP = "Answer list, one word a line [default: the answers of --list]."
GUESSES_HELP = "Allowed guesses, one word a line [default: the guesses of --list]."


def flag_error(error: ExactError, flags: dict[str, str]) -> ExactError:
    """The library names parameters ("first: ..."); the command line names its flags ("--first: ...")."""
    text = str(error)
    for name, flag in flags.items():
        if text.startswith(name + ":") or text.startswith(name + " "):
            return ExactError(flag + text[len(name):])
    return error


FLAGS = {"first": "--first", "after": "--after", "cutoff": "--cutoff", "max_guesses": "--max-guesses",
         "objective": "--objective", "compare": "--compare", "depth": "--depth"}


def call(function, *args, **kwargs):
    """Run a library call, naming flags instead of parameters in its errors."""
    try:
        return function(*args, **kwargs)
    except ExactError as e:
        raise flag_error(e, FLAGS) from None


def exit_if_interrupted(interrupted: bool) -> None:
    if interrupted:
        from exact.cli.common import exit_interrupted

        exit_interrupted()


def checked_word(word: str | None, guesses, flag: str) -> str | None:
    from exact.words import check_words, require_in_pool

    if word is None:
        return None
    (word,) = check_words([word], guesses.length, flag)
    require_in_pool([word], guesses, flag)
    return word


def history_of(after: str | None, guesses) -> tuple:
    from exact.game.position import parse_history

    return () if not after else call(parse_history, after, guesses)


# --- the terminal players (exact wordle play, exact lingo play) ---------------------------------------

NOTATION_HELP = "digits 02110, letters bygyb (b/x/./- gray), emoji squares, RGY ryg.. or YNM nmy.."


def squares(pattern: int, length: int, notation: str) -> str:
    from exact.feedback import format_pattern

    return format_pattern(pattern, length, notation)


def read_line(prompt: str) -> str | None:
    """One line typed by the player, or None at end of input (Ctrl-D)."""
    try:
        return input(prompt)
    except EOFError:
        click.echo()
        return None


def show_words(words, show: int) -> str:
    if len(words) <= show:
        return " ".join(words)
    return " ".join(words[:show]) + f" ... (+{len(words) - show}; l lists all)"


# --- outputs: checked before any work, no folder made silently --------------------------------------

#: Parameters that name a file a command writes, and those that name a folder it writes into: such a
#: command gets ``--mkdir``, and each of them is checked before the command does any work.
OUTPUT_FILES = {"out", "out_file", "certificate", "checkpoint", "html"}
OUTPUT_FOLDERS = {"trees_dir", "results_folder", "models_folder", "instances_folder", "results_dir", "models_dir",
                  "out_dir"}
OUTPUT_PARAMS = OUTPUT_FILES | OUTPUT_FOLDERS


def check_output_folders(*folders) -> None:
    """Before any work: each output folder given exists or is made now (its parent must exist, unless
    --mkdir); a name with ``{K}`` (one folder per K) is only checked, its folders are made later."""
    from exact.fileio import ensure_parent, make_folder

    for folder in folders:
        if folder is None or Path(folder).is_dir():
            continue
        if "{K}" not in str(folder):
            make_folder(folder)
            continue
        try:
            ensure_parent(Path(folder))
        except OSError as e:
            raise ExactError(f"the output folder cannot be made ({e.strerror})", path=folder) from None


def _checking_outputs(callback):
    """The command's callback, after its output files and folders are checked (:func:`check_outputs`)."""
    import functools

    @functools.wraps(callback)
    def run(*args, **kwargs):
        files, folders = [], []
        for name, value in kwargs.items():
            values = value if isinstance(value, (tuple, list)) else (value,)
            if name in OUTPUT_FILES:
                files.extend(v for v in values if v is not None and not isinstance(v, bool))
            elif name in OUTPUT_FOLDERS:
                folders.extend(v for v in values if v is not None and not isinstance(v, bool))
        try:
            check_outputs(*files)
            check_output_folders(*folders)
        except ExactError as e:
            raise ExactError(e.message, path=e.path, line=e.line) from None
        return callback(*args, **kwargs)

    return run


def _allow_mkdir(ctx, param, value) -> None:
    from exact.fileio import set_make_folders

    if value:
        set_make_folders(True)


def add_mkdir_options(group: click.Group) -> None:
    """Give every command below ``group`` that writes a named output a ``--mkdir`` flag: without it
    a missing folder in an output path is a one-line error, never a folder made silently."""
    for command in group.commands.values():
        if isinstance(command, click.Group):
            add_mkdir_options(command)
        elif any(p.name in OUTPUT_PARAMS for p in command.params) and not any(p.name == "mkdir" for p in command.params):
            command.callback = _checking_outputs(command.callback)
            command.params.append(click.Option(["--mkdir"], is_flag=True, expose_value=False, is_eager=True,
                                               callback=_allow_mkdir,
                                               help="Create missing folders of the output paths (else an error)."))


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in the number it takes: "1 node", "2 nodes".

    >>> counted(1, "node"), counted(3, "class", "classes")
    ('1 node', '3 classes')
    """
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
