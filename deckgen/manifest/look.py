"""The manifest keys of a deck's own look: ``deck.back_image``, ``deck.logo``, ``deck.cover_logo``, ``deck.fonts``,
``deck.layout``, ``deck.back_layout``, ``icon``/``art``/``art_fit``/``text``/``layout``/``hide`` on
``[kinds.<id>]`` and ``art``/``art_fit``/``text``/``layout``/``hide`` on ``[[cards]]``. Paths are
relative to the manifest's folder and never leave it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from deckgen import deckfs
from deckgen.datafile import Shape, names_of
from deckgen.errors import Collector, DeckgenError, did_you_mean
from deckgen.manifest.artpattern import Pattern, check_pattern, is_pattern
from deckgen.manifest.schema import MAX_TEXT
from deckgen.model import ART_FITS, Card, ImageRef, Kind, Names


def load_image(value: Any, where: str, base: Path, out: Collector, line: int | None = None) -> ImageRef | None:
    """:func:`deckgen.images.load_image`, imported when a manifest names an image (it imports
    Pillow's Image): reading a deck without images of its own does not import it."""
    from deckgen.images import load_image as load

    return load(value, where, base, out, line)


def deck_look(raw: Any, path: Path, out: Collector) -> dict[str, Any]:
    """Deck keyword arguments: back_image, logo, cover_logo, fonts, layout, back_layout, symbols."""
    if not isinstance(raw, dict):
        return {}
    base = path.parent
    look: dict[str, Any] = {}
    for key in ("back_image", "logo", "cover_logo"):
        if key in raw:
            look[key] = load_image(raw[key], f"deck.{key}", base, out)
    if "fonts" in raw:
        look["fonts"] = _fonts_folder(raw["fonts"], base, out)
    for key, target in (("layout", "face"), ("back_layout", "back")):
        if key in raw:
            look[key] = _layout(raw[key], f"deck.{key}", base, target, out)
    if "symbols" in raw:                 # the palette's colour-blind shapes on every output
        look["symbols"] = Shape(out).boolean(raw["symbols"], "deck.symbols")
    return look


def _layout(value: Any, where: str, base: Path, target: str, out: Collector, line: int | None = None) -> str | None:
    """A layout's name, checked against the bundled, user and manifest-folder layouts."""
    from deckgen.render.layout import layouts

    if not isinstance(value, str) or not value.strip():
        out.error("type", where, f"expected the name of a {target} layout", line=line, hint='e.g. "uno"')
        return None
    try:
        found = {n: lay for n, lay in layouts(base).items() if lay.target == target}
    except DeckgenError as exc:
        out.findings.extend(exc.findings)
        return None
    if value not in found:
        out.error("layout", where, f"no {target} layout named '{value}'", line=line,
                  hint=did_you_mean(value, found) or "layouts: " + ", ".join(found)
                  + " (or a file layouts/<name>.toml beside the manifest)")
        return None
    return value



def _hide(value: Any, where: str, out: Collector, line: int | None = None) -> tuple[str, ...]:
    """The layout elements a kind or card does not show."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        out.error("type", where, "expected a list of element names", line=line, hint='e.g. ["symbol", "caption"]')
        return ()
    return tuple(sorted(set(value)))


def _fonts_folder(value: Any, base: Path, out: Collector) -> str | None:
    from deckgen.fonts import font_folders, font_set
    from deckgen.images import ImageProblem, resolve_inside

    if not isinstance(value, str) or not value.strip():
        out.error("type", "deck.fonts", "expected the path of a folder of fonts", hint='e.g. fonts = "fonts"')
        return None
    try:
        folder = resolve_inside(value, base)
    except ImageProblem as exc:
        out.error("fonts", "deck.fonts", str(exc).replace("'" + value + "'", f"the fonts folder '{value}'"),
                  hint=exc.hint)
        return None
    if not deckfs.is_dir(folder):
        out.error("fonts", "deck.fonts", f"no folder {folder}",
                  hint="deck.fonts names a folder beside the manifest holding the fonts and a fonts.toml")
        return None
    font_folders(None)                 # DECKGEN_FONTS pointing nowhere: a usage error (exit 2), raised here
    try:
        font_set(folder)
    except DeckgenError as exc:
        out.findings.extend(exc.findings)
        return None
    return str(folder)


def _fit(table: dict[str, Any], where: str, out: Collector, line: int | None = None, warn: bool = True) -> str | None:
    fit = table.get("art_fit")
    if fit is None:
        return None
    if fit not in ART_FITS:
        out.error("value", f"{where}.art_fit", f"unknown art_fit {fit!r}", line=line,
                  hint=did_you_mean(str(fit), ART_FITS) or "expected cover or contain")
        return None
    if warn and "art" not in table:
        out.warning("art-fit", f"{where}.art_fit", "art_fit has no effect without art", line=line)
    return str(fit)


def _text(table: dict[str, Any], where: str, shape: Shape, line: int | None = None) -> Names | None:
    if "text" not in table:
        return None
    text = shape.text(table["text"], f"{where}.text", line=line, max_len=MAX_TEXT)
    return Names(names_of(text)) if text else None


def kinds_look(raw: Any, kinds: dict[str, Kind], path: Path, out: Collector,
               patterns: dict[str, Pattern] | None = None) -> dict[str, Kind]:
    """The manifest's kinds with their icon, art, art_fit and text; an art pattern
    (``art = "art/{color}.svg"``) goes into ``patterns`` under the kind's id instead."""
    if not isinstance(raw, dict):
        return kinds
    shape = Shape(out)
    base = path.parent
    kinds = dict(kinds)
    for kid, table in raw.items():
        if kid not in kinds or not isinstance(table, dict):
            continue
        where = f"kinds.{kid}"
        look = _kind_images(kid, table, base, out, patterns)
        fit = _fit(table, where, out)
        if fit:
            look["art_fit"] = fit
        text = _text(table, where, shape)
        if text:
            look["text"] = text
        if "layout" in table:
            look["layout"] = _layout(table["layout"], f"{where}.layout", base, "face", out)
        if "hide" in table:
            look["hide"] = _hide(table["hide"], f"{where}.hide", out)
        if look:
            kinds[kid] = replace(kinds[kid], **look)
    return kinds


def _kind_images(kid: str, table: dict[str, Any], base: Path, out: Collector,
                 patterns: dict[str, Pattern] | None) -> dict[str, Any]:
    """A kind's icon and art (an art pattern is kept aside for its cards)."""
    look: dict[str, Any] = {}
    for key in ("icon", "art"):
        where = f"kinds.{kid}.{key}"
        if key == "art" and is_pattern(table.get(key)):
            pattern = Pattern(table[key], where)
            if check_pattern(pattern, out) and patterns is not None:
                patterns[kid] = pattern
        elif key in table:
            look[key] = load_image(table[key], where, base, out)
    return look


def cards_look(raw: Any, cards: list[Card], path: Path, out: Collector, lines: list[int | None],
               patterns: dict[str, Pattern] | None = None) -> list[Card]:
    """The cards with their own art, art_fit and text (from the [[cards]] entry each came from);
    an art pattern goes into ``patterns`` under the entry's key path."""
    if not isinstance(raw, list):
        return cards
    shape = Shape(out)
    base = path.parent
    looks: dict[str, dict[str, Any]] = {}
    for i, table in enumerate(raw):
        if not isinstance(table, dict) or not {"art", "art_fit", "text", "layout", "hide"} & set(table):
            continue
        where = f"cards[{i}]"
        line = lines[i] if i < len(lines) else None
        look: dict[str, Any] = {}
        if "art" in table and is_pattern(table["art"]):
            pattern = Pattern(table["art"], f"{where}.art", line)
            if check_pattern(pattern, out) and patterns is not None:
                patterns[where] = pattern
        elif "art" in table:
            art: ImageRef | None = load_image(table["art"], f"{where}.art", base, out, line)
            look["art"] = art
        look["art_fit"] = _fit(table, where, out, line, warn=False)    # may set how its kind's art fits
        look["text"] = _text(table, where, shape, line)
        if "layout" in table:
            look["layout"] = _layout(table["layout"], f"{where}.layout", base, "face", out, line)
        if "hide" in table:
            look["hide"] = _hide(table["hide"], f"{where}.hide", out, line)
        looks[where] = look
    return [replace(c, **looks[c.where]) if c.where in looks else c for c in cards]
