"""The live solver behind ``exact wordle serve``: one job per page (tab) at a time, a proof or a game's
rating in a worker process of its own (:func:`exact.wordle.study.serve.in_worker`), cancelled when the page
moves on, closes or stops asking; at most ``workers`` of them at once across every page, the rest waiting in
line for a free core (first come, first served); and what the page is told (:class:`Reply`). The advice
itself (the proven trees, the store, the heuristic guess, the expected duration, the rating) is
:mod:`exact.wordle.study.serve`'s.

Bounds, each argued here: a worker process exists only for a job in :meth:`Solver.admit`'s ``workers``
slots, so at most ``workers`` are alive at once (a job leaves its slot once its worker has answered or been
cancelled); a tab has one job (a new one cancels its old one); at most :data:`MAX_TABS` tabs hold a job (a
new tab beyond them is refused with :class:`Busy`), and a tab that stops asking for ``tab_timeout`` seconds
loses its job (:meth:`Solver.reap`), so the line stays bounded; a worker dies with the server
(:func:`exact.stop.die_with_parent`, set in :func:`exact.wordle.study.serve.in_worker`).
"""

from __future__ import annotations

import json
import multiprocessing
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from exact.errors import ExactError
from exact.game.position import Position
from exact.partitions import feedback_matrix
from exact.wordle.fewest.search import Bounds
from exact.progress import cores
from exact.wordle.study.play import expected_seconds, proof_seconds
from exact.wordle.study.serve import (History, InstantAdvice, Rating, Setup, few_left, heuristic_guess,
                                      in_worker, known_positions, plausible, prove, proven_positions, rate, rate_max,
                                      read_position, solved)
from exact.wordle.study.store import Store

#: Seconds a cancelled worker is given to end on SIGTERM before it is killed.
CANCEL_GRACE = 5.0
#: The most tabs holding a job (running or waiting) at once; a job is a few hundred bytes while it waits.
MAX_TABS = 1000


class Busy(ExactError):
    """Too many tabs hold a job: the page is told to ask again later (HTTP 503)."""


@dataclass
class Job:
    """A live proof for one page (tab) at one position, or the rating of its game (:meth:`Solver.rate`):
    waiting for a free core until :meth:`start` (``process`` None), then running in a worker of its own."""

    key: str
    task: Callable
    args: tuple
    n: int
    heuristic: str | None  # None while it is being computed
    estimate: float
    queued: float = field(default_factory=time.monotonic)
    polled: float = field(default_factory=time.monotonic)
    started: float | None = None
    process: multiprocessing.process.BaseProcess | None = None
    conn: object = None
    outcome: tuple | None = None
    rating: Rating | None = None  # a rating's job: the quick pass, shown while the worker solves the rest
    reports: bool = False  # the task is given ``report`` (a proof: what it knows on the way, ``known``)
    known: Bounds | None = None

    @property
    def waiting(self) -> bool:
        return self.process is None and self.outcome is None

    def start(self, context) -> None:
        """Run ``task(*args)`` in a worker process of its own (:func:`in_worker`)."""
        receive, send = context.Pipe(duplex=False)
        self.process = context.Process(target=in_worker, args=(send, self.task, self.args, self.reports),
                                       daemon=True)
        self.process.start()
        send.close()
        self.conn, self.started = receive, time.monotonic()

    def holds_a_core(self) -> bool:
        """Started and not yet answered (its worker may be alive): it keeps its slot."""
        return self.process is not None and self.check() is None

    def check(self) -> tuple | None:
        """("ok", what the task returned) or ("error", line) once the worker has answered (or died), else None."""
        if self.outcome is None and self.process is not None:
            while self.outcome is None and self.conn.poll():
                try:
                    kind, found = self.conn.recv()
                except EOFError:
                    self.outcome = ("error", "the live solve ended without an answer")
                    break
                if kind == "known":
                    if self.known is None:  # the search has counted its contenders: a better estimate
                        self.estimate = time.monotonic() - self.started + proof_seconds(self.n, found.contenders)
                    self.known = found  # the latest: the bounds only narrow
                else:
                    self.outcome = (kind, found)
                    self.process.join(timeout=CANCEL_GRACE)  # it exits once it has answered
            if self.outcome is None and not self.process.is_alive() and not self.conn.poll():
                self.outcome = ("error", f"the live solve stopped (exit status {self.process.exitcode})")
        return self.outcome

    def cancel(self) -> None:
        """Stop the worker, if it started: SIGTERM, then SIGKILL if it has not ended within :data:`CANCEL_GRACE`
        seconds (a worker inside a numba kernel holds SIGTERM back until the kernel returns: exact.stop.held)."""
        if self.process is None:
            self.outcome = ("error", "cancelled before it started")
            return
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=CANCEL_GRACE)
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=CANCEL_GRACE)
        self.conn.close()


@dataclass(frozen=True)
class Reply:
    """What the page is told about a position.

    ``status``: ``proven`` (the guess and its value are proven: a tree, the store or a live proof),
    ``tree`` (the opener of a proven tree, proven for that opener only), ``waiting`` (a proof waits for a
    free core: ``message`` says how many are ahead; the guess is the heuristic one), ``working`` (a proof is
    running: the guess is the heuristic one), ``solved`` (the last guess was the answer), ``failed`` (the
    proof failed: the heuristic guess stands, ``message`` says why).
    """

    status: str
    n: int
    weight: int = 0  # with weights: the weight of the answers left (``value`` is then weighted)
    guess: str | None = None
    value: int | None = None
    source: str = ""
    objective: str = "guesses"
    words: tuple[str, ...] = ()
    elapsed: float | None = None
    estimate: float | None = None
    message: str = ""
    possible: bool | None = None  # the guess is one of the answers left (None: no guess)
    known: Bounds | None = None  # working: what the proof knows so far (``guess`` is then its best strategy's)

    def to_json(self) -> dict:
        data = {"status": self.status, "n": self.n, "guess": self.guess, "value": self.value, "source": self.source,
                "objective": self.objective, "words": list(self.words), "message": self.message,
                "possible": self.possible}
        if self.weight:
            data["weight"] = self.weight
        if self.value is not None and self.objective == "guesses" and self.status in ("proven", "tree"):
            data["expected"] = self.value / (self.weight or self.n)
        if self.elapsed is not None:
            data.update(elapsed=round(self.elapsed, 1), estimate=round(self.estimate, 1))
        if self.known is not None:
            per = self.weight or self.n
            data["known"] = {"lower": self.known.lower / per, "contenders": self.known.contenders,
                             "upper": None if self.known.upper is None else self.known.upper / per}
        return data


#: the answers left are listed on the page when at most this many
SHOW_WORDS = 30
HEURISTIC = "the guess making the most classes of the answers left; not proven"
FOUND = "the best strategy the proof has found so far; not yet proven best"


class Solver:
    """The advice for every open page: instant advice, the store, else one live job per page (tab), at most
    ``workers`` of them running at once (default: the cores, :func:`exact.progress.cores`), the rest waiting.

    A tab's job is cancelled when the tab asks about another position (it moved past it), when it says it
    is closed (:meth:`close`), and when it has not asked for ``tab_timeout`` seconds (:meth:`reap`: a tab
    closed without saying so). Thread-safe: the web framework calls it from several threads.
    """

    def __init__(self, setup: Setup, instant: InstantAdvice, store: Store | None, tab_timeout: float = 90.0,
                 rate_limit: int | None = None, workers: int | None = None):
        self.setup, self.instant, self.store, self.tab_timeout = setup, instant, store, tab_timeout
        self.rate_limit = rate_max() if rate_limit is None else rate_limit  # the most answers a rating solves
        self.workers = cores() if workers is None else workers
        if self.workers < 1:
            raise ExactError(f"workers: at least 1, not {self.workers}", params=("workers",))
        self.jobs: dict[str, Job] = {}
        self.lock = threading.RLock()
        self.matrix_lock = threading.Lock()
        # forkserver: each worker forks from one clean process that imported the engines once (the server
        # itself runs threads, which fork does not copy safely; spawn would import everything per proof)
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["exact.wordle.study.serve"])
        self._F = None
        self._heuristic: dict[str, str] = {}
        self._stopping = 0  # jobs being cancelled: their workers may live on for CANCEL_GRACE, holding a core

    def ask(self, tab: str, history: History) -> Reply:
        """The advice at the position after ``history`` for this tab (queueing its live proof if needed), and
        whether its guess can be the answer (a guess that cannot only sorts the answers left)."""
        position = read_position(self.setup, history)
        reply = self._advice(tab, history, position)
        if reply.status == "tree" and not history and self.setup.best_first == reply.guess:
            reply = replace(reply, status="proven", source="proven best of all first guesses")
        return replace(reply, possible=reply.guess in position.candidates) if reply.guess else reply

    def _advice(self, tab: str, history: History, position: Position) -> Reply:
        n, words = len(position.candidates), position.candidates if len(position.candidates) <= SHOW_WORDS else ()
        reply = dict(n=n, words=words, objective=self.setup.objective,
                     weight=self.setup.weight(position.candidates) if self.setup.weights is not None else 0)
        if solved(position):
            self.close(tab)
            return Reply("solved", guess=position.history[-1][0], **reply)
        found = few_left(self.setup, position) or self.instant.advice(position)
        if found is not None:
            self.close(tab)
            status, source = ("proven", "a proven tree") if found.proven else ("tree", "a proven tree's opener")
            source = "one or two answers left" if n <= 2 else source
            return Reply(status, guess=found.guess, value=found.value, source=source, **reply)
        key = self.setup.key(position)
        stored = self.store.get(key) if self.store is not None else None
        if stored is not None and not plausible(self.setup, position, stored):
            stored = None  # not what this code stores for the position (or impossible there): proven again
        if stored is not None:
            self.close(tab)
            return Reply("proven", guess=stored.guess, value=stored.value, source="the store (proven before)",
                         **reply)
        return self._live(tab, key, position, history, reply)

    def _live(self, tab: str, key: str, position: Position, history: History, reply: dict) -> Reply:
        with self.lock:
            job = self.jobs.get(tab)
            if job is not None and job.key != key:
                self.close(tab)
                job = None
            if job is None:
                job = self._start(tab, key, position, history)
            job.polled = time.monotonic()
            self.admit()
            outcome, ahead = job.check(), self.ahead(job)
        if job.waiting:
            return Reply("waiting", guess=job.heuristic, source=HEURISTIC, elapsed=time.monotonic() - job.queued,
                         estimate=job.estimate, message=self.waiting_line(ahead), **reply)
        elapsed = time.monotonic() - job.started
        if outcome is None:
            known = job.known
            if known is not None and known.guess is not None:  # a complete strategy: better than the heuristic's
                return Reply("working", guess=known.guess, source=FOUND, elapsed=elapsed, estimate=job.estimate,
                             known=known, **reply)
            return Reply("working", guess=job.heuristic, source=HEURISTIC, elapsed=elapsed, estimate=job.estimate,
                         known=known, **reply)
        kind, found = outcome
        if kind == "error":
            return Reply("failed", guess=job.heuristic, source=HEURISTIC, message=found, **reply)
        if self.store is not None:  # the position and every one its tree reaches: the next guesses are instant
            self.store.put_many([(key, found.solution), *proven_positions(self.setup, position, found.tree)])
        return Reply("proven", guess=found.solution.guess, value=found.solution.value,
                     source=f"proven live ({elapsed:.0f} s)", **reply)

    def waiting_line(self, ahead: int) -> str:
        return (f"waiting for a free core: the server proves at most {self.workers} at once"
                f"{f', and {ahead} more asked before this one' if ahead else ''}")

    def rate(self, tab: str, history: History) -> Rating:
        """The rating of the game ``history`` (ended: solved, or given up) for this tab (:func:`rate`): at
        once what the committed files and the opener book give; the values a rating solves live are then
        solved in the tab's job, as a live proof is (in the same line for a core, cancelled the same ways),
        and the page asks again."""
        read_position(self.setup, history)  # one line for colours no answer gives
        key = "rating " + json.dumps(history)
        with self.lock:
            job = self.jobs.get(tab)
        if job is None or job.key != key:
            known = known_positions(self.setup, self.instant, self.store, history)
            quick = rate(self.setup, history, self.rate_limit, quick=True, known=known)
            with self.lock:
                self.close(tab)
                if quick.status == "done":
                    return quick
                job = self._queue(tab, key, rate, (self.setup, history, self.rate_limit, False, known),
                                  len(history), quick.estimate)
                job.rating = quick
        with self.lock:
            job.polled = time.monotonic()
            self.admit()
            outcome, ahead = job.check(), self.ahead(job)
        rows, nxt = job.rating.rows, job.rating.next
        if job.waiting:
            return Rating("waiting", rows, nxt, job.estimate, time.monotonic() - job.queued, self.waiting_line(ahead),
                          summary=job.rating.summary)
        elapsed = time.monotonic() - job.started
        if outcome is None:
            return Rating("working", rows, nxt, job.estimate, elapsed, summary=job.rating.summary)
        kind, found = outcome
        if kind == "error":
            return Rating("failed", rows, nxt, job.estimate, elapsed, found, summary=job.rating.summary)
        if self.store is not None and found.learned:  # the next rating, and the advice, read them at once
            self.store.put_many(found.learned)
            found = replace(found, learned=())
            job.outcome = (kind, found)
        return found

    def _queue(self, tab: str, key: str, task, args: tuple, n: int, estimate: float, heuristic: str | None = "",
               reports: bool = False) -> Job:
        """The tab's new job ``task(*args)`` (the caller closed its old one), in line for a core (:meth:`admit`);
        :class:`Busy` when :data:`MAX_TABS` tabs hold one already."""
        with self.lock:
            if tab not in self.jobs and len(self.jobs) >= MAX_TABS:
                raise Busy(f"the server is busy: {len(self.jobs)} pages have a proof running or waiting; "
                           f"ask again in a minute")
            job = self.jobs[tab] = Job(key, task, args, n, heuristic, estimate, reports=reports)
            self.admit()
        return job

    def admit(self) -> None:
        """Start the jobs that waited longest, while fewer than ``workers`` hold a core (module docstring)."""
        with self.lock:
            free = self.workers - self._stopping - sum(job.holds_a_core() for job in self.jobs.values())
            waiting = sorted((job for job in self.jobs.values() if job.waiting), key=lambda job: job.queued)
            for job in waiting[:max(free, 0)]:
                job.start(self.context)

    def ahead(self, job: Job) -> int:
        """The jobs waiting that were queued before ``job``."""
        with self.lock:
            return sum(1 for other in self.jobs.values() if other.waiting and other.queued < job.queued)

    def _start(self, tab: str, key: str, position: Position, history: History) -> Job:
        n = len(position.candidates)
        job = self._queue(tab, key, prove, (self.setup, history), n, expected_seconds(n), self._heuristic.get(key),
                          reports=True)
        if job.heuristic is None:  # off the request: loading the feedback matrix and sorting take seconds
            threading.Thread(target=self._guess, args=(job, position), daemon=True).start()
        return job

    def _guess(self, job: Job, position: Position) -> None:
        with self.matrix_lock:  # one at a time: each takes a guesses-by-answers-left array
            if self._F is None:
                self._F = feedback_matrix(self.setup.guesses, self.setup.answers)
            job.heuristic = self._heuristic[job.key] = heuristic_guess(self.setup, position, self._F)

    def close(self, tab: str, wait: bool = False) -> None:
        """Cancel the tab's job, if any (its core goes to the job that waited longest, once its worker has
        ended). The request that closes it does not wait for that (``wait``: it does): a worker inside a numba
        kernel may take up to :data:`CANCEL_GRACE` seconds to end, and a page that moves on (a new game, the
        next guess) is answered at once; the core stays counted as taken until the worker has ended."""
        with self.lock:
            job = self.jobs.pop(tab, None)
            if job is None:
                return
            self._stopping += 1
        if wait or job.process is None:
            self._cancel(job)
        else:
            threading.Thread(target=self._cancel, args=(job,), daemon=True).start()

    def _cancel(self, job: Job) -> None:
        try:
            job.cancel()
        finally:
            with self.lock:
                self._stopping -= 1
        self.admit()

    def reap(self) -> None:
        """Cancel the jobs of tabs that stopped asking (closed without saying so), and fill the free cores."""
        now = time.monotonic()
        with self.lock:
            gone = [tab for tab, job in self.jobs.items() if now - job.polled > self.tab_timeout]
        for tab in gone:
            self.close(tab)
        self.admit()

    def running(self) -> int:
        """The worker processes alive."""
        with self.lock:
            return sum(1 for job in self.jobs.values() if job.process is not None and job.process.is_alive())

    def shutdown(self) -> None:
        with self.lock:
            tabs = list(self.jobs)
            for job in self.jobs.values():
                if job.waiting:
                    job.cancel()  # none starts while the others are cancelled
        for tab in tabs:
            self.close(tab, wait=True)
