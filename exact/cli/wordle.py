"""``exact wordle ...``: Wordle commands."""

from __future__ import annotations

from pathlib import Path

import click

import sys

from exact.cli.common import check_outputs, echo_json, exit_interrupted, words_option, write_all
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
    from exact.progress import say
    from exact.wordle import ladder as lad

    if generate:
        manifest = lad.write_ladder(lad.ladder_dir())
        click.echo(f"wrote {len(manifest['instances'])} instances and {lad.MANIFEST} to {lad.ladder_dir()}")
        return
    lad.check_ladder()
    rungs = [lad.rung_named(name) for name in only] if only else lad.LADDER
    rows = []
    interrupted = False
    try:
        for rung in rungs:
            A, _ = lad.read_rung(rung)
            if max_answers is not None and len(A) > max_answers:
                continue
            say(f"{rung.name}: {rung.describe()}")
            result = lad.solve_rung(rung, time_limit=time_limit, workers=workers,
                                    models=None if no_export else models_dir)
            write_json(results_dir / f"{rung.name}.json", result.to_json())
            rows.append(result)
            c = result.cpsat
            say(f"{rung.name}: CP-SAT {c['status']} {c['wins']} (bound {c['bound']}, {c['seconds']} s), "
                f"DP {result.dp['wins']}, brute force {result.brute_force}, agree {result.agree}")
    except KeyboardInterrupt:
        interrupted = True
        say("interrupted; the instances finished so far are written")
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
    if interrupted:
        exit_interrupted()


# --- Trees as data: verify a strategy file, convert it, evaluate simple policies ---------------

from exact.wordle.treeio import FORMATS as _TREE_FORMATS  # noqa: E402  (light: no networkx until used)

TREE_FORMATS = list(_TREE_FORMATS)
TREE_SUFFIXES = " ".join(s for f in _TREE_FORMATS.values() for s in f.suffixes)


def echo_replay(result, shown: int = 20) -> None:
    """Print what a replay says about a tree (the statistics every tree command reports)."""
    def row(values):
        return " ".join(f"{k}:{v}" for k, v in enumerate(values, start=1))

    click.echo(f"guesses used (answers solved with k guesses): {row(result.histogram) or 'none'}")
    if result.solved:
        every = "every answer" if result.complete else f"{result.n - result.solved} never solved"
        click.echo(f"solved {result.solved} / {result.n} ({every}); total {result.total_guesses} guesses, "
                   f"mean {result.mean_guesses:.4f}, worst case {result.worst}")
    click.echo(f"wins within k guesses: {row(result.wins_within)}")
    click.echo(f"wins {result.wins} / {result.n} = {result.probability:.6f} within {result.depth} guesses")
    if result.lost:
        more = f" ... and {len(result.lost) - shown} more (--json lists all)" if len(result.lost) > shown else ""
        click.echo(f"lost {len(result.lost)}: {' '.join(result.lost[:shown])}{more}")
    deeper = [p for p in result.notes if p.kind == "depth"]
    if deeper:
        click.echo(f"note: {len(result.beyond)} answers are solved only after guess {result.depth} "
                   f"({len(deeper)} nodes deeper than the depth; first: [{deeper[0].path}] {deeper[0].guess})")
    counts = [p for p in result.notes if p.kind == "count"]
    if counts:
        click.echo(f"note: {len(counts)} nodes record answer counts that differ from this answer list "
                   f"(first: [{counts[0].path or 'root'}] {counts[0].message})")
    if result.claims_checked:
        wrong = [p for p in result.invalid + result.notes if p.kind == "claim"]
        click.echo(f"the file's own statistics: {result.claims_checked} nodes' counts checked, "
                   + ("all agree" if not wrong else f"{len(wrong)} differ (first: [{wrong[0].path or 'root'}] "
                                                      f"{wrong[0].message})"))
    click.echo(f"valid: {'yes' if result.valid else f'no, {len(result.invalid)} invalid nodes'}")
    for p in result.invalid[:shown]:
        click.echo(f"  {p.kind}: at [{p.path or 'root'}] {p.guess}: {p.message}")
    if len(result.invalid) > shown:
        click.echo(f"  ... and {len(result.invalid) - shown} more (--json lists all)")


@wordle.command()
@click.argument("tree_file", metavar="TREE", type=click.Path(dir_okay=False, path_type=Path))
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="Guesses allowed [default: the tree's own depth].")
@click.option("--hard", is_flag=True, help="Also check every guess against the hard-mode rule.")
@click.option("--format", "fmt", type=click.Choice(TREE_FORMATS), default=None,
              help="File format [default: detected from the text; see docs/tree-formats.md].")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (every lost answer and invalid node).")
@click.option("--resolve-time", type=click.FloatRange(min=0), default=30.0, show_default=True,
              help="For a CERTIFICATE: seconds to re-derive its optimum by the same search.")
@click.option("--partial", is_flag=True,
              help="For a CERTIFICATE: accept an optimum that cannot be re-derived here; check the rest.")
def verify(tree_file, answers, guesses, depth, hard, fmt, as_json, resolve_time, partial):
    """Replay every answer through a strategy TREE from scratch and score it.

    Reports the guesses each answer takes (histogram, total, mean, worst case), the wins within
    each k and within --depth, the answers lost, and checks the statistics the file states about
    itself (Olson's ranking.counts, the emoji format's counts). An answer reached only through a
    guess that is not allowed is never a win.

    Exit status: 0 when the tree is valid (answers lost, nodes deeper than --depth and answer counts
    recorded for another list are notes, not errors), 1 when it has invalid nodes (a guess not
    allowed, a missing branch, a hard-mode violation, wrong stated statistics), 2 for an
    unreadable or malformed file.

    Given a certificate of `exact wordle solve --certificate` instead of a tree, it re-checks its
    claims: the lists' sha256, its trees replayed against the claimed wins or total, the first
    guesses' entries, and the optimum (re-derived within --resolve-time; else "not verified", exit 1,
    unless --partial). Exit 0 when every check passes, 1 when one fails.
    """
    import sys

    from exact.wordle.tree import replay, tree_depth
    from exact.wordle.treeio import load_tree

    if fmt in (None, "json") and _certificate(tree_file):
        return _verify_certificate(tree_file, answers, guesses, resolve_time, partial, as_json)
    tree, fmt = load_tree(tree_file, fmt)
    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    result = replay(tree, answer_list, guess_list, depth or tree_depth(tree), hard)
    if as_json:
        echo_json({"tree": str(tree_file), "format": fmt, "first": tree.guess, "answers": answer_list.source,
                   "answers_sha256": answer_list.sha256, "guesses": guess_list.source,
                   "guesses_sha256": guess_list.sha256, **result.to_json()})
    else:
        click.echo(f"tree: {tree_file} ({fmt}, first guess {tree.guess}), answers: {answer_list.source} "
                   f"({len(answer_list)}), guesses: {guess_list.source} ({len(guess_list)}), depth {result.depth}"
                   f"{', hard mode' if hard else ''}")
        echo_replay(result)
    if not result.valid:
        sys.exit(1)


def _certificate(path: Path) -> bool:
    """Whether ``path`` is a Wordle certificate (JSON with lists and a method), not a tree."""
    from exact.errors import ExactError
    from exact.fileio import read_json
    from exact.wordle.certificate import is_certificate

    try:
        with open(path, "rb") as f:
            if f.read(64).lstrip()[:1] != b"{":
                return False
    except OSError:
        return False  # load_tree reports it
    try:
        return is_certificate(read_json(path))
    except ExactError:
        return False


def _verify_certificate(path, answers, guesses, resolve_time, partial, as_json) -> None:
    import sys

    from exact.wordle.certificate import verify_certificate

    v = verify_certificate(path, answers=answers, guesses=guesses, resolve_time=resolve_time, partial=partial)
    if as_json:
        echo_json(v.to_json())
    else:
        for name, outcome, detail in v.checks:
            click.echo(f"{outcome:>11}  {name:<13} {detail}")
        if v.failed:
            click.echo(f"{path}: REJECTED")
        elif v.unconfirmed and not partial:
            click.echo(f"{path}: NOT VERIFIED: {', '.join(v.unconfirmed)} could not be confirmed here "
                       f"(--resolve-time S to re-derive, or --partial to accept it unchecked)")
        elif v.unconfirmed:
            click.echo(f"{path}: partly verified (--partial; not confirmed: {', '.join(v.unconfirmed)})")
        else:
            click.echo(f"{path}: verified")
    if not v.ok:
        sys.exit(1)


@wordle.command(help="Convert a strategy tree between formats (IN's is detected from its text; OUT's comes from "
                     "its suffix). The tree is replayed on the answer list and its totals printed; OUT is written "
                     "atomically. Formats (docs/tree-formats.md): "
                     + "; ".join(f"{name}: {f.what} ({' '.join(f.suffixes)})" for name, f in _TREE_FORMATS.items())
                     + ".")
@click.argument("in_file", metavar="IN", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("out_file", metavar="OUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--from", "from_fmt", type=click.Choice(TREE_FORMATS), default=None,
              help="Format of IN [default: detected from the text].")
@click.option("--to", "to_fmt", type=click.Choice(TREE_FORMATS), default=None,
              help=f"Format of OUT [default: from its suffix: {TREE_SUFFIXES}].")
@words_option("--answers", ANSWERS_HELP + " The formats with a line or leaf per answer walk it through the tree.")
def convert(in_file, out_file, from_fmt, to_fmt, answers):
    """Convert a strategy tree between formats (help text built from treeio.FORMATS above)."""
    import warnings

    from exact.wordle.tree import replay, tree_depth
    from exact.wordle.treeio import format_for_path, load_tree, write_tree

    to_fmt = format_for_path(out_file, to_fmt)  # a bad suffix fails before any work
    tree, from_fmt = load_tree(in_file, from_fmt)
    answer_list = load_or_default(answers, wordle_answers)
    result = replay(tree, answer_list, depth=tree_depth(tree))
    differ = [p for p in result.notes if p.kind == "count"]
    if differ and _TREE_FORMATS[to_fmt].needs_answers:
        warnings.warn(f"{in_file}: {len(differ)} nodes record other answer counts than {answer_list.source} "
                      f"has; {out_file} follows {answer_list.source}")
    if result.unsolved and to_fmt in ("olson", "lists"):
        warnings.warn(f"{out_file}: the {to_fmt} format has no way to say an answer is lost; the "
                      f"{len(result.unsolved)} answers the tree does not solve are left out")
    write_tree(tree, out_file, to_fmt, answers=answer_list)
    mean = f", mean {result.mean_guesses:.4f}" if result.solved else ""
    click.echo(f"wrote {out_file} ({to_fmt}) from {in_file} ({from_fmt}): first guess {tree.guess}, "
               f"{result.solved} of {result.n} answers solved, total {result.total_guesses} guesses{mean}, "
               f"worst case {result.worst}")


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
@click.option("--max-guesses", type=click.IntRange(min=1), default=6, show_default=True,
              help="The tree written is completed past --depth (fewest guesses, exact): every answer "
                   "solved within this many guesses.")
@click.option("--truncate", is_flag=True, help="Write the depth-limited tree (answers past --depth are lost).")
def evaluate(first, policy, answers, guesses, depth, out, as_json, max_guesses, truncate):
    """Score a simple policy exactly: its tree after --first, replayed on every answer.

    The policy picks every guess after the first but the last; the last guess is a still-possible
    answer. Policies and tie-breaks are described in exact/wordle/policies.py.
    """
    from exact.errors import ExactError
    from exact.wordle.policies import POLICIES, evaluate_policy
    from exact.wordle.treeio import write_tree
    from exact.cli.guesses import call, checked_word
    from exact.words import check_answers_are_guesses

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    check_answers_are_guesses(answer_list, guess_list)
    first = checked_word(first, guess_list, "--first")
    policies = POLICIES if policy == "all" else (policy,)
    if out is not None and len(policies) > 1:
        raise ExactError("--out writes one policy's tree; name one policy with --second")
    if out is not None and not truncate and depth > max_guesses:
        raise ExactError(f"--depth {depth} is more than --max-guesses {max_guesses}")
    complete = max_guesses if (out is not None and not truncate) else None
    results = [call(evaluate_policy, answer_list, guess_list, first, p, depth, complete) for p in policies]
    if out is not None:
        write_tree(results[0].tree, out, answers=answer_list)
    if as_json:
        data = [{**r.to_json(), "replay": r.replay.to_json()} for r in results]
        echo_json(data if policy == "all" else data[0])
        return
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), first guess {first}, depth {depth}")
    click.echo(f"{'policy':<24} {'wins':>5} {'n':>5} {'probability':>11} {'2nd words':>9} {'solved':>6} "
               f"{'total':>6} {'mean':>6} {'worst':>5}  replay")
    for r in results:
        p = r.replay
        mean = f"{p.mean_guesses:6.3f}" if p.solved else f"{'-':>6}"
        click.echo(f"{r.policy:<24} {r.wins:5d} {r.n:5d} {r.probability:11.6f} {r.second_guesses:9d} {p.solved:6d} "
                   f"{p.total_guesses:6d} {mean} {p.worst or 0:5d}  {'valid' if p.valid else 'INVALID'}")
    click.echo("solved, total, mean, worst: the answers the tree solves and the guesses they take")
    if len(results) == 1:
        click.echo("")
        echo_replay(results[0].replay)
    if out is not None:
        extra = results[0].lists.get("complete")
        click.echo(f"wrote {out}" + (f" (complete: every answer solved within {max_guesses}, total "
                                      f"{extra['total_guesses']} guesses)" if extra else " (truncated at the depth)"))


@wordle.command()
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", "-k", type=click.IntRange(min=1), default=None,
              help="Guesses allowed (k): maximise the wins within k  [default: 3].")
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
@click.option("--objective", default=None, metavar="LIST",
              help="guesses: the fewest total guesses, every answer solved within --max-guesses; or a "
                   "lexicographic list such as win3,guesses (most answers within 3, then fewest guesses).")
@click.option("--max-guesses", type=click.IntRange(min=1), default=6, show_default=True,
              help="Every answer is solved within this many guesses (the written trees are complete).")
@click.option("--cutoff", type=click.IntRange(min=0), default=None, metavar="T",
              help="With --objective: only look for strategies of value <= T; proves 'no better than T' fast.")
@click.option("--after", default=None, metavar="'GUESS PATTERN ...'",
              help="Solve the position after these guesses and their feedback (any pattern notation).")
@click.option("--compare", default=None, metavar="WORD",
              help="Also report the exact value of playing WORD (at the position) against the best guess.")
@click.option("--truncate", is_flag=True, help="Write the depth-limited tree (answers past --depth are lost).")
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
def solve(ctx, answers, guesses, depth, hard, first, top, out, certificate, as_json, max_second, objective,
          max_guesses, cutoff, after, compare, truncate, cluster, checkpoint, resume, batch, workers):
    """Prove the most answers any strategy wins within --depth guesses (exact DP), or, with
    --objective, the best complete strategy for the fewest guesses (exact branch and bound).

    With --cluster, --checkpoint or --resume: the global search over every first guess with an
    incumbent, batches of first guesses, a checkpoint and resume (exact/wordle/depth4.py).
    """
    if cluster or checkpoint or resume:
        from exact.cli.wordle_global import solve_global
        from exact.errors import ExactError

        if first is not None or max_second is not None or objective is not None or after or compare:
            raise ExactError("--cluster, --checkpoint and --resume search every first guess of the depth-k "
                             "objective: drop --first, --max-distinct-second, --objective, --after and --compare")
        return solve_global(ctx, load_or_default(answers, wordle_answers), load_or_default(guesses, wordle_allowed),
                            3 if depth is None else depth, hard, top, out, certificate, as_json, cluster,
                            checkpoint, resume, batch, workers, max_guesses=max_guesses, truncate=truncate)
    from exact.errors import ExactError

    if objective is not None:
        from exact.cli.guesses import solve_objective

        if depth is not None or max_second is not None:
            raise ExactError("--objective replaces --depth and --max-distinct-second (use winK levels, e.g. win3,guesses)")
        return solve_objective(answers=answers, guesses=guesses, objective=objective, first=first,
                               max_guesses=max_guesses, hard=hard, cutoff=cutoff, after=after, compare=compare,
                               out=out, certificate=certificate, as_json=as_json, truncate=truncate)
    depth = 3 if depth is None else depth
    if cutoff is not None:
        raise ExactError("--cutoff needs --objective")
    if max_second is not None:
        if depth != 3 or hard or certificate or len(out) > 1 or after or compare:
            raise ExactError("--max-distinct-second takes depth 3, no --hard, --certificate, --after or "
                             "--compare and at most one --out")
        return ctx.invoke(memorable, M=max_second, answers=answers, guesses=guesses, first=first,
                          out=Path(out[0]) if out else None, as_json=as_json, max_guesses=max_guesses,
                          truncate=truncate)
    from exact.cli.guesses import call, checked_word, history_of
    from exact.fileio import write_json
    from exact.wordle.dp import optimal_tree, solve as solve_dp
    from exact.wordle.guesses import position_answers
    from exact.wordle.treeio import tree_format, write_tree

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    first = checked_word(first, guess_list, "--first")
    compare = checked_word(compare, guess_list, "--compare")
    history = history_of(after, guess_list)
    if not truncate and depth > max_guesses:
        raise ExactError(f"--depth {depth} is more than --max-guesses {max_guesses}")
    for path in out:
        tree_format(path)  # a bad extension fails now, not after the search
    check_outputs(*out, certificate)  # and so does a destination that cannot be written
    result = call(solve_dp, answer_list, guess_list, depth=depth, hard=hard, first=first, top=top, after=history)
    data = result.to_json()
    if compare is not None and not result.interrupted:
        other = call(solve_dp, answer_list, guess_list, depth=depth, hard=hard, first=compare, top=1, after=history)
        data["compare"] = {"guess": compare, "wins": other.wins, "best_guess": result.optimal_first[0],
                           "best_wins": result.wins, "fewer_wins": result.wins - other.wins}
    tree = played = None
    if out and result.status != "UNKNOWN":
        if result.interrupted:
            click.echo("exact: building the optimal tree after the best first guess so far "
                       "(Ctrl-C again to skip it)", err=True)
        try:
            tree, info, played = call(optimal_tree, result, max_guesses=max_guesses, truncate=truncate)
            data["tree"] = {"files": list(out), **info, "report": played.to_json()}
        except KeyboardInterrupt:
            result.interrupted = True
            data["interrupted"] = True
            click.echo("exact: interrupted while building the tree; no tree written", err=True)
    if out and tree is None:
        data["tree"] = None  # interrupted, or nothing found: no tree file is written
    tree_answers = position_answers(answer_list, history, hard)
    writes = [lambda path=path: write_tree(tree, path, answers=tree_answers) for path in out if tree is not None]
    if certificate is not None:
        writes.append(lambda: write_json(certificate, data))
    failed = write_all(writes)
    if as_json:
        echo_json(data)
    else:
        mode = "hard mode, " if hard else ""
        shown = "".join(f" {g} {p}" for g, p in data.get("after", []))
        click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
                   f"({len(guess_list)}), {mode}depth {depth}" + (f", first guess {first}" if first else "")
                   + (f", after{shown} ({result.n} answers left)" if shown else ""))
        click.echo(f"wins {result.wins} / {result.n} = {result.probability:.6f}  status {result.status}"
                   f"{' (interrupted)' if result.interrupted else ''}  "
                   f"({result.seconds:.1f} s, {result.cores} threads; {result.exact_count} of "
                   f"{result.evaluated} first guesses evaluated exactly, the rest pruned by bounds)")
        if first is None:
            click.echo(f"optimal first guesses: {' '.join(result.optimal_first)}"
                       + (" (among those evaluated before the interrupt)" if result.interrupted else ""))
            click.echo(f"top {len(result.top)} first guesses (exact):")
            for rank, (g, v) in enumerate(result.top, start=1):
                click.echo(f"{rank:4d}  {g:<8} {v:5d}  {v / result.n:.6f}")
        if "compare" in data:
            c = data["compare"]
            click.echo(f"compare: {c['guess']} wins {c['wins']}, best {c['best_guess']} wins {c['best_wins']}: "
                       f"{c['guess']} wins {c['fewer_wins']} fewer within {depth}")
        if data.get("tree") and not failed:
            r = data["tree"]["replay"]
            extra = (f"; complete: every answer solved within {max_guesses}, total {r['total_guesses']} guesses"
                     if data["tree"]["complete"] else "; truncated at the depth")
            click.echo(f"wrote {', '.join(out)} (first guess {data['tree']['first']}; replayed: "
                       f"{r['wins']} wins within {depth}, valid{extra})")
            echo_replay(played)
        elif out and data.get("tree") is None:
            click.echo(f"no tree written to {', '.join(out)}: "
                       + ("interrupted" if result.interrupted else "no first guess was evaluated"))
    if result.interrupted:
        exit_interrupted()
    if failed:
        sys.exit(2)


@wordle.command()
@click.option("--sample", type=click.IntRange(min=1), default=6, show_default=True,
              help="First guesses timed with the unpruned baseline.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of that sample.")
@click.option("--objective", type=click.Choice(["win3", "guesses"]), default="win3", show_default=True,
              help="guesses: time the fewest-guesses proof for --first against the same search without "
                   "its sharper class bound.")
@click.option("--first", default="salet", show_default=True, help="With --objective guesses: the first guess.")
@click.option("--hard", is_flag=True, help="With --objective guesses: hard mode.")
@click.option("--no-baseline", is_flag=True, help="Skip the baseline kernels (their depth-3 proof takes minutes).")
def bench(sample, seed, objective, first, hard, no_baseline):
    """Time the depth-3 proof and depth 4 (trace) against the baseline kernels and the unpruned DP, in one
    run; or, with --objective guesses, the fewest-guesses proof against a weaker-bound baseline."""
    from exact.wordle.bench import run_guesses_bench, run_wordle_bench

    if objective == "guesses":
        from exact.cli.guesses import checked_word

        first = checked_word(first, wordle_allowed(), "--first")
        run_guesses_bench(first=first, hard=hard, echo=click.echo)
        return
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
@click.option("--max-guesses", type=click.IntRange(min=3), default=6, show_default=True,
              help="The tree written is completed past guess 3 (fewest guesses, exact): every answer "
                   "solved within this many guesses.")
@click.option("--truncate", is_flag=True, help="Write the depth-3 tree (answers past guess 3 are lost).")
def memorable(M, answers, guesses, first, time_limit, workers, curve, m_values, out, as_json, max_guesses=6,
              truncate=False):
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
        check_outputs(out)
        complete = max_guesses if (out is not None and not truncate) else None
        result = mem.solve_memorable(answer_list, guess_list, first, M, time_limit=time_limit, workers=workers,
                                     max_guesses=complete)
        failed = None
        if out is not None:
            from exact.wordle.treeio import write_tree

            failed = write_all([lambda: write_tree(result.tree, out, answers=answer_list)])
        if as_json:
            echo_json(result.to_json())
        else:
            click.echo(f"first {result.first}, at most {M} distinct second guesses: {result.status} "
                       f"{result.wins}/{result.n} = {result.probability:.4f} (bound {result.bound}; unconstrained "
                       f"{result.unconstrained}) in {result.seconds:.1f} s, {workers} CP-SAT workers"
                       + (" (interrupted)" if result.interrupted else ""))
            click.echo("second guesses: " + " ".join(result.second_guesses))
        if result.interrupted:
            exit_interrupted()
        if failed:
            sys.exit(2)
        return
    try:
        values = None if m_values is None else sorted({int(v) for v in m_values.split(",")})
    except ValueError:
        raise ExactError(f"--m-values {m_values!r}: give whole numbers separated by commas") from None
    if values is not None and min(values) < 1:
        raise ExactError("--m-values: every M must be at least 1")
    check_outputs(out, out.with_suffix(".csv") if out is not None else None)
    data = mem.curve_json(mem.memorable_curve(
        answer_list, guess_list, first, values, time_limit=time_limit, workers=workers,
        progress=lambda r: click.echo(f"exact: M={r.M}: {r.status} {r.wins} (bound {r.bound}), {r.seconds:.1f} s",
                                      err=True)), answer_list, guess_list)
    failed = write_all([lambda: mem.write_curve(data, out)] if out is not None else [])
    if as_json:
        echo_json(data)
        if data["interrupted"]:
            exit_interrupted()
        sys.exit(2 if failed else 0)
    click.echo(f"first {first}: {data['classes']} first-feedback classes, unconstrained {data['unconstrained']}/{data['n']}, "
               f"smallest full cover {data['full_cover']}")
    click.echo(f"{'M':>4} {'wins':>5} {'bound':>5} {'P(win)':>7} {'status':<8} {'seconds':>8}")
    for p in data["points"]:
        click.echo(f"{p['M']:4d} {p['wins']:5d} {p['bound']:5d} {p['probability']:7.4f} {p['status']:<8} {p['seconds']:8.1f}")
    if data["interrupted"]:
        exit_interrupted()
    if failed:
        sys.exit(2)


from exact.cli.guesses import complete, tradeoff  # noqa: E402  (commands of their own module)

wordle.add_command(tradeoff)
wordle.add_command(complete)
