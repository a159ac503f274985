"""``exact wordle solve --objective ...``: the fewest-guesses objective and lexicographic objectives
(printing only; the work is in :mod:`exact.wordle.fewest.search`)."""

from __future__ import annotations

import sys

import click

from exact.cli.common import (call, checked_word, counted, echo_json, exit_if_interrupted, history_of, list_answers,
                              list_guesses)
from exact.errors import ExactError, InternalError
from exact.words import load_or_default

def solve_objective(*, answers, guesses, objective, first, max_guesses, hard, cutoff, after, compare,
                    out, certificate, as_json, truncate):
    """``exact wordle solve --objective ...``: solve, write the tree, print."""
    from exact.fileio import write_json
    from exact.game.position import position_answers
    from exact.game.tree import record_lists
    from exact.wordle.fewest.search import compare_results, parse_objective, solve_guesses
    from exact.game.formats import format_for_path, write_tree

    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
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
    kwargs = dict(objective=goal, max_guesses=max_guesses, hard=hard, after=history)
    result = call(solve_guesses, answer_list, guess_list, first=first, cutoff=cutoff, **kwargs)
    data = result.to_json()
    if compare is not None and not result.interrupted:
        other = call(solve_guesses, answer_list, guess_list, first=compare, **kwargs)
        data["compare"] = compare_results(result, other)
    if out and result.tree is not None:
        reached = position_answers(answer_list, history, hard)
        record_lists(result.tree, answer_list, guess_list)
        for path in out:
            write_tree(result.tree, path, answers=reached)
        data["tree"] = {"files": list(out), "tie_break": "see exact.wordle.fewest.search", "complete": True,
                        "replay": {"total": result.total, "wins_at": list(result.wins_at), "valid": True}}
    if certificate is not None:
        write_json(certificate, data)
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
             f"total {r.total} guesses over {counted(r.n, 'answer')}, mean {r.mean:.6f}")
    click.echo(f"{which} {r.first}: {value}; status {r.status} ({r.seconds:.1f} s, {r.cores} cores, "
               f"{counted(r.searched, 'node')} searched)")
    click.echo(f"solved with 1..{r.max_guesses} guesses: {' '.join(map(str, r.wins_at))}; "
               f"worst case {max(k + 1 for k, w in enumerate(r.wins_at) if w)}; "
               + ", ".join(f"within {k}: {r.wins_within(k)}" for k in range(2, r.max_guesses)))
    if r.status == "FEASIBLE":
        click.echo("interrupted: the tree is complete but not proven optimal (unfinished classes were filled greedily)")


# --- exact wordle tradeoff --------------------------------------------------------------------

# --- exact wordle complete --------------------------------------------------------------------


def rank_objective(*, answers, guesses, objective, first, max_guesses, hard, cutoff, after, compare, top,
                   out, certificate, as_json, truncate, cluster, checkpoint, resume, batch=8, workers=None):
    """``exact wordle solve --objective guesses --first all|FILE``: the ranking of first guesses
    (exact.wordle.fewest.ranking): print it, write its certificate and the tree of the best."""
    from exact.fileio import write_json
    from exact.game.formats import format_for_path, write_tree
    from exact.game.tree import record_lists, replay_position
    from exact.wordle.fewest.memo import INF
    from exact.wordle.fewest.ranking import rank_first_guesses, read_first_guesses

    if after or compare or truncate:
        raise ExactError("--first all: drop --after, --compare and --truncate")
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    firsts = None if first.lower() == "all" else read_first_guesses(first, guess_list)
    for path in out:
        format_for_path(path)
    r = call(rank_first_guesses, answer_list, guess_list, firsts=firsts, cutoff=cutoff, top=top, hard=hard,
             max_guesses=max_guesses, checkpoint=checkpoint, resume=resume, cluster=cluster, batch=batch,
             workers=workers, objective=objective)
    data = r.to_json()
    if r.tree is not None:
        played = replay_position(r.tree, answer_list, guess_list, (), max_guesses, hard)
        total = sum((k + 1) * w for k, w in enumerate(played.wins_at))
        value = 0 if r.objective == "feasible" else total  # the tree's value under the objective
        if not played.valid or played.lost or value != r.exact[0][1]:
            raise InternalError(f"the tree of {r.tree.guess} does not replay to its value")
        data["tree"] = {"guess": r.tree.guess, "files": list(out), "complete": True,
                        "replay": {"total": total, "wins_at": list(played.wins_at), "valid": True}}
        record_lists(r.tree, answer_list, guess_list)
        for path in out:
            write_tree(r.tree, path, answers=answer_list)
    if certificate is not None:
        write_json(certificate, data)
    if as_json:
        echo_json(data)
    else:
        mode = ", hard mode" if hard else ""
        click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
                   f"({len(guess_list)}), {'fewest guesses' if r.objective == 'guesses' else 'objective ' + r.objective} "
                   f"over {len(r.firsts)} first guesses{mode}, "
                   f"at most {max_guesses} guesses" + (f", cutoff {cutoff}" if cutoff is not None else ""))
        exact = r.exact
        least = r.least_bound
        if least is not None and least >= INF:
            least = f"none solves every answer within {max_guesses}"
        click.echo(f"status {r.status}: {len(r.values)} of {len(r.firsts)} first guesses done ({len(exact)} "
                   f"valued exactly, {len(r.values) - len(exact)} bounded, least bound: {least}); "
                   f"{r.seconds:.1f} s, {r.cores} cores")
        if r.objective == "feasible":
            click.echo(f"first guesses after which every answer is solved within {max_guesses}: "
                       + (", ".join(w for w, _ in exact[:max(top, 10)]) or "none found"))
        else:
            for i, (w, v) in enumerate(exact[:max(top, 10)]):
                click.echo(f"{i + 1:3d}. {w} {v} (mean {v / len(answer_list):.6f})"
                           + (" proven" if i < r.proven_top else ""))
        if "tree" in data and out:
            click.echo(f"wrote {', '.join(map(str, out))} (the tree of {r.tree.guess}; replayed: total "
                       f"{data['tree']['replay']['total']})")
    exit_if_interrupted(r.interrupted)


@click.command("compare-ranking")
@click.argument("certificate", type=click.Path(dir_okay=False, exists=True))
@click.argument("table", type=click.Path(dir_okay=False, exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def compare_ranking_command(certificate, table, as_json):
    """Compare a ranking CERTIFICATE (`exact wordle solve --objective guesses --first all`) with a TABLE of
    published first-guess totals (lines 'word total' or 'word mean total', e.g. Selby's, vendored in
    instances/peers/selby/): exit 1 if a claim contradicts the table."""
    from exact.fileio import read_json
    from exact.wordle.fewest.compare import compare_ranking, read_table

    c = compare_ranking(read_json(certificate, "ranking certificate"), read_table(table))
    if as_json:
        echo_json(c.to_json())
    else:
        click.echo(f"{certificate} against {table}: {len(c.agree)} first guesses agree exactly, {len(c.bounded)} "
                   f"rejected here with a bound the table's value meets, {len(c.contradicted)} contradicted, "
                   f"{len(c.missing)} of the table's not in the certificate, {len(c.unlisted)} valued here "
                   f"but not in the table")
        for word, ours, theirs in c.contradicted:
            click.echo(f"  {word}: here {ours}, the table {theirs}")
    if not c.ok:
        sys.exit(1)
