"""The one interrupt mechanism: Ctrl-C and SIGTERM both stop long work the same way.

Long loops catch :class:`KeyboardInterrupt` (and nothing else) at the point where they can keep
their best result so far, and return it marked ``interrupted``. :func:`install` (called once by
the ``exact`` command) makes SIGTERM raise that same exception in the main thread; :func:`exit_code`
then tells the command line which signal it was: 130 for SIGINT, 143 for SIGTERM.

A helper for a long call that can be dropped half-way:

- :func:`abandonable`: the call runs in a daemon thread while the main thread waits, so Ctrl-C or
  SIGTERM raises KeyboardInterrupt in the caller at once instead of when the call returns (a numba
  kernel cannot be stopped, and a signal is handled only once it returns). The call itself runs
  on, its result unused, until it returns or the process exits.

Two helpers for code that must not be interrupted in the middle:

- :func:`held`: SIGINT and SIGTERM are held back during the block and raised again as soon as it
  ends. Calls into numba's parallel kernels go through it: a KeyboardInterrupt raised while the
  thread pool runs crashes the process (exit 139; blocking the signal in the calling thread is not
  enough, another thread receives it), one raised between calls stops the run cleanly.
- :func:`flagged`: during the block SIGINT and SIGTERM only set a flag (and call ``on_signal``),
  for loops that poll it, or for a solver stopped from the handler (CP-SAT's ``stop_search``).

>>> reset(); exit_code()
130
>>> with flagged() as stopped:
...     stopped()
False
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

#: The signals that stop a run.
SIGNALS = (signal.SIGINT, signal.SIGTERM)

_received: int | None = None
_owner = False  # set by the ``exact`` program itself (exact.__main__), never by in-process callers


def _raise(signum, frame):
    global _received
    _received = signum
    raise KeyboardInterrupt


def install(owner: bool = False) -> None:
    """Make SIGINT and SIGTERM raise KeyboardInterrupt in the main thread, remembering which.

    ``owner``: the caller is the program itself, so :func:`exit_now` may end the process at once.
    """
    global _owner
    _owner = _owner or owner
    signal.signal(signal.SIGINT, _raise)
    signal.signal(signal.SIGTERM, _raise)


def received() -> int | None:
    """The signal that interrupted the run, if one did (None before any, or for a bare Ctrl-C in tests)."""
    return _received


def note(signum: int) -> None:
    """Record that ``signum`` interrupted the run (for handlers other than :func:`install`'s)."""
    global _received
    _received = signum


def reset() -> None:
    global _received
    _received = None


def exit_code() -> int:
    """The exit status of an interrupted run: 143 after SIGTERM, else 130 (Ctrl-C)."""
    return 128 + int(signal.SIGTERM) if _received == signal.SIGTERM else 128 + int(signal.SIGINT)


def caused_by_interrupt(error: BaseException) -> bool:
    """Whether ``error`` was raised because of a Ctrl-C or SIGTERM: a KeyboardInterrupt somewhere in its
    chain of causes. A compiled extension module whose initialization a signal interrupts (pybind11's,
    OR-Tools' ``cp_model_helper`` among them) reports ``ImportError: initialization failed`` with the
    KeyboardInterrupt as its cause: that is an interrupt, not an internal error."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def exit_now(code: int | None = None) -> None:
    """End the process with ``code`` (default :func:`exit_code`) after flushing stdout and stderr.

    Used once an interrupted run has printed and written its result. In the ``exact`` program it
    skips the interpreter's shutdown, where the handled signal was seen to turn into a death by
    SIGINT (status -2, about one run in ten when Ctrl-C came during start-up) instead of 130; for
    in-process callers (tests, notebooks: :func:`install` without ``owner``) it is ``sys.exit``.
    """
    if not _owner:
        sys.exit(exit_code() if code is None else code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(exit_code() if code is None else code)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def abandonable(function: Callable, *args, poll: float = 0.25, **kwargs):
    """``function(*args, **kwargs)``, waited for in a way that Ctrl-C and SIGTERM interrupt at once.

    The call runs in a daemon thread; the main thread waits for it ``poll`` seconds at a time, so
    the handler of :func:`install` runs (and raises KeyboardInterrupt here) within that time even
    while the call is inside a numba kernel. An interrupted call is abandoned, not stopped: it runs
    on until it returns or the process exits, and what it returns or changes must then be dropped
    by the caller. So it is only for calls whose effects the caller discards when interrupted,
    and the function must release the GIL for most of its work (numba ``nogil=True``). Its
    exceptions are raised here. Off the main thread (no signal arrives there) it is a plain call.

    >>> abandonable(sum, [1, 2, 3])
    6
    """
    if not _main_thread():
        return function(*args, **kwargs)
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = function(*args, **kwargs)
        except BaseException as e:  # raised again in the caller's thread
            box["error"] = e

    worker = threading.Thread(target=run, name="exact-abandonable", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(poll)
    if "error" in box:
        raise box["error"]
    return box["value"]


@contextmanager
def held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back during the block: they are only noted, and the first one is
    raised again (to the handlers in force before) when the block ends."""
    if not _main_thread():
        yield
        return
    hit: list[int] = []
    previous = {s: signal.signal(s, lambda signum, frame: hit.append(signum)) for s in SIGNALS}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        if hit:
            signal.raise_signal(hit[0])


@contextmanager
def flagged(on_signal: Callable[[], None] | None = None) -> Iterator[Callable[[], bool]]:
    """During the block SIGINT and SIGTERM set a flag (read by calling the yielded function) and
    call ``on_signal``, instead of raising; the previous handlers are restored afterwards.

    Off the main thread signals cannot be caught: the flag then stays False and the caller's
    thread is stopped by whoever owns the main thread.
    """
    hit: list[int] = []

    def handler(signum, frame):
        note(signum)
        hit.append(signum)
        if on_signal is not None:
            on_signal()

    if not _main_thread():
        yield lambda: False
        return
    previous = {s: signal.signal(s, handler) for s in SIGNALS}
    try:
        yield lambda: bool(hit)
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


def is_interrupt(error: BaseException | None) -> bool:
    """Whether Ctrl-C (or SIGTERM) caused this error: a KeyboardInterrupt, or an error whose cause or
    context chain holds one (numba wraps a KeyboardInterrupt raised in a kernel in a SystemError).

    >>> is_interrupt(KeyboardInterrupt()), is_interrupt(ValueError())
    (True, False)
    """
    while error is not None:
        if isinstance(error, KeyboardInterrupt):
            return True
        error = error.__cause__ or error.__context__
    return False


#: prctl's option that asks the kernel for a signal when the parent exits (linux/prctl.h)
PR_SET_PDEATHSIG = 1
#: seconds between two looks of the watchdog at the parent (:func:`die_with_parent`)
WATCH_PARENT_EVERY = 0.5


def die_with_parent(signum: int = signal.SIGKILL) -> None:
    """End this process (``signum``, SIGKILL by default) when its parent process ends, however it ends
    (SIGKILL included, which no handler of the parent sees): the worker processes of a server.

    Linux: the kernel sends ``signum`` when the parent exits (``prctl(PR_SET_PDEATHSIG)`` through ctypes).
    The parent may have ended already before the call: then the process is re-parented (``os.getppid()``
    changed) and ends at once. Where prctl is missing (not Linux), a daemon thread looks at ``os.getppid()``
    every :data:`WATCH_PARENT_EVERY` seconds and ends the process when it changes."""
    parent = os.getppid()
    if not _pdeathsig(signum):
        threading.Thread(target=_watch_parent, args=(parent, signum), daemon=True, name="die-with-parent").start()
    if os.getppid() != parent:  # the parent ended before the kernel was asked
        os.kill(os.getpid(), signum)


def _pdeathsig(signum: int) -> bool:
    """Ask the kernel for ``signum`` at the parent's death; False where that cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int, signum: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_PARENT_EVERY)
    os.kill(os.getpid(), signum)
