"""What every command shares: error reporting, interrupts, JSON output, atomic output files."""

from __future__ import annotations

import functools
import json
import os
import platform
import re
import select
import shlex
import signal
import sys
import tempfile
import time
import traceback
import warnings
from importlib import metadata
from pathlib import Path

import click

from exact import fileio, stop
from exact.errors import ExactError
from exact.feedback import format_pattern
from exact.fileio import atomic_write, check_writable, ensure_parent, make_folder, set_make_folders
from exact.firstguess import CheckpointExists
from exact.game.position import MAX_GUESSES, parse_history
from exact.partitions import cache_dir
from exact.weights import NAMED_WEIGHTS, named_weights, read_weights
from exact.words import NAMED_LISTS, check_words, instances_dir, named_lists, require_in_pool

#: The exit status of an internal error (a bug, not bad input): ``EX_SOFTWARE`` of BSD's sysexits.h.
EXIT_INTERNAL = 70


class ExactGroup(click.Group):
    """A click group that turns user errors into one line on stderr and a non-zero exit (2), interrupts
    (Ctrl-C, SIGTERM) into a line and exit 130 or 143 (:mod:`exact.stop`), and any other exception
    (an :class:`~exact.errors.InternalError` or an unexpected one: a bug) into one line naming the
    report it wrote, and exit 70 (:func:`report_internal_error`). Click's own exceptions (usage
    errors, ``--help``) and ``SystemExit`` pass through to click."""

    def invoke(self, ctx):
        folders = fileio.MAKE_FOLDERS
        fileio.set_make_folders(False)  # a missing output folder is an error unless the command has --mkdir
        previous = {s: signal.getsignal(s) for s in stop.SIGNALS}
        stop.reset()
        stop.install()
        try:
            return super().invoke(ctx)
        except CheckpointExists as e:
            click.echo(f"exact: error: {flagged(e)}: {resume_command(e.checkpoint)}", err=True)
            sys.exit(2)
        except ExactError as e:
            click.echo(f"exact: error: {flagged(e)}", err=True)
            sys.exit(2)
        except KeyboardInterrupt:
            click.echo("exact: interrupted", err=True)
            stop.exit_now()
        except MemoryError:
            click.echo("exact: error: out of memory (use smaller word lists, or free memory)", err=True)
            sys.exit(2)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise  # click prints these (a usage error, --help, an abort) and picks their exit status
        except BrokenPipeError as e:
            if not stdout_closed():
                report_internal_error(e)  # another pipe broke (a worker's): a bug
                sys.exit(EXIT_INTERNAL)
            end_on_closed_pipe()
        except Exception as e:  # noqa: BLE001 - every other exception is a bug: report it, exit 70
            if stop.caused_by_interrupt(e):  # e.g. an extension module's import cut short by Ctrl-C
                click.echo("exact: interrupted", err=True)
                stop.exit_now()
            report_internal_error(e)
            sys.exit(EXIT_INTERNAL)
        finally:  # for callers in the same process (tests, notebooks)
            fileio.set_make_folders(folders)
            for s, handler in previous.items():
                if handler is not None:
                    signal.signal(s, handler)


def resume_command(checkpoint) -> str:
    """The command that goes on from ``checkpoint``: this one, with ``--resume CHECKPOINT`` (the driver then
    appends to the same file: :func:`exact.firstguess.resumed`)."""
    return shlex.join(["exact", *sys.argv[1:], "--resume", str(checkpoint)])


#: The exit status when the reader of standard output went away (``exact ... | head``): 128 + SIGPIPE, what a
#: shell reports for a program that SIGPIPE ended, as it ends ``yes | head``.
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE


def stdout_closed() -> bool:
    """Standard output is a pipe whose reader has closed it (poll reports an error on its write end)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):
        return False
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(events & select.POLLERR for _, events in poller.poll(0))


def end_on_closed_pipe() -> None:
    """End quietly when the reader of standard output stopped reading (``exact ... | head -3``): what was
    asked for was read; nothing is said, no report is written. Standard output is pointed at /dev/null first,
    so that Python's own flush at exit does not fail on the closed pipe again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    sys.exit(EXIT_CLOSED_PIPE)


# --- internal errors: one line on stderr, the full story in a report file -------------------------

def report_internal_error(error: BaseException) -> Path | None:
    """Write the report of an internal error (or any unexpected exception) and print the one line
    that names it: ``exact: internal error (TYPE: MESSAGE); report written to PATH; please report it``.

    The report (command line, versions, traceback) goes to a file, not the terminal, so that a bug
    reads as one line like every other error while nothing of its story is lost. The file lies in the
    cache folder's ``reports/`` (:func:`exact.partitions.cache_dir`: ``$EXACT_CACHE_DIR``, else
    ``~/.cache/exact``), which outlives a reboot and which the user already knows from the cache; where
    it cannot be written, the system's temporary folder (:func:`tempfile.gettempdir`). Where neither can
    be written, the line says so and the traceback goes to stderr instead. Returns the report's path.
    """
    text = internal_error_report(error)
    path = _write_report(text)
    what = f"{type(error).__name__}: {error}".splitlines()[0][:200] if str(error) else type(error).__name__
    if path is None:
        click.echo(text, err=True)
        click.echo(f"exact: internal error ({what}); no report file could be written, the report is above; "
                   "please report it", err=True)
    else:
        click.echo(f"exact: internal error ({what}); report written to {path}; please report it", err=True)
    return path


def internal_error_report(error: BaseException) -> str:
    """The report of an internal error: when, the command line, the versions, the traceback."""
    versions = []
    for package in ("exact", "numpy", "numba", "ortools", "networkx", "click"):
        try:
            versions.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{package} (not installed)")
    lines = [f"exact internal error report, {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
             f"command: {' '.join(sys.argv)}",
             f"cwd: {os.getcwd()}",
             f"python {platform.python_version()} on {platform.platform()}",
             "versions: " + ", ".join(versions), "",
             "".join(traceback.format_exception(type(error), error, error.__traceback__))]
    return "\n".join(lines)


def _write_report(text: str) -> Path | None:
    """Write the report under the first folder that takes it (see :func:`report_internal_error`)."""
    name = f"internal-error-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    for folder in (cache_dir() / "reports", Path(tempfile.gettempdir()) / "exact-reports"):
        try:
            atomic_write(folder / name, lambda f: f.write(text.encode()), mkdir=True)
            return folder / name
        except (OSError, ExactError):
            continue
    return None


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
    return named_lists(chosen_list())[0]


def list_guesses():
    """The guesses of the chosen ``--list``."""
    return named_lists(chosen_list())[1]


def weights_option(f):
    """``--weights FILE``: answer weights (``word weight`` lines, :mod:`exact.weights`)."""
    return click.option("--weights", "weights", type=click.Path(dir_okay=False, path_type=Path), default=None,
                        help="Answer weights, a prior: lines 'word weight' (positive integers, every answer "
                             "listed); wins and totals become weighted sums [default: the --list's prior "
                             "(nyt-prior), else every answer 1].")(f)


def weights_path(path):
    """``--weights FILE``, else the weights file of the chosen ``--list``'s prior (nyt-prior), else None."""
    if path is not None:
        return path
    entry = NAMED_WEIGHTS.get(chosen_list())
    return instances_dir() / entry[0] if entry is not None else None


def load_weights(path, answers):
    """The weights of ``--weights FILE`` for these answers, else the chosen ``--list``'s prior when
    the answers are its own, else None (every answer 1)."""
    if path is not None:
        return read_weights(path, answers)
    name = chosen_list()
    own = named_lists(name)[0] if name in ("nyt-prior",) else None
    return named_weights(name, answers) if own is not None and own.sha256 == answers.sha256 else None


def check_outputs(*paths) -> None:
    """Before long work: every output path given can be written (else a one-line error now)."""
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
            click.echo(f"exact: error: {flagged(e)}", err=True)
            failed = failed or e
    return failed


# --- what the Wordle and Lingo commands share ------------------------------------------------------

ANSWERS_HELP = "Answer list, one word a line [default: the answers of --list]."
GUESSES_HELP = "Allowed guesses, one word a line [default: the guesses of --list]."


#: The one table from a library parameter to the flag that sets it on the command line. The library
#: names parameters in its messages ("depth must be at least 1, not 0"); :func:`flagged` shows them
#: as flags ("--depth must be at least 1, not 0") when the command line prints the error.
FLAGS = {"first": "--first", "after": "--after", "cutoff": "--cutoff", "max_guesses": "--max-guesses",
         "objective": "--objective", "compare": "--compare", "depth": "--depth", "top": "--top",
         "cluster": "--cluster", "checkpoint": "--checkpoint", "resume": "--resume", "hard": "--hard",
         "certificate": "--certificate", "out": "--out", "card": "--card", "tree": "--tree", "live": "--live",
         "max_second": "--max-distinct-second", "M": "--max-distinct-second",
         "time_limit": "--time-limit", "bound_time": "--bound-time", "workers": "--workers",
         "max_rounds": "--max-rounds", "start": "--start", "guesses_allowed": "--guesses-allowed",
         "letters": "--letters", "k": "-k", "Ks": "--guesses-allowed", "card_file": "--card",
         "tree_file": "--tree", "outs": "--out", "truncate": "--truncate", "m_values": "--m-values"}

#: Parameters that the first word of an untagged message (``params`` empty, no file) names: "after:
#: ...", "objective 'x': ...", "depth must be at least 1, not 0". Words that also begin prose ("tree",
#: "hard", "out") are left out: a message about them lists them in ``params``.
LEADING = ("first", "after", "cutoff", "max_guesses", "objective", "compare", "depth", "top", "cluster", "M", "k",
           "Ks", "time_limit", "bound_time", "workers", "max_rounds", "start", "letters", "resume")


def flagged(error: ExactError) -> ExactError:
    """The error as the command line shows it: each parameter it names written as its flag. The names
    are ``error.params``, each replaced at its first whole word (not inside ``depth-k``), so a message
    names its parameters before it uses the same words otherwise; when ``params`` is empty and the
    error is about no file, a leading word of :data:`LEADING`. ``NAME = VALUE`` becomes ``FLAG VALUE``.

    >>> e = ExactError("tree plays the tree; live and first choose a live solver", params=("tree", "live", "first"))
    >>> str(flagged(e))
    '--tree plays the tree; --live and --first choose a live solver'
    >>> str(flagged(ExactError("M = 0: give at least one", params=("M",)))), str(flagged(ExactError("after: no guess")))
    ('--max-distinct-second 0: give at least one', '--after: no guess')
    >>> str(flagged(ExactError("first guess 'x' but earlier lines start with 'y'", line=3)))
    "line 3: first guess 'x' but earlier lines start with 'y'"
    """
    names = error.params
    if not names and error.path is None and error.line is None:
        names = tuple(name for name in LEADING if re.match(rf"{name}\b(?!-)", error.message))
    text = error.message
    for name in names:
        if name in FLAGS:
            text = re.sub(rf"(?<![\w-]){re.escape(name)}(?: = |(?![\w-]))",
                          lambda m: FLAGS[name] + (" " if m[0].endswith(" = ") else ""), text, count=1)
    return error if text == error.message else ExactError(text, path=error.path, line=error.line)


def call(function, *args, **kwargs):
    """Run a library call. (Its errors name parameters; :class:`ExactGroup` shows them as flags, in
    one place, :func:`flagged`; this wrapper stays for the commands that call through it.)"""
    return function(*args, **kwargs)


def exit_if_interrupted(interrupted: bool) -> None:
    if interrupted:
        exit_interrupted()


def checked_word(word: str | None, guesses, flag: str) -> str | None:
    if word is None:
        return None
    (word,) = check_words([word], guesses.length, flag)
    require_in_pool([word], guesses, flag)
    return word


def history_of(after: str | None, guesses) -> tuple:
    return () if not after else call(parse_history, after, guesses)


# --- the terminal players (exact wordle play, exact lingo play) ---------------------------------------

NOTATION_HELP = "digits 02110, letters bygyb (b/x/./- gray), emoji squares, RGY ryg.. or YNM nmy.."


def squares(pattern: int, length: int, notation: str) -> str:
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


def guess_limit(least: int = 1) -> click.IntRange:
    """The type of an option that counts guesses allowed (``--max-guesses``, ``--depth``): ``least`` to
    :data:`exact.game.position.MAX_GUESSES` (its docstring argues the bound)."""
    return click.IntRange(min=least, max=MAX_GUESSES)


class Seconds(click.FloatRange):
    """A time in seconds: a float range that also refuses ``nan`` and ``inf`` (which every range
    comparison lets through, and which a deadline cannot be made of). A bad time is bad input: one
    line naming the option (an ExactError), not click's usage text."""

    name = "seconds"

    def convert(self, value, param, ctx):
        flag = param.opts[0] if param is not None and param.opts else "time"
        try:
            rv = float(value)
        except (TypeError, ValueError):
            raise ExactError(f"{flag} {str(value)!r:.30}: not a number of seconds") from None
        if rv != rv or rv in (float("inf"), float("-inf")):
            raise ExactError(f"{flag} {value}: not a finite number of seconds")
        if rv < self.min or (self.min_open and rv <= self.min):
            raise ExactError(f"{flag} {value}: must be {'above' if self.min_open else 'at least'} {self.min:g} seconds")
        return rv


def seconds(least: float = 0.0, open: bool = True) -> Seconds:
    """The type of a time option: finite, at least ``least`` (above it when ``open``)."""
    return Seconds(min=least, min_open=open)


def exclude_option(f):
    """``--exclude FILE``: answers already played, removed from the answer list (every player command)."""
    return click.option("--exclude", type=click.Path(dir_okay=False, path_type=Path), default=None,
                        help="Remove these answers (one word a line: answers already played) from the answer list; "
                             "words of the file that are not answers are ignored.")(f)
