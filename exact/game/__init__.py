"""The game: what every solver of a word-guessing game shares, and no solver owns.

- :mod:`exact.game.hard`: the NYT hard-mode rule (a history's constraint, and the numba form the kernels take);
- :mod:`exact.game.position`: the position after a history (guesses and their patterns -> the answers left),
  and the classes of a guess on a word list;
- :mod:`exact.game.tree`: the strategy tree, its independent replay, and the walk of the answers through it;
- :mod:`exact.game.formats`: reading and writing trees in every peer's format (one module per format).

It imports only the foundation and :mod:`exact.partitions`; the solvers (:mod:`exact.wordle`,
:mod:`exact.lingo`) import it, never one another, for these ideas.
"""
