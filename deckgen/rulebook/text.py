"""Templates -> rulebook text, and the cross-check between that text and the manifest."""

from __future__ import annotations

import re
from collections.abc import Callable

from deckgen.errors import DeckHasErrors, Finding, error
from deckgen.memo import IdentityMemo
from deckgen.model import Deck
from deckgen.rulebook import run
from deckgen.rulebook.context import Recorder
from deckgen.rulebook.lookup import languages

_RECENT: IdentityMemo[tuple[str, Recorder, list[Finding]]] = IdentityMemo(8)


def render_text(deck: Deck, lang: str) -> tuple[str, Recorder, list[Finding]]:
    """Run the templates. Template failures come back as findings (file and line), not exceptions.

    The same deck object gives the same text, so the last few results are kept: a build runs the
    templates once per language for the cross-check and uses that text again for the rulebook
    (forked workers inherit it). The deck is held with its result, so its id is never reused."""
    text, rec, findings = _RECENT.get(deck, lambda: _render_texts(deck, [lang])[lang], tag=lang)
    return text, rec, list(findings)


def _render_texts(deck: Deck, langs: list[str]) -> dict[str, tuple[str, Recorder, list[Finding]]]:
    out = {}
    for lang, (text, rec, failed) in run.render(deck, langs).items():   # in a child process, within its limits
        out[lang] = ("", rec, failed) if text is None else (text, rec, list(rec.findings) + markup_refs(text, deck))
    return out


def _render_all(deck: Deck, langs: list[str]) -> None:
    """Run the templates of every language not run yet at once (one child process for them all)."""
    missing = [lang for lang in langs if not _RECENT.has(deck, lang)]
    if len(missing) > 1:
        for lang, outcome in _render_texts(deck, missing).items():
            _RECENT.get(deck, _value(outcome), tag=lang)


def _value(outcome: tuple[str, Recorder, list[Finding]]) -> Callable[[], tuple[str, Recorder, list[Finding]]]:
    return lambda: outcome


def unexplained(deck: Deck, rec: Recorder) -> list[Finding]:
    """Every kind in the deck that no template explained."""
    out = []
    for kind_id in deck.kinds:
        if kind_id in rec.explained:
            continue
        card = next((c for c in deck.cards if c.kind == kind_id), None)
        where = card.where if card else next((f"{c.where}.flex.kind" for c in deck.cards
                                              if c.flex and c.flex.kind == kind_id), "cards")
        out.append(error("rulebook-unexplained", where,
                         f"card kind '{kind_id}' is not explained anywhere in the '{rec.lang}' rulebook",
                         file=str(deck.source) if deck.source else None,
                         hint=f'a template must call explain("{kind_id}") (or include the shared cards.j2)'))
    return out


# The inline tags a rulebook's text may use: ReportLab's text styling. Tags that make ReportLab
# load a file (<img src>) or call a canvas method (<onDraw>, <index>) are refused, except an
# <img> of an image the manifest declares (art, icons, the back image, the logo).
_TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][A-Za-z0-9_]*)([^>]*)>")
_ATTR = re.compile(r"""([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""")
INLINE_TAGS = frozenset({"b", "i", "u", "strike", "strong", "em", "font", "span", "br", "super", "sup", "sub",
                         "greek", "unichar", "a", "img"})


_SIZES = frozenset({"size", "fontsize", "leading", "width", "height", "rise", "valign"})
MAX_MARKUP_SIZE = 1000.0        # points: a font size or picture side in inline markup


def _small(value: str) -> bool:
    m = re.match(r"^\s*[-+]?(\d+(?:\.\d*)?|\.\d+)(e[-+]?\d+)?", value, re.IGNORECASE)
    if not m:
        return True                    # not a number: ReportLab's own check (markup_problems) says so
    number = float(m.group(1) + (m.group(2) or ""))
    return number <= MAX_MARKUP_SIZE   # also inf; NaN cannot be written this way


def markup_refs(text: str, deck: Deck) -> list[Finding]:
    """Tags in the rulebook's text that could read a file or run a drawing callback."""
    from deckgen.inputs import declared_images

    allowed = None
    out: list[Finding] = []
    for m in _TAG.finditer(text):
        tag = m.group(2).lower()
        attrs = {k.lower(): v.strip("\"'") for k, v in _ATTR.findall(m.group(3))}
        problem = None
        if tag not in INLINE_TAGS:
            problem = f"the tag <{m.group(2)}> is not allowed in a rulebook"
        elif tag == "img" and not m.group(1):
            if allowed is None:
                allowed = declared_images(deck)
            src = attrs.get("src", "")
            if src not in allowed:
                problem = f"<img src=\"{src[:80]}\"> names no image the manifest declares"
        elif tag == "a" and "href" in attrs and not re.match(r"(?i)^(https?:|mailto:|#)", attrs["href"]):
            problem = f"<a href=\"{attrs['href'][:80]}\"> is not a web, mail or #anchor link"
        else:
            big = next((k for k, v in attrs.items() if k in _SIZES and not _small(v)), None)
            if big:
                problem = f"<{m.group(2)} {big}=\"{attrs[big][:20]}\"> is too large (at most {MAX_MARKUP_SIZE:g})"
        if problem and not any(f.message == problem for f in out):
            out.append(error("template-markup", "rulebook", problem,
                             hint="inline markup may style text (<b>, <i>, <font>, <br/>) and show the deck's "
                                  "own images; it cannot name other files"))
    return out


def _refused(text: str) -> bool:
    return any(m.group(2).lower() not in INLINE_TAGS or m.group(2).lower() == "img" for m in _TAG.finditer(text))


# What jinja's autoescape writes, and bold and italic, properly nested: text made only of these
# is markup ReportLab always accepts (tests/test_rulebook_templates.py holds it to ReportLab's
# parser), so it needs no parsing by ReportLab, nor ReportLab's platypus imported for it.
_PLAIN_TAG = re.compile(r"<(/?)([bi])>")
_PLAIN_ENTITY = re.compile(r"&(?:amp|lt|gt|#39|#34);")


def plainly_valid(text: str) -> bool:
    """Whether a paragraph's markup is only bold and italic, properly nested and closed, with no
    ``&`` but the five escapes jinja writes and no other ``<``."""
    if text.count("&") != len(_PLAIN_ENTITY.findall(text)):
        return False
    open_tags: list[str] = []
    for m in _PLAIN_TAG.finditer(text):
        if not m.group(1):
            open_tags.append(m.group(2))
        elif not open_tags or open_tags.pop() != m.group(2):
            return False
    return not open_tags and text.count("<") == len(_PLAIN_TAG.findall(text))


def markup_problems(text: str) -> list[Finding]:
    """Inline markup ReportLab would reject (an unclosed <b>, an unknown entity ...)."""
    from deckgen.rulebook.markup import parse

    paragraph = None
    out = []
    for item in parse(text):
        if item.kind == "block" or _refused(item.text) or plainly_valid(item.text):
            continue                     # markup_refs reports the refused; plain markup always parses
        if paragraph is None:
            paragraph = _paragraph()
        try:
            paragraph(item.text)
        except ValueError as exc:
            out.append(error("template-markup", "rulebook", f"bad inline markup in “{item.text[:80]}”",
                             hint=f"{str(exc).splitlines()[-1].strip()}; inline markup is ReportLab's: "
                                  "<b>, <i>, <font>, and & is written &amp;"))
    return out


def _paragraph() -> Callable[[str], object]:
    """ReportLab's paragraph parser, in the style the check uses."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    style = ParagraphStyle("check", fontName="Helvetica")
    return lambda text: Paragraph(text, style)


def crosscheck(deck: Deck, langs: list[str] | None = None) -> list[Finding]:
    """Every card or kind the templates name exists, and every kind of the deck is explained."""
    findings: list[Finding] = []
    langs = langs or languages(deck)
    _render_all(deck, langs)
    for lang in langs:
        text, rec, problems = render_text(deck, lang)
        findings += problems + markup_problems(text)
        if not problems:
            findings += unexplained(deck, rec)
    unique: list[Finding] = []
    for f in findings:
        if f not in unique:
            unique.append(f)
    return unique


def checked_text(deck: Deck, lang: str) -> tuple[str, Recorder]:
    """The text of one rulebook, or DeckHasErrors when the cross-check fails."""
    text, rec, problems = render_text(deck, lang)
    problems = problems or markup_problems(text) or unexplained(deck, rec)
    if problems:
        raise DeckHasErrors(problems)
    return text, rec
