"""exact.wordle.study.play and the play commands: functions, then a real pseudo-terminal as a person types."""

import itertools
import os
import sys
import time
from pathlib import Path

import pytest

from exact.feedback import all_green, feedback, format_pattern
from exact.wordle.study.play_defaults import DEFAULT_DEPTH, default_tree
from exact.game.position import word_classes
from exact.wordle.study.fallback import FewestGuesses, complete, guesses_to_solve
from exact.wordle.study.play import Game, ImpossibleFeedback, LiveWins, TreeStrategy, play_answer
from exact.wordle.wins.dp import solve
from exact.errors import ExactError
from exact.game.tree import Tree, replay
from exact.game.formats import read_tree
from exact.words import wordle_answers, words_from_lines

SMALL = wordle_answers().words[:60]


@pytest.fixture(scope="module")
def small():
    return words_from_lines(SMALL, "small")


def brute_fewest(T):
    """cost(T) by trying every candidate guess at every node (no pruning, no memo)."""
    if len(T) == 1:
        return 1
    return min(len(T) + sum(brute_fewest(P) for p, P in word_classes(g, T).items() if p != all_green(len(g)))
               for g in T)


@pytest.mark.parametrize("size,offset", [(3, 0), (5, 40), (6, 100), (7, 7), (8, 300)])
def test_fewest_guesses_matches_brute_force(size, offset):
    # Candidate sets that share letters (consecutive in the sorted list) so that classes are non-trivial.
    T = wordle_answers().words[offset:offset + size]
    fallback = FewestGuesses(wordle_answers().words)
    assert fallback.cost(T) == brute_fewest(T)
    tree = fallback.tree(T)
    steps = guesses_to_solve(tree, T)
    assert sum(steps.values()) == fallback.cost(T) and set(steps) == set(T)


def brute_with_probes(T, guesses):
    """cost(T) trying every candidate and every other guess at every node."""
    if len(T) == 1:
        return 1
    best = None
    for g in list(T) + [g for g in guesses if g not in T]:
        split = word_classes(g, T)
        if len(split) == 1 and g not in T:
            continue  # a guess that learns nothing
        cost = len(T) + sum(brute_with_probes(P, guesses) for p, P in split.items() if p != all_green(len(g)))
        best = cost if best is None else min(best, cost)
    return best


@pytest.mark.slow
@pytest.mark.parametrize("offset", [0, 40, 300, 1000])
def test_fewest_guesses_with_probes_matches_brute_force(offset, monkeypatch):
    import exact.wordle.study.fallback as fallback_module

    monkeypatch.setattr(fallback_module, "PROBES", 10_000)  # every allowed word is a probe: exact over all of them
    words = wordle_answers().words
    T = words[offset:offset + 6]
    guesses = words[offset:offset + 6] + words[2000:2012]
    fallback = FewestGuesses(words, guesses)
    assert fallback.cost(T) == brute_with_probes(T, guesses) <= FewestGuesses(words).cost(T)
    steps = guesses_to_solve(fallback.tree(T), T)
    assert sum(steps.values()) == fallback.cost(T)


@pytest.mark.slow
def test_probes_never_cost_more_and_hard_mode_uses_none():
    from exact.words import wordle_allowed

    A = wordle_answers()
    tree = read_tree(default_tree(False)) if default_tree(False) else None
    if tree is None:
        pytest.skip("the committed tree is absent")
    plain = guesses_to_solve(complete(tree, A.words, FewestGuesses(A.words)), A.words)
    probed = guesses_to_solve(complete(tree, A.words, FewestGuesses(A.words, wordle_allowed().words)), A.words)
    assert sum(probed.values()) <= sum(plain.values())
    assert "only candidates" in Game(TreeStrategy(tree, "t", 3), A).fallback.name


def test_fewest_guesses_splits_into_singletons_when_it_can():
    T = ("caber", "cabin", "cable")
    assert FewestGuesses(T).cost(T) == 2 * len(T) - 1


def test_live_strategy_wins_what_the_dp_proves(small):
    for depth in (2, 3):
        proved = solve(small, small, depth=depth, progress=False)
        game = Game(LiveWins(small, small, depth), small)
        advice = game.advice()
        assert advice.wins == proved.wins
        assert advice.guess in proved.optimal_first


@pytest.mark.slow
def test_every_answer_is_solved_and_counted(small):
    game0 = Game(LiveWins(small, small, 2), small)
    root = game0.advice()
    won = 0
    total = 0
    for answer in small.words:
        turns, solved = play_answer(Game(game0.strategy, small), answer)
        assert solved and turns[-1].pattern == all_green(5) and turns[-1].advice.guess == answer
        assert turns[0].advice.guess == root.guess
        won += len(turns) <= 2
        total += len(turns)
    assert won == root.wins
    assert total / len(small) == pytest.approx(root.expected)


def test_impossible_feedback_is_refused_and_undo_goes_back(small):
    game = Game(LiveWins(small, small, 3), small)
    guess = game.advice().guess
    impossible = next(p for p in range(3**5) if p not in game.possible())
    with pytest.raises(ImpossibleFeedback, match="no candidate answer gives"):
        game.give(impossible)
    assert game.position.played == 0
    pattern = feedback(guess, SMALL[17])
    game.give(pattern)
    assert SMALL[17] in game.position.candidates and game.position.played == 1
    assert game.undo() and game.position.played == 0 and not game.undo()


def test_a_tree_that_stops_is_completed_by_the_fallback(small):
    proved = solve(small, small, depth=1, progress=False)
    lone = Tree(small.words[0], len(small), {})
    full = complete(lone, small.words, FewestGuesses(small.words))
    played = replay(full, small, small, depth=20)
    assert played.wins == len(small) and played.valid
    advice = Game(TreeStrategy(lone, "lone", 1), small).advice()
    assert advice.wins == proved.wins == 1


def test_the_committed_tree_plays_its_certified_value(root):
    path = default_tree(False)
    if path is None:
        pytest.skip("results/wordle/optimal-depth3.* is absent")
    import json

    certificate = json.loads((root / "results/wordle/optimal-depth3-certificate.json").read_text())
    A = wordle_answers()
    game = Game(TreeStrategy(read_tree(path), "committed", DEFAULT_DEPTH), A)
    advice = game.advice()
    assert advice.guess == certificate["optimal_first"][0]
    assert advice.wins == certificate["wins"]


@pytest.mark.slow
def test_play_answer_cli_prints_the_game(run_exact):
    if default_tree(False) is None:
        pytest.skip("the committed tree is absent")
    r = run_exact("wordle", "play", "--list", "original", "--answer", "crane")
    assert r.returncode == 0, r.stderr
    tree = read_tree(default_tree(False))
    lines = r.stdout.splitlines()
    assert lines[0].startswith("list original (2315 answers, 12972 guesses); strategy: objective most wins within 3")
    assert lines[1].split()[1] == tree.guess
    assert lines[-2].startswith("🟩🟩🟩🟩🟩  crane")
    assert "solved in" in lines[-1]
    # The second guess is the tree's child for the feedback of its first guess on crane.
    assert lines[2].split()[1] == tree.children[feedback(tree.guess, "crane")].guess


@pytest.mark.slow
def test_play_answer_outside_the_list_ends_clearly(tmp_path, small, cli, write_lines):
    answers = write_lines(tmp_path / "a.txt", SMALL)
    r = cli("wordle", "play", "--answers", answers, "--guesses", answers, "--depth", "2",
            "--answer", "zesty")
    # Neither an answer nor an allowed guess: one line, before any guess is played (issue 31).
    assert r.returncode == 2 and r.stdout == ""
    assert "--answer 'zesty' is neither an answer" in r.stderr


def test_tree_and_live_options_conflict(tmp_path, cli):
    tree = tmp_path / "t.json"
    from exact.game.formats import write_tree

    write_tree(Tree("cabin", 1, {}), tree)
    r = cli("wordle", "play", "--tree", tree, "--live", "--answer", "cabin")
    assert r.returncode == 2 and "exact: error: --tree plays the tree" in r.stderr


# --- a real terminal -------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]  # the terminal tests run the command from here

pexpect = pytest.importorskip("pexpect", reason="pexpect is needed for the terminal tests")


def spawn(*args):
    child = pexpect.spawn(sys.executable, ["-m", "exact", *map(str, args)], cwd=str(ROOT), encoding="utf-8",
                          timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"},
                          dimensions=(50, 200))
    return child


@pytest.mark.slow
def test_terminal_session_types_feedback_in_every_notation(tmp_path, small, write_lines):
    answers = write_lines(tmp_path / "a.txt", SMALL)
    strategy = LiveWins(small, small, 3)
    answer = SMALL[23]
    child = spawn("wordle", "play", "--answers", answers, "--guesses", answers, "--depth", "3")
    reference = Game(strategy, small)
    notations = itertools.cycle(["letters", "emoji", "digits"])
    first = True
    while True:
        advice = reference.advice()
        guess = advice.guess
        child.expect(f"guess {reference.position.played + 1}: {guess.upper()}")
        if advice.candidates == (guess,):  # the only answer left: no feedback asked
            child.expect("it is the only answer left")
            break
        child.expect(f"feedback for {guess}> ")
        if first:  # a typo, then feedback no candidate gives: both refused, the same guess asked again
            child.sendline("22x")
            child.expect("not understood")
            child.expect(f"feedback for {guess}> ")
            impossible = next(p for p in range(3**5) if p not in reference.possible())
            child.sendline(format_pattern(impossible, 5))
            child.expect("refused: no candidate answer gives")
            child.expect(f"feedback for {guess}> ")
            first = False
        pattern = feedback(guess, answer)
        child.sendline(format_pattern(pattern, 5, next(notations)))
        reference.give(pattern)
        if reference.solved:
            break
    child.expect(r"solved in \d guess")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_terminal_session_with_the_committed_tree_undo_and_quit():
    path = default_tree(False)
    if path is None:
        pytest.skip("the committed tree is absent")
    tree = read_tree(path)
    child = spawn("wordle", "play", "--list", "original")
    child.expect(f"guess 1: {tree.guess.upper()}")
    child.expect("2315 candidates left")
    pattern = feedback(tree.guess, "crane")
    child.sendline(format_pattern(pattern, 5, "rgy"))
    second = tree.children[pattern]
    child.expect(f"guess 2: {second.guess.upper()}")
    child.expect(f"{second.answers} candidates left")
    child.sendline("u")
    child.expect("undone")
    child.expect(f"guess 1: {tree.guess.upper()}")
    other = feedback(tree.guess, "zonal")
    child.sendline(format_pattern(other, 5, "letters"))
    child.expect(f"guess 2: {tree.children[other].guess.upper()}")
    child.sendline("q")
    child.expect("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_terminal_answer_outside_the_list_ends_clearly():
    """A player whose answer is an allowed word the list lacks is told so in one line and plays on over
    every allowed word (issue 31); feedback no allowed word gives is refused, and ! ends the session."""
    path = default_tree(False)
    if path is None:
        pytest.skip("the committed tree is absent")
    outside = "aahed"  # an allowed guess that is not an answer
    assert outside not in wordle_answers().index
    reference = Game(TreeStrategy(read_tree(path), "committed", DEFAULT_DEPTH), wordle_answers())
    child = spawn("wordle", "play", "--list", "original")
    while True:
        guess = reference.advice().guess
        pattern = feedback(guess, outside)
        child.expect(f"feedback for {guess}> ")
        child.sendline(format_pattern(pattern, 5))
        if pattern not in reference.possible():
            break
        reference.give(pattern)
    child.expect("going on over every allowed word")
    child.expect("feedback for [a-z]+> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    child = spawn("wordle", "play", "--list", "original")
    guess = Game(TreeStrategy(read_tree(path), "committed", DEFAULT_DEPTH), wordle_answers()).advice().guess
    child.expect(f"feedback for {guess}> ")
    child.sendline("ggggy")  # four greens and a yellow: no word at all gives it
    child.expect("refused: no candidate answer gives")
    child.expect(f"feedback for {guess}> ")
    child.sendline("!")
    child.expect("the answer is not one of the 2315 answers")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


@pytest.mark.slow
def test_terminal_lingo_session(tmp_path, write_lines):
    pool_words = wordle_answers().words[:300]
    pool = write_lines(tmp_path / "pool.txt", pool_words)
    guesses = [pool_words[i] for i in (3, 120, 250)]
    answer = next(w for w in pool_words if w[0] == "b" and w not in guesses)
    child = spawn("lingo", "play", "--set", " ".join(guesses), "--words", pool)
    child.expect("P\\(win\\) = ")
    child.expect("first letter> ")
    child.sendline("b")
    child.expect("first letter b: ")
    consistent = [w for w in pool_words if w[0] == "b"]
    for i, g in enumerate(guesses):
        child.expect(f"feedback for {g}")
        if i == 0:
            impossible = next(p for p in range(3**5) if all(feedback(g, w) != p for w in consistent))
            child.sendline(format_pattern(impossible, 5))
            child.expect("refused")
            child.expect(f"feedback for {g}")
        pattern = feedback(g, answer)
        child.sendline(format_pattern(pattern, 5, "emoji"))
        consistent = [w for w in consistent if feedback(g, w) == pattern]
        child.expect(f"{len(consistent)} consistent")
    child.expect(f"consistent words \\({len(consistent)}\\): ")
    child.expect(f"P\\(win\\) = 1/{len(consistent)}")
    child.expect(pexpect.EOF)
    child.close()
    assert answer in consistent and child.exitstatus == 0


def test_lingo_play_answer(tmp_path, cli, write_lines):
    pool_words = wordle_answers().words[:300]
    pool = write_lines(tmp_path / "pool.txt", pool_words)
    chosen = ",".join(pool_words[i] for i in (3, 120, 250))
    r = cli("lingo", "play", "--set", chosen, "--words", pool, "--answer", pool_words[5])
    assert r.returncode == 0, r.stderr
    assert f"the answer {pool_words[5]} is" in r.stdout
    r = cli("lingo", "play", "--set", chosen.replace(",", " "), "--words", pool, "--answer", "zzzzz")
    assert r.returncode == 1


@pytest.mark.slow
def test_terminal_ctrl_c_exits_130(tmp_path, write_lines):
    answers = write_lines(tmp_path / "a.txt", SMALL)
    child = spawn("wordle", "play", "--answers", answers, "--guesses", answers, "--depth", "2")
    child.expect("feedback for [a-z]+> ")
    child.sendintr()
    child.expect("interrupted")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


@pytest.mark.slow
def test_terminal_ctrl_c_while_thinking_exits_130_without_an_unproven_guess():
    """A live proof cut short by Ctrl-C is not played on as if proven (it said "[exact fewest guesses, live]"
    and P(win) 100% for the best guess found so far): the game ends with exit 130, as docs/play.md says."""
    child = spawn("wordle", "play", "--list", "nyt2023")
    child.expect("feedback for [a-z]+> ")
    child.sendline("jumpy bbbbg")  # off the tree: 284 answers left, a live proof of about 20 s
    child.expect("thinking")
    time.sleep(2)
    child.sendintr()
    child.expect(pexpect.EOF, timeout=60)
    child.close()
    assert "interrupted" in child.before and "feedback for" not in child.before
    assert child.exitstatus == 130


@pytest.mark.slow
def test_live_plan_on_the_full_lists_replays_to_the_certificate(root):
    import json

    from exact.game.position import start
    from exact.words import wordle_allowed

    certificate = root / "results/wordle/optimal-depth3-certificate.json"
    if not certificate.is_file():
        pytest.skip("the depth-3 certificate is absent")
    wins = json.loads(certificate.read_text())["wins"]
    A, G = wordle_answers(), wordle_allowed()
    plan = LiveWins(A, G, 3, first="trace").plan(start(A))
    played = replay(plan, A, G, depth=3)
    assert played.valid and played.wins == wins


def test_a_probe_that_learns_nothing_is_never_tried(monkeypatch):
    import exact.wordle.study.fallback as fallback_module

    monkeypatch.setattr(fallback_module, "PROBES", 10_000)
    # Six words differing only in the first letter: a probe without those letters makes one class, and
    # guessing candidates one by one costs more than its bound, so it would be reached if allowed.
    T = ("bills", "fills", "hills", "kills", "mills", "pills")
    fallback = FewestGuesses(T, T + ("zonal",))
    assert fallback.cost(T) == brute_with_probes(T, T + ("zonal",))


@pytest.mark.slow
def test_a_player_who_leaves_the_tree_gets_the_exact_dp():
    from exact.words import wordle_allowed

    path = default_tree(False)
    if path is None:
        pytest.skip("the committed tree is absent")
    A, G = wordle_answers(), wordle_allowed()
    rescue = LiveWins(A, G, DEFAULT_DEPTH, name="rescue")
    game = Game(TreeStrategy(read_tree(path), "tree", DEFAULT_DEPTH), A, guesses=G, rescue=rescue)
    with pytest.raises(ExactError, match="not an allowed guess"):
        game.give(0, "zzzzz")
    game.give(feedback("salet", "chick"), "salet")
    advice = game.advice()
    assert advice.source == "rescue"
    T = words_from_lines(game.position.candidates, "class")
    assert advice.wins == solve(T, G, depth=2, progress=False).wins
    assert advice.guess in solve(T, G, depth=2, progress=False).optimal_first


def test_hard_mode_refuses_a_word_that_breaks_the_rule(small):
    game = Game(LiveWins(small, small, 3, hard=True), small, guesses=small, hard=True)
    guess = game.advice().guess
    answer = next(a for a in SMALL if feedback(guess, a) not in (0, all_green(5)) and a != guess)
    game.give(feedback(guess, answer))
    from exact.game.hard import is_allowed

    breaking = next(w for w in SMALL if not is_allowed(w, game.position.history))
    with pytest.raises(ExactError, match="hard-mode rule"):
        game.give(0, breaking)


@pytest.mark.slow
def test_terminal_another_word_played():
    if default_tree(False) is None:
        pytest.skip("the committed tree is absent")
    child = spawn("wordle", "play", "--list", "original")
    child.expect("feedback for [a-z]+> ")
    child.sendline("salet " + format_pattern(feedback("salet", "chick"), 5, "emoji"))
    child.expect("salet")
    child.expect("guess 2: [A-Z]+ +\\[exact DP, live \\(off the tree\\)")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_play_defaults_to_todays_list_and_its_fewest_guesses_tree(cli):
    """`exact wordle play --answer booed`: a real answer of today's game (not among the 2315), played
    to the end with the committed proven tree for nyt2023; the first line names list and objective."""
    from exact.wordle.study.play_defaults import list_tree
    from exact.words import named_lists

    committed = list_tree("nyt2023", False)
    if committed is None:
        pytest.skip("the committed nyt2023 tree is absent")
    assert "booed" in named_lists("nyt2023")[0].index and "booed" not in wordle_answers().index
    r = cli("wordle", "play", "--answer", "booed")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("list nyt2023 (3158 answers, 14855 guesses); strategy: objective fewest guesses")
    tree = read_tree(committed.path)
    assert lines[1].split()[1] == tree.guess == "tarse"
    assert lines[-2].startswith("🟩🟩🟩🟩🟩  booed")
    assert lines[-1].startswith("solved in") and "(a win)" in lines[-1]


def test_play_refuses_a_tree_made_on_other_lists(tmp_path, cli):
    from exact.game.tree import Tree, record_lists
    from exact.game.formats import write_tree
    from exact.words import named_lists

    path = tmp_path / "t.graphml"
    write_tree(record_lists(Tree("tarse", 3158, {}), *named_lists("nyt2023")), path)
    r = cli("wordle", "play", "--list", "original", "--tree", path, "--answer", "crane")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        f"exact: error: {path} was made on list nyt2023 (3158 answers, 14855 guesses), not on list original "
        f"(2315 answers, 12972 guesses): choose its lists (--list nyt2023)"]


def test_live_fewest_guesses_rescues_a_player_off_the_tree(small):
    """LiveGuesses plans the proven fewest-guesses tree at any position (checked against the solver)."""
    from exact.game.position import after, start
    from exact.wordle.study.play import LiveGuesses
    from exact.wordle.fewest.search import solve_guesses

    A = small
    live = LiveGuesses(A, A, 6)
    position = after(start(A), A.words[0], feedback(A.words[0], A.words[7]))
    plan = live.plan(position)
    proven = solve_guesses(A, A, after=position.history, progress=False)
    assert plan.guess == proven.tree.guess
    steps = guesses_to_solve(plan, position.candidates)
    assert sum(steps.values()) + position.played * len(position.candidates) == proven.total  # total counts the guess played


def test_the_record_says_1_candidate_without_a_stray_space():
    from exact.feedback import feedback
    from exact.game.tree import Tree
    from exact.wordle.study.play import Game, TreeStrategy, game_record
    from exact.words import words_from_lines

    A = words_from_lines(["caber", "cabin", "cable"])
    tree = Tree("cabin", 3, {feedback("cabin", "cable"): Tree("cable", 2, {feedback("cable", "caber"): Tree("caber", 1)})})
    lines, solved = game_record(Game(TreeStrategy(tree, "demo", depth=3), A), "caber", "digits")
    assert solved
    assert "    1 candidate,  P(win" in lines[2] and "candidate ," not in "\n".join(lines)
    assert "    3 candidates, P(win" in lines[0]


@pytest.mark.slow
def test_the_last_only_candidate_needs_no_feedback(run_exact, tmp_path, write_lines):
    words = write_lines(tmp_path / "w.txt", ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
    from exact.wordle.study.play import LiveGuesses

    A = words_from_lines(["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade"])
    game = Game(LiveGuesses(A, A, 6), A, guesses=A)
    typed = []
    while True:
        advice = game.advice()
        if advice.candidates == (advice.guess,):
            break
        pattern = feedback(advice.guess, "blush")
        typed.append(format_pattern(pattern, 5))
        game.give(pattern)
    r = run_exact("wordle", "play", "--answers", words, "--guesses", words, "--objective", "guesses", "--depth", "6",
                  input="\n".join(typed) + "\n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[-1] == f"it is the only answer left: solved in {len(typed) + 1} guesses (a win)"
    assert r.stdout.count("feedback for") == len(typed)
    assert len(lines[1]) < 130  # the opening help line is short
