"""The cheap Lingo commands of README reproduce, on the default (vendored ENABLE) pool, the numbers its
table prints next to them."""

import re

import pytest

#: README command -> the number it must print (as "WINS / N" in its output); the README row holding the
#: command must state the same "WINS / N" (or, for K = 2, "K = 2: WINS").
CHEAP = {
    "exact lingo score blink chomp gudes warty": ("8282 / 8636", "8282 / 8636"),
    "exact lingo score hater funds pigmy block": ("8180 / 8636", "8180 / 8636"),
    "exact lingo solve --adaptive --guesses-allowed 2": (r"all\s+8636\s+1634", "K = 2: 1634"),
}


def readme_row(root, command: str) -> str:
    rows = [line for line in (root / "README.md").read_text().splitlines() if f"`{command}`" in line]
    assert rows, f"README no longer shows `{command}`"
    return rows[0]


@pytest.mark.slow
@pytest.mark.parametrize("command", list(CHEAP))
def test_readme_lingo_command_prints_its_number(command, root, cli):
    printed, stated = CHEAP[command]
    row = readme_row(root, command)
    assert stated in row, (stated, row)
    r = cli(*command.split()[1:])
    assert r.returncode == 0, r.stderr
    assert "instances/lingo/enable-5.txt" in r.stdout or "8636" in r.stdout
    assert re.search(printed, r.stdout), (printed, r.stdout[-2000:])


def test_lingo_default_pool_is_the_vendored_enable(root, cli):
    """No --words: the 8636 ENABLE words, the same file as the shared copy (sha256 in instances/lingo)."""
    from exact.words import enable_words

    pool = enable_words()
    assert (len(pool), pool.sha256) == (8636, "7e61927ebc2212faf51e8b050cf9d852dea3cfeb46d20a36fa3f46c9cd31e29d")
    assert pool.sha256 in (root / "instances" / "lingo" / "README.md").read_text()
