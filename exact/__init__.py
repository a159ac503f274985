"""exact: proven-optimal strategies for word-guessing games (Lingo, Wordle)."""

__version__ = "0.1.0"
