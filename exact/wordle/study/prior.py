"""A prior over today's answers from word frequency (``exact wordle prior``): integer weights for the
NYT's allowed words, written as an instance (answers, weights, provenance with sha256 and the fit).

The data: ``wordfreq`` (PyPI; code Apache-2.0, word lists CC-BY-SA 4.0, by Robyn Speer), English
frequencies of each of the 14855 allowed words (``word_frequency(word, "en")``).

The model (3Blue1Brown's, made integer): rank the allowed words by frequency, most frequent first
(ties by word); the word of rank r (0-based) gets

    weight(r) = max(1, round(SCALE / (1 + exp((r - CENTRE) / WIDTH))))   for r < ANSWERS, else 0,

a sigmoid over rank: the NYT's editors pick common words, and past a few thousand words whether a
word is "common" hardly depends on its exact frequency, so rank, not frequency, drives the weight;
the floor of 1 keeps every one of the ANSWERS words possible (a prior of 0 would make an answer the
NYT might pick impossible to play against), and the words past ANSWERS (weight 0) are not answers,
which keeps the exact runs within this machine. Integers keep every proof exact (:mod:`exact.weights`).

CENTRE and WIDTH are fitted, not guessed: :func:`fit_sigmoid` searches the grid CENTRE in
``FIT_CENTRES``, WIDTH in ``FIT_WIDTHS`` for the largest log-likelihood of the original game's 2315
answers (the NYT's picks before 2023, ``--list original``) that lie among the ANSWERS most frequent
words (the others have probability 0 under every choice of CENTRE and WIDTH, so they do not move the
argmax); a test checks that the grid's best is the CENTRE and WIDTH used. ANSWERS stays at 5000, the
most the exact runs allow: a larger cut would only keep more of the history.

The fit (recorded with the instance): on ``original`` (the data it was fitted to) and on ``nyt2023``
(answers the NYT used or planned; it contains 2302 of the 2315 original answers, so it is no
independent test), the share of the prior's weight on the history's words, how many of them the prior
keeps as answers, and the log-likelihood of those it keeps under the prior and under a uniform prior
over the same ANSWERS words; and the same on the held-out words, nyt2023's answers that the original
list lacks (:func:`held_out`), the one test the fit did not see.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np

from exact.errors import ExactError
from exact.fileio import atomic_write_bytes
from exact.words import WordList, named_lists, words_from_lines

try:  # the optional extra '.[prior]': only `exact wordle prior` needs it
    import wordfreq
except ImportError:  # lazy: reported as a one-line error when the command runs
    wordfreq = None

SCALE, CENTRE, WIDTH, ANSWERS = 1000, 2950, 1200, 5000

#: the grid :func:`fit_sigmoid` searches (ranks; steps of 50)
FIT_CENTRES, FIT_WIDTHS = range(500, 5001, 50), range(50, 3001, 50)


@dataclass(frozen=True)
class SigmoidFit:
    """The best grid point of :func:`fit_sigmoid` and its log-likelihood on the fitted history."""

    centre: int
    width: int
    log_likelihood: float
    history: str


def sigmoid_weight(rank: int, centre: int = CENTRE, width: int = WIDTH) -> int:
    """The weight of the word of frequency rank ``rank`` (0-based; see the module)."""
    if rank >= ANSWERS:
        return 0
    return max(1, round(SCALE / (1 + math.exp((rank - centre) / width))))


def fit_sigmoid(ranked: list[str], history: WordList) -> SigmoidFit:
    """The (centre, width) of the grid whose weights give the history's answers among the ANSWERS
    most frequent words the largest log-likelihood (ties: the first in grid order)."""
    position = {w: r for r, w in enumerate(ranked[:ANSWERS])}
    kept = np.array([position[w] for w in history.words if w in position], dtype=np.int64)
    ranks = np.arange(ANSWERS, dtype=np.float64)
    best = None
    for centre in FIT_CENTRES:
        for width in FIT_WIDTHS:
            weights = np.maximum(1.0, np.round(SCALE / (1.0 + np.exp((ranks - centre) / width))))
            ll = float(np.log(weights[kept]).sum() - len(kept) * math.log(weights.sum()))
            if best is None or ll > best.log_likelihood:
                best = SigmoidFit(centre, width, ll, history.source)
    return best


def frequency_ranks(words: WordList) -> list[str]:
    """The words, most frequent first in English by wordfreq (ties by word)."""
    if wordfreq is None:
        raise ExactError("exact wordle prior needs the wordfreq package: pip install 'exact[prior]'")
    freq = {w: wordfreq.word_frequency(w, "en") for w in words.words}
    return sorted(words.words, key=lambda w: (-freq[w], w))


def prior_weights(guesses: WordList) -> dict[str, int]:
    """word -> its positive weight, for the ANSWERS most frequent allowed words."""
    ranked = frequency_ranks(guesses)
    return {w: sigmoid_weight(r) for r, w in enumerate(ranked) if sigmoid_weight(r) > 0}


def fit(weights: dict[str, int], history: WordList) -> dict:
    """How the prior meets the answers of ``history`` (original, nyt2023): see the module."""
    total = sum(weights.values())
    kept = [w for w in history.words if w in weights]
    ll = sum(math.log(weights[w] / total) for w in kept)
    uniform = -len(kept) * math.log(len(weights))
    return {"history": history.source, "history_words": len(history), "kept_as_answers": len(kept),
            "weight_share": sum(weights[w] for w in kept) / total,
            "log_likelihood": ll, "log_likelihood_uniform": uniform,
            "mean_log_likelihood_gain": (ll - uniform) / len(kept) if kept else None,
            "note": "log-likelihoods over the history words the prior keeps as answers; the others have "
                    "probability 0 under both"}


def held_out(history: WordList, fitted: WordList) -> WordList:
    """The answers of ``history`` that ``fitted`` lacks (nyt2023's 856 words past the original list):
    the only part of nyt2023 the fit did not see."""
    seen = set(fitted.words)
    return words_from_lines([w for w in history.words if w not in seen], f"{history.source} minus {fitted.source}")


def write_prior(folder: str | Path) -> dict:
    """Write ``answers.txt`` (sorted), ``weights.txt`` (``word weight``) and ``provenance.json`` under
    ``folder``; returns the provenance."""
    history, guesses = named_lists("nyt2023")
    original, _ = named_lists("original")
    weights = prior_weights(guesses)
    best = fit_sigmoid(frequency_ranks(guesses), original)
    if (best.centre, best.width) != (CENTRE, WIDTH):
        raise ExactError(f"the sigmoid's best fit to {original.source} is centre {best.centre}, width "
                         f"{best.width}, not the CENTRE {CENTRE}, WIDTH {WIDTH} of exact.wordle.study.prior "
                         f"(another wordfreq version?): update them")
    folder = Path(folder)
    answers = "".join(f"{w}\n" for w in sorted(weights))
    lines = "".join(f"{w} {weights[w]}\n" for w in sorted(weights))
    provenance = {
        "model": f"weight(r) = max(1, round({SCALE} / (1 + exp((r - {CENTRE}) / {WIDTH})))) for frequency rank "
                 f"r < {ANSWERS} of the {len(guesses)} allowed words (most frequent first, ties by word), else 0",
        "source": {"package": "wordfreq", "version": metadata.version("wordfreq"), "language": "en",
                   "licence": "code Apache-2.0; data CC-BY-SA 4.0 (wordfreq's word lists)"},
        "guesses": {"source": guesses.source, "sha256": guesses.sha256, "count": len(guesses)},
        "answers": {"file": "answers.txt", "count": len(weights),
                    "sha256": hashlib.sha256(answers.encode()).hexdigest()},
        "weights": {"file": "weights.txt", "total": sum(weights.values()),
                    "sha256": hashlib.sha256(lines.encode()).hexdigest()},
        "fitted": {"to": original.source, "grid": {"centre": [FIT_CENTRES.start, FIT_CENTRES.stop - 1, 50],
                                                    "width": [FIT_WIDTHS.start, FIT_WIDTHS.stop - 1, 50]},
                   "centre": CENTRE, "width": WIDTH, "log_likelihood": best.log_likelihood},
        "fit": fit(weights, history),
        "fit_original": fit(weights, original),
        "fit_held_out": fit(weights, held_out(history, original)),
        "command": "exact wordle prior --out instances/nyt-prior",
    }
    atomic_write_bytes(folder / "answers.txt", answers.encode())
    atomic_write_bytes(folder / "weights.txt", lines.encode())
    atomic_write_bytes(folder / "provenance.json", (json.dumps(provenance, indent=2) + "\n").encode())
    return provenance

