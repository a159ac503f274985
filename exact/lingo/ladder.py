"""The Lingo ladder: reduced instances, deterministic, that the CP-SAT model solves with a proof.

Data types:

- :class:`Rung`: one instance, named by its rule: ``<source>-first-<N>``, ``<source>-random-<N>-seed<S>``
  or ``<source>-letter-<X>``, with ``source`` the vendored Wordle ``answers`` (2315) or ``allowed``
  (12972) list; the guess pool equals the answer pool;
- a *family*: rungs of one source and rule, in increasing size; climbing a family stops at the
  first rung that is not proven optimal within the time limit;
- the manifest (``manifest.json`` beside the instance files): per rung its rule, size, seed, letter,
  source file and that file's sha256, and the instance's own sha256 (of its normalised word list).

Rules (each keeps the source list's order):

- ``first-N``: the first N words (the lists are alphabetical, so these are dense one-letter pools);
- ``random-N-seedS``: the N words with the smallest ``sha256(f"{S}:{word}")``, a sample fixed by the
  seed and the words alone (no random-number library whose streams could change);
- ``letter-X``: every word beginning with X.

>>> rung = Rung("answers", "random", 5, seed=0)
>>> rung.name, len(rung.words())
('answers-random-5-seed0', 5)
>>> rung.words() == Rung("answers", "random", 5, seed=0).words()
True
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from math import comb
from pathlib import Path

from exact.errors import ExactError, InternalError
from exact.lingo.brute import brute_force_best
from exact.lingo.cpsat import solve_cpsat
from exact.lingo.result import LingoResult
from exact.fileio import write_json, write_text
from exact.lingo.score import first_letters
from exact.partitions import feedback_matrix
from exact.words import WordList, instances_dir, read_words, words_from_lines

SOURCES = {"answers": "wordle/answers.txt", "allowed": "wordle/allowed.txt"}
LADDER_DIR = "lingo-ladder"


@dataclass(frozen=True)
class Rung:
    source: str           # "answers" or "allowed"
    rule: str             # "first", "random" or "letter"
    size: int | None = None
    seed: int | None = None
    letter: str | None = None

    @property
    def name(self) -> str:
        if self.rule == "letter":
            return f"{self.source}-letter-{self.letter}"
        if self.rule == "random":
            return f"{self.source}-random-{self.size}-seed{self.seed}"
        return f"{self.source}-first-{self.size}"

    @property
    def family(self) -> str:
        return f"{self.source}-{self.rule}"

    def words(self) -> WordList:
        """The instance's word list, built from the vendored source list by the rule."""
        pool = source_list(self.source)
        if self.rule == "first":
            chosen = pool.words[: self.size]
        elif self.rule == "random":
            ranked = sorted(pool.words, key=lambda w: hashlib.sha256(f"{self.seed}:{w}".encode()).digest())
            keep = set(ranked[: self.size])
            chosen = tuple(w for w in pool.words if w in keep)
        elif self.rule == "letter":
            chosen = tuple(w for w in pool.words if w[0] == self.letter)
        else:
            raise ExactError(f"unknown ladder rule {self.rule!r}")
        return words_from_lines(chosen, f"{LADDER_DIR}/{self.name}.txt")

    def provenance(self) -> dict:
        source, words = source_list(self.source), self.words()
        return {"name": self.name, "family": self.family, "rule": self.rule, "size": self.size,
                "seed": self.seed, "letter": self.letter,
                "source": f"instances/{SOURCES[self.source]}", "source_sha256": source.sha256,
                "n": len(words), "sha256": words.sha256}


def source_list(source: str) -> WordList:
    if source not in SOURCES:
        raise ExactError(f"unknown ladder source {source!r} (use {', '.join(SOURCES)})")
    return read_words(instances_dir() / SOURCES[source])


def _letters(source: str, letters: str) -> list[Rung]:
    return [Rung(source, "letter", letter=x) for x in letters]


#: The ladder: families in the order they are climbed, each in increasing size.
FAMILIES: dict[str, list[Rung]] = {
    "answers-letter": _letters("answers", "juvhwratbcs"),   # 20 33 43 69 83 105 141 149 173 198 366
    "allowed-letter": _letters("allowed", "xqziyujv"),      # 16 78 105 165 181 189 202 242
    "answers-first": [Rung("answers", "first", n) for n in (20, 40, 60, 80, 120, 160, 240, 320)],
    "allowed-first": [Rung("allowed", "first", n) for n in (20, 40, 60, 80, 120, 160, 240, 320)],
    "answers-random": [Rung("answers", "random", n, seed=0) for n in (40, 80, 160, 320, 640)],
    "allowed-random": [Rung("allowed", "random", n, seed=0) for n in (40, 80, 160, 320, 640)],
}


def ladder() -> list[Rung]:
    return [r for family in FAMILIES.values() for r in family]


def find_rung(name: str) -> Rung:
    for r in ladder():
        if r.name == name:
            return r
    raise ExactError(f"no ladder instance named {name!r} (see `exact lingo ladder --list`)")


def instance_path(folder: str | Path, rung: Rung) -> Path:
    return Path(folder) / f"{rung.name}.txt"


def write_instance(folder: str | Path, rung: Rung) -> WordList:
    """Write the rung's word list (one word a line) unless an identical file is there; return it.

    A file that exists with other words is an error: the ladder's instances are fixed by their rule.
    """
    words = rung.words()
    path = instance_path(folder, rung)
    if path.is_file():
        there = read_words(path)
        if there.sha256 != words.sha256:
            raise ExactError(f"{path}: holds other words than rule {rung.name} gives "
                             f"(sha256 {there.sha256[:12]} vs {words.sha256[:12]}); remove it to regenerate")
        return there
    write_text(path, "".join(w + "\n" for w in words))
    return read_words(path)


def write_manifest(folder: str | Path) -> None:
    """manifest.json and README.md: how each instance was made."""
    folder = Path(folder)
    entries = [r.provenance() for r in ladder()]
    write_json(folder / "manifest.json", {"kind": "exact.lingo.ladder", "format": 1, "instances": entries})
    write_text(folder / "README.md", manifest_readme(entries))


def manifest_readme(entries: list[dict]) -> str:
    lines = [
        "# Lingo ladder instances",
        "",
        "Reduced Lingo pools (guess pool = answer pool) made deterministically from the vendored Wordle",
        "lists by `exact/lingo/ladder.py`; `exact lingo ladder --write-instances` rewrites them and fails",
        "if a file here no longer matches its rule. `manifest.json` holds the same table as data.",
        "",
        "Rules (each keeps the source list's order):",
        "",
        "- `first-N`: the first N words of the source list;",
        "- `random-N-seedS`: the N words with the smallest `sha256(f\"{S}:{word}\")` (hex order of the digest);",
        "- `letter-X`: every word of the source beginning with X.",
        "",
    ]
    sources = sorted({(e["source"], e["source_sha256"]) for e in entries})
    lines += [f"Source `{s}`: sha256 `{h}`." for s, h in sources]
    lines += ["", "| instance | rule | size | seed | letter | n | sha256 of the word list |",
              "|---|---|---|---|---|---|---|"]
    for e in entries:
        lines.append(f"| {e['name']} | {e['rule']} | {e['size'] or ''} | {'' if e['seed'] is None else e['seed']} "
                     f"| {e['letter'] or ''} | {e['n']} | `{e['sha256'][:16]}` |")
    return "\n".join(lines) + "\n"


def read_manifest(folder: str | Path) -> dict:
    path = Path(folder) / "manifest.json"
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ExactError(f"{path}: cannot read the ladder manifest ({e})") from None


# --- Solving the ladder ---------------------------------------------------------------------------

#: Proven optima are re-checked by enumerating all k-sets when there are at most this many.
BRUTE_MAX_SETS = 5_000_000


def solve_rung(rung: Rung, *, folder: str | Path, k: int = 4, time_limit: float = 600.0, workers: int = 2,
               seed: int = 0, models: str | Path | None = None, brute_max_sets: int = BRUTE_MAX_SETS,
               log: bool = False, command: str = "") -> LingoResult:
    """Solve one rung with CP-SAT (exporting its model to ``models/<name>.pb``) into a certificate.

    A proven optimum is cross-checked by brute force when affordable; a disagreement is a bug.
    """
    pool = write_instance(folder, rung)
    F = feedback_matrix(pool, pool)
    model_path = None if models is None else Path(models) / f"{rung.name}.pb"
    out = solve_cpsat(pool, F, k, time_limit=time_limit, workers=workers, seed=seed, log=log,
                      model_path=model_path)
    stats = dict(out.stats)
    params = stats.pop("parameters")
    if model_path is not None:
        stats["model_file"] = str(model_path)
    if comb(len(pool), k) <= brute_max_sets:
        started = time.perf_counter()
        best, rows = brute_force_best(F, first_letters(pool.words), k)
        stats["brute_force"] = {"sets": comb(len(pool), k), "optimum": best,
                                "guesses": [pool.words[g] for g in rows],
                                "seconds": round(time.perf_counter() - started, 3)}
        if out.status == "OPTIMAL" and best != out.wins or best > out.bound:
            raise InternalError(f"{rung.name}: CP-SAT says {out.wins} ({out.status}, bound {out.bound}), "
                                f"brute force {best}: a model bug")
    status = "OPTIMAL" if out.status == "OPTIMAL" and out.bound == out.wins else "FEASIBLE"
    return LingoResult(
        instance=rung.name, words=str(instance_path(folder, rung)), instance_sha256=pool.sha256,
        k=k, n=len(pool), guesses=tuple(pool.words[g] for g in out.guesses), wins=out.wins,
        upper_bound=out.bound, status=status, method="cp-sat", bound_method="cp-sat",
        seconds=round(out.seconds, 3), seed=seed, params=params | {"workers": workers},
        stats=stats | {"provenance": rung.provenance()}, interrupted=bool(stats.get("interrupted")),
        command=command)
