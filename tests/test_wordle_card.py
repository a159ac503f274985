"""A card a person can learn (exact/wordle/study/card.py, `exact wordle card`, `exact wordle play --card`).

Following a card is replayed here from the rule alone (exact.feedback.feedback, answer by answer): the
first guess, the card's second guess for the first feedback, then an answer consistent with both
feedbacks; the wins within three must be exactly the number the card (and the curve it came from)
certifies, whichever consistent answer is named."""

import json

import pytest

from exact.feedback import all_green, feedback, format_pattern
from exact.wordle.study.card import card_from_curve, card_tree, make_card, read_card
from exact.words import named_lists


def follow(card, answers, pick=0) -> int:
    """Answers won within three guesses by a person following ``card``; the third guess is the
    ``pick``-th (0: first, -1: last) answer consistent with both feedbacks."""
    green = all_green(answers.length)
    seen = {}  # (first feedback, second feedback) -> the answers giving both, in list order
    route = {}
    for a in answers.words:
        p1 = feedback(card.first, a)
        if p1 == green:
            route[a] = "won"
            continue
        second = card.second_guess(p1)
        p2 = feedback(second, a)
        if p2 == green:
            route[a] = "won"
            continue
        seen.setdefault((p1, p2), []).append(a)
        route[a] = (p1, p2)
    return sum(1 for a, r in route.items() if r == "won" or seen[r][pick] == a)


@pytest.fixture(scope="module")
def original():
    return named_lists("original")


@pytest.fixture(scope="module")
def curve(root):
    return json.loads((root / "results/wordle/memorable-curve.json").read_text())


@pytest.mark.parametrize("M", [1, 2, 3])
def test_following_the_committed_card_wins_exactly_the_certified_number(M, original, curve, root):
    point = next(p for p in curve["points"] if p["M"] == M)
    card = card_from_curve(*original, "trace", M, root / "results/wordle/memorable-curve.json")
    assert (card.wins, card.bound, card.status) == (point["wins"], point["bound"], point["status"])
    assert len(card.groups) <= M and {g.guess for g in card.groups} <= set(point["second_guesses"])
    answers = original[0]
    assert follow(card, answers, 0) == follow(card, answers, -1) == point["wins"]
    assert card.first_wins + sum(r.wins for g in card.groups for r in g.rows) == point["wins"]
    assert sum(r.answers for g in card.groups for r in g.rows) + card.first_wins == len(answers)


def test_a_feasible_card_says_so_with_its_bound(original, root, tmp_path):
    """Every committed point is OPTIMAL now; a curve whose M = 3 point stopped at a bound (as it did before
    the LP bound closed it: 1150..1156) gives a card that says FEASIBLE and its bound."""
    import json

    from exact.wordle.study.card import card_text

    curve = json.loads((root / "results/wordle/memorable-curve.json").read_text())
    point = next(p for p in curve["points"] if p["M"] == 3)
    point.update(status="FEASIBLE", bound=1156)
    (tmp_path / "curve.json").write_text(json.dumps(curve))
    card = card_from_curve(*original, "trace", 3, tmp_path / "curve.json")
    text = card_text(card)
    assert card.status == "FEASIBLE" and "OPTIMAL" not in text
    assert f"no such card wins more than {card.bound}" in text and card.bound > card.wins


def check_against_brute_force(answers, guesses, first, M, brute_force):
    card, interrupted = make_card(answers, guesses, first, M, workers=1)
    best = brute_force(answers, guesses, first, M)
    assert not interrupted and card.status == "OPTIMAL" and card.wins == card.bound == best
    assert follow(card, answers, 0) == follow(card, answers, -1) == best
    assert "solved now" in card.source  # no committed curve for these lists


@pytest.mark.parametrize("M", [1, 2, 3])
def test_a_solved_card_on_twelve_words_is_optimal_against_brute_force(M, memorable_brute_force):
    from exact.words import words_from_lines

    A = words_from_lines("quack quail quake qualm quart quash quasi queen queer quell query quest".split())
    check_against_brute_force(A, A, "quest", M, memorable_brute_force)


@pytest.mark.parametrize("M", [1, 2])
def test_a_solved_card_on_the_tiny_instance_is_optimal_against_brute_force(M, tiny_answers, tiny_guesses,
                                                                           memorable_brute_force):
    check_against_brute_force(tiny_answers, tiny_guesses, "slate", M, memorable_brute_force)


def test_the_card_as_a_tree_wins_what_the_card_certifies(original, root):
    from exact.game.tree import replay

    card = card_from_curve(*original, "trace", 2, root / "results/wordle/memorable-curve.json")
    tree = card_tree(card, *original)
    assert replay(tree, original[0], original[1], depth=3).wins_within[-1] == card.wins == 1109


@pytest.fixture(scope="module")
def card2(original, root):
    """The card for M = 2 from the committed curve (1109, OPTIMAL, when this was written)."""
    return card_from_curve(*original, "trace", 2, root / "results/wordle/memorable-curve.json")


@pytest.mark.slow
def test_cli_draws_the_card_as_png_and_svg(tmp_path, cli, card2):
    png, svg = tmp_path / "card.png", tmp_path / "card.svg"
    code, out, err = cli("wordle", "card", "--max-distinct-second", 2, "--out", png, "--out", svg)
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = svg.read_text()
    assert "<svg" in text and f"{card2.wins} of 2315" in text and card2.groups[0].guess.upper() in text


def test_cli_writes_the_card_as_html_and_json(tmp_path, cli, card2):
    page, data = tmp_path / "card.html", tmp_path / "card.json"
    code, out, err = cli("wordle", "card", "--max-distinct-second", 2, "--out", page, "--out", data)
    assert code == 0, err
    assert f"wins {card2.wins} of 2315" in out and card2.status in out
    assert f"Otherwise play {card2.groups[-1].guess.upper()}" in out
    assert page.read_text().startswith("<!DOCTYPE html>") and f"{card2.wins} of 2315" in page.read_text()
    assert not any(tag in page.read_text() for tag in ("<script", "src=", "href=", "http"))  # self-contained
    card = read_card(data)
    assert card == card2 and (card.wins, card.status, card.M) == (1109, "OPTIMAL", 2)


@pytest.mark.slow
def test_play_follows_a_card(tmp_path, cli, card2):
    data = tmp_path / "card.json"
    assert cli("wordle", "card", "--max-distinct-second", 2, "--out", data)[0] == 0
    # play the card (its lists, original, are taken although play's default list is nyt2023)
    code, out, err = cli("wordle", "play", "--card", data, "--answer", "blind")
    assert code == 0, err
    assert f"{card2.wins}/2315" in out and "trace" in out and "solved in" in out


@pytest.mark.slow
def test_play_advice_at_the_root_is_the_certified_value(tmp_path, cli, original):
    from exact.wordle.study.play_defaults import choose_strategy, new_game

    data = tmp_path / "c.json"
    assert cli("wordle", "card", "--max-distinct-second", 1, "--out", data)[0] == 0
    strategy = choose_strategy(None, None, *original, card_file=data)
    advice = new_game(strategy, *original).advice()
    assert (advice.guess, advice.wins) == ("trace", read_card(data).wins) == ("trace", 1038)


def test_bad_input_is_one_line(tmp_path, cli, assert_one_line_error):
    assert_one_line_error(cli("wordle", "card", "--max-distinct-second", 2, "--out", tmp_path / "c.pdf"), "c.pdf",
                          ".png")
    assert not (tmp_path / "c.pdf").exists()
    assert_one_line_error(cli("wordle", "card", "--max-distinct-second", 2, "--first", "zzzzz", "--out",
                              tmp_path / "c.svg"), "zzzzz")
    assert not (tmp_path / "c.svg").exists()
    good = tmp_path / "good.json"
    assert cli("wordle", "card", "--max-distinct-second", 2, "--out", good)[0] == 0
    data = json.loads(good.read_text())
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({k: v for k, v in data.items() if k != "wins"}))
    assert_one_line_error(cli("wordle", "play", "--card", broken, "--answer", "blind"), "broken.json", "wins")
    data["groups"][0]["rows"].pop(0)
    short = tmp_path / "short.json"
    short.write_text(json.dumps(data))
    assert_one_line_error(cli("wordle", "play", "--card", short, "--answer", "blind"), "short.json",
                          "no second guess after")
    data = json.loads(good.read_text())
    data["wins"] += 1
    boast = tmp_path / "boast.json"
    boast.write_text(json.dumps(data))
    assert_one_line_error(cli("wordle", "play", "--card", boast, "--answer", "blind"), "boast.json",
                          f"claims {data['wins']} wins", f"win {data['wins'] - 1}")
    assert_one_line_error(cli("wordle", "play", "--card", good, "--list", "nyt2023", "--answer", "blind"),
                          "good.json", "--list original")
    assert_one_line_error(cli("wordle", "play", "--card", good, "--live"), "--card")
    assert format_pattern(0, 5) == "00000"  # the card's patterns are written in digits
