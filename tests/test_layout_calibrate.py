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
