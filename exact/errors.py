"""The one error type users see: the CLI prints its message on one line and exits non-zero."""


class ExactError(Exception):
    """A user-facing error: bad input, a bad option, an unreadable file.

    The message says what is wrong and where (file, line, word) in one line.
    """
