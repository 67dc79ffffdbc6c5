"""Templates -> rulebook text, and the cross-check between that text and the manifest."""

from __future__ import annotations

from deckgen.errors import DeckgenError, DeckHasErrors, Finding, error
from deckgen.model import Deck
from deckgen.rulebook.context import Recorder, template_globals
from deckgen.rulebook.env import ENTRY, environment, languages, template_finding

_RECENT: dict[tuple[int, str], tuple[Deck, tuple[str, Recorder, list[Finding]]]] = {}


def render_text(deck: Deck, lang: str) -> tuple[str, Recorder, list[Finding]]:
    """Run the templates. Template failures come back as findings (file and line), not exceptions.

    The same deck object gives the same text, so the last few results are kept: a build runs the
    templates once per language for the cross-check and uses that text again for the rulebook
    (forked workers inherit it). The deck is held with its result, so its id is never reused."""
    hit = _RECENT.get((id(deck), lang))
    if hit is not None and hit[0] is deck:
        text, rec, findings = hit[1]
        return text, rec, list(findings)
    result = _render_text(deck, lang)
    if len(_RECENT) >= 8:
        _RECENT.pop(next(iter(_RECENT)))
    _RECENT[(id(deck), lang)] = (deck, result)
    text, rec, findings = result
    return text, rec, list(findings)


def _render_text(deck: Deck, lang: str) -> tuple[str, Recorder, list[Finding]]:
    env = environment(deck, lang)
    rec = Recorder(deck, lang)
    env.globals.update(template_globals(rec))
    try:
        text = env.get_template(ENTRY).render()
    except DeckgenError:
        raise
    except Exception as exc:  # any failure inside a template: report it with its file and line
        return "", rec, [template_finding(exc)]
    return text, rec, list(rec.findings)


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


def markup_problems(text: str) -> list[Finding]:
    """Inline markup ReportLab would reject (an unclosed <b>, an unknown entity ...)."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    from deckgen.rulebook.markup import parse

    style = ParagraphStyle("check", fontName="Helvetica")
    out = []
    for item in parse(text):
        if item.kind == "block":
            continue
        try:
            Paragraph(item.text, style)
        except ValueError as exc:
            out.append(error("template-markup", "rulebook", f"bad inline markup in “{item.text[:80]}”",
                             hint=f"{str(exc).splitlines()[-1].strip()}; inline markup is ReportLab's: "
                                  "<b>, <i>, <font>, and & is written &amp;"))
    return out


def crosscheck(deck: Deck, langs: list[str] | None = None) -> list[Finding]:
    """Every card or kind the templates name exists, and every kind of the deck is explained."""
    findings: list[Finding] = []
    for lang in langs or languages(deck):
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
