"""The instance record every kernel of the fewest-guesses search reads (:mod:`exact.wordle.fewest.kernels`,
:mod:`exact.wordle.fewest.memo`, :mod:`exact.wordle.fewest.endgame`).

It is a ``typing.NamedTuple``, as :class:`exact.game.hard.HardMode` of the depth-k engine: numba
compiles a named tuple into a struct of its fields, so a kernel reads ``ctx.cost`` at the price of a
positional read, and the fields' types fix the kernels' signatures (one compilation per instance layout).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from exact.game.hard import ClueLists


class Context(NamedTuple):
    """A Wordle instance as the fewest-guesses kernels read it (built by
    :func:`exact.wordle.fewest.search.make_guesses_instance`).

    Rows index the allowed guesses, columns the answers (an answer is also a guess: its row).

    - ``feedback``: (guesses x answers) pattern codes, ``feedback[g, a]`` the pattern guess g shows
      for answer a (:mod:`exact.feedback`);
    - ``answer_row``: answer column -> its guess row;
    - ``row_answer``: guess row -> its answer column, or -1 when the guess is no answer;
    - ``cost``: the objective's cost table c[0 .. max_guesses + 2] (``c[s] = INF`` past max_guesses),
      see :class:`exact.wordle.fewest.objective.Objective`;
    - ``hard``: whether the hard-mode rule applies (else every constraint argument is ignored);
    - ``codes``: (guesses x L) the encoded guesses, and ``counts``: (guesses x 26) their letter
      counts (:mod:`exact.game.hard`): what the hard-mode rule and the endgame caps read;
    - ``zobrist_answer``, ``zobrist_step``, ``zobrist_green``, ``zobrist_least``: the random int64
      keys of the memo's hash (:func:`exact.wordle.fewest.memo.memo_key`): one per answer, per step,
      per (position, green letter + 1) and per (letter, fewest copies demanded);
    - ``sharp``: whether the sharper bounds are used (the wide node bound, :func:`quick`'s class
      bound, the endgame bound and search, the unions of letters known absent); False is the node
      bound only, the baseline of the benchmark;
    - ``most_classes``: m, the most classes any allowed guess makes on the whole answer list (so on
      any subset): the bound of :func:`exact.wordle.fewest.lower_bounds._floor`;
    - ``feedback_t``: ``feedback`` transposed (answers x guesses), contiguous: the scan over every
      guess of :func:`exact.wordle.fewest.scan.candidates` reads it one answer row at a time;
    - the endgames of :mod:`exact.wordle.fewest.endgame`: ``endgame_of[a, w]`` the endgame of answer
      a with position w blanked (-1: none); ``endgame_caps[e]`` the largest ``u_g(E)`` over every
      guess, largest first (the capacities of the endgame bound); endgame e holds the answers
      ``endgame_members[endgame_start[e]:endgame_start[e + 1]]``; ``endgame_letters[e]`` has bit x set
      when an answer of e has letter x at its blanked position;
    - ``clues``: the guesses by the clue they meet (:class:`exact.game.hard.ClueLists`): in hard mode a
      node's scan reads only the shortest list its constraint demands (a superset of the guesses it
      allows, in row order), not every guess;
    - ``weight``: the positive integer weight of each answer column (:mod:`exact.weights`; the
      value of a tree is ``sum_a weight[a] c[s(a)]``), and ``unit``: every weight is 1, so the
      kernels take the counting path (the same bounds with weight sums equal to counts, cheaper).
    """

    feedback: np.ndarray
    answer_row: np.ndarray
    row_answer: np.ndarray
    cost: np.ndarray
    hard: bool
    codes: np.ndarray
    counts: np.ndarray
    zobrist_answer: np.ndarray
    zobrist_step: np.ndarray
    zobrist_green: np.ndarray
    zobrist_least: np.ndarray
    sharp: bool
    most_classes: np.int64
    feedback_t: np.ndarray
    endgame_of: np.ndarray
    endgame_caps: np.ndarray
    endgame_members: np.ndarray
    endgame_start: np.ndarray
    endgame_letters: np.ndarray
    clues: ClueLists
    weight: np.ndarray
    unit: bool
