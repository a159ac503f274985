"""``exact wordle verify|convert|complete|export``: strategy trees as files (read, replay, convert, complete, page)."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import click

from exact.cli.common import (ANSWERS_HELP, GUESSES_HELP, call, chosen_list, counted, echo_json, list_answers,
                              list_guesses, words_option)
from exact.cli.common import guess_limit, load_weights, seconds, weights_option, weights_path
from exact import stop
from exact.errors import ExactError
from exact.fileio import read_json
from exact.game.formats import format_for_path, load_tree, read_tree, write_tree
from exact.game.tree import check_tree_lists, record_lists, replay, replay_position, tree_depth
from exact.wordle.certificate import is_certificate, other_result, verify_certificate
from exact.wordle.fewest.complete import complete_and_check
from exact.wordle.study.book import is_book_file
from exact.wordle.study.explorer import write_explorer
from exact.words import list_name, load_or_default


@click.command("export")
@click.argument("tree_file", metavar="[TREE]", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--html", "html", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Write the explorer page here (one file: data inline, no network).")
@click.option("--format", "fmt", type=click.Choice(["graphml", "json", "dot", "txt"]), default=None,
              help="TREE's format [default: from the extension].")
@words_option("--answers", "Answer list [default: the answers of --list].", list_default="nyt2023")
@click.option("--depth", "-k", type=guess_limit(), default=None, help="Guesses that count as a win [default: the tree's depth; for a committed tree the depth it is proven for: 6 for a fewest-guesses tree, 3 for a depth-3 tree].")
@click.option("--hard", is_flag=True, help="Without TREE: the committed hard-mode tree of --list.")
@click.option("--title", default="", help="The page's title [default: the game and its objective: the committed tree's, or the tree's first guess].")
@weights_option
def wordle_export(tree_file, html, fmt, answers, depth, hard, title, weights=None):
    """Write TREE [default: the committed proven tree of --list, as ``exact wordle play`` plays it] as an HTML tree explorer: the game's
    tiles, expand and collapse, answers and P(win) at each node, find an answer, the lost answers."""
    from exact.wordle.study.play_defaults import list_tree  # lazy: start-up (measured 0.62 s, ortools)

    if tree_file is None:
        committed = list_tree(chosen_list(), hard)
        if committed is None:
            raise ExactError(f"give a TREE file (no committed tree of list {chosen_list()} found beside this "
                             f"installation)")
        tree_file, depth = committed.path, depth or committed.depth
        title = title or f"{committed.objective}, list {chosen_list()}"
    answer_list = load_or_default(answers, list_answers)
    tree = read_tree(tree_file, fmt)
    check_tree_lists(tree, answer_list, None if answers is not None else list_guesses(), str(tree_file))
    data = write_explorer(tree, answer_list, html, depth, title,
                          guesses=list_guesses() if answers is None else None,
                          weights=load_weights(weights, answer_list))
    weighed = f" (weight {data['weighted_wins']}/{data['weight']} of {data['weights']})" if "weights" in data else ""
    click.echo(f"wrote {html}: {counted(len(data['nodes']), 'node')}, wins {data['wins']}/{data['n']}{weighed} within "
               f"{data['depth']}, {len(data['lost'])} lost")


from exact.game.formats import FORMATS as _TREE_FORMATS  # noqa: E402  (light: no networkx until used)

TREE_FORMATS = list(_TREE_FORMATS)
TREE_SUFFIXES = " ".join(s for f in _TREE_FORMATS.values() for s in f.suffixes)


def echo_replay(result, shown: int = 20) -> None:
    """Print what a replay says about a tree (the statistics every tree command reports)."""
    def row(values):
        return " ".join(f"{k}:{v}" for k, v in enumerate(values, start=1))

    click.echo(f"guesses used (answers solved with k guesses): {row(result.histogram) or 'none'}")
    if result.solved:
        every = "every answer" if result.complete else f"{result.n - result.solved} never solved"
        click.echo(f"solved {result.solved} / {result.n} ({every}); total {result.total_guesses} guesses, "
                   f"mean {result.mean_guesses:.4f}, worst case {result.worst}")
    click.echo(f"wins within k guesses: {row(result.wins_within)}")
    click.echo(f"wins {result.wins} / {result.n} = {result.probability:.6f} within {result.depth} guesses")
    if result.lost:
        more = f" ... and {len(result.lost) - shown} more (--json lists all)" if len(result.lost) > shown else ""
        click.echo(f"lost {len(result.lost)}: {' '.join(result.lost[:shown])}{more}")
    deeper = [p for p in result.notes if p.kind == "depth"]
    if deeper:
        click.echo(f"note: {len(result.beyond)} answers are solved only after guess {result.depth} "
                   f"({counted(len(deeper), 'node')} deeper than the depth; first: [{deeper[0].path}] {deeper[0].guess})")
    counts = [p for p in result.notes if p.kind == "count"]
    if counts:
        click.echo(f"note: {counted(len(counts), 'node')} record{'s' if len(counts) == 1 else ''} answer counts that differ from this answer list "
                   f"(first: [{counts[0].path or 'root'}] {counts[0].message})")
    if result.claims_checked:
        wrong = [p for p in result.invalid + result.notes if p.kind == "claim"]
        click.echo(f"the file's own statistics: {counted(result.claims_checked, 'node')}' counts checked, "
                   + ("all agree" if not wrong else f"{len(wrong)} differ (first: [{wrong[0].path or 'root'}] "
                                                      f"{wrong[0].message})"))
    click.echo("valid: " + ("yes" if result.valid else f"no, {counted(len(result.invalid), 'invalid node')}"))
    for p in result.invalid[:shown]:
        click.echo(f"  {p.kind}: at [{p.path or 'root'}] {p.guess}: {p.message}")
    if len(result.invalid) > shown:
        click.echo(f"  ... and {len(result.invalid) - shown} more (--json lists all)")


@click.command()
@click.argument("tree_file", metavar="TREE", type=click.Path(dir_okay=False, path_type=Path))
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", "-k", type=guess_limit(), default=None,
              help="Guesses allowed [default: the tree's own depth].")
@click.option("--hard", is_flag=True, help="Also check every guess against the hard-mode rule.")
@click.option("--format", "fmt", type=click.Choice(TREE_FORMATS), default=None,
              help="File format [default: detected from the text; see docs/tree-formats.md].")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (every lost answer and invalid node).")
@click.option("--resolve-time", type=seconds(open=False), default=None,
              help="For a CERTIFICATE: stop re-deriving after these seconds (checked between first guesses; the "
                   "fewest-guesses branch and bound takes no limit: under it only small instances are re-run) "
                   "[default: no limit, everything is re-derived].")
@click.option("--sample", type=click.IntRange(min=1), default=None,
              help="For a ranking or global CERTIFICATE: re-derive only N of its records, drawn at random (--seed); "
                   "for an opener BOOK: re-solve only N of its openers.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of --sample.")
@click.option("--cluster", default=None, metavar="local|ADDRESS",
              help="For a ranking or global CERTIFICATE: re-derive its records on a Dask cluster ('local', or a "
                   "scheduler's tcp://host:8786). Needs pip install -e '.[cluster]'.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="For a ranking or global CERTIFICATE: re-derive its records on a local Dask cluster of N workers.")
@click.option("--partial", is_flag=True,
              help="For a CERTIFICATE: exit 0 when what was re-derived agrees, though not everything was "
                   "(--sample, --resolve-time): still 'partly verified', never 'verified'.")
@click.option("--checkpoint", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="For a ranking or global CERTIFICATE: write each re-derived record to FILE (sealed), so that a "
                   "long check can go on later with --resume FILE.")
@click.option("--resume", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="For a ranking or global CERTIFICATE: go on from the --checkpoint FILE of an earlier check of the "
                   "same certificate (only records sealed by this installation are taken; the rest are re-derived).")
@weights_option
def verify(tree_file, answers, guesses, depth, hard, fmt, as_json, resolve_time, sample, seed, cluster, workers,
           partial, checkpoint=None, resume=None, weights=None):
    """Replay every answer through a strategy TREE from scratch and score it.

    Reports the guesses each answer takes (histogram, total, mean, worst case), the wins within
    each k and within --depth, the answers lost, and checks the statistics the file states about
    itself (Olson's ranking.counts, the emoji format's counts). An answer reached only through a
    guess that is not allowed is never a win.

    Exit status: 0 when the tree is valid (answers lost, nodes deeper than --depth and answer counts
    recorded for another list are notes, not errors), 1 when it has invalid nodes (a guess not
    allowed, a missing branch, a hard-mode violation, wrong stated statistics), 2 for an
    unreadable or malformed file (a Lingo result or a card is named as such).

    Given a certificate of `exact wordle solve|rank --certificate` instead of a tree, it re-derives
    every claim: the lists' sha256, its trees replayed, the fields derived from others, and the
    values themselves by the search that made them: a depth-k or fewest-guesses optimum solved
    again (the solve's own cost: W3 about a minute, salet-guesses about 2 s); every record of a
    ranking or a global depth-k search re-evaluated against the threshold it claims to be on the
    right side of, in the search's order, stopping at the first contradiction (no dearer than the
    run that made it: its "seconds" or "worker_seconds_all_runs"; --cluster/--workers spread it).
    Exit 0 "verified" when everything was re-derived and agrees; 1 "REJECTED" when a check fails;
    1 "partly verified (N of M records re-derived)" when --sample or --resolve-time cut it short
    (0 with --partial). See docs/robustness.md for the cost of each shipped certificate.

    Given an opener BOOK (results/wordle/book/*.json.gz), it replays every opener's tree from scratch
    (answers, totals, worst case, each node's count; the lists from the book's header, or --answers and
    --guesses) and re-solves each opener's least total (--sample N: N of them, "partly verified"); see
    docs/book.md for what a full check costs.
    """
    from exact.api import verify_tree  # lazy: start-up (measured 0.15 s)

    if fmt in (None, "json") and _certificate(tree_file):
        return _verify_certificate(tree_file, answers, guesses, as_json, resolve_time=resolve_time, partial=partial,
                                   sample=sample, seed=seed, cluster=cluster or ("local" if workers else None),
                                   workers=workers, weights=weights_path(weights), checkpoint=checkpoint,
                                   resume=resume)
    if checkpoint is not None or resume is not None:
        raise click.UsageError("--checkpoint and --resume are for a ranking or global CERTIFICATE, not a tree")
    tree, fmt = load_tree(tree_file, fmt)
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    result = verify_tree(tree, answer_list, guess_list, depth=depth, hard=hard, name=str(tree_file))
    if as_json:
        echo_json({"tree": str(tree_file), "format": fmt, "first": tree.guess, "list": list_name(answer_list, guess_list),
                   "answers": answer_list.source,
                   "answers_sha256": answer_list.sha256, "guesses": guess_list.source,
                   "guesses_sha256": guess_list.sha256, **result.to_json()})
    else:
        click.echo(f"tree: {tree_file} ({fmt}, first guess {tree.guess}), answers: {answer_list.source} "
                   f"({len(answer_list)}), guesses: {guess_list.source} ({len(guess_list)}), depth {result.depth}"
                   f"{', hard mode' if hard else ''}")
        echo_replay(result)
    if not result.valid:
        sys.exit(1)


def _certificate(path: Path) -> bool:
    """Whether ``path`` is a Wordle certificate (JSON with lists and a method), not a tree, or another
    known result (a Lingo result, a card), which the certificate's reader names in one line."""
    if is_book_file(path):  # an opener book (gzip'd JSON): verify_certificate checks it
        return True
    try:
        with open(path, "rb") as f:
            if f.read(64).lstrip()[:1] != b"{":
                return False
    except OSError:
        return False  # load_tree reports it
    try:
        data = read_json(path)
    except ExactError:
        return False
    return is_certificate(data) or other_result(data) is not None


def _verify_certificate(path, answers, guesses, as_json, **budget) -> None:
    """The checks, one a line (or JSON), then the verdict: REJECTED, interrupted, partly verified or
    verified; exit 1 unless verified (partly verified: 0 with --partial), 130/143 when interrupted."""
    v = verify_certificate(path, answers=answers, guesses=guesses, progress=None if not as_json else False,
                           **budget)
    if as_json:
        echo_json(v.to_json())
    else:
        for name, outcome, detail in v.checks:
            click.echo(f"{outcome:>11}  {name:<13} {detail}")
        records = [d.split(" (")[0] for n, o, d in v.checks if n == "re-derived" and o == "unconfirmed"]
        if v.failed:
            click.echo(f"{path}: REJECTED")
        elif v.interrupted:
            click.echo(f"{path}: interrupted ({records[0] if records else 'not every check made'})")
        elif v.unconfirmed:
            what = records[0] if records else "not re-derived: " + ", ".join(v.unconfirmed)
            click.echo(f"{path}: partly verified ({what})" + ("" if budget["partial"] else
                                                              "; --partial accepts it"))
        else:
            click.echo(f"{path}: verified")
    if v.interrupted and not v.failed:
        stop.exit_now()
    if not v.ok:
        sys.exit(1)


@click.command(help="Convert a strategy tree between formats (IN's is detected from its text; OUT's comes from "
                     "its suffix). The tree is replayed on the answer list and its totals printed; OUT is written "
                     "atomically. Formats (docs/tree-formats.md): "
                     + "; ".join(f"{name}: {f.what} ({' '.join(f.suffixes)})" for name, f in _TREE_FORMATS.items())
                     + ".")
@click.argument("in_file", metavar="IN", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("out_file", metavar="OUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--from", "from_fmt", type=click.Choice(TREE_FORMATS), default=None,
              help="Format of IN [default: detected from the text].")
@click.option("--to", "to_fmt", type=click.Choice(TREE_FORMATS), default=None,
              help=f"Format of OUT [default: from its suffix: {TREE_SUFFIXES}].")
@words_option("--answers", ANSWERS_HELP + " The formats with a line or leaf per answer walk it through the tree.")
def convert(in_file, out_file, from_fmt, to_fmt, answers):
    """Convert a strategy tree between formats (help text built from the FORMATS table)."""
    to_fmt = format_for_path(out_file, to_fmt)  # a bad suffix fails before any work
    tree, from_fmt = load_tree(in_file, from_fmt)
    answer_list = load_or_default(answers, list_answers)
    result = replay(tree, answer_list, depth=tree_depth(tree))
    differ = [p for p in result.notes if p.kind == "count"]
    if differ and _TREE_FORMATS[to_fmt].needs_answers:
        warnings.warn(f"{in_file}: {counted(len(differ), 'node')} record{'s' if len(differ) == 1 else ''} other answer counts than {answer_list.source} "
                      f"has; {out_file} follows {answer_list.source}")
    if result.unsolved and to_fmt in ("olson", "lists"):
        warnings.warn(f"{out_file}: the {to_fmt} format has no way to say an answer is lost; the "
                      f"{len(result.unsolved)} answers the tree does not solve are left out")
    write_tree(tree, out_file, to_fmt, answers=answer_list)
    mean = f", mean {result.mean_guesses:.4f}" if result.solved else ""
    click.echo(f"wrote {out_file} ({to_fmt}) from {in_file} ({from_fmt}): first guess {tree.guess}, "
               f"{result.solved} of {result.n} answers solved, total {result.total_guesses} guesses{mean}, "
               f"worst case {result.worst}")


@click.command()
@click.argument("tree_file", metavar="TREE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False), multiple=True, required=True,
              help="Write the completed tree (.graphml .json .dot .txt); repeatable.")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", "-k", type=guess_limit(), default=None,
              help="The tree's optimised depth: leaves there are re-chosen to keep the wins within it "
                   "[default: the tree's own depth].")
@click.option("--max-guesses", type=guess_limit(1), default=6, show_default=True,
              help="Every answer solved within this many guesses.")
@click.option("--hard", is_flag=True, help="Hard mode (the tree's guesses are checked, the filling obeys it).")
@click.option("--format", "fmt", type=click.Choice(["graphml", "json", "dot", "txt"]), default=None,
              help="Input format [default: from the extension].")
def complete(tree_file, out, answers, guesses, depth, max_guesses, hard, fmt):
    """Fill every missing branch of a strategy TREE with fewest-guesses subtrees (exact), so that
    every answer is solved within --max-guesses; the wins within --depth do not change."""
    for path in out:
        format_for_path(path)
    tree = read_tree(tree_file, fmt)
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    check_tree_lists(tree, answer_list, guess_list, str(tree_file))
    depth = depth or tree_depth(tree)
    if depth > max_guesses:
        raise ExactError(f"--depth {depth} is more than --max-guesses {max_guesses}")
    before = replay_position(tree, answer_list, guess_list, (), depth, hard)
    if before.invalid:
        raise ExactError(f"{tree_file}: the tree has {counted(len(before.invalid), 'invalid node')} within depth {depth} "
                         f"(first: {before.invalid[0].kind}: {before.invalid[0].message}); `exact wordle verify` lists them")
    done, after = call(complete_and_check, tree, answer_list, guess_list, depth, max_guesses, hard)
    kept = sum(after.wins_at[:depth])
    record_lists(done, answer_list, guess_list)
    for path in out:
        write_tree(done, path, answers=answer_list)
    total = sum((k + 1) * w for k, w in enumerate(after.wins_at))
    click.echo(f"{tree_file}: wins within {depth} {kept} (unchanged); completed: every answer solved within "
               f"{max_guesses}, total {total} guesses, mean {total / after.n:.6f}; solved with 1..{max_guesses}: "
               f"{' '.join(map(str, after.wins_at))}")
    click.echo(f"wrote {', '.join(out)}")
