"""exact: proven-optimal strategies for word-guessing games (Lingo, Wordle).

The Python API (:mod:`exact.api`, docs/api.md) is reachable from here: ``exact.solve_wordle``,
``exact.verify_tree``, ``exact.read_tree``, ``exact.lingo_score`` ..., imported on first use so that
``import exact`` stays light.
"""

import importlib

__version__ = "0.1.0"

#: the names of :mod:`exact.api` (its ``__all__``) that ``exact.NAME`` reaches
API = ("solve_wordle", "verify_tree", "audit_tree", "read_tree", "write_tree", "lingo_score", "analyse_wordle",
       "word_list", "Audit", "GuessesResult", "SolveResult", "Replay", "LingoScore", "Analysis", "Tree", "WordList", "ExactError",
       "InternalError")


def __getattr__(name: str):
    if name in API:
        return getattr(importlib.import_module("exact.api"), name)
    raise AttributeError(f"module 'exact' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *API])
