"""How cache entries are written: atomically, with their checksum, but without waiting for the
disk (``atomic.write_unsynced``); outputs keep their ``fsync`` (tests/test_cache_integrity.py)."""

from __future__ import annotations

import hashlib
import os

import pytest

from deckgen import atomic, cache
from deckgen.errors import DeckgenError


@pytest.fixture
def root(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("DECKGEN_CACHE", str(folder))
    return folder


def test_a_cache_entry_is_written_without_fsync_and_renamed_into_place(root, monkeypatch):
    calls = []
    real_replace = os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append("fsync"))
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append(("replace", os.path.basename(b))),
                                                     real_replace(a, b))[1])
    assert cache.put_bytes("documents", "ab" * 32, "pdf", b"%PDF-1.4 hello")
    path = cache.entry_path(root, "documents", "ab" * 32, "pdf")
    assert calls == [("replace", path.name), ("replace", path.name + cache.SUM)]   # the entry, then its checksum
    assert cache.sum_path(path).read_text().strip() == hashlib.sha256(b"%PDF-1.4 hello").hexdigest()
    assert cache.get_bytes("documents", "ab" * 32, "pdf") == b"%PDF-1.4 hello"
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, path.name + cache.SUM]   # no temp file left


def test_an_unsynced_write_gets_the_umask_permissions_and_makes_its_folder(tmp_path):
    target = tmp_path / "new" / "entry.png"
    atomic.write_unsynced(target, b"x" * (atomic.CHUNK + 5))          # more than one write call
    assert target.read_bytes() == b"x" * (atomic.CHUNK + 5)
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~umask


def test_an_unsynced_write_skips_a_temp_name_already_taken(tmp_path, monkeypatch):
    target = tmp_path / "entry.json"
    monkeypatch.setattr(atomic, "_tmp_names", iter([7, 8, 7, 9]))
    stale = tmp_path / f".entry.json.{os.getpid()}-7.tmp"
    stale.write_bytes(b"a dead process's")
    atomic.write_unsynced(target, b"{}")
    atomic.write_unsynced(target, b"[]")                              # 7 is taken: 8, then 9
    assert target.read_bytes() == b"[]"
    assert stale.read_bytes() == b"a dead process's"                  # never opened, never removed


def test_a_failed_unsynced_write_leaves_the_old_entry_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "entry.pdf"
    target.write_bytes(b"old")

    def refused(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refused)
    with pytest.raises(OSError):
        atomic.write_unsynced(target, b"new")
    monkeypatch.undo()
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["entry.pdf"]


def test_an_unsynced_write_replaces_only_a_regular_file(tmp_path):
    (tmp_path / "real").write_bytes(b"keep")
    link = tmp_path / "entry.png"
    link.symlink_to(tmp_path / "real")
    with pytest.raises(DeckgenError):
        atomic.write_unsynced(link, b"x")
    assert (tmp_path / "real").read_bytes() == b"keep"


def test_a_torn_entry_fails_its_checksum_and_is_made_again(root):
    """What a crash without fsync can leave: the entry renamed into place with some of its bytes."""
    assert cache.put_bytes("documents", "cd" * 32, "pdf", b"%PDF-1.4 " + b"x" * 1000)
    path = cache.entry_path(root, "documents", "cd" * 32, "pdf")
    path.write_bytes(path.read_bytes()[:100])
    assert cache.get_bytes("documents", "cd" * 32, "pdf") is None
    assert not path.exists()                                          # removed: the next build writes it again
