"""``exact wordle play`` and ``exact lingo play``: assistants that play along in the terminal."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import list_answers, list_guesses, words_option
from exact.errors import ExactError
from exact.words import enable_words, load_or_default

NOTATION_HELP = "digits 02110, letters bygyb (b/x/./- gray), emoji squares, RGY ryg.. or YNM nmy.."
COMMANDS_HELP = ("WORD FEEDBACK if you played another word, u undoes the last feedback, l lists the candidates, "
                 "! confirms refused feedback, q quits")


def squares(pattern: int, length: int, notation: str) -> str:
    from exact.feedback import format_pattern

    return format_pattern(pattern, length, notation)


def read_line(prompt: str) -> str | None:
    """One line typed by the player, or None at end of input (Ctrl-D)."""
    try:
        return input(prompt)
    except EOFError:
        click.echo()
        return None


def show_words(words, show: int) -> str:
    if len(words) <= show:
        return " ".join(words)
    return " ".join(words[:show]) + f" ... (+{len(words) - show}; l lists all)"


# --- Wordle -------------------------------------------------------------------------------------


def make_strategy(tree_file, fmt, answers, guesses, depth, hard, objective, first, live):
    """The strategy the options name: a tree file, the committed tree of the lists, or a live solver.
    A tree that records other lists than these is refused."""
    from exact.play import OBJECTIVES, TreeStrategy, list_tree
    from exact.wordle.tree import check_tree_lists
    from exact.wordle.treeio import read_tree
    from exact.words import check_words, list_name

    if tree_file is not None:
        if live or objective is not None or first is not None:
            raise ExactError("--tree plays the tree; --live, --objective and --first choose a live solver instead")
        tree = read_tree(tree_file, fmt)
        check_tree_lists(tree, answers, guesses, str(tree_file))
        return TreeStrategy(tree, f"tree {tree_file}", depth or 0)
    name = list_name(answers, guesses)
    committed = list_tree(name, hard) if name is not None and not (live or objective or first or depth) else None
    if committed is not None:
        tree = read_tree(committed.path)
        check_tree_lists(tree, answers, guesses, str(committed.path))
        return TreeStrategy(tree, f"objective {committed.objective}, tree {committed.path.name}", committed.depth)
    if first is not None:
        (first,) = check_words([first], guesses.length, "--first")
        if first not in guesses.index:
            raise ExactError(f"--first {first!r} is not in {guesses.source}")
    if objective is not None and objective not in OBJECTIVES:
        raise ExactError(f"--objective {objective!r}: choose from {', '.join(OBJECTIVES)}")
    strategy = OBJECTIVES[objective or "wins"](answers, guesses, depth or (6 if objective == "guesses" else 3), hard, first)
    if first is None and len(answers) > 500:
        from exact.progress import say

        say(f"solving the first guess live on {len(answers)} answers (minutes; --first WORD or --tree FILE "
            f"skip this)")
    return strategy


def lists_line(answers, guesses) -> str:
    """The lists a game is played on, in a few words."""
    from exact.words import describe_lists, list_name, lists_record

    if list_name(answers, guesses) is not None:
        return describe_lists(lists_record(answers, guesses))
    return f"answers {answers.source} ({len(answers)}), guesses {guesses.source} ({len(guesses)})"


def print_advice(advice, show: int) -> None:
    n = len(advice.candidates)
    step = advice.position.played + 1
    click.echo(f"guess {step}: {advice.guess.upper()}   [{advice.source}]")
    if advice.guesses_left > 0:
        chances = (f"P(win within {advice.depth}) = {advice.wins}/{n} = {advice.probability:.2%}"
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
    from exact.feedback import parse_pattern

    parts = text.split()
    if len(parts) == 2 and parts[0].isalpha() and parts[0].isascii():
        return parts[0].lower(), parse_pattern(parts[1], len(advised))
    return None, parse_pattern(text, len(advised))


def wordle_interactive(game, show: int, notation: str) -> int:
    """The loop a person types into; returns the exit status."""
    from exact.feedback import parse_pattern
    from exact.play import ImpossibleFeedback

    click.echo(f"Play the suggested guess, then type its feedback ({NOTATION_HELP}); {COMMANDS_HELP}.")
    while True:
        advice = game.advice()
        print_advice(advice, show)
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
                    break
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
                game.give(pattern, guess)
            except ImpossibleFeedback as e:
                refused = pattern
                click.echo(f"refused: {e}. Check the colours and type the feedback again, or type ! if it is "
                           f"right: the answer is then not in {game.position.answers.source}.")
                continue
            except ExactError as e:
                click.echo(f"not understood: {e}. Type the feedback, {len(advice.guess)} symbols ({NOTATION_HELP}), "
                           f"or WORD FEEDBACK if you played another word")
                continue
            break
        history = game.position.history
        if history and game.solved:
            print_board(history, notation)
            click.echo(f"solved in {len(history)} guess{'es' if len(history) > 1 else ''}"
                       f"{' (a win)' if len(history) <= game.strategy.depth else ''}")
            return 0
        if history:
            print_board(history[-1:], notation)


@click.command("play")
@click.option("--tree", "tree_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Play this strategy tree (.graphml .json .dot .txt/.tree) [default: the committed proven "
                   "tree of --list: nyt2023 fewest guesses after tarse; original: most wins within 3].")
@click.option("--format", "fmt", type=click.Choice(["graphml", "json", "dot", "txt"]), default=None,
              help="Tree file format [default: from the extension].")
@words_option("--answers", "Answer list [default: the answers of --list].", list_default="nyt2023")
@words_option("--guesses", "Allowed guesses [default: the guesses of --list].")
@click.option("--live", is_flag=True, help="Compute the strategy live with the exact solver, not from a tree.")
@click.option("--objective", default=None, metavar="NAME",
              help="The live solver's objective, from exact.play.OBJECTIVES (wins: most answers won "
                   "within --depth; guesses: fewest total guesses, every answer within --depth [default 6]). "
                   "Implies --live.")
@click.option("--depth", "-k", type=click.IntRange(min=1), default=None,
              help="Guesses that count as a win [default: the tree's depth; 3 live]. Implies --live without --tree.")
@click.option("--hard", is_flag=True, help="Hard mode (the committed hard-mode tree, or the live solver in hard mode).")
@click.option("--first", default=None, help="Live: fix the first guess (skips the slow root solve).")
@click.option("--answer", default=None, metavar="WORD", help="Play a whole game against WORD and print it.")
@click.option("--show", type=click.IntRange(min=0), default=20, show_default=True,
              help="List the candidates when at most this many are left.")
@click.option("--notation", type=click.Choice(["emoji", "letters", "digits"]), default="emoji",
              show_default=True, help="How feedback is printed.")
def wordle_play(tree_file, fmt, answers, guesses, live, objective, depth, hard, first, answer, show, notation):
    """Play along: the next guess, your feedback, the candidates left and the chances.

    After each guess type its feedback in any notation (digits 02110, letters bygyb, emoji squares,
    RGY or YNM). Feedback that no candidate answer gives is refused and asked again. Where the strategy
    has no guess (a tree that stops at its depth) the fallback plays on: the fewest total guesses,
    guessing candidates and a few allowed words that split them best (candidates only in hard mode;
    exact.play.FewestGuesses).
    """
    import sys

    from exact.play import Game, LiveGuesses, LiveWins, TreeStrategy, play_answer
    from exact.words import check_words

    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    strategy = make_strategy(tree_file, fmt, answer_list, guess_list, depth, hard, objective, first, live)
    rescue = None
    if isinstance(strategy, TreeStrategy) and strategy.name.startswith("objective fewest guesses"):
        rescue = LiveGuesses(answer_list, guess_list, strategy.depth, hard,
                             name=f"exact fewest guesses, live (off the tree): every answer within {strategy.depth}")
    elif isinstance(strategy, TreeStrategy):  # a player who leaves the tree still gets the exact DP's advice
        rescue = LiveWins(answer_list, guess_list, strategy.depth, hard,
                          name=f"exact DP, live (off the tree): most wins within {strategy.depth} guesses")
    game = Game(strategy, answer_list, guesses=guess_list, hard=hard, rescue=rescue)
    click.echo(f"{lists_line(answer_list, guess_list)}{', hard mode' if hard else ''}; strategy: {strategy.name}"
               + (f"; answer {answer}" if answer is not None else ""))
    if answer is None:
        try:
            sys.exit(wordle_interactive(game, show, notation))
        except KeyboardInterrupt:
            from exact import stop

            click.echo("\ninterrupted", err=True)
            sys.exit(stop.exit_code())
    (answer,) = check_words([answer], answer_list.length, "--answer")
    turns, solved = play_answer(game, answer)
    for t in turns:
        a = t.advice
        chance = (f"P(win within {a.depth}) {a.probability:6.2%}" if a.guesses_left > 0
                  else f"beyond {a.depth} guesses")
        click.echo(f"{squares(t.pattern, len(a.guess), notation)}  {a.guess}   {len(a.candidates):5d} candidate{'s' if len(a.candidates) != 1 else ' '}, "
                   f"{chance}, expected guesses {a.expected:.3f}" + ("" if a.source == strategy.name else f"  [{a.source}]"))
    if solved:
        n = len(turns)
        verdict = "a win" if n <= strategy.depth else f"not within {strategy.depth}"
        click.echo(f"solved in {n} guess{'es' if n > 1 else ''} ({verdict})")
        return
    click.echo(f"{answer!r} is not one of the {len(answer_list)} answers of {answer_list.source}: after "
               f"{len(turns)} guess{'es' if len(turns) > 1 else ''} no candidate gives this feedback, so the "
               f"strategy cannot find it")
    sys.exit(1)


# --- Lingo --------------------------------------------------------------------------------------


def read_set(text: str, pool_length: int | None) -> tuple[tuple[str, ...], str | None]:
    """The fixed guesses from WORDS (space or comma separated), a result JSON, or a word-list file;
    also the pool path a result file names (or None)."""
    from exact.fileio import read_json
    from exact.words import check_words, read_words

    path = Path(text)
    if path.suffix == ".json" or path.is_file():
        if path.suffix == ".json":
            data = read_json(path, "Lingo result")
            if not isinstance(data, dict) or not isinstance(data.get("guesses"), list):
                raise ExactError(f"{path}: not a Lingo result (no 'guesses' list)")
            words = data["guesses"]
            return check_words(words, len(words[0]), str(path)), data.get("words")
        return read_words(path).words, None
    words = text.replace(",", " ").split()
    if not words:
        raise ExactError("--set: give the fixed guesses (words, a result .json, or a file)")
    return check_words(words, pool_length or len(words[0]), "--set"), None


@click.command("play")
@click.option("--set", "set_text", required=True, metavar="FILE|WORDS",
              help="The fixed guesses: words ('blink chomp gudes warty'), a result .json, or a list file.")
@words_option("--words", "The pool [default: the pool a result file names, else the vendored 8636 ENABLE words].")
@click.option("--answer", default=None, metavar="WORD", help="Play against WORD and print the game.")
@click.option("--show", type=click.IntRange(min=0), default=30, show_default=True,
              help="List the consistent words when at most this many.")
@click.option("--notation", type=click.Choice(["emoji", "letters", "digits"]), default="emoji",
              show_default=True, help="How feedback is printed.")
def lingo_play(set_text, words, answer, show, notation):
    """Play a fixed Lingo set: the first letter, the feedback of each guess, the consistent words.

    At the end the player picks uniformly among the consistent words: the win probability of the pick
    is 1 / (their number). Feedback that no word of the pool gives is refused and asked again.
    """
    import sys

    try:
        lingo_session(set_text, words, answer, show, notation)
    except KeyboardInterrupt:
        from exact import stop

        click.echo("\ninterrupted", err=True)
        sys.exit(stop.exit_code())


def lingo_session(set_text, words, answer, show, notation):
    import sys

    from exact.feedback import feedback, parse_pattern
    from exact.lingo.score import score_guesses
    from exact.play import classes
    from exact.words import check_words, read_words, require_in_pool

    guesses, named_pool = read_set(set_text, None)
    if words is None and named_pool and Path(named_pool).is_file():
        pool = read_words(named_pool)
    else:
        pool = load_or_default(words, enable_words)
    guesses = check_words(guesses, pool.length, "--set")
    require_in_pool(guesses, pool)
    score = score_guesses(pool, guesses)
    click.echo(f"pool: {pool.source} ({len(pool)} words); guesses: {' '.join(guesses)}; "
               f"P(win) = {score.wins}/{score.n} = {score.probability:.2%}")
    if answer is not None:
        (answer,) = check_words([answer], pool.length, "--answer")
    if answer is None:
        click.echo(f"Type the first letter, then the feedback of each guess ({NOTATION_HELP}); q quits.")
    while True:
        letter = answer[0] if answer else read_line("first letter> ")
        if letter is None or letter.strip().lower() in ("q", "quit"):
            click.echo("bye")
            return
        letter = letter.strip().lower()
        if len(letter) == 1 and "a" <= letter <= "z":
            break
        click.echo("not understood: type one letter a-z")
    candidates = tuple(w for w in pool.words if w[0] == letter)
    click.echo(f"first letter {letter}: {len(candidates)} words")
    if not candidates:
        click.echo(f"no word of {pool.source} starts with {letter!r}: the answer is not in the pool")
        sys.exit(1)
    for i, g in enumerate(guesses, start=1):
        possible = classes(g, candidates)
        while True:
            if answer is not None:
                pattern = feedback(g, answer)
            else:
                line = read_line(f"feedback for {g} (guess {i} of {len(guesses)})> ")
                if line is None or line.strip().lower() in ("q", "quit"):
                    click.echo("bye")
                    return
                try:
                    pattern = parse_pattern(line, pool.length)
                except ExactError as e:
                    click.echo(f"not understood: {e}")
                    continue
            if pattern in possible:
                break
            if answer is not None:
                click.echo(f"{squares(pattern, pool.length, notation)}  {g}")
                click.echo(f"{answer!r} is not in {pool.source}: no word of the pool gives this feedback")
                sys.exit(1)
            click.echo(f"refused: no word of the pool starting with {letter!r} and consistent so far gives "
                       f"{squares(pattern, pool.length, 'digits')} to {g}; check the colours")
        candidates = possible[pattern]
        click.echo(f"{squares(pattern, pool.length, notation)}  {g}   {len(candidates)} consistent")
    n = len(candidates)
    click.echo(f"consistent words ({n}): {show_words(candidates, show)}")
    click.echo(f"pick one at random: P(win) = 1/{n} = {1 / n:.2%}")
    if answer is not None and answer not in candidates:
        click.echo(f"{answer!r} is not in {pool.source}, so no pick can win")
        sys.exit(1)
    if answer is not None:
        click.echo(f"the answer {answer} is {'the only' if n == 1 else 'one of the'} consistent word{'s' if n > 1 else ''}")
