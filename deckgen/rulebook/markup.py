"""The light markup templates write, parsed into a list of items for the PDF writer.

    # Heading            (in the table of contents)
    ## Sub-heading       (in the table of contents)
    ### Minor heading
    - a bullet           (continues on the following lines until a blank line)
    1. a numbered step
    > a highlighted note
    @@block N@@          (a table or card entry a helper put there)

Anything else is a paragraph; a blank line ends it. Inline markup is ReportLab's
(<b>, <i>, <font color=...>); text from the deck is escaped by the sandbox.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_BLOCK = re.compile(r"^@@block (\d+)@@$")
_NUM = re.compile(r"^\d+[.)]\s+")


@dataclass(frozen=True)
class Item:
    kind: str      # h1 h2 h3 p bullet num note block
    text: str = ""
    block: int = -1


def parse(text: str) -> list[Item]:
    items: list[Item] = []
    cur: list[str] = []
    cur_kind = "p"

    def flush():
        nonlocal cur, cur_kind
        if cur:
            items.append(Item(cur_kind, " ".join(cur)))
        cur, cur_kind = [], "p"

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        m = _BLOCK.match(line)
        if m:
            flush()
            items.append(Item("block", block=int(m.group(1))))
            continue
        for prefix, kind in (("### ", "h3"), ("## ", "h2"), ("# ", "h1")):
            if line.startswith(prefix):
                flush()
                items.append(Item(kind, line[len(prefix):].strip()))
                break
        else:
            if line.startswith("- "):
                flush()
                cur, cur_kind = [line[2:].strip()], "bullet"
            elif _NUM.match(line):
                flush()
                cur, cur_kind = [_NUM.sub("", line, count=1)], "num"
            elif line.startswith("> "):
                if cur_kind != "note":
                    flush()
                cur_kind = "note"
                cur.append(line[2:].strip())
            else:
                cur.append(line)
    flush()
    return items


def plain(text: str) -> str:
    """Inline markup removed (for bookmarks and the table of contents)."""
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&#39;", "'") \
        .replace("&#34;", '"').replace("&quot;", '"')


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities, so a text goes into ReportLab's inline markup as it is
    (what ``xml.sax.saxutils.escape`` does, without importing urllib and http with it)."""
    return html.escape(text, quote=False)
