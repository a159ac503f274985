"""``exact wordle analyse GAME``: a played game rated guess by guess (the logic is :mod:`exact.wordle.study.analyse`)."""

from __future__ import annotations

import sys

import click

from exact.cli.common import echo_json, list_answers, list_guesses, words_option
from exact.cli.common import exclude_option, guess_limit, load_weights, weights_option
from exact.errors import ExactError
from exact.progress import say
from exact.wordle.study.analyse import LIVE_MAX, analyse_game, analysis_lines
from exact.wordle.study.game_text import parse_game
from exact.wordle.study.play import restrict_weights
from exact.words import exclude_answers, list_date, load_or_default


@click.command("analyse")
@click.argument("game", nargs=-1, required=True)
@words_option("--answers", "Answer list [default: the answers of --list].", list_default="nyt2023")
@words_option("--guesses", "Allowed guesses [default: the guesses of --list].")
@click.option("--hard", is_flag=True, help="Hard mode: every guess must use the hints so far.")
@click.option("--answer", default=None, metavar="WORD", help="The answer: GAME is then the guesses alone.")
@click.option("--guesses-played", "played", default=None, metavar="W1,W2,...",
              help="The guesses of a pasted emoji grid whose lines have no words, in order.")
@click.option("--max-guesses", type=guess_limit(1), default=6, show_default=True,
              help="Every answer must be solved within this many guesses.")
@click.option("--live-max", type=click.IntRange(min=1), default=None, metavar="N",
              help="Solve positions of at most N answers here [default: exact.wordle.study.analyse.LIVE_MAX]; larger "
                   "ones (a first guess on a full list) are valued from committed certificates.")
@click.option("--full", is_flag=True, help="Solve every position, however large (a first guess on a full list: "
                                           "minutes or more).")
@click.option("--notation", type=click.Choice(["emoji", "letters", "digits"]), default="letters",
              show_default=True, help="How feedback is printed.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@exclude_option
@weights_option
def analyse(game, answers, guesses, hard, answer, played, max_guesses, live_max, full, notation, as_json, exclude,
            weights=None):
    """Rate a game: each guess's exact expected guesses against the best guess there, and its luck.

    GAME is guess.pattern pairs, e.g. salet.bybyb.drone.bgbgg.crane (any feedback notation; a last guess
    without a pattern solved the game); or the guesses alone with --answer WORD; or the emoji grid a
    player pastes (quoted, or - to read it from stdin), with the words on its lines or in --guesses-played.
    Values are exact: the fewest total guesses with the rest played optimally (exact.wordle.fewest.search).
    With --weights FILE (or --list nyt-prior) each answer counts its weight: the expected guesses and the
    luck are the prior's, every value solved here (the committed files are proven without weights).
    """
    whole = load_or_default(answers, list_answers)
    answer_list = exclude_answers(whole, exclude)
    prior = restrict_weights(load_weights(weights, whole), whole, answer_list)
    guess_list = load_or_default(guesses, list_guesses)
    text = read_game_stdin() if game == ("-",) else " ".join(game) if all("\n" not in g for g in game) else "\n".join(game)
    history = parse_game(text, guess_list, answer, played.split(",") if played else None)
    analysis = analyse_game(history, answer_list, guess_list, hard, max_guesses, live_max or LIVE_MAX, full,
                            say=None if as_json else say, weights=prior)
    if as_json:
        echo_json(analysis.to_json())
        return
    click.echo(f"answers {answer_list.source} ({len(answer_list)}), guesses {guess_list.source} ({len(guess_list)})"
               f"{', hard mode' if hard else ''}{'; weights ' + prior.source if analysis.weights else ''}; "
               f"{list_date(answer_list, guess_list)}")
    for line in analysis_lines(analysis, notation):
        click.echo(line)


#: The most characters ``analyse -`` reads from standard input. A pasted game is at most MAX_GUESSES
#: lines of a 5-letter word and 5 emoji squares (each up to 2 characters with U+FE0F) with a header and
#: blank lines: under 2 KiB; 64 KiB leaves room for any paste (a whole share text, a long-word Lingo
#: game) and still refuses a file or a stream poured in by mistake (/dev/zero never ends).
STDIN_LIMIT = 64 * 1024


def read_game_stdin(stream=None) -> str:
    """The game on standard input, at most :data:`STDIN_LIMIT` characters (else a one-line error)."""
    text = (stream or sys.stdin).read(STDIN_LIMIT + 1)
    if len(text) > STDIN_LIMIT:
        raise ExactError(f"game: standard input holds more than {STDIN_LIMIT} characters; a game is a few lines")
    return text
