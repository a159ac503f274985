"""The one interrupt mechanism: Ctrl-C and SIGTERM both stop long work the same way.

Long loops catch :class:`KeyboardInterrupt` (and nothing else) at the point where they can keep
their best result so far, and return it marked ``interrupted``. :func:`install` (called once by
the ``exact`` command) makes SIGTERM raise that same exception in the main thread; :func:`exit_code`
then tells the command line which signal it was: 130 for SIGINT, 143 for SIGTERM.

>>> reset(); exit_code()
130
"""

from __future__ import annotations

import signal

_received: int | None = None


def _raise(signum, frame):
    global _received
    _received = signum
    raise KeyboardInterrupt


def install() -> None:
    """Make SIGINT and SIGTERM raise KeyboardInterrupt in the main thread, remembering which."""
    signal.signal(signal.SIGINT, _raise)
    signal.signal(signal.SIGTERM, _raise)


def received() -> int | None:
    """The signal that interrupted the run, if one did (None before any, or for a bare Ctrl-C in tests)."""
    return _received


def reset() -> None:
    global _received
    _received = None


def exit_code() -> int:
    """The exit status of an interrupted run: 143 after SIGTERM, else 130 (Ctrl-C)."""
    return 128 + int(signal.SIGTERM) if _received == signal.SIGTERM else 128 + int(signal.SIGINT)
