"""One way to read a deck's files, whether the deck is a folder or a ``.deck.zip`` held in memory.

A checked pack (:mod:`deckgen.pack`) is *mounted* at its own path: the manifest of
``/home/ana/fox.deck.zip`` is read as ``/home/ana/fox.deck.zip/fox.toml`` and its art as
``/home/ana/fox.deck.zip/art/fox.svg``. Every reader of deck files asks this module (directly, or
through :func:`deckgen.safefile.read_bytes`, which asks it first), so the manifest parser, the
images, the fonts, the preset files and the sheets read a pack exactly as they read a folder,
and the pack is never unpacked to disk. Paths are confined the same way in both: a path is
resolved first (:func:`deckgen.images.resolve_inside`), and inside a mount a name is looked up
among the pack's checked entries only, so ``..`` or a link can reach nothing else.

Libraries that open a font by path themselves (FreeType, ReportLab, resvg) are given
:func:`library_path`: on Linux an anonymous in-memory file (``memfd``) holding the entry's
bytes, elsewhere a copy in a private temporary folder removed when the process ends.
"""

from __future__ import annotations

import errno
import hashlib
import os
import posixpath
import stat as stat_mode
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Mount:
    """A pack's checked entries, by name (``art/fox.svg``), read-only."""

    root: str                                  # the pack's absolute path, which serves as its folder
    files: dict[str, bytes]
    generation: int = 0
    dirs: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        for name in self.files:
            parts = name.split("/")
            for i in range(1, len(parts)):
                self.dirs.add("/".join(parts[:i]))
        self.dirs.add("")


_mounts: dict[str, Mount] = {}
_generation = 0
_library: dict[tuple[str, int, str], str] = {}      # (root, generation, name) -> a path a library can open


def mount(root: Path, files: dict[str, bytes]) -> Mount:
    """Serve ``files`` at ``root`` (replacing an earlier mount there)."""
    global _generation
    _generation += 1
    key = os.path.abspath(os.fspath(root))
    m = Mount(key, dict(files), _generation)
    _mounts[key] = m
    return m


def unmount(root: Path) -> None:
    _mounts.pop(os.path.abspath(os.fspath(root)), None)


def mounted(root: Path) -> Mount | None:
    return _mounts.get(os.path.abspath(os.fspath(root)))


def locate(path: str | os.PathLike[str]) -> tuple[Mount, str] | None:
    """The mount a path lies in and the entry name it names there; None for a path on disk."""
    if not _mounts:
        return None
    text = os.path.abspath(os.fspath(path))
    for root, m in _mounts.items():
        if text == root:
            return m, ""
        if text.startswith(root + os.sep):
            name = posixpath.normpath(text[len(root) + 1:].replace(os.sep, "/"))
            if name == ".":
                return m, ""
            if name.startswith("../") or name == "..":
                return None
            return m, name
    return None


def is_virtual(path: str | os.PathLike[str]) -> bool:
    return locate(path) is not None


def read(path: str | os.PathLike[str]) -> bytes | None:
    """An entry's bytes, None for a path on disk; FileNotFoundError / IsADirectoryError inside a mount."""
    hit = locate(path)
    if hit is None:
        return None
    m, name = hit
    if name in m.files:
        return m.files[name]
    if name in m.dirs:
        raise IsADirectoryError(errno.EISDIR, "is a folder", os.fspath(path))
    raise FileNotFoundError(errno.ENOENT, "no such file in the pack", os.fspath(path))


def is_file(path: str | os.PathLike[str]) -> bool:
    hit = locate(path)
    if hit is None:
        return Path(path).is_file()
    return hit[1] in hit[0].files


def is_dir(path: str | os.PathLike[str]) -> bool:
    hit = locate(path)
    if hit is None:
        return Path(path).is_dir()
    return hit[1] in hit[0].dirs


def exists(path: str | os.PathLike[str]) -> bool:
    return is_file(path) or is_dir(path)


def listdir(path: str | os.PathLike[str]) -> list[str]:
    """The names directly inside a folder, sorted (empty when it is none)."""
    hit = locate(path)
    if hit is None:
        try:
            return sorted(os.listdir(path))
        except OSError:
            return []
    m, name = hit
    prefix = f"{name}/" if name else ""
    out = {n[len(prefix):].split("/")[0] for n in list(m.files) + list(m.dirs) if n.startswith(prefix) and n != name}
    return sorted(o for o in out if o)


def stat(path: str | os.PathLike[str]) -> os.stat_result:
    """``os.stat`` of a path on disk; for an entry, its size with the mount's generation as its time."""
    hit = locate(path)
    if hit is None:
        return os.stat(path)
    m, name = hit
    if name in m.files:
        mode, size = stat_mode.S_IFREG | 0o444, len(m.files[name])
    elif name in m.dirs:
        mode, size = stat_mode.S_IFDIR | 0o555, 0
    else:
        raise FileNotFoundError(errno.ENOENT, "no such file in the pack", os.fspath(path))
    return os.stat_result((mode, 0, 0, 1, 0, 0, size, m.generation, m.generation, m.generation),
                          {"st_mtime_ns": m.generation})


def stamp(path: str | os.PathLike[str]) -> tuple[int, int]:
    """(modification time in ns, size) for a cache key; (0, 0) when the path is not there."""
    try:
        st = stat(path)
    except OSError:
        return 0, 0
    return st.st_mtime_ns, st.st_size


def library_path(path: str | os.PathLike[str]) -> str:
    """A path a library may open itself: the path itself on disk; for an entry, an in-memory file
    (Linux ``memfd``) or a private temporary copy."""
    hit = locate(path)
    if hit is None:
        return os.fspath(path)
    m, name = hit
    key = (m.root, m.generation, name)
    if key in _library:
        return _library[key]
    data = read(path)
    assert data is not None
    if hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd"):
        fd = os.memfd_create(posixpath.basename(name) or "entry", os.MFD_CLOEXEC)   # forked workers keep it
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
        real = f"/proc/self/fd/{fd}"
    else:                                       # pragma: no cover (no memfd: macOS, Windows)
        real = _private_copy(name, data)
    _library[key] = real
    return real


_private: list[str] = []


def _private_copy(name: str, data: bytes) -> str:
    """Where there is no memfd: the entry in a private temporary folder of this process, removed
    when it exits."""
    import atexit
    import shutil
    import tempfile

    if not _private:
        _private.append(tempfile.mkdtemp(prefix="deckgen-pack-"))
        atexit.register(shutil.rmtree, _private[0], True)
    target = os.path.join(_private[0], hashlib.sha256(data).hexdigest() + posixpath.splitext(name)[1])
    if not os.path.exists(target):
        with open(target, "wb") as fh:
            fh.write(data)
    return target
