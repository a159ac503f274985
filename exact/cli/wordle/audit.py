"""``exact wordle audit``: a strategy tree against the proven optimum of every subproblem, decision by decision."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import (ANSWERS_HELP, GUESSES_HELP, check_outputs, counted, echo_json, exit_if_interrupted, guess_limit,
                              list_answers, list_guesses, load_weights, weights_option, words_option)
from exact.cli.wordle.trees import TREE_FORMATS
from exact.game.formats import load_tree
from exact.game.tree import check_tree_lists
from exact.wordle.study.audit import audit_tree
from exact.wordle.study.audit_page import write_audit_page
from exact.words import list_name, load_or_default


@click.command("audit")
@click.argument("tree_file", metavar="TREE", type=click.Path(dir_okay=False, path_type=Path))
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--hard", is_flag=True, help="Hard mode: the tree's guesses are checked and every optimum obeys the rule.")
@click.option("--depth", "-k", type=guess_limit(), default=None,
              help="Audit for the most wins within K guesses instead of the fewest guesses.")
@click.option("--max-guesses", type=guess_limit(), default=6, show_default=True,
              help="Fewest guesses with every answer solved within this many (the game's limit).")
@click.option("--format", "fmt", type=click.Choice(TREE_FORMATS), default=None,
              help="TREE's format [default: detected from the text; see docs/tree-formats.md].")
@click.option("--partial", is_flag=True,
              help="A tree that does not solve every answer: audit it on the answers it solves (else refused).")
@click.option("--top", type=click.IntRange(min=0), default=20, show_default=True,
              help="Print this many of the losing decisions, largest loss first (--json lists all).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: totals, gap and every losing decision.")
@click.option("--html", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write a page: the tree with each node coloured by its loss (one file, no network).")
@weights_option
def audit(tree_file, answers, guesses, hard, depth, max_guesses, fmt, partial, top, as_json, html, weights=None):
    """Audit a strategy TREE (any format `verify` reads) against the proven optimum: at every decision
    the exact optimum of its subproblem against what the tree's guess makes possible there.

    Prints the tree's total, the optimum given its first guess, the optimum over every first guess
    (from a committed ranking certificate of the same lists, else "not known"), the gap (total less
    the optimum given the first guess: the losses of the decisions below it add up to it exactly),
    the first guess's own loss, and the decisions that lose the most (path, guess played, a best
    guess, loss). With --depth K the same for the most wins within K. A tree made on other lists, or
    with a guess not allowed, is refused (exit 2); one that does not solve every answer is refused
    naming them, unless --partial. With --weights FILE (or --list nyt-prior) every total, optimum
    and loss is weighted (answer a's term times its weight), and the optimum over every first guess is
    read only from a certificate proven under the same weights. See docs/audit.md.
    """
    check_outputs(html)
    tree, fmt = load_tree(tree_file, fmt)
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    check_tree_lists(tree, answer_list, guess_list, str(tree_file))
    result = audit_tree(tree, answer_list, guess_list, depth=depth, max_guesses=max_guesses, hard=hard,
                        partial=partial, name=str(tree_file), progress=None if not as_json else False,
                        weights=load_weights(weights, answer_list))
    if html is not None:
        write_audit_page(tree, result, html, f"audit of {tree_file.name}")
    if as_json:
        echo_json({"tree": str(tree_file), "format": fmt, "list": list_name(answer_list, guess_list),
                   "answers": answer_list.source, "guesses": guess_list.source, **result.to_json()})
    else:
        _echo(result, tree_file, fmt, top)
        if html is not None:
            click.echo(f"wrote {html}")
    exit_if_interrupted(result.interrupted)


def _echo(result, tree_file: Path, fmt: str, top: int) -> None:
    unit = "guesses" if result.objective == "guesses" else f"wins within {result.limit}"
    overall = "not known (no committed certificate covers these lists, mode, limit and weights)" \
        if result.optimal_overall is None else str(result.optimal_overall)
    click.echo(f"tree: {tree_file} ({fmt}, first guess {result.first}), {result.n} answers"
               f"{' (the answers it solves: --partial)' if result.partial else ''}, objective {unit}"
               f"{', hard mode' if result.hard else ''}"
               + (f", answers weighted by {result.weights.source} (total {result.weights.total})"
                  if result.weights is not None else ""))
    if result.unsolved:
        click.echo(f"not solved (left out): {counted(len(result.unsolved), 'answer')}: "
                   + " ".join(u.answer for u in result.unsolved[:10]) + (" ..." if len(result.unsolved) > 10 else ""))
    click.echo(f"tree's total: {result.total}")
    if result.interrupted:
        click.echo(f"interrupted: the optimum given {result.first} and the gap are not known; the decisions "
                   f"audited so far follow (each exact)")
    else:
        click.echo(f"optimum given its first guess {result.first}: {result.optimal_given_first}")
    click.echo(f"optimum over every first guess: {overall}")
    if not result.interrupted:
        first_loss = "not known" if result.first_guess_loss is None else str(result.first_guess_loss)
        click.echo(f"gap: {result.gap} (the losses below the first guess); the first guess's own loss: {first_loss}")
    if not result.decisions and not result.interrupted:
        click.echo("every decision below the first guess is optimal")
        return
    click.echo(f"{counted(len(result.decisions), 'losing decision')}, largest loss first:")
    for d in result.decisions[:top]:
        click.echo(f"  {d.loss:>4}  [{d.path}] ({d.answers} answers) played {d.played}, best {d.best}")
    if len(result.decisions) > top:
        click.echo(f"  ... and {len(result.decisions) - top} more (--top, --json)")
