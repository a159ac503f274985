"""Answer weights (exact.weights): the file format's errors, a file read in any order and identified by its
answers' order, and the shipped prior (instances/nyt-prior) read with its list and reproduced by its command.
How each engine and tool uses weights is tested beside it: test_wordle_fewest_weights.py (fewest guesses),
test_wordle_wins_weights.py (depth k), test_audit_weights.py, test_memorable_weights.py,
test_wordle_players_weights.py (players, analyse, serve's advice)."""

import numpy as np
import pytest

from exact.errors import ExactError
from exact.weights import read_weights, unit_weights, weights_from_lines, weights_sha256
from exact.words import words_from_lines

A3 = words_from_lines(["cigar", "rebut", "sissy"], "a.txt")


@pytest.mark.parametrize("lines, message", [
    (["cigar 1", "rebut 2", "sissy x"], "w.txt:3: 'sissy': the weight must be a positive integer, not 'x'"),
    (["cigar 1", "rebut -2", "sissy 1"], "w.txt:2: 'rebut': the weight must be a positive integer, not '-2'"),
    (["cigar 1", "rebut 2.5", "sissy 1"], "w.txt:2: 'rebut': the weight must be a positive integer"),
    (["cigar 1", "cigar 2"], "w.txt:2: 'cigar' duplicates line 1"),
    (["cigar 1", "crane 2"], "w.txt:2: 'crane' is not an answer of a.txt"),
    (["cigar 1", "rebut 2"], "w.txt: answer 'sissy' (line 3 of a.txt) has no weight (1 of 3 answers have none)"),
    (["cigar 1 2"], "w.txt:1: 'cigar 1 2': expected 'word weight'"),
    (["cigar 99999999999", "rebut 1", "sissy 1"], "w.txt:1: 'cigar': the weight 99999999999 exceeds"),
    # digits other than ASCII: str.isdigit takes '³' (then int() fails: exit 70) and int() reads '１２' as 12
    (["cigar 1", "rebut \u00b3", "sissy 1"], "w.txt:2: 'rebut': the weight must be a positive integer, not '\u00b3'"),
    (["cigar \uff11\uff12", "rebut 1", "sissy 1"], "w.txt:1: 'cigar': the weight must be a positive integer"),
])
def test_bad_weights_are_one_line_errors_naming_file_line_and_word(lines, message):
    with pytest.raises(ExactError) as e:
        weights_from_lines(lines, A3, "w.txt")
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_a_weights_file_is_read_in_any_order_and_identified_by_its_answers_order(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("# a prior\nsissy 3\r\n\ncigar 1\nREBUT\t2\n")
    w = read_weights(path, A3)
    assert w.values.tolist() == [1, 2, 3] and w.total == 6 and not w.unit
    assert w.sha256 == weights_sha256(A3, np.array([1, 2, 3]))
    assert unit_weights(A3).unit and unit_weights(A3).sha256 != w.sha256
    with pytest.raises(ExactError, match="no such file"):
        read_weights(tmp_path / "missing.txt", A3)


@pytest.mark.slow
def test_the_shipped_prior_is_read_with_its_list_and_reproduced_by_its_command(tmp_path):
    from exact.weights import named_weights
    from exact.words import named_lists
    answers, guesses = named_lists("nyt-prior")
    w = named_weights("nyt-prior", answers)
    assert len(answers) <= 5000 and len(guesses) == 14855 and int(w.values.min()) >= 1
    pytest.importorskip("wordfreq")
    from exact.fileio import read_json
    from exact.wordle.study.prior import write_prior
    made = write_prior(tmp_path)
    shipped = read_json("instances/nyt-prior/provenance.json")
    assert made["weights"]["sha256"] == shipped["weights"]["sha256"] and made["fit"] == shipped["fit"]
    assert (tmp_path / "weights.txt").read_text() == open("instances/nyt-prior/weights.txt").read()
    assert made["fit_original"] == shipped["fit_original"] and made["fitted"] == shipped["fitted"]
    assert made["fit_held_out"] == shipped["fit_held_out"]


@pytest.mark.slow
def test_the_shipped_prior_is_the_best_sigmoid_on_the_original_answers_and_beats_uniform():
    from exact.fileio import read_json
    shipped = read_json("instances/nyt-prior/provenance.json")
    for fit in (shipped["fit_original"], shipped["fit"]):
        assert fit["log_likelihood"] > fit["log_likelihood_uniform"], fit["history"]
    pytest.importorskip("wordfreq")
    from exact.words import named_lists
    from exact.wordle.study import prior
    original, _ = named_lists("original")
    _, nyt = named_lists("nyt2023")
    best = prior.fit_sigmoid(prior.frequency_ranks(nyt), original)
    assert (best.centre, best.width) == (prior.CENTRE, prior.WIDTH)
    assert best.log_likelihood == pytest.approx(shipped["fitted"]["log_likelihood"])
    assert prior.FIT_CENTRES.start < best.centre < prior.FIT_CENTRES[-1]  # an inner optimum of the grid
    assert prior.FIT_WIDTHS.start < best.width < prior.FIT_WIDTHS[-1]
