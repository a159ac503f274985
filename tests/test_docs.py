"""docs/results.md is generated from results/: the committed page must equal what the files give."""

import json
from typing import NamedTuple

import pytest

from exact.docs import kind_of, results_markdown


@pytest.mark.slow
def test_committed_results_page_is_up_to_date(tmp_path, cli):
    """Checked from a folder outside the checkout: the committed results are found from any working folder
    (the checkout, or the wheel's copy). One run for both: the page reads every committed tree, the
    DOT one through pydot's grammar, most of this test's time."""
    r = cli("docs", "results", "--check", cwd=tmp_path)
    assert r.returncode == 0 and "up to date" in r.stdout, \
        r.stderr + " (run `python -m exact docs results` and commit docs/results.md)"


def test_each_kind_of_file_is_recognised(root):
    certificate = json.loads((root / "results/wordle/optimal-depth3-certificate.json").read_text())
    assert kind_of(certificate) == "certificate"
    assert kind_of(json.loads((root / "results/wordle/memorable-curve.json").read_text())) == "curve"
    assert kind_of(json.loads((root / "results/lingo/enable-5.json").read_text())) == "lingo"
    assert kind_of(json.loads((root / "results/lingo/enable-5-bound.json").read_text())) == "lingo-bound"
    assert kind_of({"nodes": [], "edges": [], "graph": {}}) == "tree"
    assert kind_of({"something": "new"}) == kind_of([1, 2]) == "other"


@pytest.mark.slow
def test_numbers_come_from_the_files_and_check_catches_drift(tmp_path, root, cli):
    (tmp_path / "results" / "wordle").mkdir(parents=True)
    certificate = json.loads((root / "results/wordle/optimal-depth3-certificate.json").read_text())
    certificate.pop("tree")
    certificate.update(wins=1234, top=[{"guess": "zzzzz", "wins": 1234}, {"guess": "yyyyy", "wins": 1200}],
                       optimal_first=["zzzzz"])
    (tmp_path / "results/wordle/x-certificate.json").write_text(json.dumps(certificate))
    (tmp_path / "results/wordle/new.json").write_text(json.dumps({"a": 1}))
    page = results_markdown(tmp_path)
    assert "| 1234 / 2315 | 53.30% | OPTIMAL | zzzzz |" in page
    assert "exact wordle solve --depth 3 --certificate results/wordle/x-certificate.json" in page
    assert "results/wordle/new.json" in page.split("## Other result files")[1]
    r = cli("docs", "results", "--root", tmp_path)
    assert r.returncode == 0, r.stderr
    assert cli("docs", "results", "--root", tmp_path, "--check").returncode == 0
    certificate["wins"] = 1235
    (tmp_path / "results/wordle/x-certificate.json").write_text(json.dumps(certificate))
    r = cli("docs", "results", "--root", tmp_path, "--check")
    assert r.returncode == 1 and "out of date" in r.stderr


def test_lists_table_shows_each_proof_and_a_valid_interval_elsewhere(root):
    """The list x mode x k table: a cell is OPTIMAL exactly where a certificate over every first guess
    says so (its own numbers), and otherwise an interval whose lower bound is a recorded strategy's wins."""
    from exact.docs import list_of, load, lists_table

    groups = load(root / "results")
    rows = {tuple(c.strip() for c in line.split("|")[1:4]): line for line in lists_table(groups)
            if line.startswith("| ") and not line.startswith("| list")}
    assert kind_of(json.loads((root / "results/wordle/salet-guesses-certificate.json").read_text())) == \
        "guesses-certificate"
    proven = {(list_of(d), "hard" if d.get("hard") else "normal", str(d["depth"])): d
              for _, d in groups["certificate"] if not d.get("first") and d["status"] == "OPTIMAL"}
    assert ("nyt2023", "normal", "3") in proven
    for key, line in rows.items():
        if key in proven:
            d = proven[key]
            assert f"**OPTIMAL {d['wins']} / {d['n']}**" in line
        else:
            assert "OPTIMAL" not in line
            lower, upper = line.split("|")[4].split("/")[0].strip().split("..")
            assert int(lower) <= int(upper)
            normal = proven.get((key[0], "normal", key[2]))
            if key[1] == "hard" and normal is not None:  # hard mode wins no more than normal mode
                assert int(upper) == min(normal["wins"], normal["n"]) and "normal mode's optimum" in line, line


def test_readme_list_table_matches_the_certificates(root):
    """README's list x mode x k table: each OPTIMAL number is the certificate's proof over every first
    guess; each interval's lower end is the best certified strategy of that list and mode."""
    import re

    from exact.docs import list_of, load

    groups = load(root / "results")
    certs = [d for _, d in groups["certificate"]]
    lines = (root / "README.md").read_text().splitlines()
    start = lines.index("| list (answers / guesses) | mode | within 3 | within 4 |")
    name = None
    checked = 0
    for line in lines[start + 2:]:
        if not line.startswith("| "):
            break
        cells = [c.strip() for c in line.split("|")[1:-1]]
        name = cells[0].split()[0]
        hard = cells[1] == "hard"
        for k, cell in zip((3, 4), cells[2:4]):
            mine = [d for d in certs if list_of(d) == name and bool(d.get("hard")) == hard and d["depth"] == k]
            if "OPTIMAL" in cell:
                proofs = [d for d in mine if not d.get("first") and d["status"] == "OPTIMAL"]  # a ranking's too
                assert proofs and all(cell.startswith(f"**{d['wins']}** OPTIMAL") for d in proofs), \
                    (cell, [d["wins"] for d in proofs])
            else:
                lower, upper = map(int, re.match(r"(\d+)\.\.(\d+)", cell).groups())
                normal = [d["wins"] for d in certs if list_of(d) == name and not d.get("hard") and d["depth"] == k
                          and not d.get("first") and d["status"] == "OPTIMAL"] if hard else []
                assert upper == min([mine[0]["n"], *normal]) and lower == max(d["wins"] for d in mine), cell
            checked += 1
    assert checked == 14  # original, nyt2022, nyt2023 in both modes, and all in normal mode


def test_no_probability_on_the_page_exceeds_one(root):
    """Every percentage of the committed page is a probability (a weighted ranking's top once showed its
    weight won over the answer count: 29764.98%)."""
    import re

    shown = [float(x) for x in re.findall(r"(\d+(?:\.\d+)?)%", (root / "docs" / "results.md").read_text())]
    assert shown and max(shown) <= 100.0, max(shown)


# --- README's headline table: each answer re-derived from the files its row links ---------------------

HEADLINE = "| question | answer | status | where |"


def headline_rows(readme: str) -> list[list[str]]:
    lines = readme.splitlines()
    start = lines.index(HEADLINE)
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("| "):
            break
        rows.append([c.strip() for c in line.split("|")[1:-1]])
    return rows


class Derived(NamedTuple):
    """What one result file proves, as the headline may print it: ``main`` (one of them must be shown),
    ``numbers`` (every number shown must be one of these), ``guesses`` (every one must be shown),
    ``proven`` (a proof, OPTIMAL or a refutation, rather than a bound)."""

    main: set
    numbers: set
    guesses: set
    proven: bool


def derived(path, d) -> Derived:
    """The values a result file of each kind proves, formatted as docs/results.md prints them."""
    import re

    from exact.docs.parts import pct

    kind = kind_of(d, path)
    context = {str(v) for v in (d.get("depth"), d.get("max_guesses"), d.get("M"), d.get("k"), d.get("n")) if v}
    context |= set(re.findall(r"\d+", d.get("problem", "")))
    if kind == "certificate":  # most wins within k (weighted: weight won / total weight)
        total = d.get("weight", d["n"])
        shown = {f"{d['wins']} / {total}", pct(d["wins"] / total)}
        return Derived(shown, context | {str(d["wins"]), str(total), pct(d["wins"] / total)},
                       set(d["optimal_first"]), d["status"] == "OPTIMAL")
    if kind in ("ranking", "guesses-certificate"):
        n = d["answers"]["count"]
        if d.get("objective") == "feasible":  # solvable within max_guesses, or refuted: at least one more
            value = d["max_guesses"] if d["status"] == "OPTIMAL" else d["max_guesses"] + 1
            return Derived({str(value)}, context | {str(value), str(n)}, set(), d["status"] in ("OPTIMAL", "INFEASIBLE"))
        best = d.get("best") or {"guess": d.get("first"), "total": d["total"], "mean": d["mean"]}
        return Derived({str(best["total"])}, context | {str(n), str(best["total"]), f"{best['mean']:.4f}"},
                       {best["guess"]}, d["status"] == "OPTIMAL")
    if kind == "opener":  # the best first guess of a memorable tree
        shown = {f"{d['wins']} / {d['n']}", pct(d["probability"])}
        return Derived(shown, context | {str(d["wins"]), str(d["n"]), pct(d["probability"])},
                       set(d["best_first"]), d["status"] == "OPTIMAL")
    if kind == "lingo":  # k guesses fixed in advance: the best found and the upper bound
        shown = {f"{d['wins']} / {d['n']}"}
        return Derived(shown, context | {str(d["wins"]), str(d["n"]), pct(d["probability"]), str(d["upper_bound"])},
                       set(d["guesses"]), d["status"] == "OPTIMAL")
    raise AssertionError(f"{path}: a headline row links a file of kind {kind}, which this test cannot read")


def check_headline_row(root, cells: list[str]) -> None:
    """One row: every number it shows is one its files prove, each file's main value and every one of its
    best first guesses are shown, and the status is OPTIMAL exactly when every file is a proof."""
    import re

    question, answer, status, where = cells
    files = re.findall(r"\]\((results/[^)]+\.json)\)", where)
    assert files, f"the row {question!r} links no result file"
    facts = [derived(root / f, json.loads((root / f).read_text())) for f in files]
    numbers = set().union(*(f.numbers for f in facts))
    for cell in (question, answer):
        shown = re.findall(r"\d+(?:\.\d+)?%?", cell.replace("nyt2023", "").replace("nyt-prior", ""))
        assert set(shown) <= numbers, (question, sorted(set(shown) - numbers))
    for fact, file in zip(facts, files):
        assert any(m in answer for m in fact.main), (question, file, fact.main)
        assert all(f"`{g}`" in answer for g in fact.guesses), (question, file, fact.guesses)
    assert set(re.findall(r"`([a-z]{5})`", answer)) <= set().union(*(f.guesses for f in facts)), question
    assert status == ("OPTIMAL" if all(f.proven for f in facts) else "bound"), (question, status)


def test_readme_headline_table_is_read_from_the_files_it_links(root):
    """README's headline: at most 8 short rows (the question, the answer, its status, where its proof
    is), each answer re-derived from the certificate (or result file) its row links."""
    rows = headline_rows((root / "README.md").read_text())
    assert 1 <= len(rows) <= 8, len(rows)
    for cells in rows:
        assert len(cells) == 4 and len(" | ".join(cells[:3])) <= 200, cells
        check_headline_row(root, cells)


def heading_anchors(page) -> set[str]:
    """The anchors GitHub gives a page's headings: the rendered text (a link's text, no backticks)
    lower-cased, punctuation dropped, spaces as hyphens, a repeated one numbered."""
    import re

    anchors, seen = set(), {}
    for line in page.read_text().splitlines():
        heading = re.match(r"#+ (.*)", line)
        if heading is None:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1)).strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def test_links_between_pages_reach_a_heading(root):
    """Every link from README or a docs page to a section of another page (``PAGE.md#anchor``) names a
    heading that page has: the headline's links, and those to docs/history.md, among them."""
    import re

    broken = []
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for link in re.finditer(r"\]\(([\w./-]+\.md)#([^)]+)\)", page.read_text()):
            target = (page.parent / link.group(1)).resolve()
            if not target.is_file() or link.group(2) not in heading_anchors(target):
                broken.append(f"{page.name}: {link.group(0)}")
    assert not broken, broken
