"""The adaptive Lingo game (the TV rules), solved exactly with the Wordle engine, letter by letter.

The rules: the answer is uniform on the pool W; the player is told its first letter L and then
guesses adaptively, seeing each feedback (the rule of :mod:`exact.feedback`) before the next guess,
with at most K guesses; every guess is a pool word (with ``same_first_letter``: a pool word that
starts with L). The player wins when one of the K guesses is the answer.

Why it splits by letter. Told L, the answer is uniform on W_L (the words starting with L), and a
strategy for L never meets another letter's answers; so the best strategy is the best one per
letter, and

    wins = sum over L of wins_K(W_L),    P(win) = wins / |W|,

where ``wins_K(T)`` is the Wordle recursion (answers T, guesses G = W or W_L, wins_1 = 1):
``wins_K(T) = max over g in G of the sum over the classes P of g on T of wins_{K-1}(P)``, the
all-green class {g} counting 1. That recursion is exactly :func:`exact.wordle.wins.dp.solve` with
``answers = W_L`` and ``guesses = G``; this module only calls it (and :func:`~exact.wordle.wins.trees.best_tree`
for the optimal trees) and adds the letters up.

One shortcut, which keeps exactness: ``wins_{K'}(T) <= wins_K(T) <= |T|`` for K' <= K (a strategy
with K' guesses is one with K). So once a letter's words are all won with K' guesses, they are all
won with every larger K, by the same tree, and no search is needed: the outcome at K' is reused
(``optimal_first`` then lists the first guesses optimal at K', and ``all_optimal_first`` is False).
Likewise a first guess whose value at K reaches |T| is optimal at K: the first guesses optimal at
K - 1 (up to :data:`TRIES`) are tried first with ``dp.solve(first=...)``, and every first guess is
searched only when none of them reaches |T|. The letters are solved for K = 1, 2, ... in turn.

Data types:

- :class:`LetterOutcome`: one letter's ``n``, ``wins``, ``status`` (OPTIMAL, or FEASIBLE / UNKNOWN
  when interrupted), the tree's first guess, the optimal first guesses found, seconds;
- :class:`AdaptiveResult`: the per-letter outcomes and their sums; ``to_json`` is the certificate
  (kind :data:`KIND`) that ``exact lingo verify`` checks by replaying the trees.

>>> from exact.words import words_from_lines
>>> pool = words_from_lines(["baker", "bakes", "baled", "bales", "cater", "cates", "dates"])
>>> r = solve_adaptive(pool, 2)
>>> r.wins, r.n, [(o.letter, o.wins, o.n) for o in r.letters]
(7, 7, [('b', 4, 4), ('c', 2, 2), ('d', 1, 1)])
>>> solve_adaptive(pool, 1).wins  # one guess: one answer per letter
3
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from dataclasses import dataclass, field
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from exact import progress, stop
from exact.errors import ExactError
from exact.feedback import RULE_VERSION
from exact.fileio import check_fields, make_folder, write_json
from exact.game.formats import read_tree, write_tree
from exact.game.tree import Tree, replay
from exact.partitions import feedback_matrix
from exact.seal import is_sealed, sealed
from exact.wordle.wins import dp, trees as dp_trees
from exact.words import WordList, words_from_lines

KIND = "exact.lingo.adaptive"
FORMAT = 1


@dataclass
class LetterOutcome:
    letter: str
    n: int
    guesses: int  # how many words may be guessed
    wins: int
    status: str  # OPTIMAL, FEASIBLE (stopped: a strategy found, wins a lower bound), UNKNOWN (nothing)
    first: str | None  # the first guess of the tree
    optimal_first: list[str]
    all_optimal_first: bool  # optimal_first lists every optimal first guess
    seconds: float
    tree: Tree | None = field(default=None, repr=False)
    tree_file: str | None = None
    tree_sha256: str | None = None
    timed_out: bool = False  # stopped by the letter's time limit (FEASIBLE): the next K is still tried
    tree_guesses: int | None = None  # the guesses the tree was made for, when fewer than ``guesses`` allowed

    @classmethod
    def from_json(cls, letter: str, d: dict) -> "LetterOutcome":
        """A letter of a certificate (:meth:`to_json`), its tree left in its file."""
        return cls(letter, int(d["n"]), int(d["guesses"]), int(d["wins"]), d["status"], d["first"],
                   list(d["optimal_first"]), bool(d["all_optimal_first"]), float(d["seconds"]), None,
                   d.get("tree"), d.get("tree_sha256"), bool(d.get("timed_out", False)), d.get("tree_guesses"))

    def first_guesses(self) -> list[str]:
        """The tree's first guess, then the other optimal first guesses found: the ones to try first at K + 1."""
        return ([self.first] if self.first else []) + [w for w in self.optimal_first if w != self.first]

    @property
    def upper_bound(self) -> int:
        """wins when OPTIMAL; else n (wins_K(T) <= |T|: the first guesses not examined could reach it)."""
        return self.wins if self.status == "OPTIMAL" else self.n

    def to_json(self) -> dict:
        return {"n": self.n, "guesses": self.guesses, "wins": self.wins, "probability": self.wins / self.n,
                "status": self.status, "upper_bound": self.upper_bound, "timed_out": self.timed_out,
                "first": self.first, "optimal_first": self.optimal_first,
                "all_optimal_first": self.all_optimal_first, "seconds": round(self.seconds, 3),
                "tree": self.tree_file, "tree_sha256": self.tree_sha256,
                **({"tree_guesses": self.tree_guesses} if self.tree_guesses is not None else {})}


@dataclass
class AdaptiveResult:
    pool: WordList
    K: int
    same_first_letter: bool
    letters: list[LetterOutcome]
    seconds: float
    interrupted: bool = False
    command: str = ""
    letter_time_limit: float | None = None

    @property
    def n(self) -> int:
        return len(self.pool)

    @property
    def wins(self) -> int:
        return sum(o.wins for o in self.letters)

    @property
    def probability(self) -> float:
        return self.wins / self.n

    @property
    def upper_bound(self) -> int:
        """The letters' upper bounds added up, |W_L| for a letter not solved (valid only when every
        letter is in the result; see :attr:`complete`)."""
        return sum(o.upper_bound for o in self.letters)

    @property
    def complete(self) -> bool:
        return {o.letter for o in self.letters} == set(letter_groups(self.pool))

    @property
    def status(self) -> str:
        """OPTIMAL when every letter is; FEASIBLE (a lower bound) when some letter is not finished."""
        done = {o.letter for o in self.letters if o.status == "OPTIMAL"}
        return "OPTIMAL" if len(done) == len(letter_groups(self.pool)) else "FEASIBLE"

    def to_json(self) -> dict:
        return {
            "kind": KIND, "format": FORMAT, "rule_version": RULE_VERSION,
            "words": self.pool.source, "instance_sha256": self.pool.sha256, "n": self.n,
            "guesses_allowed": self.K, "same_first_letter": self.same_first_letter,
            "wins": self.wins, "probability": self.probability, "status": self.status,
            **({"upper_bound": self.upper_bound, "upper_probability": self.upper_bound / self.n}
               if self.complete else {}),
            "letter_time_limit": self.letter_time_limit,
            "interrupted": self.interrupted, "seconds": round(self.seconds, 3), "cores": progress.cores(),
            "command": self.command,
            "method": "per first letter: exact.wordle.wins.dp.solve (answers = the letter's words, guesses = "
                      + ("the letter's words" if self.same_first_letter else "the whole pool")
                      + "), trees by exact.wordle.wins.trees.best_tree; a first guess winning every answer is "
                        "optimal without examining the others",
            "letters": {o.letter: o.to_json() for o in self.letters},
        }


def letter_groups(pool: WordList) -> dict[str, WordList]:
    """The words of each first letter, in pool order, as word lists named ``<source>:<letter>``."""
    groups: dict[str, list[str]] = {}
    for w in pool.words:
        groups.setdefault(w[0], []).append(w)
    return {L: words_from_lines(ws, f"{pool.source}:{L}") for L, ws in sorted(groups.items())}


def guess_list(pool: WordList, answers: WordList, same_first_letter: bool) -> WordList:
    return answers if same_first_letter else pool


#: First guesses tried at K before a full search: the ones optimal at K - 1 (at most this many).
TRIES = 3


def solve_letter(answers: WordList, guesses: WordList, K: int, *, try_first: str | Sequence[str] | None = None,
                 F: np.ndarray | None = None, tree: bool = True, time_limit: float | None = None) -> LetterOutcome:
    """wins_K of one letter's words, exactly, by the Wordle engine (see the module docstring).

    ``time_limit`` (seconds, for the first guesses tried and the search together): when it is spent the outcome is
    FEASIBLE, ``timed_out``, with the best first guess found and its tree (its exact value: a lower
    bound on wins_K); the upper bound is then |T|.
    """
    t0 = time.perf_counter()
    n, L = len(answers), answers.words[0][0]

    def left() -> float | None:  # the seconds of time_limit not yet spent
        return None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t0))

    result = tried = None
    for g in ([try_first] if isinstance(try_first, str) else list(try_first or []))[:TRIES]:
        trial = dp.solve(answers, guesses, depth=K, first=g, top=1, progress=False, F=F, time_limit=left())
        if trial.status == "OPTIMAL" and trial.wins == n:
            result = trial  # reaches the bound |T|: optimal (only this first guess was examined)
            break
        if trial.status == "OPTIMAL" and (tried is None or trial.wins > tried.wins):
            tried = trial  # that first guess's exact value
    complete = result is None
    timed_out = False
    if result is None:
        result = dp.solve(answers, guesses, depth=K, top=1, progress=False, F=F, time_limit=left(),
                          until_all_won=True)
        timed_out = result.timed_out
        if timed_out and tried is not None and (result.status == "UNKNOWN" or tried.wins > result.wins):
            result = tried  # a first guess tried before beats what the stopped search found
    status = {"OPTIMAL": "OPTIMAL", "FEASIBLE": "FEASIBLE"}.get(result.status, "UNKNOWN")
    if timed_out:
        status = "FEASIBLE" if result.status != "UNKNOWN" else "UNKNOWN"
    first = None
    if result.optimal_first:
        in_answers = [w for w in result.optimal_first if w in answers.index] or result.optimal_first
        first = min(in_answers, key=guesses.index.__getitem__)
    t = None
    if tree and first is not None and (status == "OPTIMAL" or timed_out):
        t = dp_trees.best_tree(answers, guesses, K, first, F=F)  # the first guess's value is exact either way
    return LetterOutcome(L, n, len(guesses), int(result.wins), status, first, list(result.optimal_first),
                         complete and status == "OPTIMAL" and result.all_optimal_first,
                         time.perf_counter() - t0, t, timed_out=timed_out)


def solve_adaptive(pool: WordList, K: int, *, same_first_letter: bool = False, trees: bool = True,
                   letters: str | None = None, show_progress: bool = False, command: str = "",
                   letter_time_limit: float | None = None) -> AdaptiveResult:
    """The exact adaptive win probability within K guesses, per first letter and overall.

    ``letters``: solve only these (the others are left out, so the result is then FEASIBLE).
    ``letter_time_limit``: seconds for each letter's search (:func:`solve_letter`); a letter that
    runs out is FEASIBLE (a lower bound, upper bound |W_L|) and the next letter goes on.
    Ctrl-C keeps the letters finished so far. See :func:`solve_adaptive_levels`.
    """
    return solve_adaptive_levels(pool, [K], same_first_letter=same_first_letter, trees=trees, letters=letters,
                                 show_progress=show_progress, command=command,
                                 letter_time_limit=letter_time_limit)[K]


def solve_adaptive_levels(pool: WordList, Ks, *, same_first_letter: bool = False, trees: bool = True,
                          letters: str | None = None, show_progress: bool = False,
                          command: str = "", letter_time_limit: float | None = None,
                          resume: dict[int, dict] | None = None) -> dict[int, AdaptiveResult]:
    """:func:`solve_adaptive` for several K at once: each letter is solved for K = 1, 2, ... up to the
    largest asked, and once a first guess wins every answer it is tried first at the next K (the
    shortcut of the module docstring). Trees are made for the K asked. A letter stopped by
    ``letter_time_limit`` at some K is FEASIBLE there, and its best first guesses are tried first at
    the next K. ``resume``: {K: certificate} of an earlier run on the same pool and rule; a letter
    OPTIMAL there at some K is taken from it at that K (with its tree file), the rest is solved."""
    Ks = sorted(set(int(K) for K in Ks))
    if not Ks or Ks[0] < 1:
        raise ExactError(f"Ks {Ks[0] if Ks else '(none)'}: allow at least one guess")
    t0 = time.perf_counter()
    groups = chosen_letters(pool, letters)
    kept = _resumable(pool, Ks, same_first_letter, resume or {})
    F_pool = None if same_first_letter else feedback_matrix(pool, pool)
    out: dict[int, list[LetterOutcome]] = {K: [] for K in Ks}
    interrupted = False
    bar = progress.bar(total=len(groups), desc=f"adaptive K={','.join(map(str, Ks))}", unit="letter",
                       disable=None if show_progress else True)
    try:
        for L, A in groups.items():
            if all(K in kept.get(L, {}) for K in Ks):  # every K asked proven in the certificates resumed
                for K in Ks:
                    out[K].append(kept[L][K])
                bar.update(1)
                continue
            G = guess_list(pool, A, same_first_letter)
            F = None if F_pool is None else np.ascontiguousarray(F_pool[:, [pool.index[a] for a in A.words]])
            interrupted = climb_letter(A, G, F, Ks, kept.get(L, {}), out, trees, letter_time_limit)
            if interrupted:
                break
            bar.update(1)
            bar.set_postfix(letter=L)
            if show_progress and bar.disable:  # no bar (stderr is not a terminal): one line per letter instead
                progress.say(f"adaptive: letter {L} ({len(A)} words): "
                             + ", ".join(f"K={K} {out[K][-1].wins}" for K in Ks if out[K] and out[K][-1].letter == L)
                             + f"; {time.perf_counter() - t0:.0f} s")
    except (KeyboardInterrupt, SystemError) as e:  # numba wraps a Ctrl-C inside a kernel in a SystemError
        if not stop.is_interrupt(e):
            raise
        interrupted = True
    finally:
        bar.close()
    if interrupted:
        progress.say(f"adaptive: interrupted; {len(out[Ks[-1]])} letter(s) done at K = {Ks[-1]}")
    seconds = time.perf_counter() - t0
    return {K: AdaptiveResult(pool, K, same_first_letter, out[K], seconds, interrupted, command, letter_time_limit)
            for K in Ks}


def chosen_letters(pool: WordList, letters: str | None) -> dict[str, WordList]:
    """The letter groups of ``pool``, only those of ``letters`` if given (each must start a word)."""
    groups = letter_groups(pool)
    if letters is None:
        return groups
    unknown = sorted(set(letters) - set(groups))
    if unknown:
        raise ExactError(f"letters {letters}: no word of {pool.source} starts with {unknown[0]!r}")
    return {L: A for L, A in groups.items() if L in letters}


def climb_letter(A: WordList, G: WordList, F: np.ndarray | None, Ks: list[int], kept: dict[int, LetterOutcome],
                 out: dict[int, list[LetterOutcome]], trees: bool, letter_time_limit: float | None) -> bool:
    """One letter at k = 1, 2, ... up to max ``Ks`` (from one level below the first asked, for the
    shortcut), appending to ``out[k]`` the outcome of each k asked; ``kept``: the levels proven in
    the certificates resumed. Whether a level was stopped (neither OPTIMAL nor timed out)."""
    previous = None
    below: LetterOutcome | None = None  # the outcome at k - 1
    saturated: LetterOutcome | None = None
    for k in range(max(1, Ks[0] - 1), Ks[-1] + 1):
        if saturated is not None:  # wins every answer with fewer guesses: so with k (see the docstring)
            if k in Ks:
                out[k].append(dataclasses.replace(saturated, all_optimal_first=False, seconds=0.0))
            continue
        if k in kept:  # proven in the certificate resumed
            o = below = kept[k]
            if k in Ks:
                out[k].append(o)
            previous = o.first_guesses()
            if o.wins == o.n:
                saturated = o
            continue
        o = below = solve_level(A, G, k, previous, below, F, trees, letter_time_limit)
        if o.timed_out and o.status in ("FEASIBLE", "UNKNOWN"):
            if k in Ks:
                out[k].append(o)
            previous = o.first_guesses()
            continue
        if o.status != "OPTIMAL":
            if o.status == "FEASIBLE" and k in Ks:
                out[k].append(o)
            return True
        if k in Ks:
            out[k].append(o)
        previous = o.first_guesses()
        if o.wins == o.n:
            saturated = o
    return False


def solve_level(A: WordList, G: WordList, k: int, previous, below: LetterOutcome | None, F: np.ndarray | None,
                trees: bool, letter_time_limit: float | None) -> LetterOutcome:
    """One letter at k guesses, ``previous`` (the best first guesses a level below) tried first; if the
    time limit stops it below the outcome at k - 1, that outcome is kept (FEASIBLE)."""
    o = solve_letter(A, G, k, try_first=previous, F=F, tree=trees,  # a lower level's tree may be reused
                     time_limit=letter_time_limit)
    if o.timed_out and below is not None and below.wins >= o.wins:
        # wins_k >= wins_{k-1}: the strategy of k - 1 guesses is one of k, and a better lower bound
        o = dataclasses.replace(below, guesses=o.guesses, status="FEASIBLE", timed_out=True,
                                optimal_first=[below.first] if below.first else [],
                                all_optimal_first=False, seconds=o.seconds,
                                tree_guesses=below.tree_guesses or k - 1)
    return o


def _resumable(pool: WordList, Ks: list[int], same_first_letter: bool,
               resume: dict[int, dict]) -> dict[str, dict[int, LetterOutcome]]:
    """The letters proven (OPTIMAL) in the certificates ``resume``, checked to be of this pool and
    rule: {letter: {K: outcome}}."""
    for K, d in resume.items():
        check_certificate(d, f"resume certificate for K = {K}")
        if d.get("kind") != KIND or d.get("instance_sha256") != pool.sha256 or \
                bool(d.get("same_first_letter")) != same_first_letter or int(d.get("guesses_allowed", -1)) != K:
            raise ExactError(f"resume: the certificate for K = {K} is not an adaptive result of this pool "
                             f"({pool.source}), K and guess rule")

    kept: dict[str, dict[int, LetterOutcome]] = {}
    for K, d in sorted(resume.items()):
        if not is_sealed(d):  # edited, forged, or written elsewhere: its OPTIMAL claims are not taken
            progress.say(f"adaptive --resume: the K = {K} certificate is not this installation's own unedited "
                         f"output (no valid seal); its letters are solved again")
            continue
        for L, x in sorted(d["letters"].items()):
            if x["status"] == "OPTIMAL":
                kept.setdefault(L, {})[K] = LetterOutcome.from_json(L, x)
    return kept


# --- files -----------------------------------------------------------------------------------------

def write_adaptive(result: AdaptiveResult, path: str | Path, trees_dir: str | Path | None = None) -> None:
    """Write the certificate (JSON, atomically) and, with ``trees_dir``, one text tree per letter
    (:func:`exact.game.formats.write_tree`), its path relative to the certificate's folder and sha256."""
    path = Path(path)
    if trees_dir is not None:
        trees_dir = make_folder(trees_dir)
        groups = letter_groups(result.pool)
        for o in result.letters:
            if o.tree is None:
                continue
            file = trees_dir / f"{o.letter}.tree"
            write_tree(o.tree, file, answers=groups[o.letter])
            o.tree_file = _relative(file, path.parent)
            o.tree_sha256 = hashlib.sha256(file.read_bytes()).hexdigest()

    write_json(path, sealed(result.to_json()))  # the seal lets --resume trust its own output (exact/seal.py)


def _relative(file: Path, folder: Path) -> str:
    return os.path.relpath(file.resolve(), folder.resolve())


ADAPTIVE_FIELDS = {"kind": "str", "words": "str", "instance_sha256": "str", "n": "int", "guesses_allowed": "int",
                   "same_first_letter": "bool", "wins": "int", "status": "str", "letters": "dict"}
ADAPTIVE_OPTIONAL = {"format": "int", "rule_version": "int", "probability": "number", "upper_bound": "int",
                     "upper_probability": "number", "letter_time_limit": "number|null", "interrupted": "bool",
                     "seconds": "number", "cores": "int", "command": "str", "method": "str", "seal": "str"}
LETTER_FIELDS = {"n": "int", "guesses": "int", "wins": "int", "status": "str", "first": "str|null",
                 "optimal_first": "list", "all_optimal_first": "bool", "seconds": "number"}
LETTER_OPTIONAL = {"probability": "number", "upper_bound": "int", "timed_out": "bool", "tree": "str|null",
                   "tree_sha256": "str|null", "tree_guesses": "int|null"}


def check_certificate(data, source: str) -> dict:
    """Every field of an adaptive certificate has its type (a one-line ExactError naming the file,
    the letter and the field otherwise); statuses are OPTIMAL, FEASIBLE or UNKNOWN."""
    check_fields(data, ADAPTIVE_FIELDS, ADAPTIVE_OPTIONAL, source=source)
    if data["kind"] != KIND:
        raise ExactError(f"not an adaptive certificate (kind {data['kind']!r:.40})", path=source)
    for L, x in data["letters"].items():
        check_fields(x, LETTER_FIELDS, LETTER_OPTIONAL, source=source, where=f"letter {L!r:.10}")
        if not all(isinstance(w, str) for w in x["optimal_first"]):
            raise ExactError(f"letter {L!r:.10}: 'optimal_first' is not a list of words", path=source)
    for status in [data["status"]] + [x["status"] for x in data["letters"].values()]:
        if status not in ("OPTIMAL", "FEASIBLE", "UNKNOWN"):
            raise ExactError(f"status {status!r:.40} is not OPTIMAL, FEASIBLE or UNKNOWN", path=source)
    return data


def verify_adaptive(data: dict, path: Path, pool: WordList, v, resolve_time: float = 0.0) -> None:
    """Checks of an adaptive certificate, added to the Verification ``v``: the pool, the sums, and
    every tree replayed from scratch (:func:`exact.game.tree.replay`): a valid tree that wins the
    claimed number of answers proves the claim is reachable; the optimality rests on the DP."""
    check_certificate(data, str(path))
    v.add("rule_version", data.get("rule_version", 1) == RULE_VERSION,
          f"the certificate was computed under feedback rule {data.get('rule_version', 1)}, this exact uses {RULE_VERSION}")
    K, same = int(data["guesses_allowed"]), bool(data["same_first_letter"])
    v.add("pool", pool.sha256 == data["instance_sha256"], f"sha256 {pool.sha256[:16]}..., the file names "
          f"{str(data['instance_sha256'])[:16]}...")
    v.add("n", len(pool) == data["n"], f"the pool has {len(pool)} words, the file says {data['n']}")
    groups = letter_groups(pool)
    letters = data["letters"]
    total = sum(int(x["wins"]) for x in letters.values())
    v.add("sum", total == data["wins"], f"the letters' wins add up to {total}; the file says {data['wins']}")
    complete = set(letters) == set(groups) and all(x["status"] == "OPTIMAL" for x in letters.values())
    v.add("status", data["status"] == ("OPTIMAL" if complete else "FEASIBLE"),
          f"{data['status']}: {sum(x['status'] == 'OPTIMAL' for x in letters.values())} of {len(groups)} letters optimal")
    if "upper_bound" in data:  # wins of the letters proven + the word count of every other letter
        bound = sum(int(x["wins"]) if x["status"] == "OPTIMAL" else len(groups[L]) for L, x in letters.items()
                    if L in groups)
        v.add("upper bound", set(letters) == set(groups) and bound == data["upper_bound"],
              f"proven letters' wins + the other letters' word counts = {bound}; the file says {data['upper_bound']}")
    replayed = 0
    for L, x in sorted(letters.items()):
        if L not in groups:
            v.add(f"letter {L}", False, f"no word of the pool starts with {L!r}")
            continue
        A = groups[L]
        ok_n = x["n"] == len(A)
        if not ok_n or x["wins"] > len(A):
            v.add(f"letter {L}", False, f"n {x['n']} (pool: {len(A)}), wins {x['wins']}")
        if not x.get("tree"):
            continue
        file = path.parent / x["tree"]
        if not file.is_file():
            v.add(f"tree {L}", False, f"{file}: missing")
            continue
        digest = hashlib.sha256(file.read_bytes()).hexdigest()
        if digest != x.get("tree_sha256"):
            v.add(f"tree {L}", False, f"{file}: sha256 {digest[:16]}... differs from the file's record")
            continue
        # a tree made for fewer guesses (a letter stopped at K keeps its K - 1 strategy) is replayed
        # with those: its wins within them are wins within K
        r = replay(read_tree(file), A, guess_list(pool, A, same), depth=min(K, int(x.get("tree_guesses") or K)))
        if not r.valid or r.wins != x["wins"]:
            v.add(f"tree {L}", False, f"{file}: replay wins {r.wins}/{r.n}, valid {r.valid}; claimed {x['wins']}")
        replayed += 1
    v.add("trees", None if replayed < len(letters) else True,
          f"{replayed} of {len(letters)} letter trees replayed from scratch, each winning its claimed count"
          + ("" if replayed == len(letters) else " (the others have no tree file)"))
    _rederive_optimal(letters, groups, pool, K, same, v, resolve_time)


#: Seconds spent re-deriving the OPTIMAL letters of a certificate when no --bound-time is given.
REDERIVE_TIME = 30.0


def _rederive_optimal(letters: dict, groups: dict[str, WordList], pool: WordList, K: int, same: bool, v,
                      resolve_time: float) -> None:
    """Each letter claimed OPTIMAL is solved again (:func:`exact.wordle.wins.dp.solve`, every first guess)
    within ``resolve_time`` seconds in all (:data:`REDERIVE_TIME` when 0): a replayed tree only shows
    its wins are reachable, not that no strategy wins more. A value that differs is a failure; a
    letter not finished in time is "unconfirmed" (the certificate is then not verified)."""
    claimed = sorted((len(groups[L]), L) for L, x in letters.items() if L in groups and x["status"] == "OPTIMAL")
    if not claimed:
        return
    deadline = time.perf_counter() + (resolve_time if resolve_time > 0 else REDERIVE_TIME)
    F_pool = None if same else feedback_matrix(pool, pool)
    done, wrong, open_ = 0, [], []
    for _, L in claimed:  # the small letters first: most are re-derived when time is short
        A = groups[L]
        left = deadline - time.perf_counter()
        if left <= 0:
            open_.append(L)
            continue
        F = None if F_pool is None else np.ascontiguousarray(F_pool[:, [pool.index[a] for a in A.words]])
        r = dp.solve(A, guess_list(pool, A, same), depth=K, top=1, progress=False, F=F, time_limit=left,
                     until_all_won=True)
        if r.status != "OPTIMAL" or r.timed_out:
            open_.append(L)
        elif r.wins != letters[L]["wins"]:
            wrong.append(f"{L}: claimed {letters[L]['wins']}, re-derived {r.wins}")
        else:
            done += 1
    detail = (f"{done} of {len(claimed)} letters claimed OPTIMAL re-derived by a full search (exact.wordle.wins.dp)"
              + (f"; wrong: {'; '.join(wrong[:5])}" if wrong else "")
              + (f"; not finished in time: {''.join(sorted(open_))} (give --bound-time S)" if open_ else ""))
    v.add("optimal letters", False if wrong else None if open_ else True, detail)


def table_markdown(certificates: list[dict]) -> str:
    """One markdown table from adaptive certificates: a row per (pool, guess rule), a column per K."""
    rows: dict[tuple, dict[int, dict]] = {}
    for i, d in enumerate(certificates):
        check_certificate(d, getattr(d, "source", f"certificate {i + 1}"))
    for d in certificates:
        rows.setdefault((d["words"], d["n"], d["same_first_letter"]), {})[int(d["guesses_allowed"])] = d
    Ks = sorted({K for r in rows.values() for K in r})
    lines = ["| pool | n | guesses | " + " | ".join(f"K = {K}" for K in Ks) + " |",
             "|---|---:|---|" + "---:|" * len(Ks)]
    for (words, n, same), by_K in sorted(rows.items()):
        cells = []
        for K in Ks:
            d = by_K.get(K)
            if d is None:
                cells.append("not run")
            else:
                if d["status"] == "OPTIMAL":
                    cells.append(f"{d['wins']} ({100 * d['wins'] / n:.2f}%)")
                elif "upper_bound" in d:  # every letter there, some stopped by the time limit: bounds
                    open_ = sorted(L for L, x in d["letters"].items() if x["status"] != "OPTIMAL")
                    cells.append(f"{d['wins']}..{d['upper_bound']} ({100 * d['wins'] / n:.2f}..."
                                 f"{100 * d['upper_bound'] / n:.2f}%; open: {''.join(open_)})")
                else:  # stopped early: the letters finished (all OPTIMAL but possibly the last one)
                    done = d["letters"]
                    proven = [L for L, x in done.items() if x["status"] == "OPTIMAL"]
                    cells.append(f"partial: {sum(done[L]['wins'] for L in proven)} of "
                                 f"{sum(done[L]['n'] for L in proven)} on letters {''.join(sorted(proven))}")
        lines.append(f"| {words} | {n} | {'same first letter' if same else 'any pool word'} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Commands (each writes one certificate per K; `exact lingo verify FILE` replays its trees):")
    lines.append("")
    seen = []
    for d in certificates:
        if d["command"] not in seen:
            seen.append(d["command"])
            lines.append(f"    {d['command']}")
    return "\n".join(lines) + "\n"
