"""``exact wordle solve``: one position, three engines (the library chooses: :mod:`exact.wordle.engines`).

The depth-k DP is printed here; the fewest-guesses objective by :mod:`exact.cli.wordle.solve_guesses`,
the memorable variant by ``exact wordle memorable``. The runs over every first guess are ``exact wordle
rank`` (:mod:`exact.cli.wordle.rank`), whose old spellings here still work.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from exact.cli.common import (ANSWERS_HELP, GUESSES_HELP, call, check_outputs, checked_word, echo_json, exit_interrupted,
                              history_of, list_answers, list_guesses, words_option, write_all)
from exact.cli.common import guess_limit, load_weights, weights_option
from exact.cli.wordle.rank import rank_fewest, rank_wins
from exact.cli.wordle.solve_guesses import solve_objective
from exact.cli.wordle.study import memorable
from exact.cli.wordle.shared import first_guess_run_options
from exact.cli.wordle.trees import echo_replay
from exact.errors import ExactError
from exact.fileio import write_json
from exact.game.formats import format_for_path, write_tree
from exact.game.position import position_answers
from exact.game.tree import record_lists
from exact.wordle.engines import RANK_ENGINES, choose_engine, rank_note
from exact.wordle.wins.dp import solve as solve_dp
from exact.wordle.wins.trees import optimal_tree
from exact.words import load_or_default


@click.command()
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", "-k", type=guess_limit(), default=None,
              help="Guesses allowed (k): maximise the wins within k  [default: 3].")
@click.option("--hard", is_flag=True, help="Hard mode: every guess after the first keeps the NYT rule.")
@click.option("--first", default=None, help="Fix the first guess: its exact value (optimal play after it). "
              "(--first all or FILE with --objective: the old spelling of `exact wordle rank`.)")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many first guesses to report with exact values (ranking: prove the exact values "
                   "of the N best, default 1).")
@click.option("--out", type=click.Path(dir_okay=False), multiple=True,
              help="Write the optimal tree (format from the extension: .graphml, .json, .dot, .txt); repeatable.")
@click.option("--certificate", type=click.Path(dir_okay=False), default=None,
              help="Write the result as a JSON certificate (lists' sha256, method, time, cores).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--max-distinct-second", "max_second", type=click.IntRange(min=1), default=None,
              help="The memorable variant: at most M distinct second guesses (depth 3, first guess "
                   "fixed, default trace); the same as `exact wordle memorable --max-distinct-second M`.")
@click.option("--objective", default=None, metavar="LIST",
              help="guesses: the fewest total guesses, every answer solved within --max-guesses; or a "
                   "lexicographic list such as win3,guesses (most answers within 3, then fewest guesses); or "
                   "feasible: any tree that solves every answer within --max-guesses (do N guesses suffice?).")
@click.option("--max-guesses", type=guess_limit(1), default=6, show_default=True,
              help="Every answer is solved within this many guesses (the written trees are complete).")
@click.option("--cutoff", type=click.IntRange(min=0), default=None, metavar="T",
              help="With --objective: only look for strategies of value <= T; proves 'no better than T' fast.")
@click.option("--after", default=None, metavar="'GUESS PATTERN ...'",
              help="Solve the position after these guesses and their feedback (any pattern notation).")
@click.option("--compare", default=None, metavar="WORD",
              help="Also report the exact value of playing WORD (at the position) against the best guess.")
@click.option("--truncate", is_flag=True, help="Write the depth-limited tree (answers past --depth are lost).")
@weights_option
@first_guess_run_options("First guesses per task (with --cluster, --checkpoint or --resume: the old spelling of "
                         "`exact wordle rank --depth K`).")
@click.pass_context
def solve(ctx, answers, guesses, depth, hard, first, top, out, certificate, as_json, max_second, objective,
          max_guesses, cutoff, after, compare, truncate, cluster, checkpoint, resume, batch, workers, weights):
    """Prove the most answers any strategy wins within --depth guesses (exact DP), or, with
    --objective, the best complete strategy for the fewest guesses (exact branch and bound).

    Every first guess valued or bounded, with a checkpoint or on a cluster: `exact wordle rank`
    (the old spellings here, --first all and --cluster/--checkpoint/--resume, still work and say so).
    """
    engine = choose_engine(depth=depth, hard=hard, first=first, objective=objective, max_second=max_second,
                           cutoff=cutoff, after=after, compare=compare, certificate=certificate, outs=out,
                           cluster=cluster, checkpoint=checkpoint, resume=resume, truncate=truncate)
    if engine in RANK_ENGINES:  # the old spellings of `exact wordle rank`

        click.echo(rank_note(engine, objective=objective, depth=depth, first=first), err=True)
        answer_list, guess_list = load_or_default(answers, list_answers), load_or_default(guesses, list_guesses)
        explicit = ctx.get_parameter_source("top") != click.core.ParameterSource.DEFAULT
        if engine == "ranking":
            return rank_fewest(answer_list, guess_list, objective=objective, first=first, max_guesses=max_guesses,
                               hard=hard, cutoff=cutoff, top=top if explicit else 1, out=out,
                               certificate=certificate, as_json=as_json, cluster=cluster, checkpoint=checkpoint,
                               resume=resume, batch=batch, workers=workers,
                               weights=load_weights(weights, answer_list))
        return rank_wins(answer_list, guess_list, depth=3 if depth is None else depth, hard=hard,
                         top=top if explicit else 1, out=out, certificate=certificate, as_json=as_json,
                         cluster=cluster, checkpoint=checkpoint,
                         resume=resume, batch=batch, workers=workers, max_guesses=max_guesses, truncate=truncate,
                         weights=load_weights(weights, answer_list))
    if engine == "guesses":
        return solve_objective(answers=answers, guesses=guesses, objective=objective, first=first,
                               max_guesses=max_guesses, hard=hard, cutoff=cutoff, after=after, compare=compare,
                               out=out, certificate=certificate, as_json=as_json, truncate=truncate,
                               weights=weights)
    if engine == "memorable":
        return ctx.invoke(memorable, M=max_second, answers=answers, guesses=guesses, first=first,
                          out=Path(out[0]) if out else None, as_json=as_json, max_guesses=max_guesses,
                          truncate=truncate, weights=weights)
    return solve_depth(answers, guesses, depth=3 if depth is None else depth, hard=hard, first=first, top=top,
                       out=out, certificate=certificate, as_json=as_json, max_guesses=max_guesses, after=after,
                       compare=compare, truncate=truncate, weights=weights)


def solve_depth(answers, guesses, *, depth, hard, first, top, out, certificate, as_json, max_guesses, after,
                compare, truncate, weights=None) -> None:
    """The depth-k engine for `exact wordle solve`: the options checked before the search, the
    search (and the --compare guess's), the tree after it, the files written, the report."""
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    first = checked_word(first, guess_list, "--first")
    compare = checked_word(compare, guess_list, "--compare")
    history = history_of(after, guess_list)
    if not truncate and depth > max_guesses:
        raise ExactError(f"--depth {depth} is more than --max-guesses {max_guesses}")
    for path in out:
        format_for_path(path)  # a bad extension fails now, not after the search
    check_outputs(*out, certificate)  # and so does a destination that cannot be written
    prior = load_weights(weights, answer_list)
    result = call(solve_dp, answer_list, guess_list, depth=depth, hard=hard, first=first, top=top, after=history,
                  weights=prior)
    other = None
    if compare is not None and not result.interrupted:
        other = call(solve_dp, answer_list, guess_list, depth=depth, hard=hard, first=compare, top=1, after=history,
                     weights=prior)
    tree = info = played = None
    if out and result.status != "UNKNOWN":
        if result.interrupted:
            click.echo("exact: building the optimal tree after the best first guess so far "
                       "(Ctrl-C again to skip it)", err=True)
        try:
            tree, info, played = call(optimal_tree, result, max_guesses=max_guesses, truncate=truncate)
        except KeyboardInterrupt:
            result.interrupted = True
            click.echo("exact: interrupted while building the tree; no tree written", err=True)
    data = result.certificate(files=out, tree_info=info, played=played, compare=other)
    tree_answers = position_answers(answer_list, history, hard)
    if tree is not None:
        record_lists(tree, answer_list, guess_list)
    writes = [lambda path=path: write_tree(tree, path, answers=tree_answers) for path in out if tree is not None]
    if certificate is not None:
        writes.append(lambda: write_json(certificate, data))
    failed = write_all(writes)
    if as_json:
        echo_json(data)
    else:
        print_depth(result, data, answer_list, guess_list, depth=depth, hard=hard, first=first, out=out,
                    certificate=certificate, max_guesses=max_guesses, played=played, failed=failed)
    if result.interrupted:
        exit_interrupted()
    if failed:
        sys.exit(2)


def print_depth(result, data: dict, answer_list, guess_list, *, depth, hard, first, out, certificate, max_guesses,
                played, failed) -> None:
    """The depth-k result in words: the instance, the wins, the best first guesses, what was written."""
    mode = "hard mode, " if hard else ""
    shown = "".join(f" {g} {p}" for g, p in data.get("after", []))
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), {mode}depth {depth}" + (f", first guess {first}" if first else "")
               + (f", after{shown} ({result.n} answers left)" if shown else ""))
    weighed = f" weight ({result.weights.source})" if result.weights is not None else ""
    click.echo(f"wins {result.wins} / {result.weight or result.n}{weighed} = {result.probability:.6f}  "
               f"status {result.status}"
               f"{' (interrupted)' if result.interrupted else ''}  "
               f"({result.seconds:.1f} s, {result.cores} threads; {result.exact_count} of "
               f"{result.evaluated} first guesses evaluated exactly, the rest pruned by bounds)")
    which = f"guess {len(data['after']) + 1}" if data.get("after") else "first guess"
    if first is None:
        click.echo(f"optimal {which}es: {' '.join(result.optimal_first)}"
                   + (" (among those evaluated before the interrupt)" if result.interrupted else ""))
        click.echo(f"top {len(result.top)} {which}es (exact):")
        for rank, (g, v) in enumerate(result.top, start=1):
            click.echo(f"{rank:4d}  {g:<8} {v:5d}  {v / (result.weight or result.n):.6f}")
    if "compare" in data:
        c = data["compare"]
        click.echo(f"compare: {c['guess']} wins {c['wins']}, best {c['best_guess']} wins {c['best_wins']}: "
                   f"{c['guess']} wins {c['fewer_wins']} fewer within {depth}")
    if data.get("tree") and not failed:
        r = data["tree"]["replay"]
        extra = (f"; complete: every answer solved within {max_guesses}, total {r['total_guesses']} guesses"
                 if data["tree"]["complete"] else "; truncated at the depth")
        click.echo(f"wrote {', '.join(out)} ({which} {data['tree']['first']}; replayed: "
                   f"{r['wins']} wins within {depth}, valid{extra})")
        echo_replay(played)
    elif out and data.get("tree") is None:
        click.echo(f"no tree written to {', '.join(out)}: "
                   + ("interrupted" if result.interrupted else "no first guess was evaluated"))
    if certificate is not None and not failed:
        click.echo(f"wrote the certificate {certificate} (status {result.status}; the lists' sha256, the method, "
                   f"the time; `exact wordle verify {certificate}` re-checks it)")


