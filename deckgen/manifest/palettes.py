"""Palettes: named colours in an order, in their own file under ``decks/palettes/`` or inline."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from deckgen import deckfs, presets
from deckgen.datafile import Shape, names_of, read_toml, with_lines
from deckgen.errors import Collector, DeckgenError, Finding, did_you_mean, error
from deckgen.manifest.schema import COLOR_KEYS, MAX_NAME, PALETTE_KEYS, TOP_KEYS
from deckgen.model import Color, Names, Palette

HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")
SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def _palette_file(path: str) -> list[tuple[str, Path]]:
    return [(Path(path).stem, Path(path))]


# Palettes are one file each in a ``palettes/`` folder, read when used.
PALETTES: presets.PresetFile[Path] = presets.PresetFile("palette", "palettes", _palette_file, folder=True)


def bundled_palettes(base: Path | None = None) -> dict[str, Path]:
    """Every named palette: bundled, the user's and (with ``base``) the manifest folder's."""
    return presets.catalogue(PALETTES, base).values()


def find_palette(ref: str, base: Path | None = None) -> Path:
    """A palette by name (bundled, user or in ``base/palettes/``), or a path: with ``base`` (a
    manifest's folder) a file inside that folder, as for images and fonts; without it (the
    command line's --palette) a path relative to the cwd."""
    named = bundled_palettes(base)
    if ref in named:
        return named[ref]
    candidates = [Path(ref)]
    if base is not None:
        from deckgen.images import ImageProblem, resolve_inside

        try:
            candidates = [resolve_inside(ref, base)]
        except ImageProblem as exc:
            raise DeckgenError(error("file", "palette", str(exc).replace(f"'{ref}'", f"the palette file '{ref}'", 1),
                                     hint="copy the palette file beside the manifest, or name a bundled palette")
                               ) from None
    for c in candidates:
        if deckfs.is_file(c):
            return c
    hint = did_you_mean(ref, named) or "palettes: " + ", ".join(named)
    if ref.endswith(".toml") or "/" in ref or "\\" in ref:
        raise DeckgenError(error("file", "", "no such file", file=str(candidates[0]),
                                 hint=f"a palette file, or a palette name ({hint})"))
    raise DeckgenError(error("file", "palette", f"no palette named or found at '{ref}'", hint=hint))


MAX_CHAIN = 8          # manifests naming manifests for their palette


def load_palette_file(path: Path, _chain: tuple[Path, ...] = ()) -> tuple[Palette | None, list[Finding]]:
    """Read a palette file; returns (palette or None, findings).

    A deck manifest with an inline ``[palette]`` table (or naming one with ``deck.palette``) is
    read as that palette, so ``deckgen palette check my-deck.toml`` works too. A manifest that
    names itself, or a loop of manifests naming each other, is an error.
    """
    data = read_toml(path)
    out = Collector(str(path))
    shape = Shape(out)
    deck = data.get("deck")
    if isinstance(deck, dict) and "palette" not in data and isinstance(deck.get("palette"), str):
        here = _resolved(path)
        chain = (*_chain, here)
        target = find_palette(deck["palette"], path.parent)
        if _resolved(target) in chain or len(chain) >= MAX_CHAIN:
            loop = " -> ".join(p.name for p in (*chain, _resolved(target)))
            if _resolved(target) == here:
                what = f"the manifest names itself as its palette ({loop})"
            elif _resolved(target) in chain:
                what = f"the manifests name each other as palettes in a loop ({loop})"
            else:
                what = f"manifests name manifests as palettes more than {MAX_CHAIN} deep ({loop})"
            out.error("palette", "deck.palette", what,
                      hint="name a palette file with a [palette] table, or a bundled palette")
            return None, with_lines(out.findings)
        return load_palette_file(target, chain)
    if isinstance(deck, dict):
        keys = TOP_KEYS
    else:
        keys = {"palette": ("table", True)}
    shape.table(data, "", {k: v for k, v in keys.items() if k == "palette" or k in data})
    if "palette" not in data:
        out.error("missing-key", "palette", "the file has no [palette] table",
                  hint="a palette file holds [palette] with [[palette.colors]]; a manifest may name one with deck.palette")
        return None, with_lines(out.findings)
    palette = parse_palette(data.get("palette"), "palette", out, default_id=path.stem, source=str(path))
    return palette, with_lines(out.findings)


def _resolved(path: Path) -> Path:
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):
        return Path(path).absolute()


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
        color = _parse_color(shape, raw, where, i, seen)
        if color is None:
            ok = False
        else:
            colors.append(color)
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


def colour_ids(value: Any) -> Palette | None:
    """The colours an inline palette table names (their ids, and names where they read), for
    checking the cards' colours when the palette itself has errors and no deck will be made of
    it: every error at once. Their hex is a stand-in; None when no colour id reads."""
    raw = value.get("colors") if isinstance(value, dict) else None
    colors: dict[str, Color] = {}
    for entry in raw if isinstance(raw, list) else ():
        cid = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(cid, str) or not SLUG.match(cid) or cid in colors:
            continue
        name = entry.get("name")
        names = {"": name} if isinstance(name, str) else (
            {k: v for k, v in name.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(name, dict) else {})
        colors[cid] = Color(cid, "#000000", Names(names_of(names, cid)))
    return Palette("unread", "unread", tuple(colors.values()), None) if colors else None


def _parse_color(shape: Shape, raw: Any, where: str, i: int, seen: dict[str, int]) -> Color | None:
    """The palette's colour ``i`` (None when it has errors); ``seen``: colour id -> index so far."""
    out = shape.out
    cw = f"{where}.colors[{i}]"
    entry = shape.table(raw, cw, COLOR_KEYS)
    if entry is None:
        return None
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
    names = shape.text(entry.get("name"), f"{cw}.name", max_len=MAX_NAME) if "name" in entry else None
    symbol, symbol_ok = _color_symbol(shape, entry.get("symbol"), cw)
    if cid is None or hexv is None or names is None or not symbol_ok:
        return None
    return Color(cid, hexv.upper(), Names(names_of(names, cid)), symbol)


def _color_symbol(shape: Shape, symbol: Any, cw: str) -> tuple[str | None, bool]:
    """A colour's shape cue and whether it is valid (no shape is valid)."""
    if symbol is not None and shape.string(symbol, f"{cw}.symbol") is None:
        return None, False
    if symbol is not None and symbol not in color_symbols():
        shape.out.error("value", f"{cw}.symbol", f"unknown shape {symbol!r}",
                        hint=did_you_mean(symbol, color_symbols()) or "shapes: " + ", ".join(color_symbols()))
        return None, False
    return symbol, True


def color_symbols() -> tuple[str, ...]:
    """The shapes a palette colour may carry: exactly those the renderer draws."""
    from deckgen.render.symbols import SHAPES

    return tuple(SHAPES)


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
