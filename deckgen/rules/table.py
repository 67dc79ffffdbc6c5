"""A deck compiled for play: every card face as a small int, every move as ``face * 2 + side``.

The engine never looks at :class:`~deckgen.model.Card` objects while playing. It reads the
flat per-face and per-move tuples built here once per deck, and a legality cache keyed by the
pile state (top card's symbol and number, current colour, colourless pile), shared by every
game played with the same table.

Side 0 is a card's regular side, side 1 its flex side (only for cards that have one).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from deckgen.effects import Effect, stack_value
from deckgen.model import WILD, Card, Deck
from deckgen.options import RuleOptions

V = TypeVar("V")

NUM, ACT, WLD = 0, 1, 2
_CAT = {"number": NUM, "action": ACT, "wild": WLD}
COLORLESS_KEY = -1

LegalEntry = tuple[bytes, bytes, frozenset[int], frozenset[int]]
"""What may be played on one pile state: per face, a byte by its regular and by its flex side,
and the same as sets of faces (Table.legal)."""


class LegalCache(dict[int, LegalEntry]):
    """Table.legal's entries by pile state key. A key not seen yet is worked out on the spot from
    the key alone (it holds the symbol, number and colour: Table.state_key), so the engine reads
    ``cache[key]`` without testing for a miss first."""

    __slots__ = ("table",)

    def __init__(self, table: Table):
        super().__init__()
        self.table = table

    def __missing__(self, key: int) -> LegalEntry:
        return self.table.legal(key, *self.table.pile_state(key))


class MatchGroups(NamedTuple):
    """The faces one side of a card lets through, grouped by what they match (Table.matches):
    any coloured pile, a colour, a number (with no action on top), an action's symbol; and on a
    colourless pile."""

    always: frozenset[int]
    by_color: dict[int, set[int]]
    by_number: dict[int, set[int]]
    by_symbol: dict[int, set[int]]
    on_colorless: frozenset[int]



@dataclass
class Table:
    """Flat, precomputed facts about one deck under its rule options."""

    deck_id: str
    rules: RuleOptions
    faces: tuple[Card, ...]                     # Card per face
    colors: tuple[str, ...]            # palette colour ids in play, in palette order
    kinds: tuple[str, ...]             # kind ids; a move's kind indexes this
    color: tuple[int, ...]             # regular colour index per face, -1 for none
    category: tuple[int, ...]               # NUM / ACT / WLD per face (regular side)
    value: tuple[int, ...]               # number per face, -1 for none
    points: tuple[int, ...]
    duel: tuple[bool, ...]
    colorless: tuple[bool, ...]
    has_flex: tuple[bool, ...]
    # per move (face * 2 + side); the flex entries of cards without a flex side are unused
    move_kind: tuple[int, ...]
    move_category: tuple[int, ...]
    move_symbol: tuple[int, ...]              # matching symbol: kind index for actions, -1 for numbers
    move_value: tuple[int, ...]              # the number the move shows on the pile, -1 for none
    move_color: tuple[int, ...]            # colour the move matches by (flex colour on side 1)
    effects: tuple[tuple[Effect, ...], ...]
    draw_val: tuple[int, ...]          # stackable penalty value (0: not a draw card, or a targeted one)
    restricted: tuple[bool, ...]       # has the 'challenge' effect
    can_start: tuple[bool, ...]        # per face: may stay as the start card (Deck.can_start)
    deck_faces: tuple[int, ...]        # every physical card as a face index, manifest order
    hand_size: int = 7
    target: int = 500
    ident: tuple[Any, ...] = ()               # (colour, kind, number) per face, None for wild/colourless
    move_key: tuple[int, ...] = ()         # per move: state_key of the pile it leaves, less the colour part
    # per move: the pile state it leaves as (key, colour): a card of its own colour (or a colourless
    # one) leaves this key and colour; a card without a colour leaves colour KEEPS_COLOR, meaning the
    # pile's colour stays and the key is this one plus that colour + 1 (pile_key's formula, worked out)
    lands: tuple[tuple[int, int], ...] = ()
    knockout_bonus: int = 0
    any_flex: bool = False
    any_restricted: bool = False
    # Derived from the facts above, never given: a copy (dataclasses.replace) starts without them,
    # and a pickled table (sent to a worker or a cluster) leaves them behind (__getstate__), so no
    # caller ever clears them. The legality cache: pile state key -> Table.legal's entry.
    cache: LegalCache = field(init=False, repr=False, compare=False)
    # per move: ((play handler, Effect), ...), what the engine runs when the move is played (set by
    # the engine the first time it plays the table: the handlers live in rules/actions.py, above this module)
    handlers: tuple[Any, ...] = field(default=(), init=False, repr=False, compare=False)
    # per move: (kind, handlers, restricted), what playing it reads, in one tuple (set with handlers)
    plays: tuple[Any, ...] = field(default=(), init=False, repr=False, compare=False)
    # what players compute once per table and keep here, by name (the greedy bot's card values)
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.cache = LegalCache(self)

    def remember(self, key: Hashable, make: Callable[..., V], *args: Any) -> V:
        """``make(*args)``, worked out once per table and kept in ``memo`` under ``key``."""
        got: V | None = self.memo.get(key)
        if got is None:
            got = self.memo[key] = make(*args)
        return got

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["cache"]
        state["handlers"] = state["plays"] = ()
        state["memo"] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.cache = LegalCache(self)

    @property
    def n_faces(self) -> int:
        return len(self.faces)

    def holds_color(self, hand: Iterable[int], color: int) -> bool:
        """Whether a hand holds a card whose regular side has this colour (never for -1, no
        colour): one C-level test against the colour's faces, kept per table."""
        return color >= 0 and not self.remember("faces-by-color", _faces_by_color, self)[color].isdisjoint(hand)

    def pile_key(self, top: int, color: int) -> int:
        """The pile state a top card (its move) and the current colour make, as one int: the key of
        the legality cache (state_key; -1: colourless, 0: no card yet). The one formula; the
        state keeps the result (State.pile_key) and ``lands`` has it worked out per move."""
        if top < 0:
            return 0
        k = self.move_key[top]
        return -1 if k < 0 else k + color + 1

    def state_key(self, sym: int, val: int, color: int, colorless: bool) -> int:
        """One int per pile state: card values stay below 127 (the manifest allows 0-99) and
        colours below 4095, so no two states share a key (the state keeps it, State.pile_key)."""
        if colorless:
            return COLORLESS_KEY
        return ((sym + 1) * 128 + (val + 1)) * 4096 + (color + 1)

    @staticmethod
    def pile_state(key: int) -> tuple[int, int, int]:
        """The symbol, number and colour a key of :meth:`state_key` was made from (-1 each for
        the colourless pile)."""
        if key == COLORLESS_KEY:
            return -1, -1, -1
        rest, color = divmod(key, 4096)
        sym, val = divmod(rest, 128)
        return sym - 1, val - 1, color - 1

    def legal(self, key: int, sym: int, val: int, color: int) -> LegalEntry:
        """Which faces may be played by their regular / flex side on this pile state: as one
        byte per face, and as the sets of faces (built in face order: a set's order of iteration
        depends on the order its members came in, and the engine's moves follow it)."""
        entry = self.cache.get(key)
        if entry is None:
            reg, flex = (sorted(self._side_legal(key, sym, val, color, side)) for side in (0, 1))
            entry = self.cache[key] = (self._flags(reg), self._flags(flex), frozenset(reg), frozenset(flex))
        return entry

    def _flags(self, faces: list[int]) -> bytes:
        out = bytearray(self.n_faces)
        for f in faces:
            out[f] = 1
        return bytes(out)

    def _side_legal(self, key: int, sym: int, val: int, color: int, side: int) -> set[int]:
        """The faces whose side ``side`` matches this pile state: matches() for every face at
        once, as the union of the groups of faces that match it."""
        g = self._match_groups()[side]
        if key == COLORLESS_KEY:
            return set(g.on_colorless)
        out = set(g.always)
        out.update(g.by_color.get(color, ()), g.by_symbol.get(sym, ()))
        if sym == -1:
            out.update(g.by_number.get(val, ()))
        return out

    def _match_groups(self) -> tuple[MatchGroups, MatchGroups]:
        """Per side, the faces grouped by what matches them, the order of matches()' tests kept:
        colourless cards and wilds match any coloured pile; others match by colour, and a number
        card by its number, an action by its symbol. Worked out once per table (memo)."""
        return self.remember("match-groups", lambda: (self._side_groups(0), self._side_groups(1)))

    def _side_groups(self, side: int) -> MatchGroups:
        always: list[int] = []
        by_color: dict[int, set[int]] = {}
        by_number: dict[int, set[int]] = {}
        by_symbol: dict[int, set[int]] = {}
        for f in range(self.n_faces):
            m = f * 2 + side
            if side and not self.has_flex[f]:
                continue
            if self.colorless[f] or self.move_category[m] == WLD:
                always.append(f)
                continue
            if self.move_color[m] >= 0:
                by_color.setdefault(self.move_color[m], set()).add(f)
            if self.move_category[m] != NUM:
                by_symbol.setdefault(self.move_symbol[m], set()).add(f)
            elif self.value[f] >= 0:
                by_number.setdefault(self.value[f], set()).add(f)
        on_colorless = () if side else (f for f in range(self.n_faces) if self.category[f] == NUM)
        return MatchGroups(frozenset(always), by_color, by_number, by_symbol, frozenset(on_colorless))

    def matches(self, move: int, key: int, sym: int, val: int, color: int) -> bool:
        """The matching rule for one move on a pile state (restrictions aside)."""
        f, side = move >> 1, move & 1
        if key == COLORLESS_KEY:
            return side == 0 and self.category[f] == NUM
        if self.colorless[f] or self.move_category[move] == WLD:
            return True
        if self.move_color[move] >= 0 and self.move_color[move] == color:
            return True
        if self.move_category[move] == NUM:
            return self.value[f] >= 0 and self.value[f] == val and sym == -1
        return self.move_symbol[move] == sym


def _faces_by_color(t: Table) -> tuple[frozenset[int], ...]:
    """Per colour index, the faces whose regular side has that colour (Table.color)."""
    return tuple(frozenset(f for f, c in enumerate(t.color) if c == i) for i in range(len(t.colors)))


KEEPS_COLOR = -2
"""Table.lands's colour of a card without a colour of its own: the pile's colour stays."""


def _lands(table: Table, move: int) -> tuple[int, int]:
    k, c = table.move_key[move], table.color[move >> 1]
    if k < 0:
        return -1, -1                   # colourless
    if c >= 0:
        return table.pile_key(move, c), c
    return k, KEEPS_COLOR


def colors_in_play(deck: Deck) -> tuple[str, ...]:
    used = {c.color for c in deck.cards if c.color} | {c.flex.color for c in deck.cards if c.flex and c.flex.color}
    return tuple(cid for cid in deck.palette.ids() if cid in used)


def compile_deck(deck: Deck, rules: RuleOptions | None = None) -> Table:
    """Build the play table of a deck under its rule options (or the given ones)."""
    rules = deck.rule_options if rules is None else rules
    colors = colors_in_play(deck)
    cidx = {c: i for i, c in enumerate(colors)}
    kinds = tuple(deck.kinds)
    kidx = {k: i for i, k in enumerate(kinds)}
    faces = tuple(deck.cards)
    per_move: dict[str, list[Any]] = {k: [] for k in ("move_kind", "move_category", "move_symbol", "move_value",
                                                      "move_color", "effects", "draw_val", "restricted")}
    for card in faces:
        for side in (0, 1):
            if side and card.flex:
                kind_id, col = card.flex.kind, card.flex.color
            else:
                kind_id, col = card.kind, card.color
            kind = deck.kinds[kind_id]
            cat = _CAT[kind.category]
            effects = deck.side_effects(card, bool(side), rules)
            per_move["move_kind"].append(kidx[kind_id])
            per_move["move_category"].append(cat)
            per_move["move_symbol"].append(-1 if cat == NUM else kidx[kind_id])
            per_move["move_value"].append(card.value if cat == NUM and card.value is not None else -1)
            per_move["move_color"].append(cidx.get(col, -1) if col and not card.colorless else -1)
            per_move["effects"].append(effects)
            per_move["draw_val"].append(stack_value(effects))
            per_move["restricted"].append(any(e.op == "challenge" for e in effects))
    face_index = {c.id: i for i, c in enumerate(faces)}
    move_facts: dict[str, Any] = {k: tuple(v) for k, v in per_move.items()}
    table = Table(
        deck_id=deck.id, rules=rules, faces=faces, colors=colors, kinds=kinds,
        color=tuple(cidx.get(c.color, -1) if c.color and not c.colorless else -1 for c in faces),
        category=tuple(_CAT[deck.kinds[c.kind].category] for c in faces),
        value=tuple(c.value if c.value is not None else -1 for c in faces),
        points=tuple(c.points or 0 for c in faces),
        duel=tuple(any(e.op == "duel" for e in per_move["effects"][2 * i]) for i in range(len(faces))),
        colorless=tuple(c.colorless for c in faces),
        can_start=tuple(deck.can_start(c, rules) for c in faces),
        has_flex=tuple(c.flex is not None for c in faces),
        deck_faces=tuple(face_index[c.id] for c in deck.expanded()),
        hand_size=deck.hand_size, knockout_bonus=deck.scoring.knockout_bonus, target=deck.scoring.target,
        ident=tuple((c.color, c.kind, c.value) if c.color and not c.colorless else None for c in faces),
        **move_facts,
    )
    table.move_key = tuple(-1 if table.colorless[m >> 1] else table.state_key(s, v, -1, False)
                       for m, (s, v) in enumerate(zip(table.move_symbol, table.move_value, strict=True)))
    table.lands = tuple(_lands(table, m) for m in range(len(table.move_key)))
    table.any_flex = any(table.has_flex)
    table.any_restricted = any(table.restricted)
    return table


__all__ = ["ACT", "NUM", "WILD", "WLD", "Table", "colors_in_play", "compile_deck"]
