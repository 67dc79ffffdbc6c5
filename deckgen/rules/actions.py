"""Card effects and the rules around them, executed from a card's effect primitives.

Each function takes the game and changes it only through the state's named operations.
Decisions (colour, target, challenge, stacking, duel answers, the UNO call) are asked of the
player's agent and counted.
"""

from __future__ import annotations

from deckgen.rules.record import CAUSES
from deckgen.rules.state import CAPPED, FINISHED
from deckgen.rules.table import NUM

# ---------------------------------------------------------------- drawing, knock-outs, the end

PENALTY, STACK, EVERYONE, CHALLENGE, UNO, ROULETTE, DUEL_CAUSE = (CAUSES.index(c) for c in (
    "penalty", "stack", "everyone", "challenge", "uno", "roulette", "duel"))


def _draw_pending(g, q: int, total: int) -> None:
    """q draws a waiting penalty whole: one draw card's penalty, or a stack of several."""
    if g.pending_cards > 1:
        draw_n(g, q, total, STACK)
    else:
        draw_n(g, q, total, PENALTY, g.pending_kind)
    g.pending_cards = 0


def draw_n(g, q: int, n: int, cause: int, kind: int = -1) -> int:
    """q draws n cards one by one (Mercy checked after each) for this cause (a CAUSES index;
    kind: the draw card's kind for a penalty); returns how many were drawn."""
    mercy = g.mercy
    hand = g.hands[q]
    got = 0
    for _ in range(n):
        if g.op_draw(q, cause) is None:
            break
        got += 1
        if mercy and len(hand) >= mercy:
            knock_out(g, q)
            break
    if cause == PENALTY and kind >= 0:
        g.penalty_by_kind[kind] += got
    if len(hand) > g.max_hand:
        g.max_hand = len(hand)
    return got


def knock_out(g, q: int) -> None:
    """Mercy: q is out, their hand goes under the draw pile; the last player standing wins."""
    if len(g.hands[q]) > g.max_hand:
        g.max_hand = len(g.hands[q])
    g.op_knockout(q)
    if g.n_alive == 1:
        win(g, g.alive.index(True))


def win(g, p: int) -> None:
    """p wins the hand: a pending penalty is still drawn, then the hand is scored."""
    if g.pending:
        victim, total = g.cur, g.pending
        g.pending = 0
        g.pending_challenge = None
        if victim != p and g.alive[victim]:
            _draw_pending(g, victim, total)
    if g.outcome is not None:
        return
    t = g.t
    g.score = sum(t.points[f] for q in range(g.n) if q != p and g.alive[q] for f in g.hands[q])
    g.score += t.knockout_bonus * g.knockouts
    g.op_end(FINISHED, p)


def lose_turn(g, p: int, victim: int) -> bool:
    """The victim loses their turn: True when that is simply the next turn (a skip)."""
    if not g.alive[victim] or victim == p:
        return False
    if victim == g.step(p):
        return True
    g.lose_turn[victim] = True
    return False


# ---------------------------------------------------------------- one played card

def apply(g, p: int, move: int, effects, guilty: bool) -> None:
    """Run a played card's effects in order, then hand the turn on."""
    t = g.t
    skips = 0
    again = False
    target = None
    resume = None
    victim_turn = None
    reversed_ = False
    for e in effects:
        op = e.op
        if op == "skip":
            skips += 1
        elif op == "skip_all":
            again = True
        elif op == "reverse":
            g.op_direction()
            reversed_ = True
            if g.n_alive == 2 and g.o.two_player_reverse == "skip" and not t.draw_val[move]:
                skips += 1
        elif op == "target":
            target = choose_target(g, p)
        elif op == "draw":
            r = penalty(g, p, move, e, target, reversed_, guilty)
            if r is True:
                skips += 1
            elif r is not None and r is not False:
                victim_turn = r
        elif op == "everyone_draws":
            for q in others(g, p):
                draw_n(g, q, e.n, EVERYONE)
                if g.outcome:
                    return
        elif op == "choose_color":
            choose_color(g, p)
        elif op == "discard_color":
            discard_color(g, p, move)
        elif op == "swap_hands":
            swap_hands(g, p)
        elif op == "pass_hands":
            if g.hands[p]:
                g.op_pass_hands()
        elif op == "roulette":
            if roulette(g, g.step(p)):
                skips += 1
        elif op == "flip_power":
            flip_over(g, [*others(g, p), p] if e.who == "all" else [p])
        elif op == "duel":
            resume = duel(g, p, t.val[move >> 1])
        if g.outcome:
            return
    if victim_turn is not None:
        g.op_turn(victim_turn)
    elif again:
        g.op_turn(p)
    elif resume is not None:
        g.op_turn(g.step(resume, 1 + skips))
    else:
        g.op_turn(g.step(p, 1 + skips))


def others(g, p: int) -> list[int]:
    """Every other player still in, in turn order from p."""
    out = []
    q = g.step(p)
    while q != p and len(out) < g.n:
        out.append(q)
        q = g.step(q)
    return out


def penalty(g, p: int, move: int, e, target, reversed_: bool, guilty: bool):
    """A 'draw' effect. Returns True (the victim is the next player and loses the turn), the
    victim whose turn it now is (a stacked penalty waiting), or None."""
    t = g.t
    n = e.n
    if target is not None:
        victim = target
    elif reversed_ and g.n_alive == 2 and g.o.two_player_reverse_draw == "player" and not g.pending:
        victim = p
    else:
        victim = g.step(p)
    challengeable = t.restricted[move] and g.bluff
    if g.stacking != "off" and e.lose_turn and target is None:
        first = not g.pending
        g.pending += n
        g.pending_cards = 1 if first else g.pending_cards + 1
        g.pending_val = n
        g.pending_kind = t.mkind[move]
        g.pending_from = p
        g.pending_challenge = (p, guilty) if challengeable and first else None
        if g.pending > g.max_stack:
            g.max_stack = g.pending
        return victim
    if challengeable:
        return challenge(g, victim, p, n, guilty, e.lose_turn, p, t.mkind[move])
    draw_n(g, victim, n, PENALTY, t.mkind[move])
    if e.lose_turn:
        return lose_turn(g, p, victim)
    return None


def challenge(g, victim: int, offender: int, n: int, guilty: bool, loses: bool, p: int, kind: int):
    """The victim of a 'challenge' card draws, or challenges it. Returns like :func:`penalty`."""
    g.decisions += 1
    if g.agents[victim].challenge(g, victim, offender):
        g._ev(("challenge", victim, offender, guilty))
        if guilty:
            draw_n(g, offender, n, CHALLENGE)
            return None
        draw_n(g, victim, n + g.o.challenge_penalty, CHALLENGE)
        return lose_turn(g, p, victim)
    draw_n(g, victim, n, PENALTY, kind)
    return lose_turn(g, p, victim) if loses else None


def respond_to_penalty(g, p: int) -> None:
    """A stacked penalty waits for p: challenge it, stack on it, or draw it all and lose the turn."""
    total = g.pending
    if g.pending_challenge is not None:
        offender, guilty = g.pending_challenge
        g.pending_challenge = None
        g.decisions += 1
        if g.agents[p].challenge(g, p, offender):
            g.pending = 0
            g._ev(("challenge", p, offender, guilty))
            if guilty:
                draw_n(g, offender, total, CHALLENGE)
                if g.outcome is None:
                    g.take_turn(p)
                return
            draw_n(g, p, total + g.o.challenge_penalty, CHALLENGE)
            if g.outcome is None:
                g.op_turn(g.step(p))
            return
    moves = stack_moves(g, p)
    if moves:
        g.decisions += 1
        move = g.agents[p].stack(g, p, moves)
        if move is not None:
            return g.play(p, move, "stack")
    g.pending = 0
    _draw_pending(g, p, total)
    if g.outcome is None:
        g.idle = 0
        g.op_turn(g.step(p))


def stack_moves(g, p: int) -> list[int]:
    t = g.t
    hand = dict.fromkeys(g.hands[p])
    cands = [f + f for f in hand]
    if g.flex_rule and (g.power[p] or not g.power_rule):
        cands += [f + f + 1 for f in hand if t.has_flex[f]]
    dv = t.draw_val
    if g.stacking == "same-kind":
        return [m for m in cands if dv[m] and t.mkind[m] == g.pending_kind]
    return [m for m in cands if dv[m] and dv[m] >= g.pending_val]


# ---------------------------------------------------------------- the other primitives

def choose_color(g, p: int) -> None:
    if not g.t.colors:
        return
    g.decisions += 1
    g.op_color(g.agents[p].choose_color(g, p))


def choose_target(g, p: int) -> int:
    g.decisions += 1
    return g.agents[p].choose_target(g, p, others(g, p))


def discard_color(g, p: int, move: int) -> None:
    t = g.t
    c = t.color[move >> 1]
    if c < 0:
        return
    for f in [f for f in g.hands[p] if t.color[f] == c]:
        g.op_discard(p, f)


def swap_hands(g, p: int) -> None:
    if not g.hands[p] or g.n_alive < 2:
        return
    g.decisions += 1
    q = g.agents[p].choose_swap(g, p, others(g, p))
    g.op_swap(p, q)


def roulette(g, victim: int) -> bool:
    """The victim names a colour and turns cards until one of it; True if they lose the turn."""
    t = g.t
    g.decisions += 1
    c = g.agents[victim].roulette_color(g, victim)
    mercy = g.mercy
    while True:
        f = g.op_draw(victim, ROULETTE)
        if f is None:
            break
        if mercy and len(g.hands[victim]) >= mercy:
            knock_out(g, victim)
            break
        if t.color[f] == c:
            break
    if len(g.hands[victim]) > g.max_hand:
        g.max_hand = len(g.hands[victim])
    g.op_color(c)
    return g.alive[victim]


def flip_power(g, p: int, green: bool) -> None:
    """Turn p's Power card to green or red; all red -> all green."""
    if not g.power_rule:
        return
    g.op_power(p, green)
    _all_red_turn_green(g)


def flip_over(g, players) -> None:
    """Turn these players' Power cards over at once (flip icon, Wild All Flip), then all red ->
    all green: the check comes after every card is turned, not between two of them."""
    if not g.power_rule:
        return
    for q in players:
        g.op_power(q, not g.power[q])
        g.power_flips += 1
    _all_red_turn_green(g)


def _all_red_turn_green(g) -> None:
    if not any(g.power[q] for q in range(g.n) if g.alive[q]):
        for q in range(g.n):
            if g.alive[q]:
                g.op_power(q, True)


def duel(g, starter: int, value: int) -> int:
    """Everyone else discards a card showing the number, answers with a duel card (a new duel
    with a doubled penalty), or draws the penalty. Returns the last duel starter.

    The first player left without cards wins: the starter, when the duel card was their last
    card (the duel still applies before scoring), or whoever empties their hand first. A discard
    that empties a hand ends the duel at once; a last card played as a counter-duel still starts
    its duel. A player who is out takes no further part."""
    t = g.t
    pen = g.o.duel_penalty
    out = None if g.hands[starter] else starter
    while True:
        answered = False
        q = g.step(starter)
        while q != starter:
            if q == out:
                q = g.step(q)
                continue
            answers = _duel_answers(t, value)
            opts = [f for f in dict.fromkeys(g.hands[q]) if answers[f]]
            if opts:
                g.decisions += 1
                f = g.agents[q].duel(g, q, opts, value)
                if t.duel[f]:
                    g.op_play(q, f + f, "duel")
                    g.set_top(f + f)
                    g.plays_by_kind[t.mkind[f + f]] += 1
                    g.plays_by_seat_kind[q][t.mkind[f + f]] += 1
                    if not g.hands[q] and out is None:
                        out = q
                    elif len(g.hands[q]) == 1 and g.uno_penalty:
                        uno_call(g, q)
                    starter, value, pen, answered = q, t.val[f], pen * 2, True
                    g.turns += 1            # a counter-duel counts as a turn: chains end at the cap
                    if g.turns >= g.turn_cap:
                        g.op_end(CAPPED, None)
                        return q
                    break
                g.op_discard(q, f)
                if not g.hands[q] and out is None:
                    win(g, q)
                    return starter
                if len(g.hands[q]) == 1 and g.uno_penalty:
                    uno_call(g, q)
            else:
                draw_n(g, q, pen, DUEL_CAUSE)
                if g.outcome:
                    return starter
            q = g.step(q)
        if not answered:
            if out is not None:
                win(g, out)
            return starter


def _duel_answers(t, value: int) -> bytes:
    """Per face: may it answer a duel on this number (it shows the number, or is a duel card)."""
    key = ("duel", value)
    got = t.cache.get(key)
    if got is None:
        got = t.cache[key] = bytes(t.duel[f] or (t.cat[f] == NUM and t.val[f] == value) for f in range(t.n_faces))
    return got


def uno_call(g, p: int) -> None:
    """p has one card left: p says UNO, or the next player may catch them (penalty draw)."""
    g.decisions += 1
    if g.agents[p].say_uno(g, p):
        g._ev(("uno", p, True))
        return
    catcher = g.step(p)
    g.decisions += 1
    if g.agents[catcher].catch_uno(g, catcher, p):
        g._ev(("uno", p, False))
        draw_n(g, p, g.uno_penalty, UNO)


def jump_in(g, p: int) -> None:
    """Jump-in: another player holding a card identical to the top card (same colour and number
    or symbol; wilds and colourless cards never are) may play it at once, and play goes on from
    them. Each jump-in counts as a turn, so chains end at the turn cap."""
    t = g.t
    last = p
    while g.outcome is None and not g.pending:
        key = t.ident[g.discard[-1]]
        if key is None:
            return
        jumper = None
        for q in others(g, last):
            same = [f for f in g.hands[q] if t.ident[f] == key]
            if same:
                g.decisions += 1
                if g.agents[q].jump_in(g, q, same[0] * 2):
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

def start_effects(g, f: int, first: int) -> None:
    """The start card's effect on the first player (classic start rule)."""
    cur, skips = first, 0
    for e in g.t.effects[2 * f]:
        if e.op == "reverse":
            g.op_direction()
            cur = g.dealer
        elif e.op == "skip":
            skips += 1
        elif e.op == "draw":
            draw_n(g, cur, e.n, PENALTY, g.t.mkind[2 * f])
            skips += 1 if e.lose_turn else 0
        elif e.op == "everyone_draws":
            for q in range(g.n):
                draw_n(g, q, e.n, EVERYONE)
        elif e.op == "choose_color":
            choose_color(g, cur)
        elif e.op == "roulette":
            skips += 1 if roulette(g, cur) else 0
        elif e.op == "flip_power" and e.who == "all":
            flip_over(g, [q for q in range(g.n) if g.alive[q]])
        if g.outcome:
            return
    g.op_turn(g.step(cur, skips) if skips else cur)
