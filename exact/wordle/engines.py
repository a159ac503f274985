"""Which engine answers ``exact wordle solve`` and ``exact wordle rank``: the choice, made from the
options, in one place.

- ``depth``: the depth-k DP (:mod:`exact.wordle.wins.dp`): the most answers won within k guesses;
- ``guesses``: the fewest-guesses branch and bound (:mod:`exact.wordle.fewest.search`), for ``objective``
  (``guesses`` or a lexicographic list such as ``win3,guesses``);
- ``memorable``: depth 3 with at most M distinct second guesses (:mod:`exact.wordle.study.memorable`);
- ``global``: the depth-k search over every first guess with batches, a checkpoint and a cluster
  (:mod:`exact.wordle.wins.ranking`, in process or on Dask);
- ``ranking``: the fewest-guesses value (or a proven bound) of every first guess, ``--first all`` or
  ``--first FILE`` (:mod:`exact.wordle.fewest.ranking`), in process or on a cluster, with a checkpoint.

Each engine takes some options and refuses the others with a one-line error that names them (as
parameters, listed in its ``params``: the command line shows them as flags). The last two run over
every first guess: ``exact wordle rank`` (:func:`choose_rank`); ``solve`` still takes their old
spellings and says the new one (:func:`rank_note`).

>>> choose_engine(objective="guesses", first="salet"), choose_engine(objective="guesses", first="all")
('guesses', 'ranking')
>>> choose_engine(checkpoint="run.jsonl", first="salet")
Traceback (most recent call last):
...
exact.errors.ExactError: cluster, checkpoint and resume rank every opening by its wins within depth: drop first, max_second, objective, after and compare
"""

from __future__ import annotations

from pathlib import Path

from exact.errors import ExactError

ENGINES = ("depth", "guesses", "memorable", "global", "ranking")


def is_ranking(first: str | None) -> bool:
    """``--first all`` or ``--first FILE`` (a list of first guesses): a ranking, not one word."""
    return first is not None and (first.lower() == "all" or Path(first).is_file())


def choose_engine(*, depth: int | None = None, hard: bool = False, first: str | None = None,
                  objective: str | None = None, max_second: int | None = None, cutoff: int | None = None,
                  after: str | None = None, compare: str | None = None, certificate: str | None = None,
                  outs: tuple = (), cluster: str | None = None, checkpoint: str | None = None,
                  resume: str | None = None, truncate: bool = False) -> str:
    """The engine the options ask for (one of :data:`ENGINES`), or an ExactError naming the options
    that engine cannot take."""
    if objective is not None and is_ranking(first):
        if depth is not None or max_second is not None:
            raise ExactError("objective replaces depth and max_second", params=("objective", "depth", "max_second"))
        if after or compare or truncate:
            raise ExactError("first all: drop after, compare and truncate", params=("first", "after", "compare", "truncate"))
        return "ranking"
    if cluster or checkpoint or resume:
        if first is not None or max_second is not None or objective is not None or after or compare:
            raise ExactError("cluster, checkpoint and resume rank every opening by its wins within depth: drop "
                             "first, max_second, objective, after and compare",
                             params=("cluster", "checkpoint", "resume", "first", "max_second", "objective", "after",
                                     "compare"))
        return "global"
    if objective is not None:
        if depth is not None or max_second is not None:
            raise ExactError("objective replaces depth and max_second (use winK levels, e.g. win3,guesses)",
                             params=("objective", "depth", "max_second"))
        return "guesses"
    if cutoff is not None:
        raise ExactError("cutoff needs objective", params=("cutoff", "objective"))
    if max_second is not None:
        if (depth or 3) != 3 or hard or certificate or len(outs) > 1 or after or compare:
            raise ExactError("max_second takes depth 3, no hard, certificate, after or compare and at most one "
                             "of outs", params=("max_second", "depth", "hard", "certificate", "after", "compare",
                                                "outs"))
        return "memorable"
    return "depth"


#: the engines of ``exact wordle rank``: every first guess, by fewest guesses or by the most wins within K
RANK_ENGINES = ("ranking", "global")


def choose_rank(*, depth: int | None = None, objective: str | None = None, first: str | None = None,
                cutoff: int | None = None, truncate: bool = False) -> str:
    """The engine ``exact wordle rank`` runs (one of :data:`RANK_ENGINES`), or an ExactError naming
    the options that cannot go together.

    >>> choose_rank(objective="guesses"), choose_rank(depth=4)
    ('ranking', 'global')
    >>> choose_rank(depth=4, cutoff=8000)
    Traceback (most recent call last):
    ...
    exact.errors.ExactError: depth K with first or cutoff: drop them (they go with objective; depth K searches every first guess for the most wins within K)
    """
    if (depth is None) == (objective is None):
        raise ExactError("give one of objective guesses|feasible (the fewest guesses) and depth K (the most "
                         "answers won within K guesses)", params=("objective", "depth"))
    if depth is not None:
        if first is not None or cutoff is not None:
            raise ExactError("depth K with first or cutoff: drop them (they go with objective; depth K searches "
                             "every first guess for the most wins within K)", params=("depth", "first", "cutoff", "objective"))
        return "global"
    if truncate:
        raise ExactError("truncate goes with depth (the trees of objective are complete)",
                         params=("truncate", "depth", "objective"))
    return "ranking"


def rank_note(engine: str, *, objective: str | None = None, depth: int | None = None,
              first: str | None = None) -> str:
    """The note ``exact wordle solve`` prints for an old spelling of a run over every first guess.

    >>> rank_note("ranking", objective="guesses", first="all")
    "exact: note: 'exact wordle solve --objective guesses --first all' is now 'exact wordle rank --objective guesses'"
    """
    if engine == "ranking":
        given = "all" if first.lower() == "all" else "FILE"
        new = f"exact wordle rank --objective {objective}" + ("" if given == "all" else " --first FILE")
        return f"exact: note: 'exact wordle solve --objective {objective} --first {given}' is now '{new}'"
    shown = 3 if depth is None else depth
    return (f"exact: note: 'exact wordle solve --depth {shown}' with --cluster, --checkpoint or --resume is now "
            f"'exact wordle rank --depth {shown}'")
