"""Palettes: named colours in an order, in their own file under ``decks/palettes/`` or inline."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from deckgen.errors import Collector, DeckgenError, did_you_mean, error
from deckgen.manifest.reader import Shape, names_of, read_toml
from deckgen.manifest.schema import COLOR_KEYS, PALETTE_KEYS
from deckgen.model import Color, Names, Palette
from deckgen.resources import palettes_dir

HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def bundled_palettes() -> dict[str, Path]:
    return {p.stem: p for p in sorted(palettes_dir().glob("*.toml"))}


def find_palette(ref: str, base: Path | None = None) -> Path:
    """A palette by bundled name, or a path (relative to ``base`` first, then the cwd)."""
    bundled = bundled_palettes()
    if ref in bundled:
        return bundled[ref]
    candidates = [Path(ref)]
    if base is not None:
        candidates.insert(0, base / ref)
    for c in candidates:
        if c.is_file():
            return c
    hint = did_you_mean(ref, bundled) or "bundled palettes: " + ", ".join(bundled)
    raise DeckgenError(error("palette", "palette", f"no palette named or found at '{ref}'", hint=hint))


def load_palette_file(path: Path) -> tuple[Palette | None, list]:
    """Read a palette file; returns (palette or None, findings)."""
    data = read_toml(path)
    out = Collector(str(path))
    shape = Shape(out)
    shape.table(data, "", {"palette": ("table", True)})
    palette = parse_palette(data.get("palette"), "palette", out, default_id=path.stem, source=str(path))
    return palette, out.findings


def load_palette(ref: str, base: Path | None = None) -> Palette:
    """A palette by name or path, raising DeckgenError if it has errors (used by --palette)."""
    path = find_palette(ref, base)
    palette, findings = load_palette_file(path)
    errors = [f for f in findings if f.is_error]
    if errors or palette is None:
        raise DeckgenError(errors)
    return palette


def parse_palette(value: Any, where: str, out: Collector, default_id: str = "inline",
                  source: str | None = None) -> Palette | None:
    shape = Shape(out)
    table = shape.table(value, where, PALETTE_KEYS)
    if table is None:
        return None
    colors_raw = table.get("colors")
    colors: list[Color] = []
    ok = True
    if colors_raw is not None and not isinstance(colors_raw, list):
        out.error("type", f"{where}.colors", "expected an array of colour tables ([[palette.colors]])")
        return None
    if colors_raw is not None and not colors_raw:
        out.error("value", f"{where}.colors", "a palette needs at least one colour")
        return None
    seen: dict[str, int] = {}
    for i, raw in enumerate(colors_raw or []):
        cw = f"{where}.colors[{i}]"
        entry = shape.table(raw, cw, COLOR_KEYS)
        if entry is None:
            ok = False
            continue
        cid = shape.string(entry.get("id"), f"{cw}.id") if "id" in entry else None
        if cid is not None and not SLUG.match(cid):
            out.error("value", f"{cw}.id", f"'{cid}' is not a valid colour id",
                      hint="use lower-case letters, digits and hyphens, e.g. 'red' or 'sky-blue'")
            cid = None
        if cid is not None and cid in seen:
            out.error("duplicate", f"{cw}.id", f"colour id '{cid}' is already used by {where}.colors[{seen[cid]}]")
        elif cid is not None:
            seen[cid] = i
        hexv = entry.get("hex")
        if "hex" in entry and (not isinstance(hexv, str) or not HEX.match(hexv)):
            out.error("value", f"{cw}.hex", f"expected a colour as #RRGGBB, got {hexv!r}", hint="e.g. '#D7263D'")
            hexv = None
        names = shape.text(entry.get("name"), f"{cw}.name") if "name" in entry else None
        symbol = entry.get("symbol")
        if symbol is not None and shape.string(symbol, f"{cw}.symbol") is None:
            symbol = None
        if cid is None or hexv is None or names is None:
            ok = False
            continue
        colors.append(Color(cid, hexv.upper(), Names(names_of(names, cid)), symbol))
    pid = table.get("id", default_id)
    name = table.get("name", pid)
    if not isinstance(pid, str):
        out.error("type", f"{where}.id", "expected a string")
        ok = False
    if not isinstance(name, str):
        out.error("type", f"{where}.name", "expected a string")
        ok = False
    if not ok or colors_raw is None:
        return None
    return Palette(pid, name, tuple(colors), source)


def parse_color_override(text: str) -> tuple[str, str]:
    """``red=#FF0000`` -> ("red", "#FF0000"), for --color."""
    name, sep, value = text.partition("=")
    if not sep or not HEX.match(value.strip()):
        raise DeckgenError(error("option", "--color", f"'{text}' is not NAME=#RRGGBB",
                                 hint="e.g. --color red=#E0242B"))
    return name.strip(), value.strip().upper()


def apply_overrides(palette: Palette, overrides: dict[str, str]) -> Palette:
    """The palette with ``--color`` overrides applied; unknown colour names are errors."""
    unknown = [k for k in overrides if k not in palette.ids()]
    if unknown:
        raise DeckgenError([error("option", "--color", f"the palette has no colour '{k}'",
                                  hint=did_you_mean(k, palette.ids()) or "colours: " + ", ".join(palette.ids()))
                            for k in unknown])
    return palette.with_overrides(overrides)
