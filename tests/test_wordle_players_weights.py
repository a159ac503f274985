"""The players under a prior (issue 33 item 5): ``play``'s advice is the weighted solve's best guess and
its chances are the prior's, ``analyse``'s values are weighted and its lucks, each weighted by its
feedback's class weight, sum to zero, ``serve`` keys and values positions by the weights; unit weights
give what no weights give. Tiny lists with random integer weights, normal and hard mode."""

import json

import numpy as np
import pytest

from exact.feedback import all_green, feedback
from exact.game.position import start, word_classes
from exact.weights import Weights, unit_weights, weights_sha256
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.study.analyse import analyse_game
from exact.wordle.study.fallback import FewestGuesses
from exact.wordle.study.play import Game, LiveGuesses, LiveWins, restrict_weights
from exact.wordle.study.serve import InstantAdvice, Setup, few_left, prove, read_position
from exact.wordle.wins.dp import solve
from exact.words import words_from_lines

from oracles import brute_wins, look_alike, random_weights



def by_word(A, W):
    return dict(zip(A.words, W.values.tolist()))


def brute_weighted_fewest(T, w):
    """The fallback's weighted cost by its definition: every candidate tried at every node, no bound."""
    if len(T) == 1:
        return w[T[0]]
    green = all_green(len(T[0]))
    return min(sum(w[a] for a in T) + sum(brute_weighted_fewest(P, w) for p, P in word_classes(g, T).items()
                                          if p != green) for g in T)


@pytest.mark.parametrize("seed", range(4))
def test_weighted_fallback_matches_brute_force(seed):
    A, _ = look_alike(seed, 8, 0)
    w = by_word(A, random_weights(A, seed, top=30))
    fallback = FewestGuesses(A.words, None, w)
    assert fallback.cost(A.words) == brute_weighted_fewest(A.words, w)
    tree = fallback.tree(A.words)  # the tree attains the cost
    green = all_green(A.length)

    def cost(node, T, step):
        total = 0
        for p, P in word_classes(node.guess, T).items():
            total += step * w[P[0]] if p == green else cost(node.children[p], P, step + 1)
        return total
    assert cost(tree, A.words, 1) == fallback.cost(A.words)


def test_unit_weights_leave_the_fallback_as_it_was():
    A, G = look_alike(3, 9, 3)
    ones = dict.fromkeys(A.words, 1)
    for probes in (None, G.words):
        plain, unit = FewestGuesses(A.words, probes), FewestGuesses(A.words, probes, ones)
        assert plain.cost(A.words) == unit.cost(A.words)
        assert plain.tree(A.words) == unit.tree(A.words)


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_play_advises_the_weighted_solves_best_guess(seed, hard):
    A, G = look_alike(seed, 10, 4)
    W = random_weights(A, seed, top=25)
    r = solve(A, G, depth=2, hard=hard, progress=False, weights=W)
    a = Game(LiveWins(A, G, 2, hard, weights=W), A, guesses=G, hard=hard, weights=W).advice()
    assert a.guess in r.optimal_first
    assert (a.wins, a.weight) == (r.wins, r.weight) and a.probability == pytest.approx(r.wins / r.weight)
    best = solve_guesses(A, G, hard=hard, weights=W, progress=False)
    a = Game(LiveGuesses(A, G, 6, hard, weights=W), A, guesses=G, hard=hard, weights=W).advice()
    assert solve_guesses(A, G, first=a.guess, hard=hard, weights=W, progress=False).total == best.total
    assert a.expected == pytest.approx(best.total / best.weight)


def test_unit_weights_give_the_unweighted_advice():
    A, G = look_alike(5, 10, 4)
    for make in (lambda W: LiveWins(A, G, 2, weights=W), lambda W: LiveGuesses(A, G, 6, weights=W)):
        plain = Game(make(None), A, guesses=G).advice()
        unit = Game(make(unit_weights(A)), A, guesses=G, weights=unit_weights(A)).advice()
        assert unit == plain and unit.weight == 0 and unit.total == len(A)


def test_restricted_weights_follow_the_part():
    A = words_from_lines(["caber", "cabin", "cable"], "a")
    W = Weights(np.array([3, 5, 7], dtype=np.int64), "w", weights_sha256(A, np.array([3, 5, 7])))
    part = words_from_lines(["caber", "cable"], "part")
    assert restrict_weights(W, A, part).values.tolist() == [3, 7]
    assert restrict_weights(W, A, A) is W and restrict_weights(None, A, part) is None


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_analyse_weighs_values_and_the_lucks_sum_to_zero(seed, hard):
    A, G = look_alike(seed, 9, 3)
    W = random_weights(A, seed, top=20)
    w = by_word(A, W)
    best = solve_guesses(A, G, hard=hard, weights=W, progress=False)
    g = best.first
    total = 0.0
    for answer in A.words:
        history = [(g, feedback(g, answer))] + ([(answer, feedback(answer, answer))] if answer != g else [])
        step = analyse_game(history, A, G, hard, weights=W).steps[0]
        assert step.played.total == best.total and step.played.weight == best.weight
        assert step.best.expected == pytest.approx(best.total / best.weight)
        total += w[answer] * step.luck  # each answer's weight: its feedback's class weight in all
    assert total == pytest.approx(0.0, abs=1e-9)


def test_analyse_with_unit_weights_is_the_unweighted_analysis():
    A, G = look_alike(2, 9, 3)
    history = [(A.words[0], feedback(A.words[0], A.words[4])), (A.words[4], feedback(A.words[4], A.words[4]))]
    plain = analyse_game(history, A, G).to_json()
    assert analyse_game(history, A, G, weights=unit_weights(A)).to_json() == plain
    weighted = analyse_game(history, A, G, weights=random_weights(A, 2, top=20)).to_json()
    assert weighted["weights"]["source"] == "random2" and "weight" in weighted["steps"][0]["played"]


def test_serve_keys_positions_by_the_weights():
    A, G = look_alike(1, 9, 3)
    W = random_weights(A, 1, top=20)
    plain, unit, weighted = Setup(A, G), Setup(A, G, weights=unit_weights(A)), Setup(A, G, weights=W)
    pos = start(A)
    assert plain.key(pos) == unit.key(pos) != weighted.key(pos)
    other = Setup(A, G, weights=random_weights(A, 2, top=20))
    assert other.key(pos) != weighted.key(pos)


@pytest.mark.parametrize("objective,limit", [("guesses", 6), ("wins", 2)])
def test_serve_proves_the_weighted_objective(objective, limit):
    A, G = look_alike(1, 9, 3)
    W = random_weights(A, 1, top=20)
    setup = Setup(A, G, objective=objective, limit=limit, weights=W)
    proof = prove(setup, ())
    if objective == "guesses":
        assert proof.solution.value == solve_guesses(A, G, weights=W, progress=False).total
    else:
        assert proof.solution.value == solve(A, G, depth=limit, progress=False, weights=W).wins
    # the tree's value, as InstantAdvice reads it, is the proof's
    assert InstantAdvice([], setup).value(proof.tree, start(A)).value == proof.solution.value


def test_serve_few_left_names_the_heaviest():
    A = words_from_lines(["might", "night", "sissy"], "a")
    after_sissy = (("sissy", feedback("sissy", "might")),)
    for values, guess, value in (([9, 9, 3], "might", 9 + 2 * 9), ([3, 9, 5], "night", 9 + 2 * 3)):
        W = Weights(np.array(values, dtype=np.int64), "w", weights_sha256(A, np.array(values)))
        setup = Setup(A, A, weights=W)
        pos = read_position(setup, after_sissy)
        assert pos.candidates == ("might", "night")
        assert few_left(setup, pos) == (guess, value, 2, True)
        wins = Setup(A, A, objective="wins", limit=2, weights=W)  # one guess left: the heaviest is won
        assert few_left(wins, read_position(wins, after_sissy)).value == 9


@pytest.fixture()
def weighted_lists(tmp_path, write_lines):
    A, G = look_alike(4, 10, 3)
    answers, guesses, weights, ones = (tmp_path / n for n in ("a.txt", "g.txt", "w.txt", "ones.txt"))
    write_lines(answers, A.words)
    write_lines(guesses, G.words)
    W = random_weights(A, 4, top=25)
    write_lines(weights, [f"{a} {v}" for a, v in zip(A.words, W.values.tolist())])
    write_lines(ones, [f"{a} 1" for a in A.words])
    return A, G, W, ["--answers", answers, "--guesses", guesses], weights, ones


def test_play_cli_takes_weights(cli, weighted_lists):
    A, G, W, lists, weights, ones = weighted_lists
    args = ("wordle", "play", *lists, "--live", "--depth", "2", "--answer", A.words[-1], "--notation", "digits")
    code, out, err = cli(*args, "--weights", weights)
    assert code == 0, err
    r = solve(A, G, depth=2, progress=False, weights=W)
    first = out.splitlines()[1].split()
    assert first[1] in r.optimal_first and "answers weighted by" in out.splitlines()[0]
    assert f"P(win within 2) {r.wins / r.weight:6.2%}" in out
    assert cli(*args, "--weights", ones)[1] == cli(*args)[1]  # unit weights: today's output


def test_analyse_cli_takes_weights(cli, weighted_lists):
    A, G, W, lists, weights, ones = weighted_lists
    game = f"{A.words[0]} {A.words[3]}"
    args = ("wordle", "analyse", game, "--answer", A.words[3], *lists, "--json")
    code, out, err = cli(*args, "--weights", weights)
    assert code == 0, err
    data = json.loads(out)
    best = solve_guesses(A, G, weights=W, progress=False)
    assert data["steps"][0]["best"]["total"] == best.total and data["weights"]["sha256"] == W.sha256
    assert cli(*args, "--weights", ones)[1] == cli(*args)[1]


def test_a_bad_weights_file_is_one_line(cli, weighted_lists, tmp_path, write_lines, assert_one_line_error):
    A, G, W, lists, weights, ones = weighted_lists
    bad = tmp_path / "bad.txt"
    write_lines(bad, [f"{A.words[0]} 0"])
    for command in (("play", "--live", "--answer", A.words[0]), ("analyse", A.words[0])):
        code, out, err = cli("wordle", *command, *lists, "--weights", bad)
        assert code == 2 and "bad.txt:1" in err and A.words[0] in err


def test_the_api_takes_weights_in_every_form(tmp_path, write_lines):
    import exact  # the API, reached as exact.NAME

    A, G = look_alike(6, 8, 2)
    W = random_weights(A, 6, top=20)
    mapping = by_word(A, W)
    path = tmp_path / "w.txt"
    write_lines(path, [f"{a} {v}" for a, v in mapping.items()])
    best = solve_guesses(A, G, weights=W, progress=False)
    for form in (W, mapping, path, str(path)):
        r = exact.solve_wordle(A, G, weights=form)
        assert (r.first, r.total, r.weight) == (best.first, best.total, best.weight)
    assert exact.solve_wordle(A, G, objective="wins", depth=2, weights=mapping).wins == \
        solve(A, G, depth=2, progress=False, weights=W).wins
    game = [(best.first, feedback(best.first, A.words[1]))]
    assert exact.analyse_wordle(game, A, G, weights=mapping).steps[0].played.total == best.total
    with pytest.raises(exact.ExactError, match="has no weight"):
        exact.solve_wordle(A, G, weights={A.words[0]: 1})


# --- rank --depth K --weights: the plain global search on the weighted kernels ----------------------


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("seed", range(2))
def test_the_weighted_global_search_matches_brute_force(seed, hard):
    from exact.wordle.wins import ranking

    A, G = look_alike(seed, 9, 3)
    W = random_weights(A, seed, top=20)
    for depth in (2, 3):
        r = ranking.run(A, G, depth=depth, hard=hard, batch=2, progress=False, weights=W)
        assert r.status == "OPTIMAL" and r.wins == brute_wins(A.words, G.words, depth, hard, by_word(A, W))
        assert r.optimal_first == solve(A, G, depth=depth, hard=hard, progress=False, weights=W).optimal_first
        assert r.weight == W.total and ranking.global_tree(r).info["replay"]["wins"] == r.wins
    unit = ranking.run(A, G, depth=2, hard=hard, batch=2, progress=False, weights=unit_weights(A))
    plain = ranking.run(A, G, depth=2, hard=hard, batch=2, progress=False)
    assert (unit.wins, unit.optimal_first, unit.weights) == (plain.wins, plain.optimal_first, None)


def test_rank_depth_with_weights_writes_a_certificate_verify_rederives(cli, weighted_lists, tmp_path):
    A, G, W, lists, weights, ones = weighted_lists
    cert, tree = tmp_path / "c.json", tmp_path / "t.json"
    code, out, err = cli("wordle", "rank", *lists, "--depth", "2", "--weights", weights, "--certificate", cert,
                         "--out", tree, "--batch", "2")
    assert code == 0, err
    best = solve(A, G, depth=2, progress=False, weights=W)
    data = json.loads(cert.read_text())
    assert (data["wins"], data["weight"], data["weights"]["sha256"]) == (best.wins, W.total, W.sha256)
    assert f"wins {best.wins} / {W.total} (weight" in out
    code, out, err = cli("wordle", "verify", cert, *lists, "--weights", weights)
    assert code == 0, out + err
    assert "re-derived" in out
    code, out, err = cli("wordle", "verify", cert, *lists, "--weights", ones)  # another prior: refused in one line
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    code, out, err = cli("wordle", "verify", cert, *lists)  # none given: the weights file the certificate names
    assert code == 0 and "re-derived" in out, out + err


def test_under_weights_the_committed_trees_and_book_are_not_played():
    from exact.words import named_lists
    from exact.wordle.study.play_defaults import choose_strategy, new_game
    from exact.wordle.study.serve import shipped_opener_book, shipped_trees

    A, G = named_lists("nyt2023")
    W = random_weights(A, 7, top=5)
    plain = choose_strategy(None, None, A, G)
    weighted = choose_strategy(None, None, A, G, weights=W)
    assert isinstance(weighted, LiveWins) and weighted.weights is W and "weighted by random7" in weighted.name
    assert not isinstance(plain, LiveWins) or plain.weights is None
    game = new_game(LiveGuesses(A, G, 6, first="tarse", weights=W), A, G, weights=W)
    assert isinstance(game.strategy, LiveGuesses) and game.prior == "random7"  # no opener book in front
    assert shipped_trees(Setup(A, G, weights=W)) == [] and shipped_opener_book(Setup(A, G, weights=W)) is None


@pytest.mark.slow
def test_analyse_under_the_shipped_prior(cli):
    code, out, err = cli("wordle", "analyse", "--list", "nyt-prior", "tares", "crane", "--answer", "crane", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["weights"]["source"] == "instances/nyt-prior/weights.txt"
    second = data["steps"][1]
    assert second["played"]["how"] == "solved" and second["played"]["weight"] > second["answers_before"]


def test_a_weighted_checkpoint_resumes_only_with_its_weights(tmp_path):
    from exact.errors import ExactError
    from exact.wordle.wins import ranking

    A, G = look_alike(3, 9, 3)
    W = random_weights(A, 3, top=20)
    path = tmp_path / "run.jsonl"
    first = ranking.run(A, G, depth=2, batch=2, progress=False, weights=W, checkpoint=path, limit=2)
    assert first.interrupted and json.loads(path.read_text().splitlines()[0])["weights_sha256"] == W.sha256
    for other in (None, random_weights(A, 4, top=20)):
        # refused in one line: its header's weights, or a record above the answers' total weight
        with pytest.raises(ExactError, match="weights_sha256|outside"):
            ranking.run(A, G, depth=2, batch=2, progress=False, weights=other, resume=path)
    done = ranking.run(A, G, depth=2, batch=2, progress=False, weights=W, resume=path)
    assert done.status == "OPTIMAL" and done.wins == solve(A, G, depth=2, progress=False, weights=W).wins


@pytest.mark.slow
def test_a_first_guess_is_valued_from_certificates_of_the_same_weights_only(cli):
    from exact.words import named_lists
    from exact.weights import named_weights

    A, G = named_lists("nyt-prior")
    W = named_weights("nyt-prior", A)
    history = [("tares", feedback("tares", "crane")), ("crane", feedback("crane", "crane"))]
    weighted = analyse_game(history, A, G, weights=W).steps[0]
    cert = json.loads(open("results/wordle/prior-tares-guesses-certificate.json").read())
    assert (weighted.played.total, weighted.played.weight) == (cert["total"], W.total)
    assert weighted.played.expected == pytest.approx(cert["total"] / W.total)
    assert analyse_game(history, A, G).steps[0].played.total is None  # no unweighted file values it
