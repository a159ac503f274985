"""The one error type users see: the CLI prints its message on one line and exits non-zero.

An :class:`ExactError` carries where the problem is as attributes, ``path`` (a file, or a list's
name) and ``line`` (1-based), so that callers read them instead of parsing the message; its text is
still the one line ``path:line: message``.

>>> e = ExactError("'zzzzq' is not in guesses.txt", path="answers.txt", line=7)
>>> str(e), e.path, e.line, e.message
("answers.txt:7: 'zzzzq' is not in guesses.txt", 'answers.txt', 7, "'zzzzq' is not in guesses.txt")
>>> str(ExactError("a tab in the indentation", line=3).at(path="t.tree"))
't.tree:3: a tab in the indentation'
>>> str(ExactError("no such file", path="x.json"))
'x.json: no such file'
"""

from __future__ import annotations


class ExactError(Exception):
    """A user-facing error: bad input, a bad option, an unreadable file.

    ``message`` says what is wrong (naming the word where there is one); ``path`` and ``line``, when
    known, say where. ``str()`` joins them into one line.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line

    def __str__(self) -> str:
        if self.path is not None:
            where = self.path if self.line is None else f"{self.path}:{self.line}"
        else:
            where = None if self.line is None else f"line {self.line}"
        return self.message if where is None else f"{where}: {self.message}"

    def __reduce__(self):  # keep path and line across processes (pickling drops keyword arguments)
        return _rebuild, (self.message, self.path, self.line)

    def at(self, path: str | None = None, line: int | None = None) -> "ExactError":
        """The same error with ``path`` and ``line`` filled in where they are still unknown."""
        return ExactError(self.message, path=self.path if self.path is not None else path,
                          line=self.line if self.line is not None else line)


def _rebuild(message, path, line):
    return ExactError(message, path=path, line=line)
