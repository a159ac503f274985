"""The cheap Lingo commands of the docs reproduce, on the default (vendored ENABLE) pool, the numbers the
docs print next to them."""

import re

import pytest

#: command -> (what it must print, a regex on its output; what the docs' line holding it must state)
CHEAP = {
    "exact lingo score blink chomp gudes warty": ("8282 / 8636", "8282 / 8636"),
    "exact lingo score hater funds pigmy block": ("8180 / 8636", "| 8180 |"),
    "exact lingo solve --adaptive --guesses-allowed 2": (r"all\s+8636\s+1634", "K = 2: 1634"),
}


def docs_line(root, command: str) -> str:
    """The first line of README or a docs page that shows ``command`` (in backticks) with a number stated."""
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    lines = [line for page in pages for line in page.read_text().splitlines() if f"`{command}`" in line]
    assert lines, f"no page shows `{command}`"
    return next((line for line in lines if CHEAP[command][1] in line), lines[0])


@pytest.mark.slow
@pytest.mark.parametrize("command", list(CHEAP))
def test_docs_lingo_command_prints_its_number(command, root, cli):
    printed, stated = CHEAP[command]
    line = docs_line(root, command)
    assert stated in line, (stated, line)
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
