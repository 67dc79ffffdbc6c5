"""What a played card does to whom: the small structured model its rulebook sentences are made from.

The composition rule (docs/manifest.md, "Effects"): a card's effects apply in list order, and
each acts on the player it names, evaluated when it applies. "The next player" is the next one
in the direction of play at that moment (after any earlier reverse in the list); ``target``
makes the following ``draw`` name a player the card's player chooses. Lost turns are owed and
each is served separately: a ``skip`` costs the next player one turn, a ``draw`` with
``lose_turn`` costs its victim one, a two-player reverse acting as a skip costs the other player
one; but one card costs a player at most one turn through all its parts together.
``skip_all`` and ``play_again`` give the card's player another turn at once; lost turns still owed
are served when the turn reaches their owners. Two details follow the engine: under a
stacking rule a card's own penalty draws add up like a stack (one penalty, for the player the
last of them names, one lost turn, no longer challengeable); with two players and
``two_player_reverse_draw = "player"`` a draw after any earlier reverse falls on the card's player.

:func:`meaning` turns an effect list and the rule options into a :class:`Meaning`: who draws how
many, who loses how many turns, who plays next, and the other things the card makes happen, in
order. The sentences (``describe.py``) are written from it, and :func:`seat_outcome` tells what
it claims for one concrete table, which the property test checks against the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from deckgen.effects import Effect
from deckgen.options import RuleOptions

YOU, NEXT, NEXT_NEW, OPPONENT = "you", "next", "next_new", "opponent"
CHOSEN = "chosen"             # the player the card's player chooses (one 'target' ... 'draw' pair)


@dataclass(frozen=True)
class Hit:
    """One penalty draw aimed at one player."""

    n: int
    lose_turn: bool
    stack: bool          # the victim may pass it on by stacking a draw card
    challenge: bool      # the victim may challenge the card


@dataclass
class Fate:
    """Everything the card does to one player (a role, resolved per table)."""

    role: str
    hits: list[Hit] = field(default_factory=list)
    skips: int = 0           # lost turns not tied to a draw (skip, two-player reverse)
    roulette: int = 0        # Colour Roulettes: each turns cards until a named colour appears and costs a turn

    @property
    def drawn(self) -> int:
        return sum(h.n for h in self.hits)

    @property
    def lost(self) -> int:
        """Turns this player loses to the card: one card costs a player at most one turn through
        its parts together (skips, draws that lose the turn, roulettes)."""
        return min(1, self.skips + sum(1 for h in self.hits if h.lose_turn) + self.roulette)

    @property
    def stacked_lost(self) -> int:
        """Lost turns that go with a penalty the player may pass on by stacking."""
        return sum(1 for h in self.hits if h.lose_turn and h.stack)


@dataclass(frozen=True)
class Step:
    """One thing to say, in the order the card does it: a player's fate ('fate', on its first
    mention) or an effect with a sentence of its own ('op')."""

    what: str
    role: str | None = None
    effect: Effect | None = None


@dataclass
class Meaning:
    players: int                      # 2, or 3 standing for every table of three or more
    steps: list[Step] = field(default_factory=list)
    fates: dict[str, Fate] = field(default_factory=dict)
    everyone: int = 0                 # cards every other player draws (nobody loses a turn by it)
    again: bool = False               # the card's player plays again at once
    reversed: bool = False            # the direction of play is reversed afterwards
    reverse_as_skip: bool = False     # two players: a reverse cost the other player a turn

    @property
    def lost_total(self) -> int:
        return sum(f.lost for f in self.fates.values())


class _Builder:
    def __init__(self, effects: Sequence[Effect], opts: RuleOptions, players: int):
        self.chosen = 0
        self.stacked: str | None = None      # the role a stackable penalty of this card waits for
        self.effects = list(effects)
        self.opts = opts
        self.m = Meaning(players)
        self.flipped = False
        self.reversed_any = False            # a reverse came earlier in the list (even an even number)
        self.targeted = False
        self.challenge = "challenge" in [e.op for e in effects] and bool(opts.challenge)

    def next_role(self) -> str:
        if self.m.players == 2:
            return OPPONENT
        return NEXT_NEW if self.flipped else NEXT

    def fate(self, role: str, draws: bool = False) -> Fate:
        """The role's fate, said where it is first mentioned; but a draw after cards have moved
        between hands (a swap, a pass, a steal, a discard) since a fate that has drawn nothing yet
        moves that fate's sentence here, after the move, where the engine draws the cards: "the
        next player draws 2" said before "you swap hands" would put the 2 cards in the hand
        that is swapped away."""
        f = self.m.fates.get(role)
        if f is None:
            self.m.fates[role] = f = Fate(role)
            self.m.steps.append(Step("fate", role))
        elif draws and not (f.hits or f.roulette):
            at = self.m.steps.index(Step("fate", role))
            if any(s.effect is not None and s.effect.op in MOVES_CARDS for s in self.m.steps[at + 1:]):
                self.m.steps.remove(Step("fate", role))
                self.m.steps.append(Step("fate", role))
        return f

    def say(self, e: Effect) -> None:
        self.m.steps.append(Step("op", None, e))


# Effects that move cards between hands (or out of one): whether a player draws before or after
# one of them changes whose hand the drawn cards end in.
MOVES_CARDS = ("swap_hands", "pass_hands", "steal", "discard_color", "duel")


def _skip(b: _Builder, e: Effect, i: int) -> None:
    b.fate(b.next_role()).skips += 1


def _again(b: _Builder, e: Effect, i: int) -> None:
    b.m.again = True
    b.say(e)


def _reverse(b: _Builder, e: Effect, i: int) -> None:
    b.flipped = not b.flipped
    b.reversed_any = True
    b.m.reversed = b.flipped
    b.say(e)
    if b.m.players == 2 and b.opts.two_player_reverse == "skip":
        b.m.reverse_as_skip = True
        b.fate(OPPONENT).skips += 1


def _target(b: _Builder, e: Effect, i: int) -> None:
    b.targeted = True


def _draw(b: _Builder, e: Effect, i: int) -> None:
    n = e.n
    if b.targeted:
        b.targeted = False
        b.chosen += 1
        # with two players the only player to choose is the opponent: one player, one fate (the
        # turn a reverse acting as a skip costs them and the draw's are one lost turn, said once)
        role = OPPONENT if b.m.players == 2 else CHOSEN if b.chosen == 1 else f"{CHOSEN}{b.chosen}"
        b.fate(role, draws=True).hits.append(Hit(n, e.lose_turn, False, b.challenge))
        return
    stack = b.opts.stacking != "off" and e.lose_turn
    if b.m.players == 2 and b.reversed_any and b.opts.two_player_reverse_draw == "player":
        role = YOU      # the official No Mercy sheet: after a reverse, the card's player takes the draw
    else:
        role = b.next_role()
    hit = Hit(n, e.lose_turn, stack, b.challenge and role != YOU)
    if stack:
        # under a stacking rule the card's penalty draws add up like a stack: one penalty, waiting
        # for the player the last of them names, who draws the total and loses one turn for it
        if b.stacked is not None:
            old = b.m.fates[b.stacked]
            first = next(h for h in old.hits if h.stack)
            old.hits.remove(first)
            hit = Hit(first.n + n, True, True, False)    # as a stacking answer: not challengeable
            if not (old.hits or old.skips or old.roulette):
                del b.m.fates[b.stacked]
                b.m.steps.remove(Step("fate", b.stacked))
        b.stacked = role
    b.fate(role, draws=True).hits.append(hit)


def _everyone(b: _Builder, e: Effect, i: int) -> None:
    b.m.everyone += e.n
    b.say(e)


def _roulette(b: _Builder, e: Effect, i: int) -> None:
    b.fate(b.next_role(), draws=True).roulette += 1


def _plain(b: _Builder, e: Effect, i: int) -> None:
    b.say(e)


def _silent(b: _Builder, e: Effect, i: int) -> None:
    """An effect that changes nothing about who draws or plays and has no sentence of its own here
    ('challenge' is said once, with the card's restriction)."""
    b.say(e)


#: How each primitive enters the model (the model layer of the registry).
MODEL = {
    "skip": _skip,
    "skip_all": _again,
    "play_again": _again,
    "reverse": _reverse,
    "target": _target,
    "draw": _draw,
    "everyone_draws": _everyone,
    "roulette": _roulette,
    "choose_color": _plain,
    "discard_color": _plain,
    "swap_hands": _plain,
    "pass_hands": _plain,
    "steal": _plain,
    "flip_power": _plain,
    "duel": _plain,
    "challenge": _silent,
}


def meaning(effects: Sequence[Effect], opts: RuleOptions, players: int = 3) -> Meaning:
    """The meaning of a played card at a table of ``players`` (2, or 3 for any larger table)."""
    b = _Builder(effects, opts, 2 if players == 2 else 3)
    for i, e in enumerate(effects):
        MODEL[e.op](b, e, i)
    return b.m


# ---------------------------------------------------------------- one concrete table

@dataclass(frozen=True)
class SeatOutcome:
    """What the card claims at a table of n seats, the card's player at seat 0, play going to seat 1."""

    drawn: tuple[int, ...]        # cards each seat draws from the card (roulette: not counted)
    lost: tuple[int, ...]         # turns each seat loses
    turns: tuple[int, ...]        # the seats that take the next turns, lost turns served
    direction: int                # +1 or -1 after the card


def seat_outcome(effects: Sequence[Effect], opts: RuleOptions, n: int, chosen: int = 1, turns: int = 8,
                 challenged: bool = False) -> SeatOutcome:
    """Resolve the meaning at a table of ``n`` seats (``chosen``: the seat a 'target' picks;
    ``challenged``: every player who may challenge the card does, and the play was fair, so as
    the rulebook's "Challenges" section says they draw the penalty plus ``challenge_penalty``
    more and lose their turn)."""
    m = meaning(effects, opts, n)
    seat = {YOU: 0, NEXT: 1 % n, NEXT_NEW: (n - 1) % n, OPPONENT: 1 % n, CHOSEN: chosen}
    drawn = [0] * n
    lost = [0] * n
    for role, f in m.fates.items():
        q = chosen if role.startswith(CHOSEN) else seat[role]
        drawn[q] += f.drawn
        lost[q] = min(1, lost[q] + f.lost)             # at most one turn per card and player
        if challenged:
            for h in f.hits:
                if h.challenge:
                    drawn[q] += opts.challenge_penalty
                    lost[q] = 1
    for q in range(1, n):
        drawn[q] += m.everyone
    d = -1 if m.reversed else 1
    owed = list(lost)
    order: list[int] = []
    q = 0 if m.again else d % n
    guard = 0
    while len(order) < turns and guard < 10 * turns + 10 * sum(lost):
        guard += 1
        if owed[q]:
            owed[q] -= 1
        else:
            order.append(q)
        q = (q + d) % n
    return SeatOutcome(tuple(drawn), tuple(lost), tuple(order), d)
