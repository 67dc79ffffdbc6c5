"""Registration marks for print-then-cut machines, and the card layout that leaves them clear.

Silhouette (Studio's "Type 1" marks): a filled square at the page's top-left corner and an L at
the top-right and bottom-left corners, all set in from the paper's edges by the same inset. The
machine's optical sensor finds them on the printed sheet and maps the cut file onto it, so they
must be printed exactly where Studio draws them (set Studio's registration panel to the same
type, length, thickness and inset) and nothing else may be printed near them.

Cricut's Print Then Cut draws its own marks (a frame around the design) when a design is sent
to print from Design Space; a file with marks of its own would only get in the way, so
``cricut`` is refused with that explanation (see :func:`check_registration`).

Coordinates are millimetres, origin at the page's lower-left corner (as in PDF).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from deckgen.errors import DeckgenError, Finding, error
from deckgen.layout.geometry import Line, Rect, Sheet, SheetSpec, plan_sheet

REGISTRATIONS = ("none", "silhouette", "cricut")

INSET_MM = 10.0         # Studio's smallest inset, also its default on A4 and Letter
LENGTH_MM = 20.0        # the L marks' arms
THICKNESS_MM = 0.5      # the L marks' line width
SQUARE_MM = 5.0         # the top-left square's side
CLEAR_MM = 3.0          # kept free of print around every mark, so the sensor sees only the mark


def check_registration(registration: str, layout: str) -> list[Finding]:
    """Findings for an unusable ``--registration`` (the caller raises them with its others)."""
    if registration not in REGISTRATIONS:
        return [error("registration", "--registration", f"unknown registration marks '{registration}'",
                      hint="use none, silhouette or cricut")]
    if registration == "cricut":
        return [error("registration", "--registration",
                      "Cricut Design Space adds its own registration marks: for Print Then Cut it prints the "
                      "design itself with a frame of marks around it, and marks already on the page would be "
                      "in its way",
                      hint="leave --registration out: upload the sheet (or --cut-file svg's outlines with the "
                           "face images) to Design Space and print from there")]
    if registration == "silhouette" and layout == "fold":
        return [error("registration", "--registration", "--registration marks one printed side for the cutter, "
                      "and --layout fold puts fronts and backs on the same side",
                      hint="use --layout sheets for print-then-cut")]
    return []


def silhouette_marks(page_mm: tuple[float, float]) -> tuple[Rect, ...]:
    """The filled rectangles of Silhouette Type 1 marks on a page of this size: the top-left
    square, then the top-right L (horizontal arm, vertical arm), then the bottom-left L."""
    w, h = page_mm
    i, n, t, s = INSET_MM, LENGTH_MM, THICKNESS_MM, SQUARE_MM
    return (Rect(i, h - i - s, s, s),
            Rect(w - i - n, h - i - t, n, t), Rect(w - i - t, h - i - n, t, n),
            Rect(i, i, n, t), Rect(i, i, t, n))


def keep_out(page_mm: tuple[float, float]) -> tuple[Rect, ...]:
    """Where nothing but a mark may be printed: each mark's corner (square or L) with CLEAR_MM around it."""
    w, h = page_mm
    i, n, s, c = INSET_MM, LENGTH_MM, SQUARE_MM, CLEAR_MM
    return (Rect(i - c, h - i - s - c, s + 2 * c, s + 2 * c),
            Rect(w - i - n - c, h - i - n - c, n + 2 * c, n + 2 * c),
            Rect(i - c, i - c, n + 2 * c, n + 2 * c))


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def _printed(sheet: Sheet) -> Iterable[Rect]:
    """Everything the card pages print apart from the marks: every card's bleed box, crop marks, cut lines."""
    for s in sheet.slots:
        yield s.image
    for ln in sheet.marks + sheet.rules:
        yield Rect(min(ln.x1, ln.x2), min(ln.y1, ln.y2), abs(ln.x2 - ln.x1), abs(ln.y2 - ln.y1))


def clear_of_marks(sheet: Sheet) -> bool:
    """No card bleed box, crop mark or cut line in a mark's zone, and every card inside the marks' frame."""
    zones = keep_out(sheet.page_mm)
    w, h = sheet.page_mm
    frame = Rect(INSET_MM, INSET_MM, w - 2 * INSET_MM, h - 2 * INSET_MM)
    inside = all(s.clip.x >= frame.x - 1e-6 and s.clip.right <= frame.right + 1e-6 and
                 s.clip.y >= frame.y - 1e-6 and s.clip.top <= frame.top + 1e-6 for s in sheet.slots)
    return inside and not any(_overlaps(r, z) for r in _printed(sheet) for z in zones)


def band_clear(band: Rect | None, page_mm: tuple[float, float]) -> Rect | None:
    """The sheet label's strip, or None where it would run into a mark's zone."""
    if band is None or any(_overlaps(band, z) for z in keep_out(page_mm)):
        return None
    return band


def _moved(sheet: Sheet, dx: float, dy: float, page_mm: tuple[float, float]) -> Sheet:
    """``sheet`` (planned on paper narrower by 2*dx and shorter by 2*dy) moved onto the real page."""
    def r(x: Rect) -> Rect:
        return x.shifted(dx, dy)

    def ln(v: Line) -> Line:
        return Line(v.x1 + dx, v.y1 + dy, v.x2 + dx, v.y2 + dy)

    return replace(sheet, page_mm=page_mm,
                   slots=tuple(replace(s, trim=r(s.trim), image=r(s.image), clip=r(s.clip)) for s in sheet.slots),
                   cut_x=tuple(x + dx for x in sheet.cut_x), cut_y=tuple(y + dy for y in sheet.cut_y),
                   marks=tuple(ln(v) for v in sheet.marks), rules=tuple(ln(v) for v in sheet.rules),
                   block=r(sheet.block), label_band=None if sheet.label_band is None else r(sheet.label_band))


STEP_MM = 0.5
MAX_EXTRA_MM = LENGTH_MM + CLEAR_MM + 2 * STEP_MM


def plan_for_marks(spec: SheetSpec) -> tuple[Sheet, tuple[str, ...], int]:
    """The sheet with the most cards that leaves the Silhouette marks clear, and a note when it
    holds fewer cards than the sheet without marks, and the cards that sheet holds.

    The printable margin starts at the marks' inset; where the cards still reach a mark's zone,
    the margin grows at the sides, at top and bottom, or all round (in 0.5 mm steps, the
    paper's orientation as given first) and the clear plan with the most cards wins; among those,
    with ``spec.cut_gaps``, the one with the widest gaps between its cards."""
    plain = plan_sheet(replace(spec, cut_gaps=False))
    margin = max(spec.margin_mm, INSET_MM)
    best: Sheet | None = None
    steps = int(MAX_EXTRA_MM / STEP_MM)
    w, h = spec.paper_mm
    pages = [p for p in ((w, h), (h, w)) if spec.orientation == "auto" or
             (spec.orientation == "portrait") == (p[1] >= p[0])]
    gaps = (False, True) if spec.cut_gaps else (False,)
    for i in range(steps + 1):
        d = i * STEP_MM
        for dx, dy in ((d, 0.0), (0.0, d), (d, d)) if d else ((0.0, 0.0),):
            for (pw, ph), cut_gaps in ((p, g) for p in pages for g in gaps):
                rw, rh = pw - 2 * dx, ph - 2 * dy
                try:
                    sheet = plan_sheet(replace(spec, paper_mm=(rw, rh), margin_mm=margin, cut_gaps=cut_gaps,
                                               orientation="portrait" if rh >= rw else "landscape"), hints=False)
                except DeckgenError:
                    continue
                sheet = _moved(sheet, dx, dy, (pw, ph))
                if clear_of_marks(sheet) and (best is None or _better(sheet, best)):
                    best = sheet
    if best is None:
        pw, ph = spec.paper_mm
        raise DeckgenError(error(
            "registration", "--registration",
            f"no card fits on {pw:g} × {ph:g} mm paper between Silhouette registration marks "
            f"{INSET_MM:g} mm in from the edges", hint="use larger paper, or leave --registration out"))
    notes: tuple[str, ...] = ()
    if len(best.slots) < len(plain.slots):
        notes = (f"--registration silhouette: the marks {INSET_MM:g} mm in from the corners need their corners "
                 f"free, so a sheet holds {len(best.slots)} cards ({best.cols} × {best.rows}) instead of "
                 f"{len(plain.slots)}",)
    shared = [what for what, n, g in (("columns", best.cols, best.gaps[0]), ("rows", best.rows, best.gaps[1]))
              if n > 1 and g <= 1e-6]
    if spec.cut_gaps and shared:
        notes += (f"print-then-cut: neighbouring {' and '.join(shared)} share their cut lines, as bleed between "
                  f"them would cost cards on this sheet; a cut a little off shows a sliver of the neighbouring "
                  f"card (--fit full-bleed keeps a full bleed round every card, with fewer cards)",)
    return best, notes, len(plain.slots)


def _better(a: Sheet, b: Sheet) -> bool:
    """More cards, or as many with more bleed between them (the narrower gap first)."""
    return (len(a.slots), min(a.gaps), sum(a.gaps)) > (len(b.slots), min(b.gaps) + 1e-6, sum(b.gaps) + 1e-6)
