"""exact.wordle.study.analyse: a played game rated guess by guess, against brute force on tiny lists."""

import random
import re
from functools import lru_cache

import numpy as np
import pytest

from exact.errors import ExactError
from exact.feedback import all_green, feedback, parse_pattern
from exact.game.hard import is_allowed
from exact.game.position import word_classes
from exact.wordle.study.analyse import Places, analyse_game, analysis_lines, game_summary
from exact.wordle.study.game_text import parse_game
from exact.wordle.study.book import lookup, shipped_book
from exact.weights import Weights, weights_sha256
from exact.wordle.fewest.search import solve_guesses
from exact.words import wordle_answers, words_from_lines

INF = 10**9


def brute(answers, guesses, hard=False, max_guesses=6):
    """cost(S, t, history) by exhaustive recursion over every allowed guess (the slow reference)."""
    green = all_green(answers.length)

    @lru_cache(maxsize=None)
    def cost(S, t, history):
        if t > max_guesses:
            return INF
        if len(S) == 1:
            return t
        # a guess that splits nothing is never best (the same position one guess later): skipped here only
        return min(value(S, t, history, g) for g in guesses.words if (not hard or is_allowed(g, history))
                   and len({feedback(g, a) for a in S} - {green}) + (g in S) > 1)

    def value(S, t, history, g):
        split = {}
        for a in S:
            split.setdefault(feedback(g, a), []).append(a)
        total = 0
        for p, P in split.items():
            total += t if p == green else cost(tuple(P), t + 1, history + ((g, p),) if hard else ())
            if total >= INF:
                return INF
        return total

    return cost, value


@pytest.fixture(scope="module")
def small():
    A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval", "serve",
                          "heath", "dwarf"], source="small")
    G = words_from_lines(sorted(set(A.words) | {"slate", "crony", "pudgy", "whelk"}), source="small-guesses")
    return A, G


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("answer,played", [("focal", ["rebut", "sissy", "focal"]),
                                           ("naval", ["slate", "crony", "naval"]),
                                           ("dwarf", ["whelk", "dwarf"]),
                                           ("heath", ["awake", "serve", "humph", "heath"])])
def test_each_value_is_the_brute_force_value(small, hard, answer, played):
    A, G = small
    history = parse_game(" ".join(played), G, answer=answer)
    if hard and any(not is_allowed(g, history[:i]) for i, (g, _) in enumerate(history)):
        with pytest.raises(ExactError, match="hard-mode"):
            analyse_game(history, A, G, hard=True)
        return
    a = analyse_game(history, A, G, hard=hard)
    cost, value = brute(A, G, hard)
    assert a.solved and len(a.steps) == len(played)
    for i, step in enumerate(a.steps):
        before = history[:i]
        S = tuple(w for w in A.words if all(feedback(g, w) == p for g, p in before))
        key = before if hard else ()
        assert step.before == len(S)
        assert step.played.total == value(S, i + 1, key, step.guess)
        assert step.best.total == cost(S, i + 1, key)
        assert step.best.how == step.played.how == "solved"
        assert value(S, i + 1, key, step.best_guess) == step.best.total
        left = tuple(w for w in S if feedback(step.guess, w) == step.pattern)
        assert step.after == len(left)
        after = i + 1 if step.solved else cost(left, i + 2, key + ((step.guess, step.pattern),) if hard else ())
        assert step.expected_after == pytest.approx(after / len(left) if not step.solved else after)
        assert step.luck == pytest.approx(step.played.total / len(S) - step.expected_after)


def test_luck_averages_to_zero_over_the_feedbacks(small):
    """E_before is the answers-weighted mean of E_after over the feedbacks (the module's claim)."""
    A, G = small
    lucks = []
    for answer in A.words:
        a = analyse_game(parse_game("slate", G, answer=answer), A, G)
        lucks.append(a.steps[0].luck)
    assert sum(lucks) == pytest.approx(0)


def test_an_unfinished_game_gets_the_best_next_guess(small):
    A, G = small
    a = analyse_game(parse_game("slate", G, answer="cigar"), A, G)
    assert not a.solved and a.next_guess is not None and a.next_best.total is not None
    assert "not solved yet" in "\n".join(analysis_lines(a))


def test_notations_and_the_grid_give_one_history(small):
    A, G = small
    want = parse_game("rebut sissy focal", G, answer="focal")
    pats = [p for _, p in want]
    from exact.feedback import format_pattern

    dotted = ".".join(f"{g}.{format_pattern(p, 5, 'letters')}" for g, p in want[:-1]) + ".focal"
    assert parse_game(dotted, G) == want
    digits = ",".join(f"{g},{format_pattern(p, 5)}" for g, p in want)
    assert parse_game(digits, G) == want
    grid = "Wordle 123 3/6\n\n" + "\n".join(format_pattern(p, 5, "emoji") for p in pats)
    assert parse_game(grid, G, played=["rebut", "sissy", "focal"]) == want
    worded = "\n".join(f"{format_pattern(p, 5, 'emoji')} {g}" for g, p in want)
    assert parse_game(worded, G) == want


@pytest.mark.parametrize("text,extra,match", [
    ("rebut.bbbbb.sissy", {"answer": None}, None),
    ("rebut.zzzzz.sissy", {}, "feedback of 'rebut'"),
    ("qqqqq.bbbbb", {}, "qqqqq"),
    ("⬛⬛⬛⬛⬛", {}, "no words"),
    ("rebut.ggggg.sissy", {}, "all green"),
])
def test_bad_games_are_one_line_errors(small, text, extra, match):
    A, G = small
    if match is None:
        assert parse_game(text, G, **extra)[-1] == ("sissy", all_green(5))
        return
    with pytest.raises(ExactError, match=match):
        parse_game(text, G, **extra)


def test_feedback_no_answer_gives_is_refused(small):
    A, G = small
    with pytest.raises(ExactError, match="no answer"):
        analyse_game((("rebut", parse_pattern("ggggb")),), A, G)


def test_a_large_first_position_uses_the_certificates_and_the_ranking():
    """The first guess on a full list is rated from the committed files: salet and crane exactly (crane's 7930
    is in the ranking certificate), salet proven best of all 12972 first guesses by that ranking, and a
    rejected guess "at least N", said as such (issue 31, item 4)."""
    from exact.words import wordle_allowed, wordle_answers

    A, G = wordle_answers(), wordle_allowed()
    history = parse_game("salet.bbbbb.courd.bbbbb.nymph", G)
    a = analyse_game(history[:1], A, G, live_max=10)
    step = a.steps[0]
    assert step.played.total == 7920 and step.played.how.startswith("certificate")
    assert step.best_guess == "salet" and step.best.total == 7920
    assert step.best_scope == "proven best of all 12972 first guesses" and "ranking" in step.best.how
    b = analyse_game((("crane", feedback("crane", "nymph")),), A, G, live_max=10)
    assert b.steps[0].played.total == 7930 and b.steps[0].extra == pytest.approx(10 / 2315)
    c = analyse_game((("fuzzy", feedback("fuzzy", "nymph")),), A, G, live_max=10)
    played = c.steps[0].played
    assert played.total is None and played.at_least >= 7951 and "at least" in played.how
    assert ">=" in analysis_lines(c)[1]


def test_the_certificates_value_only_the_first_guess(small):
    """A large position after the first guess is not valued from the first guess's certificates."""
    from exact.words import wordle_allowed, wordle_answers

    A, G = wordle_answers(), wordle_allowed()
    a = analyse_game((("salet", feedback("salet", "nymph")), ("crane", feedback("crane", "nymph"))), A, G, live_max=5)
    first, second = a.steps
    assert first.played.total == 7920
    assert second.played.total is None
    book = shipped_book(A, G, False)
    if book is not None and "salet" in book.openers:  # the opener book values the position after salet
        advice = lookup(book, ((first.guess, first.pattern),))
        assert second.best_guess == advice.guess and second.best.total == advice.total + advice.answers_left
        assert second.best.how.startswith("the opener book") and second.best_scope == "proven best at this position"
    else:
        assert second.best.total is None and second.best_guess is None and second.best_scope == "not computed"


def test_a_first_guess_no_file_values_is_solved_live_when_its_classes_are_small(small):
    """No committed file values a first guess on these lists: with its largest class within live_max it is
    solved here (exact), and the best over every guess is then not claimed (not computed)."""
    from exact.wordle.fewest.search import solve_guesses

    A, G = small
    a = analyse_game((("slate", feedback("slate", "focal")),), A, G, live_max=6)
    step = a.steps[0]
    assert step.before == 12 and step.played.how == "solved"
    assert step.played.total == solve_guesses(A, G, first="slate", progress=False).total
    assert step.best.total is None and step.best_scope == "not computed"
    b = analyse_game((("slate", feedback("slate", "focal")),), A, G, live_max=1)  # a class of 2 or more: not solved
    assert b.steps[0].played.total is None and "not computed" in b.steps[0].played.how


def test_the_committed_files_are_read_once_per_process_and_again_when_one_changes(tmp_path, monkeypatch):
    """A rating reads the certificates and rankings (about 85000 JSON lines): once, not once per game (each
    rating of the web app took 2 s for it); a file that changed (a checkpoint a run appends to) is read again."""
    from exact.wordle.study import analyse

    reads = []
    path = tmp_path / "r.jsonl"
    path.write_text('{"kind": "h"}\n{"guess": "crane", "total": 7930}\n')
    monkeypatch.setattr(analyse, "_READ", {})
    parse = lambda text: reads.append(text) or text  # noqa: E731
    assert analyse.read_once(path, parse) == analyse.read_once(path, parse) and len(reads) == 1
    path.write_text(path.read_text() + '{"guess": "slate", "total": 7928}\n')
    assert "slate" in analyse.read_once(path, parse) and len(reads) == 2
    header, records = analyse._ranking_records(path)
    assert header == {"kind": "h"} and [r["guess"] for r in records] == ["crane", "slate"]


def test_a_first_guess_solved_here_better_than_every_file_is_the_best_known_not_a_negative_loss(
        tiny_answers, tiny_guesses, monkeypatch):
    """Where the files' best is not proven over every guess, a played first guess solved here that beats it is
    the best known (extra 0), never a negative loss."""
    from exact.wordle.fewest.search import solve_guesses
    from exact.wordle.study import analyse

    played = "slate"
    true = solve_guesses(tiny_answers, tiny_guesses, first=played, progress=False).total
    other = next(w for w in tiny_guesses.words if w != played)
    values = analyse.FirstGuessValues({other: analyse.Certified(true + 5, "a committed file")}, {}, None, other)
    monkeypatch.setattr(analyse, "first_guess_values", lambda *args, **kwargs: values)
    answer = tiny_answers.words[0]
    game = ((played, feedback(played, answer)),)
    step = analyse_game(game, tiny_answers, tiny_guesses, live_max=len(tiny_answers) // 2).steps[0]
    assert step.played.total == true and step.played.how == "solved"
    assert step.best_guess == played and step.extra == 0 and "the guess played, solved here, is better" in step.best_scope


@pytest.mark.parametrize("hard", [False, True])
def test_a_guess_at_one_or_two_answers_is_valued_without_a_search_as_the_engine_values_it(hard):
    """``Places.few`` (the rating's closed form at one or two answers) against solve_guesses, with weights."""
    A = words_from_lines(wordle_answers().words[::45], "small")
    rng = random.Random(7)
    w = {a: rng.randint(1, 5) for a in A.words}
    weights = Weights(np.array([w[a] for a in A.words], dtype=np.int64), "random",
                      weights_sha256(A, np.array([w[a] for a in A.words], dtype=np.int64)))
    checked = 0
    for opener in A.words[:12]:
        for pattern, P in word_classes(opener, A.words).items():
            if len(P) > 2 or pattern == 242:
                continue
            before = ((opener, pattern),)
            for guess in (*P, rng.choice(A.words), rng.choice(A.words)):
                if hard and not is_allowed(guess, before):
                    continue
                for weighted in (False, True):
                    places = Places(A, hard, w if weighted else None, {})
                    r = solve_guesses(A, A, after=before, first=guess, hard=hard, progress=False,
                                      weights=weights if weighted else None)
                    assert places.few(before, guess).total == r.total, (before, guess, weighted)
                    checked += 1
    assert checked > 20


@pytest.mark.parametrize("game_text", ["rebut.bbbbb.sissy.bbbbb.focal", "awake.bbbbb.humph", "cigar",
                                       "blush.bbbbb.evade", "evade.00100.cigar.10020.focal",
                                       "sissy.00000.humph.00000.focal", "humph.00000.awake.10000.focal"])
def test_the_summary_adds_up_to_the_guesses_played(game_text):
    """best play's expected guesses + what the choices cost - luck = the guesses played (a solved game)."""
    A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
    analysis = analyse_game(parse_game(game_text, A), A, A)
    line = game_summary(analysis)
    best = float(re.search(r"expects (\d+\.\d+)", line).group(1))
    cost = 0.0 if "every choice" in line else float(re.search(r"choices cost (\d+\.\d+)", line).group(1))
    luck = 0.0 if "evened" in line else (float(m.group(1)) if (m := re.search(r"saved you (\d+\.\d+)", line))
                                        else -float(re.search(r"cost you (\d+\.\d+)", line).group(1)))
    assert analysis.solved and line.startswith(f"Solved in {len(analysis.steps)} guess")
    assert best + cost - luck == pytest.approx(len(analysis.steps), abs=0.02), line
    assert sum(s.extra for s in analysis.steps) == pytest.approx(cost, abs=0.006)
