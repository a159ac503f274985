"""``exact wordle prior``: the word-frequency prior over today's answers, written as an instance
(the work is in :mod:`exact.wordle.study.prior`)."""

from __future__ import annotations

from pathlib import Path

import click

from exact.cli.common import echo_json
from exact.wordle.study.prior import write_prior


@click.command("prior")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("instances/nyt-prior"),
              show_default=True, help="The folder of the instance (answers.txt, weights.txt, provenance.json).")
@click.option("--json", "as_json", is_flag=True, help="Print the provenance as JSON.")
def prior(out, as_json):
    """Turn the 14855 allowed words' English frequencies (wordfreq) into integer answer weights: a
    sigmoid over frequency rank, the 5000 most frequent words as answers (`--list nyt-prior`), with
    the fit against nyt2023's answers."""
    data = write_prior(out)
    if as_json:
        echo_json(data)
        return
    fit = data["fit"]
    click.echo(f"wrote {out}/answers.txt ({data['answers']['count']} answers), weights.txt (total "
               f"{data['weights']['total']}), provenance.json; wordfreq {data['source']['version']}")
    click.echo(f"fit: {fit['kept_as_answers']} of the {fit['history_words']} nyt2023 answers kept, carrying "
               f"{fit['weight_share']:.4f} of the weight; log-likelihood {fit['log_likelihood']:.1f} against "
               f"{fit['log_likelihood_uniform']:.1f} uniform ({fit['mean_log_likelihood_gain']:+.4f} per answer)")
