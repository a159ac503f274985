"""``exact wordle solve --objective ...``, ``exact wordle tradeoff`` and ``exact wordle complete``:
the fewest-guesses objective, lexicographic objectives and complete trees (parse and print only;
the work is in :mod:`exact.wordle.guesses` and :mod:`exact.wordle.tradeoff`)."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import echo_json, words_option
from exact.errors import ExactError
from exact.words import load_or_default, wordle_allowed, wordle_answers

ANSWERS_HELP = "Answer list, one word a line [default: the embedded 2315 Wordle answers]."
GUESSES_HELP = "Allowed guesses, one word a line [default: the embedded 12972 allowed words]."


def flag_error(error: ExactError, flags: dict[str, str]) -> ExactError:
    """The library names parameters ("first: ..."); the command line names its flags ("--first: ...")."""
    text = str(error)
    for name, flag in flags.items():
        if text.startswith(name + ":") or text.startswith(name + " "):
            return ExactError(flag + text[len(name):])
    return error


FLAGS = {"first": "--first", "after": "--after", "cutoff": "--cutoff", "max_guesses": "--max-guesses",
         "objective": "--objective", "compare": "--compare", "depth": "--depth"}


def call(function, *args, **kwargs):
    """Run a library call, naming flags instead of parameters in its errors."""
    try:
        return function(*args, **kwargs)
    except ExactError as e:
        raise flag_error(e, FLAGS) from None


def exit_if_interrupted(interrupted: bool) -> None:
    if interrupted:
        from exact.cli.common import exit_interrupted

        exit_interrupted()


def checked_word(word: str | None, guesses, flag: str) -> str | None:
    from exact.words import check_words, require_in_pool

    if word is None:
        return None
    (word,) = check_words([word], guesses.length, flag)
    require_in_pool([word], guesses, flag)
    return word


def history_of(after: str | None, guesses) -> tuple:
    from exact.wordle.guesses import parse_history

    return () if not after else call(parse_history, after, guesses)


def solve_objective(*, answers, guesses, objective, first, max_guesses, hard, cutoff, after, compare,
                    out, certificate, as_json, truncate):
    """``exact wordle solve --objective ...``: solve, write the tree, print."""
    from exact.fileio import write_json
    from exact.wordle.guesses import compare_results, parse_objective, position_answers, solve_guesses
    from exact.wordle.treeio import tree_format, write_tree

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    goal = call(parse_objective, objective)
    first = checked_word(first, guess_list, "--first")
    compare = checked_word(compare, guess_list, "--compare")
    history = history_of(after, guess_list)
    for path in out:
        tree_format(path)  # a bad extension fails now, not after the search
    if truncate:
        raise ExactError("--truncate applies to the win-within-k trees (--depth); --objective trees are complete")
    kwargs = dict(objective=goal, max_guesses=max_guesses, hard=hard, after=history)
    result = call(solve_guesses, answer_list, guess_list, first=first, cutoff=cutoff, **kwargs)
    data = result.to_json()
    if compare is not None and not result.interrupted:
        other = call(solve_guesses, answer_list, guess_list, first=compare, **kwargs)
        data["compare"] = compare_results(result, other)
    if out and result.tree is not None:
        reached = position_answers(answer_list, history, hard)
        for path in out:
            write_tree(result.tree, path, answers=reached)
        data["tree"] = {"files": list(out), "tie_break": "see exact.wordle.guesses", "complete": True,
                        "replay": {"total": result.total, "wins_at": list(result.wins_at), "valid": True}}
    if certificate is not None:
        write_json(certificate, data)
    if as_json:
        echo_json(data)
    else:
        print_result(result, answer_list, guess_list)
        if "compare" in data and data["compare"]["extra_guesses"] is None:
            c = data["compare"]
            click.echo(f"compare: {compare}: {c['value']['status']}; the position: {c['best_value']['status']}")
        elif "compare" in data:
            c = data["compare"]
            click.echo(f"compare: {c['guess']} {value_text(c['value'], c)}; best {c['best_guess']} "
                       f"{value_text(c['best_value'], c)}: {c['guess']} costs {c['extra_guesses']} more "
                       f"guesses in total ({c['extra_mean']:+.6f} per answer)"
                       + (f", {c['extra_lost'][0]} more answers past {c['levels'][0]}" if c["levels"] else ""))
        if "tree" in data:
            click.echo(f"wrote {', '.join(map(str, out))} (complete; replayed: every answer solved, total {result.total})")
    exit_if_interrupted(result.interrupted)


def value_text(value: dict, c: dict) -> str:
    lost = "".join(f", lost past {k}: {n}" for k, n in zip(c["levels"], value["lost"]))
    return f"(total {value['total']}, mean {value['mean']:.6f}{lost})"


def print_result(r, answer_list, guess_list) -> None:
    shown = " ".join(f"{g} {p}" for g, p in r.to_json()["after"])
    click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
               f"({len(guess_list)}), objective {r.objective}, at most {r.max_guesses} guesses"
               + (", hard mode" if r.hard else "") + (f", after {shown} ({r.n} answers left)" if shown else ""))
    if r.tree is None:
        bound = f"; every strategy costs at least {r.lower_bound}" if r.lower_bound is not None else ""
        why = f"no strategy within --cutoff {r.cutoff}" if r.cutoff is not None else \
            f"no strategy solves every answer within {r.max_guesses} guesses"
        click.echo(f"status {r.status}: {why}{bound} ({r.seconds:.1f} s, {r.cores} cores)")
        return
    click.echo(f"first guess {r.first}: total {r.total} guesses over {r.n} answers, mean {r.mean:.6f}; "
               f"status {r.status} ({r.seconds:.1f} s, {r.cores} cores, {r.searched} nodes searched)")
    click.echo(f"solved with 1..{r.max_guesses} guesses: {' '.join(map(str, r.wins_at))}; "
               f"worst case {max(k + 1 for k, w in enumerate(r.wins_at) if w)}; "
               + ", ".join(f"within {k}: {r.wins_within(k)}" for k in range(2, r.max_guesses)))
    if r.status == "FEASIBLE":
        click.echo("interrupted: the tree is complete but not proven optimal (unfinished classes were filled greedily)")


def is_ranking(first: str | None) -> bool:
    """``--first all`` or ``--first FILE`` (a list of first guesses): the ranking, not one word."""
    return first is not None and (first.lower() == "all" or Path(first).is_file())


def rank_objective(*, answers, guesses, objective, first, max_guesses, hard, cutoff, after, compare, top,
                   out, certificate, as_json, truncate, cluster, checkpoint, resume, batch=8, workers=None):
    """``exact wordle solve --objective guesses --first all|FILE``: the ranking of first guesses
    (exact.wordle.ranking): print it, write its certificate and the tree of the best."""
    from exact.fileio import write_json
    from exact.wordle.guesses import parse_objective, replay_position, tree_cost
    from exact.wordle.ranking import rank_first_guesses, read_first_guesses
    from exact.wordle.treeio import tree_format, write_tree

    if parse_objective(objective).wins:
        raise ExactError("--first all ranks first guesses by --objective guesses only")
    if after or compare or truncate:
        raise ExactError("--first all: drop --after, --compare and --truncate")
    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    firsts = None if first.lower() == "all" else read_first_guesses(first, guess_list)
    for path in out:
        tree_format(path)
    r = call(rank_first_guesses, answer_list, guess_list, firsts=firsts, cutoff=cutoff, top=top, hard=hard,
             max_guesses=max_guesses, checkpoint=checkpoint, resume=resume, cluster=cluster, batch=batch,
             workers=workers)
    data = r.to_json()
    if r.tree is not None:
        played = replay_position(r.tree, answer_list, guess_list, (), max_guesses, hard)
        total = sum((k + 1) * w for k, w in enumerate(played.wins_at))
        if not played.valid or played.lost or total != r.exact[0][1]:
            raise ExactError(f"internal error: the tree of {r.tree.guess} does not replay to its value")
        data["tree"] = {"guess": r.tree.guess, "files": list(out), "complete": True,
                        "replay": {"total": total, "wins_at": list(played.wins_at), "valid": True}}
        for path in out:
            write_tree(r.tree, path, answers=answer_list)
    if certificate is not None:
        write_json(certificate, data)
    if as_json:
        echo_json(data)
    else:
        mode = ", hard mode" if hard else ""
        click.echo(f"answers: {answer_list.source} ({len(answer_list)}), guesses: {guess_list.source} "
                   f"({len(guess_list)}), fewest guesses over {len(r.firsts)} first guesses{mode}, "
                   f"at most {max_guesses} guesses" + (f", cutoff {cutoff}" if cutoff is not None else ""))
        exact = r.exact
        click.echo(f"status {r.status}: {len(r.values)} of {len(r.firsts)} first guesses done ({len(exact)} "
                   f"valued exactly, {len(r.values) - len(exact)} bounded, least bound {r.least_bound}); "
                   f"{r.seconds:.1f} s, {r.cores} cores")
        for i, (w, v) in enumerate(exact[:max(top, 10)]):
            click.echo(f"{i + 1:3d}. {w} {v} (mean {v / len(answer_list):.6f})"
                       + (" proven" if i < r.proven_top else ""))
        if "tree" in data and out:
            click.echo(f"wrote {', '.join(map(str, out))} (the tree of {r.tree.guess}; replayed: total "
                       f"{data['tree']['replay']['total']})")
    exit_if_interrupted(r.interrupted)


# --- exact wordle tradeoff --------------------------------------------------------------------

@click.command()
@click.option("--first", "firsts", default="trace,salet,slate,crate,reast,crane", show_default=True,
              metavar="W,W,...", help="First guesses to compare.")
@click.option("--win", "k", type=click.IntRange(min=1), default=3, show_default=True,
              help="K of the objective winK,guesses, compared with guesses alone.")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--max-guesses", type=click.IntRange(min=1), default=6, show_default=True,
              help="Every answer solved within this many guesses.")
@click.option("--hard", is_flag=True, help="Hard mode.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the table as JSON, with a .md and a .csv beside it.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def tradeoff(firsts, k, answers, guesses, max_guesses, hard, out, as_json):
    """What maximising P(win within K) costs in mean guesses, per first guess (both exact)."""
    from exact.wordle.tradeoff import tradeoff_table, write_table

    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
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


# --- exact wordle complete --------------------------------------------------------------------

@click.command()
@click.argument("tree_file", metavar="TREE", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False), multiple=True, required=True,
              help="Write the completed tree (.graphml .json .dot .txt); repeatable.")
@words_option("--answers", ANSWERS_HELP)
@words_option("--guesses", GUESSES_HELP)
@click.option("--depth", type=click.IntRange(min=1), default=None,
              help="The tree's optimised depth: leaves there are re-chosen to keep the wins within it "
                   "[default: the tree's own depth].")
@click.option("--max-guesses", type=click.IntRange(min=1), default=6, show_default=True,
              help="Every answer solved within this many guesses.")
@click.option("--hard", is_flag=True, help="Hard mode (the tree's guesses are checked, the filling obeys it).")
@click.option("--format", "fmt", type=click.Choice(["graphml", "json", "dot", "txt"]), default=None,
              help="Input format [default: from the extension].")
def complete(tree_file, out, answers, guesses, depth, max_guesses, hard, fmt):
    """Fill every missing branch of a strategy TREE with fewest-guesses subtrees (exact), so that
    every answer is solved within --max-guesses; the wins within --depth do not change."""
    from exact.wordle.guesses import complete_and_check, replay_position
    from exact.wordle.tree import tree_depth
    from exact.wordle.treeio import read_tree, tree_format, write_tree

    for path in out:
        tree_format(path)
    tree = read_tree(tree_file, fmt)
    answer_list = load_or_default(answers, wordle_answers)
    guess_list = load_or_default(guesses, wordle_allowed)
    depth = depth or tree_depth(tree)
    if depth > max_guesses:
        raise ExactError(f"--depth {depth} is more than --max-guesses {max_guesses}")
    before = replay_position(tree, answer_list, guess_list, (), depth, hard)
    if before.invalid:
        raise ExactError(f"{tree_file}: the tree has {len(before.invalid)} invalid nodes within depth {depth} "
                         f"(first: {before.invalid[0].kind}: {before.invalid[0].message}); `exact wordle verify` lists them")
    done, after = call(complete_and_check, tree, answer_list, guess_list, depth, max_guesses, hard)
    kept = sum(after.wins_at[:depth])
    for path in out:
        write_tree(done, path, answers=answer_list)
    total = sum((k + 1) * w for k, w in enumerate(after.wins_at))
    click.echo(f"{tree_file}: wins within {depth} {kept} (unchanged); completed: every answer solved within "
               f"{max_guesses}, total {total} guesses, mean {total / after.n:.6f}; solved with 1..{max_guesses}: "
               f"{' '.join(map(str, after.wins_at))}")
    click.echo(f"wrote {', '.join(out)}")
