"""Re-deriving the per-first-guess records of a certificate (``exact wordle verify``), through the one
driver of searches over first guesses (:mod:`exact.firstguess`): in process or on Dask, with its
progress and its estimate of the time left.

A record claims one first guess's value: exact, or a bound that rejected it against a threshold.
Each record is re-evaluated by the search that made it (:class:`exact.wordle.fewest.ranking.FewestSearch`,
:class:`exact.wordle.wins.ranking.WinsSearch`) against a threshold of its own (a :class:`Claim`),
chosen so that the answer settles the claim (the arguments are in :func:`fewest_claims` and
:func:`wins_claims`); a search's bound may differ from the one recorded (it depends on the memo's
state), but it may never fall on the other side of the threshold. The first contradiction stops
the run (:class:`Contradicted`, raised by the fold the driver calls between evaluations).

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

import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from exact import firstguess
from exact.seal import is_sealed, sealed

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
    the first contradiction (None: none), the seconds it took, and how many of the ``done`` were taken
    from a sealed checkpoint of an earlier run (``resumed``)."""

    done: int
    asked: int
    total: int
    contradiction: str | None
    seconds: float
    resumed: int = 0

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
        self.driver = True  # only the driver's copy judges (a worker's fold would raise on the worker)

    def __getstate__(self) -> dict:
        return {**super().__getstate__(), "driver": False, "judged": set()}

    def prepare(self) -> None:
        self.inner.prepare()

    def warm_up(self) -> None:
        self.inner.warm_up()

    def evaluate(self, word: str, threshold):
        if self.deadline is not None and time.time() > self.deadline:
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
                     len(search.sealed & set(run.records)))


# --- the claims of each kind, and what contradicts them ------------------------------------------------

def fewest_claims(records: dict[str, tuple[int, bool]], run_threshold: int, proven_value: int | None) -> dict:
    """The claims of a fewest-guesses ranking (lower is better). An exact total x is re-evaluated
    against x + 1: the search then returns it exactly iff the value is below x + 1, so the answer is
    x, or the record is false (the run valued it against a threshold of at least x + 1, so this is
    no dearer). A bound b is re-evaluated against the run's threshold (``run_threshold``: cutoff + 1,
    or the top-th best exact value if lower), raised to ``proven_value`` (the largest exact value the
    certificate says is proven among the best: each rejected guess must be no better than it), never
    above b (a true bound b is reached at any threshold up to b): it must be rejected again."""
    floor = run_threshold if proven_value is None else max(run_threshold, proven_value)
    return {w: Claim(w, x, True, x + 1) if exact else Claim(w, x, False, min(x, floor))
            for w, (x, exact) in records.items()}


def judge_fewest(claim: Claim, record) -> str | None:
    found = f"exact {record.total}" if record.exact else f"at least {record.total}"
    if claim.exact and not (record.exact and record.total == claim.value):
        return f"{claim.guess}: claimed exact {claim.value}, re-derived {found} (against {claim.threshold})"
    if not claim.exact and record.exact:
        return (f"{claim.guess}: claimed at least {claim.value} (rejected), re-derived exact {record.total}, "
                f"below the threshold {claim.threshold}")
    return None


def wins_claims(outcomes: list[dict], optimum: int, proven_value: int | None = None) -> dict:
    """The claims of a global depth-k search (higher is better). An exact value v is re-evaluated
    against v: the search returns a value exactly iff it is at least the threshold, so the answer
    is v, or the record is false (the run's threshold was at most v). A pruned guess is re-evaluated
    against the claimed optimum (at least the threshold it faced, so no dearer): it must be pruned
    again, or valued exactly below the optimum; a value reaching the optimum contradicts it.

    A ranking (``--top N``) claims more: ``proven_value``, the least exact value it says is proven
    in its place, is at least every pruned guess's value. Its pruned guesses are re-evaluated against
    ``max(b + 1, min(optimum, proven_value + 1))`` (b its bound): a value reaching that threshold
    beats the proven value (or the optimum); a true bound b never reaches it, since b + 1 is at most it."""
    def pruned(b: int) -> int:
        return optimum if proven_value is None else max(b + 1, min(optimum, proven_value + 1))
    return {r["guess"]: Claim(r["guess"], r["value"], r["exact"], r["value"] if r["exact"] else pruned(r["value"]))
            for r in outcomes}


def judge_wins(claim: Claim, record) -> str | None:
    found = f"exact {record.value}" if record.exact else f"a bound {record.value}"
    if claim.exact and not (record.exact and record.value == claim.value):
        return f"{claim.guess}: claimed exact {claim.value}, re-derived {found} (against {claim.threshold})"
    if not claim.exact and record.exact and record.value >= claim.threshold:
        return (f"{claim.guess}: claimed pruned with bound {claim.value} below the optimum {claim.threshold}, "
                f"re-derived exact {record.value}")
    return None
