"""Most answers within k guesses: the exact DP, its kernels and trees, the search over every first guess, the CP-SAT model and the reduced instances."""
