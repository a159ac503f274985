"""The Wordle ladder: deterministic reduced instances, each solved three ways that must agree.

Data types, stated once:

- a :class:`Rung` names one reduced instance: its rule (``letter``: the answers starting with one
  letter; ``head``: the first n answers in list order; ``sample``: a seeded sample of n answers),
  its guesses (the answers themselves, plus ``m`` seeded extra allowed words that are not answers)
  and the depth k. Answers are always guesses too, as in Wordle;
- samples use ``random.Random(seed).sample`` over list positions, kept in list order, so the same
  lists, rule and seed give the same instance; the manifest records every file's sha256 and the
  source lists' sha256, so drift is detected (:func:`check_ladder`);
- a :class:`RungResult`: the CP-SAT value and status (:mod:`exact.wordle.wins.cpsat`), the DP value
  (:func:`exact.wordle.wins.dp.solve`) and the brute-force value (:func:`brute_force_wins`, where
  affordable), and whether they agree.

>>> [r.name for r in LADDER[:3]]
['letter-z-k2', 'letter-z', 'letter-y']
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from exact.errors import ExactError
from exact.feedback import all_green
from exact.fileio import make_folder, read_json, write_json, write_text
from exact.partitions import feedback_matrix
from exact.wordle.wins import dp
from exact.wordle.wins.cpsat import solve_tree
from exact.words import WordList, instances_dir, read_words, wordle_allowed, wordle_answers, words_sha256

LADDER_DIR = "wordle-ladder"
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class Rung:
    name: str
    rule: str  # letter | head | sample
    n: int = 0  # answers (head, sample)
    letter: str = ""  # first letter (letter)
    m: int = 0  # extra guesses, sampled from the allowed words that are not answers
    seed: int = 0
    depth: int = 3

    def describe(self) -> str:
        pick = {"letter": f"the answers starting with {self.letter!r}",
                "head": f"the first {self.n} answers in list order",
                "sample": f"random.Random({self.seed}).sample of {self.n} answer positions"}[self.rule]
        extra = (f" plus random.Random({self.seed + 1}).sample of {self.m} allowed non-answers"
                 if self.m else "")
        return f"answers: {pick}; guesses: those answers{extra}; depth {self.depth}"


def _letters(*spec):
    return [Rung(f"letter-{c}", "letter", letter=c) for c in spec]


#: Smallest first. Names are stable: results/ and models/ files are named after them.
LADDER: list[Rung] = [
    Rung("letter-z-k2", "letter", letter="z", depth=2),
    *_letters("z", "y"),
    Rung("sample-10-10-s1-k2", "sample", n=10, m=10, seed=1, depth=2),
    Rung("sample-10-10-s1", "sample", n=10, m=10, seed=1),
    Rung("head-20", "head", n=20),
    *_letters("j", "k", "q"),
    Rung("sample-20-20-s2", "sample", n=20, m=20, seed=2),
    *_letters("u", "i", "n", "o", "v"),
    Rung("head-50", "head", n=50),
    Rung("sample-50-50-s3", "sample", n=50, m=50, seed=3),
    *_letters("h", "e", "w", "l"),
    Rung("head-100", "head", n=100),
    Rung("sample-100-100-s4", "sample", n=100, m=100, seed=4),
    *_letters("r", "m", "d", "g", "f", "a", "p", "t", "b", "c"),
    Rung("head-200", "head", n=200),
    Rung("sample-200-200-s5", "sample", n=200, m=200, seed=5),
    *_letters("s"),
    Rung("head-400", "head", n=400),
    Rung("sample-400-400-s6", "sample", n=400, m=400, seed=6),
    Rung("head-600", "head", n=600),
    Rung("head-800", "head", n=800),
    Rung("sample-800-800-s7", "sample", n=800, m=800, seed=7),
    Rung("head-1200", "head", n=1200),
]


def rung_named(name: str) -> Rung:
    for rung in LADDER:
        if rung.name == name:
            return rung
    raise ExactError(f"no ladder instance named {name!r} (see instances/{LADDER_DIR}/{MANIFEST})")


# --- Generating the instances -------------------------------------------------------------------

def rung_lists(rung: Rung, answers: WordList, allowed: WordList) -> tuple[list[str], list[str]]:
    """(answers, guesses) of one rung, from the full lists, deterministically."""
    if rung.rule == "letter":
        picked = [a for a in answers.words if a[0] == rung.letter]
    elif rung.rule == "head":
        picked = list(answers.words[:rung.n])
    elif rung.rule == "sample":
        picked = [answers.words[i] for i in sorted(random.Random(rung.seed).sample(range(len(answers)), rung.n))]
    else:
        raise ExactError(f"unknown ladder rule {rung.rule!r}")
    answer_set = set(answers.words)
    others = [w for w in allowed.words if w not in answer_set]
    extra = [others[i] for i in sorted(random.Random(rung.seed + 1).sample(range(len(others)), rung.m))]
    chosen = set(picked) | set(extra)
    guesses = [w for w in allowed.words if w in chosen]
    return picked, guesses


def write_ladder(folder: str | Path, answers: WordList | None = None, allowed: WordList | None = None) -> dict:
    """Write every rung's ``<name>/answers.txt`` and ``guesses.txt`` and the provenance manifest."""
    answers = answers or wordle_answers()
    allowed = allowed or wordle_allowed()
    folder = Path(folder)
    entries = []
    for rung in LADDER:
        picked, guesses = rung_lists(rung, answers, allowed)
        make_folder(folder / rung.name)
        write_text(folder / rung.name / "answers.txt", "".join(w + "\n" for w in picked))
        write_text(folder / rung.name / "guesses.txt", "".join(w + "\n" for w in guesses))
        entries.append({**asdict(rung), "rule_text": rung.describe(),
                        "answers": {"count": len(picked), "sha256": words_sha256(picked)},
                        "guesses": {"count": len(guesses), "sha256": words_sha256(guesses)}})
    manifest = {
        "generator": "exact.wordle.wins.ladder.write_ladder (exact wordle ladder --generate)",
        "sources": {"answers": {"file": "instances/wordle/answers.txt", "count": len(answers), "sha256": answers.sha256},
                    "allowed": {"file": "instances/wordle/allowed.txt", "count": len(allowed), "sha256": allowed.sha256}},
        "instances": entries,
    }
    write_json(folder / MANIFEST, manifest)
    return manifest


def ladder_dir() -> Path:
    return instances_dir() / LADDER_DIR


def read_rung(rung: Rung, folder: str | Path | None = None) -> tuple[WordList, WordList]:
    """A rung's (answers, guesses) as shipped in ``instances/wordle-ladder``."""
    folder = Path(folder) if folder is not None else ladder_dir()
    return read_words(folder / rung.name / "answers.txt"), read_words(folder / rung.name / "guesses.txt")


def check_ladder(folder: str | Path | None = None) -> None:
    """Error unless the shipped files are exactly what the manifest and the generator say."""
    folder = Path(folder) if folder is not None else ladder_dir()
    manifest = read_json(folder / MANIFEST, "ladder manifest")
    expected = {r["name"]: r for r in manifest["instances"]}
    answers, allowed = wordle_answers(), wordle_allowed()
    if manifest["sources"]["answers"]["sha256"] != answers.sha256:
        raise ExactError(f"{folder / MANIFEST}: made from other answer lists than {answers.source}")
    for rung in LADDER:
        A, G = read_rung(rung, folder)
        picked, guesses = rung_lists(rung, answers, allowed)
        if A.words != tuple(picked) or G.words != tuple(guesses) or rung.name not in expected \
                or expected[rung.name]["answers"]["sha256"] != A.sha256:
            raise ExactError(f"{folder / rung.name}: differs from its rule ({rung.describe()}); "
                             f"regenerate with `exact wordle ladder --generate`")


# --- Brute force --------------------------------------------------------------------------------

def brute_force_wins(F: np.ndarray, depth: int, green: int = all_green(5), w=None) -> int:
    """wins_depth of all answers by the definition: every guess at every node, nothing pruned or merged;
    with weights ``w`` (one a column) the weight won (an answer hit counts its weight).

    >>> import numpy as np
    >>> F = np.array([[242, 0, 0], [0, 242, 0], [0, 0, 242]], dtype=np.uint8)  # three answers, no clues
    >>> brute_force_wins(F, 1), brute_force_wins(F, 2), brute_force_wins(F, 3)
    (1, 2, 3)
    >>> brute_force_wins(F, 1, w=[2, 5, 1]), brute_force_wins(F, 2, w=[2, 5, 1])
    (5, 7)
    """
    rows = [list(map(int, row)) for row in F]
    weight = [1] * F.shape[1] if w is None else [int(x) for x in w]

    def wins(T: list[int], k: int) -> int:
        if k == 0 or not T:
            return 0
        best = 0
        for row in rows:
            classes: dict[int, list[int]] = {}
            for a in T:
                classes.setdefault(row[a], []).append(a)
            best = max(best, sum(weight[P[0]] if p == green else wins(P, k - 1) for p, P in classes.items()))
        return best

    return wins(list(range(F.shape[1])), depth)


def brute_force_affordable(n_answers: int, n_guesses: int, depth: int, budget: float = 3e6) -> bool:
    """Whether brute force fits a budget of roughly ``budget`` answer visits (a coarse, generous model)."""
    return n_guesses ** (depth - 1) * n_answers * max(1, n_answers) ** 0.5 <= budget


# --- Solving a rung three ways ------------------------------------------------------------------

@dataclass
class RungResult:
    name: str
    rule: str
    answers: int
    guesses: int
    depth: int
    cpsat: dict  # TreeSolution.to_json()
    dp: dict | None  # {"wins", "status", "seconds"}
    brute_force: int | None
    agree: bool  # every available proved value is equal (a non-OPTIMAL CP-SAT value is only checked <= DP)
    model_file: str | None
    answers_sha256: str
    guesses_sha256: str
    command: str  # reproduces this file

    def to_json(self) -> dict:
        return asdict(self)


def solve_rung(rung: Rung, *, time_limit: float | None = 600, workers: int = 2,
               models: str | Path | None = None, folder: str | Path | None = None,
               brute: bool | None = None) -> RungResult:
    A, G = read_rung(rung, folder)
    F = feedback_matrix(G, A)
    model_file = None if models is None else str(Path(models) / f"{rung.name}.pb")
    sol = solve_tree(A, G, rung.depth, time_limit=time_limit, workers=workers, export=model_file, F=F)
    if sol.interrupted:
        raise KeyboardInterrupt  # an unfinished rung is not written
    started = time.perf_counter()
    dres = dp.solve(A, G, depth=rung.depth, progress=False, F=F)
    if dres.interrupted:
        raise KeyboardInterrupt
    dp_json = {"wins": dres.wins, "status": dres.status, "seconds": round(time.perf_counter() - started, 3),
               "cores": dres.cores}
    if brute is None:
        brute = brute_force_affordable(len(A), len(G), rung.depth)
    bf = brute_force_wins(F, rung.depth, all_green(A.length)) if brute else None
    proved = [v for v in (dres.wins if dres.status == "OPTIMAL" else None, bf) if v is not None]
    if sol.status == "OPTIMAL":
        proved.append(sol.wins)
    agree = len(set(proved)) <= 1 and (sol.wins is None or all(sol.wins <= v for v in proved)) \
        and all(sol.bound >= v for v in proved)
    return RungResult(rung.name, rung.describe(), len(A), len(G), rung.depth, sol.to_json(), dp_json, bf,
                      agree, model_file, A.sha256, G.sha256,
                      f"exact wordle ladder --only {rung.name} --time-limit {time_limit:g} --workers {workers}")
