"""``exact wordle ...``: Wordle commands."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import echo_json, words_option
from exact.words import load_or_default, wordle_allowed, wordle_answers

ANSWERS_HELP = "Answer list, one word a line [default: the embedded 2315 Wordle answers]."
GUESSES_HELP = "Allowed guesses, one word a line [default: the embedded 12972 allowed words]."


@click.group()
def wordle():
    """Wordle: adaptive guessing within k guesses (Riddler, 14 Jan 2022)."""


@wordle.command()
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--metric", type=click.Choice(["classes", "worst", "mean", "expected", "entropy"]),
              default="classes", show_default=True,
              help="classes: most classes; worst: smallest largest class; mean: smallest n/classes; "
                   "expected: smallest sum |C|^2/n; entropy: most bits.")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True, help="How many openers to list.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def openers(answers, guesses, metric, top, as_json):
    """Rank first guesses by how they split the answers."""
    from exact.wordle.openers import rank_openers

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    ranked = rank_openers(answer_list, guess_list, metric, top)
    if as_json:
        echo_json([o.to_json() for o in ranked])
        return
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} ({len(guess_list)}), by {metric}")
    click.echo(f"{'rank':>4}  {'guess':<8} {'classes':>7} {'worst':>5} {'n/classes':>9} {'sum|C|^2/n':>10} {'entropy':>7}")
    for rank, o in enumerate(ranked, start=1):
        click.echo(f"{rank:4d}  {o.guess:<8} {o.classes:7d} {o.worst:5d} {o.mean_size:9.3f} {o.expected_size:10.3f} {o.entropy:7.3f}")


@wordle.command()
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=600, show_default=True,
              help="CP-SAT seconds per instance (the DP and brute force are not limited).")
@click.option("--only", multiple=True, metavar="NAME", help="Solve only these instances (repeatable).")
@click.option("--max-answers", type=click.IntRange(min=1), default=None, help="Skip instances with more answers.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="CP-SAT worker threads.")
@click.option("--generate", is_flag=True, help="(Re)write instances/wordle-ladder from the embedded lists, then stop.")
@click.option("--results", "results_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("results/wordle/ladder"), show_default=True, help="Folder for <instance>.json.")
@click.option("--models", "models_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("models/wordle"), show_default=True, help="Folder for the <instance>.pb CP-SAT models.")
@click.option("--no-export", is_flag=True, help="Do not write the models.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def ladder(time_limit, only, max_answers, workers, generate, results_dir, models_dir, no_export, as_json):
    """Solve the reduced-instance ladder with CP-SAT, the DP and brute force; check they agree."""
    from exact.errors import ExactError
    from exact.fileio import write_json
    from exact.wordle import ladder as lad

    if generate:
        manifest = lad.write_ladder(lad.ladder_dir())
        click.echo(f"wrote {len(manifest['instances'])} instances and {lad.MANIFEST} to {lad.ladder_dir()}")
        return
    lad.check_ladder()
    rungs = [lad.rung_named(name) for name in only] if only else lad.LADDER
    rows = []
    try:
        for rung in rungs:
            A, _ = lad.read_rung(rung)
            if max_answers is not None and len(A) > max_answers:
                continue
            lad.say(f"{rung.name}: {rung.describe()}")
            result = lad.solve_rung(rung, time_limit=time_limit, workers=workers,
                                    models=None if no_export else models_dir)
            write_json(results_dir / f"{rung.name}.json", result.to_json())
            rows.append(result)
            c = result.cpsat
            lad.say(f"{rung.name}: CP-SAT {c['status']} {c['wins']} (bound {c['bound']}, {c['seconds']} s), "
                    f"DP {result.dp['wins']}, brute force {result.brute_force}, agree {result.agree}")
    except KeyboardInterrupt:
        lad.say("interrupted; the instances finished so far are written")
    if as_json:
        echo_json([r.to_json() for r in rows])
    else:
        click.echo(f"{'instance':<20} {'n':>5} {'guesses':>7} {'k':>2} {'CP-SAT':>6} {'bound':>5} {'status':<8} "
                   f"{'DP':>5} {'brute':>5} {'seconds':>8}  agree")
        for r in rows:
            c = r.cpsat
            click.echo(f"{r.name:<20} {r.answers:5d} {r.guesses:7d} {r.depth:2d} {str(c['wins']):>6} {c['bound']:5d} "
                       f"{c['status']:<8} {r.dp['wins']:5d} {str(r.brute_force):>5} {c['seconds']:8.2f}  {r.agree}")
    if not all(r.agree for r in rows):
        raise ExactError("CP-SAT, the DP and brute force disagree on: "
                         + ", ".join(r.name for r in rows if not r.agree))


# --- Trees as data: verify a strategy file, evaluate simple policies ---------------

TREE_FORMATS = ["graphml", "json", "dot", "txt"]


@wordle.command()
@click.argument("tree_file", metavar="TREE", type=click.Path(dir_okay=False, path_type=Path))
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="Guesses allowed [default: the tree's own depth].")
@click.option("--hard", is_flag=True, help="Also check every guess against the hard-mode rule.")
@click.option("--format", "fmt", type=click.Choice(TREE_FORMATS), default=None,
              help="File format [default: from the extension: .graphml .json .dot .txt/.tree].")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (every lost answer and invalid node).")
def verify(tree_file, answers, guesses, depth, hard, fmt, as_json):
    """Replay every answer through a strategy TREE from scratch and score it.

    Exit status: 0 when the tree is valid (answers lost within the depth are not errors, and nor are
    recorded answer counts that differ from this answer list: those are notes), 1 when it has
    invalid nodes (a guess not allowed, a missing branch, a hard-mode violation, a node answers
    reach beyond the depth), 2 for an unreadable or malformed file.
    """
    import sys

    from exact.wordle.tree import replay, tree_depth
    from exact.wordle.treeio import read_tree

    tree = read_tree(tree_file, fmt)
    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    result = replay(tree, answer_list, guess_list, depth or tree_depth(tree), hard)
    if as_json:
        echo_json({"tree": str(tree_file), "answers": answer_list.source, "answers_sha256": answer_list.sha256,
                   "guesses": guess_list.source, "guesses_sha256": guess_list.sha256, **result.to_json()})
    else:
        click.echo(f"tree: {tree_file} (first guess {tree.guess}), answers: {answer_list.source} ({len(answer_list)}), "
                   f"guesses: {guess_list.source} ({len(guess_list)}), depth {result.depth}"
                   f"{', hard mode' if hard else ''}")
        click.echo(f"wins {result.wins} / {result.n} = {result.probability:.6f}; "
                   f"won with 1..{result.depth} guesses: {' '.join(map(str, result.wins_at))}")
        shown = 20
        if result.lost:
            more = f" ... and {len(result.lost) - shown} more (--json lists all)" if len(result.lost) > shown else ""
            click.echo(f"lost {len(result.lost)}: {' '.join(result.lost[:shown])}{more}")
        if result.notes:
            click.echo(f"note: {len(result.notes)} nodes record answer counts that differ from this answer list "
                       f"(first: [{result.notes[0].path or 'root'}] {result.notes[0].message})")
        click.echo(f"valid: {'yes' if result.valid else f'no, {len(result.invalid)} invalid nodes'}")
        for p in result.invalid[:shown]:
            click.echo(f"  {p.kind}: at [{p.path or 'root'}] {p.guess}: {p.message}")
        if len(result.invalid) > shown:
            click.echo(f"  ... and {len(result.invalid) - shown} more (--json lists all)")
    if not result.valid:
        sys.exit(1)


@wordle.command()
@click.option("--first", required=True, metavar="WORD", help="The first guess.")
@click.option("--second", "policy", required=True,
              type=click.Choice(["most-classes", "most-classes-answers", "most-classes-consistent",
                                 "min-worst", "max-entropy", "all"]),
              help="How later guesses are chosen (all: every policy, as a table).")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", type=click.IntRange(min=1), default=3, show_default=True, help="Guesses allowed.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the policy's tree (.graphml .json .dot .txt); one policy only.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def evaluate(first, policy, answers, guesses, depth, out, as_json):
    """Score a simple policy exactly: its tree after --first, replayed on every answer.

    The policy picks every guess after the first but the last; the last guess is a still-possible
    answer. Policies and tie-breaks are described in exact/wordle/policies.py.
    """
    from exact.errors import ExactError
    from exact.wordle.policies import POLICIES, evaluate_policy
    from exact.wordle.treeio import write_tree
    from exact.words import check_words

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    (first,) = check_words([first], guess_list.length, "--first")
    policies = POLICIES if policy == "all" else (policy,)
    if out is not None and len(policies) > 1:
        raise ExactError("--out writes one policy's tree; name one policy with --second")
    results = [evaluate_policy(answer_list, guess_list, first, p, depth) for p in policies]
    if out is not None:
        write_tree(results[0].tree, out, answers=answer_list)
    if as_json:
        echo_json([r.to_json() for r in results] if policy == "all" else results[0].to_json())
        return
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), first guess {first}, depth {depth}")
    click.echo(f"{'policy':<24} {'wins':>5} {'n':>5} {'probability':>11} {'2nd words':>9}  replay")
    for r in results:
        click.echo(f"{r.policy:<24} {r.wins:5d} {r.n:5d} {r.probability:11.6f} {r.second_guesses:9d}  "
                   f"{'valid' if r.replay.valid else 'INVALID'}")
    if out is not None:
        click.echo(f"wrote {out}")


@wordle.command()
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", "-k", type=click.IntRange(min=1), default=3, show_default=True,
              help="Guesses allowed (k).")
@click.option("--hard", is_flag=True, help="Hard mode: every guess after the first keeps the NYT rule.")
@click.option("--first", default=None, help="Fix the first guess: its exact value (optimal play after it).")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many first guesses to report with exact values.")
@click.option("--out", type=click.Path(dir_okay=False), multiple=True,
              help="Write the optimal tree (format from the extension: .graphml, .json, .dot, .txt); repeatable.")
@click.option("--certificate", type=click.Path(dir_okay=False), default=None,
              help="Write the result as a JSON certificate (lists' sha256, method, time, cores).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--max-distinct-second", "max_second", type=click.IntRange(min=1), default=None,
              help="The memorable variant: at most M distinct second guesses (depth 3, first guess "
                   "fixed, default trace); the same as `exact wordle memorable --max-distinct-second M`.")
@click.option("--cluster", default=None, metavar="local|ADDRESS",
              help="Spread first guesses over a Dask cluster: 'local' starts one on this machine's cores, "
                   "ADDRESS (tcp://host:8786) joins a running scheduler. Needs pip install -e '.[cluster]'.")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="Append every finished first guess (value or pruning bound) to this JSON-lines file.")
@click.option("--resume", type=click.Path(dir_okay=False, exists=True), default=None,
              help="Continue the run recorded in this checkpoint (and keep appending to it).")
@click.option("--batch", type=click.IntRange(min=1), default=8, show_default=True,
              help="First guesses per task (with --cluster, --checkpoint or --resume).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Workers of --cluster local [default: one per core].")
@click.pass_context
def solve(ctx, answers, guesses, depth, hard, first, top, out, certificate, as_json, max_second,
          cluster, checkpoint, resume, batch, workers):
    """Prove the most answers any strategy wins within --depth guesses (exact DP).

    With --cluster, --checkpoint or --resume: the global search over every first guess with an
    incumbent, batches of first guesses, a checkpoint and resume (exact/wordle/depth4.py).
    """
    if cluster or checkpoint or resume:
        from exact.cli.wordle_global import solve_global
        from exact.errors import ExactError

        if first is not None or max_second is not None:
            raise ExactError("--cluster, --checkpoint and --resume search every first guess: "
                             "drop --first and --max-distinct-second")
        return solve_global(ctx, load_or_default(answers, wordle_answers), load_or_default(guesses, wordle_allowed),
                            depth, hard, top, out, certificate, as_json, cluster, checkpoint, resume, batch,
                            workers)
    if max_second is not None:
        from exact.errors import ExactError

        if depth != 3 or hard or certificate or len(out) > 1:
            raise ExactError("--max-distinct-second takes depth 3, no --hard, no --certificate and at most one --out")
        return ctx.invoke(memorable, M=max_second, answers=answers, guesses=guesses, first=first,
                          out=Path(out[0]) if out else None, as_json=as_json)
    from exact.fileio import write_json
    from exact.wordle.dp import TIE_BREAK, best_tree, solve as solve_dp, tie_break_first
    from exact.errors import ExactError
    from exact.wordle.tree import replay
    from exact.wordle.treeio import tree_format, write_tree
    from exact.words import check_words

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    if first is not None:
        (first,) = check_words([first], guess_list.length, "--first")
    for path in out:
        tree_format(path)  # a bad extension fails now, not after the search
    result = solve_dp(answer_list, guess_list, depth=depth, hard=hard, first=first, top=top)
    data = result.to_json()
    if out and result.status != "NONE":
        root = tie_break_first(result)
        tree = best_tree(answer_list, guess_list, depth, root, hard)
        played = replay(tree, answer_list, guess_list, depth=depth, hard=hard)
        data["tree"] = {"files": list(out), "first": root, "tie_break": TIE_BREAK,
                        "replay": {"wins": played.wins, "valid": played.valid}}
        if played.wins != result.wins or not played.valid:
            raise ExactError(f"internal error: the tree replays to {played.wins} wins "
                             f"({len(played.invalid)} invalid nodes), not {result.wins}")
        for path in out:
            write_tree(tree, path, answers=answer_list)
    if certificate is not None:
        write_json(certificate, data)
    if as_json:
        echo_json(data)
        return
    mode = "hard mode, " if hard else ""
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), {mode}depth {depth}" + (f", first guess {first}" if first else ""))
    click.echo(f"wins {result.wins} / {result.n} = {result.probability:.6f}  status {result.status}  "
               f"({result.seconds:.1f} s, {result.cores} threads; {result.exact_count} of "
               f"{result.evaluated} first guesses evaluated exactly, the rest pruned by bounds)")
    if first is None:
        click.echo(f"optimal first guesses: {' '.join(result.optimal_first)}")
        click.echo(f"top {len(result.top)} first guesses (exact):")
        for rank, (g, v) in enumerate(result.top, start=1):
            click.echo(f"{rank:4d}  {g:<8} {v:5d}  {v / result.n:.6f}")
    if "tree" in data:
        click.echo(f"wrote {', '.join(out)} (first guess {data['tree']['first']}; replayed: "
                   f"{data['tree']['replay']['wins']} wins, valid)")


@wordle.command()
@click.option("--sample", type=click.IntRange(min=1), default=6, show_default=True,
              help="First guesses timed with the unpruned baseline.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of that sample.")
@click.option("--no-baseline", is_flag=True, help="Skip the baseline kernels (their depth-3 proof takes minutes).")
def bench(sample, seed, no_baseline):
    """Time the depth-3 proof and depth 4 (trace) against the baseline kernels and the unpruned DP, in one run."""
    from exact.wordle.bench import run_wordle_bench

    run_wordle_bench(sample=sample, seed=seed, baseline=not no_baseline, echo=click.echo)


@wordle.command()
@click.option("--max-distinct-second", "M", type=click.IntRange(min=1), default=None,
              help="At most this many distinct second guesses across all first-feedback classes.")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--first", default=None, help="The fixed first guess [default: trace].")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=60, show_default=True,
              help="Seconds per CP-SAT call.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="CP-SAT worker threads.")
@click.option("--curve", is_flag=True, help="Solve for M = 1, 2, 3, 5, 10, 20, ... up to the number of classes.")
@click.option("--m-values", default=None, metavar="M,M,...", help="With --curve: these M values instead.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the tree (.graphml, .json, .dot, .txt); with --curve, write the curve (.json, and a .csv beside it).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def memorable(M, answers, guesses, first, time_limit, workers, curve, m_values, out, as_json):
    """The best depth-3 tree after a fixed first guess using at most M distinct second guesses."""
    from exact.errors import ExactError
    from exact.words import check_words
    from exact.wordle import memorable as mem

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    first = check_words([first], guess_list.length, "--first")[0] if first else mem.DEFAULT_FIRST
    if curve == (M is not None):
        raise ExactError("give either --max-distinct-second M or --curve")
    if not curve:
        result = mem.solve_memorable(answer_list, guess_list, first, M, time_limit=time_limit, workers=workers)
        if out is not None:
            from exact.wordle.treeio import write_tree

            write_tree(result.tree, out, answers=answer_list)
        if as_json:
            echo_json(result.to_json())
            return
        click.echo(f"first {result.first}, at most {M} distinct second guesses: {result.status} {result.wins}/{result.n} "
                   f"= {result.probability:.4f} (bound {result.bound}; unconstrained {result.unconstrained}) "
                   f"in {result.seconds:.1f} s, {workers} CP-SAT workers")
        click.echo("second guesses: " + " ".join(result.second_guesses))
        return
    try:
        values = None if m_values is None else sorted({int(v) for v in m_values.split(",")})
    except ValueError:
        raise ExactError(f"--m-values {m_values!r}: give whole numbers separated by commas") from None
    if values is not None and min(values) < 1:
        raise ExactError("--m-values: every M must be at least 1")
    data = mem.curve_json(mem.memorable_curve(
        answer_list, guess_list, first, values, time_limit=time_limit, workers=workers,
        progress=lambda r: click.echo(f"exact: M={r.M}: {r.status} {r.wins} (bound {r.bound}), {r.seconds:.1f} s",
                                      err=True)), answer_list, guess_list)
    if out is not None:
        mem.write_curve(data, out)
    if as_json:
        echo_json(data)
        return
    click.echo(f"first {first}: {data['classes']} first-feedback classes, unconstrained {data['unconstrained']}/{data['n']}, "
               f"smallest full cover {data['full_cover']}")
    click.echo(f"{'M':>4} {'wins':>5} {'bound':>5} {'P(win)':>7} {'status':<8} {'seconds':>8}")
    for p in data["points"]:
        click.echo(f"{p['M']:4d} {p['wins']:5d} {p['bound']:5d} {p['probability']:7.4f} {p['status']:<8} {p['seconds']:8.1f}")
