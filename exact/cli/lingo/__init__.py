"""``exact lingo ...``: Lingo commands."""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import asdict
from pathlib import Path

import click

from exact.cli.common import check_outputs, echo_json, exit_interrupted, words_option, write_all
from exact.cli.common import seconds
from exact.fileio import read_json, write_json, write_text
from exact.game.position import MAX_GUESSES
from exact.lingo.adaptive import KIND, check_certificate, solve_adaptive_levels, table_markdown, write_adaptive
from exact.lingo.bound import upper_bound
from exact.lingo.columns import column_bound
from exact.lingo.score import first_letters
from exact.partitions import feedback_matrix
from exact.words import check_words, enable_words, load_or_default, require_in_pool


@click.group()
def lingo():
    """Lingo: choose k guesses in advance, told the first letter (Riddler, 29 Jan 2021)."""


@lingo.command()
@click.argument("guesses", nargs=-1, required=True)
@words_option("--words", "The pool (guesses and answers), one word a line [default: the vendored 8636 ENABLE words, instances/lingo/enable-5.txt].")
@click.option("--allow-nonwords", is_flag=True, help="Score guesses outside the pool (any letter strings of the pool's length).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a report.")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True, help="Stumper classes to list in the report.")
def score(guesses, words, allow_nonwords, as_json, top):
    """The exact win probability of the fixed GUESSES on the pool."""
    from exact.api import lingo_score  # lazy: start-up (measured 0.15 s)

    pool = load_or_default(words, enable_words)
    result = lingo_score(guesses, pool, allow_nonwords=allow_nonwords)
    if as_json:
        echo_json(result.to_json())
        return
    click.echo(f"pool:        {pool.source} ({result.n} words, sha256 {pool.sha256[:12]})")
    click.echo(f"guesses:     {' '.join(result.guesses)}")
    click.echo(f"wins:        {result.wins} / {result.n} = {result.probability:.4%}")
    click.echo(f"alone:       {result.solved_exactly} answers are alone in their class")
    click.echo(f"largest:     {result.largest_class} words in each of {len(result.stumpers)} class(es)")
    for c in result.stumpers[:top]:
        click.echo(f"  stumper:   {' '.join(c)}")
    if len(result.stumpers) > top:
        click.echo(f"  ... and {len(result.stumpers) - top} more (see --json)")
    click.echo("by first letter:")
    click.echo("  letter  words   wins  P(win)")
    for s in result.by_letter:
        click.echo(f"  {s.letter:>6} {s.n:6d} {s.wins:6d}  {s.wins / s.n:7.2%}")


@lingo.command()
@words_option("--words", "The pool (guesses and answers), one word a line [default: the vendored 8636 ENABLE words, instances/lingo/enable-5.txt].")
@click.option("-k", "k", type=int, default=4, show_default=True, help="How many guesses to choose.")
@click.option("--time-limit", type=seconds(), default=120.0, show_default=True,
              help="Seconds for search, CP-SAT (small pools) and bound together.")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True, help="Seed of the search (each worker derives its own).")
@click.option("--workers", type=int, default=2, show_default=True, help="Parallel search processes.")
@click.option("--max-rounds", type=int, default=None,
              help="Stop each search worker after this many rounds: the result then does not depend on timing.")
@click.option("--bound-time", type=seconds(open=False), default=None, help="Seconds for the upper bound [default: 20% of the time limit].")
@click.option("--cpsat-max-n", type=int, default=400, show_default=True,
              help="Run CP-SAT after the search on pools of at most this many words.")
@click.option("--start", default="", help="Words (space or comma separated) that search worker 0 starts from.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON instead of a report.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the result file (JSON, atomically), also after Ctrl-C. With --adaptive and several "
                   "K, put {K} in the name.")
@click.option("--adaptive", is_flag=True,
              help="The adaptive game (TV rules): guess with feedback, up to --guesses-allowed guesses; exact.")
@click.option("--guesses-allowed", "guesses_allowed", default=None,
              help="With --adaptive: K, or several as 2,3,4 or 2-6 (one result per K).")
@click.option("--same-first-letter", is_flag=True, help="With --adaptive: every guess starts with the given letter.")
@click.option("--trees", "trees_dir", default=None,
              help="With --adaptive: write one optimal tree per letter into this folder ({K} is replaced).")
@click.option("--letters", default=None, help="With --adaptive: solve only these first letters (e.g. xyz).")
@click.option("--letter-time-limit", type=seconds(open=False), default=None, metavar="SECONDS",
              help="With --adaptive: seconds for each letter's search at each K; a letter that runs out keeps "
                   "its best strategy (FEASIBLE, a lower bound; upper bound its word count) [default: none].")
@click.option("--resume", is_flag=True,
              help="With --adaptive: continue from the certificates at --out (for each K asked, and K - 1 below "
                   "the first): a letter proven there at some K is kept at that K (with its tree), the rest solved.")
def solve(words, k, time_limit, seed, workers, max_rounds, bound_time, cpsat_max_n, start, as_json, out,
          adaptive, guesses_allowed, same_first_letter, trees_dir, letters, letter_time_limit, resume):
    """The best k guesses found, their exact wins, and a valid upper bound (progress on stderr).

    With --adaptive: the exact win probability of the adaptive game within K guesses, per first
    letter and overall, with the optimal strategy trees (the Wordle engine, letter by letter).
    """
    if adaptive:
        _solve_adaptive(words, guesses_allowed, same_first_letter, trees_dir, letters, as_json, out,
                        letter_time_limit, resume)
        return
    if (guesses_allowed is not None or same_first_letter or trees_dir is not None or letters is not None
            or letter_time_limit is not None or resume):
        raise click.UsageError("--guesses-allowed, --same-first-letter, --trees, --letters, "
                               "--letter-time-limit and --resume need --adaptive")
    from exact.lingo.result import write_result  # lazy: start-up (measured 0.41 s, ortools)
    from exact.lingo.solve import SolveParams, solve_lingo  # lazy: start-up (measured 0.37 s, ortools)

    pool = load_or_default(words, enable_words)
    params = SolveParams(k=k, time_limit=time_limit, seed=seed, workers=workers, max_rounds=max_rounds,
                         bound_time=bound_time, cpsat_max_n=cpsat_max_n,
                         start=tuple(start.replace(",", " ").split()))
    command = "exact " + shlex.join(sys.argv[1:])
    check_outputs(out)
    result = solve_lingo(pool, params, instance=None if words else "wordle-answers", command=command,
                         progress=lambda line: click.echo(line, err=True))
    failed = write_all([lambda: write_result(out, result)] if out is not None else [])
    if out is not None and not failed:
        click.echo(f"wrote {out}", err=True)
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(f"pool:        {pool.source} ({result.n} words, sha256 {pool.sha256[:12]})")
        click.echo(f"guesses:     {' '.join(result.guesses)}")
        click.echo(f"wins:        {result.wins} / {result.n} = {result.probability:.4%}")
        click.echo(f"upper bound: {result.upper_bound} / {result.n} = {result.bound_probability:.4%} ({result.bound_method})")
        click.echo(f"gap:         {result.gap_points:.2f} percentage points")
        click.echo(f"status:      {result.status}{' (interrupted)' if result.interrupted else ''}")
        click.echo(f"method:      {result.method}, seed {result.seed}, {result.seconds:.1f} s")
    if result.interrupted:
        exit_interrupted()
    if failed:
        sys.exit(2)


def parse_levels(text: str | None) -> list[int]:
    """``5`` -> [5]; ``2,3,4`` -> [2, 3, 4]; ``2-6`` -> [2, ..., 6]."""
    if text is None:
        raise click.UsageError("--adaptive needs --guesses-allowed K")

    Ks: list[int] = []
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            if max(int(lo), int(hi or lo)) > MAX_GUESSES:  # before the range is made (1-10**11 filled memory)
                raise click.BadParameter(f"{text!r:.40}: at most {MAX_GUESSES} guesses (exact.game.position."
                                         "MAX_GUESSES)", param_hint="--guesses-allowed")
            Ks.extend(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise click.BadParameter(f"{text!r}: give K, K1,K2 or K1-K2", param_hint="--guesses-allowed") from None
    for part in text.split(","):
        lo, _, hi = part.strip().partition("-")
        if hi and int(hi) < int(lo):
            raise click.BadParameter(f"{text!r}: the range {part.strip()} runs backwards; write {hi}-{lo}",
                                     param_hint="--guesses-allowed")
    if not Ks or min(Ks) < 1:
        raise click.BadParameter(f"{text!r}: allow at least one guess", param_hint="--guesses-allowed")
    return sorted(set(Ks))


def _solve_adaptive(words, guesses_allowed, same_first_letter, trees_dir, letters, as_json, out,
                    letter_time_limit=None, resume=False):
    Ks = parse_levels(guesses_allowed)
    if trees_dir is not None and out is None:
        raise click.UsageError("--trees writes the letters' trees beside the certificate: give --out too")
    for name, value in (("--out", out), ("--trees", trees_dir)):
        if value is not None and len(Ks) > 1 and "{K}" not in str(value):
            raise click.BadParameter(f"{value}: with several K put {{K}} in the name", param_hint=name)
    pool = load_or_default(words, enable_words)
    command = "exact " + shlex.join(sys.argv[1:])
    earlier = {}
    if resume:
        if out is None:
            raise click.UsageError("--resume reads the certificates at --out: give --out")

        # the level below the first K asked too: the search solves it first (see solve_adaptive_levels)
        paths = {K: Path(str(out).replace("{K}", str(K))) for K in range(max(1, Ks[0] - 1), Ks[-1] + 1)}
        if "{K}" not in str(out):  # one K, one file: it is that K's certificate, not the level below's too
            paths = {Ks[0]: Path(out)}
        earlier = {K: read_json(path, "adaptive certificate") for K, path in paths.items() if path.is_file()}
    results = solve_adaptive_levels(pool, Ks, same_first_letter=same_first_letter, trees=trees_dir is not None,
                                    letters=letters, show_progress=True, command=command,
                                    letter_time_limit=letter_time_limit, resume=earlier)
    for K, r in results.items():
        if out is not None:
            path = Path(str(out).replace("{K}", str(K)))
            write_adaptive(r, path, None if trees_dir is None else Path(str(trees_dir).replace("{K}", str(K))))
            click.echo(f"wrote {path}", err=True)
    if as_json:
        echo_json({str(K): r.to_json() for K, r in results.items()} if len(Ks) > 1 else results[Ks[0]].to_json())
    else:
        any_r = results[Ks[0]]
        click.echo(f"pool:     {pool.source} ({len(pool)} words, sha256 {pool.sha256[:12]})")
        click.echo(f"guesses:  {'same first letter only' if same_first_letter else 'any pool word'}")
        click.echo("letter  words  " + "  ".join(f"{f'K={K}':>12}" for K in Ks))
        for o in any_r.letters:
            row = [next((x for x in results[K].letters if x.letter == o.letter), None) for K in Ks]
            click.echo(f"{o.letter:>6} {o.n:6d}  " + "  ".join(f"{x.wins:6d} {'' if x.status == 'OPTIMAL' else '*'}"
                                                              f"{x.wins / x.n:5.1%}" if x else f"{'-':>12}" for x in row))
        click.echo(f"{'all':>6} {len(pool):6d}  " + "  ".join(f"{r.wins:6d} {r.probability:6.2%}" for r in results.values()))
        click.echo("status:   " + ", ".join(f"K={K} {r.status}" for K, r in results.items()))
        if any(r.status != "OPTIMAL" and r.complete for r in results.values()):
            click.echo("bounds:   " + ", ".join(f"K={K} {r.wins}..{r.upper_bound}" for K, r in results.items()
                                                if r.complete) + "  (* = letter not proven: wins is a lower bound)")
    if any(r.interrupted for r in results.values()):
        exit_interrupted()


@lingo.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@words_option("--words", "The pool to check against [default: the path stored in the result].")
@click.option("--bound-time", type=seconds(open=False), default=0.0, show_default=True,
              help="Seconds to re-run the bound's method where the pool is too big to enumerate.")
@click.option("--partial", is_flag=True,
              help="Accept a bound (or OPTIMAL status) that cannot be reconfirmed here; check the rest.")
@click.option("--json", "as_json", is_flag=True, help="Print the checks as JSON.")
def verify(file, words, bound_time, partial, as_json):
    """Recompute a result FILE's wins from scratch and check its claimed value and bound.

    Exit status 0 only when every check passes: a bound that could not be recomputed (a large pool
    without --bound-time) fails the verification unless --partial asks for the other checks only.
    """
    from exact.lingo.result import verify_result  # lazy: start-up (measured 0.41 s, ortools)

    v = verify_result(file, words=words, bound_time=bound_time, partial=partial)
    if as_json:
        echo_json(v.to_json())
    else:
        for name, outcome, detail in v.checks:
            click.echo(f"{outcome:>11}  {name:<13} {detail}")
        if v.ok and v.unconfirmed:
            click.echo(f"{file}: partly verified (--partial; not confirmed: {', '.join(v.unconfirmed)})")
        elif v.unconfirmed and not v.ok and not any(o == "FAIL" for _, o, _ in v.checks):
            click.echo(f"{file}: NOT VERIFIED: {', '.join(v.unconfirmed)} could not be confirmed "
                       f"(give --bound-time S to recompute it, or --partial to accept it unchecked)")
        else:
            click.echo(f"{file}: {'verified' if v.ok else 'REJECTED'}")
    if not v.ok:
        sys.exit(1)


@lingo.command()
@click.option("--time-limit", type=seconds(), default=600.0, show_default=True,
              help="CP-SAT seconds per instance.")
@click.option("--only", multiple=True, help="Solve only this instance (repeatable); no climbing rule.")
@click.option("--family", "families", multiple=True, help="Climb only this family (repeatable), e.g. answers-letter.")
@click.option("-k", "k", type=click.IntRange(min=1), default=4, show_default=True, help="Guesses to choose.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="CP-SAT workers (cores).")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True, help="CP-SAT random seed.")
@click.option("--instances", "instances_folder", type=click.Path(file_okay=False, path_type=Path),
              default=Path("instances/lingo-ladder"), show_default=True, help="Folder of the instance files.")
@click.option("--results", "results_folder", type=click.Path(file_okay=False, path_type=Path),
              default=Path("results/lingo"), show_default=True, help="Folder for the certificates.")
@click.option("--models", "models_folder", type=click.Path(file_okay=False, path_type=Path),
              default=Path("models/lingo"), show_default=True, help="Folder for the exported CP-SAT models.")
@click.option("--brute-max-sets", type=click.IntRange(min=0), default=5_000_000, show_default=True,
              help="Cross-check by enumerating all k-sets when there are at most this many.")
@click.option("--list", "list_only", is_flag=True, help="List the ladder's instances and exit.")
@click.option("--write-instances", is_flag=True, help="Write the instance files and manifest, then exit.")
@click.option("--log", is_flag=True, help="Show CP-SAT's search log.")
def ladder(time_limit, only, families, k, workers, seed, instances_folder, results_folder, models_folder,
           brute_max_sets, list_only, write_instances, log):
    """Solve the reduced-instance ladder with CP-SAT: one certificate and one model file per instance.

    Each family (source list and rule) is climbed in increasing size and stops at the first instance
    not proven optimal within the time limit.
    """
    from exact.lingo.ladder import FAMILIES, find_rung, solve_rung, write_instance, write_manifest  # lazy: start-up (measured 0.44 s, ortools)
    from exact.lingo.result import write_result  # lazy: start-up (measured 0.41 s, ortools)

    if list_only:
        for family, rungs in FAMILIES.items():
            for r in rungs:
                click.echo(f"{family:<15} {r.name:<28} n={len(r.words())}")
        return
    for family in families:
        if family not in FAMILIES:
            raise click.BadParameter(f"unknown family {family!r} (one of {', '.join(FAMILIES)})", param_hint="--family")
    if write_instances:
        for rungs in FAMILIES.values():
            for r in rungs:
                write_instance(instances_folder, r)
        write_manifest(instances_folder)
        click.echo(f"wrote the ladder's instances and manifest into {instances_folder}")
        return
    if only:
        plan = [("only", [find_rung(name) for name in only])]
    else:
        plan = [(f, FAMILIES[f]) for f in (families or FAMILIES)]
    write_manifest(instances_folder)
    command = "exact lingo ladder " + shlex.join(sys.argv[3:] if sys.argv[1:3] == ["lingo", "ladder"] else [])
    click.echo(f"{'instance':<28} {'n':>5} {'k':>2} {'wins':>5} {'bound':>5} {'status':<9} {'seconds':>8}  cores",
               err=True)
    for family, rungs in plan:
        for i, rung in enumerate(rungs):
            result = solve_rung(rung, folder=instances_folder, k=k, time_limit=time_limit, workers=workers,
                                seed=seed, models=models_folder, brute_max_sets=brute_max_sets, log=log,
                                command=command.strip())
            write_result(results_folder / f"{rung.name}.json", result)
            brute = result.stats.get("brute_force")
            check = f"  brute force {brute['optimum']}" if brute else ""
            click.echo(f"{rung.name:<28} {result.n:5d} {k:2d} {result.wins:5d} {result.upper_bound:5d} "
                       f"{result.status:<9} {result.seconds:8.1f}  {workers}{check}", err=True)
            if result.interrupted:
                click.echo("interrupted: stopped the ladder", err=True)
                exit_interrupted()
            if result.status != "OPTIMAL" and family != "only":
                for rest in rungs[i + 1:]:
                    click.echo(f"{rest.name:<28} skipped: {rung.name} was not proven within {time_limit:g} s",
                               err=True)
                break


@lingo.command()
@words_option("--words", "The pool (guesses and answers), one word a line [default: the vendored 8636 ENABLE words, instances/lingo/enable-5.txt].")
@click.option("-k", "k", type=int, default=4, show_default=True, help="How many guesses the bound is for.")
@click.option("--time-limit", type=seconds(), default=600.0, show_default=True,
              help="Seconds for the branch and bound; stopped early, the bound is weaker but still valid.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON instead of a report.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the result file (JSON, atomically), also after Ctrl-C.")
@click.option("--columns", is_flag=True,
              help="Add the column budget (exact.lingo.columns): tighter, slower.")
@click.option("--exact-doubles", type=click.IntRange(min=0), default=1, show_default=True,
              help="With --columns: doubled-letter sets up to this size are searched exactly (larger: relaxed).")
@click.option("--update", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="With --columns: a solve result file whose bound this one replaces when it is lower (needs --out).")
@click.option("--fixed", "fixed_text", default="", metavar="WORDS",
              help="With --columns: bound only the k-sets holding these words (step 8 of exact.lingo.columns).")
@click.option("--target", type=click.IntRange(min=1), default=None,
              help="With --columns: seek only choices that reach this many wins (closed when none does).")
@click.option("--stop-when-open", is_flag=True,
              help="With --target: stop at the first relaxed choice reaching the target (the bound cannot close it).")
def bound(words, k, time_limit, as_json, out, columns, exact_doubles, update, fixed_text, target, stop_when_open):
    """A valid upper bound on the wins of ANY k guesses from the pool (the argument: exact.lingo.bound,
    with --columns exact.lingo.columns)."""
    pool = load_or_default(words, enable_words)
    check_outputs(out)
    if update is not None and (out is None or not columns):
        raise click.UsageError("--update needs --columns and --out (the bound file the updated result points to)")
    fixed = fixed_text.replace(",", " ").split()
    if (fixed or target or stop_when_open) and not columns:
        raise click.UsageError("--fixed, --target and --stop-when-open need --columns")
    if update is not None and (fixed or target):
        raise click.UsageError("--update takes a bound over every set: not with --fixed or --target")
    if columns:
        result = column_bound(pool, k, time_limit=time_limit, progress=True, exact_doubles=exact_doubles,
                              fixed=fixed, target=target, stop_when_open=stop_when_open)
    else:
        result = upper_bound(pool, None, k, time_limit=time_limit, progress=True)
    data = {
        "instance": {"source": str(pool.source), "n": len(pool), "sha256": pool.sha256},
        **result.to_json(),
        "time_limit": time_limit,
        "cores": os.cpu_count(),
        "command": "exact " + shlex.join(sys.argv[1:]),
    }
    failed = write_all([lambda: write_json(out, data)] if out is not None else [])
    if out is not None and not failed:
        click.echo(f"wrote {out}", err=True)
    if as_json:
        echo_json(data)
    else:
        click.echo(f"pool:        {pool.source} ({result.n} words, sha256 {pool.sha256[:12]})")
        holding = f" holding {' '.join(fixed)}" if fixed else ""
        click.echo(f"upper bound: {result.value} / {result.n} = {result.value / result.n:.4%} for any {k} guesses{holding}"
                   + (" (complete)" if result.complete else " (stopped early: anytime bound)"))
        if target:
            d = result.details
            click.echo(f"target:      {target} wins: " + ("closed (no such set reaches it)" if d.get("closed") else
                       f"open: a relaxed choice loses only {d['witness']}, so this bound is at least "
                       f"{result.n - d['witness']}" if d.get("open") else "not decided"))
        click.echo(f"method:      {result.method}")
        click.echo(f"time:        {result.seconds:.1f} s on {os.cpu_count()} cores")
    if update is not None and not failed:
        from exact.lingo.result import COLUMN_METHOD, update_bound  # lazy: start-up (measured 0.41 s, ortools)

        click.echo(update_bound(update, out, result.value, pool.sha256, k, COLUMN_METHOD,
                                {"complete": result.complete, "seconds": result.seconds,
                                 "certified_losses": result.details.get("certified_losses")}), err=True)
    if result.details.get("interrupted"):
        exit_interrupted()
    if failed:
        sys.exit(2)


@lingo.command("group-bound")
@words_option("--words", "The pool (guesses and answers), one word a line [default: the vendored 8636 ENABLE words, instances/lingo/enable-5.txt].")
@click.option("-k", "k", type=click.IntRange(min=1), default=4, show_default=True, help="How many guesses the bound is for.")
@click.option("--fixed-positions", type=click.IntRange(min=0, max=4), default=3, show_default=True,
              help="Groups: words sharing the first letter and this many more positions (greedy, largest first, disjoint).")
@click.option("--max-group", type=click.IntRange(min=2), default=None, help="Cut larger families into pieces of this size.")
@click.option("--groups", "groups_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Read the groups from a file instead (one group a line, words separated by spaces).")
@click.option("--time-limit", type=seconds(), default=300.0, show_default=True,
              help="CP-SAT seconds; stopped early, its proven bound is still valid.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="CP-SAT workers.")
@click.option("--subsolvers", default=None, help="CP-SAT subsolvers, comma separated [default: core, then max_lp, ...].")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True, help="CP-SAT random seed.")
@click.option("--hint", default="", help="A good k-set (space or comma separated) to start CP-SAT from.")
@click.option("--letters-only", is_flag=True,
              help="Leave out the guess variables: letters tied only by implied constraints (weaker, smaller).")
@click.option("--log", is_flag=True, help="Show CP-SAT's search log.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the certificate (JSON, atomically).")
@click.option("--update", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A solve result file whose bound this one replaces when it is lower (needs --out).")
def group_bound_command(words, k, fixed_positions, max_group, groups_file, time_limit, workers, subsolvers, seed,
                        hint, letters_only, log, out, update):
    """A valid upper bound on the wins of ANY k guesses, by CP-SAT on grouped relaxations (exact.lingo.groups)."""
    from exact.lingo.groups import certificate, greedy_grouping, group_bound, make_grouping  # lazy: start-up (measured 0.50 s, ortools)

    pool = load_or_default(words, enable_words)
    if groups_file is not None:
        lines = [ln.split() for ln in Path(groups_file).read_text().splitlines() if ln.strip() and not ln.startswith("#")]
        grouping, how = make_grouping(pool, lines), f"from {groups_file}"
    else:
        grouping = greedy_grouping(pool, fixed_positions, max_group)
        how = f"greedy_grouping(fixed_positions={fixed_positions}, max_size={max_group})"
    hint_words = list(check_words(hint.replace(",", " ").split(), pool.length, "--hint")) or None
    if update is not None and out is None:
        raise click.UsageError("--update needs --out (the certificate the updated result points to)")
    b = group_bound(pool, grouping, k, time_limit=time_limit, workers=workers, seed=seed, hint=hint_words, log=log,
                    subsolvers=subsolvers.split(",") if subsolvers else None, real_words=not letters_only)
    command = "exact " + shlex.join(sys.argv[1:])
    data = certificate(pool, grouping, b, command=command, how=how)
    if out is not None:
        write_json(out, data)
        click.echo(f"wrote {out}", err=True)
    click.echo(f"pool:        {pool.source} ({len(pool)} words, sha256 {pool.sha256[:12]})")
    click.echo(f"groups:      {len(grouping.groups)} ({grouping.members} words; {grouping.rest} in no group), {how}")
    click.echo(f"CP-SAT:      {b.status}, best {b.inner_best}, proven bound {b.inner_bound} on the groups, {b.seconds:.0f} s")
    click.echo(f"upper bound: {b.value} / {len(pool)} = {b.value / len(pool):.4%} for any {k} guesses")
    if update is not None and b.status != "UNKNOWN":
        from exact.lingo.result import GROUP_METHOD, update_bound  # lazy: start-up (measured 0.41 s, ortools)

        click.echo(update_bound(update, out, b.value, data["instance_sha256"], data["k"], GROUP_METHOD,
                                {"rest": data["rest"], "inner_bound": data["inner_bound"],
                                 "cpsat_status": data["cpsat_status"], "groups": len(data["groups"]),
                                 "seconds": data["seconds"]}), err=True)
    if b.interrupted:
        exit_interrupted()


@lingo.command("lns")
@click.argument("guesses", nargs=-1, required=True)
@words_option("--words", "The pool (guesses and answers), one word a line [default: the vendored 8636 ENABLE words, instances/lingo/enable-5.txt].")
@click.option("--free", type=click.IntRange(min=1), default=2, show_default=True, help="Guesses re-chosen per step.")
@click.option("--candidates", type=click.IntRange(min=2), default=300, show_default=True,
              help="Candidate words per step (the best replacements of each free position).")
@click.option("--time-limit", type=seconds(), default=120.0, show_default=True,
              help="CP-SAT seconds per step.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="CP-SAT workers.")
@click.option("--rounds", type=click.IntRange(min=1), default=3, show_default=True, help="Rounds over all neighbourhoods.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write the steps (JSON).")
def lns_command(guesses, words, free, candidates, time_limit, workers, rounds, out):
    """CP-SAT large-neighbourhood steps from GUESSES: re-choose --free of them exactly over a candidate pool."""
    from exact.lingo.lns import lns  # lazy: start-up (measured 0.34 s, ortools)

    pool = load_or_default(words, enable_words)
    guesses = check_words(guesses, pool.length)
    require_in_pool(guesses, pool)
    if free >= len(guesses):
        raise click.BadParameter(f"{free}: free fewer than the {len(guesses)} guesses", param_hint="--free")
    F = feedback_matrix(pool, pool)
    r = lns(F, first_letters(pool.words), [pool.index[g] for g in guesses], free=free, candidates=candidates,
            time_limit=time_limit, workers=workers, rounds=rounds)
    best = [pool.words[g] for g in r.guesses]
    click.echo(f"start:  {' '.join(guesses)}: {r.start_wins} / {len(pool)}")
    click.echo(f"best:   {' '.join(best)}: {r.wins} / {len(pool)} ({len(r.steps)} steps, "
               f"{sum(s.status == 'OPTIMAL' for s in r.steps)} proven optimal in their neighbourhood)")
    if out is not None:
        write_json(out, {"words": pool.source, "instance_sha256": pool.sha256, "start": list(guesses),
                         "start_wins": r.start_wins, "best": best, "wins": r.wins, "free": free,
                         "candidates": candidates, "time_limit": time_limit, "workers": workers, "cores": os.cpu_count(),
                         "interrupted": r.interrupted, "command": "exact " + shlex.join(sys.argv[1:]),
                         "steps": [asdict(s) | {"fixed": [pool.words[g] for g in s.fixed]} for s in r.steps]})
    if r.interrupted:
        exit_interrupted()


@lingo.command("adaptive-table")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write the table (markdown).")
def adaptive_table(files, out):
    """A markdown table of adaptive-game certificates FILES (one row per pool and guess rule, a column per K)."""
    data = [check_certificate(read_json(f, "adaptive certificate"), str(f)) for f in files]
    bad = [str(f) for f, d in zip(files, data) if not isinstance(d, dict) or d.get("kind") != KIND]
    if bad:
        raise click.BadParameter(f"{bad[0]}: not an adaptive certificate (kind {KIND})", param_hint="FILES")
    text = table_markdown(data)
    if out is not None:
        write_text(out, text)
        click.echo(f"wrote {out}", err=True)
    click.echo(text, nl=False)


from exact.cli.lingo.play import lingo_play  # noqa: E402  (the terminal player, a module of its own)

lingo.add_command(lingo_play)
from exact.cli.lingo.proof import lingo_prove  # noqa: E402  (the proof as a search, a module of its own)

lingo.add_command(lingo_prove)
