"""What every section of the results page shares: percentages, paths relative to the repository, and the
figures with their captions and commands (:data:`FIGURES`).
"""

from __future__ import annotations

from pathlib import Path

#: figure stem -> (caption, the command that draws it), for the figures `exact plot all` makes.
FIGURES = {
    "histogram-depth3": ("Guesses to win with the proven depth-3 trees (normal and hard mode)",
                         "exact plot histogram results/wordle/optimal-depth3.txt results/wordle/hard-depth3.txt "
                         "--label 'optimal, depth 3' --label 'hard mode, depth 3' --depth 3 --out results/figures/histogram-depth3"),
    "histogram-trace-depth4": ("Guesses to win with the depth-4 tree after trace",
                               "exact plot histogram results/wordle/trace-depth4.txt --label 'trace, depth 4' "
                               "--depth 4 --out results/figures/histogram-trace-depth4"),
    "histogram-play-depth3": ("Guesses to solve every answer with `exact wordle play`: the optimal depth-3 tree, "
                              "then the fallback where the tree stops",
                              "exact plot histogram results/wordle/optimal-depth3.txt --play-on --depth 3 "
                              "--label 'optimal depth-3 tree, then the fallback' --out results/figures/histogram-play-depth3"),
    "first-guesses": ("First guesses by exact value (depth 3: the top 10 of the proof; depth 4: the "
                      "certified first guesses)", "exact plot first-guesses --out results/figures/first-guesses"),
    "memorable-curve": ("Memorable trees: wins against M, with the upper bounds",
                        "exact plot memorable --out results/figures/memorable-curve"),
    "memorable-openers": ("Memorable trees: the curves of the best openers (filled: proven optimal)",
                          "exact plot memorable-openers results/wordle/memorable-curve*.json "
                          "--out results/figures/memorable-openers"),
    "lingo-enable-5": ("Lingo on ENABLE (k = 4): best set found and upper bound against time",
                       "exact plot lingo --out results/figures/lingo-enable-5"),
    "explorer": ("The HTML tree explorer (`exact wordle export --html`) after finding `buddy`",
                 "exact wordle export --list original --html optimal-depth3.html && "
                 "python -m exact.wordle.study.explorer optimal-depth3.html results/figures/explorer.png buddy"),
}


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def figure(root: Path, stem: str, shown: set) -> list[str]:
    """The figure ``results/figures/<stem>.png`` with its caption and command ([] when absent)."""
    png = root / "results" / "figures" / f"{stem}.png"
    if not png.is_file() or stem in shown:
        return []
    shown.add(stem)
    caption, command = FIGURES.get(stem, (stem, "(no command recorded for this figure)"))
    svg = png.with_suffix(".svg")
    also = f" ([SVG](../{rel(svg, root)}))" if svg.is_file() else ""
    return [f"![{caption}](../{rel(png, root)})", "", f"*{caption}*{also}. Command: `{command}`", ""]


def figures_section(root: Path, shown: set) -> list[str]:
    """The figures not shown in a section above."""
    stems = [p.stem for p in sorted((root / "results" / "figures").glob("*.png")) if p.stem not in shown]
    if not stems:
        return []
    out = ["## More figures", ""]
    for stem in stems:
        out += figure(root, stem, shown)
    return out
