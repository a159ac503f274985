"""What ``exact wordle play`` and the explorer play when the options name no tree: the committed proven
tree of each named list, the strategy the options name, and a new game with its rescue.

>>> list_tree("original", False).depth if list_tree("original", False) else 3
3
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from exact.errors import ExactError
from exact.game.formats import read_tree
from exact.game.tree import check_tree_lists
from exact.progress import say
from exact.weights import Weights
from exact.wordle.study.book import BookStrategy, shipped_book
from exact.wordle.study.card import card_tree, read_card
from exact.wordle.study.play import OBJECTIVES, Game, LiveGuesses, LiveWins, Strategy, TreeStrategy
from exact.words import WordList, check_words, list_name, shipped_result

#: The committed strategy files ``play`` uses by default on the original lists, by mode, first found
#: wins; they are optimal for P(win within DEFAULT_DEPTH) (a tree may play on beyond it).
DEFAULT_DEPTH = 3
DEFAULT_TREES = {
    False: ("results/wordle/optimal-depth3.txt", "results/wordle/optimal-depth3.graphml"),
    True: ("results/wordle/hard-depth3.txt", "results/wordle/hard-depth3.graphml"),
}


def default_tree(hard: bool) -> Path | None:
    """The committed optimal depth-3 tree (of a source checkout or inside the wheel), or None when absent."""
    return next((path for name in DEFAULT_TREES[hard] if (path := shipped_result(name)) is not None), None)


#: The list ``play`` and the explorer use when none is named: today's game.
DEFAULT_LIST = "nyt2023"

#: The committed proven trees of the named lists other than ``original`` (whose trees are
#: :data:`DEFAULT_TREES`): list -> hard -> ((file, what the tree is proven optimal for, the guesses
#: that count as a win), ...), the first file found wins.
LIST_TREES = {
    "nyt2023": {
        False: (("results/wordle/nyt2023-tarse-guesses.graphml", "fewest guesses (proven, first guess tarse)", 6),
                ("results/wordle/nyt2023-depth3.graphml", "most wins within 3 guesses (proven)", 3)),
        True: (("results/wordle/nyt2023-tarse-guesses-hard.graphml",
                "fewest guesses in hard mode (proven, first guess tarse)", 6),
               ("results/wordle/nyt2023-hard-depth3.graphml", "most wins within 3 guesses in hard mode (proven)", 3)),
    },
    "nyt2022": {
        False: (("results/wordle/nyt2022-depth3.graphml", "most wins within 3 guesses (proven)", 3),),
        True: (("results/wordle/nyt2022-hard-depth3.graphml", "most wins within 3 guesses in hard mode (proven)", 3),),
    },
}


@dataclass(frozen=True)
class ListTree:
    path: Path
    objective: str  # what the tree is proven optimal for, in words
    depth: int  # the guesses that count as a win


def list_tree(name: str, hard: bool) -> ListTree | None:
    """The committed proven tree ``play`` and the explorer use for a named list, or None (none
    committed for it, or an install without ``results/``)."""
    if name == "original":
        path = default_tree(hard)
        objective = f"most wins within {DEFAULT_DEPTH} guesses{' in hard mode' if hard else ''} (proven; the Riddler's game)"
        return ListTree(path, objective, DEFAULT_DEPTH) if path is not None else None

    for file, objective, depth in LIST_TREES.get(name, {}).get(hard, ()):
        if (path := shipped_result(file)) is not None:
            return ListTree(path, objective, depth)
    return None


def choose_strategy(tree_file: str | Path | None, fmt: str | None, answers: WordList, guesses: WordList,
                    depth: int | None = None, hard: bool = False, objective: str | None = None,
                    first: str | None = None, live: bool = False, card_file: str | Path | None = None,
                    weights: Weights | None = None) -> Strategy:
    """The strategy the options name: a tree file, a card (:mod:`exact.wordle.study.card`, played as its
    depth-3 tree), the committed proven tree of the named lists (no live option), or a live solver
    (:data:`OBJECTIVES`, ``wins`` by default, ``depth`` 3; 6 for ``guesses``). A tree or card that
    records other lists than these is refused. ``weights`` (a prior, not unit): the live solver maximises
    the weighted objective; the committed trees, proven without weights, are not played (a tree file or
    card the person names is theirs to choose, its chances then weighted)."""
    if card_file is not None:
        if tree_file is not None or live or objective is not None or first is not None or hard:
            raise ExactError("card_file plays the card; tree_file, live, objective, first and hard choose "
                             "another strategy",
                             params=("card_file", "tree_file", "live", "objective", "first", "hard"))

        card = read_card(card_file)
        tree = card_tree(card, answers, guesses, str(card_file))
        return TreeStrategy(tree, f"card {card_file}: {card.status} {card.wins}/{card.n} within 3", 3)
    if tree_file is not None:
        if live or objective is not None or first is not None:
            raise ExactError("tree_file plays the tree; live, objective and first choose a live solver instead",
                             params=("tree_file", "live", "objective", "first"))
        tree = read_tree(tree_file, fmt)
        check_tree_lists(tree, answers, guesses, str(tree_file))
        return TreeStrategy(tree, f"tree {tree_file}", depth or 0)
    name = list_name(answers, guesses)
    weighted = weights is not None and not weights.unit
    committed = (list_tree(name, hard) if name is not None and not (live or objective or first or depth or weighted)
                 else None)
    if committed is not None:
        tree = read_tree(committed.path)
        check_tree_lists(tree, answers, guesses, str(committed.path))
        return TreeStrategy(tree, f"objective {committed.objective}, tree {committed.path.name}", committed.depth)
    if first is not None:
        (first,) = check_words([first], guesses.length, "first")
        if first not in guesses.index:
            raise ExactError(f"first {first!r} is not in {guesses.source}")
    if objective is not None and objective not in OBJECTIVES:
        raise ExactError(f"objective {objective!r}: choose from {', '.join(OBJECTIVES)}")
    strategy = OBJECTIVES[objective or "wins"](answers, guesses, depth or (6 if objective == "guesses" else 3), hard,
                                                 first, weights if weighted else None)
    if first is None and len(answers) > 500:
        say(f"solving the first guess live on {len(answers)} answers (minutes; --first WORD or --tree FILE "
            f"skip this)")
    return strategy


def new_game(strategy: Strategy, answers: WordList, guesses: WordList, hard: bool = False,
             weights: Weights | None = None) -> Game:
    """A game of ``strategy``; a tree's player who leaves the tree still gets exact advice: for a
    fewest-guesses tree the opener book where it covers the position (instant), else the live
    fewest-guesses search; for a depth-k tree the exact DP. A live fewest-guesses strategy answers from
    the book first too (its ``--first``, then the positions the book covers). ``weights`` (a prior, not
    unit): the rescues solve the weighted objective, the chances are weighted, and the opener book (proven
    without weights) is not used."""
    weights = weights if weights is not None and not weights.unit else None
    book = shipped_book(answers, guesses, hard) if weights is None else None
    book = book if book is not None and book.max_guesses == strategy.depth else None
    books = (BookStrategy(book, name="opener book (off the tree): proven fewest guesses"),) if book else ()
    rescue: tuple = ()
    if isinstance(strategy, TreeStrategy) and strategy.name.startswith("objective fewest guesses"):
        rescue = (*books, LiveGuesses(answers, guesses, strategy.depth, hard,
                                      name=f"exact fewest guesses, live (off the tree): every answer within "
                                           f"{strategy.depth}", weights=weights))
    elif isinstance(strategy, TreeStrategy):
        rescue = (LiveWins(answers, guesses, strategy.depth, hard,
                           name=f"exact DP, live (off the tree): most wins within {strategy.depth} guesses",
                           weights=weights),)
    elif isinstance(strategy, LiveGuesses) and book is not None:
        first = BookStrategy(book, strategy.first, f"{strategy.name}; the opener book where it covers the position")
        return Game(first, answers, guesses=guesses, hard=hard, rescue=strategy, weights=weights)
    return Game(strategy, answers, guesses=guesses, hard=hard, rescue=rescue, weights=weights)
