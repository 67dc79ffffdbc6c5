"""``--only ID[xN],...``: a deck cut down to a few cards, for reprinting lost or damaged ones.

``red-5,wild-draw-four x2`` keeps one Red 5 and two Wild Draw Fours; a component id (such
as Flex Spectrum's ``power``) keeps that many of the component. Ids are matched exactly,
then case-insensitively; an unknown id is an error with a did-you-mean hint, and every
problem in the list is reported at once.
"""

from __future__ import annotations

import dataclasses
import re

from deckgen.errors import Collector, DeckgenError, did_you_mean, error
from deckgen.model import Deck

WHERE = "--only"
_COUNT = re.compile(r"^(?P<id>.+?)\s*[x×*]\s*(?P<n>\d+)$", re.IGNORECASE)
MAX_COPIES = 1000


def parse_only(text: str, known: list[str]) -> list[tuple[str, int]]:
    """``"red-5x2, back"`` -> [("red-5", 2), ...] against the ``known`` ids (first-seen order)."""
    out = Collector()
    lowered = {k.lower(): k for k in known}
    counts: dict[str, int] = {}
    items = [part.strip() for part in str(text).split(",")]
    if not any(items):
        raise DeckgenError(error("only", WHERE, "no card ids given", hint="e.g. --only red-5x2,wild"))
    for item in items:
        if not item:
            continue
        ident, n = item, 1
        if item not in known and item.lower() not in lowered:
            m = _COUNT.match(item)
            if m:
                ident, n = m.group("id").strip(), int(m.group("n"))
        card = ident if ident in known else lowered.get(ident.lower())
        if card is None:
            hint = did_you_mean(ident, known) or "the ids are listed by: deckgen check --json, or the deck file"
            out.error("only", WHERE, f"no card or component '{ident}' in this deck", hint=hint)
            continue
        if n < 1 or n > MAX_COPIES:
            out.error("only", WHERE, f"'{item}': the number of copies must be 1 to {MAX_COPIES}",
                      hint=f"e.g. {card}x2")
            continue
        counts[card] = counts.get(card, 0) + n
    if out.errors:
        raise DeckgenError(out.findings)
    return list(counts.items())


def select(deck: Deck, only: str | None) -> Deck:
    """The deck with only the listed cards and components, in the listed numbers (``None``: unchanged)."""
    if not only:
        return deck
    cards = {c.id: c for c in deck.cards}
    comps = {c.id: c for c in deck.components}
    chosen = parse_only(only, list(cards) + [c for c in comps if c not in cards])
    picked_cards = [dataclasses.replace(cards[i], count=n) for i, n in chosen if i in cards]
    picked_comps = [dataclasses.replace(comps[i], count=n) for i, n in chosen if i not in cards]
    return dataclasses.replace(deck, cards=tuple(picked_cards), components=tuple(picked_comps))
