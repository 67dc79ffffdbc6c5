"""deckgen's own PNG writer for card faces (deckgen.render.pngfile)."""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
import zlib

import pytest
from PIL import Image

from deckgen.render import pngfile


def _idat(png: bytes) -> bytes:
    i, out = 8, b""
    while i < len(png):
        (n,) = struct.unpack(">I", png[i:i + 4])
        if png[i + 4:i + 8] == b"IDAT":
            out += png[i + 8:i + 8 + n]
        i += 12 + n
    return out


def _face() -> Image.Image:
    """A small face with flat fields, a gradient and repeated rows (what the matcher sees on cards)."""
    img = Image.new("RGB", (37, 29), (200, 30, 30))
    for x in range(37):
        for y in range(10, 20):
            img.putpixel((x, y), (x * 7 % 256, y * 11 % 256, (x * y) % 256))
    return img


def test_rows_are_unfiltered_and_decode_to_the_same_pixels() -> None:
    img = _face()
    png = pngfile.encode(img, 300, {"deckgen:face": "red-5"})
    raw = zlib.decompress(_idat(png))
    stride = 37 * 3 + 1
    assert len(raw) == 29 * stride
    assert all(raw[r * stride] == 0 for r in range(29))                 # filter type 0 on every row
    assert b"".join(raw[r * stride + 1:(r + 1) * stride] for r in range(29)) == img.tobytes()
    with Image.open(io.BytesIO(png)) as back:
        assert back.tobytes() == img.tobytes()


class _OneShotOnly:
    """The compressor, allowing only its one-shot call (and counting those)."""

    def __init__(self, real: object) -> None:
        self.real = real
        self.calls: list[int] = []

    def compress(self, data: bytes | bytearray, level: int) -> bytes:
        self.calls.append(len(data))
        return self.real.compress(data, level)  # type: ignore[attr-defined, no-any-return]

    def compressobj(self, *args: object) -> object:
        raise AssertionError("a face is deflated in one call")


def test_the_rows_are_deflated_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    # ISA-L's compressobj fed the filter byte and then the rows gave, once in a few builds under
    # load, a face whose IDAT differed (same pixels, other matches), and so a card sheets PDF
    # that was not byte-identical.
    fake = _OneShotOnly(pngfile._deflate)
    monkeypatch.setattr(pngfile, "_deflate", fake)
    png = pngfile.encode(_face(), 300, {})
    assert fake.calls == [29 * (37 * 3 + 1)]
    assert zlib.decompress(_idat(png))[:1] == b"\x00"



def test_the_stream_is_zlib_ngs_one_shot_stream() -> None:
    # one call of zlib-ng at the face level: a function of the bytes and the level alone; ISA-L's
    # was not (see above), and the card sheets' PDF embeds this stream as it is
    from zlib_ng import zlib_ng

    img = _face()
    rows = b"".join(b"\x00" + img.tobytes()[r * 37 * 3:(r + 1) * 37 * 3] for r in range(29))
    assert _idat(pngfile.encode(img, 300, {})) == zlib_ng.compress(rows, pngfile.FACE_LEVEL)
    assert zlib.decompress(_idat(pngfile.encode(img, 300, {}))) == rows
    assert pngfile.FORMAT.endswith(f"zlib-ng-{pngfile._zlib_ng_version}")


_ENCODE_IN_A_SCRAMBLED_HEAP = """
import hashlib, os, random
from PIL import Image
from deckgen.render import pngfile
rng = random.Random(int(os.environ["SEED"]))
junk = [bytearray(os.urandom(rng.randrange(1, 200_000))) for _ in range(20)]
img = Image.effect_mandelbrot((300, 420), (-2, -1.2, 1, 1.2), 60).convert("RGB")
img.paste((200, 30, 30), (0, 0, 300, 140))
digests = set()
for i in range(12):
    junk[rng.randrange(len(junk))] = bytearray(os.urandom(rng.randrange(1, 200_000)))
    digests.add(hashlib.sha256(pngfile.encode(img, 300, {"deckgen:face": "red-5"})).hexdigest())
print(*sorted(digests))
"""


def test_the_same_face_gives_the_same_bytes_in_any_process() -> None:
    # the fault ISA-L showed: other bytes now and then, depending on the state of the process;
    # here each process scrambles its heap differently (MALLOC_PERTURB_) and encodes repeatedly
    outs = set()
    for seed, perturb in ((1, "0"), (2, "85"), (3, "170")):
        env = {**os.environ, "SEED": str(seed), "MALLOC_PERTURB_": perturb}
        r = subprocess.run([sys.executable, "-c", _ENCODE_IN_A_SCRAMBLED_HEAP], env=env,
                           capture_output=True, text=True, check=True)
        outs.add(r.stdout.strip())
    assert len(outs) == 1 and len(next(iter(outs)).split()) == 1
