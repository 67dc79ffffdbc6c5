"""The first pages of a cards PDF: deck name, what is inside, and how to print it.

Page 1 is in the deck's language, page 2 repeats it in English (or Spanish for an English
deck), so the sheets after it start on an odd page and duplex printing stays aligned.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib.utils import simpleSplit

from deckgen.layout.cutplan import CutPlan, cutting_steps
from deckgen.units import mm_to_pt
from deckgen.words import COVER_TEXT as TEXT

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from deckgen.layout.imposition import PagePlan

EPS = 1e-6


@dataclass(frozen=True)
class Cutting:
    """The cutting guides of a sheet: outer bleed and crop-mark length on its two pairs of edges."""

    bleed_lr: float
    bleed_tb: float
    mark_lr: float          # 0: the horizontal cut lines are printed along the cards instead
    mark_tb: float          # 0: the vertical ones
    asked: float            # the mark length asked for
    plan: CutPlan | None = None     # the order to cut in (deckgen.layout.cutplan)


@dataclass(frozen=True)
class CoverInfo:
    title: str
    cards: int
    extras: int
    sheets: int
    pages: int
    paper: str
    card_mm: tuple[float, float]
    bleed_mm: float
    duplex: str               # long | short | none | fold | fronts
    gaps: tuple[float, float]     # between columns, between rows
    inner: tuple[float, float]    # bleed each card keeps towards its neighbours: left/right, top/bottom
    cols: int
    rows: int
    landscape: bool
    forced: tuple[str, ...] = ()     # the check's error codes of a deck built with --force
    cutting: Cutting | None = None
    glued: int = 0            # two-sided cards printed on both sides with --backs none
    calibrate: str = ""       # the deckgen calibrate command for these sheets ("" if no duplex)
    registration: tuple[int, int] | None = None   # --registration silhouette: (cards per sheet, without marks)


def cover_languages(deck_lang: str) -> tuple[str, str]:
    first = deck_lang if deck_lang in TEXT else "en"
    return first, ("en" if first != "en" else "es")


def _bleed(info: CoverInfo, t: dict[str, str]) -> str:
    """The cover's bleed line: round every card, or what the block's outer edges and the cards' shared
    edges keep."""
    b, cut = info.bleed_mm, info.cutting
    lr, tb = (cut.bleed_lr, cut.bleed_tb) if cut is not None else (b, b)
    (ix, iy), (gx, gy) = info.inner, info.gaps
    if min(lr, tb, ix, iy) + EPS >= b:
        return t["bleed_full"].format(bleed=b, gap=min(gx, gy))
    outer = t["outer_same"].format(v=lr) if abs(lr - tb) < EPS else t["outer_two"].format(lr=lr, tb=tb)
    if max(gx, gy) <= EPS:
        inner = t["inner_none"]
    elif abs(gx - gy) < EPS:
        inner = t["inner_same"].format(i=ix, g=gx)
    else:
        inner = t["inner_two"].format(ix=ix, iy=iy, gx=gx, gy=gy)
    return t["bleed_mixed"].format(outer=outer, inner=inner)


def _lines(info: CoverInfo, lang: str) -> list[tuple[str, str]]:
    t = TEXT[lang]
    cards = t["cards"].format(cards=info.cards)
    if info.extras:
        cards += t["extras"].format(extras=info.extras)
    out = [("alert", t["forced"].format(codes=", ".join(info.forced))), ("gap", "")] if info.forced else []
    out += [
        ("fact", cards),
        ("fact", t["sheets"].format(sheets=info.sheets, pages=info.pages, cols=info.cols, rows=info.rows,
                                    per=info.cols * info.rows, turn=t["landscape" if info.landscape else "portrait"])),
        ("fact", t["paper"].format(paper=info.paper, duplex=t["duplex_" + info.duplex])),
        ("fact", t["size"].format(w=info.card_mm[0], h=info.card_mm[1])),
        ("fact", _bleed(info, t)),
        ("gap", ""),
        ("alert", t["actual"]),
        ("body", t["actual2"]),
        ("ruler", t["ruler"]),
        ("gap", ""),
        ("body", t[info.duplex]),
    ]
    if info.glued:
        out.append(("body", t["glued"].format(n=info.glued)))
    if info.registration is not None:
        n, was = info.registration
        fewer = t["registration_fewer"].format(n=n, was=was) if n < was else ""
        out.append(("body", t["registration"].format(fewer=fewer).strip()))
    if info.duplex in ("long", "short"):       # the offset moves duplex backs only
        out.append(("body", t["offset"]))
        if info.calibrate:
            out.append(("body", t["calibrate"].format(command=info.calibrate)))
    out.extend(_cutting(info.cutting, lang))
    return out


def _cutting(cut: Cutting | None, lang: str) -> list[tuple[str, str]]:
    """The cutting order, numbered, and where crop marks are shorter than asked."""
    if cut is None or cut.asked <= 0:
        return []
    t = TEXT[lang]
    out = []
    if cut.plan is not None:
        out.append(("body", t["cut_order"]))
        out.extend(("body", f"{i}. {step}") for i, step in enumerate(cutting_steps(cut.plan, lang), 1))
    for key, mark in (("edge_lr", cut.mark_lr), ("edge_tb", cut.mark_tb)):
        if mark > 0 and mark + EPS < cut.asked:
            out.append(("body", t["cut_short"].format(where=t[key], len=mark)))
    return out


def draw_cover(c: Canvas, info: CoverInfo, lang: str, paper_mm: tuple[float, float], margin_mm: float,
               fonts: tuple[str, str]) -> None:
    """Draw one cover page in ``lang`` on canvas ``c`` (everything inside the margin)."""
    regular, bold = fonts
    t = TEXT[lang]
    pw, ph = mm_to_pt(paper_mm[0]), mm_to_pt(paper_mm[1])
    inset = mm_to_pt(max(margin_mm, 5.0) + 15.0)
    width = pw - 2 * inset
    y = ph - inset
    y = _para(c, info.title, bold, 26, inset, y, width)
    y = _para(c, t["subtitle"], regular, 14, inset, y - 4, width)
    y -= 18
    styles = {"fact": (regular, 12), "alert": (bold, 16), "body": (regular, 11), "ruler": (regular, 11)}
    for kind, text in _lines(info, lang):
        if kind == "gap":
            y -= 14
            continue
        font, size = styles[kind]
        if kind == "ruler":
            y -= 8
            c.setLineWidth(mm_to_pt(0.3))
            c.rect(inset, y - mm_to_pt(4), mm_to_pt(50), mm_to_pt(4), stroke=1, fill=1)
            y -= mm_to_pt(4) + 8
        y = _para(c, text, font, size, inset, y, width) - 6


def _para(c: Canvas, text: str, font: str, size: float, x: float, y: float, width: float) -> float:
    c.setFont(font, size)
    for line in simpleSplit(text, font, size, width):
        y -= size * 1.25
        c.drawString(x, y, line)
    return y


def sheet_label(deck_name: str, lang: str) -> Callable[[PagePlan, int], str]:
    """The label function for card pages: deck, sheet number and side, in ``lang``."""
    t = TEXT[lang if lang in TEXT else "en"]

    def label(page: PagePlan, total: int) -> str:
        key = {"front": "label_front", "back": "label_back"}.get(page.side, "label_fold")
        return t[key].format(deck=deck_name, n=page.sheet_no, total=total)

    return label
