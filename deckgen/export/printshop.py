"""``deckgen export cards --service NAME``: the files a print shop asks for.

One image per distinct face at the service's resolution with its bleed, a quantities list,
and a PDF with one card face per page (every physical card, its front then its back) whose
pages are trim + bleed with a TrimBox and a BleedBox. Each face image is stored once.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from deckgen.atomic import write_bytes, write_text
from deckgen.export.images import EXTENSIONS, save
from deckgen.export.services import Service
from deckgen.layout.imposition import card_copies
from deckgen.layout.pdf import PdfMeta, finish, new_canvas
from deckgen.layout.pdfimage import draw_image, read_png, register_image
from deckgen.model import Deck
from deckgen.progress import Progress
from deckgen.units import mm_to_pt


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


def export_cards(deck: Deck, service: Service, out_dir: Path, *, use_cache: bool = True,
                 cache_dir: Path | None = None, progress: Progress | None = None,
                 jobs: int | None = None) -> PrintShopResult:
    from deckgen.render import RenderSettings, render_deck

    settings = RenderSettings(dpi=service.dpi, bleed_mm=service.bleed_mm, card_size=service.card_size)
    r = render_deck(deck, settings, use_cache=use_cache, cache_dir=cache_dir, progress=progress, jobs=jobs)
    folder = Path(out_dir)
    ext = EXTENSIONS[service.format]
    images = []
    for i, (face, path) in enumerate(sorted(r.paths.items())):
        target = folder / "faces" / f"{face}{ext}"
        if service.format == "png":
            data = _png_with_dpi(path, service.dpi)
            images.append(write_bytes(target, data))
        else:
            with Image.open(path) as im:
                images.append(save(im, target, "jpeg", service.dpi))
        if progress:
            progress("print-shop images", i + 1, len(r.paths))
    copies = card_copies(deck)
    pdf = _pdf(deck, copies, r.paths, r.trim_mm, r.bleed_mm, service)
    pdf_path = write_bytes(folder / f"{deck.id}-{service.id}.pdf", pdf)
    quantities = write_text(folder / f"{deck.id}-{service.id}-quantities.csv", _quantities(copies, ext))
    return PrintShopResult(folder, tuple(images), pdf_path, quantities, 2 * len(copies), r.size_px,
                           tuple(r.trim_mm), r.bleed_mm)


def _png_with_dpi(path: Path, dpi: int) -> bytes:
    with Image.open(path) as im:
        if im.info.get("dpi") and round(im.info["dpi"][0]) == dpi and im.mode == "RGB":
            return Path(path).read_bytes()
        buf = io.BytesIO()
        im.convert("RGB").save(buf, "PNG", dpi=(dpi, dpi), compress_level=6)
        return buf.getvalue()


def _quantities(copies, ext: str) -> str:
    counts = Counter((c.front, c.back) for c in copies)
    rows = ["front,back,count"]
    rows += [f"faces/{f}{ext},faces/{b}{ext},{n}" for (f, b), n in counts.items()]
    return "\n".join(rows) + "\n"


def _pdf(deck: Deck, copies, paths, trim_mm, bleed_mm: float, service: Service) -> bytes:
    w, h = trim_mm[0] + 2 * bleed_mm, trim_mm[1] + 2 * bleed_mm
    buf = io.BytesIO()
    meta = PdfMeta(title=f"{deck.name()}: cards for {service.name}", subject=f"{len(copies)} cards, "
                   f"{trim_mm[0]:g} × {trim_mm[1]:g} mm + {bleed_mm:g} mm bleed", language=deck.language)
    c = new_canvas(buf, (w, h), meta)
    b = mm_to_pt(bleed_mm)
    W, H = mm_to_pt(w), mm_to_pt(h)
    c.setTrimBox([b, b, W - b, H - b])
    c.setBleedBox([0, 0, W, H])
    names: dict[str, str] = {}
    for copy in copies:
        for face in (copy.front, copy.back):
            if face not in names:
                names[face] = register_image(c, read_png(paths[face]))
            draw_image(c, names[face], 0, 0, W, H)
            c.showPage()
    return finish(c, buf)
