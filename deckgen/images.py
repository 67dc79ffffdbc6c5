"""Images a manifest names: art, icons, the back image and the logo.

Reading an image (:func:`load_image`, called by the manifest parser) checks everything that can
be known before drawing, and reports a finding naming the key path and the file:

- the path must stay inside the manifest's folder (``..``, absolute paths and symlinks that
  lead out of it are refused);
- the file must exist and be readable;
- rasters (PNG, JPEG, WebP) are sized from their header first: over 50 megapixels (or a
  decompression bomb) is an error before anything is decoded; then the file is decoded once,
  so a corrupt file is an error here, never a traceback later;
- an SVG may refer to nothing outside its own file: an external ``href``, a ``url()`` that is
  not ``#id``, a stylesheet import, an entity declaration or a remote URL are errors. deckgen
  never reads or fetches another file or URL on an image's behalf.

SVG is rendered with resvg (the ``resvg_py`` wheels: a maintained, self-contained Rust
renderer with no system library to install), with system fonts off and deckgen's own fonts
given, so the pixels depend only on the SVG and the deck's fonts.

Drawing (:func:`picture`) returns an RGBA image at a pixel size, cropped to cover or fitted
to be contained; results are cached per process by content digest and size.
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
import re
import warnings
import xml.parsers.expat
from pathlib import Path
from typing import Any

from PIL import Image, ImageOps

from deckgen.errors import Collector
from deckgen.model import ART_FITS, ImageRef

MAX_PIXELS = 50_000_000
MIN_DPI = 300
RASTER_FORMATS = {"PNG": "png", "JPEG": "jpeg", "MPO": "jpeg", "WEBP": "webp"}
FORMATS_TEXT = "PNG, JPEG, WebP or SVG"
SVG_NS = "http://www.w3.org/2000/svg"
_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")]*)", re.IGNORECASE)
_IMPORT = re.compile(r"@import", re.IGNORECASE)

# Decoded rasters, by digest: filled when the manifest is read, so the renderer (and the
# workers it forks) never decode a file twice. Bounded: a long session keeps the latest.
_decoded: dict[str, Image.Image] = {}
DECODED_MAX = 32


class ImageProblem(Exception):
    """Why an image cannot be used (the message of an error finding)."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.hint = hint


# ---------------------------------------------------------------- reading and checking


def resolve_inside(value: str, base: Path) -> Path:
    """The file a manifest path names, which must stay inside ``base`` (symlinks followed)."""
    raw = Path(value).expanduser()
    full = raw if raw.is_absolute() else base / raw
    try:
        resolved = full.resolve(strict=False)
        root = base.resolve(strict=False)
    except (OSError, RuntimeError) as exc:     # a symlink loop
        raise ImageProblem(f"cannot follow the path '{value}': {exc}") from None
    if resolved != root and root not in resolved.parents:
        how = "is a symlink that leads" if full.is_symlink() or _through_symlink(full, base) else "is"
        raise ImageProblem(f"'{value}' {how} outside the manifest's folder ({root})",
                           hint="copy the file into the manifest's folder and give a path relative to it")
    return resolved


def _through_symlink(full: Path, base: Path) -> bool:
    p = full
    while p != p.parent and p != base:
        if p.is_symlink():
            return True
        p = p.parent
    return False


def load_image(value: Any, where: str, base: Path, out: Collector, line: int | None = None) -> ImageRef | None:
    """Check and read the image a manifest key names; report problems to ``out``."""
    if not isinstance(value, str) or not value.strip():
        out.error("type", where, f"expected the path of an image file ({FORMATS_TEXT})", line=line,
                  hint='e.g. "art/fox.svg", relative to the manifest')
        return None
    try:
        path = resolve_inside(value, base)
        ref = read_image(path, where)
    except ImageProblem as exc:
        out.error("image", where, str(exc), hint=exc.hint, line=line)
        return None
    return ref


def read_image(path: Path, where: str = "") -> ImageRef:
    """Read, identify and validate one image file; raises :class:`ImageProblem`."""
    shown = str(path)
    if path.is_dir():
        raise ImageProblem(f"{shown} is a folder, not an image file")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageProblem(f"no such file: {shown}", hint="check the path; it is relative to the manifest") from None
    except OSError as exc:
        raise ImageProblem(f"cannot read {shown}: {exc.strerror}") from None
    digest = hashlib.sha256(data).hexdigest()[:20]
    if _looks_like_svg(data, path):
        size = svg_check(data, shown)
        return ImageRef(str(path), digest, "svg", size, where)
    fmt, size = _raster_check(data, shown, digest)
    return ImageRef(str(path), digest, fmt, size, where)


def _looks_like_svg(data: bytes, path: Path) -> bool:
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return path.suffix.lower() in (".svg", ".svgz") or head.startswith((b"<?xml", b"<svg", b"<!--", b"<!doctype svg"))


def _raster_check(data: bytes, shown: str, digest: str) -> tuple[str, tuple[int, int]]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im = Image.open(io.BytesIO(data))           # reads the header only
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageProblem(f"{shown} is too large to decode safely (a decompression bomb?)",
                           hint=f"images may have at most {MAX_PIXELS // 1_000_000} megapixels") from None
    except Exception:        # UnidentifiedImageError, or a broken header
        raise ImageProblem(f"{shown} is not an image deckgen can read", hint=f"use {FORMATS_TEXT}") from None
    fmt = RASTER_FORMATS.get(im.format or "")
    if fmt is None:
        raise ImageProblem(f"{shown} is a {im.format} image", hint=f"use {FORMATS_TEXT}")
    w, h = im.size
    if w * h > MAX_PIXELS:
        raise ImageProblem(f"{shown} has {w}x{h} pixels ({w * h / 1e6:.0f} megapixels), over the limit of "
                           f"{MAX_PIXELS // 1_000_000}", hint="scale it down: 300 dpi at the printed size is enough")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            im.load()
            rgba = _normalise(im)
    except Exception as exc:   # truncated or corrupt data: Pillow raises OSError, SyntaxError, ValueError ...
        raise ImageProblem(f"{shown} is damaged and cannot be decoded ({exc})",
                           hint="export the image again") from None
    _decoded.pop(digest, None)
    _decoded[digest] = rgba
    while len(_decoded) > DECODED_MAX:
        del _decoded[next(iter(_decoded))]
    return fmt, rgba.size


def _normalise(im: Image.Image) -> Image.Image:
    """An RGBA image the right way up: EXIF orientation applied, CMYK/palette/16-bit converted."""
    im = ImageOps.exif_transpose(im) or im
    if im.mode == "CMYK":
        im = _cmyk_to_rgb(im)
    elif im.mode in ("I;16", "I;16B", "I;16L", "I"):
        im = im.point(lambda v: v / 256).convert("L")
    elif im.mode == "F":
        im = im.convert("L")
    return im.convert("RGBA")


def _cmyk_to_rgb(im: Image.Image) -> Image.Image:
    """CMYK through its embedded ICC profile when it has one, else Pillow's plain conversion."""
    icc = im.info.get("icc_profile")
    if icc:
        try:
            from PIL import ImageCms

            src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            dst = ImageCms.createProfile("sRGB")
            out = ImageCms.profileToProfile(im, src, dst, outputMode="RGB")
            if out is not None:
                return out
        except Exception:         # a broken profile: fall back to the plain conversion
            pass
    return im.convert("RGB")


# ---------------------------------------------------------------- SVG


def svg_check(data: bytes, shown: str) -> tuple[int, int]:
    """Refuse an SVG that refers outside itself; return its intrinsic size in px."""
    if data[:2] == b"\x1f\x8b":
        raise ImageProblem(f"{shown} is a compressed SVG (.svgz)", hint="save it as a plain .svg")
    problems: list[str] = []
    root: dict[str, Any] = {}
    depth = [0]
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")

    def refuse(what: str) -> None:
        if what not in problems:
            problems.append(what)

    def start(name: str, attrs: dict[str, str]) -> None:
        if depth[0] == 0:
            root["name"], root["attrs"] = name, attrs
        depth[0] += 1
        for key, value in attrs.items():
            local = key.split(" ")[-1]
            if local == "href" and not value.strip().startswith(("#", "data:")):
                refuse(f"{local}=\"{value[:80]}\"")
            _urls(value, refuse)

    def text(chunk: str) -> None:
        _urls(chunk, refuse)
        if _IMPORT.search(chunk):
            refuse("a stylesheet @import")

    def entity(*args) -> None:
        refuse("an entity declaration")

    def pi(target: str, body: str) -> None:
        if target.lower() == "xml-stylesheet":
            refuse("an xml-stylesheet instruction")

    parser.StartElementHandler = start
    parser.CharacterDataHandler = text
    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    def external(*args) -> int:
        refuse("an external entity")
        return 0

    parser.ExternalEntityRefHandler = external
    parser.ProcessingInstructionHandler = pi
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        raise ImageProblem(f"{shown} is not a well-formed SVG ({exc})", hint="export the image again") from None
    if problems:
        raise ImageProblem(f"{shown} refers to something outside its own file: {', '.join(problems[:3])}",
                           hint="deckgen never reads other files or URLs for an image: embed everything "
                           "(paths as shapes, pictures as data: URIs, references as #id)")
    if root.get("name") != f"{SVG_NS} svg":
        raise ImageProblem(f"{shown} is not an SVG image (its root element is not <svg>)")
    size = _svg_size(root["attrs"])
    try:
        _render_svg(data, size, 32, 32, ())           # resvg's own parse: what it cannot draw fails here
    except ValueError as exc:
        raise ImageProblem(f"{shown} cannot be rendered: {exc}", hint="export the image again") from None
    return size


def _urls(value: str, refuse) -> None:
    for target in _URL.findall(value):
        if not target.strip().startswith(("#", "data:")):
            refuse(f"url({target[:80]})")


_LENGTH = re.compile(r"^\s*([0-9.]+)\s*(px|pt|mm|cm|in|)\s*$")
_PX = {"": 1.0, "px": 1.0, "pt": 96 / 72, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}


def _svg_size(attrs: dict[str, str]) -> tuple[int, int]:
    """The SVG's intrinsic size in px (width/height, else its viewBox; 100x100 when neither)."""
    box = None
    if "viewBox" in attrs:
        parts = re.split(r"[\s,]+", attrs["viewBox"].strip())
        try:
            vb = [float(p) for p in parts]
            if len(vb) == 4 and vb[2] > 0 and vb[3] > 0:
                box = (vb[2], vb[3])
        except ValueError:
            pass
    dims = []
    for key in ("width", "height"):
        m = _LENGTH.match(attrs.get(key, ""))
        dims.append(float(m.group(1)) * _PX[m.group(2)] if m else None)
    w, h = dims
    if w and h:
        return max(1, round(w)), max(1, round(h))
    if box:
        bw, bh = box
        if w:
            return max(1, round(w)), max(1, round(w * bh / bw))
        if h:
            return max(1, round(h * bw / bh)), max(1, round(h))
        return max(1, round(bw)), max(1, round(bh))
    return 100, 100


def _render_svg(data: bytes, size: tuple[int, int], w: int, h: int, font_files: tuple[str, ...],
                family: str | None = None) -> Image.Image:
    """Rasterise SVG bytes to RGBA at (w, h) (the aspect ratio is the SVG's; w, h are a bound)."""
    import resvg_py

    iw, ih = size
    scale = min(w / iw, h / ih)
    kw: dict[str, Any] = {"skip_system_fonts": True, "font_files": list(font_files)}
    if family:
        kw.update(font_family=family, sans_serif_family=family, serif_family=family)
    png = resvg_py.svg_to_bytes(svg_string=data.decode("utf-8", "replace"), width=max(1, round(iw * scale)),
                                height=max(1, round(ih * scale)), **kw)
    with Image.open(io.BytesIO(bytes(png))) as im:
        return im.convert("RGBA")


# ---------------------------------------------------------------- drawing


def effective_dpi(ref: ImageRef, box_px: tuple[float, float], dpi: int, fit: str = "cover") -> float | None:
    """The resolution a raster has once placed in a box of ``box_px`` at ``dpi``; None for SVG."""
    if ref.vector:
        return None
    iw, ih = ref.size
    bw, bh = box_px
    scale = max(bw / iw, bh / ih) if fit == "cover" else min(bw / iw, bh / ih)
    return dpi / scale if scale > 0 else math.inf


def picture(ref: ImageRef, size: tuple[int, int], fit: str = "cover", fonts: tuple[str, ...] = ()) -> Image.Image:
    """The image as RGBA: exactly ``size`` (cover: scaled and centre-cropped), or within it (contain)."""
    w, h = max(1, int(size[0])), max(1, int(size[1]))
    return _picture(ref.path, ref.digest, ref.format, ref.size, w, h, fit, tuple(fonts)).copy()


@functools.lru_cache(maxsize=64)
def _picture(path: str, digest: str, fmt: str, isize: tuple[int, int], w: int, h: int, fit: str,
             fonts: tuple[str, ...]) -> Image.Image:
    if fit not in ART_FITS:
        fit = "cover"
    iw, ih = isize
    scale = max(w / iw, h / ih) if fit == "cover" else min(w / iw, h / ih)
    tw, th = max(1, round(iw * scale)), max(1, round(ih * scale))
    if fmt == "svg":
        im = _render_svg(_svg_bytes(path, digest), isize, tw, th, fonts, _family(fonts))
        if im.size != (tw, th):
            im = im.resize((tw, th), Image.Resampling.LANCZOS)
    else:
        im = _source(path, digest).resize((tw, th), Image.Resampling.LANCZOS, reducing_gap=3.0)
    if fit == "cover" and (tw, th) != (w, h):
        left, top = (tw - w) // 2, (th - h) // 2
        im = im.crop((left, top, left + w, top + h))
    return im


def _source(path: str, digest: str) -> Image.Image:
    """The decoded raster (decoded when the manifest was read; again only in a fresh process)."""
    if digest in _decoded:
        return _decoded[digest]
    try:
        fresh = read_image(Path(path))          # checked again: it may have changed since
    except ImageProblem as exc:
        from deckgen.errors import DeckgenError, error

        raise DeckgenError(error("image", path, str(exc), hint=exc.hint)) from None
    return _decoded[fresh.digest]


@functools.lru_cache(maxsize=32)
def _svg_bytes(path: str, digest: str) -> bytes:
    try:
        data = Path(path).read_bytes()
        if hashlib.sha256(data).hexdigest()[:20] != digest:     # changed since the manifest was read: check again
            svg_check(data, path)
    except (OSError, ImageProblem) as exc:
        from deckgen.errors import DeckgenError, error

        raise DeckgenError(error("image", path, str(exc), hint=getattr(exc, "hint", None))) from None
    return data


@functools.lru_cache(maxsize=8)
def _family(fonts: tuple[str, ...]) -> str | None:
    if not fonts:
        return None
    from deckgen.fonts import pil_font

    return pil_font(fonts[0], 12).getname()[0]
