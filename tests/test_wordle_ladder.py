"""The reduced-instance ladder (exact.wordle.wins.ladder): deterministic generation and its integrity check."""

import pytest

from exact.wordle.wins.ladder import LADDER, check_ladder, write_ladder


@pytest.mark.slow
def test_ladder_generation_is_deterministic(tmp_path):
    m1 = write_ladder(tmp_path / "a")
    m2 = write_ladder(tmp_path / "b")
    assert m1 == m2
    for rung in LADDER:
        for name in ("answers.txt", "guesses.txt"):
            assert (tmp_path / "a" / rung.name / name).read_bytes() == (tmp_path / "b" / rung.name / name).read_bytes()
    check_ladder()  # the shipped files are exactly what the generator makes
    check_ladder(tmp_path / "a")
    names = [r.name for r in LADDER]
    assert len(set(names)) == len(names)


def test_check_ladder_notices_an_edit(tmp_path):
    from exact.errors import ExactError

    write_ladder(tmp_path)
    f = tmp_path / LADDER[3].name / "answers.txt"
    f.write_text(f.read_text().replace("\n", "\n", 1)[6:])  # drop the first word
    with pytest.raises(ExactError, match=LADDER[3].name):
        check_ladder(tmp_path)
