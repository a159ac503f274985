"""What the commands over first guesses share (``exact wordle rank`` and ``exact wordle solve``):
their run options (where the run goes: a Dask cluster; how it survives: a checkpoint), and the
writing of a result's tree and certificate."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import guess_limit
from exact.fileio import write_json
from exact.game.formats import write_tree
from exact.game.tree import record_lists

#: --batch's help in ``exact wordle rank``; ``solve`` adds that it is the old spelling of rank
BATCH_HELP = "First guesses per task."


def first_guess_run_options(batch_help: str = BATCH_HELP):
    """--cluster, --checkpoint, --resume, --batch and --workers, in that order, with ``batch_help``."""
    options = [
        click.option("--cluster", default=None, metavar="local|ADDRESS",
                     help="Spread first guesses over a Dask cluster: 'local' starts one on this machine's cores, "
                          "ADDRESS (tcp://host:8786) joins a running scheduler. Needs pip install -e '.[cluster]'."),
        click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
                     help="Append every finished first guess (value or pruning bound) to this JSON-lines file."),
        click.option("--resume", type=click.Path(dir_okay=False, exists=True), default=None,
                     help="Continue the run recorded in this checkpoint (and keep appending to it)."),
        click.option("--batch", type=click.IntRange(min=1), default=8, show_default=True, help=batch_help),
        click.option("--workers", type=click.IntRange(min=1), default=None,
                     help="Workers of --cluster local [default: one per core]."),
    ]

    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


def tree_output_options(out_help: str, json_help: str, least_guesses: int, max_guesses_help: str,
                        truncate_help: str):
    """--out, --json, --max-guesses (at least ``least_guesses``, default 6) and --truncate, in that
    order: the options of a command that writes a tree it completes past its depth."""
    options = [
        click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help=out_help),
        click.option("--json", "as_json", is_flag=True, help=json_help),
        click.option("--max-guesses", type=guess_limit(least_guesses), default=6, show_default=True,
                     help=max_guesses_help),
        click.option("--truncate", is_flag=True, help=truncate_help),
    ]

    def decorate(f):
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


def write_tree_and_certificate(tree, out, data: dict, certificate, answer_list, guess_list, reached=None) -> None:
    """The tree (None: none to write) to every path of ``out``, with the lists it was solved on
    recorded in it; ``reached``: the answers it starts from [default: ``answer_list``]; then
    ``data`` to the ``certificate`` path, if one is given."""
    if tree is not None:
        record_lists(tree, answer_list, guess_list)
        for path in out:
            write_tree(tree, path, answers=answer_list if reached is None else reached)
    if certificate is not None:
        write_json(certificate, data)
