"""The HTML tree explorer in a real headless Chromium: open, click, find, check what is shown.

Needs selenium and Debian's chromium + chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver);
skips with a message where they are absent. Run it alone with `python -m pytest tests/test_wordle_explorer.py`.
"""

import json
import re

import pytest

from exact.feedback import feedback, format_pattern
from exact.wordle.wins.dp import solve
from exact.wordle.wins.trees import best_tree
from exact.wordle.study.explorer import browser_paths, explorer_data, explorer_html
from exact.game.tree import replay
from exact.words import wordle_answers, words_from_lines

SMALL = wordle_answers().words[:150]


@pytest.fixture(scope="module")
def page(tmp_path_factory, cli, write_lines):
    """A depth-2 optimal tree on 150 answers (so some answers are lost), written by the real command."""
    d = tmp_path_factory.mktemp("explorer")
    A = words_from_lines(SMALL, "small")
    r = solve(A, A, depth=2, progress=False)
    tree = best_tree(A, A, 2, r.optimal_first[0])
    from exact.game.formats import write_tree

    write_tree(tree, d / "t.json")
    answers = write_lines(d / "a.txt", SMALL)
    out = cli("wordle", "export", d / "t.json", "--answers", answers, "--html", d / "t.html")
    assert out.returncode == 0, out.stderr
    return A, tree, r.wins, d / "t.html"


@pytest.mark.slow
def test_the_page_is_self_contained(page):
    A, tree, wins, html = page
    text = html.read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), "the page must not load anything"
    blob = re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S).group(1)
    data = json.loads(blob)
    assert data["wins"] == wins == replay(tree, A, depth=2).wins
    assert sorted(data["lost"]) == sorted(replay(tree, A, depth=2).lost)
    assert set(data["paths"]) == set(A.words)


def test_explorer_data_escapes_the_script_end():
    data = explorer_data(best_tree(words_from_lines(SMALL[:5]), words_from_lines(SMALL[:5]), 2, SMALL[0]),
                         words_from_lines(SMALL[:5]), title="</script><b>")
    assert "</script><b>" not in explorer_html(data).split('<script id="data"')[1].split("</script>")[0]


@pytest.fixture(scope="module")
def browser():
    if browser_paths() is None:
        pytest.skip("no Chromium with chromedriver installed (apt install chromium chromium-driver)")
    pytest.importorskip("selenium", reason="selenium drives the browser")
    from exact.wordle.study.explorer import chromium

    driver = chromium((1100, 900))
    yield driver
    driver.quit()


@pytest.mark.slow
def test_in_a_real_browser(page, browser, tmp_path):
    A, tree, wins, html = page
    d = browser
    d.get(html.resolve().as_uri())
    by = "css selector"
    summary = d.find_element("id", "summary").text
    assert f"wins {wins}/{len(A)}" in summary
    assert not d.find_element(by, "#lost a").is_displayed()  # no spoiler on opening
    d.find_element(by, "#browse > summary").click()
    root = d.find_element(by, ".node[data-id='0']")
    assert root.find_element(by, ".row").get_attribute("data-guess") == tree.guess
    assert f"{len(A)} answers" in root.find_element(by, ".row").text
    # Expand the root: one row per non-green class, largest first, with its count and P(win).
    root.find_element(by, ".row .toggle").click()
    rows = d.find_elements(by, ".node[data-id='0'] > .kids > .node:not(.won-row):not(.lost-row) > .row")
    classes = {}
    for a in A.words:
        classes.setdefault(feedback(tree.guess, a), []).append(a)
    with_child = [p for p in tree.children if p in classes]
    assert len(rows) == len(with_child)
    biggest = max(with_child, key=lambda p: (len(classes[p]), -p))
    assert rows[0].get_attribute("data-guess") == tree.children[biggest].guess
    assert f"{len(classes[biggest])} answers" in rows[0].text
    assert "P(win within 2)" in rows[0].text
    # Collapse hides the children again.
    root.find_element(by, ".row .toggle").click()
    assert not d.find_element(by, ".node[data-id='0'] > .kids").is_displayed()
    # Find a lost answer and a won one: the path is highlighted and the message says which.
    lost = replay(tree, A, depth=2).lost[0]
    d.find_element("id", "find").send_keys(lost)
    d.find_element("id", "find-button").click()
    result = d.find_element("id", "find-result")
    assert "lost" in result.text and result.get_attribute("data-found") == "1"
    highlighted = d.find_elements(by, ".row.hl")
    node, path = tree, [tree.guess]
    p = feedback(node.guess, lost)
    if p in node.children:
        node = node.children[p]
        path.append(node.guess)
    assert result.get_attribute("data-path") == " ".join(path)
    assert [h.get_attribute("data-guess") for h in highlighted if h.get_attribute("data-guess")] == path
    assert highlighted[-1].get_attribute("data-lost") == format_pattern(feedback(node.guess, lost), 5)
    won = next(a for a in A.words if a != tree.guess and a not in replay(tree, A, depth=2).lost)
    box = d.find_element("id", "find")
    box.clear()
    box.send_keys(won)
    d.find_element("id", "find-button").click()
    assert "won with guess 2" in d.find_element("id", "find-result").text
    assert d.find_elements(by, ".row.hl")[-1].get_attribute("data-won") == won
    # Not an answer: said so.
    box.clear()
    box.send_keys("zzzzz")
    d.find_element("id", "find-button").click()
    assert "is not one of the 150 answers" in d.find_element("id", "find-result").text
    # The lost answers are listed and clickable.
    lost_all = replay(tree, A, depth=2).lost
    assert d.find_element("id", "lost-count").text == f"{len(lost_all)} of {len(A)}"
    d.find_element(by, "#lost-box > summary").click()
    d.find_elements(by, "#lost a")[0].click()
    assert d.find_element("id", "find-result").text.startswith(lost_all[0])
    shot = tmp_path / "explorer.png"
    assert d.save_screenshot(str(shot)) and shot.read_bytes()[:4] == b"\x89PNG"


def test_a_tree_that_plays_on_beyond_the_depth(page):
    from exact.wordle.study.fallback import FewestGuesses, complete

    A, tree, wins, _ = page
    full = complete(tree, A.words, FewestGuesses(A.words))
    data = explorer_data(full, A, depth=2)
    assert data["wins"] == wins and data["depth"] == 2
    lost = replay(tree, A, depth=2).lost
    assert sorted(data["lost"]) == sorted(lost)
    assert all(data["paths"][a]["solved"] > 2 for a in lost)
    assert all(data["paths"][a]["solved"] <= 2 for a in A.words if a not in lost)


# --- the player's page: a whole game by clicks, each step checked against the tree ---------------------

@pytest.fixture(scope="module")
def full_page(page, tmp_path_factory):
    """The same tree completed by the fewest-guesses fallback (every answer solved), as a page."""
    from exact.wordle.study.fallback import FewestGuesses, complete

    A, tree, _, _ = page
    full = complete(tree, A.words, FewestGuesses(A.words))
    path = tmp_path_factory.mktemp("player") / "full.html"
    path.write_text(explorer_html(explorer_data(full, A, depth=2)))
    return A, full, path


def click_colours(driver, digits):
    """Tap each tile of the current guess until it shows its colour (0 gray, 1 yellow, 2 green)."""
    for tile, d in zip(driver.find_elements("css selector", "#current .tile"), digits):
        for _ in range(int(d)):
            tile.click()
        assert tile.get_attribute("data-c") == d


def expected_guesses(tree, words, step=1):
    """The tree's total guesses over ``words`` from a node played at ``step``, by walking each answer."""
    total = 0
    for w in words:
        node, k = tree, step
        while node.guess != w:
            node, k = node.children[feedback(node.guess, w)], k + 1
        total += k
    return total / len(words)


@pytest.mark.slow
@pytest.mark.parametrize("pick", [0, -1])
def test_a_whole_game_by_clicks(full_page, browser, pick):
    A, tree, html = full_page
    d = browser
    d.get(html.resolve().as_uri())
    by = "css selector"
    deepest = max(A.words, key=lambda a: (replay_steps(tree, a), a))
    answer = [deepest, A.words[7]][pick]
    node, left, step = tree, list(A.words), 1
    while True:
        assert d.find_element("id", "current").get_attribute("data-guess") == node.guess
        assert d.find_element("id", "status").text == f"The proven next guess: {node.guess.upper()}."
        stats = d.find_element("id", "stats")
        assert int(stats.get_attribute("data-left")) == len(left)
        assert stats.get_attribute("data-expected") == f"{expected_guesses(node, left):.3f}"  # from here
        box = d.find_element("id", "answers-left")
        assert not box.is_displayed()  # hidden until asked
        d.find_element("id", "show-answers").click()
        assert box.is_displayed() and box.text.split() == sorted(left)
        digits = format_pattern(feedback(node.guess, answer), 5)
        click_colours(d, digits)
        d.find_element("id", "fb-enter").click()
        rows = d.find_elements(by, "#board .row")
        assert rows[-1].get_attribute("data-guess") == node.guess and rows[-1].get_attribute("data-fb") == digits
        if node.guess == answer:
            break
        left = [a for a in left if feedback(node.guess, a) == feedback(node.guess, answer)]
        node, step = node.children[feedback(node.guess, answer)], step + 1
    status = d.find_element("id", "status")
    assert status.get_attribute("data-state") == "solved"
    assert status.text.startswith(f"Solved in {step} guess")
    assert not d.find_element("id", "current-line").is_displayed()
    d.find_element("id", "undo").click()
    assert d.find_element("id", "current").get_attribute("data-guess") == node.guess


def replay_steps(tree, answer):
    node, k = tree, 1
    while node.guess != answer:
        node, k = node.children[feedback(node.guess, answer)], k + 1
    return k


@pytest.mark.slow
def test_off_the_tree_is_said(page, browser):
    A, tree, _, html = page
    d = browser
    d.get(html.resolve().as_uri())
    lost = replay(tree, A, depth=2).lost
    # typed feedback, another word played: off the tree, the answers left still counted
    other = next(w for w in A.words if w != tree.guess)
    answer = lost[0]
    box = d.find_element("id", "fb")
    box.send_keys(f"{other} {format_pattern(feedback(other, answer), 5, 'letters')}\n")
    status = d.find_element("id", "status")
    assert status.get_attribute("data-state") == "off" and f"you played {other}, the tree plays {tree.guess}" in status.text
    left = [a for a in A.words if feedback(other, a) == feedback(other, answer)]
    assert int(d.find_element("id", "stats").get_attribute("data-left")) == len(left)
    # impossible colours are refused, the position unchanged
    d.find_element("id", "restart").click()
    impossible = next(f"{p:05d}" for p in range(100000) if set(f"{p:05d}") <= set("012")
                      and all(format_pattern(feedback(tree.guess, a), 5) != f"{p:05d}" for a in A.words))
    box.send_keys(impossible + "\n")
    assert status.get_attribute("data-state") == "refused" and "check the colours" in status.text
    assert d.find_elements("css selector", "#board .row") == []
    # an answer the depth-2 tree loses: after its second guess the tree stops
    node, left = tree, list(A.words)
    while True:
        p = feedback(node.guess, answer)
        click_colours(d, format_pattern(p, 5))
        d.find_element("id", "fb-enter").click()
        left = [a for a in left if feedback(node.guess, a) == p]
        if p not in node.children:
            break
        node = node.children[p]
        assert status.get_attribute("data-state") == "on"
    assert status.get_attribute("data-state") == "off" and f"the tree stops after {node.guess}" in status.text
    assert int(d.find_element("id", "stats").get_attribute("data-left")) == len(left)


@pytest.mark.slow
def test_export_counts_one_node_in_the_singular(cli, tmp_path, write_lines):
    from exact.game.formats import write_tree
    from exact.game.tree import Tree

    answers = write_lines(tmp_path / "a.txt", ["cigar"])
    write_tree(Tree("cigar", 1, {}), tmp_path / "t.json")
    r = cli("wordle", "export", tmp_path / "t.json", "--answers", answers, "--html", tmp_path / "t.html")
    assert r.returncode == 0, r.stderr
    assert ": 1 node, wins 1/1" in r.stdout


@pytest.mark.slow
def test_a_word_not_allowed_is_refused_and_phone_squares_are_read(page, browser):
    """Issue 29: the page refused no played word (any 5 letters went on, off the tree); squares pasted
    from a phone ("⬛️": the square and U+FE0F) were "not understood"."""
    A, tree, _, html = page
    d = browser
    d.get(html.resolve().as_uri())
    box, status = d.find_element("id", "fb"), d.find_element("id", "status")
    box.send_keys("qxqxq bbbbb\n")
    assert status.get_attribute("data-state") == "refused" and "not an allowed guess" in status.text
    assert d.find_elements("css selector", "#board .row") == []
    answer = next(a for a in A.words if a != tree.guess)
    squares = "".join({"0": "\u2b1b\ufe0f", "1": "\U0001f7e8\ufe0f", "2": "\U0001f7e9\ufe0f"}[c]
                      for c in format_pattern(feedback(tree.guess, answer), 5))
    box.clear()  # chromedriver types no emoji (outside the BMP): the paste is set, then Enter typed
    d.execute_script("arguments[0].value = arguments[1];", box, f"{tree.guess} {squares}")
    box.send_keys("\n")
    assert len(d.find_elements("css selector", "#board .row")) == 1, status.text
    assert status.get_attribute("data-state") in ("on", "off", "solved"), status.text
