"""Nothing read from the cache is trusted blindly: a damaged, swapped or foreign entry is made
again (with a one-line notice), never copied into an output (docs/security.md, "Cache")."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckgen import atomic, cache
from deckgen.cli import main
from deckgen.render import pngfile


@pytest.fixture
def root(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("DECKGEN_CACHE", str(folder))
    return folder


@pytest.fixture(scope="module")
def classic_verdict():
    """classic's verdict (the build's seed and games), judged once for the module."""
    from deckgen import manifest, verdict

    deck = manifest.load_deck("classic")
    return deck, verdict.start([deck], use_cache=False, workers=1).result(0)


@pytest.fixture
def judged(root, classic_verdict):
    """The cache with classic's verdict in it: these tests are about the faces and the documents a
    build caches, not about its simulated games (a test that removes every JSON entry plays them)."""
    from deckgen import verdict

    deck, result = classic_verdict
    verdict.to_cache(deck, 1, None, result, root)
    return root


def _build(out: Path):
    result = CliRunner().invoke(main, ["build", "classic", "-o", str(out), "--dpi", "30", "--no-rulebook",
                                       "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return (out / "classic" / "classic-cards.pdf").read_bytes()


def _documents(root: Path, ext: str) -> list[Path]:
    return sorted(p for p in (root / "documents").rglob(f"*.{ext}"))


def test_every_entry_has_its_checksum(root):
    assert cache.put_bytes("documents", "ab" * 32, "pdf", b"%PDF-1.4 hello")
    path = cache.entry_path(root, "documents", "ab" * 32, "pdf")
    assert cache.sum_path(path).read_text().strip() == __import__("hashlib").sha256(b"%PDF-1.4 hello").hexdigest()
    assert cache.get_bytes("documents", "ab" * 32, "pdf") == b"%PDF-1.4 hello"
    assert cache.usage().files == 1                          # the checksum goes with its entry


def test_a_truncated_cached_pdf_is_made_again_not_copied(judged, root, tmp_path, caplog):
    first = _build(tmp_path / "a")
    (pdf,) = _documents(root, "pdf")
    pdf.write_bytes(pdf.read_bytes()[:1000])                 # what the attack did: same name, 1000 bytes
    with caplog.at_level(logging.WARNING, logger="deckgen.cache"):
        again = _build(tmp_path / "b")
    assert again == first
    notices = [r.getMessage() for r in caplog.records if r.name == "deckgen.cache"]
    assert notices == [f"deckgen: cache entry {pdf.name} was damaged: made again"]
    assert pdf.read_bytes() == first                         # replaced by a good entry
    assert _build(tmp_path / "c") == first


def test_a_corrupted_cached_json_is_made_again_without_a_traceback(judged, root, tmp_path):
    first = _build(tmp_path / "a")
    for meta in _documents(root, "json"):
        meta.write_text("{not json", encoding="utf-8")
    assert _build(tmp_path / "b") == first


def test_a_swapped_face_is_drawn_again(judged, root, tmp_path, caplog):
    first = _build(tmp_path / "a")
    faces = sorted((root / "faces").rglob("*.png"))
    faces[0].write_bytes(faces[1].read_bytes())              # another card's picture under this card's name
    for doc in _documents(root, "pdf") + _documents(root, "json"):
        doc.unlink()                                         # the sheets are laid out again from the faces
    with caplog.at_level(logging.WARNING, logger="deckgen.cache"):
        assert _build(tmp_path / "b") == first
    assert any("was damaged" in r.getMessage() for r in caplog.records)


def _damage_first_face(root: Path, how) -> Path:
    face = sorted((root / "faces").rglob("*.png"))[0]
    face.write_bytes(how(face.read_bytes()))
    for doc in _documents(root, "pdf") + _documents(root, "json"):
        doc.unlink()                                         # the sheets are laid out again from the faces
    return face


def _flip_in_idat(data: bytes) -> bytes:
    at = data.index(b"IDAT") + 100                           # inside the pixels' compressed bytes
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1:]


def _relabelled(data: bytes, text: bytes, other: bytes) -> bytes:
    """The PNG with one text chunk's bytes changed and its CRC made right again."""
    at = data.index(b"tEXt" + text) - 4
    old = data[at:at + 12 + len(text)]
    assert pngfile.whole_text(data) is not None and len(text) == len(other)
    return data.replace(old, pngfile._chunk(b"tEXt", other))


@pytest.mark.parametrize("how", [lambda b: b[:len(b) // 2],           # torn: cut short
                                 _flip_in_idat,                        # one bit flipped: its chunk's CRC fails
                                 lambda b: b + b"more",                # bytes after IEND
                                 lambda b: _relabelled(b, b"deckgen:dpi\x0030", b"deckgen:dpi\x0031")],  # another face
                         ids=["truncated", "bit-flipped", "trailing-bytes", "relabelled"])
def test_a_damaged_face_is_drawn_again(judged, root, tmp_path, caplog, how):
    """A face carries its own checksums (a PNG's CRC-32 per chunk, IEND last) and names itself:
    no checksum file is written beside it, and any damage is still caught."""
    first = _build(tmp_path / "a")
    assert not list((root / "faces").rglob("*" + cache.SUM))
    face = _damage_first_face(root, how)
    with caplog.at_level(logging.WARNING, logger="deckgen.cache"):
        assert _build(tmp_path / "b") == first
    assert [r.getMessage() for r in caplog.records if r.name == "deckgen.cache"] == \
        [f"deckgen: cache entry {face.name} was damaged: made again"]
    assert pngfile.whole_text(face.read_bytes()) is not None  # drawn again, whole


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to give a file away")
def test_an_entry_of_another_user_is_not_used(root, tmp_path):
    assert cache.put_bytes("documents", "cd" * 32, "json", b"{}")
    path = cache.entry_path(root, "documents", "cd" * 32, "json")
    os.chown(path, 65534, 65534)
    assert cache.get_bytes("documents", "cd" * 32, "json") is None


def test_a_cache_folder_others_may_write_is_not_used(root, caplog):
    root.mkdir()
    os.chmod(root, 0o777)
    with caplog.at_level(logging.WARNING, logger="deckgen.cache"):
        assert not cache.put_bytes("documents", "ef" * 32, "json", b"{}")
        assert cache.get_bytes("documents", "ef" * 32, "json") is None
    assert any("others may write" in r.getMessage() for r in caplog.records)


def test_a_new_cache_folder_is_private(root):
    assert cache.put_bytes("documents", "12" * 32, "json", b"{}")
    assert root.stat().st_mode & 0o777 == 0o700


def test_writes_reach_the_disk_before_the_rename(tmp_path, monkeypatch):
    order = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (order.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (order.append("replace"), real_replace(a, b))[1])
    atomic.write_bytes(tmp_path / "x.pdf", b"data")
    assert order == ["fsync", "replace"]


def test_an_unreadable_entry_is_skipped(root, monkeypatch):
    assert cache.put_bytes("documents", "34" * 32, "json", json.dumps({"pages": 1}).encode())
    path = cache.entry_path(root, "documents", "34" * 32, "json")
    path.unlink()
    path.mkdir()                                             # not a regular file any more
    assert cache.get_bytes("documents", "34" * 32, "json") is None


def test_a_cache_that_fills_up_during_the_build_is_skipped_with_one_warning(judged, root, tmp_path, monkeypatch, caplog,
                                                                           classic_verdict):
    """ENOSPC from the sixth face written to the cache on, after the build started: the faces that
    no longer fit are kept outside the cache, one warning is printed, and the outputs are the same bytes."""
    import errno

    from deckgen import verdict

    first = _build(tmp_path / "a")
    monkeypatch.setenv("DECKGEN_CACHE", str(tmp_path / "cache2"))
    deck, result = classic_verdict
    verdict.to_cache(deck, 1, None, result, tmp_path / "cache2")     # the second cache has the verdict too
    real_store, writes = cache.store, []

    def full_after_five(path, data, **kw):
        writes.append(path)
        if len([p for p in writes if Path(p).suffix == ".png"]) > 5:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real_store(path, data, **kw)

    monkeypatch.setattr(cache, "store", full_after_five)
    cache._warned.clear()
    with caplog.at_level(logging.WARNING, logger="deckgen.cache"):
        again = _build(tmp_path / "b")
    assert again == first
    assert len(writes) > 6                                   # the build went on writing after the first failure
    notices = [r.getMessage() for r in caplog.records if r.name == "deckgen.cache"]
    assert len(notices) == 1, notices
    assert "No space left on device" in notices[0] and "the build goes on" in notices[0]
    assert 0 < len(list((tmp_path / "cache2" / "faces").rglob("*.png"))) <= 5   # the rest never reached it


def test_a_cache_that_becomes_unwritable_mid_render_still_writes_every_face(root, tmp_path, monkeypatch, caplog):
    import errno

    real_store, writes = cache.store, []

    def denied_after_three(path, data, **kw):
        writes.append(path)
        if len(writes) > 3:
            raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        real_store(path, data, **kw)

    monkeypatch.setattr(cache, "store", denied_after_three)
    cache._warned.clear()
    with caplog.at_level(logging.WARNING, logger="deckgen.cache"):
        result = CliRunner().invoke(main, ["render", "classic", "-o", str(tmp_path / "faces"), "--dpi", "30",
                                           "--jobs", "1"])
    assert result.exit_code == 0, result.output
    pngs = sorted((tmp_path / "faces").glob("*.png"))
    assert len(pngs) > 3 and all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)
    assert [r.getMessage() for r in caplog.records if "Permission denied" in r.getMessage()]
