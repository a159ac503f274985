"""``exact wordle serve``: a local web app that plays along from any opener and any position (the app
is :mod:`exact.cli.wordle.serve_app`, the advice :mod:`exact.wordle.study.serve`)."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import guess_limit, list_answers, list_guesses, load_weights, weights_option, words_option
from exact.partitions import cache_dir
from exact.wordle.study.store import DEFAULT_CAP, OBJECTIVES, Store
from exact.words import load_or_default


def default_store() -> Path:
    """The store of solved positions when --store is not given: in the cache folder, beside the feedback matrices."""
    return cache_dir() / "serve.sqlite"


@click.command("serve")
@click.option("--port", type=click.IntRange(0, 65535), default=8031, show_default=True, help="The port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (127.0.0.1: this machine only; 0.0.0.0 opens it to the network).")
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
@words_option("--answers", "Answer list [default: the answers of --list].", list_default="nyt2023")
@words_option("--guesses", "Allowed guesses [default: the guesses of --list].")
@click.option("--hard", is_flag=True, help="Hard mode.")
@click.option("--objective", type=click.Choice(OBJECTIVES), default="guesses", show_default=True,
              help="guesses: the fewest total guesses, every answer within --depth (6); wins: the most answers "
                   "won within --depth (3) guesses.")
@click.option("--depth", "-k", type=guess_limit(), default=None,
              help="The objective's guess limit [default: 6 for guesses, 3 for wins].")
@click.option("--store", "store_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The SQLite store of solved positions [default: serve.sqlite in the cache folder].")
@click.option("--store-cap", type=click.IntRange(min=1), default=DEFAULT_CAP, show_default=True,
              help="The most positions the store keeps (the least recently used go first).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="The most live proofs at once, over every page (the others wait for a free core) "
                   "[default: the cores].")
@weights_option
def serve(port, host, no_browser, answers, guesses, hard, objective, depth, store_path, store_cap, workers,
          weights=None):
    """A local web app that plays along from any opener: proven advice, solved live where no tree covers it.

    The page opens in a browser (unless --no-browser). Type the word you played and its colours
    (e.g. "crane bbygb"); the next guess comes from a shipped proven tree at once, else from the store of
    positions solved before, else it is proven live (a heuristic guess shows meanwhile, with the proof's
    expected duration). Ctrl-C stops the server. With --weights FILE (or --list nyt-prior) every proof
    solves the weighted objective (no shipped tree: they are proven without weights).
    """
    from exact.cli.wordle import serve_app  # lazy: start-up of every other command (uvicorn, the engines' numba)

    answer_list = load_or_default(answers, list_answers)
    setup = serve_app.Setup(answer_list, load_or_default(guesses, list_guesses), hard, objective, depth or 0,
                            load_weights(weights, answer_list))
    # the cache folder is made when missing; a folder --store names must exist
    store = Store(store_path or default_store(), store_cap, make_folder=store_path is None)
    serve_app.run(setup, store, host, port, not no_browser, workers)
