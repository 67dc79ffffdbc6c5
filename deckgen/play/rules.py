"""The table's rules page: the rulebook's own text (the deck's templates, checked as for the PDF:
:func:`deckgen.rulebook.text.checked_text`), cut into blocks the page shows as text.

Each block is ``{"type": "h1"|"h2"|"p"|"ol"|"ul"|"card", ...}``: a heading or paragraph holds
``runs`` (``{"t": text, "b": bold, "i": italic}``: the rulebook's ``<b>`` and ``<i>``; its other
tags are dropped and their text kept), a list ``items`` (each a list of runs), a card entry its
group's ``name``, a face ``id`` and the rulebook's paragraphs about it (``text``). Where the PDF
has a table (the components, the palette) the page has the card entries and the text around it.
"""

from __future__ import annotations

import html
import re
from typing import Any

from deckgen.errors import DeckgenError
from deckgen.model import Deck

_TAG = re.compile(r"<(/?)([a-zA-Z]+)[^>]*>")
_BLOCK = re.compile(r"^@@block (\d+)@@$")


def runs(text: str) -> list[dict[str, Any]]:
    """A line of rulebook markup as text runs, bold and italic kept, every other tag dropped."""
    out: list[dict[str, Any]] = []
    bold = italic = 0
    at = 0
    for m in _TAG.finditer(text):
        if m.start() > at:
            out.append({"t": html.unescape(text[at:m.start()]), "b": bold > 0, "i": italic > 0})
        closing, tag = m.group(1) == "/", m.group(2).lower()
        if tag in ("b", "strong"):
            bold += -1 if closing else 1
        elif tag in ("i", "em"):
            italic += -1 if closing else 1
        at = m.end()
    if at < len(text):
        out.append({"t": html.unescape(text[at:]), "b": bold > 0, "i": italic > 0})
    return [r for r in out if r["t"]]


def blocks(deck: Deck, lang: str) -> list[dict[str, Any]]:
    """The rulebook of this deck in this language as the page's blocks (module docstring)."""
    from deckgen.rulebook.describe import group_name, group_text
    from deckgen.rulebook.groups import groups
    from deckgen.rulebook.text import checked_text

    try:
        text, rec = checked_text(deck, lang)
    except DeckgenError as exc:
        return [{"type": "p", "runs": [{"t": f.message, "b": False, "i": False}]} for f in exc.findings]
    by_key = {g.key: g for g in groups(deck)}
    out: list[dict[str, Any]] = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line:
            continue
        m = _BLOCK.match(line)
        if m:
            block = rec.blocks[int(m.group(1))]
            g = by_key.get(block.args[0]) if block.name == "card" and block.args else None
            if g is not None:
                out.append({"type": "card", "name": group_name(deck, g, lang), "id": g.first.id,
                            "text": group_text(deck, g, lang)})
            continue
        kind = "ol" if re.match(r"^\d+\.\s", line) else "ul" if line.startswith("- ") else None
        if kind is not None:
            item = runs(line.split(" ", 1)[1] if " " in line else "")
            if out and out[-1]["type"] == kind:
                out[-1]["items"].append(item)
            else:
                out.append({"type": kind, "items": [item]})
        elif line.startswith("## "):
            out.append({"type": "h2", "runs": runs(line[3:])})
        elif line.startswith("# "):
            out.append({"type": "h1", "runs": runs(line[2:])})
        else:
            out.append({"type": "p", "runs": runs(line)})
    return out


__all__ = ["blocks", "runs"]
