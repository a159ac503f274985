"""Fewest guesses with every answer solved: the branch and bound, its kernels, memo and endgame bound, the ranking of every first guess, tree completion."""
