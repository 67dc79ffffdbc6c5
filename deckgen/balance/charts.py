"""The report's charts as ReportLab vector drawings, built from the report's figures.

Every chart function takes the report (:class:`deckgen.balance.figures.Report`) and returns
:class:`reportlab.graphics.shapes.Drawing` objects that Platypus places like any flowable.
Variants share axes and colours everywhere: variant A (the deck as written) is always blue.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Polygon, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from deckgen.balance import text as T
from deckgen.balance.collect import EVENTS, nice_step

if TYPE_CHECKING:
    from deckgen.balance.figures import Group as Figures
    from deckgen.balance.figures import PooledKind, Report

Color = Any        # a reportlab.lib.colors.Color (ReportLab has no type hints)

FONT = "DeckgenSans"
BOLD = "DeckgenSans-Bold"
INK = colors.HexColor("#1F2430")
MUTED = colors.HexColor("#5B6270")
GRID = colors.HexColor("#E3E6EB")
AXIS = colors.HexColor("#9AA1AC")
CAP = colors.HexColor("#C62828")
PILE = colors.HexColor("#7A828E")
# Okabe-Ito: told apart in every common colour-vision deficiency
VARIANT_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
CAUSE_COLORS = {"no_play": "#A7AFBA", "stack": "#6A1B1B", "everyone": "#8E5CC2", "duel": "#1565C0",
                "challenge": "#00897B", "uno": "#AFB42B", "roulette": "#EC407A"}
PENALTY_COLORS = ["#E53935", "#FB8C00", "#FDD835", "#8D6E63", "#F4511E", "#FFB300", "#5D4037", "#D81B60",
                  "#FF7043", "#BCAAA4"]
EVENT_COLORS = {"capped": "#C62828", "stalled": "#6A1B9A", "dry": "#EF6C00", "knockout": "#455A64"}

WIDTH = 504.0            # the text width of the report's pages (A4 less 16 mm margins), in points
TICK = 6.5               # tick label size
LABEL = 7.5


def vcolor(i: int) -> Color:
    return colors.HexColor(VARIANT_COLORS[i % len(VARIANT_COLORS)])


def cause_color(key: str, causes: Sequence[str]) -> Color:
    if key.startswith("penalty:"):
        pens = [c for c in causes if c.startswith("penalty:")]
        return colors.HexColor(PENALTY_COLORS[pens.index(key) % len(PENALTY_COLORS)])
    return colors.HexColor(CAUSE_COLORS.get(key, "#777777"))


def ticks(lo: float, hi: float, parts: int = 4) -> list[float]:
    """Round tick values from lo up to at least hi."""
    step = nice_step(hi - lo, parts) if hi - lo >= parts else _small_step(hi - lo, parts)
    first = math.floor(lo / step) * step
    out = []
    v = first
    while v < hi + step * 0.999:
        out.append(round(v, 10))
        v += step
        if out[-1] >= hi:
            break
    return out


def _small_step(span: float, parts: int) -> float:
    if span <= 0:
        return 1.0
    raw = span / parts
    mag: float = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)


def label(v: float, lang: str) -> str:
    return T.num(v, lang, 0 if float(v).is_integer() else 1 if abs(v) >= 1 else 2)


def _s(x: float, y: float, text: str, size: float = TICK, color: Color = MUTED, anchor: str = "start",
       bold: bool = False) -> String:
    return String(x, y, text, fontName=BOLD if bold else FONT, fontSize=size, fillColor=color, textAnchor=anchor)


def _width(text: str, size: float, bold: bool = False) -> float:
    width: float = stringWidth(text, BOLD if bold else FONT, size)
    return width


class Frame:
    """A plot area: data (x0..x1, y0..y1) onto the rectangle (left, bottom, w, h)."""

    def __init__(self, left: float, bottom: float, w: float, h: float, xs: tuple[float, float],
                 ys: tuple[float, float]):
        (x0, x1), (y0, y1) = xs, ys
        self.left, self.bottom, self.w, self.h = left, bottom, w, h
        self.x0, self.x1, self.y0, self.y1 = x0, x1 if x1 > x0 else x0 + 1, y0, y1 if y1 > y0 else y0 + 1

    def x(self, v: float) -> float:
        return self.left + (v - self.x0) / (self.x1 - self.x0) * self.w

    def y(self, v: float) -> float:
        return self.bottom + (v - self.y0) / (self.y1 - self.y0) * self.h

    def yaxis(self, g: Group, values: Sequence[float], fmt: Callable[[float], str], right: bool = False,
              color: Color = MUTED, grid: bool = True) -> None:
        for v in values:
            y = self.y(v)
            if grid and not right:
                g.add(Line(self.left, y, self.left + self.w, y, strokeColor=GRID, strokeWidth=0.5))
            if right:
                g.add(_s(self.left + self.w + 2.5, y - 2.2, fmt(v), color=color))
            else:
                g.add(_s(self.left - 2.5, y - 2.2, fmt(v), anchor="end", color=color))

    def xaxis(self, g: Group, values: Sequence[float], fmt: Callable[[float], str]) -> None:
        g.add(Line(self.left, self.bottom, self.left + self.w, self.bottom, strokeColor=AXIS, strokeWidth=0.6))
        for v in values:
            x = self.x(v)
            g.add(Line(x, self.bottom, x, self.bottom - 2, strokeColor=AXIS, strokeWidth=0.6))
            g.add(_s(x, self.bottom - 9, fmt(v), anchor="middle"))


def legend(items: Sequence[tuple[str, Callable[[float, float], Group]]], width: float, size: float = LABEL) -> Drawing:
    """A one- or more-line legend: (text, swatch maker) pairs flowed left to right."""
    g = Group()
    x, y, line_h = 0.0, 0.0, size + 5
    rows = 1
    for text, swatch in items:
        w = 14 + _width(text, size) + 12
        if x + w > width and x > 0:
            x, y, rows = 0.0, y - line_h, rows + 1
        g.add(swatch(x, y))
        g.add(_s(x + 14, y, text, size=size, color=INK))
        x += w
    d = Drawing(width, rows * line_h + 2)
    g.translate(0, (rows - 1) * line_h + 3)
    d.add(g)
    return d


def box(color: Color, stroke: Color = None) -> Callable[[float, float], Group]:
    def make(x: float, y: float) -> Group:
        g = Group()
        g.add(Rect(x, y - 1, 10, 7, fillColor=color, strokeColor=stroke, strokeWidth=0.8 if stroke else 0))
        return g
    return make


def stroke(color: Color, dash: Sequence[float] | None = None, width: float = 1.4) -> Callable[[float, float], Group]:
    def make(x: float, y: float) -> Group:
        g = Group()
        g.add(Line(x, y + 2.5, x + 11, y + 2.5, strokeColor=color, strokeWidth=width, strokeDashArray=dash))
        return g
    return make


def dot(color: Color, r: float = 3) -> Callable[[float, float], Group]:
    def make(x: float, y: float) -> Group:
        g = Group()
        g.add(Circle(x + 5, y + 2.5, r, fillColor=color, strokeColor=None))
        return g
    return make


def variant_legend(rep: Report, width: float = WIDTH) -> Drawing | None:
    vs = rep["variants"]
    if len(vs) < 2:
        return None
    return legend([(f"{v['id']}: {v['label']}", box(vcolor(i))) for i, v in enumerate(vs)], width)


def _significant(rep: Report, agent: str) -> set[tuple[str, int, str]]:
    """(variant, table size, test) of the differences from variant A that are significant."""
    return {(t["variant"], t["players"], t["test"]) for t in rep["tests"] if t["agent"] == agent and t["significant"]}


def _groups(rep: Report, agent: str) -> dict[tuple[str, int], Figures]:
    return {(g["variant"], g["players"]): g for g in rep["groups"] if g["agent"] == agent}


def _grid(cells: Sequence[Callable[[Group, float, float], None]], cols: int, cell_w: float, cell_h: float) -> Drawing:
    rows = math.ceil(len(cells) / cols)
    d = Drawing(cols * cell_w, rows * cell_h)
    for i, draw in enumerate(cells):
        g = Group()
        draw(g, cell_w, cell_h)
        g.translate((i % cols) * cell_w, (rows - 1 - i // cols) * cell_h)
        d.add(g)
    return d


def grids(rep: Report, cell: Callable[[Group, float, float, int], None], per_page: int = 9, cols: int = 3,
          cell_h: float = 192.0) -> list[Drawing]:
    """Small multiples, one cell per table size, at most ``per_page`` cells per drawing."""
    sizes = rep["players"]
    out = []
    for start in range(0, len(sizes), per_page):
        chunk = sizes[start:start + per_page]
        makers: list[Callable[[Group, float, float], None]] = [functools.partial(_call, cell, n) for n in chunk]
        out.append(_grid(makers, cols, WIDTH / cols, cell_h))
    return out


def _call(cell: Callable[[Group, float, float, int], None], n: int, g: Group, w: float, h: float) -> None:
    cell(g, w, h, n)


# ---------------------------------------------------------------- game length

def length_charts(rep: Report, agent: str) -> list[Drawing]:
    """Histogram of turns per table size; median (solid) and 90th percentile (dashed) marked,
    capped games in a red column on the right."""
    lang = rep["lang"]
    groups = _groups(rep, agent)
    sig = _significant(rep, agent)
    vs = rep["variants"]
    many = len(vs) > 1

    def cell(g: Group, w: float, h: float, n: int) -> None:
        gs = [groups[(v["id"], n)] for v in vs]
        hist = gs[0]["turns"]["histogram"]
        edges = hist["edges"]
        ymax = max([max(x["turns"]["histogram"]["counts"] + [x["capped"]]) for x in gs] + [1])
        yt = ticks(0, ymax, 4)
        lines = len(vs) if many else 1
        top = h - 18 - lines * 8.5
        cap_w = 14.0
        f = Frame(24, 24, w - 24 - 10 - cap_w - 6, top - 24 - 4, (edges[0], edges[-1]), (0, yt[-1]))
        g.add(_s(2, h - 11, T.w(lang, "players_n", n=n), size=8.5, color=INK, bold=True))
        f.yaxis(g, yt, lambda v: label(v, lang))
        xt = [v for v in ticks(edges[0], edges[-1], 3) if v <= edges[-1]]
        xt = [v for v in xt if f.x(v) + _width(label(v, lang), TICK) / 2 < f.left + f.w + 4]
        f.xaxis(g, xt, lambda v: label(v, lang))
        g.add(_s(f.left + f.w, 4, T.w(lang, "turns"), anchor="end"))
        cap_left = f.left + f.w + 6
        g.add(Line(cap_left, f.bottom, cap_left + cap_w, f.bottom, strokeColor=AXIS, strokeWidth=0.6))
        g.add(_s(cap_left + cap_w / 2, f.bottom - 9, T.w(lang, "cap"), anchor="middle", color=CAP))
        for i, x in enumerate(gs):
            col = vcolor(i)
            counts = x["turns"]["histogram"]["counts"]
            if not many:
                for b, c in enumerate(counts):
                    if c:
                        g.add(Rect(f.x(edges[b]) + 0.3, f.y(0), f.x(edges[b + 1]) - f.x(edges[b]) - 0.6,
                                   f.y(c) - f.y(0), fillColor=col, fillOpacity=0.85, strokeColor=None))
            else:
                pts: list[float] = []
                for b, c in enumerate(counts):
                    pts += [f.x(edges[b]), f.y(c), f.x(edges[b + 1]), f.y(c)]
                pts = [f.x(edges[0]), f.y(0), *pts, f.x(edges[-1]), f.y(0)]
                g.add(PolyLine(pts, strokeColor=col, strokeWidth=1.1))
            bw = cap_w / len(gs)
            if x["capped"]:
                g.add(Rect(cap_left + i * bw + 0.5, f.y(0), bw - 1, f.y(x["capped"]) - f.y(0),
                           fillColor=CAP if not many else col, strokeColor=CAP, strokeWidth=0.8 if many else 0))
            t = x["turns"]
            for value, dash in ((t["median"], None), (t["p90"], [2.5, 1.8])):
                if value <= edges[-1] and (value < gs[i]["turns"]["turn_cap"]):
                    xv = f.x(value)
                    g.add(Line(xv, f.bottom, xv, f.bottom + f.h, strokeColor=INK if not many else col,
                               strokeWidth=1.1, strokeDashArray=dash))
            prefix = f"{vs[i]['id']}: " if many else ""
            marks = (("*" if (vs[i]["id"], n, "turns") in sig else ""), ("*" if (vs[i]["id"], n, "capped") in sig else ""))
            g.add(_s(2, h - 21 - i * 8.5, prefix + _turn_line(x, lang, marks), color=col if many else MUTED))

    return grids(rep, cell)


def _turn_line(g: Figures, lang: str, marks: tuple[str, str] = ("", "")) -> str:
    t = g["turns"]
    text = f"{T.w(lang, 'median')} {label(t['median'], lang)}{marks[0]} · p90 {label(t['p90'], lang)}"
    return text + f" · {T.w(lang, 'capped_games')} {g['capped']}{marks[1]}"


def length_legend(rep: Report) -> Drawing:
    lang = rep["lang"]
    many = len(rep["variants"]) > 1
    return legend([(T.w(lang, "median"), stroke(INK)), (T.w(lang, "p90"), stroke(INK, [2.5, 1.8])),
                   (T.w(lang, "capped_games") + f" ({T.w(lang, 'cap')})", box(CAP if not many else colors.white, CAP))],
                  WIDTH)


# ---------------------------------------------------------------- draws by cause

def draw_chart(rep: Report, agent: str, height: float = 250.0) -> Drawing:
    """Stacked bars: cards drawn per game by cause, per table size (variants side by side)."""
    lang = rep["lang"]
    groups = _groups(rep, agent)
    sig = _significant(rep, agent)
    vs = rep["variants"]
    causes = list(rep["causes"])
    sizes = rep["players"]
    legend_w = 150.0
    d = Drawing(WIDTH, height)
    ymax = max([groups[(v["id"], n)]["draws"]["per_game"] for v in vs for n in sizes] + [1])
    yt = ticks(0, ymax, 5)
    many = len(vs) > 1
    f = Frame(40, 30 if many else 22, WIDTH - legend_w - 50, height - 44, (0, len(sizes)), (0, yt[-1]))
    g = Group()
    f.yaxis(g, yt, lambda v: label(v, lang))
    g.add(Line(f.left, f.bottom, f.left + f.w, f.bottom, strokeColor=AXIS, strokeWidth=0.6))
    slot = f.w / len(sizes)
    bar = min(28.0, slot * 0.8 / len(vs))
    for j, n in enumerate(sizes):
        cx = f.left + (j + 0.5) * slot
        start = cx - bar * len(vs) / 2
        for i, v in enumerate(vs):
            x0 = start + i * bar
            y = 0.0
            by = groups[(v["id"], n)]["draws"]["by_cause"]
            for c in causes:
                val = by.get(c, 0.0)
                if val <= 0:
                    continue
                g.add(Rect(x0 + 0.4, f.y(y), bar - 0.8, f.y(y + val) - f.y(y), fillColor=cause_color(c, causes),
                           strokeColor=colors.white, strokeWidth=0.3))
                y += val
            if many:
                star = "*" if (v["id"], n, "draws") in sig else ""
                g.add(_s(x0 + bar / 2, f.bottom - 8, v["id"] + star, anchor="middle", color=vcolor(i), bold=True))
        g.add(_s(cx, f.bottom - (17 if many else 9), str(n), anchor="middle", size=LABEL, color=INK))
    g.add(_s(f.left + f.w, 2, T.w(lang, "players"), anchor="end"))
    g.add(String(12, f.bottom + f.h / 2, T.w(lang, "cards_per_game"), fontName=FONT, fontSize=TICK,
                 fillColor=MUTED, textAnchor="middle"))
    g.contents[-1] = _rotated(g.contents[-1], 12, f.bottom + f.h / 2)
    title = T.agent(lang, agent, capital=True)
    g.add(_s(0, height - 9, title, size=9, color=INK, bold=True))
    # legend: causes top to bottom in stacking order reversed (top of the bar first)
    lx = WIDTH - legend_w + 6
    ly = f.bottom + f.h - 8
    for c in reversed(causes):
        g.add(Rect(lx, ly - 1, 9, 7, fillColor=cause_color(c, causes), strokeColor=None))
        g.add(_s(lx + 13, ly, _fit(rep["causes"][c], legend_w - 20, LABEL), size=LABEL, color=INK))
        ly -= 11
    d.add(g)
    return d


def _rotated(s: String, x: float, y: float) -> Group:
    g = Group(String(0, 0, s.text, fontName=s.fontName, fontSize=s.fontSize, fillColor=s.fillColor,
                     textAnchor="middle"))
    g.transform = (0, 1, -1, 0, x, y)
    return g


def _fit(text: str, width: float, size: float) -> str:
    if _width(text, size) <= width:
        return text
    while text and _width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


# ---------------------------------------------------------------- hand size

def hand_charts(rep: Report, agent: str) -> list[Drawing]:
    """Median hand and its 10-90 % band along the game, with the draw pile on a right-hand scale."""
    lang = rep["lang"]
    groups = _groups(rep, agent)
    vs = rep["variants"]
    many = len(vs) > 1

    def cell(g: Group, w: float, h: float, n: int) -> None:
        gs = [groups[(v["id"], n)] for v in vs]
        pts = [x["hands"]["points"] for x in gs]
        xmax = max([p[-1]["turn"] for p in pts if p] + [1])
        hmax = max([q["p90"] for p in pts for q in p] + [1])
        pmax = max([q["draw_pile"] for p in pts for q in p] + [1])
        ht, pt = ticks(0, hmax * 1.08, 4), ticks(0, pmax * 1.05, 4)
        f = Frame(24, 24, w - 24 - 26, h - 24 - 30, (0, xmax), (0, ht[-1]))
        fp = Frame(24, 24, w - 24 - 26, h - 24 - 30, (0, xmax), (0, pt[-1]))
        g.add(_s(2, h - 11, T.w(lang, "players_n", n=n), size=8.5, color=INK, bold=True))
        f.yaxis(g, ht, lambda v: label(v, lang))
        fp.yaxis(g, pt, lambda v: label(v, lang), right=True, color=PILE, grid=False)
        g.add(_s(f.left - 2.5, f.bottom + f.h + 5, T.w(lang, "hand"), anchor="start", color=vcolor(0)))
        g.add(_s(f.left + f.w + 8, f.bottom + f.h + 5, T.w(lang, "draw_pile"), anchor="end", color=PILE))
        f.xaxis(g, [v for v in ticks(0, xmax, 3) if v <= xmax], lambda v: label(v, lang))
        g.add(_s(f.left + f.w, 4, T.w(lang, "turns"), anchor="end"))
        for i, p in enumerate(pts):
            if not p:
                continue
            col = vcolor(i)
            band = [f.x(q["turn"]) for q in p]
            poly = [c for q, x in zip(p, band) for c in (x, f.y(q["p90"]))]
            poly += [c for q, x in reversed(list(zip(p, band))) for c in (x, f.y(q["p10"]))]
            if len(p) > 1:
                g.add(Polygon(poly, fillColor=col, fillOpacity=0.16 if many else 0.22, strokeColor=None))
                g.add(PolyLine([c for q in p for c in (f.x(q["turn"]), f.y(q["median"]))], strokeColor=col,
                               strokeWidth=1.3))
                g.add(PolyLine([c for q in p for c in (fp.x(q["turn"]), fp.y(q["draw_pile"]))],
                               strokeColor=col if many else PILE, strokeWidth=0.9, strokeDashArray=[3, 2]))

    return grids(rep, cell)


def hand_legend(rep: Report) -> Drawing:
    lang = rep["lang"]
    blue = vcolor(0)
    return legend([(T.w(lang, "hand") + f" ({T.w(lang, 'median')})", stroke(blue)),
                   (T.w(lang, "middle80"), box(colors.Color(blue.red, blue.green, blue.blue, 0.25))),
                   (T.w(lang, "draw_pile"), stroke(PILE, [3, 2], 0.9))], WIDTH)


# ---------------------------------------------------------------- seats

def seat_charts(rep: Report, agent: str) -> list[Drawing]:
    """Win rate by seat with 95 % Wilson intervals; the dashed line is a fair share."""
    lang = rep["lang"]
    groups = _groups(rep, agent)
    vs = rep["variants"]

    def cell(g: Group, w: float, h: float, n: int) -> None:
        gs = [groups[(v["id"], n)] for v in vs]
        top = max([s["ci"][1] for x in gs for s in x["seats"]["by_seat"]] + [1 / n])
        yt = ticks(0, min(1.0, top * 1.1), 4)
        f = Frame(28, 24, w - 28 - 10, h - 24 - 18, (0.5, n + 0.5), (0, yt[-1]))
        g.add(_s(2, h - 11, T.w(lang, "players_n", n=n), size=8.5, color=INK, bold=True))
        f.yaxis(g, yt, lambda v: T.pct(v, lang))
        f.xaxis(g, list(range(1, n + 1)), lambda v: str(int(v)))
        g.add(_s(f.left + f.w, 4, T.w(lang, "seat"), anchor="end"))
        fy = f.y(1 / n)
        g.add(Line(f.left, fy, f.left + f.w, fy, strokeColor=INK, strokeWidth=0.8, strokeDashArray=[3, 2]))
        spread = min(0.3, 0.12 * len(vs)) if len(vs) > 1 else 0.0
        for i, x in enumerate(gs):
            col = vcolor(i)
            off = -spread / 2 + (spread * i / (len(vs) - 1) if len(vs) > 1 else 0)
            if not x["seats"]["finished"]:
                continue
            for s in x["seats"]["by_seat"]:
                cx = f.x(s["seat"] + off)
                g.add(Line(cx, f.y(s["ci"][0]), cx, f.y(s["ci"][1]), strokeColor=col, strokeWidth=1.0))
                for yv in s["ci"]:
                    g.add(Line(cx - 1.8, f.y(yv), cx + 1.8, f.y(yv), strokeColor=col, strokeWidth=0.8))
                g.add(Circle(cx, f.y(s["rate"]), 2.2, fillColor=col, strokeColor=colors.white, strokeWidth=0.4))

    return grids(rep, cell)


def seat_legend(rep: Report) -> Drawing:
    lang = rep["lang"]
    return legend([(T.w(lang, "win_rate") + " (95 %)", dot(vcolor(0), 2.2)),
                   (T.w(lang, "fair"), stroke(INK, [3, 2], 0.8))], WIDTH)


# ---------------------------------------------------------------- card kinds

@dataclass(frozen=True)
class _KindRows:
    """The rows of the card-kind chart: the kinds shown, each one's pooled figures per variant
    (None where a variant has none), and where the rows and panels go."""

    kinds: list[str]
    figs: dict[str, list[PooledKind | None]]
    nv: int                        # variants
    row: float                     # row height
    bar: float                     # bar height
    y_top: float
    foot: float
    panel_w: float


class _Slot(NamedTuple):
    y: float                       # the bottom of a variant's bar in its row
    bar: float
    color: Color


def _shown(f: PooledKind | None) -> bool:
    return bool(f and (f["hands_played"] or f["played_per_game"] or f["held_per_game"]))


def kind_chart(rep: Report, agent: str) -> Drawing:
    """Per card kind: played per game, held at the end per game, win rate of hands that played it."""
    lang = rep["lang"]
    vs = rep["variants"]
    pooled = {p["variant"]: p["kinds"] for p in rep["pooled_kinds"] if p["agent"] == agent}
    figs = {k: [pooled[v["id"]].get(k) for v in vs] for k in rep["kinds"]}
    kinds = [k for k in rep["kinds"] if any(_shown(f) for f in figs[k])]
    nv = len(vs)
    bar = 5.5 if nv > 1 else 8.0
    row = max(13.0, bar * nv + 5)
    name_w = min(130.0, max(_width(rep["kinds"][k], LABEL) for k in kinds) + 8) if kinds else 60.0
    head = 30.0
    foot = 16.0
    height = head + row * len(kinds) + foot
    d = Drawing(WIDTH, height)
    g = Group()
    g.add(_s(0, height - 9, T.agent(lang, agent, capital=True), size=9, color=INK, bold=True))
    gap = 26.0
    rows = _KindRows(kinds, figs, nv, row, bar, height - head, foot, (WIDTH - name_w - 2 * gap - 8) / 3)
    for j, k in enumerate(kinds):
        y = rows.y_top - (j + 0.5) * row
        g.add(_s(name_w - 6, y - 2.5, _fit(rep["kinds"][k], name_w - 8, LABEL), size=LABEL, color=INK, anchor="end"))
        if j % 2 == 0:
            g.add(Rect(0, y - row / 2, WIDTH, row, fillColor=colors.HexColor("#F5F6F8"), strokeColor=None))
            g.contents.insert(0, g.contents.pop())
    for p, key in enumerate(("played", "held", "won")):
        left = name_w + p * (rows.panel_w + gap)
        g.add(_s(left, height - 22, T.w(lang, key), size=LABEL, color=INK, bold=True))
        _kind_panel(g, rows, key, left, lang)
    d.add(g)
    return d


def _kind_panel(g: Group, rows: _KindRows, key: str, left: float, lang: str) -> None:
    """One panel of the card-kind chart: "played" or "held" (bars per game) or "won" (win rate
    with its interval against the fair share)."""
    value = _played if key == "played" else _held

    def fmt(v: float) -> str:
        return T.pct(v, lang) if key == "won" else label(v, lang)

    if key == "won":
        won = [((f["ci"] if f else None) or [0, 0])[1] for k in rows.kinds for f in rows.figs[k]]
        xt = ticks(0, min(1.0, max([*won, 0.1]) * 1.05), 3)
    else:
        xt = ticks(0, _bar_scale([value(f) if f else 0.0 for k in rows.kinds for f in rows.figs[k]]), 3)
    foot, y_top = rows.foot, rows.y_top
    f = Frame(left, foot, rows.panel_w, y_top - foot, (0, xt[-1]), (0, 1))
    for v in xt:
        x = f.x(v)
        g.add(Line(x, foot, x, y_top, strokeColor=GRID, strokeWidth=0.5))
        g.add(_s(x, foot - 9, fmt(v), anchor="middle"))
    g.add(Line(left, foot, left, y_top, strokeColor=AXIS, strokeWidth=0.6))
    for j, k in enumerate(rows.kinds):
        yc = y_top - (j + 0.5) * rows.row
        for i, fig in enumerate(rows.figs[k]):
            if not fig:
                continue
            slot = _Slot(yc + rows.bar * rows.nv / 2 - (i + 1) * rows.bar, rows.bar, vcolor(i))
            if key == "won":
                _win_mark(g, f, fig, slot)
            else:
                _kind_bar(g, f, xt[-1], value(fig), slot, lang)


def _played(f: PooledKind) -> float:
    return f["played_per_game"]


def _held(f: PooledKind) -> float:
    return f["held_per_game"]


def _win_mark(g: Group, f: Frame, fig: PooledKind, slot: _Slot) -> None:
    ci, rate = fig["ci"], fig["win_rate"]
    if rate is None or ci is None:
        return
    yb, bar, col = slot
    cy = yb + bar / 2
    lo, hi = ci
    g.add(Line(f.x(lo), cy, f.x(hi), cy, strokeColor=col, strokeWidth=1.0))
    g.add(Line(f.x(fig["fair"]), cy - bar / 2, f.x(fig["fair"]), cy + bar / 2, strokeColor=INK, strokeWidth=0.9))
    g.add(Circle(f.x(rate), cy, 2.2, fillColor=col, strokeColor=colors.white, strokeWidth=0.4))


def _kind_bar(g: Group, f: Frame, end: float, val: float, slot: _Slot, lang: str) -> None:
    """A bar with its value; a bar beyond the scale's ``end`` is cut, its value inside."""
    if val <= 0:
        return
    yb, bar, col = slot
    left, panel_w = f.left, f.w
    text = label(round(val, 1 if val >= 1 else 2), lang)
    if val > end:
        g.add(Rect(left, yb + 0.6, panel_w, bar - 1.2, fillColor=col, strokeColor=None))
        cut = left + panel_w - 14
        g.add(Polygon([cut, yb, cut + 4, yb, cut + 7, yb + bar, cut + 3, yb + bar],
                      fillColor=colors.white, strokeColor=None))
        g.add(_s(cut - 3, yb + bar / 2 - 2, text, size=5.5, color=colors.white, anchor="end", bold=True))
    else:
        g.add(Rect(left, yb + 0.6, f.x(val) - left, bar - 1.2, fillColor=col, strokeColor=None))
        g.add(_s(f.x(val) + 2, yb + bar / 2 - 2, text, size=5.5, color=INK))


def _bar_scale(values: Sequence[float]) -> float:
    """The end of a bar panel's scale: the largest value, unless one value dwarfs the rest (the
    number cards, played far more than any action card): then the scale fits the others and
    that bar is drawn cut."""
    top = sorted(set(values), reverse=True)
    if not top:
        return 0.1
    if len(top) > 1 and top[0] > 3 * top[1] > 0:
        return top[1] * 1.25
    return max(top[0], 0.1)


# ---------------------------------------------------------------- events

def event_chart(rep: Report, agent: str) -> Drawing | None:
    """Where checker events happen: one line per table size (and variant), dots placed by turn,
    their area growing with the count; the red column on the right is the turn cap."""
    lang = rep["lang"]
    groups = _groups(rep, agent)
    vs = rep["variants"]
    sizes = rep["players"]
    if not any(groups[(v["id"], n)]["events"][e]["count"] for v in vs for n in sizes for e in EVENTS):
        return None
    nv = len(vs)
    line_h = 11.0
    block = line_h * nv + 5
    head, foot = 16.0, 22.0
    height = head + block * len(sizes) + foot
    text_w = 100.0
    left = 64.0
    cap_w = 22.0
    plot_w = WIDTH - left - text_w - cap_w - 10
    xmax = max(groups[(v["id"], n)]["turns"]["histogram"]["edges"][-1] for v in vs for n in sizes)
    f = Frame(left, foot, plot_w, height - head - foot, (0, xmax), (0, 1))
    xt = [v for v in ticks(0, xmax, 5) if f.x(v) + _width(label(v, lang), TICK) / 2 < f.left + f.w + 4]
    d = Drawing(WIDTH, height)
    g = Group()
    g.add(_s(0, height - 9, T.agent(lang, agent, capital=True), size=9, color=INK, bold=True))
    f.xaxis(g, xt, lambda v: label(v, lang))
    g.add(_s(f.left + f.w, 3, T.w(lang, "turns"), anchor="end"))
    cap_x = f.left + f.w + 10 + cap_w / 2
    g.add(Rect(cap_x - cap_w / 2, foot, cap_w, height - head - foot, fillColor=colors.HexColor("#FCEBEA"),
               strokeColor=None))
    g.add(_s(cap_x, foot - 9, T.w(lang, "cap"), anchor="middle", color=CAP))
    peak = max(max(groups[(v["id"], n)]["events"][e]["by_turn"]) for v in vs for n in sizes for e in EVENTS) or 1
    top = height - head
    for j, n in enumerate(sizes):
        yb = top - (j + 1) * block
        g.add(Line(f.left, yb + 2, WIDTH, yb + 2, strokeColor=GRID, strokeWidth=0.5))
        g.add(_s(left - (14 if nv > 1 else 6), yb + block / 2 - 2.5, T.w(lang, "players_n", n=n), size=LABEL,
                 color=INK, anchor="end"))
        for i, v in enumerate(vs):
            x = groups[(v["id"], n)]
            edges = x["turns"]["histogram"]["edges"]
            y = yb + block - 3 - (i + 0.5) * line_h
            if nv > 1:
                g.add(_s(f.left - 4, y - 2.2, v["id"], color=vcolor(i), bold=True, anchor="end"))
            notes = []
            for e_i, e in enumerate(EVENTS):
                ev = x["events"][e]
                if not ev["count"]:
                    continue
                notes.append((e, ev["games"]))
                col = colors.HexColor(EVENT_COLORS[e])
                dy = (e_i - 1.5) * 1.5
                for b, c in enumerate(ev["by_turn"]):
                    if not c:
                        continue
                    if b < len(edges) - 1:
                        cx = f.x((edges[b] + edges[b + 1]) / 2)
                    else:
                        cx = cap_x
                    r = 1.2 + 3.6 * math.sqrt(c / peak)
                    g.add(Circle(cx, y + dy, r, fillColor=col, fillOpacity=0.8, strokeColor=None))
            for e, games in notes:
                nx = WIDTH - text_w + 8 + EVENTS.index(e) * text_w / len(EVENTS)
                g.add(Circle(nx, y, 2.6, fillColor=colors.HexColor(EVENT_COLORS[e]), strokeColor=None))
                g.add(_s(nx + 4.5, y - 2.4, str(games), size=LABEL, color=INK))
    d.add(g)
    return d


def event_legend(rep: Report) -> Drawing:
    lang = rep["lang"]
    return legend([(T.w(lang, "event_" + e), dot(colors.HexColor(EVENT_COLORS[e]))) for e in EVENTS], WIDTH)


# ---------------------------------------------------------------- does skill matter?

def skill_chart(rep: Report, opponent: str, height: float = 190.0) -> Drawing:
    """The expert's win rate per table size against one kind of opponent, each variant a dot
    with its 95 % interval; a dashed mark at each table size is what luck alone gives."""
    lang = rep["lang"]
    sk = rep["skill"]
    if sk is None:
        raise ValueError("the report has no skill section (--skill-games 0)")
    vs = rep["variants"]
    sizes = sk.get("players") or rep["players"]
    groups = {(g["variant"], g["players"]): g for g in sk["groups"] if g["opponent"] == opponent}
    top = max([g["ci"][1] for g in groups.values()] + [1 / min(sizes)])
    yt = ticks(0, min(1.0, top * 1.08), 4)
    d = Drawing(WIDTH, height)
    g = Group()
    g.add(_s(0, height - 10, T.w(lang, "skill_vs", opp=T.agent(lang, opponent)), size=9, color=INK, bold=True))
    f = Frame(34, 26, WIDTH - 34 - 10, height - 26 - 22, (sizes[0] - 0.5, sizes[-1] + 0.5), (0, yt[-1]))
    f.yaxis(g, yt, lambda v: T.pct(v, lang))
    f.xaxis(g, sizes, lambda v: str(int(v)))
    g.add(_s(f.left + f.w, 6, T.w(lang, "players"), anchor="end"))
    slot = f.w / (sizes[-1] - sizes[0] + 1)
    for n in sizes:
        x, y = f.x(n), f.y(1 / n)
        g.add(Line(x - slot * 0.38, y, x + slot * 0.38, y, strokeColor=INK, strokeWidth=0.9, strokeDashArray=[3, 2]))
    spread = min(0.5, 0.14 * len(vs)) if len(vs) > 1 else 0.0
    for i, v in enumerate(vs):
        col = vcolor(i)
        off = -spread / 2 + (spread * i / (len(vs) - 1) if len(vs) > 1 else 0)
        for n in sizes:
            s = groups.get((v["id"], n))
            if s is None or not s["finished"]:
                continue
            cx = f.x(n + off)
            g.add(Line(cx, f.y(s["ci"][0]), cx, f.y(s["ci"][1]), strokeColor=col, strokeWidth=1.0))
            for yv in s["ci"]:
                g.add(Line(cx - 2, f.y(yv), cx + 2, f.y(yv), strokeColor=col, strokeWidth=0.8))
            g.add(Circle(cx, f.y(s["rate"]), 2.6, fillColor=col, strokeColor=colors.white, strokeWidth=0.4))
    d.add(g)
    return d


def skill_legend(rep: Report) -> Drawing:
    lang = rep["lang"]
    return legend([(T.w(lang, "skill_col"), dot(vcolor(0), 2.6)),
                   (T.w(lang, "skill_luck"), stroke(INK, [3, 2], 0.9))], WIDTH)
