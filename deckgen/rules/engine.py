"""The game: one hand as a state you step, driven by a compiled deck and its rule options
(docs/rules.md, docs/engine.md).

A :class:`Game` is the hand's table and its stepping (:class:`~deckgen.rules.machine.Machine`)
plus the rules' flow: the deal and the start card, then turns:

  - a penalty waiting for the player (stacking) is answered first, and the answer uses the turn;
  - otherwise a player who owes lost turns loses this one (one owed turn served);
  - otherwise they play a legal card or draw.

Card effects are run by the handlers of :mod:`deckgen.rules.actions`. Every choice the rules
leave to a player is a :class:`~deckgen.rules.decision.Decision`. A seat with a policy (every
bundled bot is one; any bot becomes one) has its decisions answered inside the game's own loop;
for a seat without one the game stops: :attr:`Game.decision` is the question, and
:meth:`Game.apply` answers it and runs the game on to the next decision of such a seat or the
end, chance included (shuffles and draws come from the game's own seeded generator). There is no
thread and no lock; simulation, replay, the expert's search, the PettingZoo environment and the
play table all step this one implementation of the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from deckgen.rules import actions
from deckgen.rules.decision import BOTH, Answer, Decision, DecisionKind, IllegalAnswer, illegal
from deckgen.rules.inline import inline
from deckgen.rules.machine import ASK, HAND_OPTIONS, Machine, Suspended, _Ask, as_moves, public_event
from deckgen.rules.record import CAUSES, TRACE_EVERY, TRACE_MAX
from deckgen.rules.state import CAPPED, NO_PENDING, STALLED, Position, shuffled
from deckgen.rules.table import Table

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from deckgen.rules.machine import Agents, HandOptions
    from deckgen.rules.state import Event, Seed

NO_PLAY = CAUSES.index("no_play")
PLAY, PLAY_DRAWN, STACK, CHALLENGE, JUMP_IN = (DecisionKind.PLAY, DecisionKind.PLAY_DRAWN, DecisionKind.STACK,
                                               DecisionKind.CHALLENGE, DecisionKind.JUMP_IN)


class Game(Machine):
    """One hand of a deck: ``Game(table, n_players, seed, agents)`` is the table before the deal;
    ``start()`` deals and plays on to the first decision of a seat without a policy, ``run()``
    plays a hand whose every seat has one to its end (docs/engine.md)."""

    __slots__ = ()

    def __init__(self, table: Table, n_players: int, seed: Seed = None, agents: Agents = None, record: bool = True,
                 **hand: Unpack[HandOptions]):
        if hand and not HAND_OPTIONS.issuperset(hand):
            unknown = sorted(set(hand) - HAND_OPTIONS)[0]
            raise TypeError(f"Game() got an unexpected keyword argument '{unknown}'")
        if not table.handlers:
            table.handlers = actions.handlers(table)
            table.plays = tuple(zip(table.move_kind, table.handlers, table.restricted, strict=True))
        super().__init__(table, n_players, seed, agents, record, hand)

    # ---------------------------------------------------------------- starting
    @property
    def started(self) -> bool:
        return bool(self.discard or self.draw_pile or self.outcome is not None or self.kont)

    def start(self, order: Sequence[int] | None = None) -> Game:
        """Shuffle (or stack the draw pile in this order, bottom first), deal, turn the start card,
        and play on to the first decision of a seat without a policy (or the end)."""
        if self.started:
            raise illegal("this hand has already been dealt", hint="make a new Game for a new hand")
        try:
            self.setup(order)
        except Suspended as s:
            self._suspend(s)
            return self
        self._advance()
        return self

    def setup(self, order: Sequence[int] | None = None) -> None:
        """Shuffle (or take this stacked order, bottom first), deal, turn the start card."""
        t = self.table
        self.op_shuffle(shuffled(self.rng, t.deck_faces) if order is None else list(order))
        first = self.step(self.dealer)
        players = [first]
        while len(players) < self.n_players:
            players.append(self.step(players[-1]))
        if not self.op_deal(tuple(players), t.hand_size):
            return self.op_end(STALLED, None)
        self.max_hand = max(map(len, self.hands))
        self._turn_start_card(first)

    def _turn_start_card(self, first: int) -> None:
        t = self.table
        number_only = self.rules.start_card == "number-only"
        for _ in range(len(self.draw_pile) + 1):
            if not self.draw_pile:
                break
            f = self.draw_pile[-1]
            if not t.can_start[f]:              # Deck.can_start: the start-card rule, one derivation
                if number_only:
                    self.op_aside()
                else:
                    self.op_return(self.rng.randrange(len(self.draw_pile)))
                continue
            self.op_start()
            return actions.start_effects(self, f, first)
        self.op_turn(first)
        self.op_end(STALLED, None)

    def arrange(self, position: Position, turns: int = 0, trace: bool = True) -> Game:
        """Set out a hand in the middle (a situation for a test, a "what if", a searcher's
        imagined deal): this table, with the deal and the start card taken as done and ``turns``
        turns played; the next turn is ``position.current``'s. ``trace``: take the record's
        hand-size samples (False for a hand whose record nobody reads, a searcher's play-outs:
        only the turn cap is checked)."""
        if self.decision is not None or self.kont:
            raise illegal("a game waiting for an answer cannot be rearranged", hint="arrange a new Game")
        self.op_position(position)
        self.turns = turns
        self.next_trace = turns if trace else max(turns, self.turn_cap)
        return self

    def pose(self, kind: DecisionKind, options: Sequence[int], passable: bool) -> Decision:
        """Put the current player at a decision of their turn: their play (PLAY, with their legal
        moves) or, having drawn, the card just drawn (PLAY_DRAWN, with its moves); what follows
        the answer is the rest of their turn, as in a game played to here. (A searcher that has
        set out a table with arrange() starts its play-outs at its own decision this way.)"""
        p = self.current
        if self.decision is not None or self.kont or self.outcome is not None:
            raise illegal("a decision is already pending (or the hand is over)", hint="pose on an arranged game")
        if kind is PLAY:
            legal, frame = sorted(self.legal_moves(p)), (Game.take_turn, p)
        elif kind is PLAY_DRAWN:
            drawn = {m >> 1 for m in options}
            legal = sorted(m for f in drawn for m in self.moves_for(p, f)) if len(drawn) == 1 else []
            frame = (Game.no_play, p)
        else:
            raise illegal(f"a {kind.value} decision cannot be posed", hint="pose play or play_drawn")
        if sorted(options) != legal or not options:
            raise illegal(f"{list(options)} are not the legal moves of player {p + 1} here", hint=f"legal: {legal}")
        self.decisions += 1
        self.decision = self.question(p, kind, options, passable)
        self.kont.append(frame)
        return self.decision

    # ---------------------------------------------------------------- playing on
    def run(self) -> Game:
        """Play the hand to its end (every seat must have a policy)."""
        if not self.started:
            self.start()
        else:
            self._advance()
        if self.decision is not None:
            raise illegal(f"player {self.decision.player + 1} has no bot: the hand waits for their "
                          f"{self.decision.kind.value} decision",
                          hint="give every seat a bot, or answer with apply() (docs/engine.md)")
        return self

    def turn(self) -> None:
        """Play one turn of the current player (a test's step): every decision of the turn is
        answered by the seats' policies, and one of a seat without a policy stops it, as at
        apply."""
        try:
            if self.outcome is None:
                self._play_turns(self.turns + 1)
        except Suspended as s:
            self._suspend(s)

    def _advance(self) -> None:
        """Play on to the next decision of a seat without a policy, or the end: first what is left
        of the step in progress (its frames, last first), then whole turns."""
        try:
            kont = self.kont
            if kont:
                while kont:
                    if self.outcome is not None:    # what is left of the step ends with the hand, as
                        kont.clear()                # it does when no answer came from outside
                        break
                    frame = kont.pop()
                    frame[0](self, *frame[1:])
                self._turn_over()
            self._play_turns()
        except Suspended as s:
            self._suspend(s)

    def _suspend(self, s: Suspended) -> None:
        frames = s.frames
        frames.reverse()
        self.kont.extend(frames)
        self.decision = s.decision

    def _play_turns(self, stop: int = -1) -> None:
        """Turn after turn until the hand ends (the game's hottest loop), or until ``stop`` turns
        have been played (-1: no stop). A turn: the current player answers a waiting penalty,
        serves a lost turn, or plays a card or draws (take_turn)."""
        alive, owed = self.alive, self.owed
        while self.outcome is None and self.turns != stop:
            if self.turns >= self.next_trace and self._capped_or_sampled():
                break
            p = self.current
            self.turns += 1
            if not alive[p]:
                self.op_turn(self.step(p))
            elif self.penalty and (self.waiting.victim == p or not alive[self.waiting.victim]):
                self.acted_by_seat[p] += 1
                self.respond_to_penalty(p)
            elif self.owed_total and owed[p]:
                self.op_owe(p, owed[p] - 1)
                self.op_turn(self.step(p))
            else:
                self.acted_by_seat[p] += 1
                self.take_turn(p)
            if self.uno_open >= 0 and self.turns >= self.uno_closes:
                actions.close_uno_window(self)

    def _turn_over(self) -> None:
        """What ends every turn: a missed UNO call whose catch window has come to its end."""
        if self.uno_open >= 0 and self.turns >= self.uno_closes:
            actions.close_uno_window(self)

    def _capped_or_sampled(self) -> bool:
        """At a trace turn: the hand ends at the turn cap (True), or a hand-size sample is taken
        for the record (every TRACE_EVERY turns, at most TRACE_MAX)."""
        turns, cap, trace = self.turns, self.turn_cap, self.trace
        if turns >= cap:
            self.op_end(CAPPED, None)
            return True
        self.next_trace = turns + TRACE_EVERY if turns + TRACE_EVERY < cap else cap    # the cap is checked here too
        if len(trace) < TRACE_MAX:
            if self.alive_count == self.n_players:
                trace.append((turns, len(self.draw_pile), tuple(map(len, self.hands))))
            else:
                trace.append((turns, len(self.draw_pile),
                              tuple([len(h) if a else -1 for h, a in zip(self.hands, self.alive, strict=True)])))
        return False

    # ---------------------------------------------------------------- stepped from outside
    def legal(self, answer: Answer, player: int | None = None) -> bool:
        """Whether this answer (by this player) is legal now."""
        d = self.decision
        return d is not None and (player is None or d.player == player) and d.legal(answer)

    def apply(self, answer: Answer, player: int | None = None, serial: int | None = None) -> list[Event]:
        """Answer the pending decision and play on to the next decision of a seat without a
        policy (or the end); returns the events that happened, as the answering player sees
        them. An answer that is not legal now (not among the options, from the wrong ``player``,
        to a stale ``serial``, in a hand that is over) raises IllegalAnswer and changes nothing."""
        d = self.decision
        if d is None:
            raise illegal(f"the hand is over ({self.outcome}): there is nothing to answer" if self.outcome is not None
                          else "the hand has not started: there is nothing to answer",
                          hint="start a new game" if self.outcome is not None else "call start() first")
        if player is not None and player != d.player:
            raise illegal(f"player {player + 1} answered, but the game waits for player {d.player + 1} "
                          f"({d.kind.value})", hint="answer the decision in game.decision")
        if serial is not None and serial != d.serial:
            raise illegal(f"answer to decision {serial}, but the pending decision is {d.serial}",
                          hint="the game has moved on: read game.decision again")
        if not d.legal(answer):
            raise illegal(f"{answer!r} is not a legal answer to this {d.kind.value} decision", hint=legal_hint(d))
        start = len(self.log) if self.log is not None else 0
        self.decision = None
        frame = self.kont.pop()
        try:
            frame[0](self, *frame[1:], answer)
        except Suspended as s:
            self._suspend(s)
        else:
            self._advance()
        if self.log is None:
            return []
        return [public_event(ev, d.player) for ev in self.log[start:]]

    # ---------------------------------------------------------------- the turn
    def take_turn(self, p: int, move: Answer | _Ask = ASK) -> None:
        """p plays a legal card of their choice, or draws (``move``: the answer to their play
        decision, when it came from outside)."""
        if move is ASK:
            t = self.table                      # legal_cards(p), inlined (the turn's commonest step)
            hand = {*self.hands[p]}
            entry = t.cache[self.pile_key]
            faces = [*hand & entry[2]]
            flex = [*hand & entry[3]] if t.any_flex and (self.power[p] or not self.power_cards) else []
            if t.any_restricted and not self.challenge and (faces or flex):
                faces, flex = self._restrict(p, faces, flex)
            if not faces and not flex:
                return self.no_play(p)
            self.decisions += 1
            policy = self.policies[p]
            if policy is None:
                raise Suspended(self.question(p, PLAY, as_moves(faces, flex), self.may_draw_instead),
                                (Game.take_turn, p))
            move = policy.play_turn(self, p, faces, flex, self.may_draw_instead)
        if move is None:
            return self.no_play(p)
        self.play(p, move)  # type: ignore[arg-type]

    def no_play(self, p: int, move: Answer | _Ask = ASK) -> None:
        """No card played from the hand: draw one (may play it) or draw until playable (``move``:
        the answer to the play-drawn decision, when it came from outside)."""
        if move is ASK:
            t, hand, mercy = self.table, self.hands[p], self.mercy_limit
            while True:
                f = self.op_draw(p, NO_PLAY)
                if f is None:
                    return self.pass_turn(p, idle=True)
                if mercy and len(hand) >= mercy:
                    actions.knock_out(self, p)
                    if self.outcome is None:
                        self.op_turn(self.step(p))
                    return
                if t.has_flex[f] or (t.any_restricted and t.restricted[f + f]):
                    moves = self.moves_for(p, f)
                else:
                    moves = [f + f] if t.cache[self.pile_key][0][f] else []     # moves_for(), its common case
                if moves:
                    break
                if self.draw_one:
                    return self.pass_turn(p)
            move = self.ask(p, PLAY_DRAWN, moves, (Game.no_play, p), not self.must_play_drawn)
        if move is not None:
            return self.play(p, move)  # type: ignore[arg-type]
        self.pass_turn(p)

    def pass_turn(self, p: int, idle: bool = False) -> None:
        """p's turn ends without a card played (``idle``: nothing could be drawn either; two rounds
        of such turns stall the hand)."""
        if idle:
            self.idle += 1
            if self.idle >= 2 * self.alive_count:
                return self.op_end(STALLED, None)
        else:
            self.idle = 0
        n = len(self.hands[p])
        if n > self.max_hand:
            self.max_hand = n
        self.op_turn((p + self.direction) % self.n_players if self.alive_count == self.n_players else self.step(p))

    def play(self, p: int, move: int, how: str = "play") -> None:
        """p plays a card: its effects apply in order (``game.card`` is the card they share), then
        p wins (an empty hand), may be caught without UNO (one card), and the turn goes to the
        one player the effects name."""
        kind, handlers, restricted = self.table.plays[move]
        guilty = False
        if restricted:
            self.before_restricted = (self.pile_key, self.color)
            guilty = not self.restricted_play_legal(p, None)
        self.op_play(p, move, how)
        self.idle = 0
        self.plays_by_seat_kind[p][kind] += 1
        if move & 1:
            self.flex_plays += 1
            actions.flip_power(self, p, False)
        if handlers:
            card = self.card
            card.p, card.move, card.guilty, card.how = p, move, guilty, how
            card.target, card.again, card.reversed = None, False, False
            card.lost = card.owes = card.absorbed = 0
            try:
                actions.apply_effects(self, 0)
            except Suspended as s:
                s.frames.append((Game.after_effects, p, how))
                raise
            return self.after_effects(p, how)
        self.pass_on(p, how, (p + self.direction) % self.n_players if self.alive_count == self.n_players
                     else self.step(p))

    def after_effects(self, p: int, how: str) -> None:
        """The effects of p's card have run: the turn goes on to the player they name."""
        if self.outcome is not None:
            return
        if self.card.again and self.alive[p]:
            return self.pass_on(p, how, p)
        self.pass_on(p, how, (p + self.direction) % self.n_players if self.alive_count == self.n_players
                     else self.step(p))

    def pass_on(self, p: int, how: str, nxt: int, called: bool = False) -> None:
        """After p's card: p wins with an empty hand or says UNO with one card (and may be caught),
        then the turn goes to ``nxt``, and under jump-in another player may play an identical
        card (``called``: the UNO call is over; the step that goes on after an answer it asked)."""
        if called:
            if self.outcome is not None:
                return
        else:
            hand = self.hands[p]
            if len(hand) < 2 and self.alive[p]:     # (a player knocked out by their own card has no call to make)
                if not hand:
                    return actions.win(self, p)
                if self.uno_penalty:
                    try:
                        actions.uno_call(self, p)
                    except Suspended as s:
                        s.frames.append((Game.pass_on, p, how, nxt, True))
                        raise
                    if self.outcome is not None:
                        return
        self.op_turn(nxt)
        if self.jump_in and how != "jump" and not self.penalty:
            self.jump_ins(p, 0)

    # ---------------------------------------------------------------- a penalty waits, jump-in
    def respond_to_penalty(self, p: int) -> None:
        """A stacked penalty waits for p: challenge it, stack on it, or draw it all (the answer
        uses p's turn; lost turns p owes stay owed)."""
        waiting = self.waiting
        if waiting.challenge is None:
            return self.stack_or_take(p)
        offender, guilty = waiting.challenge
        self.op_pending(waiting._replace(challenge=None))
        frame = (Game.challenge_answered, p, offender, bool(guilty))
        self.challenge_answered(p, offender, bool(guilty), self.ask(p, CHALLENGE, BOTH, frame, about=offender))

    def challenge_answered(self, p: int, offender: int, guilty: bool, challenged: Answer) -> None:
        """p challenged the draw card waiting for them (a guilty offender draws the penalty and p
        plays on; otherwise p draws it plus the challenge penalty), or did not (stack or take it)."""
        if not challenged:
            return self.stack_or_take(p)
        total = self.waiting.total
        self.op_pending(NO_PENDING)
        self.op_challenge(p, offender, guilty)
        if guilty:
            actions.draw_n(self, offender, total, actions.CHALLENGE)
            if self.outcome is None:
                self.take_turn(p)
            return
        actions.draw_n(self, p, total + self.rules.challenge_penalty, actions.CHALLENGE)
        if self.outcome is None:
            self.op_turn(self.step(p))

    def stack_or_take(self, p: int, moves: tuple[int, ...] = (), move: Answer | _Ask = ASK) -> None:
        """p stacks a draw card on the waiting penalty, or draws it all (``move``: p's answer to the
        stack question, when it came from outside)."""
        if move is ASK:
            moves = tuple(actions.stack_moves(self, p))
            if not moves:
                return self._take_penalty(p)
            move = self.ask(p, STACK, moves, (Game.stack_or_take, p, moves), True)
        if move is not None:
            return self.play(p, move, "stack")  # type: ignore[arg-type]
        self._take_penalty(p)

    def _take_penalty(self, p: int) -> None:
        waiting = self.waiting
        self.op_pending(NO_PENDING)
        actions.draw_pending(self, p, waiting)
        if self.outcome is None:
            self.idle = 0
            self.op_turn((p + self.direction) % self.n_players if self.alive_count == self.n_players
                         else self.step(p))

    def jump_ins(self, last: int, i: int, answer: Answer | _Ask = ASK) -> None:
        """Jump-in: another player holding a card identical to the top card (same colour and number
        or symbol; wilds and colourless cards never are) may play it at once, and play goes on
        from them; the players after ``last`` are asked in turn order (from the i-th). Each
        jump-in counts as a turn, so chains end at the turn cap."""
        t = self.table
        while self.outcome is None and not self.penalty:
            key = t.ident[self.discard[-1]]
            if key is None:
                return
            others = self.others(last)
            jumper = -1
            while i < len(others):
                q = others[i]
                same = [f for f in self.hands[q] if t.ident[f] == key]
                if same:
                    if answer is ASK:
                        answer = self.ask(q, JUMP_IN, BOTH, (Game.jump_ins, last, i), value=same[0] * 2)
                    if answer:
                        jumper = q
                        break
                answer = ASK
                i += 1
            if jumper < 0:
                return
            self.turns += 1
            if self.turns >= self.turn_cap:
                self.op_end(CAPPED, None)
                return
            self.acted_by_seat[jumper] += 1
            f = next(f for f in self.hands[jumper] if t.ident[f] == key)
            try:
                self.play(jumper, f + f, "jump")
            except Suspended as s:
                s.frames.append((Game.jump_ins, jumper, 0))
                raise
            last, i, answer = jumper, 0, ASK


# The fields a hand never assigns once it is set out (only __init__, clone, op_position and
# determinize do, before or beside play; tests/test_engine_inline.py checks every assignment in
# the rules package): the generated loop reads each once, when it starts.
FIXED = ("table", "hands", "policies", "acted_by_seat", "plays_by_seat_kind", "card", "log", "n_players", "jump_in",
         "uno_penalty", "may_draw_instead", "power_cards", "challenge", "discard", "power")

# The turn loop as it runs: _play_turns with the turn's common steps inlined, generated from the
# methods above at import (deckgen/rules/inline.py); the loop as written stays as the reference
# that tests/test_engine_inline.py plays against.
Game._play_turns_as_written = Game._play_turns       # type: ignore[attr-defined]
Game._play_turns = inline(Game._play_turns, {       # type: ignore[method-assign]
    "take_turn": Game.take_turn, "play": Game.play, "op_play": Game.op_play, "pass_on": Game.pass_on,
    "op_turn": Game.op_turn, "after_effects": Game.after_effects}, fixed=FIXED)


def play_game(table: Table, n_players: int, seed: Seed, agents: Agents, record: bool = False,
              turn_cap: int | None = None) -> Game:
    """Play one hand and return the finished game (outcome, winner, counters, log)."""
    game = Game(table, n_players, seed, agents, record=record)
    if turn_cap is not None:
        game.turn_cap = turn_cap
    return game.run()


def legal_hint(d: Decision) -> str:
    opts = ", ".join(map(repr, d.options))
    return f"legal answers: {opts}" + (", None" if d.passable else "")


__all__ = ["ASK", "CAPPED", "STALLED", "Game", "IllegalAnswer", "Suspended", "legal_hint", "play_game",
           "public_event"]
