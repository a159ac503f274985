"""``exact wordle solve --objective ...``: the fewest-guesses objective and lexicographic objectives
(printing only; the work is in :mod:`exact.wordle.fewest.search`); ``exact wordle compare-ranking``."""

from __future__ import annotations

import sys

import click

from exact.cli.common import (call, checked_word, counted, echo_json, exit_if_interrupted, history_of, list_answers,
                              list_guesses, load_weights)
from exact.cli.wordle.shared import write_tree_and_certificate
from exact.errors import ExactError
from exact.fileio import read_json
from exact.game.formats import format_for_path
from exact.game.position import position_answers
from exact.wordle.fewest.compare import compare_ranking, read_table
from exact.wordle.fewest.objective import parse_objective
from exact.wordle.fewest.search import solve_guesses
from exact.words import load_or_default

def solve_objective(*, answers, guesses, objective, first, max_guesses, hard, cutoff, after, compare,
                    out, certificate, as_json, truncate, weights=None):
    """``exact wordle solve --objective ...``: solve, write the tree, print."""
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    prior = load_weights(weights, answer_list)
    goal = call(parse_objective, objective)
    if max(goal.wins, default=0) > max_guesses:  # as --depth is refused past --max-guesses
        raise ExactError(f"--objective {objective}: win{max(goal.wins)} is more than --max-guesses {max_guesses}")
    first = checked_word(first, guess_list, "--first")
    compare = checked_word(compare, guess_list, "--compare")
    history = history_of(after, guess_list)
    for path in out:
        format_for_path(path)  # a bad extension fails now, not after the search
    if truncate:
        raise ExactError("--truncate applies to the win-within-k trees (--depth); --objective trees are complete")
    kwargs = dict(objective=goal, max_guesses=max_guesses, hard=hard, after=history, weights=prior)
    result = call(solve_guesses, answer_list, guess_list, first=first, cutoff=cutoff, **kwargs)
    other = None
    if compare is not None and not result.interrupted:
        other = call(solve_guesses, answer_list, guess_list, first=compare, **kwargs)
    data = result.certificate(files=out, compare=other)
    reached = position_answers(answer_list, history, hard) if out and result.tree is not None else None
    write_tree_and_certificate(result.tree if out else None, out, data, certificate, answer_list, guess_list, reached)
    if as_json:
        echo_json(data)
    else:
        print_result(result, answer_list, guess_list)
        if "compare" in data and data["compare"]["extra_guesses"] is None:
            c = data["compare"]
            click.echo(f"compare: {compare}: {c['value']['status']}; the position: {c['best_value']['status']}")
        elif "compare" in data:
            c = data["compare"]
            click.echo(f"compare: {c['guess']} {value_text(c['value'], c)}; best {c['best_guess']} "
                       f"{value_text(c['best_value'], c)}: {c['guess']} costs {c['extra_guesses']} more "
                       f"guesses in total ({c['extra_mean']:+.6f} per answer)"
                       + (f", {c['extra_lost'][0]} more answers past {c['levels'][0]}" if c["levels"] else ""))
        if "tree" in data:
            click.echo(f"wrote {', '.join(map(str, out))} (complete; replayed: every answer solved, total {result.total})")
    exit_if_interrupted(result.interrupted)


def value_text(value: dict, c: dict) -> str:
    lost = "".join(f", lost past {k}: {n}" for k, n in zip(c["levels"], value["lost"]))
    return f"(total {value['total']}, mean {value['mean']:.6f}{lost})"


def print_result(r, answer_list, guess_list) -> None:
    shown = " ".join(f"{g} {p}" for g, p in r.to_json()["after"])
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), objective {r.objective}, at most {r.max_guesses} guesses"
               + (", hard mode" if r.hard else "") + (f", after {shown} ({r.n} answers left)" if shown else ""))
    if r.tree is None:
        bound = f"; every strategy costs at least {r.lower_bound}" if r.lower_bound is not None else ""
        why = f"no strategy within --cutoff {r.cutoff}" if r.cutoff is not None else \
            f"no strategy solves every answer within {r.max_guesses} guesses"
        click.echo(f"status {r.status}: {why}{bound} ({r.seconds:.1f} s, {r.cores} cores)")
        return
    which = f"guess {len(r.after) + 1}" if r.after else "first guess"
    value = (f"every answer solved within {r.max_guesses} guesses: yes, by the tree found (total {r.total}, "
             f"mean {r.mean:.6f}: any such tree, not the fewest guesses)" if r.objective == "feasible" else
             f"total {r.total} guesses over {counted(r.n, 'answer')}, mean {r.mean:.6f}" if not r.weights else
             f"weighted total {r.total} over {counted(r.n, 'answer')} of total weight {r.weight} "
             f"({r.weights['source']}), expected guesses {r.mean:.6f}")
    click.echo(f"{which} {r.first}: {value}; status {r.status} ({r.seconds:.1f} s, {r.cores} cores, "
               f"{counted(r.searched, 'node')} searched)")
    click.echo(f"solved with 1..{r.max_guesses} guesses: {' '.join(map(str, r.wins_at))}; "
               f"worst case {max(k + 1 for k, w in enumerate(r.wins_at) if w)}; "
               + ", ".join(f"within {k}: {r.wins_within(k)}" for k in range(2, r.max_guesses)))
    if r.status == "FEASIBLE":
        click.echo("interrupted: the tree is complete but not proven optimal (unfinished classes were filled greedily)")


@click.command("compare-ranking")
@click.argument("certificate", type=click.Path(dir_okay=False, exists=True))
@click.argument("table", type=click.Path(dir_okay=False, exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def compare_ranking_command(certificate, table, as_json):
    """Compare a ranking CERTIFICATE (`exact wordle rank --objective guesses`) with a TABLE of
    published first-guess totals (lines 'word total' or 'word mean total', e.g. Selby's, vendored in
    instances/peers/selby/): exit 1 if a claim contradicts the table."""
    c = compare_ranking(read_json(certificate, "ranking certificate"), read_table(table))
    if as_json:
        echo_json(c.to_json())
    else:
        agree = f"{counted(len(c.agree), 'first guess', 'first guesses')} agree{'s' if len(c.agree) == 1 else ''}"
        click.echo(f"{certificate} against {table}: {agree} exactly, {len(c.bounded)} "
                   f"rejected here with a bound the table's value meets, {len(c.contradicted)} contradicted, "
                   f"{len(c.missing)} of the table's not in the certificate, {len(c.unlisted)} valued here "
                   f"but not in the table")
        for word, ours, theirs in c.contradicted:
            click.echo(f"  {word}: here {ours}, the table {theirs}")
    if not c.ok:
        sys.exit(1)
