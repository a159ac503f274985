"""The two kinds of error, split the way networkx splits ``NetworkXError`` (bad input) from
``NetworkXAlgorithmError`` (the algorithm failed):

- :class:`ExactError` is bad input: a bad word, a bad option, an unreadable file. It is the user's to
  fix; the CLI prints its message on one line and exits 2.
- :class:`InternalError` is a broken invariant: a result that fails its own re-check, a model that
  contradicts a recount. It is a bug, the user cannot fix it; the CLI exits 70 (``EX_SOFTWARE``) with
  one line that names the report it wrote (the traceback) and asks to send it. It is deliberately
  *not* an ``ExactError``, so code that catches bad input never swallows a bug.

An :class:`ExactError` carries where the problem is as attributes, ``path`` (a file, or a list's
name) and ``line`` (1-based), so that callers read them instead of parsing the message; its text is
still the one line ``path:line: message``. A message about an argument names the *parameter*
(``depth must be at least 1, not 0``), never a command-line flag: ``params`` lists the parameters it
names, and the command line shows each as its flag (:func:`exact.cli.common.flagged`).

>>> e = ExactError("'zzzzq' is not in guesses.txt", path="answers.txt", line=7)
>>> str(e), e.path, e.line, e.message
("answers.txt:7: 'zzzzq' is not in guesses.txt", 'answers.txt', 7, "'zzzzq' is not in guesses.txt")
>>> str(ExactError("a tab in the indentation", line=3).at(path="t.tree"))
't.tree:3: a tab in the indentation'
>>> str(ExactError("no such file", path="x.json"))
'x.json: no such file'
>>> ExactError("depth must be at least 1, not 0", params=("depth",)).params
('depth',)
>>> isinstance(InternalError("the tree replays to 2 wins, the search said 3"), ExactError)
False
"""

from __future__ import annotations


class ExactError(Exception):
    """A user-facing error: bad input, a bad option, an unreadable file.

    ``message`` says what is wrong (naming the word where there is one); ``path`` and ``line``, when
    known, say where. ``str()`` joins them into one line. ``params`` names the parameters the message
    mentions by name (empty: none, or only the one its first word names).
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 params: tuple[str, ...] = ()):
        super().__init__(message)
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.params = tuple(params)

    def __str__(self) -> str:
        if self.path is not None:
            where = self.path if self.line is None else f"{self.path}:{self.line}"
        else:
            where = None if self.line is None else f"line {self.line}"
        return self.message if where is None else f"{where}: {self.message}"

    def __reduce__(self):  # keep path and line across processes (pickling drops keyword arguments)
        return _rebuild, (self.message, self.path, self.line, self.params)

    def at(self, path: str | None = None, line: int | None = None) -> "ExactError":
        """The same error with ``path`` and ``line`` filled in where they are still unknown."""
        return ExactError(self.message, path=self.path if self.path is not None else path,
                          line=self.line if self.line is not None else line, params=self.params)


class InternalError(Exception):
    """A broken invariant: the code contradicts itself, whatever the input.

    Raise it where a result fails the check the code makes of it (a tree that does not replay to the
    value its search claimed, a solver's objective that a recount does not give, a plan with a hole
    the search said it filled) and where a solver fails on a model that is feasible by construction.
    Bad input is never an internal error (that is :class:`ExactError`), nor is the failure of a program
    outside this package (a peer solver, a missing tool). The command line answers it with exit 70
    and a report file, not with the one-line error of bad input: the user cannot fix it, only report it.
    """


def shorten(text, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters (with "..." and its length), for echoing in errors: a
    message never repeats a whole input.

    >>> shorten("x" * 100)
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (100 characters)'
    """
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _rebuild(message, path, line, params=()):
    return ExactError(message, path=path, line=line, params=params)
