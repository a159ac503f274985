"""``exact lingo prove``: the proof as a search over first guesses (exact.lingo.proof)."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import click

from exact.cli.common import check_outputs, echo_json, exit_interrupted, words_option, write_all
from exact.fileio import write_json
from exact.lingo.proof import run
from exact.lingo.score import score_guesses
from exact.words import enable_words, load_or_default


@click.command("prove")
@words_option("--words", "The pool (guesses and answers) [default: the vendored 8636 ENABLE words].")
@click.option("-k", "k", type=click.IntRange(min=1), default=4, show_default=True, help="Guesses per set.")
@click.option("--best", "best_text", default=None, metavar="WORDS",
              help="The best set known (space or comma separated): a branch is closed when no set holding its "
                   "first guess can beat it (the target is its wins + 1). Without it every branch is bounded exactly.")
@click.option("--checkpoint", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The JSON-lines file of finished branches (written as they finish).")
@click.option("--resume", is_flag=True, help="Continue the checkpoint: its branches are not searched again.")
@click.option("--branch-time-limit", type=click.FloatRange(min=0, min_open=True), default=3600.0, show_default=True,
              help="Seconds per branch; a branch stopped there keeps its anytime bound (valid, weaker).")
@click.option("--exact-doubles", type=click.IntRange(min=0), default=1, show_default=True,
              help="Doubled-letter sets up to this size searched exactly (as `exact lingo bound --columns`).")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Run at most this many branches, then stop.")
@click.option("--stop-when-open", is_flag=True,
              help="With --best: stop a branch at the first relaxed choice below the target (the column bound cannot "
                   "close it; it needs the second guess fixed). Its bound is then the anytime one.")
@click.option("--cluster", default=None, metavar="local|ADDRESS",
              help="Run the branches as Dask tasks: 'local' (one worker per core) or a scheduler's tcp://HOST:PORT.")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="With --cluster local: worker processes.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the coverage (JSON): first guesses closed, the largest open bound, the time per branch.")
@click.option("--json", "as_json", is_flag=True, help="Print the coverage as JSON.")
def lingo_prove(words, k, best_text, checkpoint, resume, branch_time_limit, exact_doubles, limit, stop_when_open,
                cluster, workers, out, as_json):
    """Branch on the first guess of the set, bound each branch by the column relaxation given that guess,
    close the branches that cannot beat --best. Ctrl-C keeps every finished branch (resume with --resume)."""
    pool = load_or_default(words, enable_words)
    check_outputs(out)
    target, best = None, None
    if stop_when_open and not best_text:
        raise click.UsageError("--stop-when-open needs --best (the target a branch is open against)")
    if best_text:
        best = best_text.replace(",", " ").split()
        target = score_guesses(pool, best).wins + 1
    coverage, interrupted = run(pool, k, checkpoint, target=target, resume=resume, branch_time_limit=branch_time_limit,
                                exact_doubles=exact_doubles, limit=limit, cluster=cluster, workers=workers,
                                stop_when_open=stop_when_open)
    data = {"instance": {"source": str(pool.source), "n": len(pool), "sha256": pool.sha256},
            "best_set": best, "checkpoint": str(checkpoint), **coverage.to_json(),
            "cores_per_branch": 1, "machine_cores": os.cpu_count(),
            "command": "exact " + shlex.join(sys.argv[1:])}
    failed = write_all([lambda: write_json(out, data)] if out is not None else [])
    if as_json:
        echo_json(data)
    else:
        click.echo(f"pool:      {pool.source} ({len(pool)} words), k = {k}"
                   + (f", target {target} wins (best set {' '.join(best)} + 1)" if target else ""))
        click.echo(f"coverage:  {coverage.line()}")
        if coverage.whole is not None:
            click.echo(f"bound:     {coverage.whole} / {len(pool)} over every {k}-set (every first guess done)")
        else:
            click.echo(f"bound:     none over every set yet ({len(pool) - coverage.branches_done} first guesses "
                       f"to go); resume: exact lingo prove ... --checkpoint {checkpoint} --resume")
    if interrupted:
        exit_interrupted()
    if failed:
        sys.exit(2)
