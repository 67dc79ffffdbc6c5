"""Palette checks with a colour-science library (coloraide): can players tell the colours apart?

For every pair of colours: the CIEDE2000 distance in normal vision and under simulated
protanopia, deuteranopia and tritanopia (Brettel's method, full severity); for every colour:
the WCAG contrast of the card text the renderer prints on it (white or near-black, whichever
reads better). Pairs closer than the thresholds are named in warnings.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from typing import Any

from deckgen.errors import Finding, warning
from deckgen.model import Palette

VISIONS = ("normal", "protanopia", "deuteranopia", "tritanopia")
_FILTERS = {"protanopia": "protan", "deuteranopia": "deutan", "tritanopia": "tritan"}
NORMAL_MIN = 20.0      # CIEDE2000: below this two card colours are easy to mix up at a glance
CVD_MIN = 10.0         # under simulated colour-blind vision
OVAL_MIN = 1.4         # contrast of a colour on the white oval, where the big centre number is drawn in it
TEXT_MIN = 3.0          # WCAG AA contrast for large bold text (card indices are > 14 pt bold)
DARK = (26, 26, 26)
WHITE = (255, 255, 255)


def _hex(rgb) -> str:
    r, g, b = rgb
    return f"#{r:02X}{g:02X}{b:02X}"


@functools.lru_cache(maxsize=1024)
def _color(rgb: tuple, vision: str = "normal") -> Any:
    from coloraide import Color  # imported when a check needs it: drawing a face does not

    c = Color(_hex(rgb))
    if vision != "normal":
        c = c.filter(_FILTERS[vision], method="brettel").convert("srgb").clip()
    return c


def delta_e(a: tuple, b: tuple, vision: str = "normal") -> float:
    """CIEDE2000 distance between two sRGB colours as seen with ``vision``."""
    return float(_color(tuple(a), vision).delta_e(_color(tuple(b), vision), method="2000"))


def contrast(a: tuple, b: tuple) -> float:
    """WCAG 2.1 contrast ratio of two sRGB colours (1 to 21)."""
    return _contrast(tuple(a), tuple(b))


# The Y row of the sRGB -> XYZ (D65) matrix, as coloraide derives it from the sRGB primaries: the
# relative luminance WCAG 2.1 defines (its rounded 0.2126, 0.7152, 0.0722 are these).
_Y = (0.21263900587151024, 0.715168678767756, 0.07219231536073371)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: tuple) -> float:
    """WCAG 2.1 relative luminance of an 8-bit sRGB colour (0 black to 1 white)."""
    r, g, b = (_linear(int(v)) for v in rgb)
    return _Y[0] * r + _Y[1] * g + _Y[2] * b


@functools.lru_cache(maxsize=4096)
def _contrast(a: tuple, b: tuple) -> float:
    """The WCAG formula itself (no colour library to import for every face drawn); a test holds it
    to coloraide's ``contrast`` on random colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_ink(rgb: tuple) -> tuple:
    """The text colour the renderer prints on a field: white, or near-black where it reads better."""
    rgb = tuple(rgb)
    return WHITE if contrast(WHITE, rgb) >= contrast(DARK, rgb) * 0.55 else DARK


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    distance: float


@dataclass
class PaletteReport:
    palette: Palette
    minimum: dict[str, Pair] = field(default_factory=dict)          # vision -> closest pair
    clashes: dict[str, list[Pair]] = field(default_factory=dict)    # vision -> pairs under threshold
    text: dict[str, float] = field(default_factory=dict)            # colour id -> contrast of its card text
    oval: dict[str, float] = field(default_factory=dict)            # colour id -> contrast on the white oval
    shapes: dict[str, str | None] = field(default_factory=dict)     # colour id -> shape cue

    @property
    def passes_normal(self) -> bool:
        return not self.clashes.get("normal")

    def threshold(self, vision: str) -> float:
        return NORMAL_MIN if vision == "normal" else CVD_MIN

    def shapes_separate(self, pair: Pair) -> bool:
        sa, sb = self.shapes.get(pair.a), self.shapes.get(pair.b)
        return bool(sa and sb and sa != sb)

    def to_json(self) -> dict:
        return {
            "palette": self.palette.id,
            "minimum": {v: {"pair": [p.a, p.b], "delta_e": round(p.distance, 2)} for v, p in self.minimum.items()},
            "clashes": {v: [{"pair": [p.a, p.b], "delta_e": round(p.distance, 2)} for p in ps]
                        for v, ps in self.clashes.items()},
            "text_contrast": {k: round(v, 2) for k, v in self.text.items()},
            "oval_contrast": {k: round(v, 2) for k, v in self.oval.items()},
            "summary": self.summary(),
        }

    def summary(self) -> str:
        parts = [f"{v} {p.distance:.1f} ({p.a}/{p.b})" for v, p in self.minimum.items()]
        return "smallest CIEDE2000 distance: " + ", ".join(parts)


@functools.cache
def _library_version() -> str:
    """coloraide's version, read from its version file without importing it (for cache keys)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("coloraide")
    try:
        return Path(spec.origin).with_name("__meta__.py").read_text("utf-8") if spec and spec.origin else ""
    except OSError:
        return ""


def distances(palette: Palette) -> dict[str, list[Pair]]:
    """The CIEDE2000 distance of every pair of colours under each vision, in pair order.

    Kept in the cache under the colours and coloraide's version: a palette rarely changes, and
    computing them takes importing coloraide and building its tables (0.2-0.3 s), which would
    be most of a warm build."""
    import json

    from deckgen import cache

    cols = palette.colors
    key = cache.digest("palette-distances-1", _library_version(), *(f"{c.id}={c.hex}" for c in cols))
    data = cache.get_bytes("documents", key, "json")
    if data is not None:
        try:
            return {v: [Pair(*p) for p in pairs] for v, pairs in json.loads(data).items()}
        except (ValueError, TypeError):
            pass
    out = {vision: [Pair(a.id, b.id, delta_e(a.rgb, b.rgb, vision)) for a, b in itertools.combinations(cols, 2)]
           for vision in VISIONS}
    cache.put_bytes("documents", key, "json",
                    json.dumps({v: [[p.a, p.b, p.distance] for p in pairs] for v, pairs in out.items()}).encode())
    return out


def analyse(palette: Palette) -> PaletteReport:
    rep = PaletteReport(palette)
    cols = palette.colors
    measured = distances(palette)
    for vision in VISIONS:
        pairs = measured[vision]
        if pairs:
            rep.minimum[vision] = min(pairs, key=lambda p: p.distance)
        limit = rep.threshold(vision)
        rep.clashes[vision] = sorted((p for p in pairs if p.distance < limit), key=lambda p: p.distance)
    for c in cols:
        rep.text[c.id] = contrast(text_ink(c.rgb), c.rgb)
        rep.oval[c.id] = contrast(WHITE, c.rgb)
        rep.shapes[c.id] = c.symbol
    return rep


def findings(rep: PaletteReport, symbols_on: bool, file: str | None = None, where: str = "palette") -> list[Finding]:
    """Warnings for clashing pairs. Colour-blind clashes are only warned about when the faces
    carry no distinct shape cue for the two colours (``symbols_on`` false or shapes missing)."""
    out = []
    for p in rep.clashes.get("normal", []):
        out.append(warning("palette-clash", where,
                           f"'{p.a}' and '{p.b}' are hard to tell apart (CIEDE2000 {p.distance:.1f}, "
                           f"want at least {NORMAL_MIN:g})", file=file,
                           hint=f"move one of them further away, e.g. with --color {p.b}=#RRGGBB"))
    for vision in VISIONS[1:]:
        bad = [p for p in rep.clashes.get(vision, []) if not (symbols_on and rep.shapes_separate(p))]
        if bad:
            names = ", ".join(f"{p.a}/{p.b} ({p.distance:.1f})" for p in bad)
            if all(rep.shapes_separate(p) for p in bad):
                hint = "render with --symbols: the palette's shape cues tell them apart"
            else:
                hint = "give each colour its own 'symbol' in the palette and render with --symbols"
            out.append(warning("palette-colorblind", where,
                               f"under simulated {vision} these colours look alike: {names}", file=file, hint=hint))
    for cid, value in rep.text.items():
        if value < TEXT_MIN:
            out.append(warning("palette-text", f"{where}.{cid}",
                               f"card text on '{cid}' has contrast {value:.1f}:1 (want {TEXT_MIN:g}:1)", file=file,
                               hint="pick a darker or lighter shade"))
    for cid, value in rep.oval.items():
        if value < OVAL_MIN:
            out.append(warning("palette-pale", f"{where}.{cid}",
                               f"'{cid}' is too pale to show on the white oval (contrast {value:.2f}:1, "
                               f"want {OVAL_MIN:g}:1): the big centre number is drawn in the card's colour",
                               file=file, hint="pick a deeper shade"))
    return out


def stage_check(deck, options, report) -> list[Finding]:
    """The palette part of ``deckgen check``."""
    pal = options.palette or deck.palette
    rep = analyse(pal)
    report.sections["palette"] = rep.to_json()
    symbols_on = len(pal.colors) > 4
    return findings(rep, symbols_on, file=pal.source or (str(deck.source) if deck.source else None))
