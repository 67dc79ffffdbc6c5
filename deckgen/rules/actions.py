"""Card effects and the rules around them: one engine handler per effect primitive.

:data:`PLAY` and :data:`START` map every primitive of :data:`deckgen.effects.PRIMITIVES` to what
it does when a card is played and when it is turned as the start card. :func:`apply` runs a
played card's effects in list order (the composition rule of :mod:`deckgen.effects`) and returns
the one value turn order needs: who plays next.

Every handler changes the game only through the state's named operations. Decisions (colour,
target, challenge, stacking, duel answers, the UNO call) are asked through ``g.ask`` (a
:class:`~deckgen.rules.decision.Decision` to the seat's bot or to whoever drives the seat).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import chain
from typing import TYPE_CHECKING, NamedTuple

from deckgen.effects import Effect
from deckgen.rules.decision import BOTH, DecisionKind
from deckgen.rules.record import CAUSES
from deckgen.rules.state import CAPPED, FINISHED, NO_PENDING, Duel, Pending
from deckgen.rules.table import NUM, Table

if TYPE_CHECKING:
    from deckgen.rules.engine import Game

PENALTY, STACK, EVERYONE, CHALLENGE, UNO, ROULETTE, DUEL = (CAUSES.index(c) for c in (
    "penalty", "stack", "everyone", "challenge", "uno", "roulette", "duel"))
ASK_CATCH = DecisionKind.CATCH
ASK_CHALLENGE = DecisionKind.CHALLENGE
ASK_COLOR = DecisionKind.COLOR
ASK_DUEL = DecisionKind.DUEL
ASK_JUMP_IN = DecisionKind.JUMP_IN
ASK_ROULETTE_COLOR = DecisionKind.ROULETTE_COLOR
ASK_STACK = DecisionKind.STACK
ASK_STEAL = DecisionKind.STEAL
ASK_SWAP = DecisionKind.SWAP
ASK_TARGET = DecisionKind.TARGET
ASK_UNO = DecisionKind.UNO
# (the kinds as module constants: an Enum member looked up on its class costs a Python call)


# ---------------------------------------------------------------- drawing, lost turns, the end

def draw_n(g: Game, q: int, n: int, cause: int, kind: int = -1) -> int:
    """q draws n cards one by one (Mercy checked after each) for this cause (a CAUSES index;
    kind: the draw card's kind for a penalty); returns how many were drawn. Cards between two
    checks that cannot knock q out are moved at once (op_draw_n), the same cards in the same order."""
    mercy = g.mercy_limit
    hand = g.hands[q]
    got = 0
    while got < n:
        # as many at once as can come before the next Mercy check can tell (the pile must hold them)
        k = n - got if not mercy else min(n - got, max(1, mercy - len(hand)))
        if k > 1 and g.op_draw_n(q, k, cause):
            got += k
        elif g.op_draw(q, cause) is None:
            break
        else:
            got += 1
        if mercy and len(hand) >= mercy:
            knock_out(g, q)
            break
    if cause == PENALTY and kind >= 0:
        g.penalty_by_kind[kind] += got
    if len(hand) > g.max_hand:
        g.max_hand = len(hand)
    return got


def knock_out(g: Game, q: int) -> None:
    """Mercy: q is out, their hand goes under the draw pile; the last player standing wins. A
    penalty waiting for q passes to the next player still in."""
    if len(g.hands[q]) > g.max_hand:
        g.max_hand = len(g.hands[q])
    g.op_knockout(q)
    if g.penalty and g.pend.victim == q and g.n_alive > 1:
        g.op_pending(g.pend._replace(victim=g.step(q)))
    if g.n_alive == 1:
        win(g, g.alive.index(True))


def win(g: Game, p: int) -> None:
    """p wins the hand: a waiting penalty is still drawn by its victim, then the hand is scored."""
    if g.penalty:
        pend = g.pend
        g.op_pending(NO_PENDING)
        if pend.victim != p and g.alive[pend.victim]:
            _draw_pending(g, pend.victim, pend)
    if g.outcome is not None:
        return
    t = g.t
    g.score = sum(t.points[f] for q in range(g.n) if q != p and g.alive[q] for f in g.hands[q])
    g.score += t.knockout_bonus * g.knockouts
    g.op_end(FINISHED, p)


def _draw_pending(g: Game, q: int, pend: Pending) -> None:
    """q draws a waiting penalty whole: one draw card's penalty, or a stack of several."""
    if pend.cards > 1:
        draw_n(g, q, pend.total, STACK)
    else:
        draw_n(g, q, pend.total, PENALTY, pend.kind)


# ---------------------------------------------------------------- one played card

class Ctx:
    """What the effects of one card share while they apply."""

    __slots__ = ("absorbed", "again", "guilty", "how", "lost", "move", "owes", "p", "reversed", "target")

    def __init__(self, p: int, move: int, guilty: bool, how: str):
        self.p, self.move, self.guilty, self.how = p, move, guilty, how
        self.target: int | None = None
        self.again = False
        self.reversed = False
        self.lost = 0           # seats this card has cost a turn (a bit each)
        self.owes = 0           # ... of them, by an owed turn (not by a waiting penalty)
        self.absorbed = 0       # ... of them, by a waiting penalty that took over an owed turn


def lose_turn(g: Game, c: Ctx | StartCtx, q: int) -> None:
    """q loses a turn to this card: one card costs a player at most one turn through its skip,
    reverse-as-skip, draw and roulette parts together (docs/rules.md, section 5)."""
    bit = 1 << q
    if c.lost & bit or not g.alive[q]:
        return
    c.lost |= bit
    c.owes |= bit
    g.op_owe(q, g.owed[q] + 1)


def apply(g: Game, p: int, move: int, guilty: bool, how: str) -> int | None:
    """Run a played card's effects in order; return who plays next (None: the hand ended)."""
    c = Ctx(p, move, guilty, how)
    for play, e in g.t.handlers[move]:
        play(g, c, e)
        if g.outcome:
            return None
    if c.again and g.alive[p]:
        return p
    return g.step(p)


def _skip(g: Game, c: Ctx, e: Effect) -> None:
    q = (c.p + g.dir) % g.n if g.n_alive == g.n else g.step(c.p)     # step(), inlined
    bit = 1 << q                                # lose_turn(), inlined (a common card)
    if not c.lost & bit and g.alive[q]:
        c.lost |= bit
        c.owes |= bit
        g.op_owe(q, g.owed[q] + 1)


def _again(g: Game, c: Ctx, e: Effect) -> None:
    c.again = True


def _reverse(g: Game, c: Ctx, e: Effect) -> None:
    g.op_direction()
    c.reversed = True
    if g.n_alive == 2 and g.o.two_player_reverse == "skip":
        lose_turn(g, c, g.step(c.p))


def _target(g: Game, c: Ctx, e: Effect) -> None:
    c.target = g.choose(c.p, ASK_TARGET, g.others(c.p))


def _draw(g: Game, c: Ctx, e: Effect) -> None:
    """A penalty draw on the chosen player, or the next one (the player themself with two players
    after a reverse, under two_player_reverse_draw = "player"); waits as a stackable penalty
    under a stacking rule; may be challenged when the card has 'challenge'."""
    t, p, move, n = g.t, c.p, c.move, e.n or 0
    targeted = c.target is not None
    if c.target is not None:
        victim, c.target = c.target, None
    elif c.reversed and g.n_alive == 2 and g.o.two_player_reverse_draw == "player" and c.how != "stack":
        victim = p
    else:
        victim = (p + g.dir) % g.n if g.n_alive == g.n else g.step(p)     # step(), inlined
    if victim == p and not g.hands[p]:
        return                                  # they went out with this card
    kind = t.mkind[move]
    challengeable = t.restricted[move] and g.challenge
    if g.stacking != "off" and e.lose_turn and not targeted:
        pend = g.pend
        first = not g.penalty
        if not first and pend.victim != victim:
            _penalty_moves_on(g, c, pend.victim)
        total = pend.total + n
        bit = 1 << victim
        if c.owes & bit:                        # the card already cost them a turn: answering it is that turn
            c.owes &= ~bit
            c.absorbed |= bit
            g.op_owe(victim, g.owed[victim] - 1)
        c.lost |= bit
        g.op_pending(Pending(victim, total, n, kind, pend.cards + 1,
                             (p, c.guilty) if challengeable and first else None))
        if total > g.max_stack:
            g.max_stack = total
        return
    if challengeable:
        return challenge(g, c, victim, n, e.lose_turn, kind)
    draw_n(g, victim, n, PENALTY, kind)
    if e.lose_turn:
        bit = 1 << victim                       # lose_turn(), inlined (a common card)
        if not c.lost & bit and g.alive[victim]:
            c.lost |= bit
            c.owes |= bit
            g.op_owe(victim, g.owed[victim] + 1)


def _penalty_moves_on(g: Game, c: Ctx, old: int) -> None:
    """This card's own waiting penalty passes from ``old`` to another player (a later draw part
    of the same card names them): answering it is no longer the turn the card cost ``old``. A
    turn the card cost them otherwise (a skip the penalty had taken over) is owed again; else
    the card has cost them nothing yet, and a later part may (docs/rules.md, section 5)."""
    bit = 1 << old
    if not c.lost & bit or c.owes & bit:
        return                                  # not a turn this card's penalty cost them
    if c.absorbed & bit:
        c.absorbed &= ~bit
        c.owes |= bit
        g.op_owe(old, g.owed[old] + 1)
    else:
        c.lost &= ~bit


def challenge(g: Game, c: Ctx, victim: int, n: int, loses: bool, kind: int) -> None:
    """The victim of a 'challenge' card (played by ``c.p``, guilty when ``c.guilty``) draws
    (and loses the turn), or challenges it: a guilty offender draws the penalty instead;
    otherwise the challenger draws it plus the challenge penalty and loses the turn."""
    offender, guilty = c.p, c.guilty
    if g.ask(victim, ASK_CHALLENGE, BOTH, about=offender):
        g.op_challenge(victim, offender, guilty)
        if guilty:
            draw_n(g, offender, n, CHALLENGE)
            return
        draw_n(g, victim, n + g.o.challenge_penalty, CHALLENGE)
        lose_turn(g, c, victim)
        return
    draw_n(g, victim, n, PENALTY, kind)
    if loses:
        lose_turn(g, c, victim)


def respond_to_penalty(g: Game, p: int) -> None:
    """A stacked penalty waits for p: challenge it, stack on it, or draw it all (the answer uses
    p's turn; lost turns p owes stay owed)."""
    pend = g.pend
    if pend.challenge is not None:
        offender, guilty = pend.challenge
        g.op_pending(pend._replace(challenge=None))
        if g.ask(p, ASK_CHALLENGE, BOTH, about=offender):
            g.op_pending(NO_PENDING)
            g.op_challenge(p, offender, bool(guilty))
            if guilty:
                draw_n(g, offender, pend.total, CHALLENGE)
                if g.outcome is None:
                    g.take_turn(p)
                return
            draw_n(g, p, pend.total + g.o.challenge_penalty, CHALLENGE)
            if g.outcome is None:
                g.op_turn(g.step(p))
            return
    moves = stack_moves(g, p)
    if moves:
        move = g.ask(p, ASK_STACK, moves, True)
        if move is not None:
            return g.play_stack(p, move)
    g.op_pending(NO_PENDING)
    _draw_pending(g, p, pend)
    if g.outcome is None:
        g.idle = 0
        g.op_turn((p + g.dir) % g.n if g.n_alive == g.n else g.step(p))


def stack_moves(g: Game, p: int) -> list[int]:
    """The moves p may stack on the waiting penalty: each draw card of p's hand once (first
    the regular sides, then the Flex sides while p's Power card allows them), in hand order."""
    t = g.t
    pend = g.pend
    key = ("stack-kind", pend.kind) if g.stacking == "same-kind" else ("stack-value", pend.value)
    sides: tuple[tuple[tuple[int, ...], ...], ...] | None = t.memo.get(key)
    if sides is None:
        sides = t.memo[key] = _stackable(t, key[0] == "stack-kind", key[1])
    regular, flex = sides
    hand = g.hands[p]
    moves = [*chain.from_iterable(map(regular.__getitem__, hand))]
    if t.any_flex and (g.power[p] or not g.power_cards):
        moves += chain.from_iterable(map(flex.__getitem__, hand))
    return list(dict.fromkeys(moves)) if len(moves) > 1 else moves


def _stackable(t: Table, same_kind: bool, what: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per side, per face: the move (none or one) that stacks on a penalty whose last card is of
    kind ``what`` (same-kind) or has the value ``what`` (otherwise); a Flex move only for a card
    with a Flex side. Looked up per card of the hand, in C."""
    dv = t.draw_val
    ok = [bool(dv[m] and (not m & 1 or t.has_flex[m >> 1]) and (t.mkind[m] == what if same_kind else dv[m] >= what))
          for m in range(len(dv))]
    return tuple(tuple((m,) if ok[m] else () for m in range(side, len(dv), 2)) for side in (0, 1))


def _everyone_draws(g: Game, c: Ctx, e: Effect) -> None:
    for q in g.others(c.p):
        draw_n(g, q, e.n or 0, EVERYONE)
        if g.outcome:
            return


def _choose_color(g: Game, c: Ctx, e: Effect) -> None:
    choose_color(g, c.p)


def choose_color(g: Game, p: int) -> None:
    if not g.t.colors:
        return
    g.op_color(g.choose(p, ASK_COLOR, range(len(g.t.colors))))


def _discard_color(g: Game, c: Ctx, e: Effect) -> None:
    t = g.t
    col = t.color[c.move >> 1]
    if col < 0:
        return
    for f in [f for f in g.hands[c.p] if t.color[f] == col]:
        g.op_discard(c.p, f)


def _swap_hands(g: Game, c: Ctx, e: Effect) -> None:
    p = c.p
    if not g.hands[p] or g.n_alive < 2:
        return                                  # they went out with this card
    g.op_swap(p, g.choose(p, ASK_SWAP, g.others(p)))


def _pass_hands(g: Game, c: Ctx, e: Effect) -> None:
    if not g.hands[c.p]:
        return                                  # they went out with this card
    pass_hands(g, e.direction)


def pass_hands(g: Game, direction: str) -> None:
    """Every player still in passes their hand on: left is seat + 1 (the way play starts), right is
    seat - 1, "play" the current direction of play."""
    d = g.dir if direction == "play" else (1 if direction == "left" else -1)
    players = [q for q in range(g.n) if g.alive[q]]
    if d < 0:
        players.reverse()
    g.op_pass_hands(tuple(players))


def _steal(g: Game, c: Ctx, e: Effect) -> None:
    """The player takes a random card (the game's rng) from a player of their choice who holds
    two or more cards: nobody is left without cards by someone else's card. Mercy applies."""
    p = c.p
    if not g.hands[p]:
        return                                  # they went out with this card
    players = [q for q in g.others(p) if len(g.hands[q]) >= 2]
    if not players:
        return
    q = g.choose(p, ASK_STEAL, players)
    hand = g.hands[q]
    g.op_steal(p, q, hand[g.rng.randrange(len(hand))])
    if g.mercy_limit and len(g.hands[p]) >= g.mercy_limit:
        knock_out(g, p)
    elif len(g.hands[p]) > g.max_hand:
        g.max_hand = len(g.hands[p])


def _roulette(g: Game, c: Ctx, e: Effect) -> None:
    victim = g.step(c.p)
    roulette(g, victim)
    lose_turn(g, c, victim)


def roulette(g: Game, victim: int) -> None:
    """The victim names a colour and turns cards until one of it (and then owes a lost turn)."""
    t = g.t
    col = g.choose(victim, ASK_ROULETTE_COLOR, range(len(t.colors)))
    mercy = g.mercy_limit
    while True:
        f = g.op_draw(victim, ROULETTE)
        if f is None:
            break
        if mercy and len(g.hands[victim]) >= mercy:
            knock_out(g, victim)
            break
        if t.color[f] == col:
            break
    if len(g.hands[victim]) > g.max_hand:
        g.max_hand = len(g.hands[victim])
    if g.outcome is None:
        g.op_color(col)


def _flip_power(g: Game, c: Ctx, e: Effect) -> None:
    flip_over(g, [*g.others(c.p), c.p] if e.who == "all" else [c.p])


def flip_power(g: Game, p: int, green: bool) -> None:
    """Turn p's Power card to green or red; all red -> all green."""
    if not g.power_cards:
        return
    g.op_power(p, green)
    _all_red_turn_green(g)


def flip_over(g: Game, players: Iterable[int]) -> None:
    """Turn these players' Power cards over at once (flip icon, Wild All Flip), then all red ->
    all green: the check comes after every card is turned, not between two of them."""
    if not g.power_cards:
        return
    for q in players:
        g.op_power(q, not g.power[q])
        g.power_flips += 1
    _all_red_turn_green(g)


def _all_red_turn_green(g: Game) -> None:
    if g.n_alive == g.n:
        if any(g.power):                        # every seat in: the plain test, in C
            return
    elif any(g.power[q] for q in range(g.n) if g.alive[q]):
        return
    for q in range(g.n):
        if g.alive[q]:
            g.op_power(q, True)


def _duel(g: Game, c: Ctx, e: Effect) -> None:
    duel(g, c.p, g.t.val[c.move >> 1])


def _nothing(g: Game, c: Ctx, e: Effect) -> None:
    """'challenge' marks the card (the 'draw' effect reads it); it does nothing by itself."""


def duel(g: Game, first: int, value: int) -> None:
    """Once round the table from the player after ``first``, nobody answering twice: each player
    discards a card showing the number, answers with a duel card (a counter-duel: the penalty
    doubles, up to duel_penalty_max, for the players still to answer, who must now show the
    counter-duel's number), or draws the penalty.

    The first player left without cards wins: a plain discard that empties a hand ends the duel
    at once; a duel card that was its player's last card (the first one or a counter-duel) still
    runs its duel round the table, then that player wins. A player who is out takes no part."""
    d = Duel(first, value, g.o.duel_penalty, tuple(g.others(first)), -1 if g.hands[first] else first)
    g.op_duel(d)
    while d.to_answer:
        q, rest = d.to_answer[0], d.to_answer[1:]
        nxt = _duel_answer(g, d, q, rest) if g.alive[q] and q != d.out else _answered(d, rest)
        if nxt is None:
            return
        d = nxt
        g.op_duel(d)
    g.op_duel(None)
    if d.out >= 0:
        win(g, d.out)


def _duel_answer(g: Game, d: Duel, q: int, rest: tuple[int, ...]) -> Duel | None:
    """q answers the duel: draws its penalty, counter-duels or discards a card showing the
    number. The duel's next state (``rest`` still to answer), or None: the hand is over."""
    opts = _duel_options(g, q, d.value)
    if not opts:
        draw_n(g, q, d.penalty, DUEL)
        return None if g.outcome else _answered(d, rest)
    a = g.choose(q, ASK_DUEL, opts, value=d.value)
    f = a >> 1
    if a & 1:                                   # a counter-duel
        t = g.t
        g.op_play(q, f + f, "duel")
        g.plays_by_seat_kind[q][t.mkind[f + f]] += 1
        out = d.out
        if not g.hands[q] and out < 0:
            out = q
        elif len(g.hands[q]) == 1 and g.uno_penalty:
            uno_call(g, q)
            if g.outcome:
                return None
        penalty = max(d.penalty, min(2 * d.penalty, g.o.duel_penalty_max))
        return Duel(d.first, t.val[f], penalty, rest, out)
    g.op_discard(q, f)
    if not g.hands[q] and d.out < 0:
        g.op_duel(None)
        win(g, q)
        return None
    if len(g.hands[q]) == 1 and g.uno_penalty:
        uno_call(g, q)
        if g.outcome:
            return None
    return _answered(d, rest)


def _answered(d: Duel, rest: tuple[int, ...]) -> Duel:
    """d._replace(to_answer=rest), built directly (_replace is slow)."""
    return Duel(d.first, d.value, d.penalty, rest, d.out)


def _duel_options(g: Game, q: int, value: int) -> list[int]:
    """q's answers to a duel on this number: face*2 discards the card plainly (it shows the
    number), face*2+1 plays it as a counter-duel (any duel card); each card of the hand once,
    in hand order."""
    t = g.t
    answers: tuple[tuple[int, ...], ...] | None = t.memo.get(("duel", value))
    if answers is None:                         # per face, worked out once per table and number
        answers = t.memo["duel", value] = tuple(
            ((f + f,) if t.cat[f] == NUM and t.val[f] == value and not t.colorless[f] else ())
            + ((f + f + 1,) if t.duel[f] else ()) for f in range(t.n_faces))
    return [*chain.from_iterable(map(answers.__getitem__, dict.fromkeys(g.hands[q])))]


# ---------------------------------------------------------------- UNO, jump-in

def uno_call(g: Game, p: int) -> None:
    """p has one card left: p says UNO, or any other player may catch them (penalty draw). The
    players are asked in turn order from p; under uno_catch = "until-next-turn-ends" a missed
    call stays open to be caught until the end of the next turn."""
    said = bool(g.ask(p, ASK_UNO, BOTH))
    if g.log is not None:
        g.op_uno(p, said)                       # only logged: it changes nothing on the table
    if said:
        return
    if not catch(g, p) and g.o.uno_catch == "until-next-turn-ends" and g.outcome is None:
        g.op_uno_window(p, g.turns + 1)


def catch(g: Game, p: int) -> bool:
    """Every other player in turn may catch p; the first who does makes p draw the penalty."""
    for q in g.others(p):
        if g.ask(q, ASK_CATCH, BOTH, about=p):
            g.op_caught(q, p)
            draw_n(g, p, g.uno_penalty, UNO)
            return True
    return False


def close_uno_window(g: Game) -> None:
    """The end of the next turn after a missed UNO call: a last chance to catch it, while the
    player still holds one card."""
    p = g.uno_open
    g.op_uno_window(-1, -1)
    if g.outcome is None and g.alive[p] and len(g.hands[p]) == 1:
        catch(g, p)


def jump_in(g: Game, p: int) -> None:
    """Jump-in: another player holding a card identical to the top card (same colour and number
    or symbol; wilds and colourless cards never are) may play it at once, and play goes on from
    them. Each jump-in counts as a turn, so chains end at the turn cap."""
    t = g.t
    last = p
    while g.outcome is None and not g.penalty:
        key = t.ident[g.discard[-1]]
        if key is None:
            return
        jumper = None
        for q in g.others(last):
            same = [f for f in g.hands[q] if t.ident[f] == key]
            if same and g.ask(q, ASK_JUMP_IN, (same[0] * 2,)):
                jumper = q, same[0]
                break
        if jumper is None:
            return
        g.turns += 1
        if g.turns >= g.turn_cap:
            g.op_end(CAPPED, None)
            return
        last, f = jumper
        g.play(last, f + f, "jump")


# ---------------------------------------------------------------- the start card

class StartCtx:
    """The start card acts on ``p``, the first player (the dealer after a reverse)."""

    __slots__ = ("f", "lost", "owes", "p")

    def __init__(self, f: int, p: int):
        self.f, self.p = f, p
        self.lost = self.owes = 0


def start_effects(g: Game, f: int, first: int) -> None:
    """The start card's effects on the first player (classic start rule), then the first turn."""
    c = StartCtx(f, first)
    for e in g.t.effects[2 * f]:
        PLAY[e.op].start(g, c, e)
        if g.outcome:
            return
    g.op_turn(c.p)


def _start_reverse(g: Game, c: StartCtx, e: Effect) -> None:
    g.op_direction()
    c.p = g.dealer


def _start_skip(g: Game, c: StartCtx, e: Effect) -> None:
    lose_turn(g, c, c.p)


def _start_draw(g: Game, c: StartCtx, e: Effect) -> None:
    draw_n(g, c.p, e.n or 0, PENALTY, g.t.mkind[2 * c.f])
    if e.lose_turn:
        lose_turn(g, c, c.p)


def _start_everyone(g: Game, c: StartCtx, e: Effect) -> None:
    for q in range(g.n):
        draw_n(g, q, e.n or 0, EVERYONE)
        if g.outcome:
            return


def _start_color(g: Game, c: StartCtx, e: Effect) -> None:
    choose_color(g, c.p)


def _start_roulette(g: Game, c: StartCtx, e: Effect) -> None:
    roulette(g, c.p)
    lose_turn(g, c, c.p)


def _start_flip(g: Game, c: StartCtx, e: Effect) -> None:
    if e.who == "all":
        flip_over(g, [q for q in range(g.n) if g.alive[q]])


def _start_nothing(g: Game, c: StartCtx, e: Effect) -> None:
    """Needs someone to have played the card (skip all, discard all, swaps, passes, duels,
    steals, another turn, a chosen victim): as the start card it does nothing."""


def handlers(table: Table) -> tuple[tuple[tuple[Callable[..., None], Effect], ...], ...]:
    """Per move, its effects with their play handlers, in order (what apply runs)."""
    return tuple(tuple((PLAY[e.op].play, e) for e in effects) for effects in table.effects)


class Handler(NamedTuple):
    play: Callable[..., None]           # (game, Ctx, Effect): the card was played
    start: Callable[..., None]          # (game, StartCtx, Effect): the card was turned as start card


PLAY: dict[str, Handler] = {
    "skip": Handler(_skip, _start_skip),
    "skip_all": Handler(_again, _start_nothing),
    "reverse": Handler(_reverse, _start_reverse),
    "draw": Handler(_draw, _start_draw),
    "everyone_draws": Handler(_everyone_draws, _start_everyone),
    "target": Handler(_target, _start_nothing),
    "choose_color": Handler(_choose_color, _start_color),
    "discard_color": Handler(_discard_color, _start_nothing),
    "swap_hands": Handler(_swap_hands, _start_nothing),
    "pass_hands": Handler(_pass_hands, _start_nothing),
    "roulette": Handler(_roulette, _start_roulette),
    "flip_power": Handler(_flip_power, _start_flip),
    "duel": Handler(_duel, _start_nothing),
    "challenge": Handler(_nothing, _start_nothing),
    "steal": Handler(_steal, _start_nothing),
    "play_again": Handler(_again, _start_nothing),
}
