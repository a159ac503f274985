"""The one CP-SAT runner (exact.cpsat): parameters, statuses, values, interrupts, model files."""

import os
import signal
import threading

import pytest
from ortools.sat.python import cp_model

from exact import cpsat


def hard_knapsack(items: int = 300, dims: int = 10, seed: int = 0):
    """A random multidimensional knapsack: proving its optimum takes CP-SAT far longer than a second."""
    import random

    rng = random.Random(seed)
    m = cp_model.CpModel()
    x = [m.new_bool_var(f"x{i}") for i in range(items)]
    for _ in range(dims):
        w = [rng.randint(50, 1000) for _ in range(items)]
        m.add(sum(wi * xi for wi, xi in zip(w, x)) <= sum(w) // 4)
    m.maximize(sum(rng.randint(50, 1000) * xi for xi in x))
    return m


def test_statuses_objective_bound_and_values():
    m = cp_model.CpModel()
    x, y = m.new_int_var(0, 10, "x"), m.new_bool_var("y")
    m.add(x + 5 * y <= 12)
    m.maximize(x + 3 * y)
    out = cpsat.run(m, time_limit=10, workers=1, seed=3)
    assert (out.status, out.objective, out.bound, out.values([x, y])) == ("OPTIMAL", 10, 10, [10, 0])
    assert out.parameters["random_seed"] == 3 and out.parameters["num_workers"] == 1
    m.add(x >= 11)
    out = cpsat.run(m, time_limit=10, workers=1)
    assert out.status == "INFEASIBLE" and out.objective is None and not out.has_solution
    with pytest.raises(ValueError):
        out.value(x)


def test_extra_parameters_reach_the_solver():
    params = cpsat.parameters(5, 2, 0, False, {"subsolvers": ["max_lp", "core"], "linearization_level": 2})
    s = cpsat.solver(params)
    assert list(s.parameters.subsolvers) == ["max_lp", "core"] and s.parameters.linearization_level == 2


@pytest.mark.slow
def test_a_signal_stops_the_search_and_is_reported():
    """Ctrl-C as Python delivers it by default (KeyboardInterrupt): set here, since a test run earlier in the
    same worker process may have left another SIGINT handler installed."""
    m = hard_knapsack()
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        out = cpsat.run(m, time_limit=120, workers=2)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, before)
    assert out.interrupted and out.status in ("FEASIBLE", "UNKNOWN") and out.seconds < 100
    if out.has_solution:
        assert out.objective <= out.floor_bound()


def test_export_and_import_round_trip(tmp_path):
    m = cp_model.CpModel()
    x = m.new_int_var(0, 4, "x")
    m.maximize(x)
    for name in ("m.pb", "m.pbtxt"):
        cpsat.export_model(m, tmp_path / name)
    back = cpsat.import_model(tmp_path / "m.pb")
    assert cpsat.run(back, time_limit=10, workers=1).objective == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.pb", "m.pbtxt"]
    assert "x" in (tmp_path / "m.pbtxt").read_text()
