"""Palette checks: can players tell the colours apart?

For every pair of colours: the CIEDE2000 distance in normal vision and under simulated
protanopia, deuteranopia and tritanopia (Brettel's method, full severity); for every colour:
the WCAG contrast of the card text the renderer prints on it (white or near-black, whichever
reads better). Pairs closer than the thresholds are named in warnings. And what a CMYK press makes of them:
a colour it cannot print, two colours that print too close (:func:`print_findings`).

The colour science is coloraide's (8.x), done here step for step with its constants: the same
operations in the same order give the same floating-point numbers, and importing coloraide
(and building its tables) would be most of a check's palette time. ``tests/test_palette.py``
holds every function here to coloraide itself on random colours, to the last bit.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from deckgen.errors import Finding, warning
from deckgen.model import Palette
from deckgen.stages import StageResult

if TYPE_CHECKING:
    from deckgen.model import Deck
    from deckgen.stages import CheckOptions

Rgb = tuple[int, int, int]
Vector = tuple[float, float, float]
Matrix = tuple[Vector, Vector, Vector]

VISIONS = ("normal", "protanopia", "deuteranopia", "tritanopia")
NORMAL_MIN = 20.0      # CIEDE2000: below this two card colours are easy to mix up at a glance
CVD_MIN = 10.0         # under simulated colour-blind vision
OVAL_MIN = 1.4         # contrast of a colour on the white oval, where the big centre number is drawn in it
TEXT_MIN = 3.0          # WCAG AA contrast for large bold text (card indices are > 14 pt bold)
GAMUT_MAX = 8.0         # CIEDE2000 from a colour to what a CMYK press prints of it: past this the cards look unlike the screen
PRESS = "a CMYK press (CGATS TR 005, the coated-paper condition print shops print to)"
DARK: Rgb = (26, 26, 26)
WHITE: Rgb = (255, 255, 255)

# ---------------------------------------------------------------- colour science (coloraide's)

# Linear sRGB -> XYZ (D65), as coloraide derives it from the sRGB primaries.
_RGB_TO_XYZ: Matrix = ((0.4123907992659593, 0.357584339383878, 0.1804807884018343),
                       (0.21263900587151024, 0.715168678767756, 0.07219231536073371),
                       (0.01933081871559182, 0.11919477979462598, 0.9505321522496607))
_D65_XY = (0.31270, 0.32900)
_D65: Vector = (_D65_XY[0] / _D65_XY[1], 1.0, (1.0 - _D65_XY[0] - _D65_XY[1]) / _D65_XY[1])
_LAB_EPSILON = 216 / 24389
_LAB_KAPPA = 24389 / 27
_DE_G = 25 ** 7

# Brettel, Viénot and Mollon (1997) as coloraide's "brettel" filter: linear sRGB -> LMS (Smith and
# Pokorny), then per dichromacy two half-plane matrices (LMS -> linear sRGB, the projection
# included) and the normal of the plane that separates them.
_LRGB_TO_LMS: Matrix = ((0.178824041258, 0.4351609057000001, 0.04119349692),
                        (0.034556423182, 0.27155382458, 0.038671308360000003),
                        (0.000299565576, 0.0018430896, 0.01467086136))
_BRETTEL: dict[str, tuple[Matrix, Matrix, Vector]] = {
    "protanopia": (
        ((0.0, 4.645203550257065, -35.779576941742434),
         (0.0, 3.1614562071112173, -5.353537465326408),
         (0.0, -0.49202224438116643, 69.56547088528569)),
        ((0.0, 4.500783062899838, -32.818059625581405),
         (0.0, 3.179741536008844, -5.728500319648271),
         (0.0, -0.4913704825845725, 69.55210571887513)),
        (0.0, 0.016813516536000002, -0.344781556122)),
    "deuteranopia": (
        ((2.0757138256610466, 0.0, -21.409141476259606),
         (1.466463363392979, 0.0, 2.3317439563667293),
         (-0.22661490011149105, 0.0, 68.30654343816653)),
        ((2.124834794256137, 0.0, -23.323256212281898),
         (1.4461308480260673, 0.0, 3.124048513815847),
         (-0.2250635463221503, 0.0, 68.24609126806706)),
        (-0.016813516536000002, 0.0, 0.6551784438780001)),
    "tritanopia": (
        ((7.392856536180033, -11.148044821248138, 0.0),
         (-0.34194012421930653, 3.5501661175064, 0.0),
         (-4.2050692716448586, 10.89115898202731, 0.0)),
        ((8.0643934576311, -12.42414705871019, 0.0),
         (-0.9956078228581946, 4.7923119863996835, 0.0),
         (-0.2150297288038942, 3.3090019545637928, 0.0)),
        (0.344781556122, -0.6551784438780001, 0.0)),
}


def _times(m: Matrix, v: Sequence[float]) -> Vector:
    return (m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
            m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
            m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2])


def _root(n: float, p: float) -> float:
    return 0.0 if n == 0 else math.copysign(abs(n) ** (p ** -1), n)


def _to_linear(v: Sequence[float]) -> Vector:
    """sRGB's transfer function, inverted (mirrored on the negative axis)."""
    a, b, c = (math.copysign(((abs(i) + 0.055) / 1.055) ** 2.4, i) if abs(i) > 0.04045 else i / 12.92
               for i in v)
    return a, b, c


def _to_srgb(v: Sequence[float]) -> Vector:
    a, b, c = (math.copysign(1.055 * _root(abs(i), 2.4) - 0.055, i) if abs(i) > 0.0031308 else 12.92 * i
               for i in v)
    return a, b, c


def _lab(linear: Vector) -> Vector:
    """CIE Lab (D65 white) of a linear sRGB colour."""
    x, y, z = _times(_RGB_TO_XYZ, linear)
    fx, fy, fz = (_root(i, 3) if i > _LAB_EPSILON else (_LAB_KAPPA * i + 16) / 116
                  for i in (x / _D65[0], y / _D65[1], z / _D65[2]))
    return (116.0 * fy) - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)


def _brettel(linear: Vector, vision: str) -> Vector:
    w1, w2, sep = _BRETTEL[vision]
    lms = _times(_LRGB_TO_LMS, linear)
    side = lms[0] * sep[0] + lms[1] * sep[1] + lms[2] * sep[2]
    return _times(w2 if side > 0 else w1, lms)


@functools.lru_cache(maxsize=1024)
def _color(rgb: Rgb, vision: str = "normal") -> Vector:
    """The Lab coordinates of an 8-bit sRGB colour as seen with ``vision`` (the simulated colour
    clipped to sRGB, as coloraide's ``filter(...).convert("srgb").clip()``)."""
    linear = _to_linear([c * (1.0 / 255.0) for c in rgb])
    if vision != "normal":
        seen = _to_srgb(_brettel(linear, vision))
        linear = _to_linear([min(1.0, max(0.0, c)) for c in seen])
    return _lab(linear)


def ciede2000(lab1: Vector, lab2: Vector) -> float:
    """The CIEDE2000 colour difference of two Lab colours (kL = kC = kH = 1), written as coloraide
    writes it (Sharma, Wu and Dalal's note on the formula)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    cm = (math.sqrt(a1 ** 2 + b1 ** 2) + math.sqrt(a2 ** 2 + b2 ** 2)) / 2
    c7 = cm ** 7
    g = 0.5 * (1 - math.sqrt(c7 / (c7 + _DE_G)))
    ap1, ap2 = (1 + g) * a1, (1 + g) * a2
    cp1, cp2 = math.sqrt(ap1 ** 2 + b1 ** 2), math.sqrt(ap2 ** 2 + b2 ** 2)
    hp1, hp2 = _hue(ap1, b1), _hue(ap2, b2)
    dl, dc, hdiff = l1 - l2, cp1 - cp2, hp1 - hp2
    if cp1 * cp2 == 0.0:
        dh = 0.0
    elif abs(hdiff) <= 180.0:
        dh = hdiff
    else:
        dh = hdiff + (-360 if hdiff > 180.0 else 360)
    dh = 2 * math.sqrt(cp2 * cp1) * math.sin(math.radians(dh / 2))
    lpm, cpm, hsum = (l1 + l2) / 2, (cp1 + cp2) / 2, hp1 + hp2
    if cp1 * cp2 == 0:
        hpm = hsum
    elif abs(hp1 - hp2) > 180:
        hpm = (hsum + (360 if hsum < 360 else -360)) / 2
    else:
        hpm = hsum / 2
    t = (1 - (0.17 * math.cos(math.radians(hpm - 30))) + (0.24 * math.cos(math.radians(2 * hpm)))
         + (0.32 * math.cos(math.radians((3 * hpm) + 6))) - (0.20 * math.cos(math.radians((4 * hpm) - 63))))
    dt = 30 * math.exp(-1 * ((hpm - 275) / 25) ** 2)
    cpm7 = cpm ** 7
    rc = 2 * math.sqrt(cpm7 / (cpm7 + _DE_G))
    l_temp = (lpm - 50) ** 2
    sl = 1 + ((0.015 * l_temp) / math.sqrt(20 + l_temp))
    sc = 1 + 0.045 * cpm
    sh = 1 + 0.015 * cpm * t
    rt = -1 * math.sin(math.radians(2 * dt)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dh / sh) ** 2 + rt * (dc / sc) * (dh / sh))


def _hue(a: float, b: float) -> float:
    h = 0 if (a == 0 and b == 0) else math.atan2(b, a)
    return math.degrees(h + math.tau if h < 0.0 else h)


def _rgb(value: Sequence[int]) -> Rgb:
    r, g, b = value
    return int(r), int(g), int(b)


def delta_e(a: Sequence[int], b: Sequence[int], vision: str = "normal") -> float:
    """CIEDE2000 distance between two sRGB colours as seen with ``vision``."""
    return ciede2000(_color(_rgb(a), vision), _color(_rgb(b), vision))


def contrast(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG 2.1 contrast ratio of two sRGB colours (1 to 21)."""
    return _contrast(_rgb(a), _rgb(b))


# The Y row of the sRGB -> XYZ (D65) matrix, as coloraide derives it from the sRGB primaries: the
# relative luminance WCAG 2.1 defines (its rounded 0.2126, 0.7152, 0.0722 are these).
_Y = (0.21263900587151024, 0.715168678767756, 0.07219231536073371)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: Sequence[int]) -> float:
    """WCAG 2.1 relative luminance of an 8-bit sRGB colour (0 black to 1 white)."""
    r, g, b = (_linear(int(v)) for v in rgb)
    return _Y[0] * r + _Y[1] * g + _Y[2] * b


@functools.lru_cache(maxsize=4096)
def _contrast(a: Rgb, b: Rgb) -> float:
    """The WCAG formula itself (no colour library to import for every face drawn); a test holds it
    to coloraide's ``contrast`` on random colours."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_ink(rgb: Sequence[int]) -> Rgb:
    """The text colour the renderer prints on a field: white, or near-black where it reads better."""
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

    def to_json(self) -> dict[str, Any]:
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


def distances(palette: Palette) -> dict[str, list[Pair]]:
    """The CIEDE2000 distance of every pair of colours under each vision, in pair order."""
    cols = palette.colors
    return {vision: [Pair(a.id, b.id, delta_e(a.rgb, b.rgb, vision)) for a, b in itertools.combinations(cols, 2)]
            for vision in VISIONS}


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
    out: list[Finding] = []
    for p in rep.clashes.get("normal", []):
        out.append(warning("palette-clash", where,
                           f"'{p.a}' and '{p.b}' are hard to tell apart (CIEDE2000 {p.distance:.1f}, "
                           f"want at least {NORMAL_MIN:g})", file=file,
                           hint=f"move one of them further away, e.g. with --color {p.b}=#RRGGBB"))
    for vision in VISIONS[1:]:
        bad = [p for p in rep.clashes.get(vision, []) if not (symbols_on and rep.shapes_separate(p))]
        if bad:
            names = ", ".join(f"{p.a}/{p.b} ({p.distance:.1f})" for p in bad)
            turn_on = ("set symbols = true in the manifest's [deck] table (the faces, card sheets, print-shop and "
                       "TTS files and the play table all print the shapes; render and preview also take --symbols)")
            if all(rep.shapes_separate(p) for p in bad):
                hint = f"the palette's shape cues tell them apart, but the cards print none: {turn_on}"
            else:
                hint = f"give each colour its own 'symbol' in the palette, then {turn_on}"
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


def printed(palette: Palette) -> dict[str, tuple[Rgb, float]]:
    """Each colour as a CMYK press prints it (:func:`deckgen.icc.printed_colors`) and its
    CIEDE2000 distance from the colour on screen."""
    from deckgen.icc import printed_colors

    cols = palette.colors
    return {c.id: (rgb, delta_e(c.rgb, rgb)) for c, rgb in zip(cols, printed_colors([c.rgb for c in cols]), strict=True)}


def _hex(rgb: Sequence[int]) -> str:
    r, g, b = rgb
    return f"#{r:02X}{g:02X}{b:02X}"


def print_findings(palette: Palette, file: str | None = None, where: str = "palette") -> list[Finding]:
    """What ink on paper does to the palette: a colour a CMYK press cannot print (it comes out
    more than :data:`GAMUT_MAX` away), and two colours apart on screen that print too close to
    tell apart (under :data:`NORMAL_MIN`). Pillow's LittleCMS does the conversion, so ``check``
    keeps these findings in its cache (a warm build imports no Pillow image code)."""
    press = printed(palette)
    out: list[Finding] = []
    for c in palette.colors:
        rgb, d = press[c.id]
        if d > GAMUT_MAX:
            out.append(warning("palette-gamut", f"{where}.{c.id}",
                               f"'{c.id}' {_hex(c.rgb)} is a colour ink cannot print: on {PRESS} it comes out about "
                               f"{_hex(rgb)} (CIEDE2000 {d:.1f} away), so the cards will not look like the screen",
                               file=file, hint=f"pick a colour inside the print gamut, e.g. --color {c.id}={_hex(rgb)}"))
    for a, b in itertools.combinations(palette.colors, 2):
        d = delta_e(press[a.id][0], press[b.id][0])
        if d < NORMAL_MIN <= delta_e(a.rgb, b.rgb):
            out.append(warning("palette-print-clash", where,
                               f"'{a.id}' and '{b.id}' are told apart on screen, but printed on {PRESS} they come out "
                               f"{d:.1f} apart (CIEDE2000, want at least {NORMAL_MIN:g})", file=file,
                               hint=f"move one of them further away, in colours ink can print (--color {b.id}=#RRGGBB)"))
    return out


def stage_check(deck: Deck, options: CheckOptions) -> StageResult:
    """The palette part of ``deckgen check``: its findings and the report's palette section."""
    pal = options.palette or deck.palette
    rep = analyse(pal)
    symbols_on = len(pal.colors) > 4 if deck.symbols is None else deck.symbols      # as Deck.shape_cues
    found = findings(rep, symbols_on, file=pal.source or (str(deck.source) if deck.source else None))
    return StageResult(found, {"palette": rep})
