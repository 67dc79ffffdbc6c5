"""Reading a file a deck names, and nothing else: a regular file, of a bounded size.

A deck folder is untrusted input (``docs/security.md``). A name in it may point at a FIFO (the
read blocks forever), a device (``/dev/zero`` never ends), a folder, or a file far larger than
any deck input. :func:`read_bytes` opens the path without blocking, checks with ``fstat`` on the
open descriptor (so the check and the read are about the same file) that it is a regular file,
and reads at most ``limit`` bytes. Anything else is an :class:`UnsafeFile`, an ``OSError``
whose ``strerror`` says why, so callers that already turn ``OSError`` into a finding report it
the same way.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from deckgen import deckfs

MAX_FILE = 64 * 1024 * 1024         # bytes: the largest deck input (an image, a font, a TOML file)
MAX_TEXT = 8 * 1024 * 1024          # bytes: the largest TOML file or template
_O_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class UnsafeFile(OSError):
    """A path that is not a regular file, or is larger than the limit."""


def user_path(text: str) -> Path:
    """A path as a person wrote it: a leading ``~`` or ``~user`` is that home folder, where the
    machine knows it; otherwise (``~0``, ``~draft.png``: no such user) the name is taken as it is."""
    try:
        return Path(text).expanduser()
    except RuntimeError:                     # "Could not determine home directory."
        return Path(text)


def describe_mode(mode: int) -> str:
    """What a path that is not a regular file is, in words for a message."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _limit_text(limit: int) -> str:
    return f"{limit / 1e6:.0f} MB" if limit >= 1_000_000 else f"{limit} bytes"


def check_regular(path: str | os.PathLike[str], limit: int = MAX_FILE) -> os.stat_result:
    """The file's ``stat`` when it is a regular file of at most ``limit`` bytes, else UnsafeFile.

    For callers that hand the path to a library which opens it itself (Pillow, ReportLab):
    it stops a FIFO or a device from ever reaching that library. An entry of a mounted pack
    (:mod:`deckgen.deckfs`) is a regular file of its size."""
    st = deckfs.stat(path)
    _require(st, limit)
    return st


def _require(st: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        kind = describe_mode(st.st_mode)
        raise UnsafeFile(errno.EISDIR if kind == "a folder" else errno.EINVAL,
                         f"is {kind}, not a regular file" if kind != "not a regular file" else "is not a regular file")
    if st.st_size > limit:
        raise UnsafeFile(errno.EFBIG, f"is {st.st_size / 1e6:.1f} MB, over the limit of {_limit_text(limit)}")


def read_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; UnsafeFile (an OSError) otherwise.
    A path inside a mounted pack is read from the pack's checked entries (:mod:`deckgen.deckfs`)."""
    packed = deckfs.read(path)
    if packed is not None:
        if len(packed) > limit:
            raise UnsafeFile(errno.EFBIG, f"is {len(packed) / 1e6:.1f} MB, over the limit of {_limit_text(limit)}")
        return packed
    return read_disk(path, limit)


def read_disk(path: str | os.PathLike[str], limit: int = MAX_FILE) -> bytes:
    """:func:`read_bytes` of a file on disk, even one a pack is mounted at (the pack file itself)."""
    fd = os.open(path, _O_FLAGS)          # O_NONBLOCK: opening a FIFO with no writer does not wait
    try:
        st = os.fstat(fd)
        _require(st, limit)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:                  # it grew while being read
        raise UnsafeFile(errno.EFBIG, f"is over the limit of {_limit_text(limit)}")
    return data


def read_text(path: Path, limit: int = MAX_TEXT) -> str:
    """A regular UTF-8 text file (UnicodeDecodeError and UnsafeFile propagate)."""
    return read_bytes(path, limit).decode("utf-8")


__all__ = ["MAX_FILE", "MAX_TEXT", "UnsafeFile", "check_regular", "read_bytes", "read_disk", "read_text"]
