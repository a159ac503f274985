"""Seals: telling a file this installation wrote, unedited, from one that was forged or hand-edited.

A seal is an HMAC-SHA256 of a JSON document's canonical text (keys sorted, no ``seal`` field) under
a random key kept in the cache folder (``seal.key``, mode 0600, made on first use). It proves
nothing to anyone else: a seal only lets *this* user's later runs (``--resume``) take a claim such
as "letter x is OPTIMAL" from their own earlier output without re-deriving it, while anything
edited, forged or made elsewhere is re-derived. Verification for others (``exact lingo verify``)
never relies on it.

Data types: a document is a JSON-ready dict; a seal is a hex string.

>>> import os, tempfile
>>> old, os.environ["EXACT_CACHE_DIR"] = os.environ.get("EXACT_CACHE_DIR"), tempfile.mkdtemp()
>>> d = sealed({"wins": 5})
>>> is_sealed(d), is_sealed({**d, "wins": 6}), is_sealed({"wins": 5})
(True, False, False)
>>> _ = os.environ.pop("EXACT_CACHE_DIR") if old is None else os.environ.update(EXACT_CACHE_DIR=old)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

from exact.partitions import cache_dir  # the cache folder is the partitions layer's idea

KEY_FILE = "seal.key"


def _key() -> bytes:
    path = Path(cache_dir()) / KEY_FILE
    try:
        return bytes.fromhex(path.read_text().strip())
    except (OSError, ValueError):
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first (or it was unreadable: then nothing is sealed)
        try:
            return bytes.fromhex(path.read_text().strip())
        except (OSError, ValueError):
            return b""
    with os.fdopen(fd, "w") as f:
        f.write(key + "\n")
    return bytes.fromhex(key)


def seal(document: dict) -> str:
    text = json.dumps({k: v for k, v in document.items() if k != "seal"}, sort_keys=True, separators=(",", ":"))
    return hmac.new(_key() or b"-", text.encode(), hashlib.sha256).hexdigest()


def sealed(document: dict) -> dict:
    """The document with its ``seal`` field."""
    return {**document, "seal": seal(document)}


def is_sealed(document) -> bool:
    """Whether ``document`` carries this installation's seal over exactly its content."""
    mark = document.get("seal") if isinstance(document, dict) else None
    return isinstance(mark, str) and bool(_key()) and hmac.compare_digest(mark, seal(document))
