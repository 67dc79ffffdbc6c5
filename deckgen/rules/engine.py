"""The game: setup and turns, driven by a compiled deck and its rule options (docs/rules.md).

``Game(table, n_players, seed, agents).run()`` plays one hand to its end (finished, stalled or
capped) and keeps counters for the reports. Card effects are executed by the handlers of
:mod:`deckgen.rules.actions`; this module holds the turn structure:

  - a penalty waiting for the player (stacking) is answered first, and the answer uses the turn;
  - otherwise a player who owes lost turns loses this one (one owed turn served);
  - otherwise they play a legal card or draw.

Every choice goes through :meth:`Game.ask` as a :class:`~deckgen.rules.decision.Decision`: to the
seat's bot (with the player's observation), or, for a seat whose agent is None, to whoever drives
the game with ``pending()`` / ``answer()`` (docs/engine.md). Simulation, replay, bots and people
play the same turns.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, TypedDict, cast

from deckgen.rules import actions
from deckgen.rules.agents import GREEDY_BLIND, RANDOM_CHOICE, GreedyAgent, RandomAgent
from deckgen.rules.decision import (
    Answer,
    Decision,
    DecisionKind,
    GameClosed,
    Glance,
    IllegalAnswer,
    Observation,
    Penalty,
    illegal,
)
from deckgen.rules.record import CAUSES, TRACE_EVERY, TRACE_MAX
from deckgen.rules.state import (
    CAPPED,
    FINISHED,
    STALLED,
    Draw,
    Pending,
    Reshuffle,
    Return,
    Shuffle,
    State,
    Steal,
    shuffled,
)
from deckgen.rules.table import Table

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from deckgen.effects import Effect
    from deckgen.rules.decision import Bot
    from deckgen.rules.state import Event, Seed
    from deckgen.rules.table import LegalEntry

    Agents = Bot | None | Sequence[Bot | None]      # one bot for every seat, or one per seat (None: driven from outside)

NO_PLAY = CAUSES.index("no_play")
PLAY, PLAY_DRAWN = DecisionKind.PLAY, DecisionKind.PLAY_DRAWN
NO_PENALTY = Penalty()
PUBLIC_EVENTS = 40          # how many of the latest public events an observation carries
_DOUBLE = (2).__mul__            # face -> its regular-side move, in C (legal_moves is the hottest query)
_PLUS_ONE = (1).__add__


KEEPS_COLOR = -2                # PlayFacts.color of a card that leaves the pile's colour as it is


class PlayFacts(NamedTuple):
    """What _plain_play reads of a move, looked up once (Table.plays): the pile state it leaves,
    as op_play works it out (a card of its own colour, or a colourless one, leaves this key and
    colour; a card without a colour, color KEEPS_COLOR, keeps the pile's colour and leaves the key
    less its colour part, Table.mkey), its kind, its effects' handlers and whether it is
    restricted ('challenge')."""

    key: int
    color: int
    kind: int
    handlers: tuple[tuple[Callable[..., None], Effect], ...]
    restricted: bool

    @staticmethod
    def of(table: Table, move: int) -> PlayFacts:
        k, c = table.mkey[move], table.color[move >> 1]
        if k < 0:                       # colourless
            key, color = -1, -1
        elif c >= 0:
            key, color = k + c + 1, c
        else:
            key, color = k, KEEPS_COLOR
        return PlayFacts(key, color, table.mkind[move], table.handlers[move], table.restricted[move])


class HandOptions(TypedDict, total=False):
    """Where a hand sits, given to Game by keyword: who deals (default: the last seat), the match
    scores before it (default: none) and the generator its bots draw from (default: the game's)."""

    dealer: int | None
    scores: tuple[int, ...] | None
    bot_rng: random.Random | None


_HAND_OPTIONS = frozenset(HandOptions.__annotations__)


class Game(State):
    __slots__ = ("_bot_random", "_ctx", "_driver", "_plain", "_plain_moves", "_random_agents", "agents", "bot_rng",
                 "challenge", "dealer", "draw_one", "flex_plays", "jump_in", "match_scores", "max_stack",
                 "may_draw_instead", "mercy_limit", "must_play_drawn", "next_trace", "o", "penalty_by_kind",
                 "plays_by_seat_kind", "power_cards", "power_flips", "stacking", "trace", "turn_cap", "uno_penalty",
                 "wild_draw_four_legal")          # every attribute a slot (State.__slots__)

    def __init__(self, table: Table, n_players: int, seed: Seed, agents: Agents, record: bool = True,
                 **hand: Unpack[HandOptions]):
        if hand and not _HAND_OPTIONS.issuperset(hand):
            unknown = sorted(set(hand) - _HAND_OPTIONS)[0]
            raise TypeError(f"Game() got an unexpected keyword argument '{unknown}'")
        super().__init__(table, n_players, seed, record)
        if isinstance(agents, (list, tuple)):
            self.agents: list[Bot | None] = list(agents)
        else:
            self.agents = [cast("Bot | None", agents)] * n_players     # one bot (or None) for every seat
        bot_rng, scores, dealer = hand.get("bot_rng"), hand.get("scores"), hand.get("dealer")
        self.bot_rng = self.rng if bot_rng is None else bot_rng    # what bots draw their choices from
        self.match_scores = tuple(scores) if scores is not None else (0,) * n_players
        self._driver: _Driver | None = None
        o = table.opts
        self.o = o
        if len(table.handlers) != len(table.effects):
            table.handlers = actions.handlers(table)
            table.plays = tuple(PlayFacts.of(table, m) for m in range(len(table.effects)))
        self.dealer = n_players - 1 if dealer is None else dealer
        self.turn_cap = o.turn_cap
        # the rule options the turn reads most, under their own names
        self.draw_one = o.no_playable_card == "draw-one"
        self.must_play_drawn = o.play_drawn == "must"
        self.may_draw_instead = o.may_draw_instead
        self.stacking = o.stacking
        self.mercy_limit = o.mercy_limit
        self.uno_penalty = o.uno_penalty
        self.power_cards = o.power_cards and table.any_flex     # in force: the deck has Flex sides
        self.challenge = o.challenge
        self.wild_draw_four_legal = o.wild_draw_four_legal
        self.jump_in = o.jump_in
        self.flex_plays = self.power_flips = 0
        self.max_stack = 0
        nk = len(table.kinds)
        self.penalty_by_kind = [0] * nk
        self.plays_by_seat_kind = [[0] * nk for _ in range(n_players)]
        self.trace: list[tuple[int, int, tuple[int, ...]]] = []
        self.next_trace = 0
        # what the inlined loop (_run_plain) reads on every turn
        self._random_agents = all(type(a) is RandomAgent for a in self.agents)
        self._plain_moves = not (table.any_restricted and not self.challenge)   # no restricted card kept back
        self._bot_random = self.bot_rng.random
        self._ctx = actions.Ctx(0, 0, False, "play")    # one card's shared effect context, reset per card
        self._plain = False                             # the fast loop (_run_plain) plays the hand

    # ---------------------------------------------------------------- setup
    def setup(self, order: list[int] | None = None) -> None:
        """Shuffle (or take this stacked order, bottom first), deal, turn the start card."""
        t = self.t
        order = shuffled(self.rng, list(t.deck_faces)) if order is None else list(order)
        self.op_shuffle(order)
        first = self.step(self.dealer)
        players = [first]
        while len(players) < self.n:
            players.append(self.step(players[-1]))
        if not self.op_deal(tuple(players), t.hand_size):
            return self.op_end(STALLED, None)
        self.max_hand = max(map(len, self.hands))
        self._turn_start_card(first)

    def _turn_start_card(self, first: int) -> None:
        t = self.t
        number_only = self.o.start_card == "number-only"
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

    # ---------------------------------------------------------------- play
    def run(self) -> Game:
        if not self.draw_pile and not self.discard:
            self.setup()
        if self.log is None and self.watch is None and not self.jump_in:
            return self._run_plain()
        turn = self.turn
        while self.outcome is None:
            if self.turns >= self.next_trace and self._capped_or_sampled():
                break
            turn()
        return self

    def _run_plain(self) -> Game:
        """run() without a log or jump-in, the engine's hottest path. A turn that starts in a rare
        state (a penalty waiting, an open UNO catch window, a player who is out) is played by
        turn(); every other turn by the inlined steps below (legal_moves inlined unless a
        restricted card may be kept back, _plain_choice, _plain_ask, _plain_draw, _plain_play),
        which call the same methods as turn() for every rarer step (a lost turn through a waiting
        penalty, an effect, a win, the UNO call, a dry pile, a Flex side). The game is the same as
        turn() plays, random draw for random draw."""
        self._plain = True
        n, alive, owed, hands = self.n, self.alive, self.owed, self.hands
        cache = self.t.cache                    # a pile state not seen yet is worked out on a miss
        uno_window = self.o.uno_catch != "before-next-turn"
        all_random, plain_moves, rand = self._random_agents, self._plain_moves, self._bot_random
        choose, draw, play, ask_play = self._plain_choice, self._plain_draw, self._plain_play, self._plain_ask
        flex, power, free_flex = self.t.any_flex, self.power, not self.power_cards
        while self.outcome is None:
            if self.turns >= self.next_trace and self._capped_or_sampled():
                break
            p = self.cur
            if self.penalty or not alive[p] or (uno_window and self.uno_open >= 0):
                self.turn()
                continue
            self.turns += 1
            if self.any_owed and owed[p]:       # a lost turn served (op_owe, op_turn inlined)
                owed[p] -= 1
                self.any_owed -= 1
                nxt = (p + self.dir) % n
                self.cur = nxt if alive[nxt] else self.step(p)
                continue
            hand = hands[p]
            entry = cache[self.key]
            if not plain_moves:                 # a restricted card may be kept back: legal_moves()
                move = choose(p, hand, entry)
            elif not flex and all_random:       # legal_moves() inlined, the random choice by face
                faces = [*{*hand} & entry[2]]   # the legal faces, in legal_moves' order
                if faces:
                    self.decisions += 1
                    f = faces[int(rand() * len(faces))]
                    play(p, f + f)
                    continue
                move = draw(p, hand, entry)
            else:                               # legal_moves() inlined, by face
                held = {*hand}
                faces = [*held & entry[2]]
                sides = [*held & entry[3]] if flex and (free_flex or power[p]) else []     # Flex sides
                if not (faces or sides):
                    move = draw(p, hand, entry)
                elif all_random:                # legal_moves()[i], without building the moves
                    self.decisions += 1
                    i = int(rand() * (len(faces) + len(sides)))
                    move = faces[i] * 2 if i < len(faces) else sides[i - len(faces)] * 2 + 1
                else:
                    move = ask_play(p, [*map(_DOUBLE, faces), *map(_PLUS_ONE, map(_DOUBLE, sides))])
            if move >= 0:
                play(p, move)
        return self

    def _capped_or_sampled(self) -> bool:
        """At a trace turn: the hand ends at the turn cap (True), or a hand-size sample is taken
        for the record (every TRACE_EVERY turns, at most TRACE_MAX)."""
        turns, cap, trace = self.turns, self.turn_cap, self.trace
        if turns >= cap:
            self.op_end(CAPPED, None)
            return True
        self.next_trace = turns + TRACE_EVERY if turns + TRACE_EVERY < cap else cap    # the cap is checked here too
        if len(trace) < TRACE_MAX:
            if self.n_alive == self.n:
                trace.append((turns, len(self.draw_pile), tuple(map(len, self.hands))))
            else:
                trace.append((turns, len(self.draw_pile),
                              tuple([len(h) if a else -1 for h, a in zip(self.hands, self.alive, strict=True)])))
        return False

    def _plain_choice(self, p: int, hand: list[int], entry: LegalEntry) -> int:
        """take_turn() up to the card to play: the move, or -1 when the turn is over (p drew and
        kept the card, or was knocked out)."""
        moves = self.legal_moves(p)
        if not moves:
            return self._plain_draw(p, hand, entry)
        if self._random_agents:
            self.decisions += 1
            return moves[int(self._bot_random() * len(moves))]
        return self._plain_ask(p, moves)

    def _plain_ask(self, p: int, moves: list[int]) -> int:
        """take_turn()'s question (p has a legal move): the move, or -1 when p drew instead."""
        bot = self.agents[p]
        if type(bot) is GreedyAgent:            # ask(), inlined
            self.decisions += 1
            choice = bot.quick(PLAY, moves, -1, self._glance(p) if len(moves) > 1 else None)
        else:
            choice = self.ask(p, PLAY, moves, self.may_draw_instead)
        if choice is not None:
            return int(choice)
        self.no_play(p)
        return -1

    def _plain_draw(self, p: int, hand: list[int], entry: LegalEntry) -> int:
        """no_play(): p draws one card (draw-one) or until one plays (draw-until-playable); the
        move that plays the card drawn, or -1 when the turn is over."""
        t = self.t
        mercy = self.mercy_limit
        while True:
            pile = self.draw_pile
            if pile:
                f = pile.pop()                  # op_draw, inlined
                hand.append(f)
                self.by_cause[NO_PLAY] += 1
            else:
                drawn = self.op_draw(p, NO_PLAY)
                if drawn is None:
                    self.pass_turn(p, idle=True)
                    return -1
                f = drawn
            if mercy and len(hand) >= mercy:
                actions.knock_out(self, p)
                if self.outcome is None:
                    self.op_turn(self.step(p))
                return -1
            if t.has_flex[f] or (t.any_restricted and t.restricted[f + f]):
                moves = self.moves_for(p, f)
            else:
                moves = [f + f] if entry[0][f] else []      # moves_for(), inlined
            if moves:
                break
            if self.draw_one:
                self.pass_turn(p)
                return -1
        if self._random_agents:
            self.decisions += 1
            return moves[0] if len(moves) == 1 else moves[int(self._bot_random() * len(moves))]
        choice = self.ask(p, PLAY_DRAWN, moves, not self.must_play_drawn)
        if choice is None:
            self.pass_turn(p)
            return -1
        return choice

    def play_stack(self, p: int, move: int) -> None:
        """play(p, move, "stack"): a draw card stacked on the waiting penalty (in the fast loop,
        by its inlined form)."""
        if self._plain:
            return self._plain_play(p, move, "stack")
        return self.play(p, move, "stack")

    def _plain_play(self, p: int, move: int, how: str = "play") -> None:
        """play() without a log or jump-in: op_play and actions.apply inlined (a Flex side is
        played by play())."""
        if move & 1:
            return self.play(p, move, how)
        key, c, kind, effects, restricted = self.t.plays[move]
        f = move >> 1
        guilty = restricted and not self.restricted_play_legal(p, None)
        self.hands[p].remove(f)                 # op_play, inlined
        self.discard.append(f)
        self.top = move
        if c != KEEPS_COLOR:                    # the card's own colour, or colourless (-1)
            self.color = c
            self.key = key
        else:
            self.key = key + self.color + 1
        self.idle = 0
        self.plays_by_seat_kind[p][kind] += 1
        again = False
        if effects:                             # actions.apply(), inlined
            ctx = self._ctx
            ctx.p, ctx.move, ctx.guilty, ctx.target, ctx.again, ctx.reversed = p, move, guilty, None, False, False
            ctx.how = how
            ctx.lost = ctx.owes = ctx.absorbed = 0
            for handler, e in effects:
                handler(self, ctx, e)
                if self.outcome:
                    return None
            again = ctx.again and self.alive[p]
        nxt = p if again else (p + self.dir) % self.n
        if not self.alive[nxt]:
            nxt = self.step(p)
        hand = self.hands[p]
        if len(hand) < 2 and self.alive[p] and self._plain_last_card(p, hand):
            return None
        self.cur = nxt
        return None

    def _plain_last_card(self, p: int, hand: list[int]) -> bool:
        """p holds one card or none after their play: they win, or the UNO call (a catch may end
        the hand through Mercy). True: the hand is over."""
        if not hand:
            actions.win(self, p)
            return True
        if self.uno_penalty:
            actions.uno_call(self, p)
            return self.outcome is not None
        return False

    @property
    def plays_by_kind(self) -> list[int]:
        """Cards played per kind index, every seat."""
        return [sum(col) for col in zip(*self.plays_by_seat_kind, strict=True)]

    def turn(self) -> None:
        """One turn of the current player: answer a waiting penalty, serve a lost turn, or play a
        card or draw (take_turn)."""
        p = self.cur
        self.turns += 1
        if not self.alive[p]:
            self.op_turn(self.step(p))
        elif self.penalty and (self.pend.victim == p or not self.alive[self.pend.victim]):
            actions.respond_to_penalty(self, p)
        elif self.any_owed and self.owed[p]:
            self.op_owe(p, self.owed[p] - 1)
            self.op_turn(self.step(p))
        else:
            self.take_turn(p)
        if self.uno_open >= 0 and self.turns >= self.uno_closes:
            actions.close_uno_window(self)

    def next_to_act(self) -> int:
        """Who acts next: from the current player on, the first who must answer a waiting
        penalty or owes no lost turn (a query: nothing changes)."""
        owed = list(self.owed)
        q = self.cur
        for _ in range(sum(owed) + self.n + 1):
            if self.alive[q] and ((self.penalty and self.pend.victim == q) or not owed[q]):
                return q
            if self.alive[q]:
                owed[q] -= 1
            q = self.step(q)
        return q

    def take_turn(self, p: int) -> None:
        """p plays a legal card of their choice, or draws."""
        moves = self.legal_moves(p)
        if moves:
            move = self.ask(p, PLAY, moves, self.may_draw_instead)
            if move is not None:
                return self.play(p, move)
        self.no_play(p)

    def legal_moves(self, p: int) -> list[int]:
        """Every distinct legal move of player p now (face*2 + side)."""
        t = self.t
        entry = t.cache[self.key]
        hand = set(self.hands[p])
        moves = list(map(_DOUBLE, hand.intersection(entry[2])))
        if t.any_flex and (self.power[p] or not self.power_cards):
            moves += map(_PLUS_ONE, map(_DOUBLE, hand.intersection(entry[3])))
        if t.any_restricted and not self.challenge and moves:
            moves = self._restrict(p, moves)
        return moves

    def moves_for(self, p: int, f: int) -> list[int]:
        """The legal moves of one card in p's hand (the card just drawn): legal_moves(p) less the
        other cards' moves, its regular side first."""
        t = self.t
        entry = t.cache[self.key]
        moves = [f + f] if entry[0][f] else []
        if entry[1][f] and (self.power[p] or not self.power_cards):     # a Flex side (only those are set)
            moves.append(f + f + 1)
        if moves and t.any_restricted and not self.challenge and any(t.restricted[m] for m in moves):
            return [m for m in self.legal_moves(p) if m >> 1 == f]     # kept back or not: the whole hand decides
        return moves

    def _restrict(self, p: int, moves: list[int]) -> list[int]:
        restricted = self.t.restricted
        if not any(restricted[m] for m in moves) or self.wild_draw_four_legal == "always":
            return moves
        if self.restricted_play_legal(p, moves):
            return moves
        return [m for m in moves if not restricted[m]]

    def restricted_play_legal(self, p: int, moves: list[int] | None) -> bool:
        """Whether a 'challenge' card may be played now: always; without a card of the current
        colour; or without another playable card (other 'challenge' cards do not count, or two of
        them could never be played)."""
        t = self.t
        if self.wild_draw_four_legal == "always":
            return True
        if self.wild_draw_four_legal == "no-current-color":
            return not any(t.color[f] == self.color and self.color >= 0 for f in self.hands[p])
        if moves is None:
            moves = self.legal_moves_raw(p)
        return not any(not t.restricted[m] for m in moves)

    def legal_moves_raw(self, p: int) -> list[int]:
        challenge, self.challenge = self.challenge, True
        try:
            return self.legal_moves(p)
        finally:
            self.challenge = challenge

    def no_play(self, p: int) -> None:
        """No card played from the hand: draw one (may play it) or draw until playable."""
        while True:
            f = self.op_draw(p, NO_PLAY)
            if f is None:
                return self.pass_turn(p, idle=True)
            if self.mercy_limit and len(self.hands[p]) >= self.mercy_limit:
                actions.knock_out(self, p)
                if self.outcome is None:
                    self.op_turn(self.step(p))
                return
            moves = self.moves_for(p, f)
            if moves:
                move = self.ask(p, PLAY_DRAWN, moves, not self.must_play_drawn)
                if move is not None:
                    return self.play(p, move)
                return self.pass_turn(p)
            if self.draw_one:
                return self.pass_turn(p)

    def pass_turn(self, p: int, idle: bool = False) -> None:
        if idle:
            self.idle += 1
            if self.idle >= 2 * self.n_alive:
                return self.op_end(STALLED, None)
        else:
            self.idle = 0
        n = len(self.hands[p])
        if n > self.max_hand:
            self.max_hand = n
        self.op_turn((p + self.dir) % self.n if self.n_alive == self.n else self.step(p))

    def play(self, p: int, move: int, how: str = "play") -> None:
        """p plays a card: its effects apply in order, then p wins (an empty hand), may be caught
        without UNO (one card), and the turn goes to the one player the effects name."""
        t = self.t
        guilty = False
        if t.any_restricted and t.restricted[move]:
            guilty = not self.restricted_play_legal(p, None)
        self.op_play(p, move, how)
        self.idle = 0
        self.plays_by_seat_kind[p][t.mkind[move]] += 1
        if move & 1:
            self.flex_plays += 1
            actions.flip_power(self, p, False)
        effects = t.effects[move]
        if effects:
            after = actions.apply(self, p, move, guilty, how)
            if after is None:
                return
            nxt = after
        else:
            nxt = (p + self.dir) % self.n if self.n_alive == self.n else self.step(p)
        hand = self.hands[p]
        if len(hand) > 1:
            pass
        elif not self.alive[p]:
            pass                                # knocked out by their own card (a steal)
        elif not hand:
            return actions.win(self, p)
        elif self.uno_penalty:
            actions.uno_call(self, p)
            if self.outcome is not None:
                return
        self.op_turn(nxt)
        if self.jump_in and how != "jump" and not self.penalty:
            actions.jump_in(self, p)

    # ---------------------------------------------------------------- decisions
    def ask(self, p: int, kind: DecisionKind, options: Sequence[int], passable: bool = False, about: int = -1,
            value: int = -1) -> Answer:
        """Every question the rules put to a player goes through here: to the seat's bot, with
        its observation, or (a seat driven from outside) to whoever calls answer()."""
        self.decisions += 1
        bot = self.agents[p]
        if type(bot) is RandomAgent:            # its choice reads only the kind, the options and the generator
            return RANDOM_CHOICE[kind](options, self.bot_rng)
        if type(bot) is GreedyAgent:            # its choice reads only a Glance (None: the options alone)
            seen = None if kind in GREEDY_BLIND or len(options) < 2 else self._glance(p)
            return bot.quick(kind, options, about, seen)
        d = Decision(p, kind, tuple(options), passable, about, value, self.decisions)
        if bot is None:
            return self._wait(d)
        a = bot.decide(d, self._observe(p), self.bot_rng)
        if not d.legal(a):
            raise illegal(f"bot '{getattr(bot, 'name', type(bot).__name__)}' of player {p + 1} answered "
                          f"{a!r} to a {kind.value} decision", hint=_legal_hint(d))
        return a

    def choose(self, p: int, kind: DecisionKind, options: Sequence[int], about: int = -1, value: int = -1) -> int:
        """ask() a question that cannot be passed: the answer is one of the options."""
        a = self.ask(p, kind, options, False, about, value)
        assert a is not None                    # a decision that cannot be passed always has an answer
        return a

    def observation(self, p: int) -> Observation:
        """What player p sees now: their own hand and the table (never another hand)."""
        drv = self._driver
        if drv is not None and threading.current_thread() is not drv.thread:
            with drv.calls:                     # never while the game's thread is playing
                return self._observe(p)
        return self._observe(p)

    def _glance(self, p: int) -> Glance:
        """The fields of _observe(p) the greedy bot reads, built the same way."""
        return tuple.__new__(Glance, (p, tuple(self.hands[p]), tuple(map(len, self.hands)), tuple(self.alive),
                                      self.dir, self.t))             # Glance(...) without its Python __new__

    def _observe(self, p: int) -> Observation:
        pend = self.pend
        penalty = NO_PENALTY
        if self.penalty:
            ch = pend.challenge
            penalty = Penalty(pend.victim, pend.total, pend.value, pend.kind, pend.cards, -1 if ch is None else ch[0])
        events: tuple[Event, ...] = ()
        if self.log:
            events = tuple(public_event(ev, p) for ev in self.log[-PUBLIC_EVENTS:])
        return Observation(p, tuple(self.hands[p]), tuple(map(len, self.hands)), tuple(self.alive),
                           tuple(self.power), tuple(self.owed), self.cur, self.dir, self.top,
                           -1 if self.key == -1 else self.color, self.key == -1, len(self.draw_pile),
                           len(self.discard), penalty, self.duel, self.uno_open, self.turns,
                           self.match_scores, events, self.t)

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """The match scores with this hand's points added to its winner (once it is finished)."""
        out = list(self.match_scores)
        if self.outcome == FINISHED and self.winner is not None:
            out[self.winner] += self.score
        return tuple(out)

    # ---------------------------------------------------------------- driven from outside
    def pending(self) -> Decision | None:
        """The decision the game waits for from a seat driven from outside (``agents[p] is
        None``), playing the bots' turns up to it; None once the hand is over. The first call
        deals the hand (unless setup() was called) and starts it."""
        if self._driver is None:
            with _DRIVERS:
                if self._driver is None:
                    if self.outcome is not None:
                        return None
                    driver = _Driver(self)
                    self._driver = driver
                    driver.start()
        return self._driver.pending()

    def legal(self, player: int, answer: Answer) -> bool:
        """Whether this answer by this player is legal now."""
        d = self.pending()
        return d is not None and d.player == player and d.legal(answer)

    def answer(self, player: int, choice: Answer, serial: int | None = None) -> list[Event]:
        """Answer the pending decision and play on to the next one (or the end); returns the
        events that happened, as this player sees them. An answer that is not legal now (the
        wrong player, a stale ``serial``, an answer not among the options, a game that is over)
        raises IllegalAnswer and changes nothing."""
        d = self.pending()
        if d is None:
            raise illegal(f"the hand is over ({self.outcome}): there is nothing to answer",
                          hint="start a new game")
        if player != d.player:
            raise illegal(f"player {player + 1} answered, but the game waits for player {d.player + 1} "
                          f"({d.kind.value})", hint="answer the decision pending() returns")
        if serial is not None and serial != d.serial:
            raise illegal(f"answer to decision {serial}, but the pending decision is {d.serial}",
                          hint="the game has moved on: ask pending() again")
        if not d.legal(choice):
            raise illegal(f"{choice!r} is not a legal answer to this {d.kind.value} decision", hint=_legal_hint(d))
        start = len(self.log) if self.log is not None else 0
        assert self._driver is not None
        self._driver.give(choice)
        if self.log is None:
            return []
        return [public_event(ev, player) for ev in self.log[start:]]

    def close(self) -> None:
        """Stop a game driven from outside before its end (its thread finishes)."""
        if self._driver is not None:
            self._driver.close()

    def _wait(self, d: Decision) -> Answer:
        if self._driver is None or threading.current_thread() is not self._driver.thread:
            raise illegal(f"player {d.player + 1} has no bot and the game is not driven from outside",
                          hint="give every seat a bot, or drive the game with pending() and answer()")
        return self._driver.wait(d)

def play_game(table: Table, n_players: int, seed: Seed, agents: Agents, record: bool = False,
              turn_cap: int | None = None) -> Game:
    """Play one hand and return the finished game (outcome, winner, counters, log)."""
    game = Game(table, n_players, seed, agents, record=record)
    if turn_cap is not None:
        game.turn_cap = turn_cap
    return game.run()


def _legal_hint(d: Decision) -> str:
    opts = ", ".join(map(repr, d.options))
    return f"legal answers: {opts}" + (", None" if d.passable else "")


_HIDDEN_FACE = -1


def public_event(ev: Event, viewer: int) -> Event:
    """An event as player ``viewer`` sees it: orders of shuffled piles, another player's drawn
    card, a stolen card between two others, where a start card went back and whether a
    challengeable play was legal are hidden."""
    if isinstance(ev, Draw):
        return ev if ev.player == viewer else ev._replace(face=_HIDDEN_FACE)
    if isinstance(ev, (Shuffle, Reshuffle)):
        return type(ev)(())
    if isinstance(ev, Steal):
        return ev if viewer in (ev.player, ev.victim) else ev._replace(face=_HIDDEN_FACE)
    if isinstance(ev, Return):
        return ev._replace(position=-1)
    if isinstance(ev, Pending) and ev.challenge is not None:
        return ev._replace(challenge=(ev.challenge[0], None))
    return ev


class _Driver:
    """Runs a game driven from outside in a thread of its own, handing each pending decision to
    the caller and each answer back. Two locks pass the turn between the two threads, so exactly
    one of them runs at a time and the game stays deterministic."""

    def __init__(self, game: Game):
        self.game = game
        self.decision: Decision | None = None
        self.reply: Answer = None
        self.done = False
        self.closed = False
        self.error: BaseException | None = None
        self.calls = threading.Lock()           # one caller at a time
        self.to_game = threading.Lock()         # released: the game's thread may go on
        self.to_caller = threading.Lock()       # released: the game stopped (a decision, or the end)
        self.to_game.acquire()
        self.to_caller.acquire()
        self.thread = threading.Thread(target=self._main, name="deckgen-game", daemon=True)

    def start(self) -> None:
        """Deal and play up to the first decision from outside (or the end)."""
        self.thread.start()
        self.to_caller.acquire()

    def _main(self) -> None:
        try:
            self.game.run()
        except GameClosed:
            pass
        except BaseException as e:          # handed to the caller: a bug must not vanish in a thread
            self.error = e
        self.decision = None
        self.done = True
        self.to_caller.release()

    def pending(self) -> Decision | None:
        with self.calls:
            if self.error is not None:
                raise self.error
            return self.decision

    def give(self, answer: Answer) -> None:
        with self.calls:
            self.reply = answer
            self.decision = None
            self.to_game.release()
            self.to_caller.acquire()
            if self.error is not None:
                raise self.error

    def wait(self, d: Decision) -> Answer:
        """In the game's thread: publish the decision, wait for its answer."""
        self.decision = d
        self.to_caller.release()
        self.to_game.acquire()
        if self.closed:
            raise GameClosed
        return self.reply

    def close(self) -> None:
        with self.calls:
            if self.done or threading.current_thread() is self.thread:
                return
            self.closed = True
            self.to_game.release()
            self.to_caller.acquire()
        self.thread.join()


_DRIVERS = threading.Lock()                     # a game gets one driver, whichever thread asks first


__all__ = ["CAPPED", "STALLED", "Game", "IllegalAnswer", "play_game", "public_event"]
