"""Pictures of the results with matplotlib (headless Agg backend), each written as PNG and SVG.

Each figure has a *data* function (plain numbers from a tree or a results file, testable without
drawing) and a *draw* function returning a matplotlib Figure:

- :func:`guess_counts` / :func:`draw_histogram`: how many answers a tree wins with 1, 2, ... guesses
  and how many it loses within its depth (any tree, several side by side);
- :func:`first_guess_values` / :func:`draw_first_guesses`: the top first guesses by exact value, from
  the ``exact wordle solve`` certificates (depth 3: the top 10 of the proof; depth 4: the first guesses
  valued exactly by the global search or a certificate of their own, with the bound on all others);
- :func:`curve_points` / :func:`draw_memorable`: wins against M with the upper bounds
  (``exact wordle memorable --curve``);
- :func:`draw_card`: a card a person can learn (:mod:`exact.wordle.study.card`), one page, written by :func:`save_one`;
- :func:`lingo_runs` / :func:`draw_lingo`: a Lingo run's best set found and its upper bound against
  time. A result file that records a ``history`` (``[[seconds, wins], ...]`` in ``stats``) is drawn as
  a step line; one that records only its final values is drawn as points at its end time.

:func:`save` writes ``<stem>.png`` and ``<stem>.svg`` atomically.

>>> from exact.words import words_from_lines
>>> from exact.game.tree import Tree
>>> A = words_from_lines(["caber", "cabin", "cable"])
>>> guess_counts(Tree("cabin", 3, {}), A)
GuessCounts(solved_at=(1,), unsolved=2, depth=1)
"""

from __future__ import annotations

import io
import json
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt

from exact.errors import ExactError
from exact.fileio import atomic_write_bytes, read_json
from exact.game.tree import Tree, tree_depth
from exact.wordle.study.card import THIRD_GUESS, found_letters, group_heading, value_line
from exact.wordle.study.fallback import guesses_to_solve
from exact.words import WordList, list_of_record

GREEN, YELLOW, GRAY, BLUE, RED = "#6aaa64", "#c9b458", "#787c7e", "#4a7fb5", "#b55a4a"


def pyplot():
    """matplotlib.pyplot on the headless Agg backend (no display needed)."""
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "exact"  # the same ids in every SVG written: files change only with the data

    return plt


def save(fig, stem: str | Path) -> list[Path]:
    """Write the figure as ``stem.png`` (150 dpi) and ``stem.svg``, atomically; returns the paths."""
    stem = Path(stem)
    if stem.suffix in (".png", ".svg"):
        stem = stem.with_suffix("")
    paths = []
    for ext in ("png", "svg"):
        buffer = io.BytesIO()
        # A fixed date keeps the SVG identical from run to run.
        fig.savefig(buffer, format=ext, dpi=150, bbox_inches="tight",
                    metadata={"Date": None} if ext == "svg" else {"Software": None})
        path = stem.with_name(f"{stem.name}.{ext}")
        atomic_write_bytes(path, buffer.getvalue())
        paths.append(path)
    pyplot().close(fig)
    return paths


# --- histogram of guesses -----------------------------------------------------------------------


@dataclass(frozen=True)
class GuessCounts:
    solved_at: tuple[int, ...]  # solved_at[k - 1]: answers the tree guesses with its k-th guess
    unsolved: int  # answers the tree never guesses (a branch it lacks)
    depth: int  # guesses that count as a win

    @property
    def wins(self) -> int:
        return sum(self.solved_at[: self.depth])

    @property
    def n(self) -> int:
        return sum(self.solved_at) + self.unsolved


def guess_counts(tree: Tree, answers: WordList, depth: int | None = None) -> GuessCounts:
    """How many answers the tree solves with each number of guesses (every branch followed, also
    beyond ``depth``, the guesses that count as a win; default: the tree's depth)."""
    steps = guesses_to_solve(tree, answers.words, strict=False).values()
    solved = [s for s in steps if s is not None]
    counts = [0] * max(solved, default=0)
    for s in solved:
        counts[s - 1] += 1
    return GuessCounts(tuple(counts), len(steps) - len(solved), depth or tree_depth(tree))


def draw_histogram(panels: list[tuple[str, GuessCounts]], title: str = "Guesses to win"):
    """One bar chart per tree, side by side, sharing the y axis: answers solved with k guesses (green
    within the depth, yellow beyond it) and answers the tree never solves (gray)."""
    plt = pyplot()
    longest = max(len(c.solved_at) for _, c in panels)
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 3.8), sharey=True, squeeze=False)
    top = 0
    for ax, (label, c) in zip(axes[0], panels):
        counts = list(c.solved_at) + [0] * (longest - len(c.solved_at))
        xs = [str(k) for k in range(1, longest + 1)]
        colors = [GREEN if k <= c.depth else YELLOW for k in range(1, longest + 1)]
        if any(p.unsolved for _, p in panels):
            xs.append("lost")
            counts.append(c.unsolved)
            colors.append(GRAY)
        bars = ax.bar(xs, counts, color=colors)
        ax.bar_label(bars, labels=[str(y) for y in counts], fontsize=8, padding=2)
        top = max(top, max(counts))
        won = c.solved_at[: c.depth]
        mean = sum(k * w for k, w in enumerate(won, start=1)) / max(1, sum(won))
        beyond = c.n - c.wins - c.unsolved
        overall = sum(k * w for k, w in enumerate(c.solved_at, start=1)) / max(1, c.n - c.unsolved)
        # one fact a line, so that side-by-side titles never run into each other
        ax.set_title(f"{label}\nwins {c.wins}/{c.n} = {c.wins / c.n:.2%} within {c.depth}\nmean {mean:.3f} over wins"
                     + (f"\n{beyond} solved beyond {c.depth} guesses\nmean {overall:.3f} over "
                        f"{'all' if not c.unsolved else 'the solved'}" if beyond else ""), fontsize=9,
                     wrap=True)
        ax.set_xlabel("guesses")
        ax.spines[["top", "right"]].set_visible(False)
    axes[0][0].set_ylabel("answers")
    axes[0][0].set_ylim(0, top * 1.15)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


# --- first guesses by exact value ---------------------------------------------------------------


@dataclass(frozen=True)
class FirstGuesses:
    depth: int
    n: int
    values: tuple[tuple[str, int], ...]  # (first guess, exact wins), best first
    hard: bool = False
    others_at_most: int | None = None  # a global search with an incumbent: every first guess not listed is <= this
    list: str = "original"  # the named list (exact.words.NAMED_LISTS), "other" for other files


def is_depth_certificate(path) -> bool:
    """Whether a file is a certificate of ``exact wordle solve --depth K`` (with ``top`` and ``depth``)."""
    data = read_json(path, "certificate")
    return isinstance(data, dict) and "top" in data and "depth" in data


def first_guess_values(paths) -> list[FirstGuesses]:
    """Exact values of first guesses from ``exact wordle solve`` certificates, grouped by depth.

    A certificate over every first guess contributes its ``top`` list (exact values); one with
    ``first`` fixed contributes that guess. Only OPTIMAL certificates count; hard mode and each list
    are kept apart; a weighted certificate (its values are weight won, not answers) is left out.
    """
    by_key: dict[tuple[int, bool, str], dict[str, int]] = {}
    sizes: dict[tuple[int, bool, str], int] = {}
    limits: dict[tuple[int, bool, str], int] = {}
    for path in paths:
        data = read_json(path, "certificate")
        if not isinstance(data, dict) or "top" not in data or "depth" not in data:
            raise ExactError(f"{path}: not an `exact wordle solve` certificate (no 'top' or 'depth')")
        if data.get("status") != "OPTIMAL" or data.get("weights"):
            continue
        key = (int(data["depth"]), bool(data.get("hard")), list_of_record(data) or "other")
        values = by_key.setdefault(key, {})
        if sizes.setdefault(key, int(data["n"])) != int(data["n"]):
            raise ExactError(f"{path}: {data['n']} answers, but another depth-{key[0]} certificate has {sizes[key]}")
        for row in data["top"]:
            values[row["guess"]] = int(row["wins"])
        if data.get("largest_pruning_bound") is not None:  # pruned against the incumbent, not the 10th best
            limits[key] = max(limits.get(key, 0), int(data["largest_pruning_bound"]))
    return [FirstGuesses(d, sizes[(d, h, name)], tuple(sorted(v.items(), key=lambda gv: (-gv[1], gv[0]))), h,
                         limits.get((d, h, name)), name)
            for (d, h, name), v in sorted(by_key.items(), key=lambda kv: (kv[0][2] != "original", kv[0]))]


def draw_first_guesses(groups: list[FirstGuesses], top: int = 10):
    plt = pyplot()
    fig, axes = plt.subplots(1, len(groups), figsize=(4.4 * len(groups), 0.32 * top + 1.6), squeeze=False)
    for ax, g in zip(axes[0], groups):
        rows = g.values[:top][::-1]
        names = [w for w, _ in rows]
        wins = [v for _, v in rows]
        best = max(wins)
        bars = ax.barh(names, wins, color=[GREEN if v == best else BLUE for v in wins])
        ax.bar_label(bars, labels=[f"{v} ({v / g.n:.2%})" for v in wins], fontsize=8, padding=2)
        span = best - min(wins)
        ax.set_xlim(min(wins) - max(3, span), best + max(4, span * 0.9))
        title = (f"P(win within {g.depth}){', hard mode' if g.hard else ''}"
                 f"{'' if g.list == 'original' else f', list {g.list}'}: exact wins of {g.n}")
        if g.others_at_most is not None:
            title += f"\n(values found exactly; every other first guess is <= {g.others_at_most})"
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("answers won (proven optimal play after the first guess)")
        ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle("First guesses by exact value", fontsize=11)
    fig.tight_layout()
    return fig


# --- the memorable curve ------------------------------------------------------------------------


def curve_points(path) -> dict:
    """The curve file of ``exact wordle memorable --curve``: its points and the unconstrained value."""
    data = read_json(path, "memorable curve")
    if not isinstance(data, dict) or not isinstance(data.get("points"), list):
        raise ExactError(f"{path}: not a memorable curve (no 'points' list)")
    return data


def draw_memorable(data: dict):
    plt = pyplot()
    pts = data["points"]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    M = [p["M"] for p in pts]
    wins = [p["wins"] for p in pts]
    bounds = [p["bound"] for p in pts]
    ax.fill_between(M, wins, bounds, color=YELLOW, alpha=0.35, step=None, label="gap to the upper bound")
    ax.plot(M, bounds, "v-", color=RED, ms=4, lw=1, label="upper bound")
    ax.plot(M, wins, "-", color=GREEN, lw=1.5)
    proven = [p for p in pts if p["status"] == "OPTIMAL"]
    found = [p for p in pts if p["status"] != "OPTIMAL"]
    ax.plot([p["M"] for p in proven], [p["wins"] for p in proven], "o", color=GREEN, label="proven optimal")
    ax.plot([p["M"] for p in found], [p["wins"] for p in found], "o", mfc="white", color=GREEN,
            label="best found (not proven)")
    ax.axhline(data["unconstrained"], color=GRAY, ls="--", lw=1,
               label=f"no limit on M: {data['unconstrained']}")
    ax.axvline(data["full_cover"], color=GRAY, ls=":", lw=1, label=f"M = {data['full_cover']} reaches it")
    ax.set_xscale("log")
    ax.set_xlabel("M: most distinct second guesses")
    ax.set_ylabel(f"answers won within 3 (of {data['n']})")
    ax.set_title(f"Memorable trees after {data['first']}: wins against M", fontsize=11)
    ax.legend(fontsize=8, loc="lower right")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def draw_memorable_openers(curves: list[dict]):
    """The memorable curves of several first guesses on one figure: wins against M (filled: proven)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for data in curves:
        pts = sorted(data["points"], key=lambda p: p["M"])
        # a line only between consecutive M: the curve is not drawn across M values not solved
        runs = [[pts[0]]] if pts else []
        for p in pts[1:]:
            (runs[-1].append(p) if p["M"] == runs[-1][-1]["M"] + 1 else runs.append([p]))
        line, = ax.plot([p["M"] for p in runs[0]], [p["wins"] for p in runs[0]], "-", lw=1.5, label=data["first"])
        for run in runs[1:]:
            ax.plot([p["M"] for p in run], [p["wins"] for p in run], "-", lw=1.5, color=line.get_color())
        for p in pts:
            ax.plot(p["M"], p["wins"], "o", ms=4, color=line.get_color(),
                    mfc=line.get_color() if p["status"] == "OPTIMAL" else "white")
    ax.set_xscale("log")
    ax.set_xlabel("M: most distinct second guesses")
    ax.set_ylabel(f"answers won within 3 (of {curves[0]['n']})")
    ax.set_title("Memorable trees: the best openers (filled: proven optimal)", fontsize=11)
    ax.legend(fontsize=8, loc="lower right")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


# --- a Lingo run ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LingoRun:
    label: str
    n: int
    seconds: float
    wins: int
    bound: int | None
    history: tuple[tuple[float, int], ...]  # (seconds, best wins so far); empty when not recorded
    instance: str = ""
    k: int | None = None


_LOG_LINE = re.compile(r"search\s+([0-9.]+)s\s+best (\d+)/(\d+)")


def log_history(path) -> tuple[tuple[float, int], ...]:
    """(seconds, best wins) from the progress lines ``search  12.3s  best 8200/8636 ...`` that
    ``exact lingo solve`` writes on stderr (save them with ``2> run.log``)."""
    try:
        text = Path(path).read_text(errors="replace")
    except OSError as e:
        raise ExactError(f"{path}: cannot read ({e.strerror})") from None
    history = tuple((float(m.group(1)), int(m.group(2))) for m in _LOG_LINE.finditer(text))
    if not history:
        raise ExactError(f"{path}: no 'search <seconds>s best <wins>/<n>' progress lines")
    return history


def lingo_runs(paths, logs=()) -> list[LingoRun]:
    """Lingo result files (``exact lingo solve --out``) and bound files (``exact lingo bound --out``);
    ``logs[i]``, when given, is the saved progress of ``paths[i]``'s run (its best-so-far history)."""
    runs = []
    for i, path in enumerate(paths):
        data = read_json(path, "Lingo result")
        if not isinstance(data, dict) or "n" not in data:
            raise ExactError(f"{path}: not a Lingo result or bound file")
        history = data.get("history") or (data.get("stats") or {}).get("history") or ()
        try:
            history = tuple((float(s), int(w)) for s, w in history)
        except (TypeError, ValueError):
            raise ExactError(f"{path}: 'history' is not a list of [seconds, wins] pairs") from None
        if i < len(logs) and logs[i] is not None:
            history = log_history(logs[i])
        instance = data.get("instance")
        if isinstance(instance, dict):  # a bound file names its pool by source path
            instance = Path(str(instance.get("source", ""))).stem
        runs.append(LingoRun(Path(path).stem, int(data["n"]), float(data.get("seconds", 0.0)),
                             int(data.get("wins", -1)), data.get("upper_bound"), history,
                             str(instance or ""), data.get("k")))
    return runs


def draw_lingo(runs: list[LingoRun]):
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6.8, 4.2))
    colors = [GREEN, BLUE, RED, YELLOW, GRAY]
    n = runs[0].n
    for i, r in enumerate(runs):
        c = colors[i % len(colors)]
        if r.history:
            xs = [s for s, _ in r.history] + [r.seconds]
            ys = [w for _, w in r.history] + [max(r.wins, r.history[-1][1])]
            ax.step(xs, ys, where="post", color=c, label=f"{r.label}: best so far ({ys[-1]})")
        elif r.wins >= 0:
            ax.plot([r.seconds], [r.wins], "o", color=c, ms=7, label=f"{r.label}: best found {r.wins}")
        if r.bound is not None:
            ax.plot([r.seconds], [r.bound], "v", color=c, mfc="white", ms=9, mew=1.5,
                    label=f"{r.label}: upper bound {r.bound}")
            if r.wins >= 0:
                ax.vlines(r.seconds, r.wins, r.bound, color=c, lw=1, ls=":")
    wins = [r.wins for r in runs if r.wins >= 0]
    bounds = [r.bound for r in runs if r.bound is not None]
    if wins and bounds:
        ax.axhspan(max(wins), min(bounds), color=YELLOW, alpha=0.18,
                   label=f"the optimum lies in [{max(wins)}, {min(bounds)}]")
    ax.set_xlabel("seconds")
    ax.set_ylabel(f"words won (of {n})")
    ax.set_xlim(left=0)
    values = wins + bounds + [w for r in runs for _, w in r.history]
    lo, hi = min(values), max(values)
    ax.set_ylim(lo - 0.35 * (hi - lo + 10), hi + 0.1 * (hi - lo + 10))
    names = sorted({r.instance for r in runs if r.instance})
    ks = sorted({r.k for r in runs if r.k})
    what = ", ".join(names + [f"k = {k}" for k in ks])
    ax.set_title(f"Lingo ({what}): best set found and upper bound against time" if what else
                 "Lingo: best set found and upper bound against time", fontsize=10)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    if not any(r.history for r in runs):
        ax.text(0.01, 0.99, "these files record each run's final values, not its improvements over time",
                transform=ax.transAxes, fontsize=7, va="top", color=GRAY)
    fig.tight_layout()
    return fig


def figure_json(paths) -> str:
    """A list of written files as JSON (for scripts)."""
    return json.dumps([str(p) for p in paths])


# --- a card a person can learn --------------------------------------------------------------------


def draw_card(card):
    """One page (8.5 in wide) of an :class:`exact.wordle.study.card.Card`: the first guess, each second guess
    with the first feedbacks that lead to it (the last group: otherwise), the value and the third-guess rule."""
    plt = pyplot()
    width, margin, tile, step = 8.5, 0.45, 0.19, 0.21
    cell = len(card.first) * step + 0.6  # one feedback: its tiles and the letters found
    per_line = max(1, int((width - 2 * margin) // cell))
    shown = card.groups[:-1]
    rule = textwrap.wrap("3. " + THIRD_GUESS, 110)
    value = textwrap.wrap(value_line(card), 100)
    height = (1.5 + 0.22 * len(value) + 0.5 + sum(0.4 + 0.3 * -(-len(g.rows) // per_line) for g in shown)
              + 0.45 + 0.2 * len(rule) + 0.4)
    fig = plt.figure(figsize=(width, max(height, 4.0)))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(max(height, 4.0), 0)
    ax.axis("off")
    y = margin + 0.1
    ax.text(margin, y, f"Wordle card: {card.first.upper()}, then at most {card.M} second "
            f"guess{'es' if card.M > 1 else ''}", fontsize=15, weight="bold", va="center")
    y += 0.4
    for line in value:
        ax.text(margin, y, line, fontsize=9.5, weight="bold", va="center")
        y += 0.22
    y += 0.15
    ax.text(margin, y, f"1. Play {card.first.upper()}.   2. Read its colours (letters found: upper case "
            f"green, lower case yellow):", fontsize=9.5, va="center")
    y += 0.35
    colours = {0: GRAY, 1: YELLOW, 2: GREEN}
    for i, group in enumerate(card.groups):
        ax.text(margin, y, group_heading(card, i) + (":" if i < len(card.groups) - 1 else ""), fontsize=10.5,
                weight="bold", va="center", color=BLUE)
        y += 0.3
        if i == len(card.groups) - 1:
            break
        for j, row in enumerate(group.rows):
            x = margin + (j % per_line) * cell
            for k, letter in enumerate(card.first):
                ax.add_patch(plt.Rectangle((x + k * step, y - tile / 2), tile, tile,
                                           color=colours[(row.pattern // 3**k) % 3]))
                ax.text(x + k * step + tile / 2, y, letter.upper(), fontsize=7, color="white", weight="bold",
                        ha="center", va="center")
            ax.text(x + len(card.first) * step + 0.04, y, found_letters(card.first, row.pattern), fontsize=7,
                    va="center", color="#444444")
            if j % per_line == per_line - 1 or j == len(group.rows) - 1:
                y += 0.3
        y += 0.1
    y += 0.15
    for line in rule:
        ax.text(margin, y, line, fontsize=8.5, va="center")
        y += 0.2
    lists = card.lists.get("list") or f"{card.n} answers"
    ax.text(margin, y + 0.1, f"Lists: {lists}. Source: {card.source}.", fontsize=7, color="#666666", va="center")
    return fig


def save_one(fig, path: str | Path) -> Path:
    """Write the figure in the format its suffix names (.png at 150 dpi, or .svg), atomically."""
    path = Path(path)
    if path.suffix not in (".png", ".svg"):
        raise ExactError(f"{path}: write .png or .svg")

    buffer = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # SVG text stays text: small, searchable
        fig.savefig(buffer, format=path.suffix[1:], dpi=150,
                    metadata={"Date": None} if path.suffix == ".svg" else {"Software": None})
    atomic_write_bytes(path, buffer.getvalue())
    pyplot().close(fig)
    return path
