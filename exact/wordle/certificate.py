"""Re-checking a Wordle certificate (``exact wordle verify CERTIFICATE``): what can be re-derived here is.

A certificate is the JSON that ``exact wordle solve --certificate`` or ``exact wordle rank
--certificate`` writes; its ``kind`` field names one of :data:`CERTIFICATE_KINDS`, each written by
its result type's ``certificate()`` (a certificate written before the field, as those under
results/, is recognised by its keys in :func:`kind_of`):

- ``wins-depth-k`` (``wins``, ``depth``, ``top``): the most answers won within ``depth`` guesses, by
  the DP of :mod:`exact.wordle.wins.dp`, for every first guess or one (``first``);
- ``wins-global`` (``first_guess_outcomes``): the same value over every first guess by
  :mod:`exact.wordle.wins.ranking`, each first guess's exact value or the bound that pruned it;
- ``fewest`` (``objective``, ``total``, ``wins_at``): the best complete strategy by
  :mod:`exact.wordle.fewest.search`;
- ``fewest-ranking`` (``format`` ``exact-ranking-guesses/1``, ``first_guesses``): every first guess
  valued exactly or bounded by :mod:`exact.wordle.fewest.ranking`, with the tree of the best.

An unknown ``kind`` is a one-line error.

The checks, each ``ok``, ``FAIL`` or ``unconfirmed`` (as ``exact lingo verify`` reports them):

- the lists: found (as written, else beside a folder above the certificate, or ``--answers`` /
  ``--guesses``), their sha256 and counts those the certificate names; ``n`` is the answers' count;
- the derived fields: ``probability = wins / n``, ``mean = total / n``, the cumulative
  ``wins_within`` from ``wins_at``;
- the tree: every file listed is read and replayed from scratch (:func:`exact.game.tree.replay`):
  it must be valid and win the claimed ``wins`` within ``depth`` (or take the claimed ``total`` and
  ``wins_at``); its first guess must be an optimal one;
- the first guesses: ``top`` sorted best first with the best equal to the claimed value,
  ``optimal_first`` exactly the ones attaining it among those listed; for a global certificate,
  every guess of the list resolved once, the best exact value the claimed one, every pruned guess's
  bound below it (so no pruned guess could have been better), the counts consistent;
- the optimality itself: a replayed tree shows its value is *reached*; that nothing does better
  rests on the search. It is re-derived here by the same search (``dp.solve``) within
  ``resolve_time`` seconds; when that is not enough (the full Wordle instance takes minutes) the
  check is ``unconfirmed`` and the certificate is "not verified" unless ``partial``. A global
  certificate needs no re-run: its per-first-guess records are the argument, checked above (each
  record's own value is re-derived only within the time given, like the rest);
- a ranking: its records (one of ``total`` or ``at_least`` each, every one an allowed guess),
  and everything derived from them recounted (best, top values, least bound, proven top, the
  counts, the status); the tree of the best replayed to the best value; the optimality argument is
  the records themselves (the best exact value is no more than every bound), and on small
  instances (answers x guesses up to ``SMALL``) the ranking is run again and must give the same
  best value and top values.

Data types: the certificate is a JSON object; the result is a :class:`Verification` (the checks as
``(name, outcome, detail)``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

from exact.errors import ExactError
from exact.fileio import Verification, check_fields, read_json  # noqa: F401 (Verification: this module's result)
from exact.game.position import check_limits
from exact.words import WordList, read_words


def is_certificate(data) -> bool:
    """A Wordle certificate, as opposed to a tree in node-link JSON (which has ``nodes``)."""
    return (isinstance(data, dict) and not isinstance(data.get("nodes"), list) and isinstance(data.get("answers"), dict)
            and isinstance(data.get("guesses"), dict) and "method" in data)


RANKING_FORMAT = "exact-ranking-guesses/1"  # exact.wordle.fewest.ranking.FORMAT (checked equal in the tests)


@dataclass(frozen=True)
class CertificateKind:
    """One kind of Wordle certificate: what it claims, which result writes it, its fields."""

    claim: str
    writer: str  # the result type whose ``certificate()`` writes it
    required: dict
    optional: dict


#: every kind of certificate the project writes, by its ``kind`` field (each writer's module names
#: its own kind as ``CERTIFICATE_KIND``; the tests check the two agree)
CERTIFICATE_KINDS = {
    "wins-depth-k": CertificateKind(
        "the most answers won within depth guesses, for every first guess or one (first)",
        "exact.wordle.wins.dp.SolveResult",
        {"wins": "int", "n": "int", "depth": "int", "hard": "bool", "status": "str", "optimal_first": "list",
         "top": "list"},
        {"first": "str|null", "probability": "number", "tree": "dict"}),
    "wins-global": CertificateKind(
        "the same over every first guess, each first guess's exact value or the bound that pruned it",
        "exact.wordle.wins.ranking.GlobalResult",
        {"wins": "int", "n": "int", "depth": "int", "hard": "bool", "status": "str", "optimal_first": "list",
         "first_guess_outcomes": "list"},
        {"probability": "number", "top": "list", "tree": "dict", "open": "int", "first_guesses": "int",
         "first_guesses_resolved": "int", "first_guesses_exact": "int", "first_guesses_pruned": "int"}),
    "fewest": CertificateKind(
        "the best complete strategy under an objective (fewest guesses, a lexicographic list, feasible)",
        "exact.wordle.fewest.result.GuessesResult",
        {"objective": "str", "status": "str", "n": "int", "total": "int", "wins_at": "list", "max_guesses": "int",
         "hard": "bool"},
        {"first": "str|null", "mean": "number", "wins_within": "dict", "tree": "dict", "after": "list",
         "lower_bound": "int|null", "cost": "int"}),
    "fewest-ranking": CertificateKind(
        "every first guess valued exactly or bounded under an objective, with the tree of the best",
        "exact.wordle.fewest.ranking.Ranking",
        {"format": "str", "objective": "str", "status": "str", "hard": "bool", "max_guesses": "int",
         "first_guesses": "dict", "best": "dict|null", "top_values": "list", "proven_top": "int", "open": "int",
         "first_guesses_done": "int", "first_guesses_asked": "int"},
        {"cutoff": "int|null", "top": "int", "least_bound": "int|null", "tree": "dict"}),
}


def kind_of(data: dict, path: str | Path = "certificate") -> str:
    """The certificate's kind: its ``kind`` field (one of :data:`CERTIFICATE_KINDS`, else a one-line
    error); a certificate written before the field (those under results/) by its keys, the only place
    they are sniffed."""
    if "kind" in data:
        kind = data["kind"]
        if kind not in CERTIFICATE_KINDS:
            raise ExactError(f"unknown certificate kind {str(kind)!r:.40} (known: {', '.join(CERTIFICATE_KINDS)})",
                             path=path)
        return kind
    if data.get("format") == RANKING_FORMAT:
        return "fewest-ranking"
    if "objective" in data:
        return "fewest"
    return "wins-global" if "first_guess_outcomes" in data else "wins-depth-k"


LIST_FIELDS = {"source": "str", "count": "int", "sha256": "str"}


def find_file(stored: str, certificate: Path) -> Path | None:
    """A file a certificate names: as written (from here), else under a folder above the certificate
    (certificates are written from the repository root and live two levels below it)."""
    p = Path(stored)
    for c in [p] + ([] if p.is_absolute() else [q / p for q in certificate.resolve().parents[:3]]):
        if c.is_file():
            return c
    return None


def verify_certificate(path: str | Path, *, answers: str | Path | None = None, guesses: str | Path | None = None,
                       resolve_time: float = 30.0, partial: bool = False) -> Verification:
    """Check a Wordle certificate (the module docstring lists the checks)."""
    path = Path(path)
    data = read_json(path, "Wordle certificate")
    if not is_certificate(data):
        raise ExactError("not a Wordle certificate (no 'answers', 'guesses' and 'method')", path=path)
    kind = kind_of(data, path)
    check_fields(data, CERTIFICATE_KINDS[kind].required, CERTIFICATE_KINDS[kind].optional, source=str(path))
    for key in ("answers", "guesses"):
        check_fields(data[key], LIST_FIELDS, source=str(path), where=key)
    check_limits(data, path)
    statuses = ("OPTIMAL", "FEASIBLE", "UNKNOWN") + (("INFEASIBLE",) if kind == "fewest-ranking" else ())
    if data["status"] not in statuses:
        raise ExactError(f"status {data['status']!r:.40} is not {', '.join(statuses[:-1])} or {statuses[-1]}",
                         path=path)
    v = Verification(str(path), partial=partial)
    A = _list(v, data, "answers", answers, path)
    G = _list(v, data, "guesses", guesses, path)
    if A is None or G is None:
        return v
    if kind == "fewest-ranking":
        _check_ranking(v, data, A, G, path)
        return v
    v.add("n", data["n"] == len(A), f"the answers have {len(A)} words; the certificate says {data['n']}")
    if kind == "fewest":
        _check_objective(v, data, A, G, path)
    else:
        _check_wins(v, data, A, G, path, kind)
    _rederive(v, data, A, G, kind, resolve_time)
    return v


def _list(v: Verification, data: dict, key: str, given, path: Path) -> WordList | None:
    record = data[key]
    file = Path(given) if given is not None else find_file(record["source"], path)
    if file is None:
        raise ExactError(f"its {key} list {record['source']} is not found here; pass --{key} FILE", path=path)
    words = read_words(file)
    v.add(key, words.sha256 == record["sha256"] and len(words) == record["count"],
          f"{file}: {len(words)} words, sha256 {words.sha256[:16]}...; the certificate names {record['count']} "
          f"words, sha256 {record['sha256'][:16]}...")
    return words


def _close(a, b) -> bool:
    return isinstance(a, (int, float)) and not isinstance(a, bool) and math.isclose(a, b, rel_tol=0, abs_tol=1e-9)


def _trees(v: Verification, data: dict, path: Path):
    """(file, tree) for each tree file the certificate lists."""
    from exact.game.formats import read_tree

    tree = data.get("tree")
    if not tree:
        if data["status"] == "OPTIMAL":  # the value then rests on the re-derivation (check "optimal")
            v.add("tree", True, "no tree file listed: nothing to replay; the value is re-derived below")
        else:
            v.add("tree", None, "no tree file listed: the value claimed is not replayed")
        return
    check_fields(tree, {"files": "list"}, {"first": "str|null", "replay": "dict"}, source=str(path), where="tree")
    for name in tree["files"]:
        if not isinstance(name, str):
            raise ExactError("tree: 'files' is not a list of paths", path=path)
        file = find_file(name, path)
        if file is None:
            v.add("tree", False, f"{name}: missing")
            continue
        try:
            yield file, read_tree(file)
        except ExactError as e:
            v.add("tree", False, str(e))


def _check_wins(v: Verification, data: dict, A: WordList, G: WordList, path: Path, kind: str) -> None:
    from exact.game.tree import replay

    wins, n = data["wins"], len(A)
    if "probability" in data:
        v.add("probability", _close(data["probability"], wins / n), f"{data['probability']!r}; wins / n = {wins / n!r}")
    optimal = data["optimal_first"]
    for file, tree in _trees(v, data, path):
        r = replay(tree, A, G, data["depth"], data["hard"])
        v.add("tree", r.valid and r.wins == wins,
              f"{file}: replayed from scratch: {r.wins} / {r.n} within {data['depth']}, valid {r.valid}; "
              f"claimed {wins}")
        if optimal:
            v.add("tree first", tree.guess in optimal, f"{file} opens with {tree.guess}; optimal first: "
                                                         f"{' '.join(map(str, optimal[:5]))}")
    top = data.get("top") or []
    values = []
    for entry in top:
        check_fields(entry, {"guess": "str", "wins": "int"}, source=str(path), where="top")
        values.append((entry["guess"], entry["wins"]))
    if values:
        best = max(w for _, w in values)
        listed_best = sorted(g for g, w in values if w == best)
        v.add("top", values == sorted(values, key=lambda e: -e[1]) and best == wins
              and set(listed_best) <= set(optimal) and all(g in G.index for g, _ in values),
              f"{len(values)} first guesses best first, the best {best} (claimed {wins}), attained by "
              f"{' '.join(listed_best[:5])}")
    if data.get("first") is not None:
        v.add("first", optimal == [data["first"]] or not optimal, f"the first guess is fixed to {data['first']}; "
                                                                  f"optimal first {optimal[:3]}")
    if kind == "wins-global":
        _check_outcomes(v, data, G)


def _check_outcomes(v: Verification, data: dict, G: WordList) -> None:
    """The global search's argument: each first guess exact, or pruned by a bound below the optimum."""
    records = []
    for r in data["first_guess_outcomes"]:
        check_fields(r, {"guess": "str", "value": "int", "exact": "bool", "threshold": "int"}, source=v.path,
                     where="first_guess_outcomes")
        records.append(r)
    guesses = [r["guess"] for r in records]
    wins = data["wins"]
    exact = [r for r in records if r["exact"]]
    pruned = [r for r in records if not r["exact"]]
    best = max((r["value"] for r in exact), default=None)
    distinct = len(set(guesses)) == len(guesses) and all(g in G.index for g in guesses)
    if data["status"] == "OPTIMAL":  # the argument needs every first guess
        v.add("first guesses", sorted(guesses) == sorted(G.words),
              f"{len(set(guesses))} distinct first guesses resolved ({len(guesses)} records) of the {len(G)} guesses")
    else:  # a run in progress: the ones resolved so far, each once
        v.add("first guesses", distinct, f"{len(set(guesses))} distinct allowed first guesses resolved "
                                         f"({len(guesses)} records) of the {len(G)} guesses; status {data['status']}: "
                                         f"the others open")
    v.add("best", best == wins and sorted(data["optimal_first"]) == sorted(r["guess"] for r in exact if r["value"] == wins),
          f"the best exact value {best} (claimed {wins}), attained by "
          f"{' '.join(sorted(r['guess'] for r in exact if r['value'] == best)[:5])}")
    high = max((r["value"] for r in pruned), default=None)
    v.add("pruned", all(r["value"] < wins and r["value"] < r["threshold"] for r in pruned),
          f"{len(pruned)} pruned first guesses, each with a bound below its threshold and below {wins} "
          f"(largest bound {high}): none could do better")
    counts = {"first_guesses_resolved": len(records), "first_guesses_exact": len(exact),
              "first_guesses_pruned": len(pruned), "first_guesses": len(G), "open": len(G) - len(set(guesses))}
    wrong = {k: (data[k], c) for k, c in counts.items() if k in data and data[k] != c}
    v.add("counts", not wrong, "the counts agree with the records" if not wrong else
          "; ".join(f"{k}: {a} in the file, {b} recounted" for k, (a, b) in wrong.items()))


def _check_objective(v: Verification, data: dict, A: WordList, G: WordList, path: Path) -> None:
    from exact.game.tree import replay

    n, total, wins_at = len(A), data["total"], data["wins_at"]
    if not all(isinstance(w, int) and not isinstance(w, bool) for w in wins_at):
        raise ExactError("'wins_at' is not a list of counts", path=path)
    v.add("wins_at", sum(wins_at) == n and sum((k + 1) * w for k, w in enumerate(wins_at)) == total,
          f"{sum(wins_at)} answers solved taking {sum((k + 1) * w for k, w in enumerate(wins_at))} guesses; "
          f"claimed n {n}, total {total}")
    if "mean" in data:
        v.add("mean", _close(data["mean"], total / n), f"{data['mean']!r}; total / n = {total / n!r}")
    if "wins_within" in data:
        cumulative = {str(k + 1): sum(wins_at[: k + 1]) for k in range(len(wins_at))}
        v.add("wins_within", data["wins_within"] == cumulative, f"{data['wins_within']}; from wins_at {cumulative}")
    value = total  # the objective's value: the total for 'guesses', else from the objective's cost table
    if data.get("cost") is not None:
        from exact.wordle.fewest.objective import parse_objective

        c = parse_objective(data["objective"]).costs(data["max_guesses"], n)
        value = sum(int(c[min(k + 1, len(c) - 1)]) * w for k, w in enumerate(wins_at))
        v.add("cost", value == data["cost"], f"{data['cost']} under objective {data['objective']}; from wins_at "
                                             f"{value}")
    if data.get("lower_bound") is not None:
        v.add("lower bound", data["lower_bound"] <= value and (data["status"] != "OPTIMAL" or data["lower_bound"] == value),
              f"lower bound {data['lower_bound']}, value {value}, status {data['status']}")
    for file, tree in _trees(v, data, path):
        r = replay(tree, A, G, data["max_guesses"], data["hard"])
        solved = list(r.histogram) + [0] * (len(wins_at) - len(r.histogram))
        v.add("tree", r.valid and not r.lost and solved[: len(wins_at)] == wins_at and r.total_guesses == total,
              f"{file}: replayed from scratch: total {r.total_guesses}, solved {list(r.histogram)}, lost "
              f"{len(r.lost)}, valid {r.valid}; claimed total {total}, {wins_at}")
        if data.get("first"):
            v.add("tree first", tree.guess == data["first"], f"{file} opens with {tree.guess}; the first guess is "
                                                             f"fixed to {data['first']}")


#: answers x guesses up to which an objective certificate is re-derived (the branch and bound has no time limit)
SMALL = 200_000


def _check_ranking(v: Verification, data: dict, A: WordList, G: WordList, path: Path) -> None:
    """A ranking certificate: its records, what derives from them, the tree of the best, and (small
    instances) the ranking run again."""
    from exact.game.tree import replay

    records = {}
    for word, r in data["first_guesses"].items():
        kinds = [k for k in ("total", "at_least") if isinstance(r, dict) and k in r]
        if len(kinds) != 1 or not isinstance(r[kinds[0]], int) or isinstance(r[kinds[0]], bool):
            raise ExactError(f"first_guesses: {word!r:.20} is not {{'total': N}} or {{'at_least': N}}", path=path)
        records[word] = (r[kinds[0]], kinds[0] == "total")
    unknown = [w for w in records if w not in G.index]
    cutoff = data.get("cutoff")  # of this run; a resumed checkpoint may hold records made under another
    v.add("first guesses", not unknown and data["first_guesses_done"] == len(records)
          and data["first_guesses_asked"] <= len(G) and data["open"] == data["first_guesses_asked"] - len(records),
          f"{len(records)} first guesses done of {data['first_guesses_asked']} asked ({data['open']} open), every "
          f"one an allowed guess{'' if not unknown else ' but ' + ' '.join(unknown[:3])}")
    exact = sorted(((x, G.index[w], w) for w, (x, e) in records.items() if e and w in G.index))
    bounds = [x for x, e in records.values() if not e]
    least = min(bounds, default=None)
    best = data["best"]
    if exact:
        total = exact[0][0]
        good = best is not None and best.get("total") == total and records.get(best.get("guess")) == (total, True) \
            and _close(best.get("mean", total / len(A)), total / len(A))
        v.add("best", good, f"the least exact value {total} ({exact[0][2]}); claimed {best}")
    else:
        v.add("best", best is None, f"no first guess valued exactly; claimed {best}")
    top = [{"guess": w, "total": x} for x, _, w in exact[:max(data.get("top", 0), 10)]]
    shown = ", ".join(f"{w} {x}" for x, _, w in exact[:3])
    v.add("top values", data["top_values"] == top, f"the {len(top)} least exact values recounted ({shown} ...)")
    proven = 0 if data["open"] else sum(1 for x, _, _ in exact if least is None or x <= least)
    if data["open"]:
        status = "FEASIBLE" if exact else "UNKNOWN"
    else:
        status = ("OPTIMAL" if proven >= 1 else "FEASIBLE") if exact else "INFEASIBLE"
    v.add("least bound", data.get("least_bound", least) == least, f"{least} recounted; claimed "
                                                                 f"{data.get('least_bound')}")
    v.add("proven top", data["proven_top"] == proven and data["status"] == status,
          f"{proven} exact values no more than every bound, status {status}; claimed {data['proven_top']}, "
          f"{data['status']}")
    feasible = data["objective"] == "feasible"
    trees = list(_trees(v, data, path)) if data.get("tree") else []
    for file, tree in trees:
        r = replay(tree, A, G, data["max_guesses"], data["hard"])
        value = 0 if feasible else r.total_guesses
        v.add("tree", r.valid and not r.lost and best is not None and tree.guess == best.get("guess")
              and value == best.get("total"),
              f"{file}: replayed from scratch: opens with {tree.guess}, total {r.total_guesses}, lost {len(r.lost)}, "
              f"valid {r.valid}; the best claimed: {best}")
    if data["status"] == "OPTIMAL" and not trees:
        v.add("tree", None, "no tree of the best listed: its value is not replayed")
    if data["status"] != "OPTIMAL":
        v.add("optimal", True, f"status {data['status']}: no optimum claimed")
        return
    if len(A) * len(G) > SMALL:
        v.add("optimal", True, f"the records are the argument (checked above): the best exact value "
                               f"{exact[0][0]} is no more than every bound (least {least}); each record's own "
                               f"value or bound rests on the search (exact.wordle.fewest.ranking), re-run here only on "
                               f"instances up to {SMALL} answer x guess pairs")
        return
    from exact.wordle.fewest.ranking import rank_first_guesses

    again = rank_first_guesses(A, G, firsts=list(records) if data["first_guesses_asked"] < len(G) else None,
                               cutoff=cutoff, top=data.get("top", 1), hard=data["hard"],
                               max_guesses=data["max_guesses"], progress=False, objective=data["objective"])
    k = min(again.proven_top, data["proven_top"])
    v.add("optimal", again.status == "OPTIMAL" and [x for _, x in again.exact[:k]] == [x for x, _, _ in exact[:k]],
          f"the ranking run again: status {again.status}, top values {[x for _, x in again.exact[:k]]}; "
          f"claimed {[x for x, _, _ in exact[:k]]}")


def _rederive(v: Verification, data: dict, A: WordList, G: WordList, kind: str, resolve_time: float) -> None:
    """The optimum itself, by the same search within ``resolve_time`` seconds (else unconfirmed)."""
    if data["status"] != "OPTIMAL":
        v.add("optimal", True, f"status {data['status']}: no optimality claimed")
        return
    if kind == "wins-global":
        v.add("optimal", True, "every first guess resolved: exact, or pruned by a bound below the optimum "
                               "(checked above); each record's own value rests on the DP")
        return
    if kind == "fewest" and data["objective"] == "feasible" and (data.get("tree") or {}).get("files"):
        v.add("optimal", True, f"objective feasible: what is claimed is a tree that solves every answer within "
                               f"{data['max_guesses']} guesses, and the trees replayed above are that proof")
        return
    if kind == "fewest" and (data.get("after") or data.get("cutoff") is not None):
        v.add("optimal", None, "not re-derived here (a position after guesses, or a cutoff)")
        return
    started = time.perf_counter()
    try:
        if kind == "wins-depth-k":
            from exact.wordle.wins import dp

            r = dp.solve(A, G, depth=data["depth"], hard=data["hard"], first=data.get("first"), top=1,
                         progress=False, time_limit=max(resolve_time, 1e-6))
            done, value, claimed = r.status == "OPTIMAL" and not r.timed_out, r.wins, data["wins"]
        elif len(A) * len(G) <= SMALL:  # the branch and bound has no time limit: small instances only
            from exact.wordle.fewest.search import solve_guesses

            r = solve_guesses(A, G, objective=data["objective"], first=data.get("first"),
                              max_guesses=data["max_guesses"], hard=data["hard"], progress=False)
            done, value, claimed = r.status == "OPTIMAL", r.total, data["total"]
        else:
            v.add("optimal", None, f"the optimum {data['total']} rests on the search (exact.wordle.fewest.search): not "
                                   f"re-derived here ({len(A)} x {len(G)} words is past {SMALL} pairs, and the branch "
                                   f"and bound has no time limit); --partial accepts it unchecked")
            return
    except ExactError as e:
        v.add("optimal", False, f"re-deriving failed: {e}")
        return
    seconds = time.perf_counter() - started
    if not done:
        v.add("optimal", None, f"the optimum {claimed} rests on the search ({kind}): not re-derived within "
                               f"{resolve_time:g} s (give --resolve-time S, or --partial to accept it unchecked)")
    else:
        v.add("optimal", value == claimed, f"re-derived by exact.wordle.wins.dp in {seconds:.1f} s: {value}; "
                                           f"claimed {claimed}")
