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

The inline markup of card texts (``kinds.<id>.text``, ``cards[].text``) works in templates too,
read by :func:`runs` for the faces and turned into ReportLab's by :func:`inline` here::

    **bold**   *italic*   {red} {skip} {steal}    \\* \\{ for the characters themselves

``{name}`` is an inline icon: a palette colour's chip, a kind's icon or symbol, or a symbol.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

import markupsafe

_BLOCK = re.compile(r"^@@block (\d+)@@$")
_INLINE = re.compile(r"\\([*{}\\])|\*\*|\*|\{([a-z0-9][a-z0-9-]*)\}")
_NUM = re.compile(r"^\d+[.)]\s+")


@dataclass(frozen=True)
class Run:
    """A piece of inline text: words in one style, or one icon."""

    text: str = ""
    bold: bool = False
    italic: bool = False
    icon: str | None = None        # a palette colour id, kind id or symbol name


def runs(text: str) -> list[Run]:
    """A text with inline markup as runs; an unclosed ``**`` or ``*`` runs to the end."""
    out: list[Run] = []
    bold = italic = False
    pos = 0
    buf = ""

    def push() -> None:
        nonlocal buf
        if buf:
            out.append(Run(buf, bold, italic))
        buf = ""

    for m in _INLINE.finditer(text):
        buf += text[pos:m.start()]
        pos = m.end()
        if m.group(1):
            buf += m.group(1)
        elif m.group(2):
            push()
            out.append(Run(m.group(2), bold, italic, m.group(2)))
        else:
            push()
            if m.group(0) == "**":
                bold = not bold
            else:
                italic = not italic
    buf += text[pos:]
    push()
    return out


def icons_in(text: str) -> list[str]:
    """The icon names a text uses, in order, each once."""
    return list(dict.fromkeys(r.icon for r in runs(text) if r.icon))


def plain_text(text: str) -> str:
    """A text with its inline markup removed (icons as their names)."""
    return "".join(r.text for r in runs(text))


def inline(text: str, icon: Callable[[str], str | None] | None = None) -> str:
    """Inline markup (``**bold**``, ``*italic*``, ``{icon}``) as ReportLab's; ``icon(name)`` gives an
    icon's ReportLab markup (default: its name in bold). The text around it is kept as it is, so
    ReportLab markup a template already holds passes through."""
    parts = []
    for r in runs(text):
        if r.icon is not None:
            body = icon(r.icon) if icon is not None else None
            body = body if body is not None else f"<b>{r.icon}</b>"
        else:
            body = r.text
        if r.italic:
            body = f"<i>{body}</i>"
        if r.bold:
            body = f"<b>{body}</b>"
        parts.append(body)
    return "".join(parts)


@dataclass(frozen=True)
class Item:
    kind: str      # h1 h2 h3 p bullet num note block
    text: str = ""
    block: int = -1


def parse(text: str, icon: Callable[[str], str | None] | None = None) -> list[Item]:
    """A template's text as items; ``icon`` as for :func:`inline` (the PDF gives pictures, the check
    the default)."""
    items: list[Item] = []
    cur: list[str] = []
    cur_kind = "p"

    def flush() -> None:
        nonlocal cur, cur_kind
        if cur:
            items.append(Item(cur_kind, inline(" ".join(cur), icon)))
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
                items.append(Item(kind, inline(line[len(prefix):].strip(), icon)))
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


_MARKUP_CHARS = re.compile(r"([\\*{}])")


def literal(text: str) -> str:
    """A text that a template's paragraph shows as it is: the entities jinja's autoescape writes, and ``\\``
    before each character the inline markup reads (``*``, ``{``, ``}``, ``\\``), so a deck named
    "Wild *Star*" is not set in italics and "{red}" in a name is not an icon. Template text and a
    card's own rules text keep their markup; this is for the deck's names and words."""
    return _MARKUP_CHARS.sub(r"\\\1", str(markupsafe.escape(text)))


def as_is(value: object) -> object:
    """What a template writes for a value: a plain text (the deck's name, a colour's or card's name)
    as :func:`literal` markup, shown as written; markup a helper made (``card()``, ``names()``) and
    numbers pass unchanged. Jinja's ``finalize`` and the template helpers both use it."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return markupsafe.Markup(literal(value))
    return value
