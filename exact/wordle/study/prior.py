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

The fit (recorded with the instance): the share of the prior's weight on the words of ``nyt2023``
(answers the NYT used or planned), how many of them the prior keeps as answers, and the log-likelihood
of those it keeps under the prior and under a uniform prior over the same ANSWERS words.
"""

from __future__ import annotations

import hashlib
import json
import math
from importlib import metadata
from pathlib import Path

from exact.errors import ExactError
from exact.fileio import atomic_write_bytes
from exact.words import WordList, named_lists

try:  # the optional extra '.[prior]': only `exact wordle prior` needs it
    import wordfreq
except ImportError:  # lazy: reported as a one-line error when the command runs
    wordfreq = None

SCALE, CENTRE, WIDTH, ANSWERS = 1000, 3000, 300, 5000


def sigmoid_weight(rank: int) -> int:
    """The weight of the word of frequency rank ``rank`` (0-based; see the module)."""
    if rank >= ANSWERS:
        return 0
    return max(1, round(SCALE / (1 + math.exp((rank - CENTRE) / WIDTH))))


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
    """How the prior meets the answers of ``history`` (nyt2023): see the module."""
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


def write_prior(folder: str | Path) -> dict:
    """Write ``answers.txt`` (sorted), ``weights.txt`` (``word weight``) and ``provenance.json`` under
    ``folder``; returns the provenance."""
    history, guesses = named_lists("nyt2023")
    weights = prior_weights(guesses)
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
        "fit": fit(weights, history),
        "command": "exact wordle prior --out instances/nyt-prior",
    }
    atomic_write_bytes(folder / "answers.txt", answers.encode())
    atomic_write_bytes(folder / "weights.txt", lines.encode())
    atomic_write_bytes(folder / "provenance.json", (json.dumps(provenance, indent=2) + "\n").encode())
    return provenance

