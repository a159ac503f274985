"""``exact wordle ...``: Wordle commands."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import echo_json, words_option
from exact.words import load_or_default, wordle_allowed, wordle_answers

ANSWERS_HELP = "Answer list, one word a line [default: the embedded 2315 Wordle answers]."
GUESSES_HELP = "Allowed guesses, one word a line [default: the embedded 12972 allowed words]."


@click.group()
def wordle():
    """Wordle: adaptive guessing within k guesses (Riddler, 14 Jan 2022)."""


@wordle.command()
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--metric", type=click.Choice(["classes", "worst", "mean", "expected", "entropy"]),
              default="classes", show_default=True,
              help="classes: most classes; worst: smallest largest class; mean: smallest n/classes; "
                   "expected: smallest sum |C|^2/n; entropy: most bits.")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True, help="How many openers to list.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def openers(answers, guesses, metric, top, as_json):
    """Rank first guesses by how they split the answers."""
    from exact.wordle.openers import rank_openers

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    ranked = rank_openers(answer_list, guess_list, metric, top)
    if as_json:
        echo_json([o.to_json() for o in ranked])
        return
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} ({len(guess_list)}), by {metric}")
    click.echo(f"{'rank':>4}  {'guess':<8} {'classes':>7} {'worst':>5} {'n/classes':>9} {'sum|C|^2/n':>10} {'entropy':>7}")
    for rank, o in enumerate(ranked, start=1):
        click.echo(f"{rank:4d}  {o.guess:<8} {o.classes:7d} {o.worst:5d} {o.mean_size:9.3f} {o.expected_size:10.3f} {o.entropy:7.3f}")


# --- Trees as data: verify a strategy file, evaluate simple policies (wordle-trees) ---------------

TREE_FORMATS = ["graphml", "json", "dot", "txt"]


@wordle.command()
@click.argument("tree_file", metavar="TREE", type=click.Path(dir_okay=False, path_type=Path))
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="Guesses allowed [default: the tree's own depth].")
@click.option("--hard", is_flag=True, help="Also check every guess against the hard-mode rule.")
@click.option("--format", "fmt", type=click.Choice(TREE_FORMATS), default=None,
              help="File format [default: from the extension: .graphml .json .dot .txt/.tree].")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (every lost answer and invalid node).")
def verify(tree_file, answers, guesses, depth, hard, fmt, as_json):
    """Replay every answer through a strategy TREE from scratch and score it.

    Exit status: 0 when the tree is valid (answers lost within the depth are not errors, and nor are
    recorded answer counts that differ from this answer list: those are notes), 1 when it has
    invalid nodes (a guess not allowed, a missing branch, a hard-mode violation, a node answers
    reach beyond the depth), 2 for an unreadable or malformed file.
    """
    import sys

    from exact.wordle.tree import replay, tree_depth
    from exact.wordle.treeio import read_tree

    tree = read_tree(tree_file, fmt)
    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    result = replay(tree, answer_list, guess_list, depth or tree_depth(tree), hard)
    if as_json:
        echo_json({"tree": str(tree_file), "answers": answer_list.source, "answers_sha256": answer_list.sha256,
                   "guesses": guess_list.source, "guesses_sha256": guess_list.sha256, **result.to_json()})
    else:
        click.echo(f"tree: {tree_file} (first guess {tree.guess}), answers: {answer_list.source} ({len(answer_list)}), "
                   f"guesses: {guess_list.source} ({len(guess_list)}), depth {result.depth}"
                   f"{', hard mode' if hard else ''}")
        click.echo(f"wins {result.wins} / {result.n} = {result.probability:.6f}; "
                   f"won with 1..{result.depth} guesses: {' '.join(map(str, result.wins_at))}")
        shown = 20
        if result.lost:
            more = f" ... and {len(result.lost) - shown} more (--json lists all)" if len(result.lost) > shown else ""
            click.echo(f"lost {len(result.lost)}: {' '.join(result.lost[:shown])}{more}")
        if result.notes:
            click.echo(f"note: {len(result.notes)} nodes record answer counts that differ from this answer list "
                       f"(first: [{result.notes[0].path or 'root'}] {result.notes[0].message})")
        click.echo(f"valid: {'yes' if result.valid else f'no, {len(result.invalid)} invalid nodes'}")
        for p in result.invalid[:shown]:
            click.echo(f"  {p.kind}: at [{p.path or 'root'}] {p.guess}: {p.message}")
        if len(result.invalid) > shown:
            click.echo(f"  ... and {len(result.invalid) - shown} more (--json lists all)")
    if not result.valid:
        sys.exit(1)


@wordle.command()
@click.option("--first", required=True, metavar="WORD", help="The first guess.")
@click.option("--second", "policy", required=True,
              type=click.Choice(["most-classes", "most-classes-answers", "most-classes-consistent",
                                 "min-worst", "max-entropy", "all"]),
              help="How later guesses are chosen (all: every policy, as a table).")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", type=click.IntRange(min=1), default=3, show_default=True, help="Guesses allowed.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the policy's tree (.graphml .json .dot .txt); one policy only.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def evaluate(first, policy, answers, guesses, depth, out, as_json):
    """Score a simple policy exactly: its tree after --first, replayed on every answer.

    The policy picks every guess after the first but the last; the last guess is a still-possible
    answer. Policies and tie-breaks are described in exact/wordle/policies.py.
    """
    from exact.errors import ExactError
    from exact.wordle.policies import POLICIES, evaluate_policy
    from exact.wordle.treeio import write_tree
    from exact.words import check_words

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    (first,) = check_words([first], guess_list.length, "--first")
    policies = POLICIES if policy == "all" else (policy,)
    if out is not None and len(policies) > 1:
        raise ExactError("--out writes one policy's tree; name one policy with --second")
    results = [evaluate_policy(answer_list, guess_list, first, p, depth) for p in policies]
    if out is not None:
        write_tree(results[0].tree, out, answers=answer_list)
    if as_json:
        echo_json([r.to_json() for r in results] if policy == "all" else results[0].to_json())
        return
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), first guess {first}, depth {depth}")
    click.echo(f"{'policy':<24} {'wins':>5} {'n':>5} {'probability':>11} {'2nd words':>9}  replay")
    for r in results:
        click.echo(f"{r.policy:<24} {r.wins:5d} {r.n:5d} {r.probability:11.6f} {r.second_guesses:9d}  "
                   f"{'valid' if r.replay.valid else 'INVALID'}")
    if out is not None:
        click.echo(f"wrote {out}")
