"""The calibration sheet, read back with pdfplumber: four corner targets, edge scales for cardstock,
every back scale where the physical turn of the sheet brings the front line it measures."""

from __future__ import annotations

import io
from collections import defaultdict

import pdfplumber
import pytest
from click.testing import CliRunner

from deckgen.cli import main
from deckgen.layout import calibration_pdf
from deckgen.units import mm_to_pt

E = 0.02


def turn(x, y, w, h, edge):
    """A point on the front -> the same spot seen on the back page, after a long/short-edge flip."""
    about_vertical = (h >= w) == (edge == "long")
    return (w - x, y) if about_vertical else (x, h - y)


def _scales(lines):
    """Back scales: runs of 25 parallel ticks 0.5 mm apart on one baseline -> (horizontal?, zero tick)."""
    groups = defaultdict(list)
    for ln in lines:
        if abs(ln["x0"] - ln["x1"]) < 1e-6 and ln["height"] <= mm_to_pt(5.01):     # tick of a horizontal scale
            groups[("h", "lo", round(ln["y0"], 2))].append(ln)
            groups[("h", "hi", round(ln["y1"], 2))].append(ln)
        elif abs(ln["y0"] - ln["y1"]) < 1e-6 and ln["width"] <= mm_to_pt(5.01):
            groups[("v", "lo", round(ln["x0"], 2))].append(ln)
            groups[("v", "hi", round(ln["x1"], 2))].append(ln)
    out = []
    step = mm_to_pt(0.5)
    for (kind, _, _), ticks in groups.items():
        pos = (lambda t: t["x0"]) if kind == "h" else (lambda t: t["y0"])
        ticks = sorted(ticks, key=pos)
        run: list = []
        for t in [*ticks, None]:
            if t is not None and (not run or abs(pos(t) - pos(run[-1]) - step) < 0.05):
                run.append(t)
                continue
            if len(run) == 25:
                out.append((kind == "h", run[12]))
            run = [t] if t is not None else []
    return out


def _front_lines(page):
    w, h = float(page.width), float(page.height)
    vertical = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 1e-6 and ln["height"] > mm_to_pt(20)]
    horizontal = [ln for ln in page.lines if abs(ln["y0"] - ln["y1"]) < 1e-6 and ln["width"] > mm_to_pt(20)]
    return w, h, vertical, horizontal


@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("paper", ["a4", "letter", "11inx8.5in"])
def test_every_front_line_crosses_a_back_scale_at_zero(paper, edge):
    with pdfplumber.open(io.BytesIO(calibration_pdf(paper, edge))) as pdf:
        front, back = pdf.pages
        w, h, vertical, horizontal = _front_lines(front)
        # four corner targets (arms 32 mm long) and the two cut lines across the sheet
        arms_v = [ln for ln in vertical if ln["height"] < mm_to_pt(40)]
        arms_h = [ln for ln in horizontal if ln["width"] < mm_to_pt(40)]
        assert len(arms_v) == 4 and len(arms_h) == 4
        corners = {(ln["x0"] < w / 2, (ln["y0"] + ln["y1"]) / 2 < h / 2) for ln in arms_v}
        assert len(corners) == 4, "one target in each corner"
        cuts_v = [ln for ln in vertical if ln["height"] > h / 2]
        cuts_h = [ln for ln in horizontal if ln["width"] > w / 2]
        assert len(cuts_v) == 1 and len(cuts_h) == 1
        scales = _scales(back.lines)
        assert len(scales) == 12             # X and Y behind each target, two edge scales on each cut line
        for ln, crossings in [(a, 1) for a in arms_v] + [(a, 1) for a in arms_h] + [(cuts_v[0], 2), (cuts_h[0], 2)]:
            is_v = abs(ln["x0"] - ln["x1"]) < 1e-6
            a = turn(ln["x0"], ln["y0"], w, h, edge)
            b = turn(ln["x1"], ln["y1"], w, h, edge)
            hits = 0
            for horizontal_scale, zero in scales:
                if is_v and horizontal_scale:        # the line runs up the back at x = a[0]
                    lo, hi = sorted((a[1], b[1]))
                    if abs(zero["x0"] - a[0]) < E and lo - E <= zero["y0"] <= hi + E:
                        hits += 1
                if not is_v and not horizontal_scale:
                    lo, hi = sorted((a[0], b[0]))
                    if abs(zero["y0"] - a[1]) < E and lo - E <= zero["x0"] <= hi + E:
                        hits += 1
            assert hits == crossings, f"front line {ln['x0']:.1f},{ln['y0']:.1f} meets {hits} zero ticks"
        text = front.extract_text()
        assert "same paper and the same tray" in text and "misma bandeja" in text
        assert "Cardstock" in text and "CUT" in text


def test_back_moves_with_the_offset():
    def lines(data):
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            return sorted((round(ln["x0"], 2), round(ln["y0"], 2)) for ln in pdf.pages[1].lines)

    base, moved = lines(calibration_pdf("a4")), lines(calibration_pdf("a4", back_offset_mm=(1.0, 2.0)))
    assert base and len(base) == len(moved)
    for (x, y), (u, v) in zip(base, moved):
        assert u - x == pytest.approx(mm_to_pt(1.0), abs=0.02) and v - y == pytest.approx(-mm_to_pt(2.0), abs=0.02)


def test_calibrate_offers_only_double_sided_modes(tmp_path):
    runner = CliRunner()
    res = runner.invoke(main, ["calibrate", "--help"])
    assert "[long|short]" in res.output and "none" not in res.output.split("--duplex")[1].split("\n")[0]
    res = runner.invoke(main, ["calibrate", "--duplex", "none", "-o", str(tmp_path / "c.pdf")])
    assert res.exit_code == 2
    res = runner.invoke(main, ["calibrate", "--paper", "11inx8.5in", "--duplex", "short", "-o", str(tmp_path / "c.pdf")])
    assert res.exit_code == 0 and (tmp_path / "c.pdf").exists()


# ---------------------------------------------------------------- a simulated printer, in physical terms
#
# The printer is modelled on its own terms, without the layout code: it feeds every sheet portrait
# (the paper's long edges vertical in its own frame), rotates a landscape page a quarter turn
# onto it, and its duplexer turns the sheet about the paper's long edge. For the second side the
# driver rotates the page so that it lands behind the first side (the physics in ``turn``), and
# the printer then puts the whole second side SHIFT mm off in its own frame. Calibrating and
# building with the same paper, orientation and duplex must then leave no misregistration.

SHIFT = (1.0, 0.5)          # mm, the printer's second-side error in its own (portrait) frame


def _rot(deg, v):
    x, y = v
    return {0: (x, y), 90: (-y, x), 180: (-x, -y), 270: (y, -x)}[deg % 360]


def _back_rotation(page, edge):
    """Degrees the back page is turned onto the printer's portrait frame: the duplexer mirrors the
    printer's x, the front page is turned a quarter for landscape, and the sheet turns as ``turn`` says."""
    w, h = page
    front = 90 if w > h else 0
    for deg in (0, 90, 180, 270):                # the rotation with mirror_x . R_front . turn == R_back
        ok = True
        for v in ((1.0, 0.0), (0.0, 1.0)):
            fx, fy = _rot(front, _turn_vector(v, page, edge))
            if (round(-fx, 6), round(fy, 6)) != tuple(round(c, 6) for c in _rot(deg, v)):
                ok = False
        if ok:
            return deg
    raise AssertionError("no rotation")


def _turn_vector(v, page, edge):
    w, h = page
    about_vertical = (h >= w) == (edge == "long")
    return (-v[0], v[1]) if about_vertical else (v[0], -v[1])


def printer_shift_on_page(page, edge):
    """The printer's second-side shift, as seen in the back page's own coordinates (points)."""
    deg = _back_rotation(page, edge)
    dx, dy = _rot(-deg, SHIFT)
    return mm_to_pt(dx), mm_to_pt(dy)


def read_calibration(data, edge):
    """Print the calibration sheet on the simulated printer and read X and Y off the back's scales,
    as a person would: where the front's lines cross them, in the labels' direction."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        front, back = pdf.pages
        w, h, vertical, horizontal = _front_lines(front)
        page = (w, h)
        sx, sy = printer_shift_on_page(page, edge)
        scales = _scales(back.lines)
        chars = [c for c in back.chars if c["text"] in "+-"]
        readings = {"X": [], "Y": []}
        for is_h, zero in scales:
            zx, zy = zero["x0"], zero["y0"]

            def pos(c, is_h=is_h):          # along the scale
                return (c["x0"] + c["x1"]) / 2 if is_h else h - (c["top"] + c["bottom"]) / 2

            def off(c, is_h=is_h):          # across it
                return h - (c["top"] + c["bottom"]) / 2 if is_h else (c["x0"] + c["x1"]) / 2

            near = [c for c in chars if abs(pos(c) - (zx if is_h else zy)) < mm_to_pt(7)
                    and abs(off(c) - (zy if is_h else zx)) < mm_to_pt(9)]

            plus = [pos(c) for c in near if c["text"] == "+"]
            minus = [pos(c) for c in near if c["text"] == "-"]
            assert plus and minus, "every scale is labelled both ways"
            sign = 1 if sum(plus) / len(plus) > sum(minus) / len(minus) else -1
            zero_pos = (zx + sx) if is_h else (zy + sy)          # the printer moved the whole back
            lines = vertical if is_h else horizontal             # a horizontal scale measures a vertical line
            hits = []
            for ln in lines:
                ax, ay = turn(ln["x0"], ln["y0"], w, h, edge)
                bx, by = turn(ln["x1"], ln["y1"], w, h, edge)
                if is_h and min(ay, by) - 1 <= zy + sy <= max(ay, by) + 1 and abs(ax - zero_pos) < mm_to_pt(6):
                    hits.append(ax)
                if not is_h and min(ax, bx) - 1 <= zx + sx <= max(ax, bx) + 1 and abs(ay - zero_pos) < mm_to_pt(6):
                    hits.append(ay)
            assert len(hits) == 1, "one front line shows through each scale"
            value = sign * (hits[0] - zero_pos) / mm_to_pt(1)
            readings["X" if is_h else "Y"].append(value)
        return (sum(readings["X"]) / len(readings["X"]), sum(readings["Y"]) / len(readings["Y"]))


def misregistration(data, edge):
    """Largest distance (mm) between a card's front and its back after the simulated printer."""
    from pdfsheet import drawn_images, reader_of

    reader = reader_of(data)
    worst = 0.0
    for fp, bp in zip(reader.pages[2::2], reader.pages[3::2]):
        w, h = float(fp.mediabox.width), float(fp.mediabox.height)
        sx, sy = printer_shift_on_page((w, h), edge)
        fronts = [d.centre for d in drawn_images(fp)]
        for d in drawn_images(bp):
            x, y = turn(d.centre[0] + sx, d.centre[1] + sy, w, h, edge)
            worst = max(worst, min(((x - fx) ** 2 + (y - fy) ** 2) ** 0.5 for fx, fy in fronts) / mm_to_pt(1))
    return worst


@pytest.fixture(scope="module")
def small_deck():
    from deckgen import manifest
    from deckgen.selection import select

    return select(manifest.load_deck("classic"), "red-1x9,blue-2x3")


@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibrating_removes_a_shifted_printers_misregistration(small_deck, tmp_path, paper, orientation, edge):
    from PIL import Image

    from deckgen.layout import LayoutOptions, cards_pdf_for_deck

    card = (56.0, 87.0)
    faces = {}
    for i, face in enumerate([c.id for c in small_deck.cards] + ["back"]):
        faces[face] = tmp_path / f"{face}.png"
        Image.new("RGB", (31, 46), (30 + i * 9, 90, 160)).save(faces[face])
    options = LayoutOptions(paper=paper, duplex=edge, orientation=orientation)
    before = misregistration(cards_pdf_for_deck(small_deck, faces, card, 3.0, options).data, edge)
    assert before == pytest.approx((SHIFT[0] ** 2 + SHIFT[1] ** 2) ** 0.5, abs=0.01)
    pdf = cards_pdf_for_deck(small_deck, faces, card, 3.0, options)
    reading = read_calibration(calibration_pdf(paper, edge, orientation=orientation), edge)
    fixed = cards_pdf_for_deck(small_deck, faces, card, 3.0,
                               LayoutOptions(paper=paper, duplex=edge, orientation=orientation, back_offset_mm=reading))
    after = misregistration(fixed.data, edge)
    print(f"{paper} {orientation} {edge}: {before:.3f} mm -> {after:.3f} mm (reading {reading[0]:+.2f},{reading[1]:+.2f})")
    assert after <= 0.1, f"{paper} {orientation} {edge}: {after:.3f} mm after calibrating {reading}"
    assert pdf.sheet.landscape == (orientation == "landscape")


def test_a_reading_from_the_other_orientation_does_not_fit(small_deck, tmp_path):
    """The model can tell frames apart: a portrait reading applied to landscape sheets misregisters."""
    from PIL import Image

    from deckgen.layout import LayoutOptions, cards_pdf_for_deck

    faces = {}
    for i, face in enumerate([c.id for c in small_deck.cards] + ["back"]):
        faces[face] = tmp_path / f"{face}.png"
        Image.new("RGB", (31, 46), (30 + i * 9, 90, 160)).save(faces[face])
    reading = read_calibration(calibration_pdf("a4", "long", orientation="portrait"), "long")
    wrong = cards_pdf_for_deck(small_deck, faces, (56.0, 87.0), 3.0,
                               LayoutOptions(paper="a4", orientation="landscape", back_offset_mm=reading))
    assert misregistration(wrong.data, "long") > 1.5


@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("paper,margin", [("a4", 5.0), ("letter", 6.35), ("a5", 5.0)])
def test_no_text_crosses_a_cut_line_and_every_label_sits_inside_the_margin(paper, margin, orientation, edge):
    """Every character inside the margin, none on a cut line, and none on a tick of a scale: on a
    small page (A5) too, where the words shrink or shorten to fit between the marks."""
    with pdfplumber.open(io.BytesIO(calibration_pdf(paper, edge, orientation=orientation))) as pdf:
        front = pdf.pages[0]
        w, h, vertical, horizontal = _front_lines(front)
        cut_v = next(ln for ln in vertical if ln["height"] > h / 2)
        cut_h = next(ln for ln in horizontal if ln["width"] > w / 2)
        m = mm_to_pt(margin)
        for page in pdf.pages:
            for ch in page.chars:
                x0, x1 = ch["x0"], ch["x1"]
                y0, y1 = h - ch["bottom"], h - ch["top"]
                assert x0 >= m and x1 <= w - m and y0 >= m and y1 <= h - m, f"'{ch['text']}' in the margin"
                if page is front:        # the cut lines run on the front
                    assert not (x0 < cut_v["x0"] < x1), f"'{ch['text']}' crosses the vertical cut line"
                    assert not (y0 < cut_h["y0"] < y1), f"'{ch['text']}' crosses the horizontal cut line"
            ticks = [ln for ln in page.lines if ln["width"] <= mm_to_pt(5.01) and ln["height"] <= mm_to_pt(5.01)]
            for ch in page.chars:
                for t in ticks:          # a scale's tick through a character: the words lie on the marks
                    assert not (t["x0"] < ch["x1"] - E and t["x1"] > ch["x0"] + E and t["top"] < ch["bottom"] - E
                                and t["bottom"] > ch["top"] + E and t["width"] + t["height"] > 0.5), \
                        f"'{ch['text']}' lies on a tick"


@pytest.mark.parametrize("paper,margin,blame", [("100mmx100mm", None, "--paper"), ("a4", 140.0, "--margin")])
def test_a_page_too_small_for_the_sheet_is_refused_naming_the_option(paper, margin, blame, tmp_path):
    """A page (or a margin) that leaves no room for the targets, scales and words: one error that
    names the option to change, exit 2, never a sheet whose words run over its marks."""
    result = CliRunner().invoke(main, ["calibrate", "-o", str(tmp_path / "cal.pdf"), "--paper", paper,
                                       *(["--margin", f"{margin}mm"] if margin else [])])
    assert result.exit_code == 2 and f"error[option] {blame}: " in result.output, result.output
    assert "too small for the calibration sheet" in result.output and not (tmp_path / "cal.pdf").exists()


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
@pytest.mark.parametrize("paper,margin", [("a4", 5.0), ("letter", 6.35)])
def test_an_offset_the_sheet_cannot_show_is_refused(paper, margin, orientation):
    """--back-offset moves the back's scales; an offset that would push one past the printable margin is
    refused with the range, and at the edges of that range every tick, label and letter of the back is
    still printed inside the margin (read back with pdfplumber)."""
    import re

    from deckgen.errors import DeckgenError

    with pytest.raises(DeckgenError) as exc:
        calibration_pdf(paper, "long", back_offset_mm=(8.0, 0.0), orientation=orientation)
    found = re.search(r"X must stay between ([-+\d.]+) and ([-+\d.]+) mm and Y between ([-+\d.]+) and ([-+\d.]+) mm",
                      str(exc.value))
    assert found and "margin" in str(exc.value)
    x_lo, x_hi, y_lo, y_hi = (float(v) for v in found.groups())
    assert x_lo <= -3 and x_hi >= 3 and y_lo <= -3 and y_hi >= 3          # a usual printer shift fits
    with pytest.raises(DeckgenError):
        calibration_pdf(paper, "long", back_offset_mm=(0.0, y_hi + 0.5), orientation=orientation)
    m = mm_to_pt(margin)
    for offset in ((x_lo, y_lo), (x_hi, y_hi), (x_lo, y_hi), (x_hi, y_lo)):
        with pdfplumber.open(io.BytesIO(calibration_pdf(paper, "long", back_offset_mm=offset,
                                                        orientation=orientation))) as pdf:
            back = pdf.pages[1]
            w, h = float(back.width), float(back.height)
            for obj in [*back.chars, *back.lines]:
                assert obj["x0"] >= m - E and obj["x1"] <= w - m + E, (offset, obj.get("text"))
                assert obj["top"] >= m - E and obj["bottom"] <= h - m + E, (offset, obj.get("text"))
