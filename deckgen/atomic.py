"""Atomic file writing for every output deckgen makes: a temp file in the same folder, then
``os.replace``, with the ordinary permissions the umask gives (not mkstemp's 0600).

An interrupted or failed write leaves the previous file untouched and no temp file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from deckgen.errors import DeckgenError, error

CHUNK = 1 << 20
_UMASK = os.umask(0)
os.umask(_UMASK)


def _write_chunks(fh, data: bytes) -> None:
    view = memoryview(data)
    for start in range(0, len(view), CHUNK):
        fh.write(view[start:start + CHUNK])


def write_bytes(path: Path, data: bytes) -> Path:
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise DeckgenError(error("output", str(path), f"cannot write here: {exc.strerror}",
                                 hint="choose another folder with -o")) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_chunks(fh, data)
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise DeckgenError(error("output", str(path), f"cannot write: {exc.strerror}")) from None
        raise
    return path


def write_text(path: Path, text: str) -> Path:
    return write_bytes(path, text.encode("utf-8"))


def copy_file(src: Path, dst: Path) -> Path:
    """Copy a file atomically (a cached face into an output folder, say)."""
    return write_bytes(dst, Path(src).read_bytes())
