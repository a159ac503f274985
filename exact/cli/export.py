"""``exact wordle export --html FILE``: a strategy tree as one self-contained HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import words_option


@click.command("export")
@click.argument("tree_file", metavar="[TREE]", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--html", "html", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Write the explorer page here (one file: data inline, no network).")
@click.option("--format", "fmt", type=click.Choice(["graphml", "json", "dot", "txt"]), default=None,
              help="TREE's format [default: from the extension].")
@words_option("--answers", "Answer list [default: the embedded 2315 Wordle answers].")
@click.option("--depth", type=click.IntRange(min=1), default=None, help="Guesses that count as a win [default: the tree's depth; 3 for the committed tree].")
@click.option("--hard", is_flag=True, help="Without TREE: the committed hard-mode tree.")
@click.option("--title", default="", help="The page's title [default: the tree file's name].")
def wordle_export(tree_file, html, fmt, answers, depth, hard, title):
    """Write TREE [default: the committed optimal depth-3 tree] as an HTML tree explorer: the game's
    tiles, expand and collapse, answers and P(win) at each node, find an answer, the lost answers."""
    from exact.errors import ExactError
    from exact.wordle.play import DEFAULT_DEPTH, default_tree
    from exact.wordle.explorer import write_explorer
    from exact.game.formats import read_tree
    from exact.words import load_or_default, wordle_answers

    if tree_file is None:
        tree_file = default_tree(hard)
        if tree_file is None:
            raise ExactError("give a TREE file (no committed tree found beside this installation)")
        depth = depth or DEFAULT_DEPTH
    answer_list = load_or_default(answers, wordle_answers)
    data = write_explorer(read_tree(tree_file, fmt), answer_list, html, depth, title or tree_file.name)
    click.echo(f"wrote {html}: {len(data['nodes'])} nodes, wins {data['wins']}/{data['n']} within {data['depth']}, "
               f"{len(data['lost'])} lost")
