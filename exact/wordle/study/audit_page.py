"""An audit (:mod:`exact.wordle.study.audit`) as one self-contained HTML page: the tree as nested
expandable nodes, each coloured by its loss (green: optimal, through yellow to red: the largest loss
in the tree), the subtrees that lose something open, every word escaped; no script, no network.

>>> from exact.words import words_from_lines
>>> from exact.wordle.fewest.search import solve_guesses
>>> from exact.wordle.study.audit import audit_tree
>>> A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
>>> t = solve_guesses(A, A, progress=False).tree
>>> page = audit_html(t, audit_tree(t, A, A, progress=False), "<a title>")
>>> "&lt;a title&gt;" in page and "<a title>" not in page, page.count("<details")
(True, 8)
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from exact.feedback import format_pattern
from exact.fileio import write_text
from exact.game.tree import Tree
from exact.wordle.study.audit import Audit, NodeAudit

STYLE = """body{font-family:system-ui,sans-serif;margin:1.5em;max-width:70em}
details{margin-left:1.4em}summary{cursor:pointer;padding:1px 4px;border-radius:3px;margin:1px 0}
.p{font-family:monospace;color:#555}.g{font-weight:bold;font-family:monospace}
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left;border-bottom:1px solid #ddd}
.key span{padding:1px 6px;margin-right:4px;border-radius:3px}"""


def colour(loss: int, worst: int) -> str:
    """The node's colour: hue 120 (green) at loss 0 down to 0 (red) at the tree's worst loss."""
    hue = 120 if loss <= 0 or worst <= 0 else round(100 * (1 - loss / worst))
    return f"hsl({hue},70%,85%)"


def _summary(audit: Audit) -> str:
    unit = f"fewest guesses, every answer within {audit.limit}" if audit.objective == "guesses" else \
        f"most wins within {audit.limit} guesses"
    overall = "not known" if audit.optimal_overall is None else str(audit.optimal_overall)
    given = "not known (interrupted)" if audit.optimal_given_first is None else str(audit.optimal_given_first)
    first_loss = "not known" if audit.first_guess_loss is None else str(audit.first_guess_loss)
    rows = [("tree's total", audit.total), (f"optimum given its first guess ({escape(audit.first)})",
            given), ("optimum over every first guess", overall), ("gap", "not known" if audit.gap is None else audit.gap),
            ("first guess's own loss", first_loss), ("losing decisions", len(audit.decisions))]
    cells = "".join(f"<tr><th>{name}</th><td>{value}</td></tr>" for name, value in rows)
    return f"<p>{audit.n} answers, {escape(unit)}{', hard mode' if audit.hard else ''}</p><table>{cells}</table>"


def _node(tree: Tree, history: tuple, by_history: dict[tuple, NodeAudit], audit: Audit, worst: int,
          inherited: bool) -> str:
    """A node and its subtree as nested <details>; ``inherited``: inside a subtree proven optimal."""
    found = by_history.get(history)
    settled = inherited or (found is not None and found.settled)
    pattern = f'<span class="p">{format_pattern(history[-1][1], len(tree.guess))}</span> ' if history else ""
    if found is None and not inherited and history:  # past guess K, or not reached before an interruption
        loss, below, note, background = 0, 0, " &middot; not audited", "#eee"
    else:
        loss = found.loss if found is not None and history else 0
        below = (audit.gap or 0) if not history else (0 if found is None else
                                                      (found.cost - found.optimum) * (1 if audit.objective == "guesses" else -1))
        note = (f" &middot; loses {loss}, best {escape(found.best)}" if loss else "") + \
            (f" &middot; {below} lost in this subtree" if below and below != loss else "") + \
            (" &middot; optimal" if not below else "")
        background = colour(loss, worst)
    head = (f'<summary style="background:{background}">{pattern}<span class="g">{escape(tree.guess)}</span> '
            f"({tree.answers}){note}</summary>")
    inner = "".join(_node(child, history + ((tree.guess, p),), by_history, audit, worst, settled)
                    for p, child in sorted(tree.children.items()))
    return f"<details{' open' if below else ''}>{head}{inner}</details>"


def audit_html(tree: Tree, audit: Audit, title: str) -> str:
    """The page's text."""
    by_history = {n.history: n for n in audit.nodes}
    worst = max((d.loss for d in audit.decisions), default=0)
    key = "".join(f'<span style="background:{colour(v, worst)}">loss {v}</span>'
                  for v in sorted({0, *(d.loss for d in audit.decisions)}))
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>{_summary(audit)}"
            f"<p class='key'>{key}</p>{_node(tree, (), by_history, audit, worst, False)}</body></html>")


def write_audit_page(tree: Tree, audit: Audit, path: str | Path, title: str) -> None:
    """Write the page atomically."""
    write_text(path, audit_html(tree, audit, title))
