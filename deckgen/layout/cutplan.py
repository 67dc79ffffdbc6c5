"""The cutting order of a card sheet, as steps a person follows with a paper trimmer.

It is read from the sheet's own geometry (:func:`cut_plan`): the cut lines of one direction
(:attr:`Sheet.first_cut`) are cut first, right across the sheet, each from its crop mark on one
edge to its mark on the opposite edge, or along the grey line printed on it; every strip that
leaves still holds, for the other direction, the grey lines printed along its cards (the crop
marks of those lines went with the waste). The cover of the cards PDF and the rulebook's
printing page both print :func:`cutting_steps` of the same plan, in their language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from deckgen.words import CUT_STEPS

if TYPE_CHECKING:
    from deckgen.layout.geometry import Sheet


@dataclass(frozen=True)
class CutPlan:
    """What to cut, in order. ``first``/``second``: "x" (the vertical cut lines) or "y" (the horizontal
    ones); ``first_marked``: the first cuts run between crop marks (else along printed grey lines)."""

    first: str
    first_lines: int
    second_lines: int
    first_marked: bool
    gaps: bool            # strips between cards to throw away
    fold: bool            # fold and glue the sheet before cutting

    @property
    def second(self) -> str:
        return "y" if self.first == "x" else "x"


def cut_plan(sheet: Sheet) -> CutPlan:
    """The cutting order of a full sheet of this layout."""
    first = sheet.first_cut
    lines = {"x": len(sheet.cut_x), "y": len(sheet.cut_y)}
    marks = {"x": sheet.mark_tb, "y": sheet.mark_lr}      # the vertical lines are marked above and below the block
    second = "y" if first == "x" else "x"
    return CutPlan(first, lines[first], lines[second], marks[first] > 0, max(sheet.gaps) > 0, bool(sheet.fold))


def cutting_steps(plan: CutPlan, lang: str) -> list[str]:
    """The plan as numbered-list sentences in ``lang`` (English for a language without words)."""
    t = CUT_STEPS[lang if lang in CUT_STEPS else "en"]
    out = [t["fold"]] if plan.fold else []
    first = t["dir_" + plan.first]
    guide = t["between_" + plan.first] if plan.first_marked else t["on_grey"]
    out.append(t["first"].format(n=plan.first_lines, dir=first, guide=guide))
    out.append(t["second"].format(n=plan.second_lines, dir=t["dir_" + plan.second]))
    if plan.gaps:
        out.append(t["gaps"])
    return out
