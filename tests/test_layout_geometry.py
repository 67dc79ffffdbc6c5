"""Property tests of the sheet geometry: whatever the paper, card, bleed, gap and margin."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen.errors import DeckgenError
from deckgen.layout import MarkStyle, SheetSpec, back_rect, plan_sheet

E = 1e-6

specs = st.builds(
    SheetSpec,
    paper_mm=st.tuples(st.floats(100, 450), st.floats(100, 450)),
    card_mm=st.tuples(st.floats(40, 120), st.floats(40, 120)),
    bleed_mm=st.floats(0, 5),
    gap_mm=st.one_of(st.just(0.0), st.floats(0, 10)),
    margin_mm=st.floats(0, 15),
    marks=st.builds(MarkStyle, st.floats(1, 8), st.floats(0.1, 0.6), st.floats(0, 3)),
)


def _overlap(a, b):
    return a.x < b.right - E and b.x < a.right - E and a.y < b.top - E and b.y < a.top - E


def _plan(spec):
    try:
        return plan_sheet(spec)
    except DeckgenError:
        pw, ph = spec.paper_mm
        assert spec.card_mm[0] > pw - 2 * spec.margin_mm or spec.card_mm[1] > ph - 2 * spec.margin_mm
        return None


@settings(max_examples=150, deadline=None)
@given(specs)
def test_sheet_respects_margin_and_marks_never_cross_a_card(spec):
    sheet = _plan(spec)
    if sheet is None:
        return
    pw, ph = spec.paper_mm
    m = spec.margin_mm
    cw, ch = spec.card_mm
    assert sheet.cols * cw + (sheet.cols - 1) * spec.gap_mm <= pw - 2 * m + E
    assert (sheet.cols + 1) * cw + sheet.cols * spec.gap_mm > pw - 2 * m - E     # as many as fit
    assert (sheet.rows + 1) * ch + sheet.rows * spec.gap_mm > ph - 2 * m - E
    assert abs(sheet.block.x - (pw - sheet.block.right)) < E                     # centred
    assert abs(sheet.block.y - (ph - sheet.block.top)) < E
    for s in sheet.slots:
        c = s.clip
        assert c.x >= m - E and c.right <= pw - m + E and c.y >= m - E and c.top <= ph - m + E
        assert s.image.w == pytest.approx(cw + 2 * spec.bleed_mm)
        assert c.x <= s.trim.x + E and c.right >= s.trim.right - E                # trim always shown
    for a in sheet.slots:
        for b in sheet.slots:
            if a.index < b.index:
                assert not _overlap(a.clip, b.clip)
    for ln in sheet.marks:
        for x, y in ((ln.x1, ln.y1), (ln.x2, ln.y2)):
            assert m - E <= x <= pw - m + E and m - E <= y <= ph - m + E
        x0, x1, y0, y1 = min(ln.x1, ln.x2), max(ln.x1, ln.x2), min(ln.y1, ln.y2), max(ln.y1, ln.y2)
        for s in sheet.slots:
            c = s.clip
            crosses = x1 > c.x + E and x0 < c.right - E and y1 > c.y + E and y0 < c.top - E
            assert not crosses, f"crop mark {ln} crosses card {s.index}"
    band = sheet.label_band        # the sheet label's strip: inside the margin, clear of cards and marks
    if band is not None:
        assert band.x >= m - E and band.y >= m - E and band.top <= ph - m + E
        for s in sheet.slots:
            assert not _overlap(band, s.clip)
        for ln in sheet.marks:
            assert not (min(ln.x1, ln.x2) < band.right and max(ln.x1, ln.x2) > band.x and
                        min(ln.y1, ln.y2) <= band.top and max(ln.y1, ln.y2) >= band.y)
    for x in sheet.cut_x:          # every cut line has its marks (when there is room for them)
        n = sum(1 for ln in sheet.marks if ln.x1 == ln.x2 == x)
        assert n in (0, 2)
        assert n == 2 or any("top and bottom" in note for note in sheet.notes)


@settings(max_examples=60, deadline=None)
@given(specs, st.sampled_from(["long", "short"]))
def test_backs_mirror_back_onto_their_fronts(spec, duplex):
    sheet = _plan(spec)
    if sheet is None:
        return
    pw, ph = spec.paper_mm
    for s in sheet.slots:
        b = back_rect(s.trim, sheet, duplex, (0.0, 0.0))
        # turning the sheet over: long edge mirrors x, short edge mirrors y
        seen = (pw - b.right, b.y) if duplex == "long" else (b.x, ph - b.top)
        assert seen == pytest.approx((s.trim.x, s.trim.y))


@settings(max_examples=80, deadline=None)
@given(specs, st.floats(0, 1))
def test_last_partial_sheet_frames_only_its_cards(spec, share):
    from deckgen.layout import partial

    sheet = _plan(spec)
    if sheet is None or sheet.per_page < 2:
        return
    used = 1 + int(share * (sheet.per_page - 2))
    slots, marks = partial(sheet, used)
    assert len(slots) == used
    pw, ph = spec.paper_mm
    m = spec.margin_mm
    for s in slots:
        c = s.clip
        assert c.x >= m - E and c.right <= pw - m + E and c.y >= m - E and c.top <= ph - m + E
        assert c.x <= s.trim.x + E and c.top >= s.trim.top - E
    for a in slots:                # bleeds may meet in an empty corner, never on a neighbour's card
        for b in slots:
            if a.index != b.index:
                assert not _overlap(a.clip, b.trim)
    for ln in marks:
        for x, y in ((ln.x1, ln.y1), (ln.x2, ln.y2)):
            assert m - E <= x <= pw - m + E and m - E <= y <= ph - m + E
        x0, x1, y0, y1 = min(ln.x1, ln.x2), max(ln.x1, ln.x2), min(ln.y1, ln.y2), max(ln.y1, ln.y2)
        for s in slots:
            c = s.clip
            assert not (x1 > c.x + E and x0 < c.right - E and y1 > c.y + E and y0 < c.top - E)
    lowest = min(s.trim.y for s in slots)
    assert all(min(ln.y1, ln.y2) >= lowest - spec.bleed_mm - spec.marks.offset_mm - spec.marks.length_mm - E
               for ln in marks), "no marks for the empty rows"
