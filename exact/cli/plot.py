"""``exact plot ...``: pictures of trees and results files, as PNG and SVG (exact/plot.py)."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import list_answers, list_guesses, words_option
from exact.cli.common import guess_limit
from exact.cli.docs import checkout_root
from exact.errors import ExactError
from exact.fileio import make_folder
from exact.game.formats import read_tree
from exact.wordle.study.fallback import FewestGuesses, complete
from exact.words import load_or_default, shipped_result, shipped_results

OUT_HELP = "Where to write: STEM.png and STEM.svg (an extension .png/.svg is dropped)."


def out_option(default: str):
    return click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=Path(default),
                        show_default=True, help=OUT_HELP)


def report(paths) -> None:
    click.echo("wrote " + ", ".join(map(str, paths)))


@click.group()
def plot():
    """Draw results as PNG and SVG (matplotlib, headless)."""


@plot.command()
@click.argument("trees", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--label", "labels", multiple=True, help="A title per tree, in order [default: the file names].")
@words_option("--answers", "Answer list [default: the answers of --list].")
@click.option("--depth", "-k", type=guess_limit(), default=None, help="Guesses that count as a win (bars beyond it are yellow) [default: each tree's depth].")
@words_option("--guesses", "Allowed guesses the fallback may probe with [default: the guesses of --list].")
@click.option("--play-on", is_flag=True,
              help="Complete each tree with the fallback of `exact wordle play` (exact.wordle.study.fallback.FewestGuesses), "
                   "as a game goes on where the tree stops.")
@click.option("--title", default="Guesses to win", show_default=True)
@out_option("results/figures/histogram")
def histogram(trees, labels, answers, guesses, play_on, depth, title, out):
    """The histogram of guesses of each TREE (several side by side): wins with 1, 2, ... guesses, and lost."""
    from exact.plot import draw_histogram, guess_counts, save  # lazy: start-up (measured 1.1 s, matplotlib)

    if labels and len(labels) != len(trees):
        raise ExactError(f"give one --label per tree ({len(trees)}), not {len(labels)}")
    answer_list = load_or_default(answers, list_answers)
    read = [read_tree(t) for t in trees]
    if play_on:
        fallback = FewestGuesses(answer_list.words, load_or_default(guesses, list_guesses).words)
        read = [complete(t, answer_list.words, fallback) for t in read]
    panels = [(label, guess_counts(t, answer_list, depth)) for t, label in zip(read, labels or [t.name for t in trees])]
    report(save(draw_histogram(panels, title), out))


@plot.command("first-guesses")
@click.argument("certificates", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True)
@out_option("results/figures/first-guesses")
def first_guesses(certificates, top, out):
    """The top first guesses by exact value, from `exact wordle solve` CERTIFICATES
    [default: results/wordle/*-certificate.json, normal mode, the original lists]."""
    from exact.plot import draw_first_guesses, first_guess_values, is_depth_certificate, save  # lazy: start-up (measured 1.1 s, matplotlib)

    paths = certificates or [p for p in shipped_results("results/wordle/*-certificate.json")
                             if is_depth_certificate(p)]  # not the fewest-guesses ones
    groups = [g for g in first_guess_values(paths) if certificates or (not g.hard and g.list == "original")]
    if not groups:
        raise ExactError("no OPTIMAL certificate among the files given")
    report(save(draw_first_guesses(groups, top), out))


@plot.command()
@click.argument("curve", required=False, type=click.Path(dir_okay=False, path_type=Path), default=None)
@out_option("results/figures/memorable-curve")
def memorable(curve, out):
    """Wins against M with the upper bounds, from `exact wordle memorable --curve --out CURVE`
    [default: results/wordle/memorable-curve.json]."""
    from exact.plot import curve_points, draw_memorable, save  # lazy: start-up (measured 1.1 s, matplotlib)

    curve = curve or shipped("results/wordle/memorable-curve.json")
    report(save(draw_memorable(curve_points(curve)), out))


@plot.command("memorable-openers")
@click.argument("curves", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@out_option("results/figures/memorable-openers")
def memorable_openers(curves, out):
    """The memorable curves of several first guesses on one figure, from `exact wordle memorable --curve
    --first WORD --out CURVE` files."""
    from exact.plot import curve_points, draw_memorable_openers, save  # lazy: start-up (measured 1.1 s, matplotlib)

    report(save(draw_memorable_openers([curve_points(c) for c in curves]), out))


@plot.command()
@click.argument("results", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--log", "logs", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The saved stderr of a run (its 'search ...s best W/n' lines), one per RESULT in order: "
                   "draws its best so far against time.")
@out_option("results/figures/lingo-enable-5")
def lingo(results, logs, out):
    """A Lingo run's best set found and upper bound against time, from `exact lingo solve --out` and
    `exact lingo bound --out` files [default: results/lingo/enable-5*.json]."""
    from exact.plot import draw_lingo, lingo_runs, save  # lazy: start-up (measured 1.1 s, matplotlib)

    paths = results or shipped_results("results/lingo/enable-5*.json")
    if not paths:
        raise ExactError("no Lingo result files given (and none at results/lingo/enable-5*.json)")
    report(save(draw_lingo(lingo_runs(paths, logs)), out))


def shipped(name: str) -> Path:
    """A committed result (from the checkout or the installed wheel), or a one-line error."""
    path = shipped_result(name)
    if path is None:
        raise ExactError(f"{name}: not in this installation (give the file)")
    return path


@plot.command("all")
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write the figures [default: results/figures of the source checkout exact runs "
                   "from, from any folder (made if missing); else of the current folder (needs --mkdir where "
                   "there is no results/)].")
@click.pass_context
def all_figures(ctx, out_dir):
    """Every figure of the committed results, which it reads from the checkout or the installed package
    (so it runs from any folder)."""
    if out_dir is None:
        out_dir = checkout_root() / "results" / "figures"
    make_folder(out_dir)
    wordle = shipped("results/wordle/optimal-depth3.txt").parent
    ctx.invoke(histogram, trees=(wordle / "optimal-depth3.txt", wordle / "hard-depth3.txt"),
               labels=("optimal, depth 3", "hard mode, depth 3"), answers=None, guesses=None, play_on=False, depth=3,
               title="Guesses to win: the proven depth-3 trees", out=out_dir / "histogram-depth3")
    ctx.invoke(histogram, trees=(wordle / "optimal-depth3.txt",), labels=("optimal depth-3 tree, then the fallback",),
               answers=None, guesses=None, play_on=True, depth=3,
               title="Guesses to solve: exact wordle play with the depth-3 tree", out=out_dir / "histogram-play-depth3")
    ctx.invoke(histogram, trees=(wordle / "trace-depth4.txt",), labels=("trace, depth 4",), answers=None,
               guesses=None, play_on=False, depth=4, title="Guesses to win: the depth-4 tree after trace", out=out_dir / "histogram-trace-depth4")
    ctx.invoke(first_guesses, certificates=(), top=10, out=out_dir / "first-guesses")
    ctx.invoke(memorable, curve=wordle / "memorable-curve.json", out=out_dir / "memorable-curve")
    ctx.invoke(memorable_openers, curves=tuple(sorted(wordle.glob("memorable-curve*.json"))),
               out=out_dir / "memorable-openers")
    ctx.invoke(histogram, trees=(wordle / "salet-guesses.txt", wordle / "optimal-depth3.txt", wordle / "optimal-depth4.txt"),
               labels=("fewest guesses (salet, 7920)", "most within 3 (trace)", "most within 4 (tenor)"), answers=None,
               guesses=None, play_on=False, depth=6, title="Guesses to solve: complete trees for three objectives",
               out=out_dir / "histogram-objectives")
    runs = [(log.with_suffix(".json"), log) for log in shipped_results("results/lingo/enable-5*.log")
            if log.with_suffix(".json").is_file()]  # runs whose stderr was kept: their best so far over time
    ctx.invoke(lingo, results=tuple(r for r, _ in runs), logs=tuple(lg for _, lg in runs), out=out_dir / "lingo-enable-5")
