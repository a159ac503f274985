"""Re-deriving what a certificate claims (``exact wordle verify``): the per-first-guess records of a
ranking or a global depth-k search, through the one driver of searches over first guesses
(:mod:`exact.firstguess`: in process or on Dask, with its progress and its estimate of the time left),
and a single optimum by the solve that made it (:func:`optimum`). :mod:`exact.wordle.certificate` checks
the certificate's fields and calls these.

A record claims one first guess's value: exact, or a bound that rejected it against a threshold.
Each record is re-evaluated by the search that made it (:class:`exact.wordle.fewest.ranking.FewestSearch`,
:class:`exact.wordle.wins.ranking.WinsSearch`) against a threshold of its own (a :class:`Claim`),
chosen so that the answer settles the record as written, not only the certificate's claim: a bound
"at least b" against b, "at most b" against b + 1 (the arguments are in :func:`fewest_claims` and
:func:`wins_claims`; that each bound also settles the certificate's claim is a field check of
:mod:`exact.wordle.certificate`); a search's bound may differ from the one recorded (it depends on the
memo's state), but it may never fall on the other side of the threshold. The first contradiction stops
the run (:class:`Contradicted`, raised by the fold the driver calls between evaluations).
:func:`one_record` re-derives a single record the same way, and :func:`confirmed` remembers its outcome
per machine under the seal (``exact wordle analyse`` shows a ranking record only once it holds).

The order is the search's own (the likeliest best first), so that a forged best or a forged
rejection of a better guess dies early; ``sample`` draws that many records at random (seeded) and
``seconds`` stops the run between evaluations once spent: either way the verdict is "partly
verified", never "verified".

A long re-derivation (a global depth-4 certificate takes CPU-hours) can span runs: with a checkpoint
(``Budget.checkpoint``, ``Budget.resume``) the driver writes each re-derived record, and a later run takes
a record as it stands only under this installation's seal (:mod:`exact.seal`) and only for the same
certificate (the header holds its sha256); every record, resumed or not, is judged against its claim
again. A checkpoint made elsewhere, edited or forged is re-derived record by record, so it can make a
run slower, never a forged certificate pass.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from exact import firstguess
from exact.errors import ExactError
from exact.fileio import Verification, atomic_write
from exact.game.position import parse_history, position
from exact.game.tree import Tree
from exact.partitions import cache_dir, feedback_matrix
from exact.seal import is_sealed, sealed
from exact.weights import Weights
from exact.wordle.fewest.memo import new_memo
from exact.wordle.fewest.objective import parse_objective
from exact.wordle.fewest.ranking import FewestSearch, first_guess_order, first_tree, first_value
from exact.wordle.fewest.search import make_guesses_instance, solve_guesses
from exact.wordle.wins import dp
from exact.wordle.wins.ranking import BATCH, WinsSearch
from exact.wordle.wins.ranking import first_guess_order as wins_first_guess_order
from exact.words import WordList

#: The format of a re-derivation's checkpoint (its header: the search's own, with this format and the
#: certificate's sha256, so that a ranking's checkpoint or another certificate's is refused on resume).
CHECKPOINT_FORMAT = "exact-verify-checkpoint/1"


@dataclass(frozen=True)
class Claim:
    """One record of a certificate: ``value`` exact or a bound, and the threshold it is re-evaluated against."""

    guess: str
    value: int
    exact: bool
    threshold: int


@dataclass(frozen=True)
class Budget:
    """How much to re-derive: ``seconds`` (None: no limit; checked between evaluations), ``sample``
    (None: every record, else that many drawn with ``seed``), where (``workers``, ``cluster``) and
    whether to show progress; ``checkpoint``/``resume``: the file the re-derived records go to or come
    from (the driver's ``--checkpoint``/``--resume``), and ``certificate``, the sha256 of the certificate's
    bytes, which the checkpoint's header holds."""

    seconds: float | None = None
    sample: int | None = None
    seed: int = 0
    workers: int | None = None
    cluster: str | None = None
    progress: bool | None = False
    checkpoint: str | None = None
    resume: str | None = None
    certificate: str = ""


@dataclass(frozen=True)
class Rederived:
    """What a re-derivation did: ``done`` of ``asked`` records re-derived (``total`` in the certificate),
    the first contradiction (None: none), the seconds it took, how many of the ``done`` were taken
    from a sealed checkpoint of an earlier run (``resumed``), and whether a signal stopped it."""

    done: int
    asked: int
    total: int
    contradiction: str | None
    seconds: float
    resumed: int = 0
    interrupted: bool = False  # by Ctrl-C or SIGTERM (not by the time given running out)

    @property
    def complete(self) -> bool:
        return self.done == self.total


class Contradicted(Exception):
    """A record re-derived to a value that contradicts the certificate (the message says which)."""


class Rederive(firstguess.Search):
    """A search for the driver: each first guess re-evaluated by ``inner`` against its claim's own
    threshold (the driver's threshold is not used); ``judge(claim, record)`` says what contradicts
    the claim (None: nothing). The fold (:meth:`threshold`) judges the records finished so far and
    raises :class:`Contradicted` at the first contradiction, which ends the run in the driver."""

    def __init__(self, inner, claims: dict[str, Claim], judge: Callable, deadline: float | None,
                 certificate: str = ""):
        self.inner, self.claims, self.judge, self.deadline = inner, claims, judge, deadline
        self.certificate = certificate  # the sha256 of the certificate's bytes (the checkpoint's header)
        self.FORMAT, self.KIND = CHECKPOINT_FORMAT, f"re-derivation ({inner.KIND})"
        self.MUST_MATCH, self.LISTS = tuple(inner.MUST_MATCH) + ("certificate_sha256",), inner.LISTS
        self.sealed: set[str] = set()  # records read from a checkpoint under this installation's seal
        self.ABANDONABLE, self.DESC = inner.ABANDONABLE, f"re-deriving {inner.DESC}"
        self.judged: set[str] = set()
        self.spent = False  # the time given ran out (the run then stops as if interrupted)
        self.driver = True  # only the driver's copy judges (a worker's fold would raise on the worker)

    def __getstate__(self) -> dict:
        return {**super().__getstate__(), "driver": False, "judged": set()}

    def prepare(self) -> None:
        self.inner.prepare()

    def warm_up(self) -> None:
        self.inner.warm_up()

    def evaluate(self, word: str, threshold):
        if self.deadline is not None and time.time() > self.deadline:
            self.spent = True
            return None  # the time given is spent: the run stops as if interrupted
        return self.inner.evaluate(word, self.claims[word].threshold)

    def threshold(self, records: Iterable) -> None:
        if self.driver:
            for record in records:
                if record.guess not in self.judged:
                    self.judged.add(record.guess)
                    why = self.judge(self.claims[record.guess], record)
                    if why is not None:
                        raise Contradicted(why)
        return None

    def tighter(self, a, b):
        return a

    def header(self) -> dict:
        return {**self.inner.header(), "format": CHECKPOINT_FORMAT, "certificate_sha256": self.certificate}

    def to_json(self, record) -> dict:
        """The search's record, sealed (:mod:`exact.seal`): a later run of this installation may take it."""
        return sealed(self.inner.to_json(record))

    def from_json(self, d: dict):
        record = self.inner.from_json({k: v for k, v in d.items() if k != "seal"} if isinstance(d, dict) else d)
        if is_sealed(d):
            self.sealed.add(record.guess)
        return record

    def trusted(self, record) -> bool:
        """A resumed record is taken only under this installation's seal (it is judged again either way)."""
        return record.guess in self.sealed

    def summary(self, records: Iterable) -> str:
        return f"no contradiction so far ({self.inner.summary(records)})"


def chosen(claims: dict[str, Claim], order: list[str], sample: int | None, seed: int) -> list[str]:
    """The guesses to re-derive, in ``order``: every one, or ``sample`` of them drawn with ``seed``."""
    words = [w for w in order if w in claims]
    if sample is None or sample >= len(words):
        return words
    drawn = set(random.Random(seed).sample(sorted(words), sample))
    return [w for w in words if w in drawn]


def rederive(inner, claims: dict[str, Claim], order: list[str], judge: Callable, budget: Budget) -> Rederived:
    """Re-evaluate the claims (all, or a sample) in ``order`` through the driver; stop at the first
    contradiction or when ``budget.seconds`` are spent."""
    started = time.perf_counter()
    words = chosen(claims, order, budget.sample, budget.seed)
    deadline = None if budget.seconds is None else time.time() + budget.seconds
    search = Rederive(inner, claims, judge, deadline, budget.certificate)
    try:
        run = firstguess.drive(search, words, cluster=budget.cluster, workers=budget.workers,
                               progress=budget.progress, checkpoint=budget.checkpoint, resume=budget.resume)
        search.threshold(run.records.values())  # the records finished after the last fold, and the resumed ones
        done = len(run.records)
    except Contradicted as e:
        return Rederived(len(search.judged), len(words), len(claims), str(e), time.perf_counter() - started,
                         len(search.sealed))
    return Rederived(done, len(words), len(claims), None, time.perf_counter() - started,
                     len(search.sealed & set(run.records)), run.interrupted and not search.spent)


# --- the claims of each kind, and what contradicts them ------------------------------------------------

def fewest_claims(records: dict[str, tuple[int, bool]]) -> dict:
    """The claims of a fewest-guesses ranking (lower is better), each re-evaluated against its own
    statement. The search returns a value exactly iff it is below the threshold, else a bound at
    least the threshold. An exact total x is re-evaluated against x + 1: the answer is x, or the
    record is false. A bound "at least b" is re-evaluated against b itself: a true bound is rejected
    again (the value is at least b), and an exact value below b contradicts it.

    Why b and not the run's threshold (cutoff + 1, or the top-th exact value: the floor the
    ranking's claim needs, which :func:`exact.wordle.certificate` checks every bound reaches): a
    record is what players read (``exact wordle analyse`` shows it as proven), so each must be true
    as written, not only up to the floor; and it costs about what the floor cost, since the run's
    search stopped at the stage whose sum first reached its threshold, and that sum is b, so the
    same stages reach b again (docs/robustness.md, "Every record means what it says", measures it)."""
    return {w: Claim(w, x, True, x + 1) if exact else Claim(w, x, False, x) for w, (x, exact) in records.items()}


def judge_fewest(claim: Claim, record) -> str | None:
    found = f"exact {record.total}" if record.exact else f"at least {record.total}"
    if claim.exact and not (record.exact and record.total == claim.value):
        return f"{claim.guess}: claimed exact {claim.value}, re-derived {found} (against {claim.threshold})"
    if not claim.exact and record.exact:
        return (f"{claim.guess}: claimed at least {claim.value} (rejected), re-derived exact {record.total}, "
                f"below the threshold {claim.threshold}")
    return None


def wins_claims(outcomes: list[dict]) -> dict:
    """The claims of a global depth-k search (higher is better), each re-evaluated against its own
    statement. The search returns a value exactly iff it is at least the threshold, else a bound
    below it. An exact value v is re-evaluated against v: the answer is v, or the record is false.
    A pruned guess "at most b" is re-evaluated against b + 1: a true bound is pruned again (the
    value is below b + 1), and an exact value reaching b + 1 contradicts it.

    What the certificate needs of a bound (below the optimum; for a ranking, ``--top N``, at most
    the least value it says is proven in its place) is a field check of
    :mod:`exact.wordle.certificate` ("pruned", "proven top"): with both, a true record also settles
    the certificate's claim. Re-deriving against b + 1 rather than against the optimum (or the
    proven value + 1) makes every bound players read true as written; its cost is about the run's,
    whose search stopped where it proved b (docs/robustness.md, "Every record means what it says")."""
    return {r["guess"]: Claim(r["guess"], r["value"], r["exact"], r["value"] if r["exact"] else r["value"] + 1)
            for r in outcomes}


def judge_wins(claim: Claim, record) -> str | None:
    found = f"exact {record.value}" if record.exact else f"a bound {record.value}"
    if claim.exact and not (record.exact and record.value == claim.value):
        return f"{claim.guess}: claimed exact {claim.value}, re-derived {found} (against {claim.threshold})"
    if not claim.exact and record.exact and record.value >= claim.threshold:
        return (f"{claim.guess}: claimed pruned with bound {claim.value}, re-derived exact {record.value}, "
                f"above it")
    return None


# --- the re-derivations of a certificate's claims (exact.wordle.certificate calls them) -----------------

def ranking_records(v: Verification, data: dict, A: WordList, G: WordList, records: dict, budget: Budget,
                    W: Weights | None = None) -> None:
    """Every record of a ranking re-evaluated by its search against its own claim (:func:`fewest_claims`
    gives each its threshold), in the search's order."""
    if v.failed:
        v.add("re-derived", None, "not run: a check above failed")
        return

    cutoff, top = data.get("cutoff"), data.get("top", 1)
    claims = fewest_claims(records)
    inst = make_guesses_instance(A, G, parse_objective(data["objective"]), data["max_guesses"], data["hard"],
                                 weights=W)
    T, rule = position(A, (), data["hard"])
    order = first_guess_order(inst, T, 1, rule, list(records))
    search = FewestSearch(A, G, data["hard"], data["max_guesses"], cutoff, top, data["objective"], inst.F, W)
    search.prepare(inst)
    _say(v, rederive(search, claims, order, judge_fewest, budget), "exact.wordle.fewest.ranking",
         "exact values against value + 1, each bound against itself")


def one_record(header: dict, record: dict, A: WordList, G: WordList, W: Weights | None = None,
               bounds_only: bool = False) -> str | None:
    """One record of a fewest-guesses ranking (``{"guess": w, "total": N}`` or ``{"guess": w, "at_least": N}``;
    ``header``: its certificate, or its checkpoint's header) re-derived as verify re-derives it
    (:func:`fewest_claims`, :func:`judge_fewest`): the contradiction, or None when the record holds.
    ``bounds_only`` (a bound): only the first stages of the search (class bounds, look-ahead) against b, a
    proof of "at least b" when they reach it, else "not confirmed" (never the exact search a false bound
    would cost: a full solve of the guess)."""
    exact = "total" in record
    value = record["total" if exact else "at_least"]
    claim = fewest_claims({record["guess"]: (value, exact)})[record["guess"]]
    search = FewestSearch(A, G, bool(header["hard"]), header["max_guesses"], header.get("cutoff"),
                          header.get("top", 1), header["objective"], None, W)
    search.prepare()
    if not (bounds_only and not exact):
        return judge_fewest(claim, search.evaluate(claim.guess, claim.threshold))
    state = search.state
    T, rule = state["position"]
    total, _, _ = first_value(state["inst"], state["memo"], T, G.index[claim.guess], 1, rule, claim.threshold,
                              bounds_only=True)
    return None if total >= claim.threshold else (f"{claim.guess}: at least {value} not confirmed by the class "
                                                  f"bounds and the look-ahead (they prove at least {total})")


def confirmed(path: Path, header: dict, record: dict, A: WordList, G: WordList, W: Weights | None = None,
              bounds_only: bool = False) -> str | None:
    """:func:`one_record` of the ranking file ``path``, remembered on this machine: the outcome is kept in
    the cache folder (``records/``) under this installation's seal (:mod:`exact.seal`), keyed by the
    sha256 of the file's bytes and the guess, so that each record is re-derived once per machine (an
    edited file, another record or an unsealed memo is re-derived). The contradiction, or None."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    memo = Path(cache_dir()) / "records" / f"{hashlib.sha256((digest + record['guess']).encode()).hexdigest()}.json"
    try:
        known = json.loads(memo.read_text())
    except (OSError, ValueError):
        known = None
    if (is_sealed(known) and known.get("certificate_sha256") == digest and known.get("record") == record
            and known.get("bounds_only") == bounds_only):
        return known.get("contradiction")
    why = one_record(header, record, A, G, W, bounds_only)
    document = sealed({"certificate_sha256": digest, "record": record, "bounds_only": bounds_only,
                       "contradiction": why})
    try:
        atomic_write(memo, lambda f: f.write(json.dumps(document).encode()), mkdir=True)
    except OSError:
        pass  # no cache folder: re-derived again next time
    return why


def best_tree(data: dict, A: WordList, G: WordList, guess: str, W: Weights | None = None) -> Tree:
    """The tree of a ranking's best first guess ``guess``, built afresh by the search (optimal play after
    it, its classes solved from an empty memo): for a certificate that lists no tree file, so that the
    value it claims for the best is still replayed (the replay, not this search, is the check)."""
    inst = make_guesses_instance(A, G, parse_objective(data["objective"]), data["max_guesses"], data["hard"],
                                 weights=W)
    T, rule = position(A, (), data["hard"])
    return first_tree(inst, new_memo(), T, G.index[guess], 1, rule)


def global_records(v: Verification, data: dict, A: WordList, G: WordList, budget: Budget,
                     W: Weights | None = None) -> None:
    """Every record of a global depth-k search re-evaluated by its search against its own claim
    (:func:`wins_claims`), in the search's order; with the certificate's weights ``W``."""
    if v.failed:
        v.add("re-derived", None, "not run: a check above failed")
        return
    claims = wins_claims(data["first_guess_outcomes"])
    F = feedback_matrix(G, A)
    order = [G.words[g] for g in wins_first_guess_order(A, G, F)]
    search = WinsSearch(A, G, data["depth"], data["hard"], BATCH, F, weights=W)
    _say(v, rederive(search, claims, order, judge_wins, budget), "exact.wordle.wins.ranking",
         "exact values against themselves, each pruned bound b against b + 1")


def _say(v: Verification, r: Rederived, search: str, thresholds: str) -> None:
    """The check ``re-derived``: FAIL at a contradiction, ok when every record was re-derived, else
    unconfirmed with how many were ("N of M records re-derived", which the command line repeats);
    stopped by a signal, the verification is marked interrupted (the command then exits 130/143)."""
    earlier = (f"; {r.resumed} of them re-derived by an earlier run of this installation, read from its sealed "
               f"checkpoint" if r.resumed else "")
    if r.contradiction is not None:
        v.add("re-derived", False, f"{r.contradiction}; {r.done} of {r.total} records re-derived by {search}")
    elif r.complete:
        v.add("re-derived", True, f"{r.done} of {r.total} records re-derived by {search} in {r.seconds:.1f} s "
                                  f"({thresholds}): each on its side of its threshold{earlier}")
    else:
        why = ("interrupted" if r.interrupted else "a sample" if r.asked < r.total
               else "stopped: the time given spent")
        v.interrupted = v.interrupted or r.interrupted
        v.add("re-derived", None, f"{r.done} of {r.total} records re-derived ({why}; {thresholds}; "
                                  f"{r.seconds:.1f} s); no contradiction{earlier}")


def optimum(v: Verification, data: dict, A: WordList, G: WordList, kind: str, budget: Budget,
            W: Weights | None = None, first: str | None = None) -> None:
    """The optimum itself, by the search that made it (no time limit unless ``budget.seconds``); ``first``: the
    first guess the certificate fixed (None: it searched every first guess)."""
    if data["status"] != "OPTIMAL":
        v.add("optimal", True, f"status {data['status']}: no optimality claimed")
        return
    if v.failed:  # every argument below rests on the checks above: none is made on a failed one
        v.add("optimal", None, "not run: a check above failed")
        return
    if kind == "wins-global":
        whole = all(o == "ok" for n, o, _ in v.checks if n == "re-derived")
        v.add("optimal", True if whole else None,
              "every first guess resolved: exact, or pruned by a bound below the optimum (checked above), "
              + ("each record re-derived (check re-derived)" if whole else "not every record re-derived"))
        return
    if kind == "fewest" and data["objective"] == "feasible" and (data.get("tree") or {}).get("files"):
        v.add("optimal", True, f"objective feasible: what is claimed is a tree that solves every answer within "
                               f"{data['max_guesses']} guesses, and the trees replayed above are that proof")
        return
    started = time.perf_counter()
    try:
        if kind == "wins-depth-k":
            done, value, claimed, how = _resolve_wins(data, A, G, first, budget.seconds, W)
        else:
            done, value, claimed, how = _resolve_fewest(data, A, G, first, budget.seconds, W)
    except ExactError as e:
        v.add("optimal", False, f"re-deriving failed: {e}")
        return
    seconds = time.perf_counter() - started
    if not done:
        v.add("optimal", None, f"the optimum {claimed} rests on the search ({how}): not re-derived within "
                               f"{budget.seconds:g} s (--resolve-time); --partial accepts it unchecked")
    else:
        v.add("optimal", value == claimed, f"re-derived by {how} in {seconds:.1f} s: {value}; claimed {claimed}")


def _after(data: dict, G: WordList) -> tuple:
    return parse_history(" ".join(x for pair in data.get("after") or [] for x in pair), G)


def _resolve_wins(data: dict, A: WordList, G: WordList, first, seconds, W: Weights | None = None):
    """(finished?, value, claimed, how) of the depth-k DP run again, within ``seconds`` (None: no limit)."""
    r = dp.solve(A, G, depth=data["depth"], hard=data["hard"], first=first, top=1, progress=False,
                 after=_after(data, G), time_limit=None if seconds is None else max(seconds, 1e-6), weights=W)
    return r.status == "OPTIMAL" and not r.timed_out, r.wins, data["wins"], "exact.wordle.wins.dp"


def _resolve_fewest(data: dict, A: WordList, G: WordList, first, seconds, W: Weights | None = None):
    """(finished?, value, claimed, how) of the branch and bound run again. It takes no time limit: with
    ``seconds`` given it runs only on small instances (answers x guesses up to :data:`SMALL`)."""
    how = "exact.wordle.fewest.search" + (f" with the first guess {first} fixed" if first else "")
    if seconds is not None and len(A) * len(G) > SMALL:
        return False, None, data["total"], how + " (it takes no time limit: not run under --resolve-time)"
    r = solve_guesses(A, G, objective=data["objective"], first=first, max_guesses=data["max_guesses"],
                      hard=data["hard"], cutoff=data.get("cutoff"), after=_after(data, G), progress=False,
                      weights=W)
    value = r.cost if data.get("cost") is not None else r.total
    claimed = data["cost"] if data.get("cost") is not None else data["total"]
    return r.status == "OPTIMAL" and not r.interrupted, value, claimed, how


#: answers x guesses up to which a fewest-guesses certificate is re-derived under --resolve-time (the
#: branch and bound takes no time limit; without --resolve-time every instance is)
SMALL = 200_000
