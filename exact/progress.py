"""The one progress mechanism: tqdm bars and one-line messages, both on stderr.

Every long task shows its progress with :func:`bar` and reports milestones with :func:`say`;
:func:`cores` is the core count reported beside every time. On a terminal the bar redraws itself
in place; when stderr is not a terminal (a pipe, a log file, CI) the same bar writes a plain line,
``exact: <the bar's text>``, every :func:`log_interval` seconds (5 by default, the environment
variable ``EXACT_PROGRESS_SECONDS`` sets it), the first one only after that long, so that short
runs write nothing and long ones leave a trace in their logs.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from tqdm import tqdm

#: seconds between progress lines when stderr is not a terminal
LOG_INTERVAL = 5.0
LOG_FORMAT = "{desc}: {percentage:.0f}%, {n_fmt}/{total_fmt} {unit} [{elapsed} elapsed, {remaining} left, {rate_fmt}{postfix}]"
LOG_FORMAT_OPEN = "{desc}: {n_fmt} {unit} [{elapsed} elapsed, {rate_fmt}{postfix}]"
LOG_FORMAT_NO_ETA = "{desc}: {percentage:.0f}%, {n_fmt}/{total_fmt} {unit} [{elapsed} elapsed{postfix}]"
#: a terminal bar without the time left (for scans whose items cost very different times)
BAR_FORMAT_NO_ETA = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]"


def cores() -> int:
    """The cores this process may run on (its CPU affinity): the count printed beside every time."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def log_interval() -> float:
    """Seconds between the lines of a bar whose stderr is not a terminal."""
    try:
        return max(0.0, float(os.environ.get("EXACT_PROGRESS_SECONDS", LOG_INTERVAL)))
    except ValueError:
        return LOG_INTERVAL


def one_process() -> None:
    """This process's bars share no lock with other processes: tqdm's default lock holds a multiprocessing
    semaphore, which a process killed before it ends (a live proof cancelled by the web app) leaves behind,
    and Python's resource tracker then warns of it when the server stops. A thread lock serves one process."""
    tqdm.set_lock(threading.RLock())


def bar(total: int | None = None, desc: str = "", unit: str = "it", disable: bool | None = None,
        eta: bool = True, **options):
    """A progress bar on stderr: redrawn in place on a terminal; otherwise (``disable=None``) a line
    every :func:`log_interval` seconds. ``disable=True`` shows nothing. ``eta=False`` shows no time left:
    for a scan whose first items cost far more than the rest (a pruned search), where any estimate
    from the rate so far is wrong by hours."""
    if disable is None and not _is_terminal(sys.stderr):
        fmt = (LOG_FORMAT if eta else LOG_FORMAT_NO_ETA) if total else LOG_FORMAT_OPEN
        return _line_bar(tqdm)(total=total, desc=desc, unit=unit, file=_Lines(sys.stderr), leave=False,
                               mininterval=log_interval(), bar_format=fmt, **options)
    if not eta and total:
        options.setdefault("bar_format", BAR_FORMAT_NO_ETA)
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=disable, leave=False,
                dynamic_ncols=True, **options)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _Lines:
    """A stream that drops tqdm's bare carriage returns (a log keeps whole lines only)."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> None:
        if text.strip("\r"):
            self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def _line_bar(tqdm):
    class LineBar(tqdm):
        """A tqdm that writes ``exact: <its text>`` lines, none before its interval has passed and then
        at most one per interval (``set_postfix`` and ``refresh`` redraw at once on a terminal; in a log
        they wait for the next line)."""

        def display(self, msg=None, pos=None):
            started = getattr(self, "start_t", None)
            now = time.time()
            last = getattr(self, "_last_line", started)
            if msg == "" or started is None or self.disable or last is None or now - last < self.mininterval:
                return True
            self._last_line = now
            print(f"exact: {(msg or self.__str__()).strip()}", file=self.fp, flush=True)
            return True

    return LineBar


def say(message: str) -> None:
    """One progress or status line on stderr, prefixed ``exact:``."""
    print(f"exact: {message}", file=sys.stderr, flush=True)
