"""``deckgen tune``'s page: the targets, the best candidate with its figures and intervals, the
trade-off and the manifest's changes, in the balance report's style (ReportLab, invariant: the
same result gives the same bytes)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer, Table, TableStyle

from deckgen.balance.pdf import Doc, styles
from deckgen.rulebook.markup import escape

if TYPE_CHECKING:
    from deckgen.tune import TuneResult


def tune_pdf(r: TuneResult) -> bytes:
    """The page's PDF bytes."""
    from deckgen.tune import _changes, _figure_lines

    st = styles()
    s = r.search
    story: list[Any] = [
        Paragraph(escape(f"{r.deck.name('en')}: tuning"), st["title"]),
        Paragraph(escape(f"{len(s.candidates)} candidates, {s.skipped} skipped, {s.games:,} games, "
                         f"{s.seconds:.0f} s; seed {r.plan.seed}; {_sizes(r.plan.players)} players"),
                  st["subtitle"]),
        Paragraph("Targets", st["h1"]),
        *[Paragraph(escape(t.text()), st["bullet"], bulletText="•") for t in r.targets],
    ]
    if r.chosen is not None:
        c = r.chosen
        head = "Best candidate, meeting every target" if c.result.met else "Closest candidate"
        story += [Paragraph(escape(head), st["h1"]),
                  Paragraph(escape(_changes(r, c) or "the deck as written"), st["lead"]),
                  *[Paragraph(escape(line.strip()), st["bullet"], bulletText="•") for line in _figure_lines(r, c, "")],
                  *[Paragraph(escape(u), st["body"]) for u in r.unmet]]
    if r.front:
        rows = [[Paragraph("#", st["head"]), Paragraph("changes", st["head"]),
                 *[Paragraph(escape(t.text()), st["head"]) for t in r.targets]]]
        for o in r.front:
            rows.append([Paragraph(str(o.number), st["cell"]), Paragraph(escape(_changes(r, o) or "as written"), st["cell"]),
                         *[Paragraph(escape(_cell(t, o.result.figures[t.text()])), st["cell"]) for t in r.targets]])
        table = Table(rows, repeatRows=1, colWidths=[10 * mm, 60 * mm] + [None] * len(r.targets))
        table.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.grey), ("VALIGN", (0, 0), (-1, -1), "TOP")]))
        story += [Paragraph("Trade-off between the targets", st["h1"]),
                  Paragraph("No other candidate is better on every target and on how much it changes the deck.",
                            st["intro"]), table]
    if r.written:
        story += [Spacer(1, 4 * mm), Paragraph(escape(f"Written: {r.written.name}"), st["h2"]),
                  *[Paragraph(escape(line), st["small"]) for line in r.diff.splitlines()[2:] if line[:1] in "+-"]]
    buf = io.BytesIO()
    Doc(buf, f"{r.deck.id}: tuning", f"{r.deck.id} · deckgen tune").build(story)
    return buf.getvalue()


def _cell(t: Any, f: Any) -> str:
    from deckgen.tune import _fmt

    unclear = "" if t.clear(f.low, f.high) else ", unclear"
    return f"{_fmt(t, f.value)} ({_fmt(t, f.low)}-{_fmt(t, f.high)}) {'met' if f.met else 'missed'}{unclear}"


def _sizes(players: Any) -> str:
    from deckgen.balance.text import join

    return join([str(n) for n in players], "en")
