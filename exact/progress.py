"""The one progress mechanism: tqdm bars and one-line messages, both on stderr.

Every long task shows its progress with :func:`bar` (a tqdm bar that switches itself off when
stderr is not a terminal) and reports milestones with :func:`say`; :func:`cores` is the core count
reported beside every time.
"""

from __future__ import annotations

import os
import sys


def cores() -> int:
    """The cores this process may run on (its CPU affinity): the count printed beside every time."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def bar(total: int | None = None, desc: str = "", unit: str = "it", disable: bool | None = None, **options):
    """A progress bar on stderr; ``disable=None`` hides it when stderr is not a terminal."""
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=disable, leave=False,
                dynamic_ncols=True, **options)


def say(message: str) -> None:
    """One progress or status line on stderr, prefixed ``exact:``."""
    print(f"exact: {message}", file=sys.stderr, flush=True)
