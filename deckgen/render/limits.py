"""The limits of a layout file, checked before any of it is used (``docs/layouts.md``,
``docs/security.md``).

Every data file already has finite numbers of at most a billion (:func:`deckgen.datafile.bounded`);
a layout's boxes are drawn on every face, so they get ranges near the card (:data:`RANGES`: a bare
number or ``u`` is 1/100 of the card's width, ``%`` is of the safe box), written in at most
:data:`MAX_LENGTH_TEXT` characters; a layout has at most :data:`MAX_ELEMENTS` elements (each is
drawn on every face: ten thousand of them took over ten minutes). A box far larger than the card
would make every face allocate pictures of that size.
"""

from __future__ import annotations

import math
import re
from typing import Any

from deckgen.errors import DeckgenError, Finding, error

MAX_ELEMENTS = 64           # elements of one layout (the bundled ones have at most 12)
MAX_LENGTH_TEXT = 32        # characters of a length written as text ("12.5mm")
# box key -> (lowest, highest) in units or % (of the safe box), and in millimetres
RANGES: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    **{k: ((-50.0, 150.0), (-100.0, 300.0)) for k in ("left", "right", "top", "bottom")},
    **{k: ((-100.0, 100.0), (-200.0, 200.0)) for k in ("cx", "cy")},
    **{k: ((1.0, 200.0), (1.0, 400.0)) for k in ("width", "height")},
}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(%|mm|u)?\s*$")
HINT = ("a bare number is 1/100 of the card's width, \"40%\" is of the safe box, \"5mm\" is millimetres; "
        "see docs/layouts.md for each key's range")


def check_layout(data: dict[str, Any], path: str) -> None:
    """Raise DeckgenError with every length out of range and a count of elements over the limit."""
    problems: list[Finding] = []
    elements = data.get("elements")
    if isinstance(elements, dict):
        if len(elements) > MAX_ELEMENTS:
            problems.append(error("size", "elements", f"the layout has {len(elements)} elements, over the limit of "
                                  f"{MAX_ELEMENTS}", file=path, hint="a face needs a dozen elements at most"))
        else:
            for name, table in elements.items():
                box = table.get("box") if isinstance(table, dict) else None
                for key, value in box.items() if isinstance(box, dict) else ():
                    problem = length_problem(key, value)
                    if problem:
                        problems.append(error("value", f"elements.{name}.box.{key}", problem, file=path, hint=HINT))
    if problems:
        from deckgen.datafile import with_lines

        raise DeckgenError(with_lines(problems))


def length_problem(key: str, value: Any) -> str | None:
    """Why a box length is out of its key's range (a number, or a text such as "5mm"), or None. A
    value that is not a length at all, or a key that is not a box key, is left to the layout's
    parser, which says what it expected."""
    if key not in RANGES:
        return None
    if isinstance(value, str):
        if len(value) > MAX_LENGTH_TEXT:
            return f"a length of {len(value)} characters is not one"
        m = _LENGTH.match(value)
        if not m:
            return None
        number, unit = float(m.group(1)), m.group(2) or ""
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        number, unit = float(value), ""
    else:
        return None
    lo, hi = RANGES[key][1 if unit == "mm" else 0]
    if not math.isfinite(number) or not lo <= number <= hi:
        return f"{value!r} is out of range: {key} is from {lo:g}{unit} to {hi:g}{unit}"
    return None


__all__ = ["MAX_ELEMENTS", "MAX_LENGTH_TEXT", "RANGES", "check_layout", "length_problem"]
