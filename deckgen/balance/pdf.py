"""The balance report as a PDF: a summary page, then one section per chart, then the method.

ReportLab Platypus with ``invariant=1``: the same figures give a byte-identical file.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from deckgen.balance import charts
from deckgen.balance import text as T
from deckgen.fonts import register_pdf
from deckgen.progress import Progress
from deckgen.rulebook.markup import escape
from deckgen.rulebook.styles import INK, MUTED, Footer, page_footer

if TYPE_CHECKING:
    from deckgen.balance.figures import Group, Report, Skill

Styles = dict[str, Any]         # name -> reportlab ParagraphStyle (ReportLab has no type hints)
Drawing = Any                   # a reportlab.graphics.shapes.Drawing

MARGIN = 16 * mm
HEAD = colors.HexColor("#0072B2")


class _Doc(BaseDocTemplate):  # type: ignore[misc]  # ReportLab has no type hints: its classes are Any
    def __init__(self, buf: io.BytesIO, title: str, footer: str, **kw: Any):
        super().__init__(buf, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                         bottomMargin=MARGIN + 3 * mm, title=title, author="deckgen", creator="deckgen",
                         subject=footer, invariant=1, initialFontName=charts.FONT, **kw)
        self.footer = footer
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate("page", [frame], onPage=self._decorate)])
        self._n = 0

    def _decorate(self, canvas: Any, doc: Any) -> None:
        w, _ = A4
        page_footer(canvas, MARGIN, w - MARGIN, MARGIN, Footer(self.footer, charts.FONT, 8, 10), doc.page)

    def afterFlowable(self, flowable: Any) -> None:
        level = getattr(flowable, "toc_level", None)
        if level is None:
            return
        key = f"s{self._n}"
        self._n += 1
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(flowable.getPlainText(), key, level=level, closed=level > 0)

    def handle_documentBegin(self) -> None:
        self._n = 0
        super().handle_documentBegin()


def _styles() -> Styles:
    fonts = register_pdf()
    f = fonts.regular
    body = ParagraphStyle("body", fontName=f, fontSize=9.5, leading=13, textColor=INK, spaceAfter=5, alignment=TA_LEFT)
    return {
        "body": body,
        "intro": ParagraphStyle("intro", body, fontSize=8.5, leading=11.5, textColor=MUTED, spaceAfter=4),
        "title": ParagraphStyle("title", body, fontName=fonts.bold, fontSize=22, leading=26, textColor=HEAD,
                                spaceAfter=2),
        "subtitle": ParagraphStyle("subtitle", body, fontSize=11, leading=14, textColor=MUTED, spaceAfter=10),
        "h1": ParagraphStyle("h1", body, fontName=fonts.bold, fontSize=15, leading=19, textColor=HEAD,
                             spaceBefore=2, spaceAfter=4),
        "h2": ParagraphStyle("h2", body, fontName=fonts.bold, fontSize=11, leading=14, spaceBefore=6, spaceAfter=3),
        "bullet": ParagraphStyle("bullet", body, leftIndent=12, bulletIndent=2, spaceAfter=2),
        "cell": ParagraphStyle("cell", body, fontSize=8, leading=10, spaceAfter=0),
        "head": ParagraphStyle("head", body, fontSize=7.5, leading=9, spaceAfter=0),
        "lead": ParagraphStyle("lead", body, fontName=fonts.bold, spaceBefore=3, spaceAfter=2),
        "small": ParagraphStyle("small", body, fontSize=7.5, leading=9.5, textColor=MUTED),
    }


# the report's page and styles, for other pages in its style (deckgen tune's)
Doc = _Doc


def styles() -> Styles:
    """The report's paragraph styles by name (body, title, subtitle, h1, h2, cell, head, small ...)."""
    return _styles()


def _h(text: str, style: ParagraphStyle, level: int | None) -> Paragraph:
    p = Paragraph(escape(text), style)
    p.toc_level = level
    return p


def report_pdf(rep: Report, progress: Progress | None = None) -> bytes:
    """The PDF bytes of a report (see :func:`deckgen.balance.report.build_report`)."""
    st = _styles()
    lang = rep["lang"]
    story: list[Flowable] = []
    story += _summary_page(rep, st)
    sections = [_length, _draws, _hands, _seats, _skill, _kinds, _events]
    steps = len(sections) + 1
    for i, build in enumerate(sections):
        if progress:
            progress("writing the PDF", i, steps)
        story += build(rep, st)
    method = T.w(lang, "method_text", games=rep["games"], seed=rep["seed"])
    if rep["tests"]:
        method += " " + T.w(lang, "method_tests", tests=len(rep["tests"]))
    story += [CondPageBreak(60 * mm), _h(T.w(lang, "method"), st["h1"], 0), Paragraph(escape(method), st["body"])]
    if progress:
        progress("writing the PDF", len(sections), steps)
    buf = io.BytesIO()
    title = f"{rep['name']}: {T.w(lang, 'title')}"
    doc = _Doc(buf, title, f"{rep['name']} · {T.w(lang, 'title')} · deckgen")
    doc.build(story)
    if progress:
        progress("writing the PDF", steps, steps)
    return buf.getvalue()


# ---------------------------------------------------------------- first page

def _summary_page(rep: Report, st: Styles) -> list[Flowable]:
    lang = rep["lang"]
    out: list[Flowable] = [Paragraph(escape(rep["name"]), st["title"]),
                           _h(T.w(lang, "title"), st["subtitle"], None),
                           Paragraph(escape(T.w(lang, "subtitle", games=rep["games"], seed=rep["seed"])), st["intro"])]
    if len(rep["variants"]) > 1:
        out.append(_h(T.w(lang, "variants"), st["h2"], None))
        for i, v in enumerate(rep["variants"]):
            hexcol = charts.VARIANT_COLORS[i % len(charts.VARIANT_COLORS)]
            out.append(Paragraph(f'<font color="{hexcol}"><b>{v["id"]}</b></font>  {escape(v["label"])}',
                                 st["bullet"], bulletText="■"))
    out.append(_h(T.w(lang, "summary"), st["h1"], 0))
    for para in rep["summary"]:
        out.append(Paragraph(escape(para["text"]), st["lead"] if para["bullets"] else st["body"]))
        for b in para["bullets"]:
            out.append(Paragraph(escape(b), st["bullet"], bulletText="•"))
    out.append(Spacer(1, 3 * mm))
    for agent in rep["agents"]:
        out.append(KeepTogether([_h(f"{T.w(lang, 'key_figures')}: {T.agent(lang, agent)}", st["h2"], None),
                                 _key_table(rep, agent, st)]))
    out.append(Paragraph(escape(T.w(lang, "first_mark")), st["small"]))
    if len(rep["variants"]) > 1:
        out.append(Paragraph(escape(T.w(lang, "significant")), st["small"]))
    out.append(PageBreak())
    return out


def _key_table(rep: Report, agent: str, st: Styles) -> Table:
    lang = rep["lang"]
    vs = rep["variants"]
    many = len(vs) > 1
    sig = {(t["variant"], t["players"], t["test"]) for t in rep["tests"] if t["agent"] == agent and t["significant"]}
    cols = ["col_players"] + (["col_variant"] if many else []) + ["col_median", "col_p90", "col_capped", "col_stalled",
                                                                  "col_dry", "col_draws", "col_first"]
    head = [Paragraph(f"<b>{escape(T.w(lang, c))}</b>", st["head"]) for c in cols]
    rows: list[list[Any]] = [head]
    groups = {(g["variant"], g["players"]): g for g in rep["groups"] if g["agent"] == agent}
    shade = []
    for n in rep["players"]:
        for i, v in enumerate(vs):
            g = groups[(v["id"], n)]

            def mark(test: str, text: str, vid: str = v["id"], n: int = n) -> str:
                return text + ("*" if (vid, n, test) in sig else "")

            row = [str(n) if i == 0 else ""]
            if many:
                row.append(v["id"])
            t = g["turns"]
            row += [mark("turns", T.num(t["median"], lang)), T.num(t["p90"], lang), mark("capped", str(g["capped"])),
                    str(g["stalled"]), str(g["events"]["dry"]["games"]), mark("draws", T.num(g["draws"]["per_game"], lang, 1)),
                    mark("first_player", T.pct(g["seats"]["first_player"]["rate"], lang) + _fair_mark(g))]
            rows.append(row)
            if rep["players"].index(n) % 2 == 0:
                shade.append(len(rows) - 1)
    width = charts.WIDTH
    first = 54.0
    var_w = 46.0 if many else 0.0
    rest = (width - first - var_w) / (len(cols) - 1 - (1 if many else 0))
    widths = [first] + ([var_w] if many else []) + [rest] * (len(cols) - 1 - (1 if many else 0))
    table = Table(rows, colWidths=widths, repeatRows=1, hAlign="LEFT")
    style = [("FONT", (0, 1), (-1, -1), charts.FONT, 8), ("TEXTCOLOR", (0, 1), (-1, -1), INK),
             ("ALIGN", (1, 1), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
             ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
             ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5), ("LEFTPADDING", (0, 0), (-1, -1), 3),
             ("RIGHTPADDING", (0, 0), (-1, -1), 3)]
    if many:
        style.append(("ALIGN", (1, 1), (1, -1), "CENTER"))
        for i, _ in enumerate(vs):
            hexcol = charts.VARIANT_COLORS[i % len(charts.VARIANT_COLORS)]
            for r in range(1 + i, len(rows), len(vs)):
                style.append(("TEXTCOLOR", (1, r), (1, r), colors.HexColor(hexcol)))
    style += [("BACKGROUND", (0, r), (-1, r), colors.HexColor("#F2F4F7")) for r in shade]
    table.setStyle(TableStyle(style))
    return table


def _fair_mark(g: Group) -> str:
    """" (+)" / " (-)" when the first seat wins significantly more / less than a fair share."""
    fp = g["seats"]["first_player"]
    if not fp["significant"]:
        return ""
    return " (+)" if fp["advantage"] > 0 else " (-)"


# ---------------------------------------------------------------- chart sections

def _section(rep: Report, st: Styles, key: str, intro: str, per_agent: Callable[[str], list[Drawing]],
             legend: Flowable | None) -> list[Flowable]:
    lang = rep["lang"]
    out: list[Flowable] = []
    for agent in rep["agents"]:
        drawings = per_agent(agent)
        if not drawings:
            continue
        head: list[Flowable] = [_h(f"{T.w(lang, key)}: {T.agent(lang, agent)}", st["h1"], 0),
                                Paragraph(escape(intro), st["intro"])]
        vl = charts.variant_legend(rep)
        if vl is not None:
            head.append(vl)
        if legend is not None:
            head.append(legend)
        if rep["tests"] and key == "length":
            head.append(Paragraph(escape(T.w(lang, "significant")), st["small"]))
        head.append(Spacer(1, 2 * mm))
        out.append(KeepTogether([*head, drawings[0]]))
        for d in drawings[1:]:
            out += [PageBreak(), d]
        out.append(PageBreak())
    return out


def _length(rep: Report, st: Styles) -> list[Flowable]:
    cap = max(v["turn_cap"] for v in rep["variants"])
    return _section(rep, st, "length", T.w(rep["lang"], "length_intro", cap=T.num(cap, rep["lang"])),
                    lambda a: charts.length_charts(rep, a), charts.length_legend(rep))


def _hands(rep: Report, st: Styles) -> list[Flowable]:
    return _section(rep, st, "hands", T.w(rep["lang"], "hands_intro"),
                    lambda a: charts.hand_charts(rep, a), charts.hand_legend(rep))


def _seats(rep: Report, st: Styles) -> list[Flowable]:
    return _section(rep, st, "seats", T.w(rep["lang"], "seats_intro"), lambda a: charts.seat_charts(rep, a),
                    charts.seat_legend(rep))


def _skill(rep: Report, st: Styles) -> list[Flowable]:
    """Does skill matter? One chart and one table per kind of opponent, variants side by side."""
    sk = rep.get("skill")
    if not sk:
        return []
    lang = rep["lang"]
    opponents = T.join([T.agent(lang, o) for o in sk["opponents"]], lang)
    out: list[Flowable] = [_h(T.w(lang, "skill"), st["h1"], 0),
                           Paragraph(escape(T.w(lang, "skill_intro", opponents=opponents, think=sk["think"],
                                                    games=sk["games"])), st["intro"])]
    vl = charts.variant_legend(rep)
    if vl is not None:
        out.append(vl)
    out.append(charts.skill_legend(rep))
    para = next((p for p in rep["summary"] if p["text"] == T.w(lang, "skill")), None)
    if para:
        for b in para["bullets"]:
            out.append(Paragraph(escape(b), st["bullet"], bulletText="•"))
    for opp in sk["opponents"]:
        out += [Spacer(1, 3 * mm), KeepTogether([charts.skill_chart(rep, opp), Spacer(1, 2 * mm),
                                                 _skill_table(rep, sk, opp, st)])]
    out += [Spacer(1, 2 * mm), Paragraph(escape(T.w(lang, "skill_mark")), st["small"]), PageBreak()]
    return out


def _skill_table(rep: Report, sk: Skill, opp: str, st: Styles) -> Table:
    lang = rep["lang"]
    vs = rep["variants"]
    groups = {(g["variant"], g["players"]): g for g in sk["groups"] if g["opponent"] == opp}
    head = [T.w(lang, "col_players"), T.w(lang, "skill_luck")] + [
        f"{v['id']}: {T.w(lang, 'skill_col')}" if len(vs) > 1 else T.w(lang, "skill_col") for v in vs]
    rows: list[list[Any]] = [[Paragraph(f"<b>{escape(h)}</b>", st["head"]) for h in head]]
    for n in sk.get("players") or rep["players"]:
        row = [str(n), T.pct(1 / n, lang)]
        for v in vs:
            g = groups[(v["id"], n)]
            row.append(f"{T.pct(g['rate'], lang)} ({T.pct(g['ci'][0], lang)}–{T.pct(g['ci'][1], lang)})"
                       + (" *" if g["significant"] else ""))
        rows.append(row)
    first = 66.0
    rest = (charts.WIDTH - first) / (len(head) - 1)
    table = Table(rows, colWidths=[first] + [rest] * (len(head) - 1), repeatRows=1, hAlign="LEFT")
    style = [("FONT", (0, 1), (-1, -1), charts.FONT, 8), ("TEXTCOLOR", (0, 1), (-1, -1), INK),
             ("ALIGN", (1, 1), (-1, -1), "RIGHT"), ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
             ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
             ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
    style += [("BACKGROUND", (0, r), (-1, r), colors.HexColor("#F2F4F7")) for r in range(1, len(rows), 2)]
    table.setStyle(TableStyle(style))
    return table


def _one_page(rep: Report, st: Styles, key: str, chart: Callable[[Report, str], Drawing],
              significant: bool = False) -> list[Flowable]:
    """A section with one chart per kind of player, on one page."""
    lang = rep["lang"]
    out: list[Flowable] = [_h(T.w(lang, key), st["h1"], 0), Paragraph(escape(T.w(lang, f"{key}_intro")), st["intro"])]
    vl = charts.variant_legend(rep)
    if vl is not None:
        out.append(vl)
        if significant:
            out.append(Paragraph(escape(T.w(lang, "significant")), st["small"]))
    for agent in rep["agents"]:
        out += [Spacer(1, 3 * mm), chart(rep, agent)]
    out.append(PageBreak())
    return out


def _draws(rep: Report, st: Styles) -> list[Flowable]:
    return _one_page(rep, st, "draws", charts.draw_chart, significant=True)


def _kinds(rep: Report, st: Styles) -> list[Flowable]:
    return _one_page(rep, st, "kinds", charts.kind_chart)


def _events(rep: Report, st: Styles) -> list[Flowable]:
    lang = rep["lang"]
    out: list[Flowable] = [_h(T.w(lang, "events"), st["h1"], 0)]
    found = [d for d in (charts.event_chart(rep, a) for a in rep["agents"]) if d is not None]
    if not found:
        out.append(Paragraph(escape(T.w(lang, "no_events")), st["body"]))
        return out
    out.append(Paragraph(escape(T.w(lang, "events_intro")), st["intro"]))
    vl = charts.variant_legend(rep)
    if vl is not None:
        out.append(vl)
    out.append(charts.event_legend(rep))
    for d in found:
        out += [Spacer(1, 3 * mm), d]
    return out
