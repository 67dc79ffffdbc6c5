"""``deckgen export cards --service NAME``: the files a print shop asks for.

One image per distinct face at the shop template's pixel size (trim + bleed at its
resolution), a quantities list, and a PDF with one card face per page (every physical card,
its two sides in the order the shop asks for) whose pages are trim + bleed with a TrimBox and
a BleedBox. Each face image is stored once.

The faces are laid out for the shop's safe zone: the renderer keeps every symbol and text in
its safe box, and that box is made at least as far inside the cut line as the shop's. When an
override (``safe_mm``) puts the renderer's safe box outside the shop's, or a card size or bleed
override leaves the shop's template size, the result carries a warning saying by how much.
"""

from __future__ import annotations

import io
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from deckgen.atomic import write_bytes, write_text
from deckgen.errors import DeckgenError, Finding, error, warning
from deckgen.export.images import EXTENSIONS, encode
from deckgen.export.resolution import resolution_warnings
from deckgen.export.run import ExportRun
from deckgen.export.services import Service
from deckgen.icc import to_cmyk
from deckgen.layout.imposition import CardCopy, card_copies
from deckgen.layout.pdf import PdfMeta, finish, new_canvas
from deckgen.layout.pdfimage import draw_image, read_png, register_image
from deckgen.model import Deck
from deckgen.pdfkit import CMYK_INTENT, ImageData, pil_image_data
from deckgen.units import mm_to_pt, mm_to_px

DEFAULT_SAFE_MM = 3.0       # the renderer's own safe margin, used when a preset publishes none


@dataclass(frozen=True)
class PrintShopResult:
    folder: Path
    images: tuple[Path, ...]
    pdf: Path
    quantities: Path
    pages: int
    size_px: tuple[int, int]
    trim_mm: tuple[float, float]
    bleed_mm: float
    safe_box: tuple[int, int, int, int] = (0, 0, 0, 0)          # the renderer's, in face-image pixels
    shop_safe_box: tuple[int, int, int, int] | None = None      # the shop's, in face-image pixels
    warnings: tuple[Finding, ...] = field(default_factory=tuple)
    resized: str = ""                                           # size_note(): the deck's own size, when not this


# A card size this far from the deck's own (either side, in mm) is another size, said so.
SIZE_TOLERANCE_MM = 1.0


def size_note(deck: Deck, trim_mm: tuple[float, float], service: Service) -> str:
    """When the shop's card is another size than the deck's own: says so (every face is laid out
    again at the shop's size, never stretched) and names the print-shop preset whose card is
    nearest the deck's own; "" when the sizes agree."""
    from deckgen.export.services import load_services
    from deckgen.render.geometry import card_size_mm

    base = deck.source.parent if deck.source else None
    own = card_size_mm(deck.card_size, base=base)
    if max(abs(own[0] - trim_mm[0]), abs(own[1] - trim_mm[1])) <= SIZE_TOLERANCE_MM:
        return ""
    note = (f"the deck's cards are {own[0]:g} x {own[1]:g} mm and these are {trim_mm[0]:g} x {trim_mm[1]:g} mm: "
            "every face is laid out again at this size, not stretched")
    sizes = {sid: card_size_mm(svc.card_size, base=base)
             for sid, svc in load_services(base=base).items() if svc.card_size}
    if sizes:
        best = min(sizes, key=lambda sid: (max(abs(own[0] - sizes[sid][0]), abs(own[1] - sizes[sid][1])), sid))
        if best != service.id and sizes[best] != trim_mm:
            note += f"; the preset nearest the deck's own size is {best} ({sizes[best][0]:g} x {sizes[best][1]:g} mm)"
    return note


@dataclass(frozen=True)
class ShopGeometry:
    """Where a face's content may go, in the pixels of the image delivered to the shop."""

    trim_mm: tuple[float, float]
    bleed_mm: float
    render_safe_mm: float
    size_px: tuple[int, int]
    safe_box: tuple[int, int, int, int]
    shop_safe_box: tuple[int, int, int, int] | None
    warnings: tuple[Finding, ...]


def geometry(deck: Deck, service: Service, *, card_size: str | None = None, bleed_mm: float | None = None,
             safe_mm: float | None = None) -> ShopGeometry:
    """The face geometry for ``service`` with optional overrides, and the warnings it calls for."""
    from deckgen.render.geometry import Frame, card_size_mm

    trim = card_size_mm(card_size or service.card_size or deck.card_size)
    bleed = service.bleed_mm if bleed_mm is None else float(bleed_mm)
    if not 0 <= bleed <= 10:
        raise DeckgenError(error("option", "--bleed", f"{bleed:g} mm bleed is out of range", hint="use 0mm to 10mm"))
    shop_safe = service.safe_mm
    render_safe = float(safe_mm) if safe_mm is not None else max(DEFAULT_SAFE_MM, shop_safe or 0.0)
    size = service.full_px(trim, bleed)
    frame = Frame(trim, service.dpi, bleed, render_safe)
    sx, sy = size[0] / frame.full[0], size[1] / frame.full[1]
    l, t, r, b = frame.safe_box
    box = (round(l * sx), round(t * sy), round(r * sx), round(b * sy))
    found: list[Finding] = []
    who = service.shop or service.name
    shop_box = None
    if shop_safe is not None:
        inset = mm_to_px(bleed + shop_safe, service.dpi)
        shop_box = (inset, inset, size[0] - inset, size[1] - inset)
        over = max(shop_box[0] - box[0], shop_box[1] - box[1], box[2] - shop_box[2], box[3] - shop_box[3])
        if over > 0:
            found.append(warning(
                "safe-zone", f"--service {service.id}",
                f"the faces' symbols and text reach {over} px ({over * 25.4 / service.dpi:.2f} mm) into {who}'s "
                f"unsafe border: they come {render_safe:g} mm from the cut line, and {who} asks for "
                f"{shop_safe:g} mm (safe zone {shop_box[2] - shop_box[0]}x{shop_box[3] - shop_box[1]} px)",
                hint=f"leave out --safe or give at least {shop_safe:g}mm"))
    if service.pixels is not None and size != service.pixels:
        found.append(warning(
            "template-size", f"--service {service.id}",
            f"the faces are {size[0]}x{size[1]} px, not {who}'s template size {service.pixels[0]}x{service.pixels[1]} px "
            f"(--card-size or --bleed changed it)", hint="check the shop offers this size before uploading"))
    return ShopGeometry(trim, bleed, render_safe, size, box, shop_box, tuple(found))


def export_cards(deck: Deck, service: Service, out_dir: Path, *, run: ExportRun | None = None,
                 card_size: str | None = None, bleed_mm: float | None = None,
                 safe_mm: float | None = None) -> PrintShopResult:
    """The shop's files in ``out_dir``; the faces rendered as ``run`` says (default: cached, every core)."""
    from deckgen.render import RenderSettings, render_deck

    run = run or ExportRun()
    progress = run.progress

    geo = geometry(deck, service, card_size=card_size, bleed_mm=bleed_mm, safe_mm=safe_mm)
    settings = RenderSettings(dpi=service.dpi, bleed_mm=geo.bleed_mm, safe_mm=geo.render_safe_mm,
                              card_size=f"{geo.trim_mm[0]!r}mm x {geo.trim_mm[1]!r}mm")
    r = render_deck(deck, settings, use_cache=run.use_cache, cache_dir=run.cache_dir, progress=progress, jobs=run.jobs)
    folder = Path(out_dir)
    ext = EXTENSIONS[service.format]
    images = []
    pdf_sources: dict[str, Path] = {}
    with tempfile.TemporaryDirectory(prefix="deckgen-shop-") as tmp:
        for i, (face, path) in enumerate(sorted(r.paths.items())):
            target = folder / "faces" / f"{face}{ext}"
            exact = tuple(r.size_px) == geo.size_px
            if service.format == "png":
                data = _png_with_dpi(path, service.dpi, geo.size_px)
                images.append(write_bytes(target, data))
                pdf_sources[face] = path if exact else target
            else:
                with Image.open(path) as im:
                    im = _fit(im, geo.size_px)
                    images.append(write_bytes(target, encode(im, "jpeg", service.dpi)))
                    if exact:
                        pdf_sources[face] = path
                    else:
                        pdf_sources[face] = write_bytes(Path(tmp) / f"{face}.png", encode(im, "png", service.dpi))
            if progress:
                progress("print-shop images", i + 1, len(r.paths))
        copies = card_copies(deck)
        pdf = _pdf(deck, copies, pdf_sources, geo, service)
    pdf_path = write_bytes(folder / f"{deck.id}-{service.id}.pdf", pdf)
    quantities = write_text(folder / f"{deck.id}-{service.id}-quantities.csv", _quantities(copies, ext))
    low = resolution_warnings(deck, geo.trim_mm, geo.bleed_mm, geo.render_safe_mm, service.dpi,
                              f"--service {service.id}")
    return PrintShopResult(folder, tuple(images), pdf_path, quantities, 2 * len(copies), geo.size_px,
                           geo.trim_mm, geo.bleed_mm, geo.safe_box, geo.shop_safe_box, (*geo.warnings, *low),
                           size_note(deck, geo.trim_mm, service))


def _fit(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The face at exactly the template's pixel size. The renderer rounds the whole length (trim and
    both bleeds) to the pixel, half up, as the template does (deckgen.render.geometry.Frame), so its
    faces are the template's size already (825 px for 2.75 in at 300 dpi, whose 1/8 in bleed is
    37.5 px); this only resizes a face drawn to other figures."""
    im = im.convert("RGB")
    return im if im.size == size else im.resize(size, Image.Resampling.LANCZOS)


def _png_with_dpi(path: Path, dpi: int, size: tuple[int, int]) -> bytes:
    with Image.open(path) as im:
        if im.info.get("dpi") and round(im.info["dpi"][0]) == dpi and im.mode == "RGB" and im.size == size:
            return Path(path).read_bytes()
        return encode(_fit(im, size), "png", dpi)


def _quantities(copies: Sequence[CardCopy], ext: str) -> str:
    counts = Counter((c.front, c.back) for c in copies)
    rows = ["front,back,count"]
    rows += [f"faces/{f}{ext},faces/{b}{ext},{n}" for (f, b), n in counts.items()]
    return "\n".join(rows) + "\n"


PDFX = "PDF/X-1a:2003"


def shop_canvas(service: Service) -> Callable[..., Any] | None:
    """The canvas class for another of the deck's PDFs made for ``service`` (its rulebook): for a shop that
    takes PDF/X-1a, CMYK colours and images within its ink limit, no soft masks, the output intent and
    version key; None for a shop that takes RGB (the usual canvas)."""
    if service.pdf != "pdfx-1a":
        return None
    from functools import partial

    from deckgen.pdfkit import PrintCanvas

    return partial(PrintCanvas, intent=CMYK_INTENT, pdfx=PDFX, ink_limit=service.ink_limit)


def _cmyk_image(path: Path, ink_limit: float | None) -> ImageData:
    """A face converted to CMYK for the PDF/X-1a output condition, within the shop's total-ink limit
    (deckgen.icc.to_cmyk)."""
    import hashlib

    data = Path(path).read_bytes()
    with Image.open(io.BytesIO(data)) as im:
        cmyk = to_cmyk(im, ink_limit)
    return pil_image_data(cmyk, hashlib.sha1(data + f"/cmyk/{ink_limit}".encode()).hexdigest())


def _pdf(deck: Deck, copies: Sequence[CardCopy], paths: dict[str, Path], geo: ShopGeometry, service: Service) -> bytes:
    trim_mm, bleed_mm = geo.trim_mm, geo.bleed_mm
    w, h = trim_mm[0] + 2 * bleed_mm, trim_mm[1] + 2 * bleed_mm
    buf = io.BytesIO()
    meta = PdfMeta(title=f"{deck.name()}: cards for {service.name}", subject=f"{len(copies)} cards, "
                   f"{trim_mm[0]:g} × {trim_mm[1]:g} mm + {bleed_mm:g} mm bleed", language=deck.language)
    x1a = service.pdf == "pdfx-1a"
    c = new_canvas(buf, (w, h), meta, CMYK_INTENT if x1a else None, PDFX if x1a else None)
    b = mm_to_pt(bleed_mm)
    W, H = mm_to_pt(w), mm_to_pt(h)
    names: dict[str, str] = {}
    for copy in copies:
        sides = (copy.back, copy.front) if service.pdf_order == "back-front" else (copy.front, copy.back)
        for face in sides:
            c.setTrimBox([b, b, W - b, H - b])
            c.setBleedBox([0, 0, W, H])
            if face not in names:
                names[face] = register_image(c, _cmyk_image(paths[face], service.ink_limit) if x1a
                                             else read_png(paths[face]))
            draw_image(c, names[face], 0, 0, W, H)
            c.showPage()
    return finish(c, buf)
