"""A ranking certificate against a published table of first-guess totals.

Data types, stated once:

- a *table*: ``{word: total}`` from a file of lines ``word total`` or ``word mean total`` (Selby's
  ``normal.top105.proven`` and ``results_easy_nyt20230701``; ``#`` comments and blank lines skipped);
- a ranking certificate's ``first_guesses``: ``{word: {"total": N}}`` (valued exactly) or
  ``{word: {"at_least": N}}`` (rejected with that proven lower bound), see :mod:`exact.wordle.fewest.ranking`.

Two claims about one first word are consistent when both are exact and equal, or when one is a proven
lower bound and the other's exact value is at least that bound. A first word after which no strategy solves
every answer within the guess limit (hard mode has such words) is infinite on both sides: Selby's tables
write it ``word Infinity 1000000000``, a certificate ``{"at_least": 2**60}`` (the search's "impossible").

>>> cert = {"first_guesses": {"salet": {"total": 7920}, "reast": {"at_least": 7951}, "qajaq": {"at_least": 8008}}}
>>> c = compare_ranking(cert, {"salet": 7920, "reast": 7923, "trace": 7926})
>>> c.agree, c.contradicted, c.missing
(['salet'], [('reast', 'at_least 7951', 7923)], ['trace'])
>>> c.ok
False
>>> compare_ranking({"first_guesses": {"salet": {"at_least": 2**60}}}, {"salet": INFINITE}).bounded
['salet']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import math

from exact.errors import ExactError
from exact.fileio import is_decimal, read_text
from exact.words import shorten


INFINITE = math.inf  # a table's value for a first word after which no strategy solves every answer
IMPOSSIBLE = 1 << 60  # a certificate's bound from that point on means the same (exact.wordle.fewest.memo.INF)


@dataclass
class Comparison:
    agree: list[str] = field(default_factory=list)  # exact here, the same total in the table
    bounded: list[str] = field(default_factory=list)  # at_least here, the table's total at least that
    contradicted: list[tuple[str, str, int]] = field(default_factory=list)  # (word, our claim, the table's)
    missing: list[str] = field(default_factory=list)  # in the table, not in the certificate
    unlisted: list[str] = field(default_factory=list)  # valued exactly here, not in the table

    @property
    def ok(self) -> bool:
        return not self.contradicted

    def to_json(self) -> dict:
        return {"ok": self.ok, "agree": len(self.agree), "bounded": len(self.bounded),
                "contradicted": [{"guess": w, "exact": ours, "table": theirs} for w, ours, theirs in self.contradicted],
                "missing": self.missing, "unlisted": self.unlisted}


def read_table(path: str | Path) -> dict[str, float]:
    """``{word: total}`` from lines ``word total`` or ``word mean total`` (the total is the last field);
    a mean of ``Infinity`` makes the total :data:`INFINITE` (no strategy within the guess limit)."""
    table: dict[str, float] = {}
    for number, line in enumerate(read_text(path, "table").splitlines(), start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        fields = text.split()
        word, total = fields[0].lower(), fields[-1]
        if len(fields) not in (2, 3) or not is_decimal(total) or len(total) > 12 or not (word.isascii() and word.isalpha()):
            raise ExactError(f"{path}:{number}: expected 'word total' or 'word mean total', got {shorten(text)!r}")
        if word in table:
            raise ExactError(f"{path}:{number}: {word} is listed twice")
        table[word] = INFINITE if len(fields) == 3 and fields[1].lower() in ("infinity", "inf") else int(total)
    if not table:
        raise ExactError(f"{path}: no first word listed")
    return table


def compare_ranking(certificate: dict, table: dict[str, float]) -> Comparison:
    """Each first word of the table against the certificate's claim about it (see the module docstring)."""
    claims = certificate.get("first_guesses")
    if not isinstance(claims, dict):
        raise ExactError("the certificate has no first_guesses object (not a ranking certificate)")
    c = Comparison()
    for word, theirs in table.items():
        claim = claims.get(word)
        if not isinstance(claim, dict):
            c.missing.append(word)
        elif "total" in claim and claim["total"] == theirs:
            c.agree.append(word)
        elif "total" in claim:
            c.contradicted.append((word, f"total {claim['total']}", theirs))
        elif "at_least" in claim:
            ours = INFINITE if claim["at_least"] >= IMPOSSIBLE else claim["at_least"]
            if theirs >= ours:
                c.bounded.append(word)
            else:
                c.contradicted.append((word, f"at_least {claim['at_least']}", theirs))
        else:
            c.missing.append(word)
    c.unlisted = [w for w, claim in claims.items() if isinstance(claim, dict) and "total" in claim and w not in table]
    return c
