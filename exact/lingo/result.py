"""Lingo results: the certificate a solve writes, and its independent verification.

Data types:

- :class:`LingoResult`: one solved instance: the pool (source path and sha256 of its normalised text),
  k, the best set found (words), its exact wins, a valid upper bound on the wins of any k-set, the
  status (``OPTIMAL`` only when the bound equals the wins), how both were obtained, parameters and
  statistics; ``to_json``/``from_json`` give the file format (``kind`` = :data:`KIND`);
- :class:`Verification`: a list of checks ``(name, outcome, detail)`` with outcome ``ok``, ``FAIL``
  or ``unconfirmed`` (a bound that could not be recomputed within the time given is not disproved).

:func:`verify_result` recomputes the wins from the words alone with :func:`exact.lingo.score.score_guesses`
(feedback computed afresh, no cache), checks the claimed value, probability and status, and re-derives
the bound where affordable: by exhaustive enumeration of all k-sets on small pools, else by re-running
the bound's method when given time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from math import comb
from pathlib import Path

from exact.errors import ExactError
from exact.feedback import RULE_VERSION
from exact.fileio import Verification as FileVerification, check_fields, read_json, write_json
from exact.lingo.bound import upper_bound
from exact.lingo.brute import brute_force_best
from exact.lingo.columns import column_bound
from exact.lingo.cpsat import solve_cpsat
from exact.lingo.groups import verify_groups
from exact.lingo.score import first_letters, score_guesses
from exact.partitions import feedback_matrix
from exact.words import read_words

KIND = "exact.lingo.result"
FORMAT = 1
STATUSES = ("OPTIMAL", "FEASIBLE")
#: Certificate kinds checked by their own module: kind -> (module, function(data, path, pool, v)).
_OTHER_KINDS = {
    "exact.lingo.adaptive": ("exact.lingo.adaptive", "verify_adaptive"),
    "exact.lingo.groups": ("exact.lingo.groups", "verify_groups"),
}
#: Pools with at most this many k-sets are re-solved exhaustively by ``verify``.
EXHAUSTIVE_SETS = 3_000_000


@dataclass(frozen=True)
class LingoResult:
    instance: str
    words: str
    instance_sha256: str
    k: int
    n: int
    guesses: tuple[str, ...]
    wins: int
    upper_bound: int
    status: str
    method: str
    bound_method: str
    seconds: float
    seed: int
    params: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    bound_details: dict = field(default_factory=dict)
    interrupted: bool = False
    command: str = ""
    rule_version: int = 1

    @property
    def probability(self) -> float:
        return self.wins / self.n

    @property
    def bound_probability(self) -> float:
        return self.upper_bound / self.n

    @property
    def gap_points(self) -> float:
        """(upper bound - wins) / n in percentage points."""
        return 100.0 * (self.upper_bound - self.wins) / self.n

    def to_json(self) -> dict:
        return {
            "kind": KIND,
            "format": FORMAT,
            "instance": self.instance,
            "words": self.words,
            "instance_sha256": self.instance_sha256,
            "rule_version": self.rule_version,
            "k": self.k,
            "n": self.n,
            "guesses": list(self.guesses),
            "wins": self.wins,
            "probability": self.probability,
            "upper_bound": self.upper_bound,
            "bound_probability": self.bound_probability,
            "gap_percentage_points": self.gap_points,
            "status": self.status,
            "method": self.method,
            "bound_method": self.bound_method,
            "seconds": self.seconds,
            "seed": self.seed,
            "interrupted": self.interrupted,
            "command": self.command,
            "params": self.params,
            "bound_details": self.bound_details,
            "stats": self.stats,
        }

    @classmethod
    def from_json(cls, data: object, source: str = "result") -> "LingoResult":
        """Parse a result file's JSON; anything else is a one-line ExactError naming the file."""
        if not isinstance(data, dict) or data.get("kind") != KIND:
            raise ExactError(f"{source}: not an exact Lingo result (expected \"kind\": \"{KIND}\")")
        if data.get("format") != FORMAT:
            raise ExactError(f"{source}: unsupported result format {data.get('format')!r} (expected {FORMAT})")
        types = {"instance": str, "words": str, "instance_sha256": str, "k": int, "n": int, "guesses": list,
                 "wins": int, "upper_bound": int, "status": str, "method": str, "bound_method": str,
                 "seconds": (int, float), "seed": int}
        for name, kind in types.items():
            if name not in data:
                raise ExactError(f"{source}: field {name!r} is missing")
            if not isinstance(data[name], kind) or isinstance(data[name], bool):
                raise ExactError(f"{source}: field {name!r} has the wrong type ({type(data[name]).__name__})")
        if not all(isinstance(g, str) for g in data["guesses"]):
            raise ExactError(f"{source}: field 'guesses' must be a list of words")
        if data["status"] not in STATUSES:
            raise ExactError(f"{source}: status {data['status']!r} is not one of {', '.join(STATUSES)}")
        check_fields(data, {}, {"params": "dict|null", "stats": "dict|null", "bound_details": "dict|null",
                                "interrupted": "bool", "command": "str", "rule_version": "int"}, source=source)
        return cls(
            instance=data["instance"], words=data["words"], instance_sha256=data["instance_sha256"],
            k=data["k"], n=data["n"], guesses=tuple(data["guesses"]), wins=data["wins"],
            upper_bound=data["upper_bound"], status=data["status"], method=data["method"],
            bound_method=data["bound_method"], seconds=float(data["seconds"]), seed=data["seed"],
            params=dict(data.get("params") or {}), stats=dict(data.get("stats") or {}),
            bound_details=dict(data.get("bound_details") or {}),
            interrupted=bool(data.get("interrupted", False)), command=str(data.get("command", "")),
            rule_version=int(data.get("rule_version", 1)),
        )


def write_result(path: str | Path, result: LingoResult) -> None:
    """Write the result file atomically (no reader ever sees half of it)."""
    write_json(path, result.to_json())


def read_result(path: str | Path) -> LingoResult:
    return LingoResult.from_json(read_json(path, "Lingo result"), str(path))


# --- Verification ----------------------------------------------------------------------------------


@dataclass
class Verification(FileVerification):
    """The checks of one result file (:class:`exact.fileio.Verification`), with the wins recomputed from
    the guesses. With ``partial``, checks that could not be made (a bound too costly to recompute) are
    allowed, failures not."""

    recomputed_wins: int | None = None

    def to_json(self) -> dict:
        return {**super().to_json(), "recomputed_wins": self.recomputed_wins}


def verify_result(path: str | Path, *, words: str | Path | None = None, bound_time: float = 0.0,
                  partial: bool = False) -> Verification:
    """Recompute a result file's wins from scratch and check its claims (see the module docstring).

    ``words`` overrides the pool path stored in the file; ``bound_time`` > 0 lets a bound that is too
    big to re-derive exhaustively be recomputed by its own method within that many seconds. A bound
    (or an OPTIMAL status) that is not confirmed makes the verification fail unless ``partial``.
    """
    data = read_json(path, "Lingo result")
    other = _OTHER_KINDS.get(data.get("kind")) if isinstance(data, dict) else None
    if other is not None:  # a certificate of another kind (adaptive game, group bound): its own checks
        module, function = other
        pool_path = Path(words) if words is not None else find_pool(str(data.get("words", "")), Path(path))
        v = Verification(str(path), partial=partial)
        check = getattr(__import__(module, fromlist=[function]), function)
        try:
            check(data, Path(path), read_words(pool_path), v, resolve_time=bound_time)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:  # a field the schema check missed
            raise ExactError(f"malformed {data.get('kind')} file ({type(e).__name__}: {str(e)[:80]})",
                             path=path) from None
        return v
    result = LingoResult.from_json(data, str(path))
    pool_path = Path(words) if words is not None else find_pool(result.words, Path(path))
    pool = read_words(pool_path)
    v = Verification(str(path), partial=partial)
    v.add("rule_version", result.rule_version == RULE_VERSION,
          f"the result was computed under feedback rule {result.rule_version}, this exact uses {RULE_VERSION}")
    v.add("pool", pool.sha256 == result.instance_sha256,
          f"{pool_path}: sha256 {pool.sha256[:16]}..., the result names {result.instance_sha256[:16]}...")
    v.add("n", len(pool) == result.n, f"the pool has {len(pool)} words, the result says {result.n}")
    v.add("k", len(result.guesses) == result.k, f"{len(result.guesses)} guesses, k = {result.k}")
    try:
        score = score_guesses(pool, result.guesses)
    except ExactError as e:
        v.add("guesses", False, str(e))
        return v
    v.recomputed_wins = score.wins
    v.add("wins", score.wins == result.wins,
          f"recomputed {score.wins} / {len(pool)} for {' '.join(score.guesses)}; the result claims {result.wins}")
    v.add("bound >= wins", score.wins <= result.upper_bound <= len(pool),
          f"claimed bound {result.upper_bound}, recomputed wins {score.wins}, n {len(pool)}")
    v.add("status", result.status == "FEASIBLE" or result.upper_bound == score.wins,
          f"{result.status} with bound {result.upper_bound} and wins {score.wins}")
    _check_derived(v, data, result, len(pool))
    _check_bound(v, pool, result, bound_time)
    return v


def _check_derived(v: Verification, data: dict, result: LingoResult, n: int) -> None:
    """The fields computed from others (probability, bound probability, gap) must agree with them."""
    derived = {"probability": result.wins / n, "bound_probability": result.upper_bound / n,
               "gap_percentage_points": 100.0 * (result.upper_bound - result.wins) / n}
    for name, expected in derived.items():
        if name not in data:
            continue
        value = data[name]
        good = isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value - expected) <= 1e-9
        v.add(name, good, f"{value!r} in the file; {expected!r} from its wins, bound and n")


def find_pool(words: str, result_path: Path) -> Path:
    """The result's pool file: as written (from here), else relative to a folder above the result
    (results are written from the repository root, and live two levels below it)."""
    stored = Path(words)
    candidates = [stored] + ([] if stored.is_absolute() else [p / stored for p in result_path.resolve().parents[:3]])
    for c in candidates:
        if c.is_file():
            return c
    raise ExactError(f"{result_path}: its pool {words} is not found here; pass --words FILE")


def _check_bound(v: Verification, pool, result: LingoResult, bound_time: float) -> None:
    """Re-derive the bound: exhaustively on small pools, else by its own method when given time."""
    n, k = len(pool), result.k
    if not 1 <= k <= n:
        v.add("bound", False, f"k = {k} is not between 1 and the pool size {n}")
        return
    if result.bound_method.startswith("group bound"):  # the certificate it points to carries the proof

        cert = Path(v.path).parent / str(result.bound_details.get("certificate", ""))
        if not cert.is_file():
            v.add("bound", False, f"the group-bound certificate {cert} is missing")
            return
        data = read_json(cert, "group-bound certificate")
        before = len(v.checks)
        verify_groups(data, cert, pool, v, resolve_time=bound_time)
        v.checks[before:] = [(f"group {name}", o, d) for name, o, d in v.checks[before:]]
        v.add("bound", data.get("upper_bound") == result.upper_bound and data.get("k") == k,
              f"{cert}: bound {data.get('upper_bound')} for k = {data.get('k')}; the result claims {result.upper_bound}")
        return
    if result.bound_method.startswith("column bound"):  # the bound file it points to names its run
        _check_column_bound(v, pool, result, bound_time)
        return
    if result.upper_bound >= n or result.bound_method.startswith("trivial"):
        v.add("bound", result.upper_bound >= n, f"no set wins more than all n = {n} answers")
        return
    if comb(n, k) <= EXHAUSTIVE_SETS:
        F = feedback_matrix(pool, pool, cache=False)
        optimum, best = brute_force_best(F, first_letters(pool.words), k)
        v.add("bound", result.upper_bound >= optimum,
              f"exhaustive enumeration of all {comb(n, k)} sets: optimum {optimum} "
              f"({' '.join(pool.words[g] for g in best)}); claimed bound {result.upper_bound}")
        if result.status == "OPTIMAL":
            v.add("optimal", result.wins == optimum, f"claimed optimum {result.wins}, enumerated {optimum}")
        return
    if bound_time <= 0:
        v.add("bound", None, f"{result.bound_method} bound {result.upper_bound} not recomputed "
                             f"({comb(n, k):.3g} sets; pass --bound-time S to re-run its method)")
        return
    F = feedback_matrix(pool, pool)
    value, how = _recompute_bound(pool, F, k, result, bound_time)
    if value is None:
        v.add("bound", None, how)
    else:
        v.add("bound", True if value <= result.upper_bound else None,
              f"{how} gives {value}; claimed {result.upper_bound}"
              + ("" if value <= result.upper_bound else " (not reconfirmed in the time given)"))


def _check_column_bound(v: Verification, pool, result: LingoResult, bound_time: float) -> None:
    """A column bound (exact.lingo.columns): its bound file must name this pool, k and value; with
    ``bound_time`` > 0 the search is re-run and must reach the claimed value within that time."""
    cert = Path(v.path).parent / str(result.bound_details.get("certificate", ""))
    if not cert.is_file():
        v.add("bound", False, f"the column-bound file {cert} is missing")
        return
    data = check_fields(read_json(cert, "column-bound file"), {"instance": "dict", "k": "int", "upper_bound": "int",
                                                                "complete": "bool"},
                        {"seconds": "number", "details": "dict"}, source=str(cert))
    same = (data.get("instance", {}).get("sha256") == pool.sha256 and data.get("k") == result.k
            and data.get("upper_bound") == result.upper_bound and data.get("complete") is True)
    v.add("bound file", same, f"{cert}: pool {str(data.get('instance', {}).get('sha256'))[:16]}..., k = {data.get('k')}, "
                              f"bound {data.get('upper_bound')} (complete: {data.get('complete')}); "
                              f"the result claims {result.upper_bound}")
    if bound_time <= 0:
        v.add("bound", None, f"column bound {result.upper_bound} not recomputed (it took {data.get('seconds')} s; "
                             f"pass --bound-time S to re-run its search)")
        return

    b = column_bound(pool, result.k, time_limit=bound_time,
                     exact_doubles=int(data.get("details", {}).get("exact_doubles", 1)))
    v.add("bound", True if b.value <= result.upper_bound else None,
          f"column_bound re-run ({'complete' if b.complete else 'stopped'}, {bound_time:g} s) gives {b.value}; "
          f"claimed {result.upper_bound}" + ("" if b.value <= result.upper_bound else " (not reconfirmed in the time given)"))


def _recompute_bound(pool, F, k: int, result: LingoResult, seconds: float) -> tuple[int | None, str]:
    """A freshly computed valid upper bound, by the method the result names."""
    if result.bound_method.startswith("cp-sat"):
        hint = [pool.index[w] for w in result.guesses]
        out = solve_cpsat(pool, F, k, hint=hint, time_limit=seconds, workers=2, seed=result.seed)
        return int(out.bound), f"CP-SAT re-solve ({out.status}, {seconds:g} s)"
    b = upper_bound(pool, F, k, time_limit=seconds)
    return int(b.value), f"upper_bound re-run ({b.method}, {seconds:g} s)"


# --- a better bound, from its own certificate ---------------------------------------------------------

GROUP_METHOD = "group bound: CP-SAT on grouped relaxations (exact.lingo.groups)"
COLUMN_METHOD = "column bound: letter-choice relaxation with the column budget (exact.lingo.columns)"


def update_bound(result_path: str | Path, certificate_path: str | Path, value: int, sha256: str, k: int,
                 method: str, details: dict) -> str:
    """Replace a solve result's upper bound by ``value`` when it is lower (atomically); say what happened.

    The bound comes from its own certificate (``certificate_path``, recorded relative to the result,
    with the previous bound and ``details``); it must be for the same pool (``sha256``) and ``k``.
    The status becomes OPTIMAL exactly when the bound meets the wins of the result's set.
    """
    result_path = Path(result_path)
    result = read_result(result_path)
    if result.instance_sha256 != sha256 or result.k != k:
        raise ExactError(f"{result_path}: another pool or k than the bound")
    if value >= result.upper_bound:
        return f"{result_path}: its bound {result.upper_bound} stays (the new bound {value} is not lower)"
    bound_details = {"certificate": os.path.relpath(certificate_path, result_path.parent),
                     "previous_bound": result.upper_bound, "previous_bound_method": result.bound_method, **details}
    status = "OPTIMAL" if value == result.wins else "FEASIBLE"
    write_result(result_path, replace(result, upper_bound=value, status=status, bound_method=method,
                                      bound_details=bound_details))
    return f"{result_path}: bound {result.upper_bound} -> {value}"
