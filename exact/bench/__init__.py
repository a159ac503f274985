"""Benchmarks: each one prints a ratio against a baseline (or a peer) measured in the same run.

- :mod:`exact.bench.kernels`: the feedback-matrix kernel and Lingo scoring against a naive scorer (``exact bench``);
- :mod:`exact.bench.wordle`: the Wordle solvers against their baseline kernels (``exact wordle bench``);
- :mod:`exact.bench.dp_baseline`: the depth-k kernels as they were before the pruning, kept as that baseline;
- :mod:`exact.bench.memorable`: the memorable model's formulations side by side (``python -m exact.bench.memorable``).
- :mod:`exact.bench.thresholds`: a ranking's records re-derived against their own bounds or the old thresholds.
"""
