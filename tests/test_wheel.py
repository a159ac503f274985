"""The wheel carries the committed results: installed from it, ``play`` plays the proven trees and
``analyse`` reads the certificates from any folder (pyproject.toml puts ``results/`` in ``exact/_results``)."""

import os
import subprocess
import sys
import zipfile

import pytest


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory, root):
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(root), "-w", str(out)],
                           capture_output=True, text=True, timeout=600)
    if built.returncode != 0:
        pytest.skip(f"pip could not build the wheel here: {built.stderr.strip().splitlines()[-1:]}")
    (wheel,) = out.glob("exact-*.whl")
    site = out / "site"
    zipfile.ZipFile(wheel).extractall(site)
    return site


def run_installed(site, cwd, *args):
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-m", "exact", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.slow
def test_an_installed_wheel_plays_the_proven_tree_from_anywhere(unpacked, tmp_path):
    where = run_installed(unpacked, tmp_path, "--version")
    assert where.returncode == 0, where.stderr
    code = "import exact.words as w; print(w.__file__)"
    located = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(unpacked)},
                             capture_output=True, text=True)
    assert located.stdout.startswith(str(unpacked)), located.stdout  # the wheel's copy, not the checkout's
    r = run_installed(unpacked, tmp_path, "wordle", "play", "--answer", "crane")
    assert r.returncode == 0, r.stderr
    assert "tree nyt2023-tarse-guesses.graphml" in r.stdout.splitlines()[0]
    assert "solving the first guess live" not in r.stderr
    r = run_installed(unpacked, tmp_path, "wordle", "analyse", "tarse.bbbbb", "--json", "--live-max", "5")
    assert r.returncode == 0, r.stderr
    assert '"how": "certificate results/wordle/nyt2023-tarse-guesses-certificate.json"' in r.stdout
