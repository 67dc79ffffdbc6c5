"""The rulebook PDF: title page, table of contents, headings, tables, page numbers.

ReportLab Platypus with ``invariant=1`` and fixed bookmark keys, so the same deck and
templates give a byte-identical file.

Made to be printed: the text measure holds about 75 characters a line (a narrower column on
A4/Letter, half-size pages and a smaller type for the booklet), no list item is split across
pages (a setup list stays whole), and a last page says how to print and cut the game. With
``booklet=True`` the pages are half the paper, padded to a multiple of four and imposed 2-up
on landscape sheets for saddle stitching (:mod:`deckgen.rulebook.booklet`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
)
from reportlab.platypus.tableofcontents import TableOfContents

from deckgen.errors import DeckgenError, error
from deckgen.fonts import deck_fonts, register_pdf
from deckgen.layout.printready import PrintCanvas, prepare
from deckgen.model import Deck
from deckgen.rulebook import blocks, styles
from deckgen.rulebook.blocks import Paragraph, Styles
from deckgen.rulebook.context import Recorder
from deckgen.rulebook.cover import CoverLogo, cover_logo
from deckgen.rulebook.images import LOGO_MM, showcase
from deckgen.rulebook.markup import Item, escape, parse
from deckgen.rulebook.printing import printing_items
from deckgen.rulebook.text import declared
from deckgen.rulebook.words import ui

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas
    from typing_extensions import Unpack

PAPERS = {"a4": A4, "letter": LETTER}
HALF = {"a4": (148 * mm, 210 * mm), "letter": (5.5 * 72, 8.5 * 72)}    # A5, half-letter: the booklet's pages
MARGIN = 18 * mm
MEASURE = 140 * mm        # the text column on A4/Letter: about 75 characters of 10.5 pt Vera
LOGO_DPI = 300           # the cover logo's resolution (its longer side is LOGO_MM)


class PDFBytes(bytes):
    """A PDF's bytes that also know how many pages it has (counted as it was made)."""

    pages: int

    def __new__(cls, data: bytes, pages: int) -> PDFBytes:
        made = super().__new__(cls, data)
        made.pages = pages
        return made

    def __reduce__(self) -> tuple[type[PDFBytes], tuple[bytes, int]]:   # pickled to and from worker processes with the count
        return PDFBytes, (bytes(self), self.pages)


@dataclass(frozen=True)
class Page:
    """A page's size, margins and type scale."""

    size: tuple[float, float]
    side: float           # left and right margin
    top: float
    bottom: float         # above the footer rule
    scale: float          # type and title-page spacing, 1 on A4/Letter

    @property
    def width(self) -> float:
        return self.size[0] - 2 * self.side


def page_geometry(paper: str, booklet: bool = False) -> Page:
    if booklet:
        # half-size pages at 90 % type: 120 mm (A5) holds about 72 characters a line
        return Page(HALF[paper], 13 * mm, 13 * mm, 19 * mm, 0.9)
    size = PAPERS[paper]
    return Page(size, (size[0] - MEASURE) / 2, MARGIN, MARGIN + 4 * mm, 1.0)


def _no_draw(*args: Any, **kwargs: Any) -> None:
    return None


class _Frame(Frame):  # type: ignore[misc]  # reportlab ships no type stubs
    """A frame that, in the document's layout-only first pass (:attr:`_Doc.dry`), places each
    flowable exactly as usual but does not draw it: that pass only finds the page of every heading
    for the table of contents, and its canvas is thrown away. Drawing was ~45 % of a pass."""

    def _add(self, flowable: Flowable, canv: Canvas, trySplit: int = 0) -> Any:
        if not getattr(getattr(canv, "_doctemplate", None), "dry", False):
            return super()._add(flowable, canv, trySplit)
        flowable.drawOn = _no_draw            # this object only; the next pass draws it
        try:
            return super()._add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn

    add = _add


class _Doc(BaseDocTemplate):  # type: ignore[misc]  # reportlab ships no type stubs
    #: True during the first pass of :meth:`multiBuild`: lay out, do not draw (see :class:`_Frame`)
    dry = False

    def multiBuild(self, story: list[Flowable], maxPasses: int = 10, **buildKwds: Any) -> Any:
        self.dry = True
        try:
            buildKwds.setdefault("canvasmaker", PrintCanvas)        # ICC-tagged images, PDF 1.4 (deckgen/pdfkit.py)
            return super().multiBuild(story, maxPasses, **buildKwds)
        finally:
            self.dry = False

    def _allSatisfied(self) -> Any:
        if self.dry:                          # never keep the layout-only pass: draw at least once more
            self.dry = False
            return 0
        return super()._allSatisfied()

    def __init__(self, buf: io.BytesIO, page: Page, title: str, footer: str, font: str, accent: colors.Color,
                 **kw: Any) -> None:
        super().__init__(buf, pagesize=page.size, leftMargin=page.side, rightMargin=page.side, topMargin=page.top,
                         bottomMargin=page.bottom, title=title, author="deckgen", creator="deckgen",
                         subject=footer, invariant=1, initialFontName=font, **kw)
        self.footer, self.font, self.accent, self.page_spec = footer, font, accent, page
        frame = _Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body")
        # the cover is not running text: it uses the page's width, not the ~75-character measure
        cover_side = min(page.side, MARGIN)
        self.cover_width = page.size[0] - 2 * cover_side
        cover = _Frame(cover_side, self.bottomMargin, self.cover_width, self.height, id="cover")
        self.addPageTemplates([PageTemplate("title", [cover]),
                               PageTemplate("body", [frame], onPage=self._decorate)])
        self._heading = 0

    def _decorate(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        prepare(canvas)     # PDF 1.4, ICC-tagged images, distinct font subset tags (layout/printready.py)
        w, _ = self.pagesize
        side = self.page_spec.side
        styles.page_footer(canvas, side, w - side, self.page_spec.bottom - 4 * mm,
                           styles.Footer(self.footer, self.font, 8.5 * self.page_spec.scale, 11), doc.page)

    def afterFlowable(self, flowable: Flowable) -> None:
        level = getattr(flowable, "toc_level", None)
        if level is None:
            return
        text = flowable.getPlainText()        # the text the paragraph shows (no markup left)
        key = f"h{self._heading}"
        self._heading += 1
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(text, key, level=level, closed=level > 0)
        self.notify("TOCEntry", (level, text, self.page, key))

    def handle_documentBegin(self) -> None:
        self._heading = 0
        super().handle_documentBegin()


def _heading(text: str, style: ParagraphStyle, level: int | None) -> Paragraph:
    p = Paragraph(text, style)
    p.toc_level = level
    return p


def _accent(deck: Deck) -> colors.Color:
    darkest = min(deck.palette.colors, key=lambda c: sum(c.rgb), default=None)
    blue = next((c for c in deck.palette.colors if c.id == "blue"), darkest)
    return colors.HexColor(blue.hex) if blue else colors.HexColor("#1E63C4")


def _title_page(deck: Deck, lang: str, st: Styles, images: Mapping[str, Any], width: float, k: float = 1.0) -> list[Flowable]:
    """The cover; ``k`` scales its spacing (0.7 on a booklet's half-size page)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    title = deck.name(lang)
    style = st["title"]
    one_line = 0.96 * width / max(1.0, stringWidth(title, style.fontName, 1))
    if one_line < style.fontSize:          # a long name shrinks to one line (down to 70 %), then wraps
        size = max(style.fontSize * 0.7, one_line)
        style = ParagraphStyle("title-fit", style, fontSize=size, leading=size * style.leading / style.fontSize)
    logo = _cover_logo(deck)                     # deck.cover_logo or deck.logo (rulebook/cover.py)
    out: list[Flowable] = [logo, Spacer(1, 6 * mm * k)] if logo else [Spacer(1, 30 * mm * k)]
    out += [Paragraph(escape(title), style), Paragraph(ui(lang, "rulebook"), st["subtitle"]), Spacer(1, 8 * mm * k)]
    facts = " · ".join([ui(lang, "players", lo=deck.players_min, hi=deck.players_max),
                        ui(lang, "hand", n=deck.hand_size), ui(lang, "cards_total", n=deck.total)])
    out.append(Paragraph(facts, st["facts"]))
    out.append(Spacer(1, 14 * mm * k))
    pics = [blocks.picture(images, f, 24 * mm * max(k, 0.8)) for f in showcase(deck) if f in images]
    if pics:
        strip = Table([pics], colWidths=[width / len(pics)] * len(pics))
        strip.setStyle(blocks.style(("ALIGN", (0, 0), (-1, -1), "CENTER"), ("VALIGN", (0, 0), (-1, -1), "MIDDLE")))
        out.append(strip)
    swatch = Table([[blocks.Swatches([c.hex for c in deck.palette.colors], size=7 * mm,
                                     per_row=len(deck.palette.colors), gap=2 * mm)]], colWidths=[width])
    swatch.setStyle(blocks.style(("ALIGN", (0, 0), (-1, -1), "CENTER")))
    out += [Spacer(1, 10 * mm * k), swatch]
    if deck.description:
        out += [Spacer(1, 10 * mm * k), Paragraph(escape(deck.description.get(lang)), st["facts"])]
    return out


def _cover_logo(deck: Deck, width_mm: float = LOGO_MM) -> Flowable | None:
    """The cover's logo as a flowable, drawn by the same image code as the card back
    (:func:`deckgen.images.picture`) at 300 dpi; on a panel of the back's colour when it would
    vanish on the white page (:mod:`deckgen.rulebook.cover`)."""
    logo = cover_logo(deck)
    if logo is None:
        return None
    from reportlab.platypus import Image as RLImage

    from deckgen.images import picture

    fonts = deck_fonts(deck)
    w, h = logo.ref.size
    px = round(width_mm / 25.4 * LOGO_DPI)
    box = (px, round(px * h / w)) if w >= h else (round(px * w / h), px)
    pic = picture(logo.ref, box, "contain", (str(fonts.path("text")), str(fonts.path("display"))))
    buf = io.BytesIO()
    pic.save(buf, "PNG", compress_level=6)
    buf.seek(0)
    scale = width_mm * mm / max(pic.size)
    image = RLImage(buf, width=pic.width * scale, height=pic.height * scale)
    return _LogoPanel(image, logo) if logo.needs_panel else image


class _LogoPanel(Flowable):  # type: ignore[misc]  # reportlab ships no type stubs
    """The cover's logo on a rounded panel of the colour it sits on on the card back."""

    PAD = 5 * mm

    def __init__(self, image: Flowable, logo: CoverLogo) -> None:
        super().__init__()
        self.image, self.backing = image, logo.backing
        self.hAlign = "CENTER"
        self.width = image.drawWidth + 2 * self.PAD
        self.height = image.drawHeight + 2 * self.PAD

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        r, g, b = self.backing
        self.canv.saveState()
        self.canv.setFillColorRGB(r / 255, g / 255, b / 255)
        self.canv.roundRect(0, 0, self.width, self.height, self.PAD * 0.8, stroke=0, fill=1)
        self.canv.restoreState()
        self.image.drawOn(self.canv, self.PAD, self.PAD)


def _flowables(items: list[Item], rec: Recorder, st: Styles, images: Mapping[str, Any], width: float) -> list[Flowable]:
    out: list[Flowable] = []
    number = 0
    first_h1 = True
    for item in items:
        number = number + 1 if item.kind == "num" else 0
        try:
            if item.kind == "h1":
                if not first_h1:
                    out.append(Spacer(1, 4 * mm))
                first_h1 = False
                out.append(_heading(item.text, st["h1"], 0))
            elif item.kind == "h2":
                out.append(_heading(item.text, st["h2"], 1))
            elif item.kind == "h3":
                out.append(_heading(item.text, st["h3"], None))
            elif item.kind == "bullet":
                out.append(ListItem(item.text, st["bullet"], bulletText="•"))
            elif item.kind == "num":
                out.append(ListItem(item.text, st["num"], bulletText=f"{number}.", numbered=True))
            elif item.kind == "note":
                out.append(Paragraph(item.text, st["note"]))
            elif item.kind == "block":
                out += _block(rec, item.block, st, images, width)
            else:
                out.append(Paragraph(item.text, st["body"]))
        except ValueError as exc:   # ReportLab's parser rejected the inline markup
            raise DeckgenError(error("template-markup", "rulebook",
                                     f"bad inline markup in “{item.text[:80]}”: {exc}",
                                     hint="inline markup is ReportLab's: <b>, <i>, <font>; write & as &amp;")) from exc
    return _keep_headings(_keep_lists(out))


class ListItem(Paragraph):
    """A bullet or numbered item: never split across pages (it moves to the next page whole)."""

    list_item = True

    def __init__(self, text: str, style: ParagraphStyle, bulletText: str | None = None, numbered: bool = False) -> None:
        super().__init__(text, style, bulletText=bulletText)
        self.numbered = numbered

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        return []


def _keep_lists(out: list[Flowable], short: int = 4) -> list[Flowable]:
    """A list is not split with one item alone on a page: a short list, and every numbered
    list (setup steps), stays together with the sentence leading into it; a longer bullet list
    keeps its first two items (and lead-in) and its last two items together. Items themselves
    never split (:class:`ListItem`)."""
    kept: list[Flowable] = []
    i = 0
    while i < len(out):
        if not getattr(out[i], "list_item", False):
            kept.append(out[i])
            i += 1
            continue
        j = i
        while j < len(out) and getattr(out[j], "list_item", False):
            j += 1
        run = out[i:j]
        lead = kept.pop() if kept and isinstance(kept[-1], Paragraph) and \
            not getattr(kept[-1], "list_item", False) and kept[-1].getPlainText().rstrip().endswith(":") else None
        head = [lead] if lead else []
        if len(run) <= short or all(getattr(f, "numbered", False) for f in run):
            kept.append(KeepTogether(head + run))
        else:
            kept += [KeepTogether(head + run[:2]), *run[2:-2], KeepTogether(run[-2:])]
        i = j
    return kept


def _keep_headings(out: list[Flowable]) -> list[Flowable]:
    """A heading never ends a page alone: keep it with what follows, through any sub-heading
    or short lead-in sentence, up to the first substantial flowable."""
    kept: list[Flowable] = []
    i = 0
    while i < len(out):
        f = out[i]
        if getattr(f, "toc_level", "none") != "none" and i + 1 < len(out):
            j = i + 1
            while j + 1 < len(out) and (getattr(out[j], "toc_level", "none") != "none" or _short(out[j])):
                j += 1
            # heading + short lead-in + small table stay together too
            if j + 1 < len(out) and isinstance(out[j], Paragraph) and getattr(out[j + 1], "keep_with_heading", False):
                j += 1
            if isinstance(out[j], Table) and not getattr(out[j], "keep_with_heading", False):
                # a long table splits across pages: ask for room for its first rows instead of
                # moving the whole table (and leaving a half-empty page)
                kept += [CondPageBreak(55 * mm), KeepTogether(_flat(out[i:j]))]
                i = j
                continue
            kept.append(KeepTogether(_flat(out[i:j + 1])))
            i = j + 1
            continue
        kept.append(f)
        i += 1
    return kept


def _flat(items: list[Flowable]) -> list[Flowable]:
    """KeepTogether groups unpacked: a KeepTogether inside another always forces a page break
    (its wrap reports an endless height to make the outer one split)."""
    out: list[Flowable] = []
    for f in items:
        out += _flat(f._content) if isinstance(f, KeepTogether) else [f]
    return out


def _short(f: Flowable) -> bool:
    """A paragraph of a line or two (a lead-in), not a list item."""
    return isinstance(f, Paragraph) and not getattr(f, "list_item", False) and len(f.getPlainText()) < 160


def _block(rec: Recorder, index: int, st: Styles, images: Mapping[str, Any], width: float) -> list[Flowable]:
    block = rec.blocks[index]
    if block.name == "components":
        return blocks.components_table(rec.deck, rec.lang, st, images, width)
    if block.name == "palette":
        return [blocks.palette_table(rec.deck, rec.lang, st, width)]
    return [blocks.card_entry(rec.deck, block.args[0], rec.lang, st, images, width)]


class PrintFor(TypedDict, total=False):
    """Whom the rulebook is made for: ``canvas``, the canvas class of a print shop's file
    (:func:`deckgen.export.printshop.shop_canvas`); without it, home printing."""

    canvas: Callable[..., Canvas] | None


def build_pdf(deck: Deck, lang: str, checked: tuple[str, Recorder], images: Mapping[str, Any], paper: str = "a4",
              progress: Callable[[str, int, int], None] | None = None, booklet: bool = False,
              **target: Unpack[PrintFor]) -> PDFBytes:
    """The rulebook in reading order from its checked text (:func:`deckgen.rulebook.checked_text`);
    with ``booklet`` on half-size pages (see :func:`build_booklet`); ``target``: :class:`PrintFor`."""
    canvas = target.get("canvas")
    text, rec = checked
    font = register_pdf(deck_fonts(deck)).family
    accent = _accent(deck)
    page = page_geometry(paper, booklet)
    st = styles.make(font, accent, page.scale)
    buf = io.BytesIO()
    name = deck.name(lang)
    doc = _Doc(buf, page, f"{name} – {ui(lang, 'rulebook')}", f"{name} · {ui(lang, 'rulebook')}",
               font, accent, lang=lang)
    toc = TableOfContents(levelStyles=[st["toc1"], st["toc2"]], dotsMinLevel=0, tableStyle=blocks.style(
        ("VALIGN", (0, 0), (-1, -1), "TOP"), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("LEFTPADDING", (0, 0), (-1, -1), 0)))
    k = page.size[1] / PAPERS[paper][1]
    story: list[Flowable] = _title_page(deck, lang, st, images, doc.cover_width, k)
    story += [NextPageTemplate("body"), PageBreak(), Paragraph(ui(lang, "contents"), st["h1"]), toc, PageBreak()]
    icons = blocks.icon_markup(deck, round(st["body"].fontSize * 1.05, 2), lang)     # {red}, {skip}: pictures
    with blocks.data_pictures():             # ReportLab reads a picture as it parses the line
        story += _flowables(parse(text, icons, declared(deck)), rec, st, images, doc.width)
    story += [PageBreak(), *_flowables(printing_items(deck, lang, paper, booklet), rec, st, images, doc.width)]
    if progress:
        progress("rulebook", 1, 2)
    saved = rl_config.useA85
    rl_config.useA85 = 0           # images as plain Flate streams: ASCII85 in pure Python was half the time
    try:
        with blocks.data_pictures():          # the inline icons are data: pictures
            if canvas is None:
                doc.multiBuild(story)
            else:
                doc.multiBuild(story, canvasmaker=canvas)
    finally:
        rl_config.useA85 = saved
    if progress:
        progress("rulebook", 2, 2)
    return PDFBytes(buf.getvalue(), doc.page)


def build_booklet(pages_pdf: bytes, paper: str) -> PDFBytes:
    """The half-size rulebook imposed for saddle stitching on landscape ``paper`` sheets."""
    from deckgen.rulebook.booklet import impose  # pypdf: imported only when a booklet is made

    return PDFBytes(*impose(pages_pdf, paper))
