"""exact.api: docs/api.md's examples run as doctests; ``exact.NAME`` reaches the API lazily."""

import doctest
import subprocess
import sys

import pytest


@pytest.mark.slow
def test_docs_api_md_runs(root, monkeypatch):
    monkeypatch.chdir(root)
    result = doctest.testfile(str(root / "docs" / "api.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10 and result.failed == 0, result


def test_the_package_names_are_the_api_s():
    import exact
    import exact.api

    assert tuple(exact.api.__all__) == exact.API
    assert all(getattr(exact, name) is getattr(exact.api, name) for name in exact.API)
    with pytest.raises(AttributeError):
        exact.no_such_name  # noqa: B018


def test_import_exact_stays_light():
    code = "import sys, exact; print('exact.api' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_word_lists_in_every_form(tmp_path):
    import exact

    path = tmp_path / "w.txt"
    path.write_text("cigar\nrebut\n")
    assert exact.word_list(path).words == exact.word_list(["cigar", "rebut"]).words == ("cigar", "rebut")
    with pytest.raises(exact.ExactError):
        exact.solve_wordle(["cigar", "rebut"], objective="guesses", depth=3)


@pytest.mark.parametrize("kind", [set, frozenset])
def test_a_set_of_answers_is_refused_in_one_line(kind):
    """A set's order changes between runs (hash order), and the order of the words breaks ties of first
    guesses: a set is refused, a list or tuple of the same words accepted."""
    import exact

    words = ["cigar", "rebut", "sissy"]
    with pytest.raises(exact.ExactError, match="must be ordered") as e:
        exact.word_list(kind(words), source="answers")
    assert "\n" not in str(e.value)
    with pytest.raises(exact.ExactError, match="must be ordered"):
        exact.verify_tree(exact.Tree("cigar", 3, {}), answers=kind(words), guesses=words)
    assert exact.word_list(tuple(words)).words == exact.word_list(words).words == tuple(words)


@pytest.mark.parametrize("answers", ["x", 0, -2, True, 1.5, None])
def test_a_tree_node_must_count_its_answers(answers):
    import exact

    bad = exact.Tree("cigar", answers, {})
    for tree in (bad, exact.Tree("cigar", 2, {0: exact.Tree("rebut", 1, {}), 1: bad})):
        with pytest.raises(exact.ExactError, match="must count the answers reaching it") as e:
            exact.verify_tree(tree, answers=["cigar", "rebut"], guesses=["cigar", "rebut"])
        assert "\n" not in str(e.value)
