"""Writing files atomically: a reader (or an interrupted run) never leaves half a file behind."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from exact.errors import ExactError


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write under a temporary name in the same folder, then rename into place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text(path: str | Path, text: str) -> None:
    """Write text atomically; a failure is a one-line ExactError naming the file."""
    try:
        atomic_write_bytes(path, text.encode())
    except OSError as e:
        raise ExactError(f"cannot write ({e.strerror})", path=path) from None


def write_json(path: str | Path, data) -> None:
    """Write JSON (indented, trailing newline) atomically."""
    write_text(path, json.dumps(data, indent=2) + "\n")


def read_json(path: str | Path, what: str = "JSON file") -> object:
    """Read JSON; a missing, unreadable or malformed file is a one-line ExactError."""
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ExactError("no such file", path=path) from None
    except (OSError, UnicodeDecodeError) as e:
        raise ExactError(f"cannot read {what} ({e})", path=path) from None
    except json.JSONDecodeError as e:
        raise ExactError(f"not valid JSON ({e.msg})", path=path, line=e.lineno) from None


def export_cp_model(model, path: str | Path) -> None:
    """Write a CP-SAT model as protobuf (binary for ``.pb``, text for ``.pbtxt``), atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=path.suffix + ".tmp")
    os.close(fd)
    # export_to_file picks text or binary from the name's ending, so give it the real one.
    tmp_named = tmp[: -len(".tmp")]
    try:
        if not model.export_to_file(tmp_named):
            raise ExactError("OR-Tools could not export the model", path=path)
        os.replace(tmp_named, path)
    except OSError as e:
        raise ExactError(f"cannot write the model ({e.strerror})", path=path) from None
    finally:
        Path(tmp).unlink(missing_ok=True)
        Path(tmp_named).unlink(missing_ok=True)
