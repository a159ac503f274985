"""The driver of every search over first guesses (exact.firstguess), on a toy search: the value of a
word is a number read from it, the threshold the best value so far, a record below the threshold is
only "pruned". Checkpoint, resume, refusals of bad checkpoints, limits, interrupts, Dask."""

from __future__ import annotations

import errno
import json
import os
import signal
from dataclasses import dataclass
from pathlib import Path

import pytest

from exact import firstguess
from exact.errors import ExactError

WORDS = [f"w{i:02d}" for i in range(20)]


def worth(word: str) -> int:
    """A value that is not monotone in the order of the words: (7 i) mod 20, plus 5."""
    return (7 * int(word[1:])) % 20 + 5


def first_to_create(path: str) -> bool:
    """Whether this process created the file (atomically: of two workers racing, one only; a check then a
    write can let both die on a loaded machine, and with them every copy of the scattered search)."""
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


@dataclass
class Toy:
    guess: str
    value: int
    exact: bool


class ToySearch(firstguess.Search):
    FORMAT, KIND, MUST_MATCH = "toy/1", "toy", ("format", "n")

    def __init__(self, n: int = 20, kill_once: str | None = None, stop_at: str | None = None):
        self.n, self.kill_once, self.stop_at = n, kill_once, stop_at

    def header(self) -> dict:
        return {"format": self.FORMAT, "n": self.n}

    def to_json(self, r: Toy) -> dict:
        return {"guess": r.guess, "value": r.value, "exact": r.exact}

    def from_json(self, d: dict) -> Toy:
        if not isinstance(d.get("exact"), bool):
            raise TypeError("exact")
        return Toy(d["guess"], firstguess.whole(d, "value", 5, self.n + 5, " (the floor is 5)"), d["exact"])

    def prepare(self) -> None:
        if self.state is None:
            self.state = os.getpid()

    def evaluate(self, word: str, threshold: int) -> Toy:
        if self.kill_once and first_to_create(self.kill_once):
            os.kill(os.getpid(), signal.SIGKILL)  # this worker dies mid-batch, once
        if word == self.stop_at:
            raise KeyboardInterrupt
        v = worth(word)
        return Toy(word, v, v >= threshold)

    def threshold(self, records) -> int:
        return max((r.value for r in records if r.exact), default=0)

    def tighter(self, a: int, b: int) -> int:
        return max(a, b)

    def summary(self, records) -> str:
        return f"best {self.threshold(records)}"


def values(run) -> dict:
    return {w: r.value for w, r in run.records.items() if r.exact}


def test_checkpoint_written_limited_and_resumed(tmp_path):
    whole = firstguess.drive(ToySearch(), WORDS, progress=False)
    assert set(whole.records) == set(WORDS) and not whole.interrupted and max(values(whole).values()) == 24
    path = tmp_path / "toy.jsonl"
    part = firstguess.drive(ToySearch(), WORDS, checkpoint=path, limit=5, progress=False)
    assert part.limited and len(part.records) == 5 and len(path.read_text().splitlines()) == 6
    with open(path, "a") as f:
        f.write('{"guess": "w0')  # a kill mid-write
    rest = firstguess.drive(ToySearch(), WORDS, resume=path, progress=False)
    assert list(rest.records) == list(part.records) + [w for w in WORDS if w not in part.records]
    assert {w: r.value for w, r in rest.records.items()} == {w: r.value for w, r in whole.records.items()}
    assert values(rest) == values(whole)  # the same threshold after each record: the same records
    assert path.read_text().endswith("}\n") and len(firstguess.read_checkpoint(path, ToySearch())[1]) == 20
    copy = tmp_path / "copy.jsonl"
    firstguess.drive(ToySearch(), WORDS, resume=path, checkpoint=copy, progress=False)
    assert copy.read_text() == path.read_text()


def test_an_existing_checkpoint_is_not_truncated(tmp_path):
    path = tmp_path / "toy.jsonl"
    firstguess.drive(ToySearch(), WORDS, checkpoint=path, limit=2, progress=False)
    before = path.read_text()
    with pytest.raises(ExactError, match="exists and is not empty; go on from it with --resume, or remove it"):
        firstguess.drive(ToySearch(), WORDS, checkpoint=path, progress=False)
    assert path.read_text() == before


@pytest.mark.parametrize("line, message", [
    ({"guess": "w01", "value": 12, "exact": True}, r":3: a second record for 'w01' \(the first is on line 2\)"),
    ({"guess": "zz", "value": 12, "exact": True}, ":3: first guess 'zz' is not in the first guesses"),
    ({"guess": "w02", "value": -1, "exact": True}, r":3: not a first-guess record \(value -1 is outside"),
    ({"guess": "w02", "value": True, "exact": True}, r":3: not a first-guess record \(value True is not an integer"),
    ({"guess": "w02", "value": 12.0, "exact": True}, ":3: not a first-guess record"),
    ({"guess": "w02", "value": 10**40, "exact": True}, "value of 41 digits is outside"),
    ({"guess": "w02", "value": 4, "exact": True}, r"the floor is 5"),
    ({"guess": "w02", "exact": True}, ":3: not a first-guess record"),
])
def test_bad_records_are_refused_in_one_line(tmp_path, line, message):
    path = tmp_path / "toy.jsonl"
    path.write_text(json.dumps({"format": "toy/1", "n": 20}) + "\n"
                    + json.dumps({"guess": "w01", "value": 12, "exact": True}) + "\n" + json.dumps(line) + "\n")
    with pytest.raises(ExactError, match=message) as e:
        firstguess.drive(ToySearch(), WORDS, resume=path, progress=False)
    assert str(path) in str(e.value) and "\n" not in str(e.value)


def test_a_header_of_another_run_or_format_is_refused(tmp_path):
    path = tmp_path / "toy.jsonl"
    firstguess.drive(ToySearch(), WORDS, checkpoint=path, limit=2, progress=False)
    with pytest.raises(ExactError, match=r"toy.jsonl:1: the checkpoint has n 20, this run 30"):
        firstguess.drive(ToySearch(n=30), WORDS, resume=path, progress=False)
    path.write_text('{"format": "other"}\n')
    with pytest.raises(ExactError, match=r"toy.jsonl:1: not a toy checkpoint"):
        firstguess.drive(ToySearch(), WORDS, resume=path, progress=False)


def test_caps_stop_dev_zero_and_long_lines(tmp_path):
    with pytest.raises(ExactError, match="line longer than"):
        firstguess.read_checkpoint("/dev/zero", ToySearch())
    path = tmp_path / "big.jsonl"
    path.write_text(json.dumps({"format": "toy/1", "n": 20, "pad": "x" * 5000}) + "\n")
    with pytest.raises(ExactError, match="big.jsonl:1: line longer than"):
        firstguess.read_checkpoint(path, ToySearch())


def test_an_interrupt_keeps_every_record_done(tmp_path):
    path = tmp_path / "toy.jsonl"
    search = ToySearch(stop_at=WORDS[3])
    search.ABANDONABLE = True
    run = firstguess.drive(search, WORDS, checkpoint=path, progress=False)
    assert run.interrupted and list(run.records) == WORDS[:3]
    assert len(firstguess.read_checkpoint(path, ToySearch())[1]) == 3


def test_a_failed_write_keeps_whole_lines(tmp_path, monkeypatch):
    path = tmp_path / "toy.jsonl"
    book = firstguess.Checkpoint(path, {"format": "toy/1", "n": 20})
    book.append([{"guess": "w00", "value": 5, "exact": True}])
    real = os.write

    def full(fd, data):
        real(fd, data[:7])  # a part of the line, then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(firstguess.os, "write", full)
    with pytest.raises(ExactError, match="cannot append to the checkpoint .No space left on device.") as e:
        book.append([{"guess": "w01", "value": 12, "exact": True}])
    monkeypatch.undo()
    book.close()
    assert "\n" not in str(e.value) and path.read_text().endswith('"exact": true}\n')
    assert len(firstguess.read_checkpoint(path, ToySearch())[1]) == 1


@pytest.mark.slow
def test_dask_two_workers_and_a_killed_worker_give_the_in_process_values(tmp_path):
    pytest.importorskip("distributed", reason="Dask distributed is not installed (pip install -e '.[cluster]')")
    here = firstguess.drive(ToySearch(), WORDS, progress=False)
    path = tmp_path / "dask.jsonl"
    there = firstguess.drive(ToySearch(), WORDS, checkpoint=path, cluster="local", workers=2, batch=3,
                             progress=False)
    assert there.workers == 2 and not there.interrupted
    assert {w: r.value for w, r in there.records.items()} == {w: r.value for w, r in here.records.items()}
    assert max(values(there).values()) == max(values(here).values())
    assert len(firstguess.read_checkpoint(path, ToySearch(), WORDS)[1]) == len(WORDS)
    marker = tmp_path / "killed"
    again = firstguess.drive(ToySearch(kill_once=str(marker)), WORDS, cluster="local", workers=2, batch=3,
                             progress=False)
    assert marker.exists()  # a worker died mid-batch; its batch was redone
    assert {w: r.value for w, r in again.records.items()} == {w: r.value for w, r in here.records.items()}


# --- the forged checkpoints of ../shared/data/forged/README.md: resuming them is refused in one line ------

FORGED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "forged"


def forged(name: str, tmp_path: Path) -> Path:
    if not (FORGED / name).is_file():
        pytest.skip(f"{FORGED / name} is not here (shared test data)")
    copy = tmp_path / name  # a resume appends: never to the shared file
    copy.write_bytes((FORGED / name).read_bytes())
    return copy


def test_a_ranking_checkpoint_with_a_second_record_is_refused(tmp_path):
    from exact.wordle.fewest.ranking import read_first_guesses, rank_first_guesses
    from exact.words import read_words

    path = forged("ranking-checkpoint-duplicate-record.jsonl", tmp_path)
    A, G = read_words(FORGED / "d30.txt"), read_words(FORGED / "d60.txt")
    firsts = read_first_guesses(FORGED / "firsts20.txt", G)
    with pytest.raises(ExactError, match=r":\d+: a second record for '\w+' \(the first is on line \d+\)") as e:
        rank_first_guesses(A, G, firsts=firsts, cutoff=100, top=3, resume=path, progress=False)
    assert "\n" not in str(e.value)


def test_the_lingo_proof_checkpoint_forged_closed_is_refused(tmp_path, root):
    from exact.lingo.proof import run
    from exact.lingo.score import score_guesses
    from exact.words import read_words

    path = forged("lingo-prove-forged-closed.jsonl", tmp_path)
    pool = read_words(root / "instances" / "lingo-ladder" / "answers-random-40-seed0.txt")
    target = score_guesses(pool, ["baron", "tight"]).wins + 1  # the best set known: its branches are not closed
    with pytest.raises(ExactError, match="lingo-prove-forged-closed.jsonl:1: the checkpoint has target 40, this run 41"):
        run(pool, 2, path, target=target, resume=True)


def test_the_forged_closed_branches_resumed_with_a_weaker_best_are_searched_again(tmp_path, root):
    """With a best set of 39 wins the forged header's target (40) matches, and every record claims its
    branch closed at 39; none carries this installation's seal, so each is searched again and the
    bound over every 2-set is the truth (baron tight wins 40), not the forged 39."""
    from exact.lingo.proof import read_checkpoint, run
    from exact.lingo.score import score_guesses
    from exact.words import read_words

    path = forged("lingo-prove-forged-closed.jsonl", tmp_path)
    pool = read_words(root / "instances" / "lingo-ladder" / "answers-random-40-seed0.txt")
    assert score_guesses(pool, ["acute", "bathe"]).wins == 39
    coverage, _ = run(pool, 2, path, target=40, resume=True)
    assert coverage.whole == score_guesses(pool, ["baron", "tight"]).wins == 40
    assert coverage.closed == [] and len(read_checkpoint(path)[1]) == 40  # one record a guess, rewritten


def test_a_closed_branch_is_taken_on_resume_only_under_the_seal(tmp_path):
    from exact.lingo.proof import LingoSearch, header
    from test_lingo_bound import family_pool

    pool = family_pool(28, 5, 7, "abcdefghijklmnopqrst")
    search = LingoSearch(pool, 2, 9, 60.0, 1, False)
    record = search.from_json({"guess": pool.words[0], "bound": 8, "closed": True, "complete": True,
                               "seconds": 0.1, "nodes": 1, "witness": None, "open": False})
    assert not search.trusted(record)  # no seal: written elsewhere or by hand
    written = search.to_json(record)
    reader = LingoSearch(pool, 2, 9, 60.0, 1, False)
    assert reader.trusted(reader.from_json(written))
    edited = LingoSearch(pool, 2, 9, 60.0, 1, False)
    assert not edited.trusted(edited.from_json({**written, "nodes": 2}))
    opened = {**written, "closed": False, "bound": 9, "open": True}
    assert edited.trusted(edited.from_json(opened))  # an open branch claims only its bound
    assert header(pool, 2, 9, 1, 60.0)["target"] == 9


def test_the_best_so_far_is_built_after_an_interrupt_and_a_second_one_skips_it():
    from exact.firstguess import best_so_far

    def interrupted_again():
        raise KeyboardInterrupt

    assert best_so_far(lambda: "tree", True, "salet") == "tree"
    assert best_so_far(interrupted_again, True, "salet") is None
    with pytest.raises(KeyboardInterrupt):  # not after an interrupt: a signal stops the run as always
        best_so_far(interrupted_again, False, "salet")
