"""The one parser of deckgen's text markup: card rules texts, the rulebook's templates and the
ReportLab markup handed to the PDF writer are all read here, into one tree, validated, and only
then used: drawn on a face (:func:`runs`), or serialised for ReportLab (:func:`to_reportlab`).

Block markup (a template's lines)::

    # Heading            (in the table of contents)
    ## Sub-heading       (in the table of contents)
    ### Minor heading
    - a bullet           (continues on the following lines until a blank line)
    1. a numbered step
    > a highlighted note
    @@block N@@          (a table or card entry a helper put there)

Anything else is a paragraph; a blank line ends it.

Inline markup comes in two layers, each switched on by the dialect that reads it:

- the card markup of rules texts (``kinds.<id>.text``, ``cards[].text``) and templates::

      **bold**   *italic*   {red} {skip} {steal}    \\* \\{ \\} \\\\ for the characters themselves

  ``{name}`` is an inline icon (a palette colour's chip, a kind's icon or symbol, a symbol),
  its name in any case;
- tags, in templates (and in what the PDF writer is handed): ReportLab's inline tags, read by
  Python's ``html.parser``, the tokenizer ReportLab's own paragraph parser is built on, so the
  tree holds exactly the tags, attributes and text ReportLab would have seen.

A text is parsed once into a :class:`Markup`: its tree and its problems (an unclosed ``**``, a
brace that starts no icon, a tag or attribute that is not allowed, an ``<img>`` of a file the
manifest does not declare, an attribute given twice ...). The PDF writer never sees the text a
template wrote, only the tree serialised again (:func:`to_reportlab`): every attribute quoted
once, every character escaped, a refused tag left out with its text kept, and an ``<img src>``
taken from the declared images' table. No two parsers read the same bytes.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser

import markupsafe

_BLOCK = re.compile(r"^@@block (\d+)@@$")
_NUM = re.compile(r"^\d+[.)]\s+")
# the card markup in a piece of text: an escape, bold, italic, an icon, a lone brace
_CARD = re.compile(r"\\([*{}\\])|(\*\*\*|\*\*)|(\*)|\{([A-Za-z0-9][A-Za-z0-9_-]{0,63})\}|([{}])")

MAX_ICONS = 24            # different inline icons in one text (a card's rules text, a template paragraph)
MAX_DEPTH = 16            # tags and markers open inside each other
MAX_SIZE = 1000.0         # points: a font size or picture side in inline markup


# ---------------------------------------------------------------- the tree

@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Icon:
    name: str                      # as written; looked up in any case


@dataclass(frozen=True)
class Tag:
    name: str                      # lower case
    attrs: tuple[tuple[str, str], ...] = ()
    children: tuple[Node, ...] = ()
    marker: str = ""               # "**" or "*" for the card markup's bold and italic; "" for a tag


Node = Text | Icon | Tag


@dataclass(frozen=True)
class Markup:
    """A parsed text: its tree and what is wrong with it (each a sentence, quoting the text)."""

    nodes: tuple[Node, ...]
    problems: tuple[str, ...] = ()
    icons: tuple[str, ...] = ()    # the icon names, in order, each once

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Dialect:
    """What a text may hold: the card markup, tags, and which images an ``<img>`` may show."""

    card: bool = True
    tags: bool = False


CARD_TEXT = Dialect(card=True, tags=False)       # a card's rules text
TEMPLATE = Dialect(card=True, tags=True)         # a rulebook template's text
REPORTLAB = Dialect(card=False, tags=True)       # markup made for ReportLab (by to_reportlab)


# ---------------------------------------------------------------- which tags, which attributes

_COLOUR = ("color", "fg", "backcolor", "bgcolor")
_FONT = ("size", *_COLOUR)         # no face or name: ReportLab looks an unknown font up in folders of AFM files
#: The inline tags a text may use and the attributes each takes: ReportLab's text styling. Tags
#: that make ReportLab call a canvas method (<onDraw>, <index>), start a paragraph (<para>) or
#: read a file other than a declared image are not here, so they are refused.
TAGS: dict[str, tuple[str, ...]] = {
    "b": (), "i": (), "strong": (), "em": (), "greek": (), "br": (),
    "u": ("color",), "strike": ("color",), "super": ("rise", "size"), "sup": ("rise", "size"),
    "sub": ("rise", "size"), "font": _FONT, "span": _FONT, "a": ("href", *_COLOUR),
    "unichar": ("name", "code", "value"), "img": ("src", "width", "height", "valign"),
}
VOID = frozenset({"br", "img", "unichar"})
_SIZES = frozenset({"size", "rise", "width", "height"})
_VALIGN = frozenset({"baseline", "sub", "super", "top", "text-top", "middle", "bottom", "text-bottom"})
_NUMBER = re.compile(r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*%?\s*$")
_HREF = re.compile(r"(?i)^(https?:|mailto:|#)")
_COLOUR_VALUE = re.compile(r"^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[A-Za-z]{3,30})$")


def _attr_problem(tag: str, key: str, value: str | None, images: Collection[str] | None) -> str | None:
    if value is None:
        return f"<{tag} {key}> has no value"
    if key in _SIZES or (tag == "img" and key == "valign" and value.strip().lower() not in _VALIGN):
        m = _NUMBER.match(value)
        if not m:
            return f"<{tag} {key}=\"{value[:20]}\"> is not a number"
        if abs(float(m.group(1))) > MAX_SIZE:
            return f"<{tag} {key}=\"{value[:20]}\"> is too large (at most {MAX_SIZE:g})"
    if key in _COLOUR and not _COLOUR_VALUE.match(value.strip()):
        return f"<{tag} {key}=\"{value[:20]}\"> is not a colour (#RRGGBB or a name)"
    if tag == "a" and key == "href" and not _HREF.match(value):
        return f"<a href=\"{value[:80]}\"> is not a web, mail or #anchor link"
    if tag == "img" and key == "src" and (images is None or value not in images):
        return f"<img src=\"{value[:80]}\"> names no image the manifest declares"
    return None


def _tag_problems(tag: str, attrs: list[tuple[str, str | None]],
                  images: Collection[str] | None) -> tuple[list[str], tuple[tuple[str, str], ...]]:
    """What is wrong with a tag as written, and the attributes that may be kept (each once, the
    first time it is given, with a value that passed)."""
    if tag not in TAGS:
        return [f"the tag <{tag}> is not allowed"], ()
    out: list[str] = []
    kept: dict[str, str] = {}
    seen: set[str] = set()
    for key, value in attrs:
        if key in seen:
            out.append(f"<{tag}> gives the attribute '{key}' twice")
            continue
        seen.add(key)
        if key not in TAGS[tag]:
            allowed = ", ".join(TAGS[tag]) or "none"
            out.append(f"<{tag}> takes no attribute '{key}' (it takes: {allowed})")
            continue
        problem = _attr_problem(tag, key, value, images)
        if problem:
            out.append(problem)
        elif value is not None:
            kept[key] = value
    if tag == "img" and "src" not in seen:
        out.append("<img> has no src")
    return out, tuple(kept.items())


# ---------------------------------------------------------------- the parser

def _quote(text: str, start: int, end: int, width: int = 30) -> str:
    """The text around [start, end), in quotes, cut with ellipses."""
    a, b = max(0, start - width), min(len(text), end + width)
    return f"“{'…' if a else ''}{text[a:b]}{'…' if b < len(text) else ''}”"


@dataclass
class _Open:
    tag: str
    attrs: tuple[tuple[str, str], ...]
    marker: str
    at: int                        # where it was opened (for the message)
    children: list[Node] = field(default_factory=list)
    refused: bool = False          # a refused tag: its children go to its parent, the tag does not


class _Builder:
    def __init__(self, source: str, images: Collection[str] | None):
        self.source = source
        self.images = images
        self.stack: list[_Open] = [_Open("", (), "", 0)]
        self.problems: list[str] = []
        self.icons: list[str] = []
        self.lines = [0] + [m.end() for m in re.finditer("\n", source)]

    def problem(self, message: str) -> None:
        if message not in self.problems:
            self.problems.append(message)

    def add(self, node: Node) -> None:
        kids = self.stack[-1].children
        if isinstance(node, Text) and kids and isinstance(kids[-1], Text):
            kids[-1] = Text(kids[-1].text + node.text)
        elif not isinstance(node, Text) or node.text:
            kids.append(node)

    def open(self, tag: str, attrs: tuple[tuple[str, str], ...], marker: str, at: int, refused: bool = False) -> None:
        if len(self.stack) > MAX_DEPTH:
            self.problem(f"markup is nested more than {MAX_DEPTH} deep at {_quote(self.source, at, at + 1)}")
            refused = True
        self.stack.append(_Open(tag, attrs, marker, at, refused=refused))

    def close_top(self) -> None:
        top = self.stack.pop()
        if top.refused:
            for kid in top.children:
                self.add(kid)
        else:
            self.add(Tag(top.tag, top.attrs, tuple(top.children), top.marker))

    def close(self, tag: str, marker: str, at: int, end: int) -> bool:
        """Close the innermost open ``tag``/``marker``; a crossing or a stray close is a problem."""
        depth = next((i for i in range(len(self.stack) - 1, 0, -1)
                      if self.stack[i].tag == tag and self.stack[i].marker == marker), None)
        shown = marker or f"</{tag}>"
        if depth is None:
            self.problem(f"{shown} closes nothing at {_quote(self.source, at, end)}")
            return False
        if depth != len(self.stack) - 1:
            inner = self.stack[-1]
            self.problem(f"{shown} closes across {inner.marker or '<' + inner.tag + '>'} at "
                         f"{_quote(self.source, at, end)}")
        while len(self.stack) - 1 > depth:
            self.unclosed(self.stack[-1], quiet=True)
        self.close_top()
        return True

    def unclosed(self, top: _Open, quiet: bool = False) -> None:
        """An element still open where it must end: a marker is put back as the text it was (it
        prints as written); a tag is closed there."""
        if not quiet:
            what = f"an unclosed {top.marker}" if top.marker else f"an unclosed <{top.tag}>"
            self.problem(f"{what} at {_quote(self.source, top.at, top.at + len(top.marker or top.tag) + 1)}")
        if top.marker:
            self.stack.pop()
            self.add(Text(top.marker))
            for kid in top.children:
                self.add(kid)
        else:
            self.close_top()

    def card_text(self, text: str, at: int) -> None:
        """A piece of text with the card markup read in it (``at``: its place in the source)."""
        pos = 0
        for m in _CARD.finditer(text):
            self.add(Text(text[pos:m.start()]))
            pos = m.end()
            start, end = at + m.start(), at + m.end()
            if m.group(1):
                self.add(Text(m.group(1)))
            elif m.group(2) == "***":                  # bold and italic at once: closed innermost first
                tops = [o.marker for o in self.stack[-2:]]
                if sorted(tops) == ["*", "**"]:
                    self.close("i" if tops[-1] == "*" else "b", tops[-1], start, end)
                    self.close("b" if tops[-1] == "*" else "i", tops[-2], start, end)
                else:
                    self.marker("**", start, end)
                    self.marker("*", start + 2, end)
            elif m.group(2) or m.group(3):
                self.marker(m.group(2) or m.group(3), start, end)
            elif m.group(4):
                name = m.group(4)
                if len(self.icons) >= MAX_ICONS and name not in self.icons:
                    self.problem(f"more than {MAX_ICONS} different inline icons")
                    self.add(Text(m.group(0)))
                    continue
                if name not in self.icons:
                    self.icons.append(name)
                self.add(Icon(name))
            else:
                brace = m.group(5)
                self.problem(f"a '{brace}' that {'starts' if brace == '{' else 'ends'} no icon at "
                             f"{_quote(self.source, start, end)} (an icon is {{name}}; write \\{brace} for the "
                             "character)")
                self.add(Text(brace))
        self.add(Text(text[pos:]))

    def marker(self, marker: str, start: int, end: int) -> None:
        """``**`` or ``*``: closes the one open, else opens one."""
        tag = "b" if marker == "**" else "i"
        if any(o.marker == marker for o in self.stack):
            self.close(tag, marker, start, end)
        else:
            self.open(tag, (), marker, start)

    def finish(self) -> Markup:
        while len(self.stack) > 1:
            self.unclosed(self.stack[-1])
        return Markup(tuple(self.stack[0].children), tuple(self.problems), tuple(self.icons))


class _TagReader(HTMLParser):
    """The tag layer: Python's ``html.parser`` (as ReportLab's paragraph parser uses it: character
    references not converted), its events put in the tree; the text between tags goes through
    the card markup when the dialect reads it."""

    def __init__(self, builder: _Builder, dialect: Dialect):
        super().__init__(convert_charrefs=False)
        self.b = builder
        self.dialect = dialect

    def _where(self) -> int:
        line, col = self.getpos()
        return self.b.lines[min(line, len(self.b.lines)) - 1] + col

    def handle_data(self, data: str) -> None:
        if self.dialect.card:
            self.b.card_text(data, self._where())
        else:
            self.b.add(Text(data))

    def handle_entityref(self, name: str) -> None:
        ch = html.unescape(f"&{name};")
        if ch == f"&{name};":
            self.b.problem(f"'&{name};' is no character name (write &amp; for '&')")
        self.b.add(Text(ch))            # a character written as a reference is text, never markup

    def handle_charref(self, name: str) -> None:
        try:
            code = int(name[1:], 16) if name[:1] in "xX" else int(name)
            ch = chr(code)
            if code == 0 or 0xD800 <= code <= 0xDFFF:
                raise ValueError
        except (ValueError, OverflowError):
            self.b.problem(f"'&#{name};' is no character")
            return
        self.b.add(Text(ch))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, tag in VOID)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], void: bool) -> None:
        at = self._where()
        problems, clean = _tag_problems(tag, attrs, self.b.images)
        for p in problems:
            self.b.problem(p)
        if tag == "img" and problems:
            return                      # a refused picture is left out whole
        if void:
            if not problems:
                self.b.add(Tag(tag, clean))
            return
        self.b.open(tag, clean, "", at, refused=bool(problems) and tag not in TAGS)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        at = self._where()
        self.b.close(tag, "", at, at + len(tag) + 3)

    def handle_comment(self, data: str) -> None:
        pass                            # a comment shows nothing, as in ReportLab

    def handle_decl(self, decl: str) -> None:
        self.b.problem(f"'<!{decl[:40]}>' is not allowed")

    def handle_pi(self, data: str) -> None:
        self.b.problem(f"'<?{data[:40]}>' is not allowed")

    def unknown_decl(self, data: str) -> None:
        self.b.problem(f"'<![{data[:40]}]>' is not allowed")


def read(text: str, dialect: Dialect = CARD_TEXT, images: Collection[str] | None = None) -> Markup:
    """A text parsed in ``dialect`` into its tree and its problems; ``images``: the files an
    ``<img src>`` may name (the manifest's declared images; None: no ``<img>`` at all). A text
    without an ``<img>`` reads the same whatever the images are, and is parsed once."""
    if images is None or "<img" not in text.lower():
        return _read_plain(text, dialect)
    return _read(text, dialect, images)


@functools.lru_cache(maxsize=2048)
def _read_plain(text: str, dialect: Dialect) -> Markup:
    return _read(text, dialect, None)


def _read(text: str, dialect: Dialect, images: Collection[str] | None) -> Markup:
    b = _Builder(text, images)
    if dialect.tags:
        reader = _TagReader(b, dialect)
        reader.feed(text)
        reader.close()
    elif dialect.card:
        b.card_text(text, 0)
    else:
        b.add(Text(text))
    return b.finish()


def card_text(text: str) -> Markup:
    """A card's rules text (``kinds.<id>.text``, ``cards[].text``), parsed."""
    return _read_card(text)


def _read_card(text: str) -> Markup:
    return _read_plain(text, CARD_TEXT)


# ---------------------------------------------------------------- using the tree

@dataclass(frozen=True)
class Run:
    """A piece of inline text: words in one style, or one icon."""

    text: str = ""
    bold: bool = False
    italic: bool = False
    icon: str | None = None        # a palette colour id, kind id or symbol name, as written


def _walk(nodes: tuple[Node, ...], bold: bool = False, italic: bool = False) -> Iterator[Run]:
    for node in nodes:
        if isinstance(node, Text):
            yield Run(node.text, bold, italic)
        elif isinstance(node, Icon):
            yield Run(node.name, bold, italic, node.name)
        else:
            yield from _walk(node.children, bold or node.name in ("b", "strong"), italic or node.name in ("i", "em"))


def runs(text: str | Markup) -> list[Run]:
    """A card text as runs (a parsed :class:`Markup` as it is); an unclosed ``**`` or ``*`` stays
    as written (its problem is the check's finding)."""
    markup = _read_card(text) if isinstance(text, str) else text
    out: list[Run] = []
    for run in _walk(markup.nodes):
        if out and run.icon is None and out[-1].icon is None and (out[-1].bold, out[-1].italic) == (run.bold, run.italic):
            out[-1] = Run(out[-1].text + run.text, run.bold, run.italic)
        elif run.text:
            out.append(run)
    return out


def icons_in(text: str) -> list[str]:
    """The icon names a card text uses, in order, each once."""
    return list(_read_card(text).icons)


def plain_text(text: str) -> str:
    """A card text with its inline markup removed (icons as their names)."""
    return "".join(r.text for r in runs(text))


def _attr(value: str) -> str:
    return html.escape(value, quote=True)


def to_reportlab(markup: Markup, icon: Callable[[str], str | None] | None = None,
                 images: Collection[str] | None = None) -> str:
    """The tree as ReportLab markup: canonical (every attribute once, quoted; every character
    escaped), so ReportLab's parser reads exactly this tree. ``icon(name)`` gives an icon's
    markup, which deckgen makes (default: its name in bold). A tag that is not allowed is left
    out with its text kept; an ``<img>`` only when its ``src`` is one of ``images``."""
    out: list[str] = []

    def emit(nodes: tuple[Node, ...]) -> None:
        for node in nodes:
            if isinstance(node, Text):
                out.append(escape(node.text))
            elif isinstance(node, Icon):
                body = icon(node.name) if icon is not None else None
                out.append(body if body is not None else f"<b>{escape(node.name)}</b>")
            elif node.name not in TAGS:
                emit(node.children)
            elif node.name == "img" and (images is None or dict(node.attrs).get("src") not in images):
                continue
            elif node.name == "a" and "href" not in {k for k, _ in node.attrs}:
                emit(node.children)          # ReportLab refuses a link to nowhere
            else:
                attrs = "".join(f' {k}="{_attr(v)}"' for k, v in node.attrs if k in TAGS[node.name])
                if node.name in VOID:
                    out.append(f"<{node.name}{attrs}/>")
                else:
                    out.append(f"<{node.name}{attrs}>")
                    emit(node.children)
                    out.append(f"</{node.name}>")

    emit(markup.nodes)
    return "".join(out)


def inline(text: str, icon: Callable[[str], str | None] | None = None,
           images: Collection[str] | None = None) -> str:
    """A template's inline text (tags and the card markup) as ReportLab markup (:func:`to_reportlab`)."""
    return to_reportlab(read(text, TEMPLATE, images), icon, images)


def plain(text: str) -> str:
    """ReportLab markup (as :func:`to_reportlab` makes it) as the text it shows: for bookmarks
    and the table of contents."""
    return "".join(r.text for r in _walk(read(text, REPORTLAB).nodes))


def problems(text: str, images: Collection[str] | None = None) -> list[str]:
    """What is wrong with a template's text, paragraph by paragraph."""
    out: list[str] = []
    for item in _items(text):
        if item[0] != "block":
            for p in read(item[1], TEMPLATE, images).problems:
                if p not in out:
                    out.append(p)
    return out


# ---------------------------------------------------------------- blocks

@dataclass(frozen=True)
class Item:
    kind: str      # h1 h2 h3 p bullet num note block
    text: str = ""
    block: int = -1


def _items(text: str) -> list[tuple[str, str, int]]:
    """A template's text as (kind, inline text as written, block number) items."""
    items: list[tuple[str, str, int]] = []
    cur: list[str] = []
    cur_kind = "p"

    def flush() -> None:
        nonlocal cur, cur_kind
        if cur:
            items.append((cur_kind, " ".join(cur), -1))
        cur, cur_kind = [], "p"

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        m = _BLOCK.match(line)
        if m:
            flush()
            items.append(("block", "", int(m.group(1))))
            continue
        for prefix, kind in (("### ", "h3"), ("## ", "h2"), ("# ", "h1")):
            if line.startswith(prefix):
                flush()
                items.append((kind, line[len(prefix):].strip(), -1))
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


def parse(text: str, icon: Callable[[str], str | None] | None = None,
          images: Collection[str] | None = None) -> list[Item]:
    """A template's text as items, each item's text ReportLab markup made from its parsed tree
    (:func:`inline`); ``icon`` as for :func:`to_reportlab` (the PDF gives pictures, the check the
    default); ``images``: the declared images an ``<img>`` may show."""
    return [Item(kind, "" if kind == "block" else inline(body, icon, images), block)
            for kind, body, block in _items(text)]


# ---------------------------------------------------------------- escaping the deck's words

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
