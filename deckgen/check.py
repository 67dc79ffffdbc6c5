"""``deckgen check``: everything that can be said about a deck before printing it.

Each pipeline stage contributes findings through a function ``(deck, options) -> list[Finding]``
listed in :func:`stage_checks`; the static checks of the deck itself live here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from deckgen import manifest
from deckgen.datafile import with_lines
from deckgen.effects import has
from deckgen.errors import ERROR, NOTE, WARNING, DeckgenError, Finding, error, warning
from deckgen.manifest.schema import MAX_CARDS
from deckgen.model import NUMBER, Card, Deck, table_takes
from deckgen.stages import CheckOptions, StageCheck

if TYPE_CHECKING:
    from deckgen.palette import PaletteReport
    from deckgen.rulebook.lookup import RulebookSummary


@dataclass
class CheckReport:
    """Everything ``check`` found about one deck; :mod:`deckgen.report` writes it as text or JSON."""

    deck: Deck | None
    path: Path | None
    findings: list[Finding]
    strict: bool = False
    palette: PaletteReport | None = None           # the palette step (deckgen.palette)
    rulebook: RulebookSummary | None = None        # the rulebook step (deckgen.rulebook.check_stage)
    simulation: dict[str, Any] | None = None       # the verdict's figures, as deckgen.verdict gives them
    simulated: bool = True                         # False: the games were skipped (--no-sim), no verdict given

    @property
    def sections(self) -> Mapping[str, object]:
        """The report's sections by name, in the report's order (read-only: set the fields)."""
        named = (("palette", self.palette), ("rulebook", self.rulebook), ("simulation", self.simulation))
        return MappingProxyType({name: value for name, value in named if value is not None})

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.is_error]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == WARNING]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == NOTE]

    @property
    def ready(self) -> bool:
        """Whether the deck may be printed: no errors (with ``strict``, warnings are errors already)
        and the simulated games played (with --no-sim no verdict is given)."""
        return self.deck is not None and not self.errors and self.simulated

    def verdict_line(self) -> str:
        """The verdict in plain words."""
        if self.deck is None:
            return "not ready to print: the manifest could not be read as a deck"
        if self.errors:
            codes = list(dict.fromkeys(f.code for f in self.errors))
            shown = ", ".join(codes[:4]) + (f" and {len(codes) - 4} more" if len(codes) > 4 else "")
            n = len(self.errors)
            return f"not ready to print: {n} error{'s' if n != 1 else ''} ({shown}) must be fixed first"
        if not self.simulated:
            n = len(self.warnings)
            found = f", {n} warning{'s' if n != 1 else ''} worth reading" if n else ""
            return ("not given: no simulated game was played (--no-sim), so nothing says yet that the games end "
                    f"and are fair; no error in what was checked{found}")
        if self.warnings:
            n = len(self.warnings)
            return f"ready to print, with {n} warning{'s' if n != 1 else ''} worth reading first"
        return "ready to print"


def check(ref: str | Path, options: CheckOptions | None = None, loaded: manifest.LoadResult | None = None) -> CheckReport:
    """Load a manifest (unless ``loaded`` is what reading it gave) and run every check. Raises
    DeckgenError only for unreadable input."""
    (rep,) = check_many([(ref, options or CheckOptions(), loaded)])
    if isinstance(rep, DeckgenError):
        raise rep
    return rep


def check_many(requests: Sequence[tuple[str | Path, CheckOptions, manifest.LoadResult | None]]
               ) -> list[CheckReport | DeckgenError]:
    """Check several decks at once: each one's report, or the error that made it unreadable.

    The static checks come first; the simulated games of every deck they pass then run on
    worker processes (:mod:`deckgen.verdict`) while this process runs the stages' checks
    (palette, faces, rulebook)."""
    from deckgen import verdict

    out: list[CheckReport | DeckgenError] = []
    for ref, options, loaded in requests:
        try:
            result = loaded if loaded is not None else manifest.load(ref, options.palette)
        except DeckgenError as exc:
            out.append(exc)
            continue
        report = CheckReport(result.deck, result.path, list(result.findings), strict=options.strict,
                             simulated=options.simulate)
        if result.deck is not None:
            report.findings.extend(preset_notes(result.deck))
            report.findings.extend(static_checks(result.deck))
            report.findings.extend(verdict.cached_findings(result.deck, "card-rules", _card_rules,
                                                           options.use_cache, options.cache_dir))
            report.findings.extend(verdict.cached_findings(result.deck, "printed-text", _printed_text,
                                                           options.use_cache, options.cache_dir))
            report.findings.extend(verdict.cached_findings(result.deck, "printed-colours", _printed_colours,
                                                           options.use_cache, options.cache_dir))
            report.findings.extend(language_findings(result.deck))
            report.findings.extend(one_language_findings(result.deck))
        out.append(report)
    judged = [i for i, (rep, (_, options, _)) in enumerate(zip(out, requests))
              if isinstance(rep, CheckReport) and rep.deck is not None and options.simulate and not rep.errors]
    verdicts = None
    if judged:
        first = requests[judged[0]][1]
        decks = [rep.deck for rep in (out[i] for i in judged) if isinstance(rep, CheckReport) and rep.deck is not None]
        verdicts = verdict.start(decks, seed=first.seed, games=first.games,
                                 workers=first.jobs, use_cache=first.use_cache, cache_dir=first.cache_dir,
                                 progress=first.progress, cluster=first.cluster)
    for rep, (_, options, _) in zip(out, requests):
        if isinstance(rep, CheckReport) and rep.deck is not None:
            _run_stages(rep, rep.deck, options)
    for j, i in enumerate(judged):
        rep = out[i]
        assert isinstance(rep, CheckReport) and verdicts is not None
        got = verdicts.result(j)
        rep.findings.extend(got.findings)
        rep.simulation = got.simulation.to_json()
    for rep, (_, options, _) in zip(out, requests):
        if isinstance(rep, CheckReport):
            rep.findings = _once(with_lines(rep.findings))
            if options.strict:
                rep.findings = [replace(f, severity=ERROR) if f.severity == WARNING else f for f in rep.findings]
    return out


def _run_stages(report: CheckReport, deck: Deck, options: CheckOptions) -> None:
    """Every stage's check: its findings into the report, and the sections it fills."""
    for stage in stage_checks():
        part = stage(deck, options)
        report.findings.extend(part.findings)
        for name, value in part.sections.items():
            if name not in ("palette", "rulebook"):
                raise ValueError(f"a stage filled an unknown report section '{name}'")
            setattr(report, name, value)


def _card_rules(deck: Deck) -> list[Finding]:
    """The rule options against the cards (:func:`deckgen.rules.checks.card_rule_findings`): kept
    in the cache like the printed text's findings, so an unchanged deck's build does not import
    the rules engine (its package registers the expert bot) only to find them again."""
    from deckgen.rules.checks import card_rule_findings

    return card_rule_findings(deck)


def _printed_text(deck: Deck) -> list[Finding]:
    """What the cards say against what they do, every character against its font and its script, the
    rulebook's text fit."""
    from deckgen.claims import claim_findings
    from deckgen.glyphs import glyph_findings, rulebook_fit_findings, script_findings

    return claim_findings(deck) + glyph_findings(deck) + script_findings(deck) + rulebook_fit_findings(deck)


def _printed_colours(deck: Deck) -> list[Finding]:
    """The palette as a CMYK press prints it (deckgen/palette.py's print_findings)."""
    from deckgen.palette import print_findings

    pal = deck.palette
    return print_findings(pal, file=pal.source or (str(deck.source) if deck.source else None))


def _once(findings: list[Finding]) -> list[Finding]:
    """Each finding once, in the order found."""
    return list(dict.fromkeys(findings))


def language_findings(deck: Deck) -> list[Finding]:
    """A deck language no rulebook can be written in (error); printed texts missing in one of the
    deck's languages (one warning listing them all)."""
    from deckgen.claims import deck_languages
    from deckgen.rulebook.lookup import languages

    f = _file(deck)
    out: list[Finding] = []
    can = languages(deck)
    if deck.language not in can:
        out.append(error("language", "deck.language",
                         f"deckgen cannot write a rulebook in '{deck.language}' (it writes them in "
                         f"{', '.join(can)}), and the words it puts on the cards would come out in English",
                         file=f,
                         hint=f"set language to one of {', '.join(can)}, or add your own templates in that "
                              "language (deck.templates, templates/README.md)"))
    texts = _printed_texts(deck)
    for lang in deck_languages(deck):
        if lang not in can:
            continue
        keys = [where for where, names in texts
                if names is not None and "" not in names.values and lang not in names.values]
        lacking = [f"{where} ('{names.get(deck.language)}')" for where, names in texts if where in keys]
        if lacking:
            shown = ", ".join(lacking[:12]) + (f" and {len(lacking) - 12} more" if len(lacking) > 12 else "")
            out.append(warning("missing-translation", keys[0],
                               f"{len(lacking)} text{'s have' if len(lacking) > 1 else ' has'} no '{lang}' version, "
                               f"so the '{lang}' rulebook and cards print another language's words: {shown}",
                               file=f, hint=f"give each a {lang} entry, e.g. name = {{ es = \"...\", en = \"...\" }}"))
    return out


def _printed_texts(deck: Deck) -> list[tuple[str, Any]]:
    """(key path, Names or None) of every text of the deck that is printed: its name, back text and
    description, the used kinds' names, labels and rules texts, the colours' names, the cards'
    rules texts (once per entry) and the components' names."""
    texts: list[tuple[str, Any]] = [("deck.name", deck.names), ("deck.back_text", deck.back_text),
                                    ("deck.description", deck.description)]
    used = {c.kind for c in deck.cards} | {c.flex.kind for c in deck.cards if c.flex}
    for kid in sorted(used):
        kind = deck.kinds.get(kid)
        if kind is not None:
            texts += [(f"kinds.{kid}.name", kind.names), (f"kinds.{kid}.label", kind.label),
                      (f"kinds.{kid}.text", kind.text)]
    texts += [(f"palette.{c.id}.name", c.names) for c in deck.palette.colors]
    seen: set[str] = set()
    for card in deck.cards:
        if card.where not in seen:
            seen.add(card.where)
            texts += [(f"{card.where}.text", card.text)]
    texts += [(f"{comp.where}.name", comp.names) for comp in deck.components]
    return texts


def reads_as(text: str) -> str | None:
    """The language a text of several words reads as, by its function words (FUNCTION_WORDS):
    None when it is too short or not clearly one language."""
    from deckgen.words import FUNCTION_WORDS

    words = re.findall(r"[^\W\d_]+", text.lower())
    if len(words) < 4:
        return None
    hits = {lang: sum(w in marks for w in words) for lang, marks in FUNCTION_WORDS.items()}
    best = max(hits, key=lambda lang: hits[lang])
    rest = max(v for lang, v in hits.items() if lang != best)
    return best if hits[best] >= 2 and hits[best] >= 3 * rest else None


def one_language_findings(deck: Deck) -> list[Finding]:
    """A sentence written once for every language (a plain string: the description, a kind's or a
    card's rules text) that reads as one language, in a deck printed in another too: that
    rulebook and those cards print it as it is. One warning per text."""
    from deckgen.claims import deck_languages

    texts = [(where, names) for where, names in _printed_texts(deck)          # sentences, not names
             if where == "deck.description" or where.endswith(".text")]
    langs = deck_languages(deck)
    out: list[Finding] = []
    for where, names in texts:
        written = set(names.values.values()) if names is not None else set()
        if len(written) != 1 or len(names.values) < 2:
            continue                                # per language, or one language only (missing-translation)
        text = written.pop()
        said = reads_as(text)
        others = [lang for lang in langs if lang != said]
        if said is not None and others:
            name = {"en": "English", "es": "Spanish"}
            quoted = text if len(text) <= 60 else text[:57] + "..."
            out.append(warning("one-language-text", where,
                               f"'{quoted}' is one text for every language and reads as {name.get(said, said)}: "
                               f"the {', '.join(name.get(o, o) for o in others)} rulebook"
                               + (" prints" if where == "deck.description" else " and cards print") + " it as it is",
                               file=_file(deck),
                               hint=f"give it per language: {where.rsplit('.', 1)[-1]} = {{ {said} = \"...\", "
                                    f"{others[0]} = \"...\" }}"))
    return out


def preset_notes(deck: Deck) -> list[Finding]:
    """Notes for the user presets (palette, card size, kinds) the deck uses that replace bundled ones."""
    from deckgen import presets
    from deckgen.manifest.kinds import KINDS
    from deckgen.manifest.palettes import PALETTES
    from deckgen.render.geometry import CARD_SIZES

    base = deck.source.parent if deck.source else None
    used = {c.kind for c in deck.cards} | {c.flex.kind for c in deck.cards if c.flex}
    out: list[Finding] = []
    wanted: list[tuple[presets.PresetFile[Any], set[str]]] = [
        (PALETTES, {deck.palette.id}), (CARD_SIZES, {str(deck.card_size).lower()}), (KINDS, used)]
    for kind, names in wanted:
        out.extend(presets.catalogue(kind, base).notes_for(names))
    return out


def stage_checks() -> list[StageCheck]:
    """The checks each later pipeline stage adds (palette and faces, rulebook), imported lazily.
    The rules against the cards run with the static checks (:func:`check_many`)."""
    from deckgen.render.checks import stage_check as render_check
    from deckgen.rulebook import check_stage as rulebook_check

    return [render_check, rulebook_check]


def _file(deck: Deck) -> str | None:
    return str(deck.source) if deck.source else None


def is_start_card(deck: Deck, card: Card) -> bool:
    """Whether a card may stay as the start card under the deck's start-card rule (Deck.can_start)."""
    return deck.can_start(card)


def cards_to_deal(deck: Deck, players: int) -> int:
    """Cards a table of ``players`` takes (:func:`deckgen.model.table_takes`)."""
    return table_takes(players, deck.hand_size)


def deal_problems(deck: Deck, players: list[int], where: str = "--players") -> list[Finding]:
    """An error for each table size the deck cannot be dealt to (``deckgen simulate``)."""
    out = []
    for n in players:
        need = cards_to_deal(deck, n)
        if deck.total < need:
            out.append(error("too-few-cards", where,
                             f"{deck.total} cards cannot be dealt to {n} players: {n} hands of {deck.hand_size}, "
                             f"a start card and a draw pile take at least {need} cards", file=_file(deck),
                             hint=f"at most {max(1, (deck.total - 2) // deck.hand_size)} players with this deck, "
                                  "or add cards / lower deck.hand_size"))
    return out


def static_checks(deck: Deck) -> list[Finding]:
    """Counts, points, start card, Power cards: what needs no simulation."""
    return [*_count_findings(deck), *_start_findings(deck), *_points_findings(deck), *_power_findings(deck),
            *_content_findings(deck)]


def _count_findings(deck: Deck) -> list[Finding]:
    """Enough cards to deal to the largest table and leave a draw pile."""
    needed = cards_to_deal(deck, deck.players_max)
    if deck.total < needed:
        return [error("too-few-cards", "cards",
                      f"{deck.total} cards cannot deal {deck.hand_size} to each of {deck.players_max} players "
                      f"and still turn a start card and leave a draw pile (needs at least {needed})", file=_file(deck),
                      hint="add cards, lower deck.players.max or deck.hand_size")]
    if deck.total < needed + deck.players_max * 2:
        return [warning("small-draw-pile", "cards",
                        f"at {deck.players_max} players only {deck.total - needed + 1} cards are left to draw "
                        "after the deal", file=_file(deck))]
    return []


def _start_findings(deck: Deck) -> list[Finding]:
    if any(is_start_card(deck, c) for c in deck.cards):
        return []
    rule = deck.rule_options.start_card
    return [error("no-start-card", "cards", f"no card can be the start card under the '{rule}' start-card rule",
                  file=_file(deck),
                  hint="a number card is needed" if rule == "number-only" else "add a card that is not a wild draw card")]


def _points_findings(deck: Deck) -> list[Finding]:
    pointless: dict[str, list[Card]] = {}
    for card in deck.cards:
        if card.points is None:
            pointless.setdefault(card.where, []).append(card)
    out: list[Finding] = []
    for where, cards in pointless.items():
        ids = ", ".join(f"'{c.name(deck.language)}'" for c in cards)
        out.append(error("no-points", f"{where}.points",
                         f"card{'s' if len(cards) > 1 else ''} {ids} {'have' if len(cards) > 1 else 'has'} no point value",
                         file=_file(deck), hint=f"add points = N to the entry or a scoring.points.{cards[0].kind} value"))
    return out


def _power_findings(deck: Deck) -> list[Finding]:
    """The Power-card rule's cards: one per player, two faces each, and flex sides to use them on."""
    f = _file(deck)
    out: list[Finding] = []
    if deck.rule_options.power_cards:
        power = sum(c.count for c in deck.components if c.kind == "power")
        if power < deck.players_max:
            out.append(error("power-cards", "components",
                             f"the Power-card rule needs one Power card per player: {power} for up to "
                             f"{deck.players_max} players", file=f,
                             hint="add a [[components]] entry with kind = \"power\" and count = players max"))
        if not any(c.flex for c in deck.cards):
            out.append(error("power-without-flex", "rules.options.power_cards",
                             "the Power-card rule is on but no card has a flex side", file=f))
    for comp in deck.components:
        if comp.kind == "power" and len(comp.faces) != 2:
            out.append(error("power-faces", f"{comp.where}.faces", "a Power card has two faces (green and red)",
                             file=f))
    return out


def _content_findings(deck: Deck) -> list[Finding]:
    """A deck far too large, or with no number or no coloured card."""
    f = _file(deck)
    out: list[Finding] = []
    if deck.total > MAX_CARDS:
        out.append(warning("many-cards", "cards",
                           f"{deck.total:,} cards is far more than a playable deck (more than {MAX_CARDS:,})", file=f,
                           hint="check the count of each [[cards]] entry; printing, checking and rendering take long"))
    if not any(deck.kinds[c.kind].category == NUMBER for c in deck.cards):
        out.append(warning("no-numbers", "cards", "the deck has no number card", file=f))
    if not any(has(deck.kinds[c.kind].effects, "choose_color") or c.color for c in deck.cards):
        out.append(warning("no-colors", "cards", "no card has a colour", file=f))
    return out
