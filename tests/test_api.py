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
