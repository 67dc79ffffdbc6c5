"""Face and back layouts as data: TOML files naming the elements of a card and their boxes.

A layout file (``decks/layouts/<name>.toml``, a user's in the user data folder's ``layouts/``, a
designer's in ``layouts/`` beside the manifest; read by :mod:`deckgen.presets`) holds a
``[layout]`` table and one ``[elements.<name>]`` table per element, in drawing order. Boxes are
relative to the card, so one layout serves every card size; see ``docs/layouts.md``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen import presets
from deckgen.datafile import read_toml
from deckgen.errors import Collector, DeckgenError, did_you_mean, error
from deckgen.render.limits import check_layout

if TYPE_CHECKING:
    from deckgen.model import Deck
    from deckgen.render.geometry import Frame

# Every element type, what it draws, and the keys it accepts beyond the common ones.
FACE_TYPES = {
    "background": "the card's colour field, bleed included",
    "frame": "the shape the art and the centre sit in (the UNO oval, a panel, or none)",
    "art": "the card's illustration: in the frame, in its box, or full bleed",
    "symbol": "the big centre number, label or symbol (the Power card's check or cross)",
    "index": "the corner index with the colour's shape cue and the card's marks; twin: turned in the other corner",
    "flex": "the Flex badge with its FLEX band; twin: turned in the other corner",
    "caption": "the kind's name (Power, Flip, Duel, Colourless)",
    "rules": "the rules-text panel",
    "icons": "a row of small icons: the colour's shape cue and the kind's symbol",
    "logo": "the deck's logo (deck.logo), contained in its box",
}
BACK_TYPES = {
    "background": "the back's dark field, bleed included",
    "image": "the deck's back image (deck.back_image)",
    "pattern": "the coloured oval",
    "title": "the deck's name or back text",
    "logo": "the deck's logo (deck.logo)",
}
COMMON_KEYS = {"type", "box", "visible", "hide", "show", "font", "size", "align", "twin"}
TYPE_KEYS = {
    "background": set(),
    "frame": {"shape", "tilt", "rim", "radius"},
    "art": {"place", "fit"},
    "symbol": {"tilt", "halo"},
    "index": {"cues"},
    "flex": set(),
    "caption": {"place", "style", "lines"},
    "rules": {"avoid", "gap", "panel"},
    "icons": {"avoid"},
    "image": set(),
    "pattern": {"tilt", "rim", "shape", "radius"},
    "title": {"tilt"},
    "logo": set(),
}
BOX_KEYS = ("left", "right", "top", "bottom", "width", "height", "cx", "cy")
SHAPES = ("oval", "rounded", "none")
ART_PLACES = ("frame", "box", "bleed")
CAPTION_PLACES = ("frame", "box")
CAPTION_STYLES = ("auto", "plain", "outlined")
ALIGNS = ("center", "left", "right")
FONT_ROLES = ("display", "text")
LAYOUT_KEYS = {"name", "description", "for"}
LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(%|mm|u)?\s*$")


@dataclass(frozen=True)
class Length:
    """A length in a layout: ``u`` (1/100 of the card's trim width), ``%`` (of the safe box along
    that axis) or ``mm``."""

    value: float
    unit: str = "u"

    def px(self, frame: Frame, span: float) -> float:
        if self.unit == "%":
            return span * self.value / 100.0
        if self.unit == "mm":
            return self.value * frame.dpi / 25.4
        return frame.unit() * self.value


@dataclass(frozen=True)
class Box:
    """Where an element sits: distances from the safe box's edges, a size, or an offset of its
    centre from the safe box's centre (``cx``, ``cy``: positive is right / down)."""

    left: Length | None = None
    right: Length | None = None
    top: Length | None = None
    bottom: Length | None = None
    width: Length | None = None
    height: Length | None = None
    cx: Length | None = None
    cy: Length | None = None

    def resolve(self, frame: Frame, raw: bool = False) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in image pixels. A box that works out narrower or lower than nothing
        (``left`` and ``right`` past each other, a negative ``height``) has no area: its far edges
        come back onto its near ones (``raw``: as worked out, for the audit's message)."""
        l, t, r, b = frame.safe_box
        x0, x1 = _axis(frame, l, r, self.left, self.right, self.width, self.cx)
        y0, y1 = _axis(frame, t, b, self.top, self.bottom, self.height, self.cy)
        return (x0, y0, x1, y1) if raw else (x0, y0, max(x0, x1), max(y0, y1))


def _axis(frame: Frame, lo: float, hi: float, near: Length | None, far: Length | None, size: Length | None,
          centre: Length | None) -> tuple[float, float]:
    span = hi - lo
    if size is None:
        return lo + (near.px(frame, span) if near else 0.0), hi - (far.px(frame, span) if far else 0.0)
    s = size.px(frame, span)
    if near is not None:
        a = lo + near.px(frame, span)
        return a, a + s
    if far is not None:
        z = hi - far.px(frame, span)
        return z - s, z
    c = (lo + hi) / 2 + (centre.px(frame, span) if centre else 0.0)
    return c - s / 2, c + s / 2


FULL = Box()


@dataclass(frozen=True)
class Element:
    name: str
    type: str
    box: Box = FULL
    visible: bool = True
    # kind ids or tags the element is hidden on / (when given) only shown on; sorted tuples, so
    # that the repr (part of every face's cache key) is the same in every process
    hide: tuple[str, ...] = ()
    show: tuple[str, ...] = ()
    font: str = "display"
    size: tuple[float, float] | None = None   # (min pt, max pt) of its text
    align: str = "center"
    twin: bool = False
    options: tuple[tuple[str, Any], ...] = ()

    def opt(self, key: str, default: Any = None) -> Any:
        for k, v in self.options:
            if k == key:
                return v
        return default

    def shown(self, tags: Iterable[str]) -> bool:
        tags = set(tags)
        if not self.visible or tags.intersection(self.hide):
            return False
        return not self.show or bool(tags.intersection(self.show))


@dataclass(frozen=True)
class Layout:
    id: str
    name: str
    description: str
    target: str                      # "face" or "back"
    elements: tuple[Element, ...] = field(default=())

    def element(self, type_: str) -> Element | None:
        return next((e for e in self.elements if e.type == type_), None)

    def __str__(self) -> str:        # a line for ``deckgen list``
        return f"{self.target:<4} {self.name}: {self.description}"


def _length(value: Any, where: str, out: Collector) -> Length | None:
    if isinstance(value, bool):
        value = None
    if isinstance(value, int | float):
        return Length(float(value))
    m = LENGTH.match(value) if isinstance(value, str) else None
    if not m:
        out.error("value", where, f"expected a length, got {value!r}",
                  hint='a number (1/100 of the card width), "40%" (of the safe box) or "5mm"')
        return None
    return Length(float(m.group(1)), m.group(2) or "u")


def _box(raw: Any, where: str, out: Collector) -> Box:
    if not isinstance(raw, dict):
        out.error("type", where, "expected a table such as { left = 0, top = 0, width = 20, height = 17 }")
        return FULL
    parts: dict[str, Length | None] = {}
    for key, value in raw.items():
        if key not in BOX_KEYS:
            out.error("unknown-key", f"{where}.{key}", f"unknown box key '{key}'",
                      hint=did_you_mean(key, BOX_KEYS) or "box keys: " + ", ".join(BOX_KEYS))
            continue
        parts[key] = _length(value, f"{where}.{key}", out)
    for near, far, size, centre in (("left", "right", "width", "cx"), ("top", "bottom", "height", "cy")):
        given = [k for k in (near, far, size) if k in parts]
        if len(given) == 3 or (centre in parts and (near in parts or far in parts)):
            out.error("box", where, f"too many of {near}, {far}, {size}, {centre}",
                      hint=f"give {near} and {far}, or {size} with one of {near}, {far} or {centre}")
    return Box(**parts)


def _strings(raw: Any, where: str, out: Collector) -> tuple[str, ...]:
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        out.error("type", where, "expected a list of kind ids or categories", hint='e.g. ["wild", "number"]')
        return ()
    return tuple(sorted(set(raw)))


def _choice(value: Any, where: str, choices: tuple[str, ...], out: Collector) -> str | None:
    if value in choices:
        return str(value)
    out.error("value", where, f"unknown value {value!r}",
              hint=did_you_mean(str(value), choices) or "expected one of: " + ", ".join(choices))
    return None


MAX_CAPTION_LINES = 4     # a caption's `lines`: the most lines a long name is broken into
CHOICES = {"shape": SHAPES, "place": ART_PLACES, "style": CAPTION_STYLES, "fit": ("cover", "contain")}
NUMBERS = {"tilt": (-90.0, 90.0), "rim": (0.0, 20.0), "radius": (0.0, 50.0), "gap": (0.0, 50.0),
           "halo": (1.0, 10.0), "lines": (1, MAX_CAPTION_LINES)}


@dataclass
class _Parts:
    """What an element table's keys give as they are read: Element fields, and its options."""

    kw: dict[str, Any] = field(default_factory=dict)
    options: list[tuple[str, Any]] = field(default_factory=list)


def _element_key(key: str, value: Any, at: str, parts: _Parts, out: Collector) -> None:
    """One accepted key of an element table, checked and added to ``parts`` (or an error in ``out``)."""
    if key == "box":
        parts.kw["box"] = _box(value, at, out)
    elif key in ("visible", "twin", "cues", "panel"):
        if not isinstance(value, bool):
            out.error("type", at, "expected true or false")
        elif key in ("visible", "twin"):
            parts.kw[key] = value
        else:
            parts.options.append((key, value))
    elif key in ("hide", "show", "avoid"):
        names = _strings(value, at, out)
        if key == "avoid":
            parts.options.append((key, names))
        else:
            parts.kw[key] = names
    elif key in ("font", "align"):
        parts.kw[key] = _choice(value, at, FONT_ROLES if key == "font" else ALIGNS, out) or (
            "display" if key == "font" else "center")
    elif key == "size":
        size = _size(value, at, out)
        if size is not None:
            parts.kw["size"] = size
    else:
        _option(key, value, at, parts, out)


def _size(value: Any, at: str, out: Collector) -> tuple[float, float] | None:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
            or not 2 <= value[0] <= value[1] <= 400):
        out.error("value", at, f"expected [smallest, largest] in points, got {value!r}", hint="e.g. [6, 9]")
        return None
    return float(value[0]), float(value[1])


def _option(key: str, value: Any, at: str, parts: _Parts, out: Collector) -> None:
    """A choice (``shape``, ``place`` ...) or a number (``tilt``, ``rim`` ...) in its range."""
    if key in CHOICES:
        choice = _choice(value, at, CHOICES[key], out)
        if choice:
            parts.options.append((key, choice))
    elif key in NUMBERS:
        lo, hi = NUMBERS[key]
        if not isinstance(value, int | float) or isinstance(value, bool) or not lo <= value <= hi:
            out.error("value", at, f"expected a number from {lo:g} to {hi:g}, got {value!r}")
        else:
            parts.options.append((key, value))


def _element(name: str, raw: Any, target: str, out: Collector) -> Element | None:
    where = f"elements.{name}"
    if not isinstance(raw, dict):
        out.error("type", where, "expected a table")
        return None
    types = FACE_TYPES if target == "face" else BACK_TYPES
    kind = raw.get("type", name)
    if kind not in types:
        out.error("value", f"{where}.type" if "type" in raw else where, f"unknown element type '{kind}'",
                  hint=did_you_mean(str(kind), types) or "types: " + ", ".join(types))
        return None
    allowed = COMMON_KEYS | TYPE_KEYS[kind]
    parts = _Parts()
    for key, value in raw.items():
        at = f"{where}.{key}"
        if key not in allowed:
            out.error("unknown-key", at, f"unknown key '{key}' for a {kind} element",
                      hint=did_you_mean(key, allowed) or "accepted keys: " + ", ".join(sorted(allowed)))
        else:
            _element_key(key, value, at, parts, out)
    kw, options = parts.kw, parts.options
    if kind in ("index", "flex") and "twin" not in raw:
        kw["twin"] = True
    return Element(name, kind, options=tuple(options), **kw)


def parse_layout(path: str) -> list[tuple[str, Layout]]:
    """One layout file -> [(name, Layout)]; DeckgenError listing every problem."""
    data = read_toml(Path(path))
    check_layout(data, path)         # lengths in range, at most MAX_ELEMENTS elements (deckgen/render/limits.py)
    out = Collector(path)
    lid = Path(path).stem
    head = data.get("layout")
    if not isinstance(head, dict):
        raise DeckgenError(error("layout", "layout", "expected a [layout] table with a name",
                                 file=path, hint='[layout]\nname = "My look"'))
    for key in sorted(set(head) - LAYOUT_KEYS):
        out.error("unknown-key", f"layout.{key}", f"unknown key '{key}'",
                  hint=did_you_mean(key, LAYOUT_KEYS) or "accepted keys: " + ", ".join(sorted(LAYOUT_KEYS)))
    for key in sorted(set(data) - {"layout", "elements"}):
        out.error("unknown-key", key, f"unknown table '{key}'", hint="a layout has [layout] and [elements.<name>]")
    target = head.get("for", "face")
    if target not in ("face", "back"):
        out.error("value", "layout.for", f"unknown value {target!r}", hint="face or back")
        target = "face"
    name = head.get("name")
    if not isinstance(name, str) or not name.strip():
        out.error("missing", "layout.name", "a layout needs a name", hint='name = "My look"')
        name = lid
    raw = data.get("elements")
    elements: list[Element] = []
    if not isinstance(raw, dict) or not raw:
        out.error("missing", "elements", "a layout needs at least one [elements.<name>] table")
    else:
        for ename, table in raw.items():
            el = _element(ename, table, target, out)
            if el is not None:
                elements.append(el)
    if out.errors:
        raise DeckgenError(out.errors)
    desc = head.get("description", "")
    return [(lid, Layout(lid, name, desc if isinstance(desc, str) else "", target, tuple(elements)))]


LAYOUTS: presets.PresetFile[Layout] = presets.PresetFile("layout", "layouts", parse_layout, folder=True)

DEFAULT_FACE = "uno"
DEFAULT_BACK = "uno-back"


def catalogue(base: Path | None = None) -> presets.Catalogue[Layout]:
    return presets.catalogue(LAYOUTS, base)


def _stamp(base: Path | None) -> tuple[tuple[str, int, int], ...]:
    """What the layout catalogue depends on: every layout file's path, time and size."""
    out: list[tuple[str, int, int]] = []
    for _, folder in presets.search_dirs(base):
        out.extend(_file_stamp(p) for p in LAYOUTS.files(folder))
    return tuple(out)


def _file_stamp(path: Path) -> tuple[str, int, int]:
    try:
        st = path.stat()
    except OSError:
        return str(path), 0, 0
    return str(path), st.st_mtime_ns, st.st_size


@functools.lru_cache(maxsize=16)
def _layouts(base: str | None, stamp: tuple[tuple[str, int, int], ...]) -> dict[str, Layout]:
    return catalogue(Path(base) if base else None).values()


def layouts(base: Path | None = None) -> dict[str, Layout]:
    """Every layout by name (bundled, user and beside the manifest), cached while no file changes."""
    return _layouts(str(base) if base else None, _stamp(base))


def get_layout(name: str | None, base: Path | None = None, target: str = "face") -> Layout:
    """A layout by name (None: the bundled default). Raises DeckgenError with a suggestion."""
    name = name or (DEFAULT_FACE if target == "face" else DEFAULT_BACK)
    found = layouts(base)
    if name in found and found[name].target == target:
        return found[name]
    names = [n for n, lay in found.items() if lay.target == target]
    raise DeckgenError(error("layout", "layout", f"no {target} layout named '{name}'",
                             hint=did_you_mean(name, names) or "layouts: " + ", ".join(names)))


def layout_files(deck: Deck) -> list[Path]:
    """The layout files of the user's and the deck's own that its faces and back are drawn from,
    and the ``layouts/`` folders of the user and of the deck (where a new file can replace a
    bundled layout): what ``--watch`` watches besides :func:`deckgen.inputs.deck_files`."""
    base = deck.source.parent if deck.source else None
    cat = catalogue(base)
    used = {deck.layout or DEFAULT_FACE, deck.back_layout or DEFAULT_BACK}
    used |= {k.layout for k in deck.kinds.values() if k.layout} | {c.layout for c in deck.cards if c.layout}
    out = [cat.entries[name].file.resolve() for name in sorted(used)
           if name in cat and cat.entries[name].origin != presets.BUNDLED]
    for origin, folder in presets.search_dirs(base):
        sub = folder / LAYOUTS.filename
        if origin != presets.BUNDLED and sub.is_dir():
            out.append(sub.resolve())
    return list(dict.fromkeys(out))
