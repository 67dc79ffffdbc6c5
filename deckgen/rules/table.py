"""A deck compiled for play: every card face as a small int, every move as ``face * 2 + side``.

The engine never looks at :class:`~deckgen.model.Card` objects while playing. It reads the
flat per-face and per-move tuples built here once per deck, and a legality cache keyed by the
pile state (top card's symbol and number, current colour, colourless pile), shared by every
game played with the same table.

Side 0 is a card's regular side, side 1 its flex side (only for cards that have one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from deckgen.effects import Effect, stack_value
from deckgen.model import WILD, Card, Deck
from deckgen.options import RuleOptions

NUM, ACT, WLD = 0, 1, 2
_CAT = {"number": NUM, "action": ACT, "wild": WLD}
COLORLESS_KEY = -1

LegalEntry = tuple[bytes, bytes, frozenset[int], frozenset[int]]
"""What may be played on one pile state: per face, a byte by its regular and by its flex side,
and the same as sets of faces (Table.legal)."""



@dataclass
class Table:
    """Flat, precomputed facts about one deck under its rule options."""

    deck_id: str
    opts: RuleOptions
    faces: tuple[Card, ...]                     # Card per face
    colors: tuple[str, ...]            # palette colour ids in play, in palette order
    kinds: tuple[str, ...]             # kind ids; a move's kind indexes this
    color: tuple[int, ...]             # regular colour index per face, -1 for none
    cat: tuple[int, ...]               # NUM / ACT / WLD per face (regular side)
    val: tuple[int, ...]               # number per face, -1 for none
    points: tuple[int, ...]
    duel: tuple[bool, ...]
    colorless: tuple[bool, ...]
    has_flex: tuple[bool, ...]
    # per move (face * 2 + side); the flex entries of cards without a flex side are unused
    mkind: tuple[int, ...]
    mcat: tuple[int, ...]
    msym: tuple[int, ...]              # matching symbol: kind index for actions, -1 for numbers
    mval: tuple[int, ...]              # the number the move shows on the pile, -1 for none
    mcolor: tuple[int, ...]            # colour the move matches by (flex colour on side 1)
    effects: tuple[tuple[Effect, ...], ...]
    draw_val: tuple[int, ...]          # stackable penalty value (0: not a draw card, or a targeted one)
    restricted: tuple[bool, ...]       # has the 'challenge' effect
    can_start: tuple[bool, ...]        # per face: may stay as the start card (Deck.can_start)
    deck_faces: tuple[int, ...]        # every physical card as a face index, manifest order
    hand_size: int = 7
    target: int = 500
    ident: tuple[Any, ...] = ()               # (colour, kind, number) per face, None for wild/colourless
    mkey: tuple[int, ...] = ()         # per move: state_key of the pile it leaves, less the colour part
    knockout_bonus: int = 0
    any_flex: bool = False
    any_restricted: bool = False
    # Derived from the facts above, never given: a copy (dataclasses.replace) starts without them,
    # and a pickled table (sent to a worker or a cluster) leaves them behind (__getstate__), so no
    # caller ever clears them. The legality cache: pile state key -> Table.legal's entry.
    cache: dict[int, LegalEntry] = field(default_factory=dict, init=False, repr=False, compare=False)
    # per move: ((play handler, Effect), ...), set by the engine
    handlers: tuple[Any, ...] = field(default=(), init=False, repr=False, compare=False)
    # what players compute once per table and keep here, by name (the greedy bot's card values)
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["cache"] = {}
        state["handlers"] = ()
        state["memo"] = {}
        return state

    @property
    def n_faces(self) -> int:
        return len(self.faces)

    def state_key(self, sym: int, val: int, color: int, colorless: bool) -> int:
        """One int per pile state: card values stay below 127 (the manifest allows 0-99) and
        colours below 4095, so no two states share a key (the state keeps it, State.pile_key)."""
        if colorless:
            return COLORLESS_KEY
        return ((sym + 1) * 128 + (val + 1)) * 4096 + (color + 1)

    def legal(self, key: int, sym: int, val: int, color: int) -> LegalEntry:
        """Which faces may be played by their regular / flex side on this pile state: as one
        byte per face, and as the sets of faces."""
        entry = self.cache.get(key)
        if entry is None:
            reg = self._side_legal(key, sym, val, color, 0)
            flex = self._side_legal(key, sym, val, color, 1)
            entry = self.cache[key] = (reg, flex, frozenset(f for f in range(self.n_faces) if reg[f]),
                                       frozenset(f for f in range(self.n_faces) if flex[f]))
        return entry

    def _side_legal(self, key: int, sym: int, val: int, color: int, side: int) -> bytes:
        out = bytearray(self.n_faces)
        for f in range(self.n_faces):
            if side and not self.has_flex[f]:
                continue
            out[f] = self.matches(f * 2 + side, key, sym, val, color)
        return bytes(out)

    def matches(self, move: int, key: int, sym: int, val: int, color: int) -> bool:
        """The matching rule for one move on a pile state (restrictions aside)."""
        f, side = move >> 1, move & 1
        if key == COLORLESS_KEY:
            return side == 0 and self.cat[f] == NUM
        if self.colorless[f] or self.mcat[move] == WLD:
            return True
        if self.mcolor[move] >= 0 and self.mcolor[move] == color:
            return True
        if self.mcat[move] == NUM:
            return self.val[f] >= 0 and self.val[f] == val and sym == -1
        return self.msym[move] == sym


def colors_in_play(deck: Deck) -> tuple[str, ...]:
    used = {c.color for c in deck.cards if c.color} | {c.flex.color for c in deck.cards if c.flex and c.flex.color}
    return tuple(cid for cid in deck.palette.ids() if cid in used)


def compile_deck(deck: Deck, opts: RuleOptions | None = None) -> Table:
    """Build the play table of a deck under its rule options (or the given ones)."""
    opts = deck.rule_options if opts is None else opts
    colors = colors_in_play(deck)
    cidx = {c: i for i, c in enumerate(colors)}
    kinds = tuple(deck.kinds)
    kidx = {k: i for i, k in enumerate(kinds)}
    faces = tuple(deck.cards)
    per_move: dict[str, list[Any]] = {k: [] for k in ("mkind", "mcat", "msym", "mval", "mcolor", "effects",
                                                 "draw_val", "restricted")}
    for card in faces:
        for side in (0, 1):
            if side and card.flex:
                kind_id, col = card.flex.kind, card.flex.color
            else:
                kind_id, col = card.kind, card.color
            kind = deck.kinds[kind_id]
            cat = _CAT[kind.category]
            effects = deck.side_effects(card, bool(side), opts)
            per_move["mkind"].append(kidx[kind_id])
            per_move["mcat"].append(cat)
            per_move["msym"].append(-1 if cat == NUM else kidx[kind_id])
            per_move["mval"].append(card.value if cat == NUM and card.value is not None else -1)
            per_move["mcolor"].append(cidx.get(col, -1) if col and not card.colorless else -1)
            per_move["effects"].append(effects)
            per_move["draw_val"].append(stack_value(effects))
            per_move["restricted"].append(any(e.op == "challenge" for e in effects))
    face_index = {c.id: i for i, c in enumerate(faces)}
    move_facts: dict[str, Any] = {k: tuple(v) for k, v in per_move.items()}
    table = Table(
        deck_id=deck.id, opts=opts, faces=faces, colors=colors, kinds=kinds,
        color=tuple(cidx.get(c.color, -1) if c.color and not c.colorless else -1 for c in faces),
        cat=tuple(_CAT[deck.kinds[c.kind].category] for c in faces),
        val=tuple(c.value if c.value is not None else -1 for c in faces),
        points=tuple(c.points or 0 for c in faces),
        duel=tuple(any(e.op == "duel" for e in per_move["effects"][2 * i]) for i in range(len(faces))),
        colorless=tuple(c.colorless for c in faces),
        can_start=tuple(deck.can_start(c, opts) for c in faces),
        has_flex=tuple(c.flex is not None for c in faces),
        deck_faces=tuple(face_index[c.id] for c in deck.expanded()),
        hand_size=deck.hand_size, knockout_bonus=deck.scoring.knockout_bonus, target=deck.scoring.target,
        ident=tuple((c.color, c.kind, c.value) if c.color and not c.colorless else None for c in faces),
        **move_facts,
    )
    table.mkey = tuple(-1 if table.colorless[m >> 1] else table.state_key(s, v, -1, False)
                       for m, (s, v) in enumerate(zip(table.msym, table.mval, strict=True)))
    table.any_flex = any(table.has_flex)
    table.any_restricted = any(table.restricted)
    return table


__all__ = ["ACT", "NUM", "WILD", "WLD", "Table", "colors_in_play", "compile_deck"]
