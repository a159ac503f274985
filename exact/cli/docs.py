"""``exact docs ...``: documentation pages generated from the project's own files."""

from __future__ import annotations

import sys
from pathlib import Path

import click

import exact
from exact.fileio import make_folder, write_text


@click.group()
def docs():
    """Generate documentation pages from results/ (so their numbers never drift)."""


def checkout_root() -> Path:
    """The source checkout this ``exact`` runs from (an editable install), or the current folder."""
    here = Path(exact.__file__).resolve().parent.parent
    return here if (here / "results").is_dir() and (here / "docs").is_dir() else Path(".")


@docs.command()
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The repository root (with results/) [default: the source checkout exact runs from, "
                   "from any folder; else the current folder].")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write [default: ROOT/docs/results.md].")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the page differs from what results/ gives.")
def results(root, out, check):
    """Write docs/results.md from results/**/*.json and results/figures/."""
    from exact.docs import results_markdown  # lazy: start-up (measured 0.41 s, matplotlib)

    root = root or checkout_root()
    out = out or root / "docs" / "results.md"
    text = results_markdown(root)
    if check:
        current = out.read_text() if out.is_file() else None
        if current != text:
            click.echo(f"{out} is out of date with results/: run `exact docs results`", err=True)
            sys.exit(1)
        click.echo(f"{out} is up to date")
        return
    if out == root / "docs" / "results.md":  # the default: ROOT's own docs folder may be made

        make_folder(out.parent)
    write_text(out, text)
    click.echo(f"wrote {out} ({text.count(chr(10))} lines)")
