"""The opener book (exact.wordle.study.book, exact wordle book): each opener's tree is the proven
fewest-guesses tree, the file round-trips and refuses other lists, modes and damage, a build resumes,
and the lookup's advice is the proven best at every position it covers."""

from __future__ import annotations

import gzip
import json

import pytest

from exact.errors import ExactError
from exact.feedback import feedback
from exact.game.tree import preorder, replay
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.study.book import (Book, book_advice, build_book, lookup, read_book, shipped_book, tree_total,
                                     write_book)
from exact.words import named_lists, words_from_lines

OPENERS = ["slate", "cigar"]


@pytest.fixture(scope="module")
def book(tiny_answers, tiny_guesses):
    openers = [w for w in OPENERS if w in tiny_guesses.index] + [tiny_guesses.words[3]]
    return build_book(tiny_answers, tiny_guesses, openers, progress=False)


def test_each_opener_is_the_proven_first_guess_solve(book, tiny_answers, tiny_guesses):
    assert len(book.openers) >= 2
    for word, entry in book.openers.items():
        r = solve_guesses(tiny_answers, tiny_guesses, first=word, progress=False)
        assert (entry.total, r.status) == (r.total, "OPTIMAL")
        played = replay(entry.tree, tiny_answers, tiny_guesses, depth=6)
        assert played.complete and played.total_guesses == entry.total == tree_total(entry.tree)


def test_round_trip_and_refusals(book, tiny_answers, tiny_guesses, tmp_path):
    path = tmp_path / "b.json.gz"
    write_book(book, path)
    again = read_book(path, tiny_answers, tiny_guesses, False)
    assert {w: (e.total, e.tree) for w, e in again.openers.items()} == {w: (e.total, e.tree) for w, e in book.openers.items()}
    with pytest.raises(ExactError, match="hard"):
        read_book(path, tiny_answers, tiny_guesses, True)
    other = words_from_lines(tiny_answers.words[1:])
    with pytest.raises(ExactError, match="other lists"):
        read_book(path, other, tiny_guesses, False)
    data = json.loads(gzip.decompress(path.read_bytes()))
    first = next(iter(data["trees"]))
    data["trees"][first] = data["trees"][first] if isinstance(data["trees"][first], str) else data["trees"][first][:2] + [[]]
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    with pytest.raises(ExactError, match="sha256"):
        read_book(path, tiny_answers, tiny_guesses, False)
    path.write_bytes(b"not gzip")
    with pytest.raises(ExactError, match="b.json.gz"):
        read_book(path, tiny_answers, tiny_guesses, False)


def test_a_build_resumes_keeping_the_openers_done(book, tiny_answers, tiny_guesses, tmp_path):
    path = tmp_path / "b.json.gz"
    words = list(book.openers)
    build_book(tiny_answers, tiny_guesses, words[:1], out=path, progress=False)
    done = read_book(path, tiny_answers, tiny_guesses, False)
    seconds = done.openers[words[0]].seconds
    resumed = build_book(tiny_answers, tiny_guesses, words, out=path, resume=done, progress=False)
    assert list(resumed.openers) == words and resumed.openers[words[0]].seconds == seconds
    assert list(read_book(path, tiny_answers, tiny_guesses, False).openers) == words


def test_advice_is_the_proven_best_at_every_covered_position(book, tiny_answers, tiny_guesses):
    word, entry = next(iter(book.openers.items()))
    checked = 0
    for history, node in preorder(entry.tree):
        if not history or checked >= 6:
            continue
        advice = lookup(book, history)
        assert advice is not None and advice.guess == node.guess
        best = solve_guesses(tiny_answers, tiny_guesses, after=history, progress=False)
        t = len(history)
        assert advice.total + t * advice.answers_left == best.total  # totals from the start of the game
        checked += 1
    assert checked > 0
    answer = tiny_answers.words[0]
    off = ((word, feedback(word, answer)), ("zzzzz", 0))
    assert lookup(book, off) is None and lookup(book, (("notan", 0),)) is None and lookup(book, ()) is None


def test_cli_builds_resumes_and_refuses_bad_input(cli, tiny_answers, tiny_guesses, tmp_path, write_lines,
                                                   assert_one_line_error):
    answers = write_lines(tmp_path / "a.txt", tiny_answers.words)
    guesses = write_lines(tmp_path / "g.txt", tiny_guesses.words)
    openers = write_lines(tmp_path / "o.txt", ["slate", "zzzzz"])
    out = tmp_path / "b.json.gz"
    code, stdout, stderr = cli("wordle", "book", "--answers", answers, "--guesses", guesses, "--openers", openers,
                               "--out", out)
    assert code == 0 and "slate" in stdout and "zzzzz" in stderr, (stdout, stderr)
    code, stdout, stderr = cli("wordle", "book", "--answers", answers, "--guesses", guesses, "--openers", openers,
                               "--out", out)
    assert code == 0 and "resuming" in stderr and "1 openers" in stdout
    assert_one_line_error(cli("wordle", "book", "--answers", answers, "--guesses", guesses, "--openers", openers,
                              "--out", out, "--hard"), "normal mode")
    bad = write_lines(tmp_path / "bad.txt", ["toolong"])
    assert_one_line_error(cli("wordle", "book", "--answers", answers, "--guesses", guesses, "--openers", bad,
                              "--out", tmp_path / "c.json.gz"), "toolong")


def test_the_shipped_books_are_sound():
    """Every committed book reads (its header matches the lists), and its advice after each opener is the
    opener's tree's second guess."""
    for name in ("original", "nyt2023"):
        answers, guesses = named_lists(name)
        shipped = shipped_book(answers, guesses, False)
        if shipped is None:
            continue
        assert isinstance(shipped, Book) and shipped.openers
        word, entry = next(iter(shipped.openers.items()))
        pattern, child = next(iter(entry.tree.children.items()))
        advice = book_advice(answers, guesses, False, ((word, pattern),))
        assert advice is not None and advice.guess == child.guess and advice.answers_left == child.answers


def test_a_player_off_the_tree_gets_the_books_advice_at_once(book, tiny_answers, tiny_guesses):
    """A game played with a tree that opens otherwise, after one of the book's openers: the book answers
    (its proven subtree's guess), before the live solver is asked."""
    from exact.game.tree import Tree
    from exact.wordle.study.book import BookStrategy
    from exact.wordle.study.play import Game, TreeStrategy

    word, entry = next(iter(book.openers.items()))
    other = next(w for w in tiny_guesses.words if w not in book.openers)

    class Refuse:
        name, depth = "live", 6

        def plan(self, position):
            raise AssertionError("the live solver was asked where the book covers the position")

    game = Game(TreeStrategy(Tree(other, len(tiny_answers), {}), "tree", 6), tiny_answers, guesses=tiny_guesses,
                rescue=(BookStrategy(book), Refuse()))
    pattern, child = max(entry.tree.children.items(), key=lambda item: item[1].answers)
    game.give(pattern, word)
    advice = game.advice()
    assert advice.source == BookStrategy(book).name and advice.guess == child.guess
    assert advice.expected == pytest.approx(tree_total(child) / child.answers)


def test_a_live_solve_says_it_is_thinking(tiny_answers, tiny_guesses, capsys, monkeypatch):
    from exact.game.position import start
    from exact.wordle.study import play

    monkeypatch.setattr(play, "THINKING_MIN", 1)
    play.LiveGuesses(tiny_answers, tiny_guesses, first="slate").plan(start(tiny_answers))
    err = capsys.readouterr().err
    assert "thinking: the exact fewest-guesses solve" in err and "rough estimate" in err


def test_the_shipped_book_agrees_with_the_ranking():
    """Each opener's proven total in the committed book equals the ranking's exact value, or meets its
    rejection bound: two independent proofs of the same numbers."""
    from exact.wordle.study.analyse import first_guess_values

    for name in ("original", "nyt2023"):
        answers, guesses = named_lists(name)
        shipped = shipped_book(answers, guesses, False)
        if shipped is None:
            continue
        values = first_guess_values(answers, guesses, False)
        compared = 0
        for word, entry in shipped.openers.items():
            exact_value, bound = values.exact.get(word), values.at_least.get(word)
            if exact_value is not None and exact_value.source != "the opener book":
                assert entry.total == exact_value.total, (name, word)
                compared += 1
            if bound is not None:
                assert entry.total >= bound.total, (name, word)
                compared += 1
        assert compared >= len(shipped.openers), name


def test_an_interrupted_build_keeps_the_openers_done(book, tiny_answers, tiny_guesses, tmp_path, monkeypatch):
    """Ctrl-C during the second opener: the file holds the first, whole, and the book says it was stopped."""
    import exact.wordle.study.book as book_module

    words = list(book.openers)[:2]
    real = book_module.solve_guesses

    def stopped_on_second(answers, guesses, *, first, **kwargs):
        result = real(answers, guesses, first=first, **kwargs)
        if first == words[1]:
            result.interrupted, result.status = True, "FEASIBLE"
        return result

    monkeypatch.setattr(book_module, "solve_guesses", stopped_on_second)
    path = tmp_path / "b.json.gz"
    built = build_book(tiny_answers, tiny_guesses, words, out=path, progress=False)
    assert built.interrupted and list(built.openers) == words[:1]
    assert list(read_book(path, tiny_answers, tiny_guesses, False).openers) == words[:1]


@pytest.mark.slow
def test_every_committed_tree_replays_to_its_total():
    """Each committed opener's tree, replayed answer by answer from scratch (exact.game.tree.replay), solves
    every answer within its guesses with the total the header claims."""
    for name in ("original", "nyt2023"):
        answers, guesses = named_lists(name)
        shipped = shipped_book(answers, guesses, False)
        for word, entry in (shipped.openers.items() if shipped is not None else ()):
            played = replay(entry.tree, answers, guesses, depth=shipped.max_guesses)
            assert played.valid and played.complete and played.total_guesses == entry.total, (name, word)
            assert entry.tree.guess == word


def test_feedback_beyond_the_list_goes_on_over_the_allowed_words_and_undoes(tiny_answers, tiny_guesses):
    from exact.game.tree import Tree
    from exact.wordle.study.play import Game, TreeStrategy

    outside = next(w for w in tiny_guesses.words if w not in tiny_answers.index)
    opener = "slate"
    game = Game(TreeStrategy(Tree(opener, len(tiny_answers), {}), "tree", 6), tiny_answers, guesses=tiny_guesses)
    pattern = feedback(opener, outside)
    if any(feedback(opener, a) == pattern for a in tiny_answers):
        pytest.skip("the outside word shares its feedback with an answer")
    game.give(pattern)
    assert game.beyond and "going on over every allowed word" in game.beyond
    assert outside in game.position.candidates and game.advice().guess in game.position.candidates
    assert game.undo() and game.beyond is None and game.position.candidates == tuple(tiny_answers.words)
