"""Templates -> rulebook text, and the cross-check between that text and the manifest."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

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


class _Declared:
    """The deck's declared images (:func:`deckgen.inputs.declared_images`), worked out when an
    ``<img>`` first asks."""

    def __init__(self, deck: Deck):
        self.deck = deck
        self._files: frozenset[str] | None = None

    def files(self) -> frozenset[str]:
        if self._files is None:
            from deckgen.inputs import declared_images

            self._files = declared_images(self.deck)
        return self._files

    def __contains__(self, src: object) -> bool:
        return src in self.files()

    def __iter__(self) -> Iterator[str]:
        return iter(self.files())

    def __len__(self) -> int:
        return len(self.files())


def declared(deck: Deck) -> _Declared:
    return _Declared(deck)


def markup_refs(text: str, deck: Deck) -> list[Finding]:
    """What the one markup parser (:mod:`deckgen.rulebook.markup`) finds wrong in the rulebook's
    text: a tag or attribute that is not allowed (one that could call code or read a file), an
    ``<img>`` of a file the manifest does not declare, unbalanced markup, a stray brace."""
    from deckgen.rulebook.markup import problems

    return [error("template-markup", "rulebook", p,
                  hint="inline markup may style text (**bold**, *italic*, <b>, <i>, <font>, <br/>), show icons "
                       "({red}) and the deck's own images; it cannot name other files")
            for p in problems(text, declared(deck))]


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
    """Values ReportLab itself would reject in the markup made from the text's tree (a font it
    does not know ...): ReportLab parses only that markup, never the template's own text."""
    from deckgen.rulebook.markup import parse

    paragraph = None
    out = []
    for item in parse(text):
        if item.kind == "block" or plainly_valid(item.text):
            continue                     # plain bold and italic always parse
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
