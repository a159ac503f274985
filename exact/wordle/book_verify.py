"""Re-checking an opener book (``exact wordle verify BOOK``): what the book claims, re-derived here.

A book (:mod:`exact.wordle.study.book`) claims, for each opener, a tree that solves every answer of its
lists within ``max_guesses`` with the total its header says, and that this total is the least any
strategy opening with it takes (so each subtree is the proven best at its position: the argument of
the book's module docstring). The checks, each ``ok``, ``FAIL`` or ``unconfirmed``
(:class:`exact.fileio.Verification`, as for the other certificates):

- ``answers``, ``guesses``: the lists, taken from the header's lists record where it names a shipped
  list (:func:`exact.words.named_lists`), else from ``--answers`` / ``--guesses`` (one line when
  neither is there): their sha256 and counts those the header names;
- ``content``: the trees' sha256 the header's (damage; a forger recomputes it, hence the rest);
- ``trees``: every opener's tree replayed from scratch answer by answer (:func:`exact.game.tree.replay`,
  plain-Python feedback, independent of the reader's replay and of the search): it opens with its
  opener, every guess is allowed (and obeys the hard-mode rule in hard mode), every answer is solved
  within ``max_guesses``, every node records the answers that reach it, and the total is the
  header's; one FAIL line per opener that does not;
- ``re-derived``: each opener's least total re-solved by the search that made the book
  (:func:`exact.wordle.fewest.search.solve_guesses` with ``first=OPENER``) and compared with the tree's:
  a tree worth more than the optimum (a worse subtree swapped in) is a FAIL. ``sample``: only that many
  openers, drawn with ``seed``, and ``seconds``: no new opener started after that long, are
  "partly verified" (``unconfirmed``), never "verified". The first contradiction stops it.

Ctrl-C and SIGTERM stop it as they stop any command (exit 130, 143): an interrupted re-solve proves
nothing, so none is reported.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from exact.errors import ExactError
from exact.fileio import Verification
from exact.game.tree import path_text, preorder, replay
from exact.progress import say
from exact.wordle.fewest.search import solve_guesses
from exact.wordle.study.book import check_form, content_sha256, decode_tree, read_book_data
from exact.words import LIST_NAMES, WordList, describe_lists, named_lists, read_words


def verify_book(path: str | Path, *, answers: str | Path | None = None, guesses: str | Path | None = None,
                sample: int | None = None, seed: int = 0, seconds: float | None = None, partial: bool = False,
                progress: bool | None = False) -> Verification:
    """Check an opener book (the module docstring lists the checks); ``answers``/``guesses``: list files
    for a book made on lists that are not shipped."""
    data = read_book_data(path)
    check_form(data, path)
    v = Verification(str(path), partial=partial)
    A, G = book_lists(v, data["lists"], answers, guesses, path)
    if A is None or G is None:
        return v
    v.add("content", content_sha256(data["trees"]) == data.get("content_sha256"),
          f"the trees' sha256 {content_sha256(data['trees'])[:16]}...; the header says "
          f"{str(data.get('content_sha256'))[:16]}...")
    totals = replay_openers(v, data, A, G)
    if v.failed:
        v.add("re-derived", None, "not re-derived: a check above failed")
        return v
    resolve_openers(v, data, A, G, totals, Budget(sample, seed, seconds, progress))
    return v


def book_lists(v: Verification, record: dict, answers, guesses, path) -> tuple[WordList | None, WordList | None]:
    """The lists the book was made on: the named list its header records (the shipped files), or the
    files given (each overrides its side); each checked against the header's sha256 and count."""
    named = record.get("list") if record.get("list") in LIST_NAMES else None
    if named is None and (answers is None or guesses is None):
        raise ExactError(f"the book was made on {describe_lists(record)}, not on a shipped list: pass --answers "
                         f"FILE and --guesses FILE", path=str(path))
    shipped = named_lists(named) if named is not None else (None, None)
    out = []
    for key, given, default in (("answers", answers, shipped[0]), ("guesses", guesses, shipped[1])):
        words = read_words(given) if given is not None else default
        sha, count = record.get(f"{key}_sha256"), record.get(f"{key}_count")
        v.add(key, words.sha256 == sha and len(words) == count,
              f"{words.source}: {len(words)} words, sha256 {words.sha256[:16]}...; the header names {count} words, "
              f"sha256 {str(sha)[:16]}...")
        out.append(words)
    return (out[0], out[1]) if not v.failed else (None, None)


def replay_openers(v: Verification, data: dict, A: WordList, G: WordList) -> dict[str, int]:
    """Each opener's tree replayed from scratch (check ``trees``: one FAIL per opener that does not
    replay to its header's claims, else one line for all); opener -> the total its tree takes."""
    started, totals, bad = time.perf_counter(), {}, 0
    for word, encoded in data["trees"].items():
        claimed = data["openers"][word]["total"]
        try:
            tree = decode_tree(encoded, f"opener {word}")
            r = replay(tree, A, G, depth=data["max_guesses"], hard=data["hard"])
        except ExactError as e:
            v.add("trees", False, f"{word}: {e}")
            bad += 1
            continue
        wrong = tree_problems(word, tree, r, claimed)
        if wrong:
            v.add("trees", False, f"{word}: replayed from scratch: " + "; ".join(wrong))
            bad += 1
        totals[word] = r.total_guesses
    if not bad:
        v.add("trees", True, f"{len(totals)} openers' trees replayed from scratch in {time.perf_counter() - started:.1f} "
                             f"s: each opens with its opener, every guess allowed{' in hard mode' * data['hard']}, "
                             f"every answer solved within {data['max_guesses']}, every node's count the answers "
                             f"reaching it, each total the header's")
    return totals


def tree_problems(word: str, tree, r, claimed: int) -> list[str]:
    """What is wrong with an opener's tree by its replay ``r`` (the first of each kind), none when it
    opens with the opener, is valid, solves every answer within the depth, records the answers reaching
    each node and takes the ``claimed`` total."""
    out = []
    if tree.guess != word:
        out.append(f"opens with {tree.guess}")
    if r.invalid:
        p = r.invalid[0]
        out.append(f"{len(r.invalid)} invalid nodes (first: {p.kind} at [{p.path or 'root'}] {p.guess}: {p.message})")
    if r.lost:
        out.append(f"{len(r.lost)} answers not solved within {r.depth} (first: {r.lost[0]})")
    counts = [p for p in r.notes if p.kind == "count"]
    if counts:
        out.append(f"{len(counts)} nodes record answers that do not reach them (first: [{counts[0].path or 'root'}] "
                   f"{counts[0].guess} {counts[0].message})")
    unreached = [h for h, node in preorder(tree) if node.answers == 0]
    if unreached:
        out.append(f"{len(unreached)} branches no answer takes (first: [{path_text(unreached[0], len(word))}])")
    if r.total_guesses != claimed:
        out.append(f"the header says total {claimed}, the tree takes {r.total_guesses}")
    return out


class Budget:
    """How much of a book to re-solve: ``sample`` openers drawn with ``seed`` (None: every one), no new
    opener after ``seconds`` (None: no limit); ``progress``: a line per opener on stderr (False: none)."""

    def __init__(self, sample: int | None, seed: int, seconds: float | None, progress: bool | None):
        self.sample, self.seed, self.seconds, self.progress = sample, seed, seconds, progress

    def openers(self, words: list[str]) -> list[str]:
        if self.sample is None or self.sample >= len(words):
            return list(words)
        drawn = set(random.Random(self.seed).sample(sorted(words), self.sample))
        return [w for w in words if w in drawn]


def resolve_openers(v: Verification, data: dict, A: WordList, G: WordList, totals: dict[str, int],
                    budget: Budget) -> None:
    """Each opener's least total re-solved (check ``re-derived``), stopping at the first contradiction."""
    todo, done, started = budget.openers(list(totals)), [], time.perf_counter()
    for word in todo:
        if budget.seconds is not None and time.perf_counter() - started > budget.seconds:
            break
        t = time.perf_counter()
        r = solve_guesses(A, G, first=word, hard=data["hard"], max_guesses=data["max_guesses"],
                          progress=False if budget.progress is False else None)
        if r.interrupted:
            raise KeyboardInterrupt  # an interrupted solve proves no optimum: the command stops (130, 143)
        if r.status != "OPTIMAL" or r.total != totals[word]:
            least = r.total if r.status == "OPTIMAL" else f"status {r.status}"
            v.add("re-derived", False, f"{word}: re-solved by exact.wordle.fewest.search: the least total is {least}, "
                                       f"the book's tree takes {totals[word]}: not the fewest guesses after {word}; "
                                       f"{len(done)} openers agreed before it")
            return
        done.append(word)
        if budget.progress is not False:
            say(f"verify: {word} re-solved, total {r.total}, in {time.perf_counter() - t:.1f} s ({len(done)} of "
                f"{len(todo)})")
    seconds = time.perf_counter() - started
    if len(done) == len(totals):
        v.add("re-derived", True, f"{len(done)} of {len(totals)} openers re-solved by exact.wordle.fewest.search in "
                                  f"{seconds:.1f} s: each tree's total the least after its opener")
    else:
        why = (f"a sample, seed {budget.seed}: {' '.join(done[:8])}{' ...' * (len(done) > 8)}"
               if len(todo) < len(totals) and len(done) == len(todo) else f"stopped after {budget.seconds:g} s")
        v.add("re-derived", None, f"{len(done)} of {len(totals)} openers re-solved ({why}); no contradiction")
