"""``exact wordle rank``: every first guess, valued or bounded (printing and writing only).

Two questions, one engine each (:func:`exact.wordle.engines.choose_rank`):

- ``--objective guesses|feasible``: the fewest guesses (or: do N guesses suffice?) after each first
  guess, by :mod:`exact.wordle.fewest.ranking`;
- ``--depth K``: the most answers won within K guesses, over every first guess with an incumbent, by
  :mod:`exact.wordle.wins.ranking` (in process or on a Dask cluster, through :mod:`exact.firstguess`).

``exact wordle solve`` takes the old spellings of both and calls :func:`rank_fewest` and
:func:`rank_wins` here.
"""

from __future__ import annotations

import click

from exact import stop
from exact.cli.common import (ANSWERS_HELP, GUESSES_HELP, call, echo_json, exit_if_interrupted,
                              list_answers, list_guesses, load_weights, weights_option, words_option)
from exact.cli.wordle.shared import first_guess_run_options, write_tree_and_certificate
from exact.fileio import write_json
from exact.firstguess import best_so_far
from exact.game.formats import format_for_path, write_tree
from exact.game.tree import record_lists
from exact.wordle.engines import choose_rank
from exact.wordle.fewest.memo import INF
from exact.wordle.fewest.ranking import rank_first_guesses, read_first_guesses
from exact.wordle.wins import ranking
from exact.words import load_or_default


@click.command()
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--objective", type=click.Choice(["guesses", "feasible"]), default=None,
              help="Rank by the fewest total guesses with every answer solved within --max-guesses (guesses), "
                   "or ask after which first guesses every answer can be solved within --max-guesses (feasible).")
@click.option("--depth", "-k", type=click.IntRange(min=1), default=None,
              help="Rank by the most answers won within K guesses instead (the global search with an incumbent).")
@click.option("--hard", is_flag=True, help="Hard mode: every guess after the first keeps the NYT rule.")
@click.option("--first", default=None, metavar="FILE",
              help="With --objective: rank only the first guesses listed in FILE (one a line) [default: every guess].")
@click.option("--top", type=click.IntRange(min=1), default=None,
              help="Prove the exact values of the N best first guesses [default: 1]; the within-k ranking with "
                   "--depth (the threshold: the N-th best value so far).")
@click.option("--max-guesses", type=click.IntRange(min=1), default=6, show_default=True,
              help="Every answer is solved within this many guesses (the written trees are complete).")
@click.option("--cutoff", type=click.IntRange(min=0), default=None, metavar="T",
              help="With --objective: value only first guesses of total <= T; the others get a proven bound.")
@click.option("--truncate", is_flag=True, help="With --depth: write the depth-limited tree (answers past K lost).")
@click.option("--out", type=click.Path(dir_okay=False), multiple=True,
              help="Write the tree of the best first guess (.graphml, .json, .dot, .txt); repeatable.")
@click.option("--certificate", type=click.Path(dir_okay=False), default=None,
              help="Write the result as a JSON certificate (`exact wordle verify` re-checks it).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@first_guess_run_options()
@weights_option
def rank(answers, guesses, objective, depth, hard, first, top, max_guesses, cutoff, truncate, out, certificate,
         as_json, cluster, checkpoint, resume, batch, workers, weights=None):
    """Value every first guess exactly, or reject it with a proven bound, and prove the best.

    \b
    exact wordle rank --objective guesses                    the fewest guesses
    exact wordle rank --objective feasible --max-guesses 5   do 5 guesses suffice?
    exact wordle rank --depth 4 --checkpoint run.jsonl       the most wins within 4

    A stopped run (Ctrl-C, SIGTERM) keeps every finished first guess in --checkpoint; --resume goes on.
    """
    engine = choose_rank(depth=depth, objective=objective, first=first, cutoff=cutoff, truncate=truncate)
    answer_list, guess_list = load_or_default(answers, list_answers), load_or_default(guesses, list_guesses)
    prior = load_weights(weights, answer_list)
    if engine == "ranking":
        return rank_fewest(answer_list, guess_list, objective=objective, first=first, max_guesses=max_guesses,
                           hard=hard, cutoff=cutoff, top=top or 1, out=out, certificate=certificate,
                           as_json=as_json, cluster=cluster, checkpoint=checkpoint, resume=resume, batch=batch,
                           workers=workers, weights=prior)
    return rank_wins(answer_list, guess_list, depth=depth, hard=hard, top=top or 1, out=out, certificate=certificate,
                     as_json=as_json, cluster=cluster, checkpoint=checkpoint, resume=resume, batch=batch,
                     workers=workers, max_guesses=max_guesses, truncate=truncate, weights=prior)


def rank_fewest(answer_list, guess_list, *, objective, first, max_guesses, hard, cutoff, top, out, certificate,
                as_json, cluster, checkpoint, resume, batch=8, workers=None, weights=None):
    """The ranking of first guesses by an objective (:mod:`exact.wordle.fewest.ranking`): run it, write
    its certificate and the tree of the best, print it."""
    firsts = None if first is None or first.lower() == "all" else read_first_guesses(first, guess_list)
    for path in out:
        format_for_path(path)
    r = call(rank_first_guesses, answer_list, guess_list, firsts=firsts, cutoff=cutoff, top=top, hard=hard,
             max_guesses=max_guesses, checkpoint=checkpoint, resume=resume, cluster=cluster, batch=batch,
             workers=workers, objective=objective, weights=weights)
    data = r.certificate(files=out, first_source=None if firsts is None else str(first))
    write_tree_and_certificate(r.tree, out, data, certificate, answer_list, guess_list)
    if as_json:
        echo_json(data)
    else:
        print_ranking(r, data, answer_list, guess_list, top=top, cutoff=cutoff, out=out)
    exit_if_interrupted(r.interrupted)


def print_ranking(r, data: dict, answer_list, guess_list, *, top, cutoff, out) -> None:
    mode = ", hard mode" if r.hard else ""
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), {'fewest guesses' if r.objective == 'guesses' else 'objective ' + r.objective} "
               f"over {len(r.firsts)} first guesses{mode}, "
               f"at most {r.max_guesses} guesses" + (f", cutoff {cutoff}" if cutoff is not None else "")
               + (f", answers weighted by {r.weights.source} (total {r.weights.total})" if r.weights else ""))
    exact = r.exact
    least = r.least_bound
    if least is not None and least >= INF:
        least = f"none solves every answer within {r.max_guesses}"
    click.echo(f"status {r.status}: {len(r.values)} of {len(r.firsts)} first guesses done ({len(exact)} "
               f"valued exactly, {len(r.values) - len(exact)} bounded, least bound: {least}); "
               f"{r.seconds:.1f} s, {r.cores} cores")
    if r.objective == "feasible":
        click.echo(f"first guesses after which every answer is solved within {r.max_guesses}: "
                   + (", ".join(w for w, _ in exact[:max(top, 10)]) or "none found"))
    else:
        for i, (w, v) in enumerate(exact[:max(top, 10)]):
            click.echo(f"{i + 1:3d}. {w} {v} (mean {v / r.weight:.6f})"
                       + (" proven" if i < r.proven_top else ""))
    if "tree" in data and out:
        click.echo(f"wrote {', '.join(map(str, out))} (the tree of {r.tree.guess}; replayed: total "
                   f"{data['tree']['replay']['total']})")


def rank_wins(answer_list, guess_list, *, depth, hard, top, out, certificate, as_json, cluster, checkpoint, resume,
              batch, workers, max_guesses=6, truncate=False, weights=None):
    """The global search over every first guess (in this process, or on a Dask cluster): run it, write
    its certificate and the tree of the best, print it. ``weights`` (not unit): the most weight won, by
    the staged search on the weighted kernels (:mod:`exact.wordle.wins.ranking`)."""
    for path in out:
        format_for_path(path)
    stop.install()
    result = call(ranking.run, answer_list, guess_list, depth=depth, hard=hard, batch=batch, checkpoint=checkpoint,
                  resume=resume, cluster=cluster, workers=workers, top=top, weights=weights)
    best = None
    if result.optimal_first and out:  # interrupted: the tree of the best first guess so far
        best = best_so_far(lambda: ranking.global_tree(result, max_guesses=max_guesses, truncate=truncate),
                           result.interrupted, ranking.tie_break(result))
    if best is not None:
        record_lists(best.tree, answer_list, guess_list)
        for path in out:
            write_tree(best.tree, path, answers=answer_list)
    data = result.certificate(files=out, best=best, checkpoint=checkpoint or resume)
    if certificate is not None:
        write_json(certificate, data)
    if as_json:
        echo_json(data)
    else:
        print_global(result, data, guess_list, top=top, out=out)
    exit_if_interrupted(result.interrupted)


def print_global(result, data: dict, guess_list, *, top, out) -> None:
    answer_list = result.answers
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), {'hard mode, ' if result.hard else ''}depth {result.depth}, {result.cluster}")
    per = result.weight or result.n
    weighed = f" (weight, {result.weights.source})" if result.weights is not None else ""
    click.echo(f"wins {result.wins} / {per}{weighed} = {result.probability:.6f}  status {result.status}  "
               f"({result.seconds:.1f} s this run, {result.cores} cores; {len(result.outcomes)} of "
               f"{len(guess_list)} first guesses resolved, {result.exact_count} exactly, the rest "
               f"pruned by bounds; {len(result.open)} open)")
    if result.optimal_first:
        click.echo(f"{'optimal' if result.status == 'OPTIMAL' else 'best'} first guesses: "
                   f"{' '.join(result.optimal_first)}")
    for i, (g, v) in enumerate(result.top(max(top, 10)), start=1):
        click.echo(f"{i:4d}  {g:<8} {v:5d}  {v / per:.6f}" + ("  proven" if i <= result.proven_top else ""))
    if "tree" in data:
        click.echo(f"wrote {', '.join(out)} (first guess {data['tree']['first']}; replayed: "
                   f"{data['tree']['replay']['wins']} wins, valid)")

