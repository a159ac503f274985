"""`exact wordle verify CERTIFICATE` (exact.wordle.certificate): every claim of a Wordle certificate that
can be re-derived here is, and what cannot is said; an edited certificate is REJECTED."""

import json
from pathlib import Path

import pytest

from exact.wordle.certificate import verify_certificate
from exact.words import wordle_allowed, wordle_answers

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def made(tmp_path_factory, ):
    """Certificates of the three kinds on a reduced instance, written by the real command."""
    import subprocess
    import sys

    folder = tmp_path_factory.mktemp("certs")
    A = [w for w in wordle_answers().words if w[1:] in ("ight", "atch", "ound", "ower")]
    G = sorted(set(A) | set(wordle_allowed().words[::400][:40]))
    (folder / "a.txt").write_text("\n".join(A) + "\n")
    (folder / "g.txt").write_text("\n".join(G) + "\n")
    lists = ["--answers", str(folder / "a.txt"), "--guesses", str(folder / "g.txt")]

    def solve(*args):
        r = subprocess.run([sys.executable, "-m", "exact", "wordle", "solve", *lists, *args], capture_output=True,
                           text=True, timeout=600, cwd=folder)
        assert r.returncode == 0, r.stderr[-500:]

    solve("--depth", "3", "--certificate", "depth.json", "--out", "depth.txt")
    solve("--objective", "guesses", "--certificate", "objective.json", "--out", "objective.txt")
    solve("--depth", "3", "--checkpoint", "run.jsonl", "--batch", "4", "--certificate", "global.json")
    solve("--objective", "win3,guesses", "--certificate", "win3.json", "--out", "win3.txt")
    solve("--objective", "feasible", "--max-guesses", "5", "--certificate", "feasible.json", "--out", "feasible.txt")
    solve("--objective", "guesses", "--first", "all", "--top", "3", "--certificate", "ranking.json",
          "--out", "ranking.txt")
    solve("--objective", "feasible", "--first", "all", "--max-guesses", "2", "--certificate", "none2.json")
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("name", ["depth", "objective", "global", "win3", "feasible", "ranking", "none2"])
def test_certificates_of_each_kind_verify(made, name, run_exact):
    v = verify_certificate(made / f"{name}.json")
    assert v.ok and not v.unconfirmed, v.checks
    r = run_exact("wordle", "verify", made / f"{name}.json")
    assert r.returncode == 0 and r.stdout.strip().endswith("verified"), r.stdout + r.stderr


def edited(made, tmp_path, name, edit):
    data = json.loads((made / f"{name}.json").read_text())
    edit(data)
    for key in ("answers", "guesses"):
        data[key]["source"] = str(made / Path(data[key]["source"]).name)
    if "tree" in data:
        data["tree"]["files"] = [str(made / Path(f).name) for f in data["tree"]["files"]]
    (tmp_path / f"{name}.json").write_text(json.dumps(data))
    return tmp_path / f"{name}.json"


def in_progress(d):
    """The global certificate of a run stopped before its last first guess (a pruned one)."""
    i = next(i for i, r in enumerate(d["first_guess_outcomes"]) if not r["exact"])
    d["first_guess_outcomes"].pop(i)
    d.update(status="FEASIBLE", open=1, first_guesses_resolved=d["first_guesses_resolved"] - 1,
             first_guesses_pruned=d["first_guesses_pruned"] - 1)


def bump_wins(d):
    d["wins"] += 1
    d["probability"] = d["wins"] / d["n"]
    d["top"][0]["wins"] += 1


def swap_top(d):
    d["top"][0], d["top"][1] = d["top"][1], d["top"][0]


def prune_above(d):
    pruned = next(r for r in d["first_guess_outcomes"] if not r["exact"])
    pruned["value"] = d["wins"] + 1


@pytest.mark.slow
@pytest.mark.parametrize("name, edit, failing", [
    ("depth", bump_wins, {"tree", "optimal"}),
    ("depth", swap_top, {"top"}),
    ("depth", lambda d: d["answers"].update(sha256="0" * 64), {"answers"}),
    ("depth", lambda d: d.update(probability=0.5), {"probability"}),
    ("objective", lambda d: d.update(total=d["total"] - 1), {"wins_at", "tree", "optimal", "mean"}),
    ("objective", lambda d: d.update(cost=d["cost"] - 1, lower_bound=d["cost"] - 1), {"cost", "lower bound"}),
    ("win3", lambda d: d.update(cost=d["cost"] + 1), {"cost"}),
    ("feasible", lambda d: d.update(max_guesses=2), {"tree", "cost", "lower bound"}),
    ("ranking", lambda d: d["first_guesses"].update({d["best"]["guess"]: {"total": d["best"]["total"] - 1}}),
     {"best", "top values", "optimal"}),
    ("ranking", lambda d: d["first_guesses"].pop(d["best"]["guess"]), {"first guesses", "best", "top values",
                                                                       "proven top", "optimal"}),
    ("ranking", lambda d: d.update(least_bound=d["least_bound"] + 1), {"least bound"}),
    ("none2", lambda d: d.update(status="OPTIMAL"), {"proven top", "optimal"}),
    ("global", prune_above, {"pruned"}),
    ("global", lambda d: d["first_guess_outcomes"].pop(), {"first guesses", "counts"}),
    ("global", lambda d: d.update(optimal_first=["zzzzz"]), {"best", "top"}),
])
def test_an_edited_certificate_is_rejected(made, tmp_path, name, edit, failing, run_exact):
    path = edited(made, tmp_path, name, edit)
    v = verify_certificate(path)
    assert {n for n, o, _ in v.checks if o == "FAIL"} == failing, v.checks
    r = run_exact("wordle", "verify", path)
    assert r.returncode == 1 and r.stdout.strip().endswith("REJECTED")


@pytest.mark.slow
def test_the_committed_certificate_with_edited_wins_is_rejected(tmp_path, run_exact):
    """The issue's case: optimal-depth3-certificate.json with its wins edited was refused as 'not node-link JSON'."""
    data = json.loads((ROOT / "results" / "wordle" / "optimal-depth3-certificate.json").read_text())
    data["wins"] = 1400
    data["tree"]["files"] = [str(ROOT / f) for f in data["tree"]["files"] if f.endswith(".txt")]
    for key in ("answers", "guesses"):
        data[key]["source"] = str(ROOT / data[key]["source"])
    (tmp_path / "c.json").write_text(json.dumps(data))
    r = run_exact("wordle", "verify", "--resolve-time", "1", tmp_path / "c.json")
    assert r.returncode == 1 and "REJECTED" in r.stdout
    assert "replayed from scratch: 1388 / 2315 within 3, valid True; claimed 1400" in r.stdout


@pytest.mark.slow
def test_an_optimum_not_re_derived_in_time_is_not_verified_unless_partial(tmp_path, run_exact):
    data = json.loads((ROOT / "results" / "wordle" / "optimal-depth3-certificate.json").read_text())
    data["tree"]["files"] = [str(ROOT / f) for f in data["tree"]["files"] if f.endswith(".txt")]  # one replay
    for key in ("answers", "guesses"):
        data[key]["source"] = str(ROOT / data[key]["source"])
    cert = tmp_path / "c.json"
    cert.write_text(json.dumps(data))
    v = verify_certificate(cert, resolve_time=0.0)
    assert not v.ok and v.unconfirmed == ["optimal"] and not v.failed
    r = run_exact("wordle", "verify", "--resolve-time", "0", "--partial", cert)
    assert r.returncode == 0 and "partly verified" in r.stdout
    r = run_exact("wordle", "verify", "--resolve-time", "0", cert)
    assert r.returncode == 1 and "NOT VERIFIED: optimal" in r.stdout


def test_the_ranking_format_is_the_one_the_ranking_writes():
    from exact.wordle.certificate import RANKING_FORMAT
    from exact.wordle.fewest.ranking import FORMAT

    assert RANKING_FORMAT == FORMAT


@pytest.mark.parametrize("name", ["ranking-guesses-certificate.json", "ranking-guesses-hard-certificate.json"])
def test_the_committed_rankings_verify(name):
    v = verify_certificate(ROOT / "results" / "wordle" / name)
    assert v.ok and not v.unconfirmed, v.checks
    assert {n for n, _, _ in v.checks} >= {"first guesses", "best", "top values", "proven top", "tree", "optimal"}


@pytest.mark.slow
def test_the_certificate_of_a_run_in_progress_is_not_rejected(made, tmp_path):
    """A global search stopped before the end (status FEASIBLE, some first guesses open) claims only
    what it has resolved; with every first guess asked for and the status OPTIMAL it is rejected."""
    v = verify_certificate(edited(made, tmp_path, "global", in_progress))
    assert not [c for c in v.checks if c[1] == "FAIL"] and ("first guesses", "ok") in [c[:2] for c in v.checks]

    def claimed_complete(d):
        in_progress(d)
        d["status"] = "OPTIMAL"

    v = verify_certificate(edited(made, tmp_path, "global", claimed_complete))
    assert "first guesses" in {n for n, o, _ in v.checks if o == "FAIL"}
