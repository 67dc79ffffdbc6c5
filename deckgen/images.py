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
  never reads or fetches another file or URL on an image's behalf. A ``data:`` URL must parse
  as one (a picture type, a comma, valid base64), at most :data:`MAX_DATA_URL` characters; the
  pictures embedded that way count against the pixel limits, and an embedded SVG is checked
  like a file. Elements may nest at most :data:`MAX_SVG_DEPTH` deep, and the SVG is judged at
  the size it is printed (a card's face at 300 dpi) in a child process (:mod:`deckgen.probe`):
  a crash in the renderer, a runaway allocation or a drawing longer than :data:`SVG_SECONDS`
  (:data:`DECK_SVG_SECONDS` for all of a manifest's SVGs) is a finding (once per process for the
  same bytes: an SVG drawn safely is remembered by its SHA-256);
- only a regular file is read (no FIFO, no device), at most 64 MB;
- neither side may be more than :data:`MAX_ASPECT` times the other; all the distinct images of
  one manifest together may have at most :data:`MAX_DECK_PIXELS` pixels.

SVG is rendered with resvg (the ``resvg_py`` wheels: a maintained, self-contained Rust
renderer with no system library to install), with system fonts off and deckgen's own fonts
given, so the pixels depend only on the SVG and the deck's fonts.

Drawing (:func:`picture`) returns an RGBA image at a pixel size, cropped to cover or fitted
to be contained; results are cached per process by content digest and size.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import io
import math
import re
import time
import urllib.parse
import warnings
import weakref
import xml.parsers.expat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageOps

from deckgen import probe, safefile
from deckgen.errors import Collector
from deckgen.model import ART_FITS, ImageRef

MAX_PIXELS = 50_000_000
MAX_DECK_PIXELS = 250_000_000     # every distinct image of one manifest together (SVGs count their embedded rasters)
DECODED_PIXELS = 150_000_000      # decoded rasters kept in memory at once (4 bytes a pixel)
MAX_ASPECT = 20                   # the longer side at most 20 times the shorter (a card is about 1.4)
MAX_SVG_DEPTH = 64                # elements inside each other (resvg overflows its stack near 400)
MAX_SVG_ELEMENTS = 200_000
MAX_DATA_URL = 20_000_000         # characters of one data: URL
PRINT_BOX = (815, 1110)           # px: a poker card's face with its 3 mm bleed at 300 dpi, where an SVG is judged
SVG_SECONDS = 10.0                # the longest one SVG may take to draw at that size
DECK_SVG_SECONDS = 60.0           # ... and all the SVGs of one manifest together
DATA_TYPES = ("image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp", "image/svg+xml")
MIN_DPI = 300
RASTER_FORMATS = {"PNG": "png", "JPEG": "jpeg", "MPO": "jpeg", "WEBP": "webp"}
FORMATS_TEXT = "PNG, JPEG, WebP or SVG"
SVG_NS = "http://www.w3.org/2000/svg"
_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")]*)", re.IGNORECASE)
_DATA_URL = re.compile(r"^data:([A-Za-z0-9.+-]+/[A-Za-z0-9.+-]+)?((?:;[A-Za-z0-9.+-]+=[^;,]*)*)(;base64)?,", re.IGNORECASE)
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
    if "\0" in value:
        raise ImageProblem("the path has a NUL byte", hint="write the file's name as it is on disk")
    raw = safefile.user_path(value)
    full = raw if raw.is_absolute() else base / raw
    try:
        resolved = full.resolve(strict=False)
        root = base.resolve(strict=False)
    except (OSError, RuntimeError, ValueError) as exc:     # a symlink loop
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
        ref = read_image(path, where, _svg_time(out))
    except ImageProblem as exc:
        out.error("image", where, str(exc), hint=exc.hint, line=line)
        return None
    seen = _deck_budget(out)
    total = sum(seen.values()) + (0 if ref.digest in seen else _pixels(ref))
    if total > MAX_DECK_PIXELS:
        out.error("image", where, f"the manifest's images have {total / 1e6:.0f} megapixels in all, over the limit of "
                  f"{MAX_DECK_PIXELS // 1_000_000}", line=line,
                  hint="scale the pictures down: 300 dpi at the printed size is enough")
        return None
    seen.setdefault(ref.digest, _pixels(ref))
    return ref


_budgets: dict[int, dict[str, int]] = {}


def _deck_budget(out: Collector) -> dict[str, int]:
    """Pixels of each distinct image one manifest (one Collector) has named so far."""
    key = id(out)
    if key not in _budgets:
        _budgets[key] = {}
        weakref.finalize(out, _budgets.pop, key, None)
    return _budgets[key]


_times: dict[int, list[float]] = {}


def _svg_time(out: Collector) -> list[float]:
    """Seconds the SVGs of one manifest (one Collector) took to draw so far, one item each."""
    key = id(out)
    if key not in _times:
        _times[key] = []
        weakref.finalize(out, _times.pop, key, None)
    return _times[key]


_embedded: dict[str, int] = {}     # digest of an SVG -> pixels of the rasters embedded in it


def _pixels(ref: ImageRef) -> int:
    if ref.vector:
        return _embedded.get(ref.digest, 0)
    return ref.size[0] * ref.size[1]


def read_image(path: Path, where: str = "", svg_time: list[float] | None = None) -> ImageRef:
    """Read, identify and validate one image file; raises :class:`ImageProblem`. ``svg_time``:
    the drawing times of the other SVGs of the same manifest (their budget is shared)."""
    shown = str(path)
    if path.is_dir():
        raise ImageProblem(f"{shown} is a folder, not an image file")
    try:
        data = safefile.read_bytes(path, safefile.MAX_FILE)
    except FileNotFoundError:
        raise ImageProblem(f"no such file: {shown}", hint="check the path; it is relative to the manifest") from None
    except safefile.UnsafeFile as exc:
        raise ImageProblem(f"{shown} {exc.strerror}", hint="name an image file") from None
    except OSError as exc:
        raise ImageProblem(f"cannot read {shown}: {exc.strerror}") from None
    digest = hashlib.sha256(data).hexdigest()[:20]
    if _looks_like_svg(data, path):
        size, embedded = _svg_check(data, shown, 0, svg_time)
        _embedded[digest] = embedded
        return ImageRef(str(path), digest, "svg", size, where)
    fmt, size = _raster_check(data, shown, digest)
    return ImageRef(str(path), digest, fmt, size, where)


def _check_aspect(size: tuple[int, int], shown: str) -> None:
    w, h = size
    if max(w, h) > MAX_ASPECT * min(w, h):
        raise ImageProblem(f"{shown} is {w}x{h}: one side is more than {MAX_ASPECT} times the other",
                           hint="crop it closer to the shape it is printed in (a card is about 1.4 times as tall as wide)")


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
    _check_aspect((w, h), shown)
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
    while len(_decoded) > DECODED_MAX or (len(_decoded) > 1 and _decoded_pixels() > DECODED_PIXELS):
        del _decoded[next(iter(_decoded))]           # the oldest goes: decoded again if drawn later
    return fmt, rgba.size


def _decoded_pixels() -> int:
    return sum(im.size[0] * im.size[1] for im in _decoded.values())


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
    """Refuse an SVG that refers outside itself, nests too deep or cannot be drawn; its size in px."""
    return _svg_check(data, shown, 0)[0]


class _SvgScan:
    """What one pass of expat over an SVG finds: its root element, how deep and how many its
    elements are, the ``data:`` URLs it embeds and every reference outside the file."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.root_name: str | None = None
        self.root_attrs: dict[str, str] = {}
        self.depth = 0
        self.deepest = 0
        self.elements = 0
        self.data_urls: list[str] = []

    def parse(self, data: bytes, shown: str) -> None:
        parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.text
        parser.EntityDeclHandler = self.entity
        parser.UnparsedEntityDeclHandler = self.entity
        parser.ExternalEntityRefHandler = self.external
        parser.ProcessingInstructionHandler = self.pi
        try:
            parser.Parse(data, True)
        except xml.parsers.expat.ExpatError as exc:
            raise ImageProblem(f"{shown} is not a well-formed SVG ({exc})", hint="export the image again") from None

    def refuse(self, what: str) -> None:
        if what not in self.problems:
            self.problems.append(what)

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if self.depth == 0 and self.root_name is None:
            self.root_name, self.root_attrs = name, attrs
        self.depth += 1
        self.elements += 1
        self.deepest = max(self.deepest, self.depth)
        for key, value in attrs.items():
            local = key.split(" ")[-1]
            target = value.strip()
            if local == "href":
                if target.lower().startswith("data:"):
                    self.data_urls.append(target)
                elif not target.startswith("#"):
                    self.refuse(f"{local}=\"{value[:80]}\"")
            _urls(value, self.refuse, self.data_urls)

    def end(self, name: str) -> None:
        self.depth -= 1

    def text(self, chunk: str) -> None:
        _urls(chunk, self.refuse, self.data_urls)
        if _IMPORT.search(chunk):
            self.refuse("a stylesheet @import")

    def entity(self, *args: object) -> None:
        self.refuse("an entity declaration")

    def external(self, *args: object) -> int:
        self.refuse("an external entity")
        return 0

    def pi(self, target: str, body: str) -> None:
        if target.lower() == "xml-stylesheet":
            self.refuse("an xml-stylesheet instruction")


def _svg_check(data: bytes, shown: str, level: int, svg_time: list[float] | None = None
               ) -> tuple[tuple[int, int], int]:
    """(intrinsic size in px, pixels of the rasters embedded in it); ``level``: SVGs around this one."""
    if data[:2] == b"\x1f\x8b":
        raise ImageProblem(f"{shown} is a compressed SVG (.svgz)", hint="save it as a plain .svg")
    scan = _SvgScan()
    scan.parse(data, shown)
    _svg_limits(scan, shown)
    checked: dict[str, int] = {}
    embedded = 0
    for url in scan.data_urls:              # each use is decoded by the renderer: each one counts
        if url not in checked:
            checked[url] = _data_url_pixels(url, shown, level)
        embedded += checked[url]
    if embedded > MAX_PIXELS:
        raise ImageProblem(f"{shown} embeds pictures of {embedded / 1e6:.0f} megapixels in all, over the limit of "
                           f"{MAX_PIXELS // 1_000_000}", hint="scale the embedded pictures down")
    size = _svg_size(scan.root_attrs)
    if level == 0:
        _check_aspect(size, shown)           # before it is drawn at the size it is printed
        _probe_drawing(data, size, shown, [] if svg_time is None else svg_time)
    return size, embedded


# SHA-256 digests of the SVGs this process has drawn safely in a child: the same bytes are never
# drawn in a child again (a manifest read twice, the same picture in two decks or two folders).
# Only successes are kept: a timeout on a busy machine is tried again next time. Bounded: a long
# session forgets the oldest.
_drawn: dict[bytes, None] = {}
DRAWN_MAX = 4096


def _probe_drawing(data: bytes, size: tuple[int, int], shown: str, svg_time: list[float]) -> None:
    """Judge the SVG at the size it is printed (:func:`print_size`) in a child process, unless
    these exact bytes were judged before: a crash, a runaway allocation, or a drawing longer than
    :data:`SVG_SECONDS` (or than what is left of the manifest's :data:`DECK_SVG_SECONDS`) is
    refused. Drawn only at 32 px, a filter bomb passed and then took minutes for every face.

    It is drawn at a quarter of that size first: no known drawing costs more than the fourth power
    of its scale (a morphology filter's radius grows with the picture), so one whose quarter-size
    drawing takes less than 1/256 of the time allowed cannot take longer at full size; only the
    others are drawn at full size, within the time allowed."""
    key = hashlib.sha256(data).digest()
    if key in _drawn:
        return
    import resvg_py  # noqa: F401  (imported here, before the fork, never inside the child)

    left = DECK_SVG_SECONDS - sum(svg_time)
    if left <= 0:
        raise ImageProblem(f"{shown} was not drawn: the manifest's SVG pictures took over {DECK_SVG_SECONDS:g} s to "
                           "draw in all at the size they are printed", hint=_SIMPLER)
    seconds = min(SVG_SECONDS, left)
    start = time.monotonic()
    try:
        quarter = float(probe.run(_probe_svg, data, size, QUARTER, seconds=seconds))
        if quarter * QUARTER ** 4 > seconds:
            probe.run(_probe_svg, data, size, 1, seconds=seconds - (time.monotonic() - start))
    except probe.Failed as exc:
        if exc.kind != "time":
            raise ImageProblem(f"{shown} cannot be rendered: {exc.reason}", hint="export the image again") from None
        w, h = print_size(size)
        budget = "" if seconds == SVG_SECONDS else \
            f" (what was left of the {DECK_SVG_SECONDS:g} s for all the manifest's SVG pictures)"
        raise ImageProblem(f"{shown} takes longer than {seconds:g} s{budget} to draw at the size it is printed "
                           f"({w}x{h} px, a card's face at 300 dpi)", hint=_SIMPLER) from None
    finally:
        svg_time.append(time.monotonic() - start)
    _drawn[key] = None
    while len(_drawn) > DRAWN_MAX:
        del _drawn[next(iter(_drawn))]


QUARTER = 4
_SIMPLER = "simplify the drawing: fewer filters (blur, morphology, turbulence) and fewer large shapes on each other"


def print_size(size: tuple[int, int]) -> tuple[int, int]:
    """The pixels an SVG of intrinsic ``size`` is drawn at to cover a card's face with its bleed
    at 300 dpi (:data:`PRINT_BOX`), as art placed full-bleed is: the largest it is drawn at a
    build's default resolution."""
    iw, ih = size
    scale = max(PRINT_BOX[0] / iw, PRINT_BOX[1] / ih)
    return max(1, round(iw * scale)), max(1, round(ih * scale))


def _svg_limits(scan: _SvgScan, shown: str) -> None:
    """Refuse what the scan found outside the file, a root that is not <svg>, too deep or too many elements."""
    if scan.problems:
        raise ImageProblem(f"{shown} refers to something outside its own file: {', '.join(scan.problems[:3])}",
                           hint="deckgen never reads other files or URLs for an image: embed everything "
                           "(paths as shapes, pictures as data: URIs, references as #id)")
    if scan.root_name != f"{SVG_NS} svg":
        raise ImageProblem(f"{shown} is not an SVG image (its root element is not <svg>)")
    if scan.deepest > MAX_SVG_DEPTH:
        raise ImageProblem(f"{shown} nests its elements {scan.deepest} deep, over the limit of {MAX_SVG_DEPTH}",
                           hint="ungroup the drawing (a drawing program's 'ungroup' or 'flatten')")
    if scan.elements > MAX_SVG_ELEMENTS:
        raise ImageProblem(f"{shown} has {scan.elements} elements, over the limit of {MAX_SVG_ELEMENTS}",
                           hint="simplify the drawing")


def _probe_svg(data: bytes, size: tuple[int, int], fraction: int) -> bytes:
    """In the child: draw the SVG at 1/``fraction`` of its printed size; the CPU seconds it took."""
    import resvg_py

    w, h = print_size(size)
    start = time.process_time()
    resvg_py.svg_to_bytes(svg_string=data.decode("utf-8", "replace"), width=max(1, w // fraction),
                          height=max(1, h // fraction), skip_system_fonts=True, font_files=[])
    return repr(time.process_time() - start).encode("ascii")


def _data_url_pixels(url: str, shown: str, level: int) -> int:
    """Check one ``data:`` URL: a picture type, valid encoding, within the size limit; its pixels."""
    head = url[:200]
    m = _DATA_URL.match(url)
    if m is None:
        raise ImageProblem(f"{shown} has a data: URL that is not one (\"{head[:60]}...\")",
                           hint="a data: URL is data:<type>;base64,<data>")
    if len(url) > MAX_DATA_URL:
        raise ImageProblem(f"{shown} has a data: URL of {len(url) / 1e6:.0f} million characters, over the limit of "
                           f"{MAX_DATA_URL // 1_000_000} million")
    kind = (m.group(1) or "").lower()
    if kind not in DATA_TYPES:
        raise ImageProblem(f"{shown} has a data: URL of type '{kind or 'text/plain'}'",
                           hint="embedded pictures may be " + ", ".join(DATA_TYPES))
    payload = url[m.end():]
    try:
        if m.group(3):
            raw = base64.b64decode("".join(payload.split()), validate=True)
        else:
            raw = urllib.parse.unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        raise ImageProblem(f"{shown} has a data: URL whose base64 data is damaged") from None
    if kind == "image/svg+xml":
        if level >= 2:
            raise ImageProblem(f"{shown} embeds SVG pictures inside SVG pictures more than twice")
        _, pixels = _svg_check(raw, f"{shown} (an SVG embedded in it)", level + 1)
        return pixels
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(raw)) as im:       # the header only
                w, h = im.size
                area: int = w * h
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageProblem(f"{shown} embeds a picture too large to decode safely") from None
    except Exception:
        raise ImageProblem(f"{shown} embeds a picture that cannot be read ({kind})") from None
    if area > MAX_PIXELS:
        raise ImageProblem(f"{shown} embeds a picture of {w}x{h} pixels, over the limit of "
                           f"{MAX_PIXELS // 1_000_000} megapixels")
    return area


def _urls(value: str, refuse: Callable[[str], None], data_urls: list[str] | None = None) -> None:
    if "url" not in value.lower():
        return
    for target in _URL.findall(value):
        target = target.strip()
        if target.lower().startswith("data:"):
            if data_urls is not None:
                data_urls.append(target)
        elif not target.startswith("#"):
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
            if len(vb) == 4 and 0 < vb[2] < 1e7 and 0 < vb[3] < 1e7:
                box = (vb[2], vb[3])
        except ValueError:
            pass
    dims: list[float | None] = []
    for key in ("width", "height"):
        m = _LENGTH.match(attrs.get(key, ""))
        try:
            value = float(m.group(1)) * _PX[m.group(2)] if m else None
        except ValueError:            # "1.2.3"
            value = None
        dims.append(value if value is not None and 0 < value < 1e7 else None)
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
        out: Image.Image = im.convert("RGBA")
    return out


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
    return _picture(ref.path, ref.digest, ref.format, ref.size, (w, h), fit, tuple(fonts)).copy()


@functools.lru_cache(maxsize=64)
def _picture(path: str, digest: str, fmt: str, isize: tuple[int, int], box: tuple[int, int], fit: str,
             fonts: tuple[str, ...]) -> Image.Image:
    w, h = box
    if fit not in ART_FITS:
        fit = "cover"
    iw, ih = isize
    scale = max(w / iw, h / ih) if fit == "cover" else min(w / iw, h / ih)
    tw, th = max(1, round(iw * scale)), max(1, round(ih * scale))
    if tw * th > 4 * MAX_PIXELS:          # only a shape check refuses can get here (an extreme aspect ratio)
        from deckgen.errors import DeckgenError, error

        raise DeckgenError(error("image", path, f"drawing it at {tw}x{th} pixels would take too much memory",
                                 hint=f"crop it closer to the shape it is printed in (at most {MAX_ASPECT}:1)"))
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
        data = safefile.read_bytes(path, safefile.MAX_FILE)
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
