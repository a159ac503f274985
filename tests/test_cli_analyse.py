"""``exact wordle analyse``: text, JSON, the grid from stdin, and one-line errors."""

import json

import pytest

WORDS = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"]


@pytest.fixture()
def lists(tmp_path, write_lines):
    path = tmp_path / "words.txt"
    write_lines(path, WORDS)
    return ["--answers", path, "--guesses", path]


@pytest.mark.slow
def test_json_has_each_guess_with_exact_values(cli, lists):
    code, out, err = cli("wordle", "analyse", "rebut.bbbbb.sissy.bbbbb.focal", *lists, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["solved"] and [s["guess"] for s in data["steps"]] == ["rebut", "sissy", "focal"]
    first = data["steps"][0]
    assert (first["answers_before"], first["answers_after"], first["best_guess"]) == (8, 2, "cigar")
    assert first["played"] == {"total": 17, "answers": 8, "expected": 2.125, "how": "solved"}
    assert first["luck"] == pytest.approx(2.125 - 2.5)


def test_text_and_the_answer_form_agree(cli, lists):
    code, out, err = cli("wordle", "analyse", "rebut", "sissy", "focal", "--answer", "focal", *lists)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[2].split()[:6] == ["1", "rebut", "bbbbb", "8>2", "2.125", "2.125"]
    assert "solved in 3 guesses" in out


@pytest.mark.slow
def test_a_pasted_grid_from_stdin(cli, tmp_path, write_lines):
    path = tmp_path / "words.txt"
    write_lines(path, WORDS)
    grid = "Wordle 1 3/6\n\n\u2b1b\u2b1b\u2b1b\u2b1b\u2b1b\n\u2b1b\u2b1b\u2b1b\u2b1b\u2b1b\n" + "\U0001f7e9" * 5 + "\n"
    r = cli("wordle", "analyse", "-", "--guesses-played", "rebut,sissy,focal", "--answers", str(path),
            "--guesses", str(path), "--json", input=grid)
    assert r.returncode == 0, r.stderr
    assert [s["guess"] for s in json.loads(r.stdout)["steps"]] == ["rebut", "sissy", "focal"]


@pytest.mark.parametrize("args,fragment", [
    (["rebut.zzzzz.sissy"], "feedback of 'rebut'"),
    (["rebut.ggggb.sissy"], "no answer"),
    (["\u2b1b\u2b1b\u2b1b\u2b1b\u2b1b"], "no words"),
    (["xxxxx.bbbbb.sissy"], "xxxxx"),
])
def test_bad_games_are_one_line_errors(cli, lists, assert_one_line_error, args, fragment):
    assert_one_line_error(cli("wordle", "analyse", *args, *lists), fragment)


def test_play_rates_the_game_it_played(cli, lists):
    code, out, err = cli("wordle", "play", *lists, "--objective", "guesses", "--depth", "6", "--answer", "blush",
                         "--analyse")
    assert code == 0, err
    table = out.split("\n\n", 1)[1].splitlines()
    assert table[0].split()[:3] == ["#", "guess", "feedback"]
    played = [line.split()[1] for line in table[1:] if line[:3].strip().isdigit()]
    assert played[-1] == "blush" and "solved in" in out
    # each guess the strategy played is the best there: nothing lost
    assert all(line.split()[7] == "+0.000" for line in table[1:] if line[:3].strip().isdigit())
