"""`exact wordle verify CERTIFICATE` (exact.wordle.certificate): every claim of a Wordle certificate that
can be re-derived here is, and what cannot is said; an edited certificate is REJECTED."""

import json
from pathlib import Path

import pytest

from exact.wordle.certificate import verify_certificate
from exact.words import wordle_allowed, wordle_answers

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def made(tmp_path_factory, cli):
    """Certificates of the three kinds on a reduced instance, written by the command (in-process)."""
    folder = tmp_path_factory.mktemp("certs")
    A = [w for w in wordle_answers().words if w[1:] in ("ight", "atch", "ound", "ower")]
    G = sorted(set(A) | set(wordle_allowed().words[::400][:40]))
    (folder / "a.txt").write_text("\n".join(A) + "\n")
    (folder / "g.txt").write_text("\n".join(G) + "\n")
    lists = ["--answers", str(folder / "a.txt"), "--guesses", str(folder / "g.txt")]

    def run(command, *args):
        r = cli("wordle", command, *lists, *args, cwd=folder)
        assert r.returncode == 0, r.stderr[-500:]
        with (folder / "stderr.txt").open("a") as log:
            log.write(f"{command} {' '.join(args)}\n{r.stderr}")

    run("solve", "--depth", "3", "--certificate", "depth.json", "--out", "depth.txt")
    run("solve", "--objective", "guesses", "--certificate", "objective.json", "--out", "objective.txt")
    run("rank", "--depth", "3", "--checkpoint", "run.jsonl", "--batch", "4", "--certificate", "global.json",
        "--out", "global.txt")
    run("solve", "--objective", "win3,guesses", "--certificate", "win3.json", "--out", "win3.txt")
    run("solve", "--objective", "feasible", "--max-guesses", "5", "--certificate", "feasible.json",
        "--out", "feasible.txt")
    run("rank", "--objective", "guesses", "--top", "3", "--certificate", "ranking.json", "--out", "ranking.txt")
    run("rank", "--objective", "feasible", "--max-guesses", "2", "--certificate", "none2.json")
    run("rank", "--objective", "guesses", "--top", "3", "--certificate", "ranking-notree.json")  # no --out
    # the old spellings of `exact wordle rank`: the same certificates, and a note on stderr
    run("solve", "--depth", "3", "--checkpoint", "run-old.jsonl", "--batch", "4", "--certificate", "global-old.json",
        "--out", "global-old.txt")
    run("solve", "--objective", "guesses", "--first", "all", "--top", "3", "--certificate", "ranking-old.json",
        "--out", "ranking-old.txt")
    return folder


#: the kind of each certificate the fixture writes
KINDS = {"depth": "wins-depth-k", "objective": "fewest", "global": "wins-global", "win3": "fewest",
         "feasible": "fewest", "ranking": "fewest-ranking", "none2": "fewest-ranking", "global-old": "wins-global",
         "ranking-old": "fewest-ranking", "ranking-notree": "fewest-ranking"}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(KINDS))
def test_certificates_of_each_kind_verify(made, name, cli):
    v = verify_certificate(made / f"{name}.json")
    assert v.ok and not v.unconfirmed, v.checks
    r = cli("wordle", "verify", made / f"{name}.json")
    assert r.returncode == 0 and r.stdout.strip().endswith("verified"), r.stdout + r.stderr


@pytest.mark.slow
def test_a_ranking_without_its_tree_file_has_the_best_tree_rebuilt_and_replayed(made):
    """An OPTIMAL ranking that lists no tree file (made without --out) still has its best's value replayed:
    verify builds that tree afresh and replays it; a sampled check (unconfirmed records) builds none."""
    assert not json.loads((made / "ranking-notree.json").read_text()).get("tree", {}).get("files")
    v = verify_certificate(made / "ranking-notree.json")
    tree = [(o, d) for n, o, d in v.checks if n == "tree"]
    assert v.ok and len(tree) == 1 and tree[0][0] == "ok" and "built afresh" in tree[0][1], v.checks
    best = json.loads((made / "ranking-notree.json").read_text())["best"]
    assert f"opens with {best['guess']}, total {best['total']}, lost 0, valid True" in tree[0][1]
    v = verify_certificate(made / "ranking-notree.json", sample=2)
    assert [o for n, o, _ in v.checks if n == "tree"] == ["unconfirmed"], v.checks


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
             first_guesses_pruned=d["first_guesses_pruned"] - 1, proven_top=0)  # nothing proven in place yet


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
    ("depth", bump_wins, {"tree"}),
    ("depth", swap_top, {"top"}),
    ("depth", lambda d: d["answers"].update(sha256="0" * 64), {"answers"}),
    ("depth", lambda d: d.update(probability=0.5), {"probability"}),
    ("objective", lambda d: d.update(total=d["total"] - 1), {"wins_at", "tree", "mean"}),
    ("objective", lambda d: d.update(cost=d["cost"] - 1, lower_bound=d["cost"] - 1), {"cost", "lower bound"}),
    ("win3", lambda d: d.update(cost=d["cost"] + 1), {"cost"}),
    ("feasible", lambda d: d.update(max_guesses=2), {"tree", "cost", "lower bound"}),
    ("ranking", lambda d: d["first_guesses"].update({d["best"]["guess"]: {"total": d["best"]["total"] - 1}}),
     {"best", "top values"}),
    ("ranking", lambda d: d["first_guesses"].pop(d["best"]["guess"]), {"first guesses", "best", "top values",
                                                                       "proven top", "bounds"}),  # the floor rises
    ("ranking", lambda d: d.update(least_bound=d["least_bound"] + 1), {"least bound"}),
    ("none2", lambda d: d.update(status="OPTIMAL"), {"proven top"}),
    ("global", prune_above, {"pruned", "proven top"}),  # a pruned bound above the best: its place not proven
    ("global", lambda d: d["first_guess_outcomes"].pop(), {"first guesses", "counts", "proven top"}),
    ("global", lambda d: d.update(optimal_first=["zzzzz"]), {"best", "top", "tree first"}),  # its tree opens otherwise
])
def test_an_edited_certificate_is_rejected(made, tmp_path, name, edit, failing, cli):
    path = edited(made, tmp_path, name, edit)
    v = verify_certificate(path)
    assert {n for n, o, _ in v.checks if o == "FAIL"} == failing, v.checks
    r = cli("wordle", "verify", path)
    assert r.returncode == 1 and r.stdout.strip().endswith("REJECTED")


@pytest.mark.slow
def test_the_committed_certificate_with_edited_wins_is_rejected(tmp_path, cli):
    """The issue's case: optimal-depth3-certificate.json with its wins edited was refused as 'not node-link JSON'."""
    data = json.loads((ROOT / "results" / "wordle" / "optimal-depth3-certificate.json").read_text())
    data["wins"] = 1400
    data["tree"]["files"] = [str(ROOT / f) for f in data["tree"]["files"] if f.endswith(".txt")]
    for key in ("answers", "guesses"):
        data[key]["source"] = str(ROOT / data[key]["source"])
    (tmp_path / "c.json").write_text(json.dumps(data))
    r = cli("wordle", "verify", "--resolve-time", "1", tmp_path / "c.json")
    assert r.returncode == 1 and "REJECTED" in r.stdout
    assert "replayed from scratch: 1388 / 2315 within 3, valid True; claimed 1400" in r.stdout


@pytest.mark.slow
def test_an_optimum_not_re_derived_in_time_is_not_verified_unless_partial(tmp_path, cli):
    data = json.loads((ROOT / "results" / "wordle" / "optimal-depth3-certificate.json").read_text())
    data["tree"]["files"] = [str(ROOT / f) for f in data["tree"]["files"] if f.endswith(".txt")]  # one replay
    for key in ("answers", "guesses"):
        data[key]["source"] = str(ROOT / data[key]["source"])
    cert = tmp_path / "c.json"
    cert.write_text(json.dumps(data))
    v = verify_certificate(cert, resolve_time=0.0)
    assert not v.ok and v.unconfirmed == ["optimal"] and not v.failed
    r = cli("wordle", "verify", "--resolve-time", "0", "--partial", cert)
    assert r.returncode == 0 and "partly verified" in r.stdout
    r = cli("wordle", "verify", "--resolve-time", "0", cert)
    assert r.returncode == 1 and "partly verified (not re-derived: optimal)" in r.stdout


def test_the_ranking_format_is_the_one_the_ranking_writes():
    from exact.wordle.certificate import RANKING_FORMAT
    from exact.wordle.fewest.ranking import FORMAT

    assert RANKING_FORMAT == FORMAT


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ranking-guesses-certificate.json", "ranking-guesses-hard-certificate.json"])
def test_the_committed_rankings_verify_on_a_sample(name):
    """Every record re-derived takes the run's hour: here 3 records drawn at random (partly verified)."""
    v = verify_certificate(ROOT / "results" / "wordle" / name, sample=3, partial=True)
    assert v.ok and v.unconfirmed == ["re-derived"] and not v.failed, v.checks
    assert {n for n, _, _ in v.checks} >= {"first guesses", "best", "top values", "proven top", "tree", "re-derived"}


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


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_certificate_names_its_kind(made, name):
    from exact.wordle.certificate import CERTIFICATE_KINDS, kind_of

    data = json.loads((made / f"{name}.json").read_text())
    assert data["kind"] == KINDS[name] and data["kind"] in CERTIFICATE_KINDS
    del data["kind"]
    assert kind_of(data) == KINDS[name]  # the keys of a certificate written before kinds say the same


#: the fields that differ between two runs of the same search (times, where it ran, the file names)
RUN_FIELDS = {"seconds", "cores", "this_run", "workers", "worker_seconds_all_runs", "checkpoint", "tree",
              "first_guess_outcomes"}


@pytest.mark.slow
@pytest.mark.parametrize("old, new", [("global-old", "global"), ("ranking-old", "ranking")])
def test_the_old_spellings_write_the_same_certificate_and_say_the_new_one(made, old, new):
    a, b = (json.loads((made / f"{name}.json").read_text()) for name in (old, new))
    assert {k: v for k, v in a.items() if k not in RUN_FIELDS} == {k: v for k, v in b.items() if k not in RUN_FIELDS}
    assert [(r["guess"], r["value"], r["exact"]) for r in a.get("first_guess_outcomes", [])] == \
        [(r["guess"], r["value"], r["exact"]) for r in b.get("first_guess_outcomes", [])]
    notes = [line for line in (made / "stderr.txt").read_text().splitlines() if line.startswith("exact: note:")]
    shown = {"global": "is now 'exact wordle rank --depth 3'", "ranking": "is now 'exact wordle rank --objective guesses'"}
    assert len(notes) == 2 and any(shown[new] in line for line in notes), notes


@pytest.mark.slow
def test_a_certificate_without_its_kind_still_verifies(made, tmp_path):
    """Certificates written before the kind field (those under results/) are recognised by their keys."""
    v = verify_certificate(edited(made, tmp_path, "global", lambda d: d.pop("kind")))
    assert v.ok and not v.unconfirmed, v.checks


def test_an_unknown_kind_is_a_one_line_error(tmp_path, cli, assert_one_line_error):
    data = json.loads((ROOT / "results" / "wordle" / "salet-guesses-certificate.json").read_text())
    data["kind"] = "wins-in-one"
    (tmp_path / "c.json").write_text(json.dumps(data))
    assert_one_line_error(cli("wordle", "verify", tmp_path / "c.json"), "c.json", "unknown certificate kind",
                          "'wins-in-one'")


@pytest.mark.parametrize("name, kind", [("optimal-depth3-certificate.json", "wins-depth-k"),
                                        ("optimal-depth4-certificate.json", "wins-global"),
                                        ("salet-guesses-certificate.json", "fewest"),
                                        ("all-prate-feasible6-certificate.json", "fewest"),
                                        ("ranking-guesses-certificate.json", "fewest-ranking")])
def test_the_committed_certificates_without_kind_are_recognised(name, kind):
    from exact.wordle.certificate import kind_of

    data = json.loads((ROOT / "results" / "wordle" / name).read_text())
    assert "kind" not in data and kind_of(data) == kind


def test_each_kind_is_written_by_one_result_type():
    """The table of kinds names each writer, and each writer's module names its kind the same."""
    import importlib

    from exact.wordle.certificate import CERTIFICATE_KINDS

    for kind, entry in CERTIFICATE_KINDS.items():
        module, _, cls = entry.writer.rpartition(".")
        module = importlib.import_module(module)
        assert module.CERTIFICATE_KIND == kind and callable(getattr(getattr(module, cls), "certificate")), kind


def test_every_certificate_the_command_line_writes_is_built_by_the_library():
    """Each ``write_json(certificate, data)`` of the CLI writes a dict that a result's ``certificate()``
    built (so it carries its kind), not one the command assembled."""
    import ast

    writes = 0
    for path in (ROOT / "exact" / "cli").rglob("*.py"):
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, ast.FunctionDef):
                continue
            built = {t.id for node in ast.walk(function) if isinstance(node, ast.Assign)
                     and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
                     and node.value.func.attr == "certificate" for t in node.targets if isinstance(t, ast.Name)}
            if function.name == "write_tree_and_certificate":  # the shared writer: its callers are checked below
                continue
            for node in ast.walk(function):
                name = getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
                if name == "write_json" and getattr(node.args[0], "id", None) == "certificate":
                    writes += 1
                    assert getattr(node.args[1], "id", None) in built, f"{path.name}: {function.name}"
                elif name == "write_tree_and_certificate":  # write_tree_and_certificate(tree, out, data, certificate, ...)
                    writes += 1
                    assert getattr(node.args[2], "id", None) in built, f"{path.name}: {function.name}"
    assert writes >= 4
