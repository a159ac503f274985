"""The Lingo sections of the results page: the runs, bounds and reduced pools of the fixed-guesses game,
and the adaptive game's certificates.
"""

from __future__ import annotations

from pathlib import Path

from exact.docs.parts import figure, pct, rel
from exact.lingo.adaptive import table_markdown


def lingo_section(root: Path, groups, shown: set) -> list[str]:
    out = []
    runs = groups.get("lingo", [])
    bounds = groups.get("lingo-bound", [])
    if not runs and not bounds:
        return out
    out += ["## Lingo: the best k guesses fixed in advance", "",
            "P(win) = distinct signatures / |W| (`exact/lingo/score.py`). OPTIMAL only where the upper bound "
            "equals the wins.", ""]
    big = [(p, d) for p, d in runs if d["n"] > 1000]
    small = [(p, d) for p, d in runs if d["n"] <= 1000]
    if big or bounds:
        out += ["| file | words | k | guesses | wins | P(win) | upper bound | status | seconds | command |",
                "|---|---|---|---|---|---|---|---|---|---|"]
        for path, d in big:
            out.append(f"| [{path.name}](../{rel(path, root)}) | {d['n']} | {d['k']} | {' '.join(d['guesses'])} "
                       f"| {d['wins']} | {pct(d['wins'] / d['n'])} | {d['upper_bound']} ({pct(d['upper_bound'] / d['n'])}) "
                       f"| {d['status']} | {d['seconds']} | `{d.get('command', '')}` |")
        for path, d in bounds:
            out.append(f"| [{path.name}](../{rel(path, root)}) | {d['n']} | {d.get('k', '-')} | - | - | - "
                       f"| {d['upper_bound']} ({pct(d['upper_bound'] / d['n'])}) | bound "
                       f"{'complete' if d.get('complete') else 'stopped early'} | {d.get('seconds', '-')} "
                       f"| `{d.get('command', '')}` |")
        out.append("")
        out += figure(root, "lingo-enable-5", shown)
    if small:
        out += ["### Lingo ladder: reduced pools", "",
                "| instance | words | k | wins | upper bound | P(win) | status | method | seconds |",
                "|---|---|---|---|---|---|---|---|---|"]
        for path, d in sorted(small, key=lambda pd: (pd[1]["n"], pd[1]["instance"])):
            out.append(f"| {d['instance']} | {d['n']} | {d['k']} | {d['wins']} | {d['upper_bound']} "
                       f"| {pct(d['wins'] / d['n'])} | {d['status']} | {d['method']} | {d['seconds']} |")
        commands = sorted({d.get("command", "") for _, d in small} - {""})
        out += ["", "Commands: " + "; ".join(f"`{c}`" for c in commands), ""]
    return out


def adaptive_section(groups) -> list[str]:
    """The adaptive-game certificates as one table (:func:`exact.lingo.adaptive.table_markdown`)."""
    certificates = [d for _, d in groups.get("adaptive", [])]
    if not certificates:
        return []
    return ["## Lingo: the adaptive game (TV rules)", "",
            "Exact wins within K guesses, told the first letter (`exact lingo solve --adaptive`); `lower..upper` "
            "where some letters were stopped by `--letter-time-limit` (the open letters are named).", "",
            *table_markdown(certificates).splitlines(), ""]
