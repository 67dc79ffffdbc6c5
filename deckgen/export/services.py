"""Print-shop presets (``decks/services.toml``), validated on load.

A preset is a shop's card template: resolution, finished card size, bleed, safe zone and the
template's pixel size (checked against the other figures), plus where the figures come from.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from deckgen import presets
from deckgen.datafile import read_toml
from deckgen.errors import Collector, DeckgenError, did_you_mean, error
from deckgen.resources import decks_dir
from deckgen.units import mm_to_px, parse_length

KEYS = ("name", "shop", "dpi", "bleed", "safe", "card_size", "pixels", "format", "pdf_order", "pdf", "ink_limit",
        "source")
PDF_KINDS = ("rgb", "pdfx-1a")      # rgb: ICC-tagged sRGB images; pdfx-1a: PDF/X-1a:2003, CMYK
FORMATS = ("png", "jpeg")
ORDERS = ("front-back", "back-front")
_PIXELS = re.compile(r"^\s*(\d+)\s*[x×]\s*(\d+)\s*$")


@dataclass(frozen=True)
class Service:
    id: str
    name: str
    dpi: int
    bleed_mm: float
    card_size: str | None = None
    format: str = "png"
    safe_mm: float | None = None            # the shop's safe zone inside the cut line; None: not published
    pixels: tuple[int, int] | None = None   # the template's full size (trim + bleed) in pixels
    shop: str | None = None
    source: str = ""
    pdf_order: str = "front-back"
    pdf: str = "rgb"                        # rgb | pdfx-1a (see PDF_KINDS)
    ink_limit: float | None = None          # % total ink the shop takes (CMYK files); None: the condition's 300 %

    def full_px(self, trim_mm: tuple[float, float], bleed_mm: float | None = None) -> tuple[int, int]:
        """Trim + 2 x bleed in pixels at the preset's resolution."""
        b = self.bleed_mm if bleed_mm is None else bleed_mm
        return mm_to_px(trim_mm[0] + 2 * b, self.dpi), mm_to_px(trim_mm[1] + 2 * b, self.dpi)


def services_file() -> Path:
    return decks_dir() / "services.toml"


def load_services(path: Path | None = None, *, base: Path | None = None) -> dict[str, Service]:
    """Every print-shop preset: the bundled, user and (with ``base``) the manifest folder's (see
    :mod:`deckgen.presets`), or only those of ``path``."""
    if path is not None:
        return dict(presets.load_file(SERVICES, Path(path)))
    return presets.catalogue(SERVICES, base).values()


def _length(raw: dict[str, Any], key: str, where: str, out: Collector, path: str) -> float | None:
    try:
        return parse_length(raw.get(key, ""), where)
    except DeckgenError as exc:
        out.findings.extend(dataclasses.replace(f, file=path) for f in exc.findings)
        return None


def _load(path: str) -> tuple[tuple[str, Service], ...]:
    data = read_toml(Path(path))
    out = Collector(file=path)
    services = []
    for sid, raw in data.items():
        if not isinstance(raw, dict):
            out.error("service", sid, "expected a table such as [tgc-poker] with dpi and bleed")
            continue
        svc = _service(sid, raw, out, path)
        if svc is not None:
            services.append((sid, svc))
    if out.errors:
        raise DeckgenError(out.findings)
    return tuple(services)


def _service(sid: str, raw: dict[str, Any], out: Collector, path: str) -> Service | None:
    """One preset's table, every problem in ``out`` (then None)."""
    before = len(out.errors)
    for key in sorted(set(raw) - set(KEYS)):
        hint = did_you_mean(key, KEYS) or "accepted keys: " + ", ".join(KEYS)
        out.error("unknown-key", f"{sid}.{key}", f"unknown key '{key}'", hint=hint)
    dpi = raw.get("dpi")
    if not isinstance(dpi, int) or isinstance(dpi, bool) or not 72 <= dpi <= 1200:
        out.error("service", f"{sid}.dpi", f"expected a whole number of dots per inch from 72 to 1200, got {dpi!r}")
    bleed = _length(raw, "bleed", f"{sid}.bleed", out, path)
    safe = _length(raw, "safe", f"{sid}.safe", out, path) if "safe" in raw else None
    fmt, order, kind = _kinds(sid, raw, out)
    ink = _ink_limit(sid, raw, kind, out)
    size = raw.get("card_size")
    trim = _trim(sid, size, out, path)
    pixels = _pixels(sid, raw, trim, out)
    if len(out.errors) > before or bleed is None or not isinstance(dpi, int):
        return None
    svc = Service(sid, str(raw.get("name", sid)), dpi, bleed, size, fmt, safe, pixels,
                  raw.get("shop"), str(raw.get("source", "")), order, kind, ink)
    if pixels is not None and trim is not None and svc.full_px(trim) != pixels:
        w, h = svc.full_px(trim)
        out.error("service", f"{sid}.pixels", f"{pixels[0]}x{pixels[1]} px does not match the card size, bleed "
                  f"and dpi, which give {w}x{h} px", hint="check card_size, bleed and dpi against the template")
        return None
    return svc


def _kinds(sid: str, raw: dict[str, Any], out: Collector) -> tuple[str, str, str]:
    """The image format, the PDF's page order and the PDF kind, each checked against its choices."""
    fmt = raw.get("format", "png")
    if fmt not in FORMATS:
        out.error("service", f"{sid}.format", f"unknown format {fmt!r}", hint="use png or jpeg")
    order = raw.get("pdf_order", "front-back")
    if order not in ORDERS:
        out.error("service", f"{sid}.pdf_order", f"unknown page order {order!r}", hint="use front-back or back-front")
    kind = raw.get("pdf", "rgb")
    if kind not in PDF_KINDS:
        out.error("service", f"{sid}.pdf", f"unknown PDF kind {kind!r}", hint="use rgb or pdfx-1a")
    return fmt, order, kind


def _ink_limit(sid: str, raw: dict[str, Any], kind: str, out: Collector) -> float | None:
    """The shop's total-ink limit in % ("240%" or 240), for presets that deliver CMYK."""
    if "ink_limit" not in raw:
        return None
    value = raw["ink_limit"]
    text = str(value).strip().rstrip("%").strip()
    try:
        limit = float(text) if not isinstance(value, bool) else -1.0
    except ValueError:
        limit = -1.0
    if not 100 <= limit <= 400:
        out.error("service", f"{sid}.ink_limit", f"expected a total ink limit from 100% to 400%, got {value!r}",
                  hint='e.g. ink_limit = "240%", as the shop states it')
        return None
    if kind != "pdfx-1a":
        out.error("service", f"{sid}.ink_limit", "ink_limit applies to CMYK files (pdf = \"pdfx-1a\"); an RGB "
                  "file is converted by the shop", hint="leave it out, or set pdf = \"pdfx-1a\"")
        return None
    return limit


def _trim(sid: str, size: Any, out: Collector, path: str) -> tuple[float, float] | None:
    """The trim size of a preset's ``card_size`` (None when it has none or it is unusable)."""
    from deckgen.render.geometry import card_size_mm

    if size is None:
        return None
    if not isinstance(size, str):
        out.error("service", f"{sid}.card_size", "expected a card size name or WxH string")
        return None
    try:
        return card_size_mm(size)
    except DeckgenError as exc:
        out.findings.extend(dataclasses.replace(f, file=path, where=f"{sid}.card_size") for f in exc.findings)
        return None


def _pixels(sid: str, raw: dict[str, Any], trim: tuple[float, float] | None, out: Collector) -> tuple[int, int] | None:
    """The template's pixel size, ``WxH``, which needs the card size it is for."""
    if "pixels" not in raw:
        return None
    m = _PIXELS.match(str(raw["pixels"]))
    if not m:
        out.error("service", f"{sid}.pixels", f"expected the template's pixel size as 'WxH', got {raw['pixels']!r}",
                  hint="e.g. '825x1125'")
    elif trim is None:
        out.error("service", f"{sid}.pixels", "a template's pixel size needs the card_size it is for")
    else:
        return int(m.group(1)), int(m.group(2))
    return None


SERVICES: presets.PresetFile[Service] = presets.PresetFile("print-shop preset", "services.toml", _load)


def get_service(name: str, *, base: Path | None = None) -> Service:
    """A print-shop preset by name; ``base``: the manifest's folder, whose ``services.toml`` is read too."""
    services = load_services(base=base)
    key = str(name).strip().lower()
    if key in services:
        return services[key]
    hint = did_you_mean(key, services) or "presets: " + ", ".join(services)
    raise DeckgenError(error("service", "--service", f"unknown print-shop preset '{name}'",
                             hint=f"{hint} (add your own in {presets.user_dir() / 'services.toml'})"))
