"""``exact wordle play``: the assistant that plays along in the terminal (the game is :mod:`exact.wordle.study.play`)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from exact import stop
from exact.cli.common import LIST_KEY, NOTATION_HELP, list_answers, list_guesses, read_line, squares, words_option
from exact.cli.common import exclude_option, guess_limit, load_weights, weights_option
from exact.errors import ExactError
from exact.feedback import all_green, parse_pattern
from exact.progress import say
from exact.wordle.study.analyse import analyse_game, analysis_lines
from exact.wordle.study.play import ImpossibleFeedback, TreeStrategy, game_header, game_record, restrict_weights
from exact.words import check_words, exclude_answers, load_or_default

COMMANDS_HELP = ("WORD FEEDBACK if you played another word, u undoes the last feedback, l lists the candidates, "
                 "! confirms refused feedback, q quits")



def print_advice(advice, show: int) -> None:
    n = len(advice.candidates)
    step = advice.position.played + 1
    click.echo(f"guess {step}: {advice.guess.upper()}   [{advice.source}]")
    if advice.guesses_left > 0:
        weight = " (weight)" if advice.weight else ""
        chances = (f"P(win within {advice.depth}) = {advice.wins}/{advice.total}{weight} = {advice.probability:.2%}"
                   f" ({advice.guesses_left} guess{'es' if advice.guesses_left > 1 else ''} left)")
    else:
        chances = f"beyond the {advice.depth} guesses that count as a win"
    click.echo(f"  {n} candidate{'s' if n != 1 else ''} left; {chances}; "
               f"expected guesses to solve {advice.expected:.3f} (at most {advice.worst})")
    if n <= show:
        click.echo(f"  candidates: {' '.join(advice.candidates)}")


def print_board(turns, notation: str) -> None:
    for guess, pattern in turns:
        click.echo(f"{squares(pattern, len(guess), notation)}  {guess}")


def read_feedback(text: str, advised: str) -> tuple[str | None, int]:
    """(guess, pattern) from ``FEEDBACK`` (guess None: the advised one) or ``WORD FEEDBACK`` (another
    word played instead)."""
    parts = text.split()
    if len(parts) == 2 and parts[0].isalpha() and parts[0].isascii():
        return parts[0].lower(), parse_pattern(parts[1], len(advised))
    return None, parse_pattern(text, len(advised))


def wordle_interactive(game, show: int, notation: str) -> int:
    """The loop a person types into; returns the exit status."""
    click.echo("Play the suggested guess, then type its colours: 02110, bygyb or the emoji squares "
               "(? lists every notation and command).")
    while True:
        advice = game.advice()
        print_advice(advice, show)
        if len(advice.candidates) == 1 and advice.guess == advice.candidates[0]:
            echo_only_answer(game, advice, notation)
            return 0
        status = feedback_turn(game, advice, notation)
        if status is not None:
            return status
        history = game.position.history
        if history and game.solved:
            print_board(history, notation)
            click.echo(f"solved in {len(history)} guess{'es' if len(history) > 1 else ''}"
                       f"{' (a win)' if len(history) <= game.strategy.depth else ''}")
            return 0
        if history:
            print_board(history[-1:], notation)


def echo_only_answer(game, advice, notation: str) -> None:
    """The advice is the only answer left: the board with it played, and the guesses it took."""
    step = advice.position.played + 1
    print_board(game.position.history + ((advice.guess, all_green(len(advice.guess))),), notation)
    click.echo(f"it is the only answer left: solved in {step} guess{'es' if step > 1 else ''}"
               f"{' (a win)' if step <= game.strategy.depth else ''}")


def feedback_turn(game, advice, notation: str) -> int | None:
    """Read lines until one moves the game (feedback given, or undone): None; or the exit status
    when the person quits (0) or confirms feedback no answer gives (1)."""
    refused = None  # the last feedback refused: "!" confirms it (the answer is then not in the list)
    while True:
        line = read_line(f"feedback for {advice.guess}> ")
        if line is None or line.strip().lower() in ("q", "quit", "exit"):
            click.echo("bye")
            return 0
        text = line.strip()
        if not text:
            continue
        if text.lower() in ("u", "undo"):
            if game.undo():
                click.echo("undone")
                return None
            click.echo("nothing to undo")
            continue
        if text.lower() in ("l", "list"):
            click.echo(" ".join(advice.candidates))
            continue
        if text in ("?", "h", "help"):
            click.echo(f"feedback: {NOTATION_HELP}; {COMMANDS_HELP}")
            continue
        if text == "!" and refused is not None:
            answers = game.position.answers
            click.echo(f"the answer is not one of the {len(answers)} answers of {answers.source}: no answer "
                       f"there gives {squares(refused, len(advice.guess), notation)} to {advice.guess} after "
                       f"this game, so the strategy cannot find it")
            return 1
        try:
            guess, pattern = read_feedback(text, advice.guess)
            beyond = game.beyond
            game.give(pattern, guess)
            if game.beyond != beyond:
                click.echo(game.beyond)
        except ImpossibleFeedback as e:
            refused = pattern
            click.echo(f"refused: {e}. Check the colours and type the feedback again, or type ! if it is "
                       f"right: the answer is then not in {game.position.answers.source}.")
            continue
        except ExactError as e:
            click.echo(f"not understood: {e}. Type the feedback, {len(advice.guess)} symbols ({NOTATION_HELP}), "
                       f"or WORD FEEDBACK if you played another word")
            continue
        return None


def card_list(card_file) -> None:
    """A card is played on the lists it was made on unless --list, --answers or --guesses name others."""
    from exact.wordle.study.card import read_card  # lazy: start-up (measured 0.55 s, ortools)

    ctx = click.get_current_context()
    if ctx.get_parameter_source("list_name") == click.core.ParameterSource.DEFAULT:
        made = read_card(card_file).lists.get("list")
        if made:
            ctx.meta[LIST_KEY] = made


@click.command("play")
@click.option("--tree", "tree_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Play this strategy tree (.graphml .json .dot .txt/.tree) [default: the committed proven "
                   "tree of --list: nyt2023 fewest guesses after tarse; original: most wins within 3].")
@click.option("--card", "card_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Play this card (the JSON of `exact wordle card --out CARD.json`): its first and second "
                   "guesses, then the first consistent answer [default --list: the card's].")
@click.option("--format", "fmt", type=click.Choice(["graphml", "json", "dot", "txt"]), default=None,
              help="Tree file format [default: from the extension].")
@words_option("--answers", "Answer list [default: the answers of --list].", list_default="nyt2023")
@words_option("--guesses", "Allowed guesses [default: the guesses of --list].")
@click.option("--live", is_flag=True, help="Compute the strategy live with the exact solver, not from a tree.")
@click.option("--objective", default=None, metavar="NAME",
              help="The live solver's objective, from exact.wordle.study.play.OBJECTIVES (wins: most answers won "
                   "within --depth; guesses: fewest total guesses, every answer within --depth [default 6]). "
                   "Implies --live.")
@click.option("--depth", "-k", type=guess_limit(), default=None,
              help="Guesses that count as a win [default: the tree's depth; 3 live]. Implies --live without --tree.")
@click.option("--hard", is_flag=True, help="Hard mode (the committed hard-mode tree, or the live solver in hard mode).")
@click.option("--first", default=None, help="Live: fix the first guess (skips the slow root solve).")
@click.option("--answer", default=None, metavar="WORD", help="Play a whole game against WORD and print it.")
@click.option("--analyse", "rate", is_flag=True,
              help="With --answer: rate the game played, as 'exact wordle analyse' does (exact; seconds to minutes).")
@click.option("--show", type=click.IntRange(min=0), default=20, show_default=True,
              help="List the candidates when at most this many are left.")
@click.option("--notation", type=click.Choice(["emoji", "letters", "digits"]), default="emoji",
              show_default=True, help="How feedback is printed.")
@exclude_option
@weights_option
def wordle_play(tree_file, card_file, fmt, answers, guesses, live, objective, depth, hard, first, answer, rate, show,
                notation, exclude, weights=None):
    """Play along: the next guess, your feedback, the candidates left and the chances.

    After each guess type its feedback in any notation (digits 02110, letters bygyb, emoji squares,
    RGY or YNM). Feedback that no candidate answer gives is refused and asked again. Where the strategy
    has no guess (a tree that stops at its depth) the fallback plays on: the fewest total guesses,
    guessing candidates and a few allowed words that split them best (candidates only in hard mode;
    exact.wordle.study.fallback.FewestGuesses). With --weights FILE (or --list nyt-prior) the advice maximises
    the weighted objective, solved live (the committed trees are proven without weights), and the chances
    are the prior's.
    """
    from exact.wordle.study.play_defaults import choose_strategy, new_game  # lazy: start-up (measured 0.62 s, ortools)

    if card_file is not None:
        card_list(card_file)
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    played_answer = checked_answer(answer, answer_list, guess_list)
    prior = load_weights(weights, answer_list)
    strategy = choose_strategy(tree_file, fmt, answer_list, guess_list, depth, hard, objective, first, live,
                               card_file=card_file, weights=prior)
    whole = answer_list
    answer_list, strategy = excluded(exclude, answer_list, strategy,
                                     lambda left: choose_strategy(tree_file, fmt, left, guess_list, depth, hard,
                                                                  objective, first, live, card_file=card_file,
                                                                  weights=restrict_weights(prior, whole, left)))
    prior = restrict_weights(prior, whole, answer_list)
    game = new_game(strategy, answer_list, guess_list, hard, prior)
    click.echo(game_header(game, answer))
    if answer is None:
        try:
            sys.exit(wordle_interactive(game, show, notation))
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            sys.exit(stop.exit_code())
    answer = played_answer
    lines, solved = game_record(game, answer, notation)
    for line in lines:
        click.echo(line)
    if rate and solved and len(game.position.history) > 6:
        click.echo("not rated: the game took more than the 6 guesses the rating counts")
    elif rate and solved:
        click.echo("")
        for line in analysis_lines(analyse_game(game.position.history, answer_list, guess_list, hard, say=say,
                                                weights=prior)):
            click.echo(line)
    if not solved:
        sys.exit(1)


def checked_answer(answer: str | None, answers, guesses) -> str | None:
    """``--answer``, checked before anything is printed: a word of the lists' length that is an answer or
    an allowed guess (an allowed word the list lacks is played on over every allowed word); anything
    else is one line and exit 2, with no guess played."""
    if answer is None:
        return None
    (answer,) = check_words([answer], answers.length, "--answer")
    if answer not in answers.index and answer not in guesses.index:
        raise ExactError(f"--answer {answer!r} is neither an answer of {answers.source} nor an allowed guess of "
                         f"{guesses.source}: no game can have it as its answer")
    return answer


def excluded(exclude, answers, strategy, live_strategy):
    """(the answers less ``--exclude``, the strategy for them): a tree is played on the answers left
    (its guesses proven for the whole list, as its name then says); a live solver is made for them."""
    if exclude is None:
        return answers, strategy
    left = exclude_answers(answers, exclude)
    if isinstance(strategy, TreeStrategy):
        return left, replace(strategy, name=f"{strategy.name} (proven for the whole list; played on the "
                                            f"{len(left)} answers left after --exclude)")
    return left, live_strategy(left)
