"""`exact wordle verify` re-derives every record of a ranking or global certificate (exact.wordle.rederive):
the forged certificates of ../shared/data/forged are REJECTED, and on small instances every mutation of a
record that makes a claim false is REJECTED while the true certificate verifies."""

import copy
import gzip
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from exact.errors import ExactError
from exact.wordle.certificate import verify_certificate
from exact.wordle.fewest.memo import INF
from exact.words import read_words, wordle_allowed, wordle_answers

ROOT = Path(__file__).resolve().parents[1]
FORGED = ROOT.parent / "shared" / "data" / "forged"


def forged(name: str) -> Path:
    if not (FORGED / name).is_file():
        pytest.skip(f"{FORGED / name} is not here (shared test data)")
    return FORGED / name


# --- the forged certificates ------------------------------------------------------------------------

@pytest.mark.slow
def test_the_forged_ranking_best_reast_is_rejected(cli):
    r = cli("wordle", "verify", forged("forged-ranking-best-reast.json"), cwd=ROOT)
    assert r.returncode == 1 and r.stdout.strip().endswith("REJECTED"), r.stdout[-2000:] + r.stderr[-2000:]
    assert "salet: claimed at least 7951 (rejected), re-derived exact 7920" in r.stdout


@pytest.mark.slow
def test_the_forged_depth4_optimum_2290_is_rejected(cli, tmp_path):
    cert = tmp_path / "forged-depth4.json"
    cert.write_bytes(gzip.decompress(forged("forged-depth4-optimum-2290.json.gz").read_bytes()))
    r = cli("wordle", "verify", cert, cwd=ROOT)
    assert r.returncode == 1 and r.stdout.strip().endswith("REJECTED"), r.stdout[-2000:] + r.stderr[-2000:]
    assert "claimed pruned with bound" in r.stdout and "re-derived exact" in r.stdout


@pytest.mark.slow
def test_a_sample_is_partly_verified_never_verified(cli):
    """A sample of the committed salet ranking's records: "partly verified (N of M ...)", exit 1 unless --partial."""
    cert = ROOT / "results" / "wordle" / "ranking-guesses-hard-certificate.json"
    r = cli("wordle", "verify", "--sample", "2", cert, cwd=ROOT)
    assert r.returncode == 1 and "partly verified (2 of 12972 records re-derived)" in r.stdout, r.stdout[-1500:]
    r = cli("wordle", "verify", "--sample", "2", "--partial", cert, cwd=ROOT)
    assert r.returncode == 0 and "partly verified (2 of 12972 records re-derived)" in r.stdout


@pytest.mark.parametrize("name, what", [("results/lingo/allowed-first-20.json", "a Lingo result"),
                                        ("results/wordle/memorable-opener-m1.json", "a memorable-opener study")])
def test_another_result_is_named_in_one_line(cli, name, what):
    code, out, err = cli("wordle", "verify", ROOT / name)
    assert code == 2 and what in err and len(err.strip().splitlines()) == 1, (code, out, err)


def test_a_card_is_named_in_one_line(cli, tmp_path):
    card = tmp_path / "card.json"
    card.write_text(json.dumps({"format": "exact wordle card", "first": "crane", "M": 1, "wins": 1, "bound": 1}))
    code, out, err = cli("wordle", "verify", card)
    assert code == 2 and "a memorable card" in err, (code, out, err)


# --- the small certificates, made by the real command ----------------------------------------------------

@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A fewest-guesses ranking (top 3) and a global depth-3 certificate on 24 answers x 48 guesses,
    with the truth: every first guess's exact value under each."""
    from exact.cli import main
    from click.testing import CliRunner

    folder = tmp_path_factory.mktemp("rederive")
    A = [w for w in wordle_answers().words if w[1:] in ("ight", "atch", "ound", "ower", "aste")][:24]
    G = sorted(set(A) | set(wordle_allowed().words[::500][:24]))
    (folder / "a.txt").write_text("\n".join(A) + "\n")
    (folder / "g.txt").write_text("\n".join(G) + "\n")
    lists = ["--answers", str(folder / "a.txt"), "--guesses", str(folder / "g.txt")]
    for args in (["--objective", "guesses", "--top", "3", "--certificate", str(folder / "ranking.json"),
                  "--out", str(folder / "ranking.txt")],
                 ["--depth", "3", "--certificate", str(folder / "global.json"), "--out", str(folder / "global.txt")]):
        r = CliRunner().invoke(main, ["wordle", "rank", *lists, *args])
        assert r.exit_code == 0, r.output
    return folder, truth(read_words(folder / "a.txt"), read_words(folder / "g.txt"))


def truth(A, G) -> dict:
    """Every first guess's exact fewest-guesses total and exact wins within 3 (no threshold)."""
    import numpy as np

    from exact.game.hard import no_constraint
    from exact.wordle.fewest.ranking import rank_first_guesses
    from exact.wordle.wins import dp

    fewest = dict(rank_first_guesses(A, G, top=len(G), progress=False, tree=False).exact)
    search = dp.Search(dp.make_wins_instance(A, G, False))
    T = np.arange(len(A), dtype=np.int64)
    wins = {w: search.value(G.index[w], T, 3, no_constraint(A.length), 0)[0] for w in G.words}
    return {"fewest": fewest, "wins": wins}


def test_the_true_certificates_verify(made):
    folder, _ = made
    for name in ("ranking", "global"):
        v = verify_certificate(folder / f"{name}.json")
        assert v.ok and not v.unconfirmed, v.checks
        assert ("re-derived", "ok") in [c[:2] for c in v.checks]


@pytest.mark.parametrize("name", ["ranking", "global"])
def test_a_check_spans_runs_through_a_sealed_checkpoint(made, name, tmp_path):
    """--checkpoint writes each re-derived record sealed; --resume takes the sealed ones of the same
    certificate as they stand (and judges them again), re-derives an edited one, and refuses another
    certificate's checkpoint."""
    folder, _ = made
    cert, book = folder / f"{name}.json", tmp_path / "check.jsonl"
    first = verify_certificate(cert, checkpoint=book)
    assert first.ok and not first.unconfirmed, first.checks
    lines = book.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "exact-verify-checkpoint/1" and all('"seal"' in x for x in lines[1:])
    again = verify_certificate(cert, resume=book)
    said = dict((c[0], c[2]) for c in again.checks)["re-derived"]
    assert again.ok and f"{len(lines) - 1} of them re-derived by an earlier run" in said, said
    record = json.loads(lines[1])
    value = "total" if "total" in record else "value" if "value" in record else "at_least"
    lines[1] = json.dumps({**record, value: record[value] + 1})  # an edit breaks the seal: re-derived, not taken
    book.write_text("\n".join(lines) + "\n")
    edited = verify_certificate(cert, resume=book)
    said = dict((c[0], c[2]) for c in edited.checks)["re-derived"]
    assert edited.ok and f"{len(lines) - 2} of them re-derived by an earlier run" in said, said
    moved = tmp_path / "edited-certificate.json"
    moved.write_text(cert.read_text() + "\n")  # the same claims, other bytes: another certificate
    with pytest.raises(ExactError, match="certificate_sha256"):
        verify_certificate(moved, resume=book)


def test_a_checkpoint_is_refused_for_a_certificate_solved_in_one_run(tmp_path):
    with pytest.raises(ExactError, match="--checkpoint and --resume are for rankings"):
        verify_certificate(ROOT / "results" / "wordle" / "salet-guesses-certificate.json", checkpoint=tmp_path / "c")


def write(folder: Path, data: dict, name: str) -> Path:
    path = folder / f"mutated-{name}.json"
    path.write_text(json.dumps(data))
    return path


def recount_ranking(data: dict, folder: Path) -> dict:
    """The fields derived from the records, recounted by the library's own Ranking (the strongest forger)."""
    from exact.wordle.fewest.ranking import FirstValue, Ranking

    A, G = read_words(folder / "a.txt"), read_words(folder / "g.txt")
    values = {w: FirstValue(w, r.get("total", r.get("at_least")), "total" in r, 0.0, "") for w, r in
              data["first_guesses"].items()}
    ranking = Ranking(A, G, data["hard"], data["max_guesses"], data["cutoff"], data["top"], values, list(values), 0.0, 1)
    fresh = ranking.to_json()
    keep = {k: data[k] for k in ("tree", "kind", "answers", "guesses") if k in data}
    return {**fresh, **keep}


def ranking_false(data: dict, true: dict) -> bool:
    """Whether a ranking certificate claims something false: an exact value not the truth, an exact value
    above the cutoff, a bound "at least b" above the truth or below the ranking's floor (cutoff + 1, or the
    top-th exact value: a bound below it does not settle the ranking), or a best other than the tree's."""
    records = data["first_guesses"]
    exact = sorted(r["total"] for r in records.values() if "total" in r)
    if any("total" in r and r["total"] != true[w] for w, r in records.items()):
        return True
    cutoff, top = data["cutoff"], data["top"]
    if cutoff is not None and exact and exact[-1] > cutoff:
        return True
    floor = int(INF) if cutoff is None else cutoff + 1
    if len(exact) >= top:
        floor = min(floor, exact[top - 1])
    if any("at_least" in r and not floor <= r["at_least"] <= true[w] for w, r in records.items()):
        return True
    return (data["best"] or {}).get("guess") != data["tree"]["guess"]


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["value", "to_bound", "to_exact", "swap", "cutoff", "top", "bound"]), i=st.integers(0, 10**6),
       j=st.integers(0, 10**6), d=st.integers(-3, 3).filter(bool))
def test_a_mutated_ranking_is_rejected_exactly_when_it_claims_something_false(made, kind, i, j, d):
    folder, true = made
    data = json.loads((folder / "ranking.json").read_text())
    records = data["first_guesses"]
    words = sorted(records)
    exact = [w for w in words if "total" in records[w]]
    bounded = [w for w in words if "at_least" in records[w]]
    if kind == "value":
        w = exact[i % len(exact)]
        records[w]["total"] += d
    elif kind == "to_bound":
        w = exact[i % len(exact)]
        records[w] = {"at_least": records[w]["total"] + abs(d)}
    elif kind == "to_exact":
        w = bounded[i % len(bounded)]
        records[w] = {"total": records[w]["at_least"]}
    elif kind == "swap":
        a, b = words[i % len(words)], words[j % len(words)]
        records[a], records[b] = records[b], records[a]
    elif kind == "cutoff":
        data["cutoff"] = max(0, exact and max(records[w]["total"] for w in exact) + d)
    elif kind == "bound":  # raised past the truth (false) or lowered towards the floor (true until below it)
        w = bounded[i % len(bounded)]
        records[w]["at_least"] += d * (1 + j % 20)
    else:
        data["top"] = max(1, data["top"] + d)
    mutated = recount_ranking(data, folder)
    v = verify_certificate(write(folder, mutated, "ranking"))
    assert v.failed == ranking_false(mutated, true["fewest"]), (kind, v.checks)
    assert v.failed or v.ok, v.checks


def recount_global(data: dict, folder: Path) -> dict:
    """The global certificate's derived fields recounted by the library's own summary."""
    from exact.partitions import feedback_matrix
    from exact.wordle.wins.ranking import Outcome, first_guess_order, summarize

    A, G = read_words(folder / "a.txt"), read_words(folder / "g.txt")
    outcomes = [Outcome.from_json(r, len(A)) for r in data["first_guess_outcomes"]]
    order = first_guess_order(A, G, feedback_matrix(G, A))
    fresh = summarize(A, G, data["depth"], data["hard"], outcomes, order, 0.0, 1, "test", False).to_json()
    return {**fresh, **{k: data[k] for k in ("tree", "kind", "answers", "guesses") if k in data}}


def global_false(data: dict, true: dict) -> bool:
    """Whether a global certificate claims something false: an exact value not the truth, a guess
    pruned with a bound "at most b" below its truth or not below the optimum, a first guess twice, or
    missing from an OPTIMAL one (a run in progress, FEASIBLE, claims only what it resolved), a tree not
    of the best."""
    outcomes = data["first_guess_outcomes"]
    guesses = [r["guess"] for r in outcomes]
    if len(set(guesses)) < len(guesses) or (data["status"] == "OPTIMAL" and sorted(guesses) != sorted(true)):
        return True
    if any(r["exact"] and r["value"] != true[r["guess"]] for r in outcomes):
        return True
    if any(not r["exact"] and not true[r["guess"]] <= r["value"] < data["wins"] for r in outcomes):
        return True
    return data["tree"]["first"] not in data["optimal_first"]


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["value", "to_pruned", "to_exact", "swap", "drop", "duplicate", "threshold", "bound"]),
       i=st.integers(0, 10**6), j=st.integers(0, 10**6), d=st.integers(-3, 3).filter(bool))
def test_a_mutated_global_certificate_is_rejected_exactly_when_it_claims_something_false(made, kind, i, j, d):
    folder, true = made
    data = json.loads((folder / "global.json").read_text())
    outcomes = data["first_guess_outcomes"]
    exact = [r for r in outcomes if r["exact"]]
    pruned = [r for r in outcomes if not r["exact"]]
    if kind == "value":
        r = exact[i % len(exact)]
        r["value"] = max(0, min(data["n"], r["value"] + d))
    elif kind == "to_pruned":
        r = exact[i % len(exact)]
        r.update(exact=False, value=max(0, r["value"] - abs(d)), threshold=r["value"])
    elif kind == "to_exact" and pruned:
        pruned[i % len(pruned)]["exact"] = True
    elif kind == "swap":
        a, b = outcomes[i % len(outcomes)], outcomes[j % len(outcomes)]
        a["guess"], b["guess"] = b["guess"], a["guess"]
    elif kind == "drop":
        outcomes.pop(i % len(outcomes))
    elif kind == "duplicate":
        outcomes.append(copy.deepcopy(outcomes[i % len(outcomes)]))
    elif kind == "threshold" and pruned:
        r = pruned[i % len(pruned)]
        r["threshold"] = min(data["n"], max(r["value"] + 1, r["threshold"] + d))
    elif kind == "bound" and pruned:  # lowered past the truth (false), or raised (true until it reaches the optimum)
        r = pruned[i % len(pruned)]
        r["value"] = max(0, min(data["n"] - 1, r["value"] + d * (1 + j % 4)))
        r["threshold"] = max(r["threshold"], r["value"] + 1)
    mutated = recount_global(data, folder)
    v = verify_certificate(write(folder, mutated, "global"))
    assert v.failed == global_false(mutated, true["wins"]), (kind, v.checks)


def test_a_global_search_in_progress_listing_no_tree_verifies_whole(made):
    """A global depth-k certificate of a run in progress (FEASIBLE: its first first guesses) that lists no
    tree: its best value so far is re-derived with its records, so it is "verified", not partly; the
    same with that best value raised by one is rejected."""
    folder, _ = made
    data = json.loads((folder / "global.json").read_text())
    data["first_guess_outcomes"] = data["first_guess_outcomes"][:8]
    del data["tree"]
    started = recount_global(data, folder)
    assert started["status"] == "FEASIBLE" and "tree" not in started
    v = verify_certificate(write(folder, started, "global-started"))
    assert v.ok and not v.unconfirmed, v.checks
    best = max((r for r in started["first_guess_outcomes"] if r["exact"]), key=lambda r: r["value"])
    best["value"] += 1
    forged = recount_global(started, folder)
    assert not verify_certificate(write(folder, forged, "global-forged")).ok


def test_each_ranking_bound_is_re_derived_as_stated(made):
    """A bound "at least b" is re-derived against b itself: raised one past the truth it is REJECTED (the old
    check, against the run's threshold, verified it), at the truth it verifies, below the floor the ranking
    needs it is REJECTED by the check "bounds"."""
    folder, true = made
    data = json.loads((folder / "ranking.json").read_text())
    records = data["first_guesses"]
    w = max((w for w in records if "at_least" in records[w]), key=lambda w: true["fewest"][w] - records[w]["at_least"])
    outcome = {}
    for name, b in (("above", true["fewest"][w] + 1), ("far above", true["fewest"][w] + 999), ("true", true["fewest"][w])):
        records[w] = {"at_least": b}
        v = verify_certificate(write(folder, recount_ranking(data, folder), "ranking-bound"))
        outcome[name] = v.ok, dict((c[0], c[1]) for c in v.checks)
    assert outcome["above"][0] is False and outcome["above"][1]["re-derived"] == "FAIL", outcome
    assert outcome["far above"][0] is False and outcome["far above"][1]["re-derived"] == "FAIL", outcome
    assert outcome["true"][0] is True, outcome
    exact = sorted(r["total"] for r in records.values() if "total" in r)
    records[w] = {"at_least": min(data["cutoff"] + 1 if data["cutoff"] is not None else INF, exact[data["top"] - 1]) - 1}
    v = verify_certificate(write(folder, recount_ranking(data, folder), "ranking-low"))
    assert ("bounds", "FAIL") in [c[:2] for c in v.checks], v.checks


def test_each_pruned_bound_is_re_derived_as_stated(made):
    """A pruned bound "at most b" is re-derived against b + 1: lowered one below the truth it is REJECTED
    (the old check, against the optimum, verified it), at the truth it verifies."""
    folder, true = made
    data = json.loads((folder / "global.json").read_text())
    pruned = [r for r in data["first_guess_outcomes"] if not r["exact"]]
    r = max(pruned, key=lambda r: true["wins"][r["guess"]])
    assert true["wins"][r["guess"]] >= 1
    verdicts = {}
    for name, b in (("below", true["wins"][r["guess"]] - 1), ("far below", 0), ("true", true["wins"][r["guess"]])):
        r["value"] = b
        v = verify_certificate(write(folder, recount_global(data, folder), "global-bound"))
        verdicts[name] = v.ok, dict((c[0], c[1]) for c in v.checks)
    assert verdicts["below"][0] is False and verdicts["below"][1]["re-derived"] == "FAIL", verdicts
    assert verdicts["far below"][0] is False and verdicts["far below"][1]["re-derived"] == "FAIL", verdicts
    assert verdicts["true"][0] is True, verdicts


# --- verify's smaller faults -----------------------------------------------------------------------------

def test_wins_above_the_answer_count_fail_the_probability(made):
    """A forged wins above n (and its probability wins / n, 297.6 here) is no probability: FAIL, never "ok"."""
    folder, _ = made
    data = json.loads((folder / "global.json").read_text())
    data["wins"] = round(297.6498 * data["n"])
    data["probability"] = data["wins"] / data["n"]
    v = verify_certificate(write(folder, data, "global-wins-above-n"))
    outcomes = dict((c[0], c[1]) for c in v.checks)
    assert outcomes["probability"] == "FAIL" and outcomes["wins"] == "FAIL" and not v.ok, v.checks


def test_no_ok_optimum_beside_a_failed_re_derivation(made):
    """A global certificate whose re-derivation FAILs says nothing "ok" of the optimum resting on it."""
    folder, true = made
    data = json.loads((folder / "global.json").read_text())
    r = max((r for r in data["first_guess_outcomes"] if not r["exact"]), key=lambda r: true["wins"][r["guess"]])
    r["value"] = true["wins"][r["guess"]] - 1
    v = verify_certificate(write(folder, recount_global(data, folder), "global-premise"))
    outcomes = dict((c[0], c[1]) for c in v.checks)
    assert outcomes["re-derived"] == "FAIL" and outcomes["optimal"] != "ok", v.checks


@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_while_records_are_re_derived_exits_130_or_143(made, cli, monkeypatch, signum, code):
    """In process: the signal arrives during the third record's re-derivation (sent from inside the search)."""
    from exact.wordle.wins.ranking import WinsSearch

    folder, _ = made
    evaluate, calls = WinsSearch.evaluate, []

    def signalled(self, word, threshold):
        calls.append(word)
        if len(calls) == 3:
            os.kill(os.getpid(), signum)
        return evaluate(self, word, threshold)
    monkeypatch.setattr(WinsSearch, "evaluate", signalled)
    exit_code, out, err = cli("wordle", "verify", folder / "global.json")
    total = len(json.loads((folder / "global.json").read_text())["first_guess_outcomes"])
    assert exit_code == code, (exit_code, out[-1500:], err[-1500:])
    assert f"interrupted (2 of {total} records re-derived)" in out and "REJECTED" not in out, out[-1500:]
    assert "  optimal  " not in out  # the checks after the interrupted one are not run


@pytest.mark.slow
@pytest.mark.parametrize("signum, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_verify_exits_130_or_143(signum, code):
    """Ctrl-C or SIGTERM while records are re-derived: "interrupted (N of M records re-derived)" and the
    exit status docs/robustness.md promises, not REJECTED's 1."""
    cert = ROOT / "results" / "wordle" / "ranking-guesses-hard-certificate.json"
    proc = subprocess.Popen([sys.executable, "-m", "exact", "wordle", "verify", str(cert)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "EXACT_PROGRESS_SECONDS": "0"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        for line in proc.stderr:
            if "re-deriving" in line and "1/12972" in line.replace(" ", ""):
                break
        proc.send_signal(signum)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == code, (proc.returncode, stdout[-1500:], stderr[-1500:])
    assert "interrupted (" in stdout and "records re-derived" in stdout and "REJECTED" not in stdout, stdout[-1500:]


# --- analyse shows only records that re-derive ----------------------------------------------------------

def test_analyse_shows_a_bound_above_the_floor_only_once_it_re_derives(made, tmp_path, monkeypatch):
    """The played first guess's "at least b" from a ranking: at the ranking's floor (its claim) it is shown as it
    is; above it, it is re-derived on read (as verify does it) and shown once it holds: a raised one is not
    (a warning names the file; the floor is shown), a true one is; the outcome is remembered under the seal, so
    a second read re-derives nothing, and an edited memo is re-derived."""
    from exact.wordle import rederive
    from exact.wordle.certificate import ranking_floor
    from exact.wordle.study import analyse

    folder, true = made
    monkeypatch.setenv("EXACT_CACHE_DIR", str(tmp_path / "cache"))
    A, G = read_words(folder / "a.txt"), read_words(folder / "g.txt")
    data = json.loads((folder / "ranking.json").read_text())
    records = data["first_guesses"]
    floor = ranking_floor(data, sorted(r["total"] for r in records.values() if "total" in r))
    w = max((w for w in records if "at_least" in records[w]), key=lambda w: (records[w]["at_least"], w))
    bound = records[w]["at_least"]
    assert bound > floor  # the tiny ranking has bounds above its floor
    forged_ranking = tmp_path / "ranking-guesses-forged-certificate.json"
    records[w] = {"at_least": true["fewest"][w] + 5}
    forged_ranking.write_text(json.dumps(data))
    files = {"certificate": [forged_ranking]}
    monkeypatch.setattr(analyse, "shipped_results", lambda p: files["certificate"] if p.endswith(".json") else [])

    def played():
        return analyse.certified_valuation(w, len(A), analyse.first_guess_values(A, G, False), 1).played
    with pytest.warns(UserWarning, match=f"{forged_ranking.name}: its record of {w} is not re-derived here"):
        shown = played()
    assert shown.at_least == floor and shown.total is None and "its floor" in shown.how, shown
    honest = tmp_path / "ranking-guesses-certificate.json"
    honest.write_text((folder / "ranking.json").read_text())
    files["certificate"] = [honest]
    assert played().at_least == bound
    calls = []
    monkeypatch.setattr(rederive, "one_record", lambda *a, **k: calls.append(a) or "re-derived again")
    assert played().at_least == bound and calls == []  # remembered under the seal
    for memo in (tmp_path / "cache" / "records").iterdir():
        memo.write_text(memo.read_text().replace('"contradiction": null', '"contradiction": "edited"'))
    with pytest.warns(UserWarning, match="re-derived again"):
        assert played().at_least == floor
    assert len(calls) == 1
