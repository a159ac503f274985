"""The player's page of ``exact wordle serve`` played as a player plays it: by tapping each tile of the
advised guess until it shows the colour the game gave, then Enter (slow; a real headless Chromium, skipped
without Debian's chromium and chromium-driver). The pattern the server received is read back from the board
it returned, and must be the true feedback of the guess on the answer."""

import os
import random

import pytest

from selenium.webdriver.common.actions.action_builder import ActionBuilder

from exact.feedback import feedback, parse_pattern
from exact.words import named_lists

from test_serve import browser, server, wait_for  # noqa: F401 (fixtures)

#: answers drawn at random from each list, for each mode: 4 in the suite;
#: ``EXACT_TAP_GAMES=50`` plays the sample docs/serve.md reports
GAMES = int(os.environ.get("EXACT_TAP_GAMES", "4"))
#: seconds between two taps, a quick player's (taps 0 s apart, on three tiles in a row, lost the middle one in
#: Chromium now and then: input no person makes)
TAP_GAP = 0.12
#: list and mode pairs whose opening the server answers at once (a shipped proven tree of the fewest guesses)
SETUPS = [(name, hard) for name in ("original", "nyt2022", "nyt2023") for hard in (False, True)]


#: what the page shows, in one call: the board's length, the status, the next guess, its tiles' colours and centres
SNAPSHOT = """
const tiles = [...document.querySelectorAll("#next .tile")];
return {played: document.querySelectorAll("#board .row").length,
        status: document.getElementById("status").dataset.status || "",
        guess: document.getElementById("next").dataset.guess,
        colours: tiles.map(t => t.dataset.colour),
        centres: tiles.map(t => { const r = t.getBoundingClientRect();
                                  return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]; })};
"""


def snapshot(driver) -> dict:
    return driver.execute_script(SNAPSHOT)


def shown(driver, condition, seconds: float = 10) -> dict:
    """The page's snapshot once ``condition(snapshot)`` holds."""
    return wait_for(driver, lambda d: s if condition(s := snapshot(d)) else None, seconds)


def tap(driver, centres: list[list[int]], colours: list[int]) -> None:
    """Tap each tile of the next guess until it shows its colour (once yellow, twice green, never gray): real
    pointer clicks at the tiles' centres, sent as one sequence of input actions."""
    if not any(colours):
        return
    actions = ActionBuilder(driver, duration=0)  # no pointer travel time between taps
    for (x, y), colour in zip(centres, colours):
        for _ in range(colour):
            actions.pointer_action.move_to_location(x, y)
            actions.pointer_action.click()
            actions.pointer_action.pause(TAP_GAP)
    actions.perform()


def play_by_tapping(driver, answer: str, length: int) -> list[tuple[str, int]]:
    """A whole game of the advised guesses on ``answer``, each colour set by tapping; what the server
    received, read from the board it sent back (the page's ``history``)."""
    driver.find_element("id", "new").click()
    page = shown(driver, lambda s: s["played"] == 0 and s["status"] in ("tree", "proven") and s["guess"])
    while True:
        guess = page["guess"]
        colours = [feedback(guess, answer) // 3 ** i % 3 for i in range(length)]
        assert page["colours"] == [""] * length  # untapped tiles are drawn unset, not gray
        tap(driver, page["centres"], colours)
        assert snapshot(driver)["colours"] == [str(c) if c else "" for c in colours]
        before = page["played"]
        driver.find_element("id", "enter").click()
        page = shown(driver, lambda s: s["played"] == before + 1 and (s["guess"] or s["status"] == "solved"))
        if guess == answer:
            assert page["status"] == "solved"
            return [(w, parse_pattern(c, length)) for w, c in driver.execute_script("return history")]


@pytest.mark.slow
@pytest.mark.parametrize("name, hard", SETUPS)
def test_tapping_the_colours_sends_the_true_feedback(server, browser, name, hard):
    A, _ = named_lists(name)
    answers = random.Random(f"{name} {hard}").sample(A.words, GAMES)
    d = browser
    d.get(server("--list", name, *(["--hard"] if hard else [])))
    wait_for(d, lambda d: d.find_element("id", "status").get_attribute("data-status") in ("tree", "proven"), 60)
    for answer in answers:
        received = play_by_tapping(d, answer, A.length)
        assert received == [(guess, feedback(guess, answer)) for guess, _ in received], answer
        assert received[-1][0] == answer
