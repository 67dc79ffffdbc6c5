"""Card effects and the rules around them: one engine handler per effect primitive.

:data:`PLAY` maps every primitive of :data:`deckgen.effects.PRIMITIVES` to what it does when a
card is played and when it is turned as the start card. :func:`apply_effects` runs a played
card's effects in list order (the composition rule of :mod:`deckgen.effects`); the card they
share is ``game.card`` (:class:`~deckgen.rules.machine.Card`).

Every handler changes the game only through the state's named operations. Decisions (colour,
target, challenge, duel answers, the UNO call and its catch) are asked through ``game.ask``: the
seat's policy answers at once, or the game stops there (docs/engine.md). A step that asks names
itself as the frame that goes on with the answer (its last argument, ``ASK`` until it is given);
a step that runs others catches the stop on its way up and adds a frame for what is left of it,
so what remains of a card or a turn is always plain data on the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any, NamedTuple

from deckgen.effects import Effect
from deckgen.rules.decision import BOTH, Answer, DecisionKind
from deckgen.rules.machine import ASK, Machine, Suspended, _Ask
from deckgen.rules.record import CAUSES
from deckgen.rules.state import FINISHED, NO_PENDING, Duel, Pending
from deckgen.rules.table import KEEPS_COLOR, NUM, Table

PENALTY, STACK, EVERYONE, CHALLENGE, UNO, ROULETTE, DUEL = (CAUSES.index(c) for c in (
    "penalty", "stack", "everyone", "challenge", "uno", "roulette", "duel"))
ASK_CATCH = DecisionKind.CATCH
ASK_CHALLENGE = DecisionKind.CHALLENGE
ASK_COLOR = DecisionKind.COLOR
ASK_DUEL = DecisionKind.DUEL
ASK_ROULETTE_COLOR = DecisionKind.ROULETTE_COLOR
ASK_STEAL = DecisionKind.STEAL
ASK_SWAP = DecisionKind.SWAP
ASK_TARGET = DecisionKind.TARGET
ASK_UNO = DecisionKind.UNO
# (the kinds as module constants: an Enum member looked up on its class costs a Python call)


# ---------------------------------------------------------------- drawing, lost turns, the end

def draw_n(game: Machine, q: int, n: int, cause: int, kind: int = -1) -> int:
    """q draws n cards one by one (Mercy checked after each) for this cause (a CAUSES index;
    kind: the draw card's kind for a penalty); returns how many were drawn. Cards between two
    checks that cannot knock q out are moved at once (op_draw_n), the same cards in the same order."""
    mercy = game.mercy_limit
    hand = game.hands[q]
    got = 0
    while got < n:
        # as many at once as can come before the next Mercy check can tell (the pile must hold them)
        k = n - got if not mercy else min(n - got, max(1, mercy - len(hand)))
        if k > 1 and game.op_draw_n(q, k, cause):
            got += k
        elif game.op_draw(q, cause) is None:
            break
        else:
            got += 1
        if mercy and len(hand) >= mercy:
            knock_out(game, q)
            break
    if cause == PENALTY and kind >= 0:
        game.penalty_by_kind[kind] += got
    if len(hand) > game.max_hand:
        game.max_hand = len(hand)
    return got


def knock_out(game: Machine, q: int) -> None:
    """Mercy: q is out, their hand goes under the draw pile; the last player standing wins. A
    penalty waiting for q passes to the next player still in."""
    if len(game.hands[q]) > game.max_hand:
        game.max_hand = len(game.hands[q])
    game.op_knockout(q)
    if game.penalty and game.waiting.victim == q and game.alive_count > 1:
        game.op_pending(game.waiting._replace(victim=game.step(q)))
    if game.alive_count == 1:
        win(game, game.alive.index(True))


def win(game: Machine, p: int) -> None:
    """p wins the hand: a waiting penalty is still drawn by its victim, then the hand is scored."""
    if game.penalty:
        waiting = game.waiting
        game.op_pending(NO_PENDING)
        if waiting.victim != p and game.alive[waiting.victim]:
            draw_pending(game, waiting.victim, waiting)
    if game.outcome is not None:
        return
    t = game.table
    points, hands, alive = t.points, game.hands, game.alive      # the points of the cards the others hold
    game.score = sum([points[f] for q in range(game.n_players) if q != p and alive[q] for f in hands[q]])
    game.score += t.knockout_bonus * game.knockouts
    game.op_end(FINISHED, p)


def draw_pending(game: Machine, q: int, waiting: Pending) -> None:
    """q draws a waiting penalty whole: one draw card's penalty, or a stack of several."""
    if waiting.cards > 1:
        draw_n(game, q, waiting.total, STACK)
    else:
        draw_n(game, q, waiting.total, PENALTY, waiting.kind)


# ---------------------------------------------------------------- one played card

def lose_turn(game: Machine, q: int) -> None:
    """q loses a turn to the card in play: one card costs a player at most one turn through its
    skip, reverse-as-skip, draw and roulette parts together (docs/rules.md, section 5)."""
    card = game.card
    bit = 1 << q
    if card.lost & bit or not game.alive[q]:
        return
    card.lost |= bit
    card.owes |= bit
    game.op_owe(q, game.owed[q] + 1)


def apply_effects(game: Machine, i: int) -> None:
    """Run the effects of the card in play (``game.card``) from its i-th on, in order, until the
    last, the end of the hand, or the card's player knocked out (a lost challenge past the mercy
    limit): a player who is out names no colour and chooses nothing, so the rest of their card
    does nothing."""
    handlers = game.table.handlers[game.card.move]
    alive, p = game.alive, game.card.p
    if game.outcome or not alive[p]:                 # (resumed after an answer that ended it)
        return
    while i < len(handlers):
        handler, effect = handlers[i]
        i += 1
        try:
            handler(game, effect)
        except Suspended as s:
            s.frames.append((apply_effects, i))
            raise
        if game.outcome or not alive[p]:
            return


def _skip(game: Machine, effect: Effect) -> None:
    card = game.card
    q = (card.p + game.direction) % game.n_players if game.alive_count == game.n_players else game.step(card.p)
    bit = 1 << q                                # lose_turn(), inlined (a common card)
    if not card.lost & bit and game.alive[q]:
        card.lost |= bit
        card.owes |= bit
        game.op_owe(q, game.owed[q] + 1)


def _again(game: Machine, effect: Effect) -> None:
    game.card.again = True


def _reverse(game: Machine, effect: Effect) -> None:
    game.op_direction()
    game.card.reversed = True
    if game.alive_count == 2 and game.rules.two_player_reverse == "skip":
        lose_turn(game, game.step(game.card.p))


def _target(game: Machine, effect: Effect, answer: Answer | _Ask = ASK) -> None:
    p = game.card.p
    if answer is ASK:
        answer = game.ask(p, ASK_TARGET, game.others(p), (_target, effect))
    game.card.target = int(answer)              # type: ignore[arg-type]


def _draw(game: Machine, effect: Effect) -> None:
    """A penalty draw on the chosen player, or the next one (the player themself with two players
    after a reverse, under two_player_reverse_draw = "player"); waits as a stackable penalty
    under a stacking rule; may be challenged when the card has 'challenge'."""
    card = game.card
    t, p, move, n = game.table, card.p, card.move, effect.n
    targeted = card.target is not None
    if card.target is not None:
        victim, card.target = card.target, None
    elif card.reversed and game.alive_count == 2 and game.rules.two_player_reverse_draw == "player" \
            and card.how != "stack":
        victim = p
    else:
        victim = (p + game.direction) % game.n_players if game.alive_count == game.n_players else game.step(p)
    if victim == p and not game.hands[p]:
        return                                  # they went out with this card
    kind = t.move_kind[move]
    challengeable = t.restricted[move] and game.challenge
    if game.stacking != "off" and effect.lose_turn and not targeted:
        waiting = game.waiting
        first = not game.penalty
        if not first and waiting.victim != victim:
            _penalty_moves_on(game, waiting.victim)
        total = waiting.total + n
        bit = 1 << victim
        if card.owes & bit:                     # the card already cost them a turn: answering it is that turn
            card.owes &= ~bit
            card.absorbed |= bit
            game.op_owe(victim, game.owed[victim] - 1)
        card.lost |= bit
        game.op_pending(Pending(victim, total, n, kind, waiting.cards + 1,
                                (p, card.guilty) if challengeable and first else None))
        if total > game.max_stack:
            game.max_stack = total
        return
    if challengeable:
        return challenge(game, victim, n, effect.lose_turn, kind)
    draw_n(game, victim, n, PENALTY, kind)
    if effect.lose_turn:
        bit = 1 << victim                       # lose_turn(), inlined (a common card)
        if not card.lost & bit and game.alive[victim]:
            card.lost |= bit
            card.owes |= bit
            game.op_owe(victim, game.owed[victim] + 1)


def _penalty_moves_on(game: Machine, old: int) -> None:
    """The card's own waiting penalty passes from ``old`` to another player (a later draw part of
    the same card names them): answering it is no longer the turn the card cost ``old``. A turn
    the card cost them otherwise (a skip the penalty had taken over) is owed again; else the card
    has cost them nothing yet, and a later part may (docs/rules.md, section 5)."""
    card = game.card
    bit = 1 << old
    if not card.lost & bit or card.owes & bit:
        return                                  # not a turn this card's penalty cost them
    if card.absorbed & bit:
        card.absorbed &= ~bit
        card.owes |= bit
        game.op_owe(old, game.owed[old] + 1)
    else:
        card.lost &= ~bit


def challenge(game: Machine, victim: int, n: int, loses: bool, kind: int, answer: Answer | _Ask = ASK) -> None:
    """The victim of a 'challenge' card (played by the card's player, guilty when
    ``card.guilty``) draws (and loses the turn), or challenges it: a guilty offender draws the
    penalty instead; otherwise the challenger draws it plus the challenge penalty and loses the
    turn."""
    card = game.card
    offender, guilty = card.p, card.guilty
    if answer is ASK:
        answer = game.ask(victim, ASK_CHALLENGE, BOTH, (challenge, victim, n, loses, kind), about=offender)
    if answer:
        game.op_challenge(victim, offender, guilty)
        if guilty:
            draw_n(game, offender, n, CHALLENGE)
            return
        draw_n(game, victim, n + game.rules.challenge_penalty, CHALLENGE)
        lose_turn(game, victim)
        return
    draw_n(game, victim, n, PENALTY, kind)
    if loses:
        lose_turn(game, victim)


def stack_moves(game: Machine, p: int) -> list[int]:
    """The moves p may stack on the waiting penalty: each draw card of p's hand once (first
    the regular sides, then the Flex sides while p's Power card allows them), in hand order."""
    t = game.table
    waiting = game.waiting
    key = ("stack-kind", waiting.kind) if game.stacking == "same-kind" else ("stack-value", waiting.value)
    regular, flex = t.remember(key, _stackable, t, key[0] == "stack-kind", key[1])
    hand = game.hands[p]
    moves = [*chain.from_iterable(map(regular.__getitem__, hand))]
    if t.any_flex and (game.power[p] or not game.power_cards):
        moves += chain.from_iterable(map(flex.__getitem__, hand))
    return list(dict.fromkeys(moves)) if len(moves) > 1 else moves


def _stackable(t: Table, same_kind: bool, what: int) -> tuple[list[tuple[int, ...]], ...]:
    """Per side, per face: the move (none or one) that stacks on a penalty whose last card is of
    kind ``what`` (same-kind) or has the value ``what`` (otherwise); a Flex move only for a card
    with a Flex side. Looked up per card of the hand, in C (lists: a tuple's __getitem__ is slow
    to call)."""
    dv = t.draw_val
    ok = [bool(dv[m] and (not m & 1 or t.has_flex[m >> 1])
               and (t.move_kind[m] == what if same_kind else dv[m] >= what))
          for m in range(len(dv))]
    return tuple([(m,) if ok[m] else () for m in range(side, len(dv), 2)] for side in (0, 1))


def _everyone_draws(game: Machine, effect: Effect) -> None:
    for q in game.others(game.card.p):
        draw_n(game, q, effect.n, EVERYONE)
        if game.outcome:
            return


def _choose_color(game: Machine, effect: Effect) -> None:
    choose_color(game, game.card.p)


def choose_color(game: Machine, p: int, answer: Answer | _Ask = ASK) -> None:
    if not game.table.colors:
        return
    if answer is ASK:
        answer = game.ask(p, ASK_COLOR, range(len(game.table.colors)), (choose_color, p))
    game.op_color(int(answer))                  # type: ignore[arg-type]


def _discard_color(game: Machine, effect: Effect) -> None:
    t, card = game.table, game.card
    col = t.color[card.move >> 1]
    if col < 0:
        return
    for f in [f for f in game.hands[card.p] if t.color[f] == col]:
        game.op_discard(card.p, f)


def _swap_hands(game: Machine, effect: Effect, answer: Answer | _Ask = ASK) -> None:
    p = game.card.p
    if not game.hands[p] or game.alive_count < 2:
        return                                  # they went out with this card
    if answer is ASK:
        answer = game.ask(p, ASK_SWAP, game.others(p), (_swap_hands, effect))
    game.op_swap(p, int(answer))                # type: ignore[arg-type]


def _pass_hands(game: Machine, effect: Effect) -> None:
    if not game.hands[game.card.p]:
        return                                  # they went out with this card
    pass_hands(game, effect.direction)


def pass_hands(game: Machine, direction: str) -> None:
    """Every player still in passes their hand on: left is seat + 1 (the way play starts), right is
    seat - 1, "play" the current direction of play."""
    d = game.direction if direction == "play" else (1 if direction == "left" else -1)
    players = [q for q in range(game.n_players) if game.alive[q]]
    if d < 0:
        players.reverse()
    game.op_pass_hands(tuple(players))


def _steal(game: Machine, effect: Effect, answer: Answer | _Ask = ASK) -> None:
    """The player takes a random card (the game's rng) from a player of their choice who holds
    two or more cards: nobody is left without cards by someone else's card. Mercy applies."""
    p = game.card.p
    if not game.hands[p]:
        return                                  # they went out with this card
    if answer is ASK:
        players = [q for q in game.others(p) if len(game.hands[q]) >= 2]
        if not players:
            return
        answer = game.ask(p, ASK_STEAL, players, (_steal, effect))
    q = int(answer)                             # type: ignore[arg-type]
    hand = game.hands[q]
    game.op_steal(p, q, hand[game.rng.randrange(len(hand))])
    if game.mercy_limit and len(game.hands[p]) >= game.mercy_limit:
        knock_out(game, p)
    elif len(game.hands[p]) > game.max_hand:
        game.max_hand = len(game.hands[p])


def _roulette(game: Machine, effect: Effect) -> None:
    roulette(game, game.step(game.card.p))


def roulette(game: Machine, victim: int, answer: Answer | _Ask = ASK) -> None:
    """The victim names a colour, turns cards until one of it, and owes a lost turn to the card."""
    t = game.table
    if answer is ASK:
        answer = game.ask(victim, ASK_ROULETTE_COLOR, range(len(t.colors)), (roulette, victim))
    col = int(answer)                           # type: ignore[arg-type]
    mercy = game.mercy_limit
    while True:
        f = game.op_draw(victim, ROULETTE)
        if f is None:
            break
        if mercy and len(game.hands[victim]) >= mercy:
            knock_out(game, victim)
            break
        if t.color[f] == col:
            break
    if len(game.hands[victim]) > game.max_hand:
        game.max_hand = len(game.hands[victim])
    if game.outcome is None:
        game.op_color(col)
    lose_turn(game, victim)


def _flip_power(game: Machine, effect: Effect) -> None:
    p = game.card.p
    flip_over(game, [*game.others(p), p] if effect.who == "all" else [p])


def flip_power(game: Machine, p: int, green: bool) -> None:
    """Turn p's Power card to green or red; all red -> all green."""
    if not game.power_cards:
        return
    game.op_power(p, green)
    _all_red_turn_green(game)


def flip_over(game: Machine, players: Iterable[int]) -> None:
    """Turn these players' Power cards over at once (flip icon, Wild All Flip), then all red ->
    all green: the check comes after every card is turned, not between two of them."""
    if not game.power_cards:
        return
    for q in players:
        game.op_power(q, not game.power[q])
        game.power_flips += 1
    _all_red_turn_green(game)


def _all_red_turn_green(game: Machine) -> None:
    if game.alive_count == game.n_players:
        if any(game.power):                     # every seat in: the plain test, in C
            return
    elif any(game.power[q] for q in range(game.n_players) if game.alive[q]):
        return
    for q in range(game.n_players):
        if game.alive[q]:
            game.op_power(q, True)


def _duel(game: Machine, effect: Effect) -> None:
    first = game.card.p
    game.op_duel(Duel(first, game.table.value[game.card.move >> 1], game.rules.duel_penalty,
                      tuple(game.others(first)), -1 if game.hands[first] else first))
    duel(game)


def _nothing(game: Machine, effect: Effect) -> None:
    """'challenge' marks the card (the 'draw' effect reads it); it does nothing by itself."""


def duel(game: Machine, answer: Answer | _Ask = ASK) -> None:
    """The duel in progress (``game.duel``) goes on once round the table from the player after
    the first one, nobody answering twice: each player discards a card showing the number,
    answers with a duel card (a counter-duel: the penalty doubles, up to duel_penalty_max, for
    the players still to answer, who must now show the counter-duel's number), or draws the
    penalty. ``answer``: the first player still to answer's answer, when it came from outside.

    The first player left without cards wins: a plain discard that empties a hand ends the duel
    at once; a duel card that was its player's last card (the first one or a counter-duel) still
    runs its duel round the table, then that player wins. A player who is out takes no part."""
    d = game.duel
    assert d is not None
    while d.to_answer:
        q, rest = d.to_answer[0], d.to_answer[1:]
        if game.alive[q] and q != d.out:
            nxt = _duel_answer(game, d, q, rest, answer)
            if nxt is None:
                return
        else:
            nxt = _answered(d, rest)
        answer = ASK
        d = nxt
        game.op_duel(d)
    game.op_duel(None)
    if d.out >= 0:
        win(game, d.out)


def _duel_answer(game: Machine, d: Duel, q: int, rest: tuple[int, ...], answer: Answer | _Ask) -> Duel | None:
    """q answers the duel: draws its penalty, counter-duels or discards a card showing the
    number. The duel's next state (``rest`` still to answer), or None: the hand is over."""
    if answer is ASK:
        opts = _duel_options(game, q, d.value)
        if not opts:
            draw_n(game, q, d.penalty, DUEL)
            return None if game.outcome else _answered(d, rest)
        answer = game.ask(q, ASK_DUEL, opts, (duel,), value=d.value)
    a = int(answer)                             # type: ignore[arg-type]
    f = a >> 1
    if a & 1:                                   # a counter-duel
        t = game.table
        game.op_play(q, f + f, "duel")
        game.plays_by_seat_kind[q][t.move_kind[f + f]] += 1
        out = d.out
        if not game.hands[q] and out < 0:
            out = q
        penalty = max(d.penalty, min(2 * d.penalty, game.rules.duel_penalty_max))
        after = tuple.__new__(Duel, (d.first, t.value[f], penalty, rest, out))   # Duel(...) without its Python __new__
        if len(game.hands[q]) == 1 and game.uno_penalty:
            return _duel_uno(game, q, after)
        return after
    game.op_discard(q, f)
    if not game.hands[q] and d.out < 0:
        game.op_duel(None)
        win(game, q)
        return None
    after = _answered(d, rest)
    if len(game.hands[q]) == 1 and game.uno_penalty:
        return _duel_uno(game, q, after)
    return after


def _duel_uno(game: Machine, q: int, after: Duel) -> Duel | None:
    """q answered the duel down to one card: the UNO call, then the duel goes on as ``after``."""
    try:
        uno_call(game, q)
    except Suspended as s:
        s.frames.append((_duel_from, after))
        raise
    return None if game.outcome else after


def _duel_from(game: Machine, after: Duel) -> None:
    """Resume a duel after its UNO call: it goes on as ``after``."""
    if game.outcome:
        return
    game.op_duel(after)
    duel(game)


def _answered(d: Duel, rest: tuple[int, ...]) -> Duel:
    """d._replace(to_answer=rest), built directly (_replace and a NamedTuple's Python __new__ are slow)."""
    return tuple.__new__(Duel, (d.first, d.value, d.penalty, rest, d.out))


def _duel_options(game: Machine, q: int, value: int) -> list[int]:
    """q's answers to a duel on this number: face*2 discards the card plainly (it shows the
    number), face*2+1 plays it as a counter-duel (any duel card); each card of the hand once,
    in hand order."""
    t = game.table
    key = ("duel", value)
    answers = t.memo.get(key) or t.remember(key, _duel_answers, t, value)     # (the memo read inline: every answer)
    return [*chain.from_iterable(map(answers.__getitem__, dict.fromkeys(game.hands[q])))]


def _duel_answers(t: Table, value: int) -> list[tuple[int, ...]]:
    """Per face, its answers to a duel on this number (_duel_options; a list, as _stackable's)."""
    return [((f + f,) if t.category[f] == NUM and t.value[f] == value and not t.colorless[f] else ())
            + ((f + f + 1,) if t.duel[f] else ()) for f in range(t.n_faces)]


# ---------------------------------------------------------------- UNO

def uno_call(game: Machine, p: int, answer: Answer | _Ask = ASK) -> None:
    """p has one card left: p says UNO, or any other player may catch them (penalty draw). The
    players are asked in turn order from p; under uno_catch = "until-next-turn-ends" a missed
    call stays open to be caught until the end of the next turn."""
    if answer is ASK:
        answer = game.ask(p, ASK_UNO, BOTH, (uno_call, p))
    said = bool(answer)
    if game.log is not None:
        game.op_uno(p, said)                    # only logged: it changes nothing on the table
    if not said:
        catch(game, p, 0, game.rules.uno_catch == "until-next-turn-ends")


def catch(game: Machine, p: int, i: int, keep_open: bool, answer: Answer | _Ask = ASK) -> None:
    """Every other player in turn (from the i-th) may catch p; the first who does makes p draw
    the penalty. Nobody does: with ``keep_open`` the missed call stays open until the end of the
    next turn."""
    others = game.others(p)
    while i < len(others):
        q = others[i]
        if answer is ASK:
            answer = game.ask(q, ASK_CATCH, BOTH, (catch, p, i, keep_open), about=p)
        if answer:
            game.op_caught(q, p)
            draw_n(game, p, game.uno_penalty, UNO)
            return
        answer = ASK
        i += 1
    if keep_open and game.outcome is None:
        game.op_uno_window(p, game.turns + 1)


def close_uno_window(game: Machine) -> None:
    """The end of the next turn after a missed UNO call: a last chance to catch it, while the
    player still holds one card."""
    p = game.uno_open
    game.op_uno_window(-1, -1)
    if game.outcome is None and game.alive[p] and len(game.hands[p]) == 1:
        catch(game, p, 0, False)


# ---------------------------------------------------------------- the start card

def start_effects(game: Machine, f: int, first: int) -> None:
    """The start card's effects on the first player (classic start rule), then the first turn."""
    card = game.card
    card.p, card.move, card.guilty, card.how = first, 2 * f, False, "start"
    card.target, card.again, card.reversed = None, False, False
    card.lost = card.owes = card.absorbed = 0
    start_from(game, 0)


def start_from(game: Machine, i: int) -> None:
    """The start card's effects from the i-th on, then the first player's turn. A first player
    knocked out by them (a roulette past the mercy limit) is out: the rest of the card does
    nothing, and the next player still in begins."""
    effects = game.table.effects[game.card.move]
    while i < len(effects) and game.alive[game.card.p]:
        effect = effects[i]
        i += 1
        try:
            PLAY[effect.op].start(game, effect)
        except Suspended as s:
            s.frames.append((start_from, i))
            raise
        if game.outcome:
            return
    if game.color < 0 and game.table.lands[game.card.move][1] == KEEPS_COLOR and game.table.colors:
        # a wild whose effects named no colour: the first player names it, as after any wild start
        # card (without a colour only wilds would follow it); the next one still in if they are out
        p = game.card.p
        try:
            choose_color(game, p if game.alive[p] else game.step(p))
        except Suspended as s:
            s.frames.append((start_from, i))
            raise
    game.op_turn(game.card.p)


def _start_reverse(game: Machine, effect: Effect) -> None:
    game.op_direction()
    game.card.p = game.dealer


def _start_skip(game: Machine, effect: Effect) -> None:
    lose_turn(game, game.card.p)


def _start_draw(game: Machine, effect: Effect) -> None:
    p = game.card.p
    draw_n(game, p, effect.n, PENALTY, game.table.move_kind[game.card.move])
    if effect.lose_turn:
        lose_turn(game, p)


def _start_everyone(game: Machine, effect: Effect) -> None:
    for q in range(game.n_players):
        draw_n(game, q, effect.n, EVERYONE)
        if game.outcome:
            return


def _start_color(game: Machine, effect: Effect) -> None:
    choose_color(game, game.card.p)


def _start_roulette(game: Machine, effect: Effect) -> None:
    roulette(game, game.card.p)


def _start_flip(game: Machine, effect: Effect) -> None:
    if effect.who == "all":
        flip_over(game, [q for q in range(game.n_players) if game.alive[q]])


def _start_nothing(game: Machine, effect: Effect) -> None:
    """Needs someone to have played the card (skip all, discard all, swaps, passes, duels,
    steals, another turn, a chosen victim): as the start card it does nothing."""


def handlers(table: Table) -> tuple[tuple[tuple[Callable[..., None], Effect], ...], ...]:
    """Per move, its effects with their play handlers, in order (what apply_effects runs)."""
    return tuple(tuple((PLAY[effect.op].play, effect) for effect in effects) for effects in table.effects)


class Handler(NamedTuple):
    play: Callable[..., Any]            # (game, Effect): the card was played (game.card is it)
    start: Callable[..., Any]           # (game, Effect): the card was turned as start card (game.card is it)


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
