"""Writing files atomically: a reader (or an interrupted run) never leaves half a file behind.

What a write does with its destination:

- a regular file (or a new name): the data goes to a temporary file in the same folder, which is
  then renamed over the destination. A new file gets the permissions the umask allows (like any
  file a program creates); a file that is replaced keeps its permissions;
- a symbolic link: it is followed, and its target is written (atomically, as above), so the link
  stays a link;
- a special file (a device such as ``/dev/null``, a FIFO): written directly, since renaming over it
  would replace the device or pipe with a regular file; a failure (``/dev/full``) is an error;
- a folder: an error.

:func:`check_writable` tells, before a long computation, whether its output can be written.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> write_text(os.path.join(folder, "a.txt"), "hello\\n")
>>> open(os.path.join(folder, "a.txt")).read()
'hello\\n'
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import socket
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from exact.errors import ExactError


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def destination(path: str | Path) -> Path:
    """The file a write to ``path`` changes: ``path`` itself, or the target its symlinks lead to."""
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def stream_fd(path: str | Path) -> int | None:
    """The descriptor a path names as a stream of this process (``/dev/stdout`` 1, ``/dev/stderr`` 2,
    ``/dev/fd/N``, ``/proc/self/fd/N``), or None. Such an output is written into the stream itself,
    where the command's other output goes, never replaced by a rename (``> file`` would lose the rest).
    """
    text = str(path)
    named = {"/dev/stdout": 1, "/dev/stderr": 2}.get(text)
    match = re.fullmatch(r"/(?:dev|proc/self)/fd/(\d{1,6})", text)
    return named if named is not None else int(match[1]) if match else None


def _write_stream(fd: int, write: Callable[[BinaryIO], object]) -> None:
    """Write into descriptor ``fd`` after what this process printed there (through a duplicate, which
    shares its offset)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    with os.fdopen(os.dup(fd), "wb") as f:
        write(f)


def _special(path: Path) -> bool:
    """An existing file that is neither regular nor a folder (device, FIFO, socket)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


#: Whether a write may create the missing folders above its file (the commands' ``--mkdir``). When
#: False, a missing folder is an error: a typo in an output path must not become a new folder tree.
MAKE_FOLDERS = True


def set_make_folders(allowed: bool) -> None:
    """The commands set this from ``--mkdir`` (off by default there); library calls keep it on."""
    global MAKE_FOLDERS
    MAKE_FOLDERS = allowed


def ensure_parent(path: str | Path, mkdir: bool | None = None) -> None:
    """The folder of ``path`` exists, or is made when ``mkdir`` (default :data:`MAKE_FOLDERS`);
    else FileNotFoundError naming the missing folder."""
    parent = Path(path).parent
    if parent.is_dir():
        return
    if MAKE_FOLDERS if mkdir is None else mkdir:
        parent.mkdir(parents=True, exist_ok=True)
    else:
        raise FileNotFoundError(2, f"no folder {parent}; give --mkdir to create it")


def make_folder(path: str | Path) -> Path:
    """An output folder a command names (``--trees DIR``): made if its parent exists (or with
    ``--mkdir``); a missing parent is a one-line ExactError."""
    path = Path(path)
    try:
        ensure_parent(path)
        path.mkdir(exist_ok=True)
    except OSError as e:
        raise ExactError(f"cannot make the folder ({e.strerror or e})", path=path) from None
    return path


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` as the module docstring says (atomically for regular files)."""
    atomic_write(path, lambda f: f.write(data))


def atomic_write(path: str | Path, write: Callable[[BinaryIO], object], mkdir: bool | None = None) -> None:
    """Call ``write(file)`` on a binary file that becomes ``path`` as the module docstring says.

    The temporary file is named ``.NAME.PID-XXXXXXXX.tmp`` beside the destination, so that a later
    run can tell the leftovers of a killed writer (:func:`temp_owner`).
    """
    fd = stream_fd(path)
    if fd is not None:
        _write_stream(fd, write)
        return
    if _special(Path(path)):  # followed as the kernel does: /dev/stdout -> /proc/self/fd/1 -> a pipe
        with open(path, "wb") as f:
            write(f)
        return
    target = destination(path)
    if target.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
    ensure_parent(target, mkdir)
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            os.fchmod(f.fileno(), mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def temp_owner(tmp: str | Path) -> int | None:
    """The pid of the process that made a temporary file of :func:`atomic_write`, if its name says."""
    match = re.search(r"\.(\d+)-[^.]*\.tmp$", Path(tmp).name)
    return int(match.group(1)) if match else None


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write bytes atomically; a failure is a one-line ExactError naming the file."""
    try:
        atomic_write_bytes(path, data)
    except OSError as e:
        raise ExactError(f"cannot write ({e.strerror or e})", path=path) from None


def write_text(path: str | Path, text: str) -> None:
    """Write text atomically; a failure is a one-line ExactError naming the file."""
    write_bytes(path, text.encode())


def write_json(path: str | Path, data) -> None:
    """Write JSON (indented, trailing newline) atomically."""
    write_text(path, json.dumps(data, indent=2) + "\n")


def check_writable(path: str | Path, what: str = "output") -> None:
    """Fail now, with a one-line ExactError, when ``path`` could not be written later.

    Makes a temporary file beside the destination (removed at once); a missing folder is an error
    unless folders may be made (:data:`MAKE_FOLDERS`, ``--mkdir``); a special file must be writable
    as it is.
    """
    target = Path(path) if _special(Path(path)) else destination(path)
    try:
        if stream_fd(path) is not None:
            os.fstat(stream_fd(path))  # open: it is written into as it is
            return
        if target.is_dir():
            raise IsADirectoryError(21, "Is a directory")
        if _special(target):
            if not os.access(target, os.W_OK):
                raise PermissionError(13, "Permission denied")
            return
        ensure_parent(target)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise ExactError(f"the {what} cannot be written ({e.strerror or e})", path=path) from None


#: The largest text file read whole (trees, results): larger is refused before it fills memory.
MAX_READ = 64 * 1024 * 1024


def read_text(path: str | Path, what: str = "file", limit: int = MAX_READ) -> str:
    """A UTF-8 text file, read in blocks up to ``limit`` bytes; more (``/dev/zero``) is an error.

    Raises OSError and UnicodeDecodeError as :meth:`pathlib.Path.read_text` does.
    """
    blocks, size = [], 0
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            size += len(block)
            if size > limit:
                raise ExactError(f"larger than {limit // (1024 * 1024)} MiB; not a {what}", path=path)
            blocks.append(block)
    return b"".join(blocks).decode("utf-8")


@contextmanager
def read_errors(path: str | Path, what: str) -> Iterator[None]:
    """Errors while reading ``path`` (a ``what``) as one-line ExactErrors naming the path: a missing
    file, a folder, bytes that are not UTF-8, any other OSError."""
    try:
        yield
    except FileNotFoundError:
        raise ExactError("no such file", path=path) from None
    except IsADirectoryError:
        raise ExactError(f"is a directory, not a {what}", path=path) from None
    except UnicodeDecodeError as e:
        raise ExactError(f"not UTF-8 text ({e.reason} at byte {e.start})", path=path) from None
    except OSError as e:
        raise ExactError(f"cannot read ({e.strerror or e})", path=path) from None


def read_json(path: str | Path, what: str = "JSON file") -> object:
    """Read JSON; a missing, unreadable or malformed file is a one-line ExactError."""
    try:
        return json.loads(read_text(path, what))
    except FileNotFoundError:
        raise ExactError("no such file", path=path) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ExactError(f"cannot read {what} ({e})", path=path) from None
    except json.JSONDecodeError as e:
        raise ExactError(f"not valid JSON ({e.msg})", path=path, line=e.lineno) from None
    except ValueError:  # an integer past sys.get_int_max_str_digits() digits
        raise ExactError("not valid JSON here (a number with too many digits)", path=path) from None


#: JSON types by name, for :func:`check_fields`: "int" excludes booleans, "number" is int or float.
_JSON_TYPES = {"str": (str,), "int": (int,), "number": (int, float), "bool": (bool,), "list": (list,),
               "dict": (dict,), "null": (type(None),)}


def check_fields(data, required: dict[str, str], optional: dict[str, str] | None = None, *, source: str = "file",
                 where: str = "") -> dict:
    """``data`` is a JSON object whose fields have the types named (``"int"``, ``"str|null"``, ...);
    else a one-line ExactError naming ``source``, the place ``where`` in it, and the field.

    >>> check_fields({"k": 4, "tag": None}, {"k": "int"}, {"tag": "str|null"}, source="r.json")
    {'k': 4, 'tag': None}
    >>> check_fields({"k": True}, {"k": "int"}, source="r.json")
    Traceback (most recent call last):
    exact.errors.ExactError: r.json: field 'k' has the wrong type (bool; want int)
    """
    at = f"{where}: " if where else ""
    if not isinstance(data, dict):
        raise ExactError(f"{at}not a JSON object ({type(data).__name__})", path=source)
    for name, kinds in list(required.items()) + list((optional or {}).items()):
        if name not in data:
            if name in required:
                raise ExactError(f"{at}field {name!r} is missing", path=source)
            continue
        value, wanted = data[name], kinds.split("|")
        if isinstance(value, bool) and "bool" not in wanted or \
                not any(isinstance(value, _JSON_TYPES[k]) for k in wanted):
            raise ExactError(f"{at}field {name!r} has the wrong type ({type(value).__name__}; want {kinds})",
                             path=source)
    return data


def is_decimal(text: str) -> bool:
    """``text`` is a whole number written in ASCII digits, the only digits a file of this project holds
    (``str.isdigit`` also accepts ``³``, which ``int`` refuses, and ``int`` reads full-width ``１２`` as 12).

    >>> is_decimal("12"), is_decimal("³"), is_decimal("１２"), is_decimal(""), is_decimal("-1")
    (True, False, False, False, False)
    """
    return text.isascii() and text.isdigit()


# --- the lock of a checkpoint (one writer at a time) -------------------------------------------------

def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def lock_checkpoint(path: Path) -> int:
    """Take the advisory lock of a checkpoint (``fcntl.flock`` on ``NAME.lock`` beside it), or fail
    with a one-line error naming the run that holds it. The kernel drops the lock when its process
    ends, however it ends, so a crash never leaves a checkpoint locked; the side file stays (it is
    harmless) and records the pid and command of the last run that held it."""
    side = lock_path(path)
    try:
        fd = os.open(side, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise ExactError(f"{side}: cannot open the checkpoint's lock file ({e.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.pread(fd, 300, 0).decode("utf-8", "replace").strip() or "another process"
        os.close(fd)
        raise ExactError(f"{path}: the checkpoint is in use by a run still going ({holder}); wait for it, "
                         f"stop it, or use another checkpoint") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()}: {' '.join(sys.argv)[:200]}\n".encode(), 0)
    return fd


@dataclass
class Verification:
    """The re-checks of one result file (a Wordle certificate, a Lingo result): each a name, an outcome
    (``ok``, ``unconfirmed`` when it could not be made, e.g. an optimality resting on a search too long to
    redo, or ``FAIL``) and a detail. ``ok``: no check failed and, unless ``partial``, none is unconfirmed.
    ``interrupted``: a signal stopped a check (what was done so far is kept; the checks after it are not run).

    >>> v = Verification("r.json"); v.add("wins", True, "8282"); v.add("bound", None, "search not redone")
    >>> v.ok, v.unconfirmed, Verification("r.json", v.checks, partial=True).ok
    (False, ['bound'], True)
    """

    path: str
    checks: list[tuple[str, str, str]] = field(default_factory=list)
    partial: bool = False
    interrupted: bool = False  # a signal (Ctrl-C, SIGTERM) stopped a check: the command exits 130/143

    def add(self, name: str, ok: bool | None, detail: str) -> None:
        self.checks.append((name, "ok" if ok else "unconfirmed" if ok is None else "FAIL", detail))

    @property
    def unconfirmed(self) -> list[str]:
        return [name for name, outcome, _ in self.checks if outcome == "unconfirmed"]

    @property
    def failed(self) -> bool:
        return any(outcome == "FAIL" for _, outcome, _ in self.checks)

    @property
    def ok(self) -> bool:
        return not self.failed and (self.partial or not self.unconfirmed)

    def to_json(self) -> dict:
        return {"file": self.path, "ok": self.ok, "partial": self.partial, "interrupted": self.interrupted,
                "unconfirmed": self.unconfirmed,
                "checks": [{"check": n, "outcome": o, "detail": d} for n, o, d in self.checks]}
