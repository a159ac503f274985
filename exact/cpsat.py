"""The one home of CP-SAT plumbing: parameters, running a model, statuses, model files.

Every CP-SAT model in exact is built by its own module (a builder returning its variable handles in
a dataclass) and solved here, the same way::

    from exact import cpsat
    out = cpsat.run(model, time_limit=60, workers=2, seed=0)
    out.status        # "OPTIMAL", "FEASIBLE", "INFEASIBLE" or "UNKNOWN" (see STATUSES)
    if out.has_solution:
        out.objective, out.bound     # the solution's objective, CP-SAT's proven bound
        out.value(x), out.values(xs)  # a variable's value in the solution (0/1 for Booleans)
    out.seconds, out.interrupted, out.parameters, out.stats

``run(model, *, time_limit=None, workers=2, seed=0, log=False, parameters=None, callback=None)``:

- ``parameters``: more CP-SAT parameters by name (e.g. ``{"linearization_level": 2}``, lists for
  repeated fields such as ``subsolvers``); :func:`parameters` gives the whole dict, which results
  record;
- ``callback``: a :class:`ortools.sat.python.cp_model.CpSolverSolutionCallback`, called on each
  improving solution;
- interrupts: Ctrl-C, and SIGTERM after :func:`exact.stop.install`, stop the search through
  ``stop_search`` (the solve runs in a worker thread while the main thread waits), so the best
  solution so far is kept and ``interrupted`` is True; the caller marks its result interrupted and
  the command line exits :func:`exact.stop.exit_code`. Off the main thread the solve runs in place.

A model that CP-SAT finds invalid is a bug in its builder: :func:`run` raises ``ValueError``.
:func:`export_model` writes a model (binary ``.pb`` or text ``.pbtxt``) through :mod:`exact.fileio`,
:func:`import_model` reads one back.

>>> from ortools.sat.python import cp_model
>>> m = cp_model.CpModel(); x = m.new_int_var(0, 3, "x"); m.maximize(x)
>>> out = run(m, time_limit=10, workers=1)
>>> out.status, out.objective, out.bound, out.value(x), out.interrupted
('OPTIMAL', 3, 3, 3, False)
"""

from __future__ import annotations

import math
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from google.protobuf import text_format
from ortools.sat import cp_model_pb2
from ortools.sat.python import cp_model

from exact.errors import ExactError
from exact.fileio import write_bytes

#: The status vocabulary: proven optimum, a solution not proven optimal, proven impossible, nothing.
STATUSES = ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN")


def parameters(time_limit: float | None = None, workers: int = 2, seed: int = 0, log: bool = False,
               extra: dict | None = None) -> dict:
    """The CP-SAT parameters of a run, as plain data (recorded in results and certificates)."""
    params = {"num_workers": int(workers), "random_seed": int(seed), "log_search_progress": bool(log),
              "catch_sigint_signal": False}
    if time_limit is not None:
        params["max_time_in_seconds"] = float(time_limit)
    params.update(extra or {})
    return params


def solver(params: dict):
    """A CpSolver set up with ``params`` (as :func:`parameters` returns them)."""
    s = cp_model.CpSolver()
    for key, value in params.items():
        if isinstance(value, (list, tuple)):
            getattr(s.parameters, key).extend(value)
        else:
            setattr(s.parameters, key, value)
    return s


@dataclass
class Outcome:
    """What a run gives: the status, the objective and bound, and the solution's values."""

    status: str
    objective: int | float | None  # of the solution (an int when integral); None without one
    bound: int | float | None  # CP-SAT's proven bound on the objective; None without a solution
    seconds: float
    interrupted: bool
    parameters: dict
    stats: dict = field(default_factory=dict)
    solver: object = field(default=None, repr=False)

    @property
    def has_solution(self) -> bool:
        return self.status in ("OPTIMAL", "FEASIBLE")

    def value(self, var) -> int:
        """A variable's (or linear expression's) value in the solution."""
        if not self.has_solution:
            raise ValueError(f"no solution to read (status {self.status})")
        return int(self.solver.value(var))

    def values(self, variables) -> list[int]:
        return [self.value(v) for v in variables]

    def floor_bound(self) -> int | None:
        """The proven bound of a maximisation, rounded down (a valid integer bound)."""
        return None if self.bound is None else math.floor(self.bound + 1e-6)

    def ceil_bound(self) -> int | None:
        """The proven bound of a minimisation, rounded up."""
        return None if self.bound is None else math.ceil(self.bound - 1e-6)


def _number(x: float) -> int | float:
    return int(round(x)) if abs(x - round(x)) < 1e-9 else x


def run(model, *, time_limit: float | None = None, workers: int = 2, seed: int = 0, log: bool = False,
        parameters: dict | None = None, callback=None) -> Outcome:
    """Solve ``model`` with explicit parameters; see the module docstring."""
    params = _params(time_limit, workers, seed, log, parameters)
    s = solver(params)
    started = time.perf_counter()
    result: dict = {}
    done = threading.Event()

    def work():
        try:
            result["status"] = s.solve(model, callback) if callback is not None else s.solve(model)
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            result["error"] = e
        finally:
            done.set()

    interrupted = False
    if threading.current_thread() is threading.main_thread():
        thread = threading.Thread(target=work, daemon=True, name="cp-sat")
        thread.start()
        # wait on an Event: a KeyboardInterrupt inside Thread.join can leave is_alive() wrong
        while not done.is_set():
            try:
                done.wait(0.2)
            except KeyboardInterrupt:
                interrupted = True
                s.stop_search()
        thread.join()
    else:
        work()
    if "error" in result:
        raise result["error"]
    status = result["status"]
    seconds = time.perf_counter() - started
    name = s.status_name(status)
    if status == cp_model.MODEL_INVALID:
        raise ValueError(f"CP-SAT says the model is invalid: {model.validate()}")
    stats = {"status": name, "wall_time": s.wall_time, "user_time": s.user_time,
             "deterministic_time": s.deterministic_time, "conflicts": s.num_conflicts,
             "branches": s.num_branches, "booleans": s.num_booleans, "solution_info": s.solution_info()}
    solved = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    objective = _number(s.objective_value) if solved else None
    bound = _number(s.best_objective_bound) if solved else None
    return Outcome(name if name in STATUSES else "UNKNOWN", objective, bound, seconds, interrupted,
                   params, stats, s)


def _params(time_limit, workers, seed, log, extra) -> dict:
    if time_limit is not None and not time_limit > 0:
        raise ExactError(f"the time limit must be positive, not {time_limit}")
    if workers < 1:
        raise ExactError(f"workers must be at least 1, not {workers}")
    return parameters(time_limit, workers, seed, log, extra)


# --- Model files --------------------------------------------------------------------------------

def export_model(model, path: str | Path) -> None:
    """Write a CP-SAT model as protobuf (binary for ``.pb``, text for ``.pbtxt``) through exact.fileio."""
    path = Path(path)
    # export_to_file picks text or binary from the name's ending, so give it the real one.
    folder = tempfile.mkdtemp(prefix="exact-model-")
    tmp = os.path.join(folder, "model" + (path.suffix or ".pb"))
    try:
        if not model.export_to_file(tmp):
            raise ExactError("OR-Tools could not export the model", path=path)
        data = Path(tmp).read_bytes()
    finally:
        Path(tmp).unlink(missing_ok=True)
        os.rmdir(folder)
    write_bytes(path, data)


def import_model(path: str | Path):
    """Read a model written by :func:`export_model` (binary protobuf)."""
    proto = cp_model_pb2.CpModelProto()
    try:
        proto.ParseFromString(Path(path).read_bytes())
    except OSError as e:
        raise ExactError(f"cannot read ({e.strerror})", path=path) from None
    except Exception as e:  # protobuf's DecodeError
        raise ExactError(f"not a CP-SAT model protobuf ({e})", path=path) from None
    model = cp_model.CpModel()
    # OR-Tools 9.15 wraps the proto in C++ and only parses text, so go through the text format
    if not model.proto.parse_text_format(text_format.MessageToString(proto)):
        raise ExactError("OR-Tools could not load the model", path=path)
    return model
