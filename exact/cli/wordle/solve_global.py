"""``exact wordle solve --checkpoint/--resume/--cluster``: the global first-guess search's command side."""

from __future__ import annotations

import click

from exact.cli.common import echo_json


def tie_break(result) -> str:
    """Among the optimal first guesses, an answer if any, then the earliest in the guess list."""
    words = [w for w in result.optimal_first if w in result.answers.index] or result.optimal_first
    return min(words, key=result.guesses.index.__getitem__)


def solve_global(ctx, answer_list, guess_list, depth, hard, top, out, certificate, as_json, cluster,
                 checkpoint, resume, batch, workers, max_guesses=6, truncate=False):
    """Run the global search (in this process, or on a Dask cluster), then print and write like solve."""
    from exact import stop
    from exact.errors import ExactError, InternalError
    from exact.fileio import write_json
    from exact.wordle.wins import ranking as depth4
    from exact.wordle.wins.trees import TIE_BREAK, best_tree
    from exact.game.tree import record_lists, replay
    from exact.game.formats import write_tree

    stop.install()
    if cluster:
        from exact.wordle.wins.cluster import run_cluster

        result = run_cluster(answer_list, guess_list, cluster, depth=depth, hard=hard, batch=batch,
                             checkpoint=checkpoint, resume=resume, workers=workers)
    else:
        result = depth4.run(answer_list, guess_list, depth=depth, hard=hard, batch=batch,
                            checkpoint=checkpoint, resume=resume)
    data = result.to_json()
    data["checkpoint"] = str(checkpoint or resume) if (checkpoint or resume) else None
    if result.status == "OPTIMAL" and out and not result.interrupted:
        root = tie_break(result)
        tree = best_tree(answer_list, guess_list, depth, root, hard)
        if not truncate:  # every answer solved within max_guesses; the wins within depth kept
            from exact.wordle.fewest.complete import complete_and_check

            tree, _ = complete_and_check(tree, answer_list, guess_list, depth, max_guesses, hard)
        played = replay(tree, answer_list, guess_list, depth=depth if truncate else max_guesses, hard=hard)
        wins = sum(played.histogram[:depth])
        if wins != result.wins or not played.valid or (not truncate and played.lost):
            raise InternalError(f"the tree replays to {wins} wins within {depth} "
                                f"({len(played.invalid)} invalid nodes, {len(played.lost)} unsolved), not {result.wins}")
        data["tree"] = {"files": list(out), "first": root, "tie_break": TIE_BREAK, "complete": not truncate,
                        "max_guesses": depth if truncate else max_guesses,
                        "replay": {"wins": wins, "valid": played.valid, "solved": played.wins,
                                   "total_guesses": played.total_guesses, "histogram": list(played.histogram)}}
        record_lists(tree, answer_list, guess_list)
        for path in out:
            write_tree(tree, path, answers=answer_list)
    if certificate is not None:
        write_json(certificate, data)
    if as_json:
        echo_json(data)
    else:
        click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
                   f"({len(guess_list)}), {'hard mode, ' if hard else ''}depth {depth}, {result.cluster}")
        click.echo(f"wins {result.wins} / {result.n} = {result.probability:.6f}  status {result.status}  "
                   f"({result.seconds:.1f} s this run, {result.cores} cores; {len(result.outcomes)} of "
                   f"{len(guess_list)} first guesses resolved, {result.exact_count} exactly, the rest "
                   f"pruned by bounds; {len(result.open)} open)")
        if result.optimal_first:
            click.echo(f"{'optimal' if result.status == 'OPTIMAL' else 'best'} first guesses: "
                       f"{' '.join(result.optimal_first)}")
        for rank, (g, v) in enumerate(result.top(top), start=1):
            click.echo(f"{rank:4d}  {g:<8} {v:5d}  {v / result.n:.6f}")
        if "tree" in data:
            click.echo(f"wrote {', '.join(out)} (first guess {data['tree']['first']}; replayed: "
                       f"{data['tree']['replay']['wins']} wins, valid)")
    if result.interrupted:
        from exact.cli.common import exit_interrupted

        exit_interrupted()
