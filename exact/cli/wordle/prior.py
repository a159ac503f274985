"""``exact wordle prior``: the word-frequency prior over today's answers, written as an instance
(the work is in :mod:`exact.wordle.study.prior`)."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import echo_json
from exact.wordle.study.prior import write_prior


@click.command("prior")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("instances/nyt-prior"), show_default=True, help="The folder of the instance (answers.txt, weights.txt, provenance.json).")
@click.option("--json", "as_json", is_flag=True, help="Print the provenance as JSON.")
def prior(out_dir, as_json):
    """Turn the 14855 allowed words' English frequencies (wordfreq) into integer answer weights: a
    sigmoid over frequency rank fitted to the original game's answers, the 5000 most frequent words
    as answers (`--list nyt-prior`), with the fit against the original and nyt2023's answers."""
    data = write_prior(out_dir)
    if as_json:
        echo_json(data)
        return
    click.echo(f"wrote {out_dir}/answers.txt ({data['answers']['count']} answers), weights.txt (total "
               f"{data['weights']['total']}), provenance.json; wordfreq {data['source']['version']}")
    fitted = data["fitted"]
    click.echo(f"sigmoid fitted to {fitted['to']}: centre {fitted['centre']}, width {fitted['width']} "
               f"(log-likelihood {fitted['log_likelihood']:.1f})")
    for fit in (data["fit_original"], data["fit"], data["fit_held_out"]):
        click.echo(fit_line(fit))


def fit_line(fit: dict) -> str:
    """One line of the prior's fit against a history."""
    return (f"fit on {fit['history']}: {fit['kept_as_answers']} of its {fit['history_words']} answers kept, "
            f"carrying {fit['weight_share']:.4f} of the weight; log-likelihood {fit['log_likelihood']:.1f} "
            f"against {fit['log_likelihood_uniform']:.1f} uniform ({fit['mean_log_likelihood_gain']:+.4f} per "
            f"answer)")
