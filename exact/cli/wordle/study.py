"""``exact wordle openers|evaluate|tradeoff|memorable|ladder|bench``: first guesses, policies, trade-offs,
memorable trees, the reduced-instance ladder and the benchmark."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from exact.bench.depthk import run_depthk_bench
from exact.bench.wordle import (RANKING_WORDS, run_guesses_bench, run_ranking_bench, run_weights_bench,
                                run_wordle_bench)
from exact.cli.common import (ANSWERS_HELP, GUESSES_HELP, call, check_outputs, checked_word, echo_json,
                              exit_if_interrupted, exit_interrupted, list_answers, list_guesses, list_option,
                              words_option, write_all)
from exact.cli.common import guess_limit, load_weights, seconds, weights_option
from exact.cli.wordle.shared import tree_output_options
from exact.cli.wordle.trees import echo_replay
from exact.errors import ExactError
from exact.fileio import read_json, write_json, write_text
from exact.game.formats import write_tree
from exact.game.tree import record_lists, replay
from exact.progress import say
from exact.wordle.fewest.endgame import endgame_groups
from exact.wordle.fewest.ranking import read_first_guesses
from exact.wordle.study.openers import rank_openers
from exact.wordle.study.policies import POLICIES, evaluate_policy
from exact.wordle.study.tradeoff import tradeoff_table, write_table
from exact.words import check_answers_are_guesses, check_words, load_or_default


@click.command()
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
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    ranked = rank_openers(answer_list, guess_list, metric, top)
    if as_json:
        echo_json([o.to_json() for o in ranked])
        return
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} ({len(guess_list)}), by {metric}")
    click.echo(f"{'rank':>4}  {'guess':<8} {'classes':>7} {'worst':>5} {'n/classes':>9} {'sum|C|^2/n':>10} {'entropy':>7}")
    for rank, o in enumerate(ranked, start=1):
        click.echo(f"{rank:4d}  {o.guess:<8} {o.classes:7d} {o.worst:5d} {o.mean_size:9.3f} {o.expected_size:10.3f} {o.entropy:7.3f}")


@click.command()
@words_option("--answers", ANSWERS_HELP)
@click.option("--min-size", type=click.IntRange(min=3), default=3, show_default=True,
              help="The fewest words a group must have.")
@click.option("--top", type=click.IntRange(min=0), default=20, show_default=True, help="How many groups to list.")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Write the words of every group with at least --min-size words, one a line (a set of answers "
                   "for --answers).")
def endgames(answers, min_size, top, out):
    """The endgames of the answers: groups of words that differ at one position only (_ight: eight, fight,
    light, ...), largest first. Every strategy for the answers is one for any subset of them, so a proof
    that no strategy solves such a subset within N guesses holds for the whole list."""
    answer_list = load_or_default(answers, list_answers)
    check_outputs(out)
    groups = endgame_groups(answer_list, min_size)
    union = sorted({w for _, ws in groups for w in ws})
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}): {len(groups)} groups of {min_size} words or "
               f"more, {len(union)} words in all")
    for name, ws in groups[:top]:
        click.echo(f"{name} {len(ws):3d}  {' '.join(ws)}")
    if out is not None:
        write_text(out, "".join(w + "\n" for w in union))
        click.echo(f"wrote {out} ({len(union)} words)")


@click.command()
@click.option("--first", required=True, metavar="WORD", help="The first guess.")
@click.option("--second", "policy", default="most-classes", show_default=True,
              type=click.Choice(["most-classes", "most-classes-answers", "most-classes-consistent",
                                 "min-worst", "max-entropy", "all"]),
              help="How later guesses are chosen (all: every policy, as a table).")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", "-k", type=guess_limit(), default=3, show_default=True, help="Guesses allowed.")
@tree_output_options("Write the policy's tree (.graphml .json .dot .txt); one policy only.", "Print JSON instead of text.",
                     1, "The policy's tree is completed past --depth (fewest guesses, exact), so every answer is "
                        "played to the end within this many guesses; its wins within --depth are unchanged.",
                     "Stop at --depth: no completion (answers past --depth are unsolved).")
def evaluate(first, policy, answers, guesses, depth, out, as_json, max_guesses, truncate):
    """Score a simple policy exactly: its tree after --first, replayed on every answer.

    The policy picks every guess after the first but the last within --depth; the last is a
    still-possible answer. The answers not solved within --depth are then played to the end by the
    exact fewest-guesses search (--max-guesses; --truncate stops at --depth). Policies and
    tie-breaks are described in exact/wordle/study/policies.py.
    """
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    check_answers_are_guesses(answer_list, guess_list)
    first = checked_word(first, guess_list, "--first")
    policies = POLICIES if policy == "all" else (policy,)
    if out is not None and len(policies) > 1:
        raise ExactError("--out writes one policy's tree; name one policy with --second")
    if not truncate and depth > max_guesses:
        raise ExactError(f"--depth {depth} is more than --max-guesses {max_guesses}")
    complete = None if truncate else max_guesses
    results = [call(evaluate_policy, answer_list, guess_list, first, p, depth, complete) for p in policies]
    played = [r.replay if truncate else replay(r.tree, answer_list, guess_list, depth) for r in results]
    if out is not None:
        record_lists(results[0].tree, answer_list, guess_list)
        write_tree(results[0].tree, out, answers=answer_list)
    if as_json:
        data = [{**r.to_json(), "replay": r.replay.to_json(), "played_to_the_end": None if truncate else p.to_json()}
                for r, p in zip(results, played)]
        echo_json(data if policy == "all" else data[0])
        return
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), first guess {first}, depth {depth}")
    click.echo(f"{'policy':<24} {'wins':>5} {'n':>5} {'probability':>11} {'2nd words':>9} {'solved':>6} "
               f"{'total':>6} {'mean':>6} {'worst':>5}  replay")
    for r, p in zip(results, played):
        mean = f"{p.mean_guesses:6.3f}" if p.solved else f"{'-':>6}"
        click.echo(f"{r.policy:<24} {r.wins:5d} {r.n:5d} {r.probability:11.6f} {r.second_guesses:9d} {p.solved:6d} "
                   f"{p.total_guesses:6d} {mean} {p.worst or 0:5d}  {'valid' if p.valid else 'INVALID'}")
    click.echo("solved, total, mean, worst: the answers the tree solves and the guesses they take"
               + (f" (--truncate: the tree stops at guess {depth})" if truncate else
                  f" (every answer played to the end: past guess {depth} by the exact fewest-guesses search)"))
    if len(results) == 1:
        click.echo("")
        echo_replay(played[0])
    if out is not None:
        extra = results[0].lists.get("complete")
        click.echo(f"wrote {out}" + (f" (complete: every answer solved within {max_guesses}, total "
                                      f"{extra['total_guesses']} guesses)" if extra else " (truncated at the depth)"))


@click.command()
@click.option("--first", "firsts", default="trace,salet,slate,crate,reast,crane", show_default=True,
              metavar="W,W,...", help="First guesses to compare.")
@click.option("--depth", "-k", "k", type=guess_limit(), default=3, show_default=True,
              help="Guesses that count as a win (K of the objective winK,guesses, compared with guesses alone).")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--max-guesses", type=guess_limit(1), default=6, show_default=True,
              help="Every answer solved within this many guesses.")
@click.option("--hard", is_flag=True, help="Hard mode.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the table as JSON, with a .md and a .csv beside it.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def tradeoff(firsts, k, answers, guesses, max_guesses, hard, out, as_json):
    """What maximising P(win within K) costs in mean guesses, per first guess (both exact)."""
    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    words = [checked_word(w, guess_list, "--first") for w in firsts.split(",") if w.strip()]
    if not words:
        raise ExactError("--first: give at least one word")
    data = call(tradeoff_table, answer_list, guess_list, words, k, max_guesses=max_guesses, hard=hard,
                echo=lambda row: click.echo(f"exact: {row['first']}: {row_text(row, k)}", err=True))
    if out is not None:
        write_table(data, out)
    if as_json:
        echo_json(data)
    else:
        click.echo(f"{'first':<6} {'objective':<14} {'within ' + str(k):>9} {'total':>6} {'mean':>8} {'status':<8} {'seconds':>7}")
        for row in data["rows"]:
            for name in ("guesses", f"win{k},guesses"):
                v = row[name]
                if v is None:
                    continue
                click.echo(f"{row['first']:<6} {name:<14} {v['wins_within']:9d} {v['total']:6d} {v['mean']:8.4f} "
                           f"{v['status']:<8} {v['seconds']:7.1f}")
        if out is not None:
            click.echo(f"wrote {out} and its .md and .csv")
    exit_if_interrupted(data["interrupted"])


def row_text(row: dict, k: int) -> str:
    parts = []
    for name in ("guesses", f"win{k},guesses"):
        v = row[name]
        if v is not None:
            parts.append(f"{name}: within {k} {v['wins_within']}, total {v['total']} ({v['status']}, {v['seconds']:.1f} s)")
    return "; ".join(parts)


@click.command()
@click.option("--max-distinct-second", "M", type=click.IntRange(min=1), default=None,
              help="At most this many distinct second guesses across all first-feedback classes.")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--first", default=None, help="The fixed first guess [default: trace].")
@click.option("--time-limit", type=seconds(0.1, open=False), default=60, show_default=True,
              help="Seconds per CP-SAT call.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="CP-SAT worker threads.")
@click.option("--curve", is_flag=True, help="Solve for M = 1, 2, 3, 5, 10, 20, ... up to the number of classes.")
@click.option("--m-values", default=None, metavar="M,M-M,...", help="With --curve: these M values instead (a-b: a range).")
@click.option("--resume", is_flag=True, help="With --curve --out: keep the points already in OUT (it is rewritten "
              "after each point) and solve only the others.")
@click.option("--every-first", is_flag=True,
              help="With --max-distinct-second M: the best memorable opener over every first guess (--first seeds "
                   "the search); --out FILE.json gets the certificate, FILE.checkpoint.jsonl the records (resumed).")
@click.option("--trees", "trees_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="With --curve: write each point's depth-3 tree to DIR/FIRST-mM.txt (`exact wordle verify` replays it).")
@tree_output_options("Write the tree (.graphml, .json, .dot, .txt); with --curve, write the curve (.json, and a .csv "
                     "beside it).", "Print JSON instead of a table.",
                     3, "The tree written is completed past guess 3 (fewest guesses, exact): every answer solved "
                        "within this many guesses.", "Write the depth-3 tree (answers past guess 3 are lost).")
@weights_option
def memorable(M, answers, guesses, first, time_limit, workers, curve, m_values, out, as_json, max_guesses=6,
              truncate=False, resume=False, trees_dir=None, every_first=False, weights=None):
    """The best depth-3 tree after a fixed first guess using at most M distinct second guesses.

    With --weights FILE (or --list nyt-prior): the most weight won within 3 guesses (P(win) = weight won
    / total weight)."""
    from exact.wordle.study import memorable as mem  # lazy: start-up (measured 0.53 s, ortools)

    answer_list = load_or_default(answers, list_answers)
    guess_list = load_or_default(guesses, list_guesses)
    first = check_words([first], guess_list.length, "--first")[0] if first else mem.DEFAULT_FIRST
    if curve == (M is not None):
        raise ExactError("give either --max-distinct-second M or --curve")
    prior = load_weights(weights, answer_list)
    prior = None if prior is None or prior.unit else prior
    if every_first and prior is not None:
        raise ExactError("--every-first does not take --weights (or --list nyt-prior) yet: its screen counts "
                         "answers; give --first W for the weighted memorable tree after W")
    if every_first:
        memorable_every_first(answer_list, guess_list, first, M, out, time_limit, workers)
    elif not curve:
        memorable_point(answer_list, guess_list, first, M, out, as_json, time_limit, workers,
                        complete=max_guesses if (out is not None and not truncate) else None, weights=prior)
    else:
        memorable_curve_command(answer_list, guess_list, first, m_values, out, as_json, time_limit, workers,
                                resume, trees_dir, weights=prior)


def memorable_every_first(answer_list, guess_list, first: str, M: int | None, out: Path | None,
                          time_limit: float, workers: int) -> None:
    """``--every-first``: the best memorable opener over every first guess, seeded by ``first``'s value."""
    if M is None or out is None:
        raise ExactError("--every-first needs --max-distinct-second M and --out FILE.json")
    from exact.wordle.study import memorable as mem  # lazy: start-up (measured 0.53 s, ortools)
    from exact.wordle.study.memorable_openers import best_opener  # lazy: start-up (measured 0.54 s, ortools)

    seed = mem.solve_memorable(answer_list, guess_list, first, M, time_limit=time_limit, workers=workers)
    data = best_opener(answer_list, guess_list, M, start=seed.wins, start_first=first,
                       checkpoint=out.with_suffix(".checkpoint.jsonl"), time_limit=time_limit, workers=workers,
                       progress=lambda m: click.echo("exact: " + m, err=True))
    data["seed"] = {"first": first, "wins": seed.wins, "status": seed.status}
    write_json(out, data)
    click.echo(f"at most {M} distinct second guesses, every first guess: {data['status']} {data['wins']}/{data['n']}"
               f" by {' '.join(data['best_first']) or '-'}; {data['screen']['above']} first guesses above the "
               f"depth-3 screen, {len(data['open_first'])} open, {data['unevaluated_first']} not evaluated")
    if data["interrupted"]:
        exit_interrupted()


def memorable_point(answer_list, guess_list, first: str, M: int, out: Path | None, as_json: bool,
                    time_limit: float, workers: int, complete: int | None, weights=None) -> None:
    """One M: the best tree after ``first``, written to ``out`` (completed within ``complete`` guesses)."""
    from exact.wordle.study import memorable as mem  # lazy: start-up (measured 0.53 s, ortools)

    check_outputs(out)
    result = mem.solve_memorable(answer_list, guess_list, first, M, time_limit=time_limit, workers=workers,
                                 max_guesses=complete, weights=weights)
    failed = None
    if out is not None:
        record_lists(result.tree, answer_list, guess_list)
        failed = write_all([lambda: write_tree(result.tree, out, answers=answer_list)])
    if as_json:
        echo_json(result.to_json())
    else:
        weighed = f" weight ({weights.source})" if weights is not None else ""
        click.echo(f"first {result.first}, at most {M} distinct second guesses: {result.status} "
                   f"{result.wins}/{result.total}{weighed} = {result.probability:.4f} (bound {result.bound}; unconstrained "
                   f"{result.unconstrained}) in {result.seconds:.1f} s, {workers} CP-SAT workers"
                   + (" (interrupted)" if result.interrupted else ""))
        click.echo("second guesses: " + " ".join(result.second_guesses))
    if result.interrupted:
        exit_interrupted()
    if failed:
        sys.exit(2)


def memorable_curve_command(answer_list, guess_list, first: str, m_values: str | None, out: Path | None,
                            as_json: bool, time_limit: float, workers: int, resume: bool,
                            trees_dir: Path | None, weights=None) -> None:
    """``--curve``: the best wins for each M, checkpointed to ``out`` after every point (``--resume``
    keeps the points already there)."""
    from exact.wordle.study import memorable_curve as curve  # lazy: start-up (ortools, through memorable)

    values = None if m_values is None else curve.parse_m_values(m_values, 3 ** answer_list.length)
    if resume and out is None:
        raise ExactError("--resume needs --out (the curve file to resume)")
    earlier = curve.read_curve_points(out) if resume and out.exists() else {}
    if earlier and (read_json(out).get("weights") or {}).get("sha256") != (weights.sha256 if weights else None):
        raise ExactError(f"{out}: its points were solved under other answer weights; resume with the same "
                         "--weights, or write another file")
    if not resume:
        check_outputs(out, out.with_suffix(".csv") if out is not None else None)
    if values is not None and earlier:
        values = [m for m in values if m not in earlier]
        if not values:
            click.echo(f"every M asked for is already in {out}")
            return
    done: list = []

    def finished(r):
        click.echo(f"exact: M={r.M}: {r.status} {r.wins} (bound {r.bound}), {r.seconds:.1f} s", err=True)
        done.append(r)
        if trees_dir is not None:
            curve.write_point_tree(r, trees_dir, answer_list, guess_list)
        if out is not None:  # a checkpoint after every point
            curve.write_curve(curve.curve_json(done, answer_list, guess_list, earlier), out)

    data = curve.curve_json(curve.memorable_curve(answer_list, guess_list, first, values, time_limit=time_limit,
                                              workers=workers, progress=finished, weights=weights),
                          answer_list, guess_list, earlier)
    data["command"] = " ".join(["exact wordle memorable --curve", f"--first {first}"]
                               + ([f"--m-values {m_values}"] if m_values else [])
                               + [f"--time-limit {time_limit:g} --workers {workers}"]
                               + ([f"--trees {trees_dir}"] if trees_dir else []) + ([f"--out {out}"] if out else [])
                               + ([f"--weights {weights.source}"] if weights else []))
    failed = write_all([lambda: curve.write_curve(data, out)] if out is not None else [])
    if as_json:
        echo_json(data)
        if data["interrupted"]:
            exit_interrupted()
        sys.exit(2 if failed else 0)
    echo_curve(data, first)
    if data["interrupted"]:
        exit_interrupted()
    if failed:
        sys.exit(2)


def echo_curve(data: dict, first: str) -> None:
    """The curve as a table: one line per M."""
    click.echo(f"first {first}: {data['classes']} first-feedback classes, unconstrained {data['unconstrained']}/{data['n']}, "
               f"smallest full cover {data['full_cover']}")
    click.echo(f"{'M':>4} {'wins':>5} {'bound':>5} {'P(win)':>7} {'status':<8} {'seconds':>8}")
    for p in data["points"]:
        click.echo(f"{p['M']:4d} {p['wins']:5d} {p['bound']:5d} {p['probability']:7.4f} {p['status']:<8} {p['seconds']:8.1f}")


@click.command()
@click.option("--time-limit", type=seconds(0.1, open=False), default=600, show_default=True,
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
    from exact.wordle.wins import ladder as lad  # lazy: start-up (measured 0.48 s, ortools)

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


@click.command()
@click.option("--sample", type=click.IntRange(min=1), default=6, show_default=True,
              help="First guesses timed with the unpruned baseline, or with --depth-rejection drawn from "
                   "the guesses.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of that sample.")
@click.option("--objective", type=click.Choice(["win3", "guesses"]), default="win3", show_default=True,
              help="guesses: time the fewest-guesses proof for --first against the same search without "
                   "its sharper class bound.")
@click.option("--first", default="salet", show_default=True, help="With --objective guesses: the first guess.")
@click.option("--hard", is_flag=True, help="Hard mode: with --objective guesses, --weighted or --depth-rejection.")
@click.option("--no-baseline", is_flag=True, help="Skip the baseline kernels (their depth-3 proof takes minutes).")
@click.option("--weighted", is_flag=True, help="Paired runs for --first: the depth-3 value and the fewest-guesses "
              "total, unweighted and with weights (every answer 2), and their time ratio; with "
              "--depth-rejection: the staged search unweighted against weighted (every answer 2, threshold 2T).")
@click.option("--repeats", type=click.IntRange(min=1), default=2, show_default=True,
              help="With --weighted or --depth-rejection: pairs of runs, their order alternated (AB, BA, ...); "
                   "times are the medians over the pairs.")
@click.option("--peer", type=click.Path(dir_okay=False, exists=True), default=None,
              help="With --objective guesses: Selby's built solver; times the rejection of a fixed list of "
                   "first guesses against --cutoff by the project and the peer, in this run.")
@click.option("--cutoff", type=click.IntRange(min=0), default=None, metavar="T",
              help="With --objective guesses: time the rejection bench (first guesses valued if <= T, else "
                   "bounded) [default with --peer: 7920]; without --peer the project alone.")
@click.option("--words", "words_file", type=click.Path(dir_okay=False, exists=True), default=None,
              help="With the rejection bench: its first guesses, one per line [default: a fixed list of 26 "
                   "spread over the original ranking].")
@click.option("--depth-rejection", "rejection", type=click.IntRange(min=0), default=None, metavar="T",
              help="Time the depth-k rejection: --sample first guesses (or --words) valued at --depth against "
                   "threshold T by the plain and the staged search, in this run.")
@click.option("-k", "--depth", type=click.IntRange(min=2), default=4, show_default=True,
              help="With --depth-rejection: the depth.")
@click.option("--baseline", type=click.Choice(["plain", "filter"]), default="plain", show_default=True,
              help="With --depth-rejection: what the staged search is timed against: the plain search, or "
                   "(with --hard) the staged search on kernels with the previous hard-mode filter.")
@list_option()
def bench(sample, seed, objective, first, hard, no_baseline, peer, cutoff, words_file, rejection, depth,
          baseline="plain", weighted=False, repeats=2):
    """Time the depth-3 proof and depth 4 (trace) against the baseline kernels and the unpruned DP, in one
    run; or, with --objective guesses, the fewest-guesses proof against a weaker-bound baseline; or, with
    --depth-rejection T, the staged depth-k rejection against the plain search on the same first guesses."""
    if baseline == "filter" and (rejection is None or not hard or weighted):
        raise ExactError("--baseline filter goes with --depth-rejection and --hard, without --weighted (the "
                         "filter it times is hard mode's)")
    if rejection is not None:
        lists = (list_answers(), list_guesses())
        words = None if words_file is None else read_first_guesses(words_file, lists[1])
        call(run_depthk_bench, *lists, rejection, depth=depth, hard=hard, sample=sample, seed=seed, words=words,
             echo=click.echo, repeats=repeats, weighted=weighted, baseline=baseline)
        return
    if words_file is not None and not (objective == "guesses" and (peer is not None or cutoff is not None)):
        raise ExactError("--words goes with the rejection bench (--objective guesses with --cutoff or --peer)")
    if weighted:
        first = checked_word(first, list_guesses(), "--first")
        run_weights_bench(first=first, hard=hard, echo=click.echo, lists=(list_answers(), list_guesses()),
                          repeats=repeats)
        return
    if objective == "guesses":
        if peer is not None or cutoff is not None:
            lists = (list_answers(), list_guesses())
            words = RANKING_WORDS if words_file is None else tuple(read_first_guesses(words_file, lists[1]))
            call(run_ranking_bench, words, cutoff=7920 if cutoff is None else cutoff, peer=peer, hard=hard,
                 echo=click.echo, lists=lists)
            return
        first = checked_word(first, list_guesses(), "--first")
        run_guesses_bench(first=first, hard=hard, echo=click.echo, lists=(list_answers(), list_guesses()))
        return
    if hard:
        raise ExactError("--hard goes with --objective guesses, --weighted or --depth-rejection (the default "
                         "bench times normal mode's depth-3 proof)")
    run_wordle_bench(sample=sample, seed=seed, baseline=not no_baseline, echo=click.echo,
                     lists=(list_answers(), list_guesses()))


