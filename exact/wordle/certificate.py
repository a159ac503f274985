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
  valued exactly or bounded by :mod:`exact.wordle.fewest.ranking`, with the tree of the best;
- an opener book (gzip'd, kind ``wordle-opener-book``), checked by :mod:`exact.wordle.book_verify`.

An unknown ``kind`` is a one-line error.

The checks, each ``ok``, ``FAIL`` or ``unconfirmed`` (as ``exact lingo verify`` reports them):

- the lists: found (as written, else beside a folder above the certificate, or ``--answers`` /
  ``--guesses``), their sha256 and counts those the certificate names; ``n`` is the answers' count;
- the derived fields: ``probability = wins / n``, ``mean = total / n``, the cumulative
  ``wins_within`` from ``wins_at``;
- the tree: every file listed is read and replayed from scratch (:func:`exact.game.tree.replay`):
  it must be valid and win the claimed ``wins`` within ``depth`` (or take the claimed ``total`` and
  ``wins_at``); its first guess must be an optimal one; an OPTIMAL ranking that lists no tree file
  has the tree of its best built afresh by the search (:func:`exact.wordle.rederive.best_tree`), once
  every record is re-derived, and that tree replayed the same way;
- the first guesses: ``top`` sorted best first with the best equal to the claimed value,
  ``optimal_first`` exactly the ones attaining it among those listed; for a global certificate,
  every guess of the list resolved once, the best exact value the claimed one, every pruned guess's
  bound below it (so no pruned guess could have been better), the counts consistent;
- the claim stated whole: the first guess fixed or searched (:func:`first_fixed`), no OPTIMAL of an
  interrupted run, every word of ``after`` an allowed guess (else FAIL);
- the values themselves, re-derived by the search that made them with no time limit unless
  ``resolve_time``: a depth-k or fewest-guesses optimum solved again (:func:`exact.wordle.rederive.optimum`); every record
  of a ranking or a global search re-evaluated through the driver (:mod:`exact.wordle.rederive`,
  stopping at the first contradiction). Cut short (``resolve_time``) or sampled (``sample``), the
  check is ``unconfirmed``: "partly verified", never "verified" (accepted only with ``partial``).

Data types: the certificate is a JSON object; the result is a :class:`Verification` (the checks as
``(name, outcome, detail)``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import time
from dataclasses import dataclass
from pathlib import Path

from exact.errors import ExactError
from exact.feedback import feedback
from exact.fileio import Verification, check_fields, read_json  # noqa: F401 (Verification: this module's result)
from exact.game.formats import read_tree
from exact.game.position import check_limits, parse_history
from exact.game.tree import replay
from exact.weights import Weights, read_weights
from exact.wordle import rederive
from exact.wordle.book_verify import verify_book
from exact.wordle.fewest.memo import INF
from exact.wordle.fewest.objective import parse_objective
from exact.wordle.rederive import Budget
from exact.wordle.study.book import is_book_file
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
        "exact.wordle.wins.result.SolveResult",
        {"wins": "int", "n": "int", "depth": "int", "hard": "bool", "status": "str", "optimal_first": "list",
         "top": "list"},
        {"first": "str|null", "first_fixed": "bool", "probability": "number", "tree": "dict", "interrupted": "bool"}),
    "wins-global": CertificateKind(
        "the same over every first guess, each first guess's exact value or the bound that pruned it",
        "exact.wordle.wins.ranking.GlobalResult",
        {"wins": "int", "n": "int", "depth": "int", "hard": "bool", "status": "str", "optimal_first": "list",
         "first_guess_outcomes": "list"},
        {"probability": "number", "top": "list", "tree": "dict", "open": "int", "first_guesses": "int",
         "first_guesses_resolved": "int", "first_guesses_exact": "int", "first_guesses_pruned": "int",
         "top_n": "int", "proven_top": "int"}),
    "fewest": CertificateKind(
        "the best complete strategy under an objective (fewest guesses, a lexicographic list, feasible)",
        "exact.wordle.fewest.result.GuessesResult",
        {"objective": "str", "status": "str", "n": "int", "total": "int", "wins_at": "list", "max_guesses": "int",
         "hard": "bool"},
        {"first": "str|null", "first_fixed": "bool", "mean": "number", "wins_within": "dict", "tree": "dict",
         "after": "list", "lower_bound": "int|null", "cost": "int", "interrupted": "bool", "cutoff": "int|null"}),
    "fewest-ranking": CertificateKind(
        "every first guess valued exactly or bounded under an objective, with the tree of the best",
        "exact.wordle.fewest.ranking.Ranking",
        {"format": "str", "objective": "str", "status": "str", "hard": "bool", "max_guesses": "int",
         "first_guesses": "dict", "best": "dict|null", "top_values": "list", "proven_top": "int", "open": "int",
         "first_guesses_done": "int", "first_guesses_asked": "int"},
        {"cutoff": "int|null", "top": "int", "least_bound": "int|null", "tree": "dict", "weights": "dict",
         "weight": "int", "first_guesses_source": "str"}),
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
                       resolve_time: float | None = None, partial: bool = False, sample: int | None = None,
                       seed: int = 0, workers: int | None = None, cluster: str | None = None,
                       progress: bool | None = False, weights: str | Path | None = None,
                       checkpoint: str | Path | None = None, resume: str | Path | None = None) -> Verification:
    """Check a Wordle certificate (the module docstring lists the checks). ``resolve_time``: seconds
    for re-deriving (None: no limit); ``sample``: re-derive that many records drawn with ``seed``;
    ``workers``/``cluster``: where the driver re-derives records (:mod:`exact.firstguess`);
    ``weights``: the weights file of a weighted certificate (its sha256 must be the one recorded);
    ``checkpoint``/``resume``: a ranking's or global search's re-derived records written to / taken from
    a file, so that a long check spans runs (:mod:`exact.wordle.rederive`: only sealed records of the
    same certificate are taken)."""
    path = Path(path)
    if is_book_file(path):  # an opener book (gzip'd): exact.wordle.book_verify
        return _verify_book(path, answers, guesses, resolve_time, partial, sample, seed, progress,
                            workers=workers, cluster=cluster, weights=weights, checkpoint=checkpoint, resume=resume)
    data = read_json(path, "Wordle certificate")
    other = other_result(data)
    if other is not None:
        raise ExactError(f"{other}, not a Wordle certificate or tree", path=path)
    if not is_certificate(data):
        raise ExactError("not a Wordle certificate (no 'answers', 'guesses' and 'method')", path=path)
    kind = kind_of(data, path)
    budget = _budget(path, kind, Budget(resolve_time, sample, seed, workers, cluster, progress), checkpoint, resume)
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
    _check_claim(v, data, kind, G)
    if kind == "fewest-ranking":
        _check_ranking(v, data, A, G, path, budget, _weights(v, data, A, weights, path, kind))
        return v
    v.add("n", data["n"] == len(A), f"the answers have {len(A)} words; the certificate says {data['n']}")
    W = _weights(v, data, A, weights, path, kind)
    if kind == "fewest":
        _check_objective(v, data, A, G, path, W)
    else:
        _check_wins(v, data, A, G, path, kind, W)
    if kind == "wins-global":
        rederive.global_records(v, data, A, G, budget, W)
        if v.interrupted:
            return v
    fixed, _ = first_fixed(data, kind)
    rederive.optimum(v, data, A, G, kind, budget, W, data.get("first") if fixed else None)
    return v


def _verify_book(path: Path, answers, guesses, resolve_time, partial, sample, seed, progress, **unused) -> Verification:
    """An opener book's check (:func:`exact.wordle.book_verify.verify_book`); the options it has no use for
    are a one-line error (it re-solves opener by opener in this process, without weights)."""
    given = [k for k, x in unused.items() if x is not None]
    if given:
        raise ExactError(f"an opener book is re-solved opener by opener here, unweighted: "
                         f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} not for a book", path=path)
    return verify_book(path, answers=answers, guesses=guesses, sample=sample, seed=seed, seconds=resolve_time,
                       partial=partial, progress=progress)


def _budget(path: Path, kind: str, budget: Budget, checkpoint, resume) -> Budget:
    """The budget with the re-derivation's checkpoint and the certificate's sha256 (its header); a
    checkpoint is for the kinds whose records are re-derived one by one (a one-line error otherwise)."""
    if checkpoint is None and resume is None:
        return budget
    if kind not in ("fewest-ranking", "wins-global"):
        raise ExactError(f"a {kind} certificate is re-derived in one solve: --checkpoint and --resume are for "
                         f"rankings and global depth-k certificates", path=path)
    return dataclasses.replace(budget, checkpoint=None if checkpoint is None else str(checkpoint),
                               resume=None if resume is None else str(resume),
                               certificate=hashlib.sha256(path.read_bytes()).hexdigest())


def _weights(v: Verification, data: dict, A: WordList, given, path: Path, kind: str) -> Weights | None:
    """The weights of a weighted certificate (``weights``: their source, sha256, total), read from
    ``given`` (else from the source it records, found as its lists are) and checked against the sha256 it
    records; one-line errors for a weighted certificate whose weights are not found, weights with an unweighted one, a mismatch."""
    record = data.get("weights")
    if record is None:
        if given is not None and not read_weights(given, A).unit:
            raise ExactError(f"the certificate is unweighted, but weights were given ({given})", path=path)
        return None
    if kind not in ("wins-depth-k", "wins-global", "fewest", "fewest-ranking"):
        raise ExactError(f"a {kind} certificate with weights: not checked by this version", path=path)
    check_fields(record, {"sha256": "str", "total": "int"}, {"source": "str", "count": "int"}, source=str(path),
                 where="weights")
    if given is None:
        given = find_file(record["source"], path) if isinstance(record.get("source"), str) else None
    if given is None:
        raise ExactError(f"the certificate is weighted ({record.get('source')}, sha256 {record['sha256'][:16]}...), "
                         f"and its weights file is not found: pass --weights FILE (or --list nyt-prior)", path=path)
    W = read_weights(given, A)
    if W.sha256 != record["sha256"]:
        raise ExactError(f"the weights {given} (sha256 {W.sha256[:16]}...) are not the certificate's "
                         f"(sha256 {record['sha256'][:16]}...)", path=path)
    v.add("weights", W.total == record["total"] == data.get("weight"),
          f"{given}: sha256 {W.sha256[:16]}..., total weight {W.total}; the certificate says {record['total']} "
          f"(weight {data.get('weight')})")
    return W


def _weighted_histogram(tree, A: WordList, W: Weights, length: int) -> list[int]:
    """hist[k - 1] = the weight of the answers the tree plays at its k-th guess (answers it never
    plays are left out: the unweighted replay reports them)."""
    hist = [0] * length
    for a, w in zip(A.words, W.values.tolist()):
        node, step = tree, 1
        while node is not None and node.guess != a and step <= length:
            node, step = node.children.get(feedback(node.guess, a)), step + 1
        if node is not None and step <= length:
            hist[step - 1] += w
    return hist


#: what a JSON file that is not a Wordle certificate is, by its own marks (``exact wordle verify`` names it)
OTHER_RESULTS = (("kind", "exact.lingo.", "a Lingo result (kind {}): check it with `exact lingo verify`"),
                 ("format", "exact wordle card", "a memorable card ({}): `exact wordle card` reads it"),
                 ("problem", "", "a memorable-opener study result (problem {})"))


def other_result(data) -> str | None:
    """One line saying what ``data`` is when it is a known result that is not a Wordle certificate
    (a Lingo result, a card, a study's result), else None."""
    if not isinstance(data, dict):
        return None
    for key, prefix, what in OTHER_RESULTS:
        value = data.get(key)
        if isinstance(value, str) and value.startswith(prefix):
            return "this is " + what.format(repr(value[:40]))
    return None


def first_fixed(data: dict, kind: str) -> tuple[bool, str]:
    """(whether the certificate's first guess was fixed rather than searched, how that is known): its
    ``first_fixed`` field; a certificate written before it: a depth-k one names a fixed first guess
    in ``first``; a fewest-guesses one is read as fixed when it names one (the weaker claim: the
    best strategy opening with it); the rankings search every first guess asked for."""
    if "first_fixed" in data:
        return bool(data["first_fixed"]), "its first_fixed field"
    if kind in ("wins-global", "fewest-ranking"):
        return False, "a search over every first guess"
    return data.get("first") is not None, "inferred (written before first_fixed): fixed when it names a first guess"


def _check_claim(v: Verification, data: dict, kind: str, G: WordList) -> None:
    """The claim stated whole: the first guess fixed or searched, no OPTIMAL of an interrupted run,
    every word of ``after`` an allowed guess."""
    fixed, how = first_fixed(data, kind)
    if fixed and not isinstance(data.get("first"), str):
        v.add("first fixed", False, "first_fixed is true but no first guess is named")
    else:
        v.add("first fixed", True, (f"the first guess {data['first']} was fixed" if fixed else
                                    "every first guess was searched") + f" ({how})")
    if data.get("interrupted") is True or (data.get("this_run") or {}).get("interrupted") is True:
        v.add("interrupted", data["status"] != "OPTIMAL",
              f"the run was interrupted; status {data['status']} (an interrupted run proves no optimum)")
    after = data.get("after") or []
    if after:
        pairs = [x for pair in after for x in (pair if isinstance(pair, list) else [pair])]
        try:
            parse_history(" ".join(map(str, pairs)), G)
            v.add("after", True, f"{len(after)} guesses played before, each an allowed guess with its feedback")
        except ExactError as e:
            v.add("after", False, f"after: {str(e)[:120]}")


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


def _trees(v: Verification, data: dict, path: Path, records: bool = False):
    """(file, tree) for each tree file the certificate lists. With none listed, the value claimed is
    still checked when it is re-derived: an optimum (check "optimal"), or, with ``records`` (a global
    depth-k search, whose best exact record is re-derived with the others), the best so far."""
    tree = data.get("tree")
    if not tree:
        if data["status"] == "OPTIMAL":  # the value then rests on the re-derivation (check "optimal")
            v.add("tree", True, "no tree file listed: nothing to replay; the value is re-derived below")
        elif records:
            v.add("tree", True, "no tree file listed: nothing to replay; the best value so far is re-derived "
                                "below with the records")
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


def _check_wins(v: Verification, data: dict, A: WordList, G: WordList, path: Path, kind: str,
                W: Weights | None = None) -> None:
    wins, n = data["wins"], len(A) if W is None else W.total
    v.add("wins", 0 <= wins <= n, f"{wins} won of {n} ({'the answers' if W is None else 'their total weight'})")
    if "probability" in data:
        v.add("probability", 0 <= wins <= n and _close(data["probability"], wins / n),
              f"{data['probability']!r}; wins / n = {wins / n!r}" + ("" if 0 <= wins <= n else
                                                                     ": not a probability (check wins)"))
    optimal = data["optimal_first"]
    for file, tree in _trees(v, data, path, records=kind == "wins-global"):
        r = replay(tree, A, G, data["depth"], data["hard"])
        won = r.wins if W is None else sum(_weighted_histogram(tree, A, W, data["depth"]))
        v.add("tree", r.valid and won == wins,
              f"{file}: replayed from scratch: {won} / {n} within {data['depth']}, valid {r.valid}; "
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
    v.add("pruned", all(0 <= r["value"] < wins and r["value"] < r["threshold"] for r in pruned),
          f"{len(pruned)} pruned first guesses, each with a bound of at least 0, below its threshold and below {wins} "
          f"(largest bound {high}): none could do better")
    counts = {"first_guesses_resolved": len(records), "first_guesses_exact": len(exact),
              "first_guesses_pruned": len(pruned), "first_guesses": len(G), "open": len(G) - len(set(guesses))}
    wrong = {k: (data[k], c) for k, c in counts.items() if k in data and data[k] != c}
    v.add("counts", not wrong, "the counts agree with the records" if not wrong else
          "; ".join(f"{k}: {a} in the file, {b} recounted" for k, (a, b) in wrong.items()))
    if "proven_top" in data:
        proven = _wins_proven_top(records, G)
        v.add("proven top", data["proven_top"] == proven,
              f"{proven} exact values at least every pruned bound (largest {high}), with no first guess open; "
              f"claimed {data['proven_top']}")


def _wins_proven_top(records: list[dict], G: WordList) -> int:
    """How many exact values of a global depth-k search are proven in their place
    (:attr:`exact.wordle.wins.ranking.GlobalResult.proven_top`, recounted): 0 while a guess is open."""
    if len({r["guess"] for r in records}) < len(G):
        return 0
    high = max((r["value"] for r in records if not r["exact"]), default=None)
    return sum(1 for r in records if r["exact"] and (high is None or r["value"] >= high))


def _check_objective(v: Verification, data: dict, A: WordList, G: WordList, path: Path,
                     W: Weights | None = None) -> None:
    n, total, wins_at = len(A) if W is None else W.total, data["total"], data["wins_at"]
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
        c = parse_objective(data["objective"]).costs(data["max_guesses"], n)
        value = sum(int(c[min(k + 1, len(c) - 1)]) * w for k, w in enumerate(wins_at))
        v.add("cost", value == data["cost"], f"{data['cost']} under objective {data['objective']}; from wins_at "
                                             f"{value}")
    if data.get("lower_bound") is not None:
        v.add("lower bound", data["lower_bound"] <= value and (data["status"] != "OPTIMAL" or data["lower_bound"] == value),
              f"lower bound {data['lower_bound']}, value {value}, status {data['status']}")
    for file, tree in _trees(v, data, path):
        r = replay(tree, A, G, data["max_guesses"], data["hard"])
        solved = list(r.histogram) if W is None else _weighted_histogram(tree, A, W, data["max_guesses"])
        solved += [0] * (len(wins_at) - len(solved))
        replayed = sum((k + 1) * w for k, w in enumerate(solved))
        v.add("tree", r.valid and not r.lost and solved[: len(wins_at)] == wins_at and replayed == total,
              f"{file}: replayed from scratch: total {replayed}, solved {solved}, lost "
              f"{len(r.lost)}, valid {r.valid}; claimed total {total}, {wins_at}")
        if data.get("first"):
            v.add("tree first", tree.guess == data["first"], f"{file} opens with {tree.guess}; the first guess is "
                                                             f"fixed to {data['first']}")


def _replay_best(v: Verification, source, tree, data: dict, A: WordList, G: WordList, W: Weights | None) -> None:
    """The tree of a ranking's best first guess replayed from scratch: valid, every answer solved, opening
    with the best claimed and worth its claimed total (0 for a feasibility ranking)."""
    best = data["best"]
    r = replay(tree, A, G, data["max_guesses"], data["hard"])
    value = 0 if data["objective"] == "feasible" else r.total_guesses if W is None else sum(
        (k + 1) * h for k, h in enumerate(_weighted_histogram(tree, A, W, data["max_guesses"])))
    v.add("tree", r.valid and not r.lost and best is not None and tree.guess == best.get("guess")
          and value == best.get("total"),
          f"{source}: replayed from scratch: opens with {tree.guess}, total {value}, lost {len(r.lost)}, "
          f"valid {r.valid}; the best claimed: {best}")


def _rebuilt_best(v: Verification, data: dict, A: WordList, G: WordList, W: Weights | None) -> None:
    """No tree file listed for an OPTIMAL ranking: the best's tree is built afresh by the search and
    replayed, unless a check above failed or the re-derivation was cut short (then unconfirmed)."""
    best = data["best"]
    if v.failed or v.unconfirmed or not isinstance(best, dict) or best.get("guess") not in G.index:
        v.add("tree", None, "no tree of the best listed, and none rebuilt: its value is not replayed")
        return
    started = time.perf_counter()
    tree = rederive.best_tree(data, A, G, best["guess"], W)
    _replay_best(v, f"no tree file listed; the tree of {best['guess']} built afresh "
                    f"({time.perf_counter() - started:.1f} s)", tree, data, A, G, W)


def ranking_floor(data: dict, exact: list[int]) -> int:
    """The least bound a ranking's rejected guess needs for its claim: the run's threshold, ``cutoff + 1``
    (values up to the cutoff are exact), lowered to the ``top``-th least exact value (a guess that cannot
    beat it is outside the top); :data:`INF` with neither."""
    cutoff, top = data.get("cutoff"), data.get("top", 1)
    floor = int(INF) if cutoff is None else cutoff + 1
    return min(floor, exact[top - 1]) if isinstance(top, int) and 1 <= top <= len(exact) else floor


def _check_bounds(v: Verification, data: dict, records: dict, exact: list[int]) -> None:
    """Every bound settles the ranking's claim (at least :func:`ranking_floor`; the proven values are
    checked in "proven top"), and every value is one a search can return (0 to INF); whether each is
    true is re-derived (check "re-derived", each bound against itself)."""
    floor = ranking_floor(data, exact)
    low = sorted((x, w) for w, (x, e) in records.items() if not e and x < floor)
    wild = sorted(w for w, (x, _) in records.items() if not 0 <= x <= INF)
    v.add("bounds", not low and not wild,
          f"every bound at least {floor} (the ranking's floor: cutoff + 1, or the top-th exact value)"
          + (f"; but {' '.join(f'{w} at least {x}' for x, w in low[:3])}" if low else "")
          + (f"; values out of range: {' '.join(wild[:3])}" if wild else ""))


def _check_ranking(v: Verification, data: dict, A: WordList, G: WordList, path: Path, budget: Budget,
                   W: Weights | None = None) -> None:  # long: one check after another, each a line or two
    """A ranking certificate: its records, what derives from them, the tree of the best, and every
    record re-derived by the search (:func:`_rederive_ranking`); ``W`` its weights (None: unit)."""
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
    weight = len(A) if W is None else W.total
    if exact:
        total = exact[0][0]
        good = best is not None and best.get("total") == total and records.get(best.get("guess")) == (total, True) \
            and _close(best.get("mean", total / weight), total / weight)
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
    trees = list(_trees(v, data, path)) if data.get("tree") else []
    for file, tree in trees:
        _replay_best(v, file, tree, data, A, G, W)
    if cutoff is not None and exact and exact[-1][0] > cutoff:
        v.add("cutoff", False, f"an exact value {exact[-1][0]} ({exact[-1][2]}) above the cutoff {cutoff}: values above "
                               f"it are only bounded")
    _check_bounds(v, data, records, [x for x, _, _ in exact])
    rederive.ranking_records(v, data, A, G, records, budget, W)
    if data["status"] == "OPTIMAL" and not trees:
        _rebuilt_best(v, data, A, G, W)
