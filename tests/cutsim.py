"""A guillotine trimmer on a model of the printed sheet, independent of the layout code.

A sheet is its cards' trim rectangles and the straight strokes printed on it (crop marks and grey
cut lines, each with its width), in any one unit, y up. :func:`cut_sheet` cuts it in the order
given: all the cut lines of one axis, then all those of the other. Each cut runs right across the
piece it is made in, and must have a guide printed on that piece: strokes on the cut line on both
sides of the cards it frees (two crop marks), or one that spans them (a grey line); a stroke is on
the line when the line passes through it. The cards must come out each on its own piece, exactly
at its trim.
"""

from __future__ import annotations

Box = tuple[float, float, float, float]          # x0, y0, x1, y1
Stroke = tuple[str, float, float, float, float]  # axis ("x": a vertical stroke at x = position), position, start, end, width


class Unguided(AssertionError):
    pass


def _guided(axis: str, at: float, piece: Box, cards: list[Box], strokes: list[Stroke], tol: float) -> bool:
    x0, y0, x1, y1 = piece
    lo_p, hi_p = (y0, y1) if axis == "x" else (x0, x1)
    along = [(c[1], c[3]) if axis == "x" else (c[0], c[2]) for c in cards]
    lo, hi = min(a for a, _ in along), max(b for _, b in along)
    spans = [(max(s, lo_p), min(e, hi_p)) for a, pos, s, e, w in strokes
             if a == axis and abs(pos - at) <= w / 2 + tol and e > lo_p and s < hi_p
             and (x0 - tol <= pos <= x1 + tol if axis == "x" else y0 - tol <= pos <= y1 + tol)]
    return any(s <= lo + tol for s, _ in spans) and any(e >= hi - tol for _, e in spans)


def _cut(pieces: list[tuple[Box, list[Box]]], axis: str, at: float, strokes: list[Stroke], tol: float,
         where: str) -> list[tuple[Box, list[Box]]]:
    out = []
    for piece, cards in pieces:
        x0, y0, x1, y1 = piece
        lo, hi = (x0, x1) if axis == "x" else (y0, y1)
        edge = [c for c in cards if any(abs(v - at) <= tol for v in ((c[0], c[2]) if axis == "x" else (c[1], c[3])))]
        if not edge or not lo + tol < at < hi - tol:
            out.append((piece, cards))
            continue
        if not _guided(axis, at, piece, edge, strokes, tol):
            raise Unguided(f"{where}: no guide for the cut at {axis} = {at:.3f}")
        parts = ((x0, y0, at, y1), (at, y0, x1, y1)) if axis == "x" else ((x0, y0, x1, at), (x0, at, x1, y1))
        for part in parts:
            inside = [c for c in cards if part[0] - tol <= c[0] and c[2] <= part[2] + tol and
                      part[1] - tol <= c[1] and c[3] <= part[3] + tol]
            out.append((part, inside))
        assert sum(len(c) for _, c in out[-2:]) == len(cards), f"{where}: the cut at {axis} = {at:.3f} crosses a card"
    return out


def cut_sheet(sheet: Box, cards: list[Box], strokes: list[Stroke], first: str, tol: float, where: str = "") -> int:
    """Cut ``sheet`` (the piece the cutting starts from) along every card edge, the ``first`` axis's
    lines first; returns the cards freed. Raises Unguided for a cut without a guide."""
    lines = {"x": sorted({v for c in cards for v in (c[0], c[2])}), "y": sorted({v for c in cards for v in (c[1], c[3])})}
    pieces = [(sheet, list(cards))]
    for axis in (first, "y" if first == "x" else "x"):
        merged: list[float] = []
        for v in lines[axis]:
            if not merged or v - merged[-1] > tol:
                merged.append(v)
        for at in merged:
            pieces = _cut(pieces, axis, at, strokes, tol, where)
    freed = [(p, cs) for p, cs in pieces if cs]
    assert all(len(cs) == 1 for _, cs in freed), f"{where}: a piece with several cards is left"
    for piece, cs in freed:
        assert all(abs(a - b) <= tol for a, b in zip(piece, cs[0])), f"{where}: a card not cut to its trim"
    return len(freed)
