"""``exact wordle export --html FILE``: a strategy tree as one self-contained HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import list_answers, list_guesses, words_option


@click.command("export")
@click.argument("tree_file", metavar="[TREE]", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--html", "html", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Write the explorer page here (one file: data inline, no network).")
@click.option("--format", "fmt", type=click.Choice(["graphml", "json", "dot", "txt"]), default=None,
              help="TREE's format [default: from the extension].")
@words_option("--answers", "Answer list [default: the answers of --list].", list_default="nyt2023")
@click.option("--depth", type=click.IntRange(min=1), default=None, help="Guesses that count as a win [default: the tree's depth; for a committed tree the depth it is proven for: 6 for a fewest-guesses tree, 3 for a depth-3 tree].")
@click.option("--hard", is_flag=True, help="Without TREE: the committed hard-mode tree of --list.")
@click.option("--title", default="", help="The page's title [default: the tree file's name].")
def wordle_export(tree_file, html, fmt, answers, depth, hard, title):
    """Write TREE [default: the committed proven tree of --list, as ``exact wordle play`` plays it] as an HTML tree explorer: the game's
    tiles, expand and collapse, answers and P(win) at each node, find an answer, the lost answers."""
    from exact.errors import ExactError
    from exact.cli.common import chosen_list
    from exact.play import list_tree
    from exact.wordle.explorer import write_explorer
    from exact.wordle.tree import check_tree_lists
    from exact.wordle.treeio import read_tree
    from exact.words import load_or_default

    if tree_file is None:
        committed = list_tree(chosen_list(), hard)
        if committed is None:
            raise ExactError(f"give a TREE file (no committed tree of list {chosen_list()} found beside this "
                             f"installation)")
        tree_file, depth = committed.path, depth or committed.depth
        title = title or f"list {chosen_list()}, objective {committed.objective}, tree {tree_file.name}"
    answer_list = load_or_default(answers, list_answers)
    tree = read_tree(tree_file, fmt)
    check_tree_lists(tree, answer_list, None if answers is not None else list_guesses(), str(tree_file))
    data = write_explorer(tree, answer_list, html, depth, title or tree_file.name)
    click.echo(f"wrote {html}: {len(data['nodes'])} nodes, wins {data['wins']}/{data['n']} within {data['depth']}, "
               f"{len(data['lost'])} lost")
