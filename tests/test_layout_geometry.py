"""Property tests of the sheet geometry: whatever the paper, card, bleed, gap, margin and marks."""

import math
from dataclasses import replace

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from deckgen.errors import DeckgenError
from deckgen.layout import MarkStyle, SheetSpec, back_rect, plan_sheet
from deckgen.layout.geometry import MIN_MARK, MIN_OUTER_BLEED, RULE_MM

E = 1e-6

specs = st.builds(
    SheetSpec,
    paper_mm=st.tuples(st.floats(100, 450), st.floats(100, 450)),
    card_mm=st.tuples(st.floats(40, 120), st.floats(40, 120)),
    bleed_mm=st.floats(0, 5),
    gap_mm=st.one_of(st.none(), st.just(0.0), st.floats(0, 10)),
    margin_mm=st.floats(0, 15),
    marks=st.builds(MarkStyle, st.floats(1, 8), st.floats(0.1, 0.6), st.floats(0, 3)),
    orientation=st.sampled_from(["auto", "portrait", "landscape"]),
    fold=st.booleans(),
    fit=st.sampled_from(["most", "full-bleed"]),
)


def _overlap(a, b):
    return a.x < b.right - E and b.x < a.right - E and a.y < b.top - E and b.y < a.top - E


def _fits(avail, size, gap, edge):
    """How many fit, counted the slow way."""
    n = 0
    while (n + 1) * size + n * gap + 2 * edge <= avail + 1e-9:
        n += 1
    return n


def _plan(spec):
    try:
        return plan_sheet(spec)
    except DeckgenError as exc:
        assert "does not fit" in str(exc)
        return None


@settings(max_examples=150, deadline=None)
@given(specs)
def test_full_bleed_and_full_marks_inside_the_margin_or_fewer_cards(spec):
    assume(not spec.fold and (spec.fit == "full-bleed" or spec.gap_mm is not None))
    sheet = _plan(spec)
    pw, ph = spec.paper_mm
    b, m, g = spec.bleed_mm, spec.margin_mm, spec.gap
    edge = b + spec.marks.offset_mm + spec.marks.length_mm
    cw, ch = spec.card_mm
    if spec.orientation == "auto":       # the most cards either way round, or an error
        best = max(_fits(w - 2 * m, cw, g, edge) * _fits(h - 2 * m, ch, g, edge) for w, h in ((pw, ph), (ph, pw)))
        assert (sheet.per_page if sheet else 0) == best
    assume(sheet is not None)          # what follows is about a sheet; a spec that does not fit counts above only
    w, h = sheet.page_mm
    assert sorted((w, h)) == sorted((pw, ph))
    if spec.orientation != "auto":
        assert (w > h + E) <= (spec.orientation == "landscape") or abs(w - h) < E
        assert (h > w + E) <= (spec.orientation == "portrait") or abs(w - h) < E
    assert sheet.gap_mm == pytest.approx(2 * b if spec.gap_mm is None else spec.gap_mm)
    _assert_clips_in_margin_and_apart(sheet, m)
    for s in sheet.slots:
        c = s.clip
        assert s.image.w == pytest.approx(cw + 2 * b)
        inner = min(b, g / 2)
        sides = (s.trim.x - c.x, c.right - s.trim.right, s.trim.y - c.y, c.top - s.trim.top)
        outer = (s.col == 0, s.col == sheet.cols - 1, s.row == sheet.rows - 1, s.row == 0)
        for got, is_outer in zip(sides, outer):
            assert got == pytest.approx(b if is_outer else inner, abs=1e-6)    # never less than asked
    for ln in sheet.marks:
        assert math.hypot(ln.x2 - ln.x1, ln.y2 - ln.y1) == pytest.approx(spec.marks.length_mm)
        _assert_mark_clear(sheet, ln, m, spec.marks.offset_mm - E)
    for x in sheet.cut_x:                        # every cut line has both its marks
        assert sum(1 for ln in sheet.marks if ln.x1 == ln.x2 == x) == 2
    for y in sheet.cut_y:
        assert sum(1 for ln in sheet.marks if ln.y1 == ln.y2 == y) == 2
    _assert_label_band_clear(sheet, m)
    if g + E < 2 * b:
        assert sheet.notes, "a gap that gives up bleed is named"
    else:
        assert not sheet.notes


def _assert_clips_in_margin_and_apart(sheet, m):
    """Every card's visible area inside the margin, and no two of them overlapping."""
    w, h = sheet.page_mm
    for s in sheet.slots:
        c = s.clip
        assert c.x >= m - E and c.right <= w - m + E and c.y >= m - E and c.top <= h - m + E
    for a in sheet.slots:
        for o in sheet.slots:
            if a.index < o.index:
                assert not _overlap(a.clip, o.clip)


def _assert_mark_clear(sheet, ln, m, offset):
    """A crop mark inside the margin and ``offset`` mm clear of every card's visible area."""
    w, h = sheet.page_mm
    for x, y in ((ln.x1, ln.y1), (ln.x2, ln.y2)):
        assert m - E <= x <= w - m + E and m - E <= y <= h - m + E
    x0, x1, y0, y1 = min(ln.x1, ln.x2), max(ln.x1, ln.x2), min(ln.y1, ln.y2), max(ln.y1, ln.y2)
    for s in sheet.slots:
        c = s.clip.grow(offset, offset, offset, offset)
        assert not (x1 > c.x + E and x0 < c.right - E and y1 > c.y + E and y0 < c.top - E)


def _assert_label_band_clear(sheet, m):
    band = sheet.label_band
    if band is not None:
        _, h = sheet.page_mm
        assert band.x >= m - E and band.y >= m - E and band.top <= h - m + E
        for s in sheet.slots:
            assert not _overlap(band, s.clip)


def _assert_every_cut_guided(sheet):
    """Each cut line has its two crop marks or a cut line printed along the cards (its stroke on the line)."""
    near = RULE_MM / 2 + E
    for x in sheet.cut_x:
        marks = sum(1 for ln in sheet.marks if ln.x1 == ln.x2 == x)
        ruled = any(ln.x1 == ln.x2 and abs(ln.x1 - x) <= near for ln in sheet.rules)
        assert marks == 2 or ruled, f"cut line x={x} has no guide"
    for y in sheet.cut_y:
        marks = sum(1 for ln in sheet.marks if ln.y1 == ln.y2 == y)
        ruled = any(ln.y1 == ln.y2 and abs(ln.y1 - y) <= near for ln in sheet.rules)
        assert marks == 2 or ruled, f"cut line y={y} has no guide"


def _strokes(sheet):
    """The sheet's printed strokes for tests/cutsim.py: crop marks at their width, grey cut lines at theirs."""
    out = []
    for lines, width in ((sheet.marks, sheet.spec.marks.stroke_mm), (sheet.rules, RULE_MM)):
        for ln in lines:
            if ln.x1 == ln.x2:
                out.append(("x", ln.x1, min(ln.y1, ln.y2), max(ln.y1, ln.y2), width))
            else:
                out.append(("y", ln.y1, min(ln.x1, ln.x2), max(ln.x1, ln.x2), width))
    return out


def _assert_strokes_inside(sheet, lines, width, m):
    """Every stroke, its width included, inside the printable margin."""
    w, h = sheet.page_mm
    for ln in lines:
        half_x = width / 2 if ln.x1 == ln.x2 else 0.0
        half_y = width / 2 if ln.y1 == ln.y2 else 0.0
        assert min(ln.x1, ln.x2) - half_x >= m - E and max(ln.x1, ln.x2) + half_x <= w - m + E, ln
        assert min(ln.y1, ln.y2) - half_y >= m - E and max(ln.y1, ln.y2) + half_y <= h - m + E, ln


def _most(spec):
    """Cards per sheet edge to edge inside the margin with 1.5 mm of bleed round the block (the bleed asked,
    if less; never less than a printed line needs: half a crop mark's stroke, and the whole of a cut line's,
    printed on the waste side of an outer edge), counted the slow way (either way round if auto)."""
    pw, ph = spec.paper_mm
    pages = {"auto": ((pw, ph), (ph, pw)), "portrait": ((min(pw, ph), max(pw, ph)),),
             "landscape": ((max(pw, ph), min(pw, ph)),)}[spec.orientation]
    m = spec.margin_mm
    need = max(min(spec.bleed_mm, MIN_OUTER_BLEED), spec.marks.stroke_mm / 2, RULE_MM)
    return max(_fits(w - 2 * m, spec.card_mm[0], 0, need) * _fits(h - 2 * m, spec.card_mm[1], 0, need)
               for w, h in pages)


@settings(max_examples=150, deadline=None)
@example(SheetSpec((100.0, 100.0), (40.0, 40.0), 0.0, None, 9.9375, MarkStyle(1.0, 0.125, 0.0), "auto", False, "most"))
@given(specs.map(lambda s: SheetSpec(s.paper_mm, s.card_mm, s.bleed_mm, None, s.margin_mm, s.marks, s.orientation,
                                     False, "most")))
def test_most_cards_with_a_cutting_guide_on_every_cut_line(spec):
    """--fit most: at least as many cards as edge to edge allows, and every cut line still has a guide
    (two crop marks, however short, or a cut line printed across the cards), all inside the margin."""
    sheet = _plan(spec)
    most = _most(spec)
    if sheet is None:
        assert most == 0
        return
    assert sheet.per_page >= most
    w, h = sheet.page_mm
    m, b = spec.margin_mm, spec.bleed_mm
    _assert_clips_in_margin_and_apart(sheet, m)
    for s in sheet.slots:
        assert s.trim.x >= s.clip.x - E and s.trim.right <= s.clip.right + E
    length = spec.marks.length_mm
    for ln in sheet.marks:
        got = math.hypot(ln.x2 - ln.x1, ln.y2 - ln.y1)
        assert got == pytest.approx(length) or MIN_MARK - E <= got < length
        _assert_mark_clear(sheet, ln, m, 0.0)
    _assert_every_cut_guided(sheet)
    _assert_strokes_inside(sheet, sheet.marks, spec.marks.stroke_mm, m)      # no stroke enters the margin
    _assert_strokes_inside(sheet, sheet.rules, RULE_MM, m)
    outer = min(b, MIN_OUTER_BLEED)
    for s in sheet.slots:                    # at least 1.5 mm of bleed outside the block, every side
        assert min(s.trim.x - s.clip.x, s.clip.right - s.trim.right, s.trim.y - s.clip.y,
                   s.clip.top - s.trim.top) >= min(outer, sheet.inner_bleed_mm) - E
    assert min(sheet.bleed_lr, sheet.bleed_tb) >= outer - E
    if sheet.gap_mm < 2 * b - E:
        assert any("edge to edge" in n for n in sheet.notes)


@settings(max_examples=150, deadline=None)
@given(specs, st.booleans(), st.floats(0, 1))
def test_the_cutting_order_finds_a_guide_for_every_cut(spec, machine, share):
    """The sheet's own cutting order (Sheet.first_cut), followed by tests/cutsim.py's trimmer on the sheet's
    strokes, frees every card with a guide for every cut: on a full sheet and on a partial last one, whatever
    the paper, card, bleed, gap, marks, fold and print-then-cut gaps."""
    from cutsim import cut_sheet

    from deckgen.layout import partial

    sheet = _plan(SheetSpec(spec.paper_mm, spec.card_mm, spec.bleed_mm, spec.gap_mm, spec.margin_mm, spec.marks,
                            spec.orientation, spec.fold, spec.fit, machine))
    assume(sheet is not None)
    w, h = sheet.page_mm
    start = {"": (0.0, 0.0, w, h), "vertical": (0.0, 0.0, sheet.fold_at, h),
             "horizontal": (0.0, sheet.fold_at, w, h)}[sheet.fold]
    used = 1 + int(share * (sheet.per_page - 1))
    slots, marks, rules = partial(sheet, used)
    for cards, page in ((sheet.slots, sheet), (slots, replace(sheet, marks=marks, rules=rules))):
        boxes = [(s.trim.x, s.trim.y, s.trim.right, s.trim.top) for s in cards]
        assert cut_sheet(start, boxes, _strokes(page), sheet.first_cut, 1e-6, repr(spec)) == len(cards)


@settings(max_examples=80, deadline=None)
@given(specs.map(lambda s: SheetSpec(s.paper_mm, s.card_mm, s.bleed_mm, s.gap_mm, s.margin_mm, s.marks,
                                     s.orientation, True, s.fit)))
def test_fold_tries_shorter_marks_before_dropping_a_card(spec):
    sheet = _plan(spec)
    if sheet is None:
        return
    if spec.fit == "most" and spec.gap_mm is None:       # --fit most folds edge to edge when that holds more
        separate = _plan(replace(spec, fit="full-bleed"))
        assert sheet.per_page >= (separate.per_page if separate else 0)
        return
    if spec.marks.length_mm > MIN_MARK:
        shortest = plan_sheet(SheetSpec(spec.paper_mm, spec.card_mm, spec.bleed_mm, spec.gap_mm, spec.margin_mm,
                                        MarkStyle(MIN_MARK, spec.marks.stroke_mm, spec.marks.offset_mm),
                                        spec.orientation, True, spec.fit))
        assert sheet.per_page == shortest.per_page        # as many as the shortest mark allows
    for ln in sheet.marks:
        got = math.hypot(ln.x2 - ln.x1, ln.y2 - ln.y1)
        assert MIN_MARK - E <= got <= spec.marks.length_mm + E or got == pytest.approx(spec.marks.length_mm)
        if sheet.fold == "vertical":             # a fold sheet's front marks stay on their half
            assert max(ln.x1, ln.x2) <= sheet.fold_at + E
        if sheet.fold == "horizontal":
            assert min(ln.y1, ln.y2) >= sheet.fold_at - E
    for x in sheet.cut_x:
        assert sum(1 for ln in sheet.marks if ln.x1 == ln.x2 == x) == 2


def _turn(rect, page, edge):
    """The physical turn of the sheet (long/short edge), for a rectangle on the back page."""
    w, h = page
    from deckgen.layout import Rect

    about_vertical = (h >= w) == (edge == "long")
    return Rect(w - rect.right, rect.y, rect.w, rect.h) if about_vertical else Rect(rect.x, h - rect.top, rect.w, rect.h)


@settings(max_examples=60, deadline=None)
@given(specs.filter(lambda s: not s.fold), st.sampled_from(["long", "short"]))
def test_backs_turn_back_onto_their_fronts(spec, duplex):
    sheet = _plan(spec)
    assume(sheet is not None)
    for s in sheet.slots:
        seen = _turn(back_rect(s.trim, sheet, duplex, (0.0, 0.0)), sheet.page_mm, duplex)
        assert (seen.x, seen.y) == pytest.approx((s.trim.x, s.trim.y))


@settings(max_examples=80, deadline=None)
@given(specs, st.floats(0, 1))
def test_last_partial_sheet_frames_only_its_cards(spec, share):
    from deckgen.layout import partial

    sheet = _plan(spec)
    assume(sheet is not None and sheet.per_page >= 2)     # a partial sheet needs a sheet of two cards or more
    used = 1 + int(share * (sheet.per_page - 2))
    slots, marks, rules = partial(sheet, used)
    assert len(slots) == used
    w, h = sheet.page_mm
    m = spec.margin_mm
    for s in slots:
        c = s.clip
        assert c.x >= m - E and c.right <= w - m + E and c.y >= m - E and c.top <= h - m + E
        assert c.x <= s.trim.x + E and c.top >= s.trim.top - E
    for a in slots:                # bleeds may meet in an empty corner, never on a neighbour's card
        for b in slots:
            if a.index != b.index:
                assert not _overlap(a.clip, b.trim)
    for ln in marks:
        for x, y in ((ln.x1, ln.y1), (ln.x2, ln.y2)):
            assert m - E <= x <= w - m + E and m - E <= y <= h - m + E
        x0, x1, y0, y1 = min(ln.x1, ln.x2), max(ln.x1, ln.x2), min(ln.y1, ln.y2), max(ln.y1, ln.y2)
        for s in slots:
            c = s.clip
            assert not (x1 > c.x + E and x0 < c.right - E and y1 > c.y + E and y0 < c.top - E)
    lowest = min(s.trim.y for s in slots)
    assert all(min(ln.y1, ln.y2) >= lowest - spec.bleed_mm - spec.marks.offset_mm - spec.marks.length_mm - E
               for ln in marks), "no marks for the empty rows"
