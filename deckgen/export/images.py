"""Encoding export images: RGB PNG (no time chunks) or JPEG, written atomically."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from deckgen.atomic import write_bytes
from deckgen.icc import srgb_profile

EXTENSIONS = {"png": ".png", "jpeg": ".jpg"}


def encode(im: Image.Image, fmt: str, dpi: int | None = None) -> bytes:
    buf = io.BytesIO()
    im = im.convert("RGB")
    extra: dict[str, Any] = {"dpi": (dpi, dpi)} if dpi else {}
    extra["icc_profile"] = srgb_profile()      # every image deckgen writes is tagged sRGB
    if fmt == "jpeg":
        im.save(buf, "JPEG", quality=92, subsampling=0, optimize=True, **extra)
    else:
        im.save(buf, "PNG", compress_level=6, **extra)
    return buf.getvalue()


def save(im: Image.Image, path: Path, fmt: str, dpi: int | None = None) -> Path:
    return write_bytes(path, encode(im, fmt, dpi))
