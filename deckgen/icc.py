"""The sRGB ICC profile that deckgen embeds in every PNG and PDF it writes.

Built here, byte for byte, as a version 2.1 display profile (matrix + tone curves), the form
every RIP, viewer and preflight tool reads: D50-adapted sRGB primaries, the sRGB tone curve
sampled at 1024 points, and a fixed creation date, so the bytes never change between runs
(a profile made by littleCMS carries the current time and would break byte-identical output).
"""

from __future__ import annotations

import functools
import io
import struct
from pathlib import Path
from typing import Any

DESCRIPTION = "sRGB IEC61966-2.1"
COPYRIGHT = "No copyright, use freely"

# D50 white and the Bradford-adapted sRGB primaries (IEC 61966-2-1 with the ICC's D50 PCS).
_WHITE = (0.9642, 1.0, 0.8249)
_RED = (0.4361, 0.2225, 0.0139)
_GREEN = (0.3851, 0.7169, 0.0971)
_BLUE = (0.1431, 0.0606, 0.7141)
_DATE = (2024, 1, 1, 0, 0, 0)


def _s15(v: float) -> bytes:
    return struct.pack(">i", round(v * 65536))


def _xyz(v: tuple[float, float, float]) -> bytes:
    return b"XYZ \0\0\0\0" + b"".join(_s15(c) for c in v)


def _srgb_to_linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _curve(points: int = 1024) -> bytes:
    values = [round(_srgb_to_linear(i / (points - 1)) * 65535) for i in range(points)]
    return b"curv\0\0\0\0" + struct.pack(">I", points) + struct.pack(f">{points}H", *values)


def _desc(text: str) -> bytes:
    ascii_ = text.encode("ascii") + b"\0"
    # textDescriptionType: ASCII part, empty Unicode part, empty ScriptCode part (67 bytes)
    return b"desc\0\0\0\0" + struct.pack(">I", len(ascii_)) + ascii_ + struct.pack(">II", 0, 0) + b"\0\0\0" + b"\0" * 67


def _text(text: str) -> bytes:
    return b"text\0\0\0\0" + text.encode("ascii") + b"\0"


def _pad(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 4)


@functools.lru_cache(maxsize=1)
def srgb_profile() -> bytes:
    """The profile's bytes (about 3 kB; the same on every call and every machine)."""
    trc = _curve()
    tags: list[tuple[bytes, bytes]] = [
        (b"desc", _desc(DESCRIPTION)), (b"cprt", _text(COPYRIGHT)), (b"wtpt", _xyz(_WHITE)),
        (b"rXYZ", _xyz(_RED)), (b"gXYZ", _xyz(_GREEN)), (b"bXYZ", _xyz(_BLUE)),
        (b"rTRC", trc), (b"gTRC", trc), (b"bTRC", trc),
    ]
    table_size = 4 + 12 * len(tags)
    offset = 128 + table_size
    entries: list[bytes] = []
    blobs: list[bytes] = []
    placed: dict[bytes, int] = {}
    for sig, data in tags:
        if data in placed:                     # the three tone curves share one copy
            entries.append(struct.pack(">4sII", sig, placed[data], len(data)))
            continue
        placed[data] = offset
        entries.append(struct.pack(">4sII", sig, offset, len(data)))
        blobs.append(_pad(data))
        offset += len(blobs[-1])
    body = struct.pack(">I", len(tags)) + b"".join(entries) + b"".join(blobs)
    size = 128 + len(body)
    header = (struct.pack(">I", size) + b"\0\0\0\0" + struct.pack(">I", 0x02100000) + b"mntrRGB XYZ "
              + struct.pack(">6H", *_DATE) + b"acsp" + b"\0" * 4 + b"\0" * 4 + b"\0" * 8 + b"\0" * 8
              + struct.pack(">I", 0) + b"".join(_s15(c) for c in _WHITE) + b"\0" * 4)
    header += b"\0" * (128 - len(header))
    return header + body


# ---------------------------------------------------------------- CMYK, for PDF/X-1a print files

CMYK_FILE = "CGATS-TR005.icc"
CMYK_CONDITION = "CGATS TR 005"            # the ICC characterization registry's name for the condition
CMYK_INFO = "SWOP proofing on Grade 5 coated paper (ANSI/CGATS/SWOP TR 005-2007)"


def data_dir() -> Path:
    """``deckgen/data/icc``: the bundled CMYK profile and its licence (LICENSE-CGATS-TR005.txt)."""
    return Path(__file__).parent / "data" / "icc"


@functools.lru_cache(maxsize=1)
def cmyk_profile() -> bytes:
    """The CMYK output profile for CGATS TR 005 (SWOP grade 5 coated), made with ArgyllCMS's
    colprof from the TR 005 characterization data; see the licence file beside it."""
    return (data_dir() / CMYK_FILE).read_bytes()


@functools.lru_cache(maxsize=2)
def _transform(to_press: bool) -> Any:
    """sRGB to the TR 005 CMYK condition (``to_press``) or back: relative colorimetric with
    black-point compensation (paper white stays paper white, blacks keep their depth)."""
    from PIL import ImageCms

    srgb = ImageCms.ImageCmsProfile(io.BytesIO(srgb_profile()))
    press = ImageCms.ImageCmsProfile(io.BytesIO(cmyk_profile()))
    src, dst, modes = (srgb, press, ("RGB", "CMYK")) if to_press else (press, srgb, ("CMYK", "RGB"))
    return ImageCms.buildTransform(src, dst, *modes, ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   ImageCms.Flags.BLACKPOINTCOMPENSATION)


SWOP_TAC = 300.0      # % total area coverage: the limit of the TR 005 (SWOP) printing condition itself


def printed_colors(colors: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Each sRGB colour as a CMYK press prints it, back in sRGB: converted for the TR 005 condition
    as :func:`to_cmyk` does (relative colorimetric, black-point compensation, 300 % ink) and back
    from that profile. A colour outside the press's gamut comes back as the nearest it prints."""
    from PIL import Image, ImageCms

    if not colors:
        return []
    im = Image.new("RGB", (len(colors), 1))
    im.putdata(colors)
    back = ImageCms.applyTransform(to_cmyk(im), _transform(False))
    assert back is not None                   # (None only for a transform in place)
    data = back.convert("RGB").tobytes()
    return [(data[3 * i], data[3 * i + 1], data[3 * i + 2]) for i in range(len(colors))]


def to_cmyk(im: Any, ink_limit: float | None = None) -> Any:
    """An sRGB Pillow image converted to CMYK for the TR 005 condition (relative colorimetric with
    black-point compensation: paper white stays paper white, blacks keep their depth), then held to
    ``ink_limit`` % total ink (:func:`limit_ink`; None: the condition's own 300 %)."""
    from PIL import ImageCms

    cmyk = ImageCms.applyTransform(im.convert("RGB"), _transform(True))
    return limit_ink(cmyk, SWOP_TAC if ink_limit is None else ink_limit)


def limit_ink(cmyk: Any, percent: float) -> Any:
    """A CMYK image whose total ink (C + M + Y + K) is at most ``percent`` % at every pixel.

    A limiting step after the conversion (under-colour removal): where a pixel's total is over the
    limit, its black is kept and its cyan, magenta and yellow are scaled down together until the
    total is the limit; every other pixel is left as converted. Only the deepest shadows change
    (sRGB black goes from C67 M61 Y69 K100, 297 %, to C47 M43 Y48 K100 at 240 %), they stay
    as dark (the black is untouched) and keep their hue (the three inks keep their proportions).
    The scaled pixels aim 1.5 units (of 255) below the limit, so that however the values are rounded
    to whole units none ends above it.
    """
    from PIL import Image, ImageMath

    cap = percent * 255 / 100
    c, m, y, k = cmyk.split()
    if sum(hi for _, hi in cmyk.getextrema()) <= cap:       # nothing can be over the limit
        return cmyk

    def scaled(name: str) -> Any:
        def band(a: dict[str, Any]) -> Any:
            room = a["max"](a["cap"] - 1.5 - a["k"], 0.0)
            factor = a["min"](room / a["max"](a["c"] + a["m"] + a["y"], 1.0), 1.0)
            return a["convert"](a[name] * factor, "L")
        return band

    bands = [ImageMath.lambda_eval(scaled(n), c=c, m=m, y=y, k=k, cap=cap) for n in "cmy"]
    return Image.merge("CMYK", (*bands, k))
