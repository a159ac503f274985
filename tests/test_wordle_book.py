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


@pytest.mark.slow
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


@pytest.mark.slow
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


# --- the book as a certificate: nothing in it taken on trust ------------------------------------------

def _edited(book, path, edit):
    """The book written to ``path`` after ``edit(data)`` of its JSON, the content sha256 recomputed (as a
    forger would): what the sha256 alone lets through."""
    from exact.wordle.study.book import content_sha256

    write_book(book, path)
    data = json.loads(gzip.decompress(path.read_bytes()))
    edit(data)
    data["content_sha256"] = content_sha256(data["trees"])
    path.write_bytes(gzip.compress(json.dumps(data).encode()))
    return path


@pytest.fixture
def list_files(tiny_answers, tiny_guesses, tmp_path, write_lines):
    return ["--answers", write_lines(tmp_path / "a.txt", tiny_answers.words),
            "--guesses", write_lines(tmp_path / "g.txt", tiny_guesses.words)]


def test_a_forged_header_total_is_refused_on_read_and_rejected_by_verify(book, tiny_answers, tiny_guesses, tmp_path,
                                                                          cli, list_files):
    word = next(iter(book.openers))

    def lower(data):
        data["openers"][word]["total"] -= 3

    path = _edited(book, tmp_path / "forged.json.gz", lower)
    with pytest.raises(ExactError, match=rf"forged.json.gz: opener {word}: the header says total "
                                         rf"{book.openers[word].total - 3}, its tree takes {book.openers[word].total}"):
        read_book(path, tiny_answers, tiny_guesses, False)
    code, out, err = cli("wordle", "verify", path, *list_files)
    assert code == 1 and out.strip().endswith("REJECTED"), (out, err)
    assert f"FAIL  trees         {word}: replayed from scratch: the header says total" in out


def test_an_edited_node_count_is_refused_on_read_and_rejected_by_verify(book, tiny_answers, tiny_guesses, tmp_path,
                                                                         cli, list_files):
    word = next(iter(book.openers))

    def recount(data):
        node = next(c for _, c in data["trees"][word][2] if isinstance(c, list))
        node[1] += 1

    path = _edited(book, tmp_path / "count.json.gz", recount)
    with pytest.raises(ExactError, match=rf"count.json.gz: opener {word}: \[{word} \d+\] \w+: records \d+ answers "
                                         rf"but \d+ reach it"):
        read_book(path, tiny_answers, tiny_guesses, False)
    code, out, err = cli("wordle", "verify", path, *list_files)
    assert code == 1 and "REJECTED" in out and "nodes record answers that do not reach them" in out, (out, err)


@pytest.mark.parametrize("edit, message", [
    (lambda t: t[2].append([242, t[2][0][1]]), "a child must be"),  # a child under the all-green feedback
    (lambda t: t[2].append(list(t[2][0])), "no branch|two children"),
    (lambda t: t.__setitem__(0, "zzzzz"), "opens with|not an allowed guess"),
    (lambda t: t[2].append([next(p for p in range(242) if p not in {c[0] for c in t[2]}), [t[0], 0, []]]),
     "records 0 answers but 0 reach it \\(a branch for feedback no answer gives\\)"),
])
def test_a_tree_that_does_not_replay_is_refused_on_read(book, tiny_answers, tiny_guesses, tmp_path, edit, message):
    word = next(iter(book.openers))
    path = _edited(book, tmp_path / "bad.json.gz", lambda data: edit(data["trees"][word]))
    with pytest.raises(ExactError, match=rf"bad.json.gz: opener {word}: .*({message})"):
        read_book(path, tiny_answers, tiny_guesses, False)


def _worse_subtree(book, answers, guesses):
    """(opener, pattern, tree): a valid tree for the class of ``pattern`` after the opener, worth more than
    the book's subtree there (a worse guess first, the rest optimal)."""
    word, entry = next(iter(book.openers.items()))
    for pattern, child in sorted(entry.tree.children.items(), key=lambda item: -item[1].answers):
        for g in guesses.words:
            if g == child.guess:
                continue
            r = solve_guesses(answers, guesses, after=((word, pattern),), first=g, progress=False)
            if r.status == "OPTIMAL" and r.tree.answers == child.answers and tree_total(r.tree) > tree_total(child):
                return word, pattern, r.tree
    pytest.skip("no worse subtree found")


@pytest.fixture(scope="module")
def swapped(book, tiny_answers, tiny_guesses, tmp_path_factory):
    """A book with one opener's subtree swapped for a valid but worse one, its total and sha256 made to match."""
    from exact.wordle.study.book import encode_tree

    word, pattern, worse = _worse_subtree(book, tiny_answers, tiny_guesses)
    old = book.openers[word].tree.children[pattern]

    def swap(data):
        item = next(c for c in data["trees"][word][2] if c[0] == pattern)
        item[1] = encode_tree(worse)
        data["openers"][word]["total"] += tree_total(worse) - tree_total(old)

    path = _edited(book, tmp_path_factory.mktemp("swapped") / "swapped.json.gz", swap)
    return path, word, pattern, old, worse


def test_a_worse_subtree_swapped_in_replays_but_verify_rejects_it_by_the_re_solve(swapped, tiny_answers,
                                                                                  tiny_guesses, cli, list_files):
    path, word, pattern, old, worse = swapped
    forged = read_book(path, tiny_answers, tiny_guesses, False)  # it replays: only the re-solve can tell
    assert lookup(forged, ((word, pattern),)).guess == worse.guess
    code, out, err = cli("wordle", "verify", path, *list_files)
    assert code == 1 and out.strip().endswith("REJECTED"), (out, err)
    assert "ok  trees" in out and f"FAIL  re-derived    {word}: re-solved by exact.wordle.fewest.search" in out
    assert f"the book's tree takes {forged.openers[word].total}: not the fewest guesses after {word}" in out


def test_analyse_refuses_a_claimed_best_worse_than_the_guess_played(swapped, tiny_answers, tiny_guesses,
                                                                     monkeypatch):
    """The worse subtree's guess is claimed best; the book's own (better) guess, played and solved, would get a
    negative loss: a broken invariant (InternalError), never printed."""
    from exact.errors import InternalError
    from exact.wordle.study import analyse

    path, word, pattern, old, worse = swapped
    forged = read_book(path, tiny_answers, tiny_guesses, False)
    monkeypatch.setattr(analyse, "shipped_book", lambda *args: forged)
    answer = next(a for a in tiny_answers.words if feedback(word, a) == pattern)
    game = ((word, pattern), (old.guess, feedback(old.guess, answer)))
    with pytest.raises(InternalError, match=rf"guess 2, {old.guess}: its exact total \d+ \(solved\) is below \d+, "
                                            rf"the best claimed \({worse.guess}, the opener book"):
        analyse.analyse_game(game, tiny_answers, tiny_guesses)


def test_verify_of_a_genuine_book_says_verified_and_a_sample_partly_verified(book, tmp_path, cli, list_files):
    path = tmp_path / "b.json.gz"
    write_book(book, path)
    code, out, err = cli("wordle", "verify", path, *list_files)
    assert code == 0 and out.strip().endswith(f"{path}: verified"), (out, err)
    n = len(book.openers)
    assert f"ok  re-derived    {n} of {n} openers re-solved" in out and f"ok  trees         {n} openers' trees" in out
    code, out, err = cli("wordle", "verify", path, *list_files, "--sample", "1", "--seed", "3")
    assert code == 1 and f"partly verified (1 of {n} openers re-solved)" in out, (out, err)
    code, out, err = cli("wordle", "verify", path, *list_files, "--sample", "1", "--partial")
    assert code == 0 and f"partly verified (1 of {n} openers re-solved)" in out


def test_verify_needs_the_lists_of_a_book_of_unshipped_lists(book, tmp_path, cli, assert_one_line_error):
    path = tmp_path / "b.json.gz"
    write_book(book, path)
    assert_one_line_error(cli("wordle", "verify", path), "b.json.gz", "not on a shipped list",
                          "--answers FILE and --guesses FILE")
    assert_one_line_error(cli("wordle", "verify", path, "--workers", "2"), "not for a book")


def test_an_interrupted_re_solve_stops_verify_with_130(book, tmp_path, cli, list_files, monkeypatch):
    """A re-solve stopped by Ctrl-C proves nothing: verify stops as every command does (130; 143 after SIGTERM)."""
    from exact.wordle import book_verify

    real = book_verify.solve_guesses

    def interrupted(*args, **kwargs):
        result = real(*args, **kwargs)
        result.interrupted, result.status = True, "FEASIBLE"
        return result

    monkeypatch.setattr(book_verify, "solve_guesses", interrupted)
    path = tmp_path / "b.json.gz"
    write_book(book, path)
    code, out, err = cli("wordle", "verify", path, *list_files)
    assert code == 130 and "interrupted" in err and "verified" not in out, (code, out, err)


def test_a_guess_breaking_the_hard_mode_rule_is_refused_and_a_hard_book_reads(tiny_answers, tiny_guesses, tmp_path):
    """The hard-mode rule is replayed too: a hard-mode book with one guess edited to one the rule forbids there
    is refused, naming it; the book as built reads back whole."""
    from exact.game.hard import is_allowed

    hard = build_book(tiny_answers, tiny_guesses, ["slate"], hard=True, progress=False)
    write_book(hard, tmp_path / "hard.json.gz")
    again = read_book(tmp_path / "hard.json.gz", tiny_answers, tiny_guesses, True)
    assert again.openers["slate"].total == hard.openers["slate"].total

    def forbid(data):
        item, bad = next((c, g) for c in data["trees"]["slate"][2] if isinstance(c[1], list)
                         for g in tiny_guesses.words if not is_allowed(g, (("slate", c[0]),)))
        item[1][0] = bad

    path = _edited(hard, tmp_path / "forbidden.json.gz", forbid)
    with pytest.raises(ExactError, match=r"forbidden.json.gz: opener slate: \[slate \d+\] \w+: '\w+' breaks the "
                                         r"hard-mode rule"):
        read_book(path, tiny_answers, tiny_guesses, True)


def test_verify_rejects_a_branch_no_answer_takes(book, tmp_path, cli, list_files):
    word = next(iter(book.openers))

    def unreached(data):
        tree = data["trees"][word]
        tree[2].append([next(p for p in range(242) if p not in {c[0] for c in tree[2]}), [word, 0, []]])

    path = _edited(book, tmp_path / "unreached.json.gz", unreached)
    code, out, err = cli("wordle", "verify", path, *list_files)
    assert code == 1 and "REJECTED" in out and f"{word}: replayed from scratch: 1 branches no answer takes" in out, out
