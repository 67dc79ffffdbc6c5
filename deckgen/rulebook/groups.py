"""Cards grouped by what a player needs told apart: kind, flags and flex side.

A group is one row of the components table and one entry of the card section
("Skip / Skip All" flex cards are a group apart from plain Skips).
"""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.model import WILD, Card, Deck


@dataclass(frozen=True)
class Group:
    key: str                     # stable id: "skip", "number-flip", "skip-flex-skip-all"
    kind: str
    category: str
    cards: tuple[Card, ...]

    @property
    def first(self) -> Card:
        return self.cards[0]

    @property
    def total(self) -> int:
        return sum(c.count for c in self.cards)

    @property
    def flex_kind(self) -> str | None:
        return self.first.flex.kind if self.first.flex else None

    @property
    def kinds(self) -> tuple[str, ...]:
        return (self.kind,) + ((self.flex_kind,) if self.flex_kind else ())

    @property
    def colors(self) -> tuple[str, ...]:
        seen: list[str] = []
        for c in self.cards:
            if c.color and c.color not in seen:
                seen.append(c.color)
        return tuple(seen)

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(sorted({c.value for c in self.cards if c.value is not None}))


def group_key(card: Card) -> str:
    parts = [card.kind]
    if card.colorless:
        parts.append("colorless")
    if card.flip_icon:
        parts.append("flip")
    if card.duel:
        parts.append("duel")
    if card.flex:
        parts.append("flex" if card.flex.kind == card.kind else f"flex-{card.flex.kind}")
    return "-".join(parts)


def groups(deck: Deck) -> list[Group]:
    """Every group, in the order its first card appears in the manifest."""
    order: dict[str, list[Card]] = {}
    for card in deck.cards:
        order.setdefault(group_key(card), []).append(card)
    return [Group(k, cs[0].kind, deck.kinds[cs[0].kind].category, tuple(cs)) for k, cs in order.items()]


def flex_offset(deck: Deck, group: Group) -> int | None:
    """How many places after its own colour a group's flex colour is, when it is the same for all."""
    offsets = set()
    ids = deck.palette.ids()
    for c in group.cards:
        if not (c.flex and c.flex.color and c.color):
            return None
        offsets.add((ids.index(c.flex.color) - ids.index(c.color)) % len(ids))
    return offsets.pop() if len(offsets) == 1 else None


def per_color_counts(group: Group) -> dict[str, dict[int | None, int]]:
    """colour -> value -> copies (value None for non-number cards)."""
    out: dict[str, dict[int | None, int]] = {}
    for c in group.cards:
        out.setdefault(c.color or "", {})
        out[c.color or ""][c.value] = out[c.color or ""].get(c.value, 0) + c.count
    return out


def uniform_per_color(group: Group) -> dict[int | None, int] | None:
    """The value -> copies breakdown when every colour has the same one."""
    if group.category == WILD or not group.colors:
        return None
    per = per_color_counts(group)
    first = next(iter(per.values()))
    return first if all(v == first for v in per.values()) else None

