"""What maximising P(win within K) costs in guesses: per first guess, the exact fewest-guesses
optimum against the exact lexicographic optimum "most answers within K, then fewest guesses".

For a first guess g, ``guesses`` gives the least total T_g (with W_g answers within K as that
tree happens to have: the tie-break of :mod:`exact.wordle.fewest.search` picks one optimal tree, so W_g
is one optimal tree's count, not a bound), and ``winK,guesses`` gives the most answers within K,
W*_g (proven), and the least total among the trees that reach it, T*_g >= T_g (proven). The cost of
maximising P(win within K) is T*_g - T_g guesses in total, (T*_g - T_g) / n per game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from exact.fileio import write_json, write_text
from exact.wordle.fewest.search import solve_guesses
from exact.words import WordList


def tradeoff_table(answers: WordList, guesses: WordList, firsts, k: int = 3, max_guesses: int = 6,
                   hard: bool = False, echo=None) -> dict:
    """Both objectives for every first guess in ``firsts``; stops early (marked interrupted) on Ctrl-C."""
    rows = []
    interrupted = False
    started = time.perf_counter()
    for word in firsts:
        row = {"first": word, "guesses": None, f"win{k},guesses": None}
        for name in ("guesses", f"win{k},guesses"):
            r = solve_guesses(answers, guesses, objective=name, first=word, max_guesses=max_guesses, hard=hard)
            row[name] = {"status": r.status, "wins_within": r.wins_within(k) if r.tree else None,
                         "total": r.total, "mean": r.mean, "wins_at": list(r.wins_at),
                         "seconds": round(r.seconds, 1), "cores": r.cores}
            if r.interrupted:
                interrupted = True
                break
        rows.append(row)
        if echo is not None:
            echo(row)
        if interrupted:
            break
    for row in rows:
        a, b = row["guesses"], row[f"win{k},guesses"]
        if a and b and a["total"] is not None and b["total"] is not None:
            row["extra_guesses"] = b["total"] - a["total"]
            row["extra_mean"] = (b["total"] - a["total"]) / len(answers)
            row["extra_wins"] = b["wins_within"] - a["wins_within"]
    flags = f" --depth {k}" + (f" --max-guesses {max_guesses}" if max_guesses != 6 else "") + (" --hard" if hard else "")
    return {
        "k": k, "max_guesses": max_guesses, "hard": hard, "n": len(answers),
        "answers": {"source": answers.source, "sha256": answers.sha256},
        "guesses": {"source": guesses.source, "sha256": guesses.sha256},
        "command": f"exact wordle tradeoff --first {','.join(firsts)}{flags}",
        "rows": rows, "interrupted": interrupted, "seconds": round(time.perf_counter() - started, 1),
    }


@dataclass(frozen=True)
class Cell:
    """One finished cell of the table: a first guess solved for one objective."""

    first: str
    objective: str  # guesses, or winK,guesses
    value: dict  # its JSON: wins_within, total, mean, status, seconds, cores


def finished_cells(data: dict):
    """The cells of ``data`` that finished (a total found), row by row, ``guesses`` before ``winK,guesses``."""
    k = data["k"]
    for row in data["rows"]:
        for name in ("guesses", f"win{k},guesses"):
            v = row[name]
            if v and v["total"] is not None:
                yield Cell(row["first"], name, v)


def table_markdown(data: dict) -> str:
    k = data["k"]
    lines = [f"# What maximising P(win within {k}) costs in guesses",
             "",
             f"Exact for each first guess ({data['n']} answers, every answer solved within "
             f"{data['max_guesses']} guesses{', hard mode' if data['hard'] else ''}). "
             f"`guesses`: fewest total guesses; `win{k},guesses`: most answers within {k}, then fewest "
             f"total guesses. Both columns are proven optima (status OPTIMAL); the `within {k}` of the "
             f"`guesses` row is that of the tree the tie-break picks.",
             "",
             f"Command: `{data['command']} --out results/wordle/tradeoff-win{k}.json`",
             "",
             f"| first | objective | within {k} | total | mean | status | seconds |",
             "|---|---|---:|---:|---:|---|---:|"]
    for c in finished_cells(data):
        v = c.value
        lines.append(f"| {c.first} | {c.objective} | {v['wins_within']} | {v['total']} | {v['mean']:.4f} "
                     f"| {v['status']} | {v['seconds']} |")
    lines += ["", f"| first | extra guesses in total | extra mean | extra answers within {k} |", "|---|---:|---:|---:|"]
    for row in data["rows"]:
        if "extra_guesses" in row:
            lines.append(f"| {row['first']} | {row['extra_guesses']} | {row['extra_mean']:.4f} | {row['extra_wins']} |")
    cores = {v["cores"] for row in data["rows"] for v in (row["guesses"], row[f"win{k},guesses"]) if v}
    lines += ["", f"Seconds on {', '.join(map(str, sorted(cores)))} cores (a shared machine); "
                  f"{'interrupted: the rows shown finished' if data['interrupted'] else 'all rows finished'}.", ""]
    return "\n".join(lines)


def table_csv(data: dict) -> str:
    k = data["k"]
    lines = [f"first,objective,within_{k},total,mean,status,seconds"]
    for c in finished_cells(data):
        v = c.value
        lines.append(f"{c.first},\"{c.objective}\",{v['wins_within']},{v['total']},{v['mean']:.6f},"
                     f"{v['status']},{v['seconds']}")
    return "\n".join(lines) + "\n"


def write_table(data: dict, path: str | Path) -> None:
    """The table as JSON at ``path``, with a .md and a .csv beside it (atomic writes)."""
    path = Path(path)
    write_json(path, data)
    write_text(path.with_suffix(".md"), table_markdown(data))
    write_text(path.with_suffix(".csv"), table_csv(data))
