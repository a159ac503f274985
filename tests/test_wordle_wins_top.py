"""The within-k ranking (``exact wordle rank --depth K --top N``): the N best first guesses exact,
every other one bounded below the N-th best, against brute force (tiny lists) and a per-first-guess
solve (clustered answers), in normal and hard mode; its certificate verified and a forged one refused."""

import json

import pytest
from click.testing import CliRunner

from exact.cli import main
from exact.wordle import rederive
from exact.wordle.certificate import verify_certificate
from exact.wordle.wins import dp
from exact.wordle.wins.ranking import run

from oracles import brute_values, clustered, random_sized



def check_ranking(r, truth: dict, top: int) -> None:
    """Exact values equal the truth, bounds are at least it, the N best are exact and proven."""
    ranked = sorted(truth.values(), reverse=True)
    nth = ranked[top - 1]
    for o in r.outcomes:
        if o.exact:
            assert o.value == truth[o.guess], o
        else:
            assert truth[o.guess] <= o.value < o.threshold <= nth, (o, nth)
    assert r.status == "OPTIMAL" and not r.open
    assert [v for _, v in r.top(top)] == ranked[:top]
    assert r.proven_top >= top
    assert {g for g, v in truth.items() if v >= nth} <= {o.guess for o in r.outcomes if o.exact}


@pytest.mark.parametrize("seed", [3, 4])
def test_top_n_matches_brute_force_on_tiny_lists(seed):
    A, G = random_sized(300 + seed)
    hard = seed % 2 == 0
    truth = brute_values(A.words, G.words, 3, hard)
    r = run(A, G, depth=3, hard=hard, progress=False, top=3)
    check_ranking(r, truth, 3)


@pytest.mark.slow
@pytest.mark.parametrize("hard", [False, True])
def test_top_n_matches_a_per_first_guess_solve(hard):
    A, G = clustered(11, 25)
    truth = {g: dp.solve(A, G, depth=3, hard=hard, first=g, progress=False).wins for g in G.words}
    r = run(A, G, depth=3, hard=hard, progress=False, top=5)
    check_ranking(r, truth, 5)
    assert any(not o.exact for o in r.outcomes)  # the ranking prunes here: the test is of the bounds too
    best_only = run(A, G, depth=3, hard=hard, progress=False)
    assert best_only.wins == r.wins and best_only.exact_count <= r.exact_count


def test_ranking_certificate_verifies_and_a_forged_proven_top_fails(tmp_path):
    A, G = random_sized(310)
    (tmp_path / "a.txt").write_text("\n".join(A.words) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(G.words) + "\n")
    cert = tmp_path / "c.json"
    out = CliRunner().invoke(main, ["wordle", "rank", "--answers", str(tmp_path / "a.txt"), "--guesses",
                                    str(tmp_path / "g.txt"), "--depth", "2", "--top", "4", "--certificate", str(cert)])
    assert out.exit_code == 0, out.output
    data = json.loads(cert.read_text())
    assert data["top_n"] == 4 and data["proven_top"] >= 4 and len(data["top"]) >= 4
    v = verify_certificate(cert)
    assert v.ok, v
    data["proven_top"] += 1
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    assert not verify_certificate(forged).ok


def test_a_pruned_claim_is_checked_against_its_own_bound():
    """A pruned bound b is re-evaluated against b + 1 whatever the optimum or the proven value: a
    re-derived exact value reaching b + 1 contradicts it, one below does not exist (the search then prunes)."""
    outcomes = [{"guess": "a", "value": 9, "exact": True}, {"guess": "b", "value": 7, "exact": True},
                {"guess": "c", "value": 5, "exact": False}]
    claims = rederive.wins_claims(outcomes)
    assert claims["c"].threshold == 6 and claims["a"].threshold == 9

    class Found:  # a re-derived record: c is really worth 6, above its claimed bound 5 (below the proven 7)
        guess, value, exact = "c", 6, True

    assert rederive.judge_wins(claims["c"], Found()) is not None
