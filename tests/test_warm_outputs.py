"""An unchanged deck's warm build writes its outputs from the cache without reading them again
(cache.write_output's stamps, build's faces only named when the card sheets are cached), and
never keeps a stale output: a changed input, or an output the user deleted, altered or touched,
is rebuilt or rewritten (benchmarks/warm.py times that build)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckgen import atomic, cache, safefile
from deckgen.cli import main

KEY = "ab" * 32


@pytest.fixture
def root(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("DECKGEN_CACHE", str(folder))
    monkeypatch.setattr(cache, "STAMP_SETTLED", 0)          # every output counts as settled at once
    return folder


def _reads(monkeypatch) -> list[str]:
    """The files read through safefile from now on (deckgen.atomic holds its own name for it)."""
    seen: list[str] = []
    real = safefile.read_bytes

    def spy(path, limit=safefile.MAX_FILE):
        seen.append(str(path))
        return real(path, limit)

    monkeypatch.setattr(safefile, "read_bytes", spy)
    monkeypatch.setattr(atomic, "read_bytes", spy)
    return seen


def _entry(root: Path, data: bytes) -> Path:
    assert cache.put_bytes("documents", KEY, "pdf", data)
    return cache.entry_path(root, "documents", KEY, "pdf")


def test_a_stamped_output_is_neither_read_nor_rewritten(root, tmp_path, monkeypatch):
    data = b"%PDF-1.4 " + b"x" * 5000
    entry = _entry(root, data)
    dest = tmp_path / "out" / "deck-cards.pdf"
    assert cache.write_output("documents", KEY, "pdf", dest) == len(data)    # written, then stamped
    assert dest.read_bytes() == data
    before = os.stat(dest)
    seen = _reads(monkeypatch)
    assert cache.write_output("documents", KEY, "pdf", dest) == len(data)
    assert str(dest) not in seen and str(entry) not in seen
    assert os.stat(dest).st_ino == before.st_ino and os.stat(dest).st_ctime_ns == before.st_ctime_ns


@pytest.mark.parametrize("change", ["same-size-bytes-old-times", "truncated", "deleted", "replaced", "chmod"])
def test_an_output_changed_after_its_stamp_is_rewritten(root, tmp_path, change):
    data = b"%PDF-1.4 " + b"x" * 5000
    _entry(root, data)
    dest = tmp_path / "out" / "deck-cards.pdf"
    cache.write_output("documents", KEY, "pdf", dest)
    old = os.stat(dest)
    if change == "same-size-bytes-old-times":       # the user's edit, with the old times put back
        with open(dest, "r+b") as fh:
            fh.seek(100)
            fh.write(b"y")
        os.utime(dest, ns=(old.st_atime_ns, old.st_mtime_ns))
    elif change == "truncated":
        dest.write_bytes(data[:100])
    elif change == "deleted":
        dest.unlink()
    elif change == "replaced":
        other = dest.with_name("other.pdf")
        other.write_bytes(data.replace(b"x", b"z"))
        os.replace(other, dest)
    else:
        dest.chmod(0o600)
    assert cache.write_output("documents", KEY, "pdf", dest) == len(data)
    assert dest.read_bytes() == data
    assert dest.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_an_output_changed_just_now_gets_no_stamp(root, tmp_path, monkeypatch):
    # a file changed within the timestamp granularity of its last change would keep its times:
    # until its last change is older than STAMP_SETTLED every build compares its bytes
    monkeypatch.setattr(cache, "STAMP_SETTLED", 60_000_000_000)
    data = b"%PDF-1.4 " + b"x" * 5000
    entry = _entry(root, data)
    dest = tmp_path / "deck-cards.pdf"
    cache.write_output("documents", KEY, "pdf", dest)
    cache.write_output("documents", KEY, "pdf", dest)
    assert not list(entry.parent.glob("*.stamp"))
    seen = _reads(monkeypatch)
    cache.write_output("documents", KEY, "pdf", dest)
    assert str(dest) in seen and str(entry) in seen


def test_a_stamp_needs_its_entry_and_the_same_entry_bytes(root, tmp_path):
    data = b"%PDF-1.4 " + b"x" * 5000
    entry = _entry(root, data)
    dest = tmp_path / "deck-cards.pdf"
    cache.write_output("documents", KEY, "pdf", dest)
    assert list(entry.parent.glob("*.stamp"))
    cache.clear()
    assert cache.write_output("documents", KEY, "pdf", dest) is None          # not in the cache: made again
    _entry(root, data.replace(b"x", b"w"))                                    # another entry under the key
    assert cache.write_output("documents", KEY, "pdf", dest) == len(data)
    assert dest.read_bytes() == data.replace(b"x", b"w")


def _build(out: Path, *extra: str) -> str:
    result = CliRunner().invoke(main, ["build", "classic", "-o", str(out), "--dpi", "30", "--no-rulebook",
                                       "--jobs", "1", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_warm_build_of_cached_card_sheets_reads_no_face_and_no_output(root, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _build(out)
    _build(out)                                            # stamps the card sheets
    pdf = out / "classic" / "classic-cards.pdf"
    first = pdf.read_bytes()
    seen = _reads(monkeypatch)
    monkeypatch.setattr(cache, "verified", lambda path, whole=None: pytest.fail(f"a face was checked: {path}"))
    assert "(0 drawn now)" in _build(out)
    assert str(pdf) not in seen
    assert not any(p.endswith(".png") for p in seen) and not any("/documents/" in p and p.endswith(".pdf") for p in seen)
    assert pdf.read_bytes() == first


def test_a_warm_build_rewrites_an_altered_output_and_rebuilds_a_changed_option(root, tmp_path):
    out = tmp_path / "out"
    _build(out)
    _build(out)
    pdf = out / "classic" / "classic-cards.pdf"
    first = pdf.read_bytes()
    old = pdf.stat()
    with open(pdf, "r+b") as fh:
        fh.seek(len(first) // 2)
        fh.write(b"\0")
    os.utime(pdf, ns=(old.st_atime_ns, old.st_mtime_ns))
    _build(out)
    assert pdf.read_bytes() == first
    _build(out, "--paper", "letter")
    assert pdf.read_bytes() != first                        # another option: other sheets
    _build(out)
    assert pdf.read_bytes() == first


def test_a_warm_build_rebuilds_an_edited_manifest(root, tmp_path, monkeypatch):
    from deckgen.resources import decks_dir

    deck = tmp_path / "deck"
    deck.mkdir()
    manifest = deck / "classic.toml"
    manifest.write_text((decks_dir() / "classic.toml").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"

    def build() -> bytes:
        result = CliRunner().invoke(main, ["build", str(manifest), "-o", str(out), "--dpi", "30", "--no-rulebook",
                                           "--jobs", "1"])
        assert result.exit_code == 0, result.output
        return (out / "classic" / "classic-cards.pdf").read_bytes()

    build()
    first = build()
    text = manifest.read_text(encoding="utf-8")
    assert '"UNO clásico"' in text
    manifest.write_text(text.replace('"UNO clásico"', '"UNO editado"'), encoding="utf-8")
    assert build() != first                                 # the cover's title
