"""A table: one person at one seat against bots, hand after hand, as the page sees it.

The :class:`Session` owns the game, a :class:`deckgen.rules.engine.Game` with every seat driven
from outside (docs/engine.md). The engine decides every rule: the session asks it which
decision is pending, shows the person their :class:`~deckgen.rules.decision.Observation` and
the legal answers the engine listed, and passes back the one they pick. Every decision the page
sees gets a sequence number (growing across hands and games); an answer naming another number
(a stale page, a double click, a forged request) is refused and changes nothing, and the page
then shows the table as it is.

Each bot answers its own decisions through the :class:`~deckgen.rules.decision.Bot` protocol,
from its observation alone and its own random generator, after ``pace`` seconds for the ones a
person watches (a card played or drawn, a colour named), in a thread of the session's. Every
change to the table bumps ``version``; the page waits for a new version (:meth:`Session.wait`).
"""

from __future__ import annotations

import random
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from deckgen.errors import DeckgenError, error
from deckgen.model import Deck
from deckgen.options import RuleOptions
from deckgen.play.words import Told, Words
from deckgen.rules import expert
from deckgen.rules.agents import AGENTS
from deckgen.rules.decision import YES_NO, Bot, Decision, Observation
from deckgen.rules.engine import Game, public_event
from deckgen.rules.match import Match
from deckgen.rules.state import FINISHED, Duel
from deckgen.rules.table import Table, compile_deck

#: Bot decisions a person sees happen: the bot waits ``pace`` seconds before them.
PACED = frozenset({"play", "play_drawn", "stack", "color", "roulette_color", "target", "swap", "steal", "duel"})
LOG_LINES = 400           # the page shows the latest lines of the log


@dataclass(frozen=True)
class PlayOptions:
    players: int = 4
    bots: str = "greedy"              # an agent name (deckgen.rules.agents.AGENTS)
    seat: int = 0                     # the person's seat, 0-based (seat 0 plays first in the first hand)
    seed: int = 1
    rules: RuleOptions | None = None  # None: the deck's own rule options
    pace: float = 0.8                 # seconds a bot waits before a move a person watches
    match: bool = False               # play hands until someone reaches the deck's target score
    lang: str | None = None           # None: the deck's language


def check_options(deck: Deck, opts: PlayOptions) -> None:
    """Every problem with the options at once, as a DeckgenError (exit 2)."""
    problems = []
    if not 2 <= opts.players <= 10:
        problems.append(error("option", "--players", f"{opts.players} players is not a table size deckgen plays",
                              hint="use 2 to 10"))
    elif not 0 <= opts.seat < opts.players:
        problems.append(error("option", "--seat", f"seat {opts.seat + 1} is not at a table of {opts.players}",
                              hint=f"use a seat from 1 to {opts.players}"))
    if opts.bots not in AGENTS:
        problems.append(error("option", "--bots", f"unknown bot '{opts.bots}'", hint="bots: " + ", ".join(AGENTS)))
    if not 0 <= opts.pace <= 10:
        problems.append(error("option", "--pace", f"{opts.pace} s is not a bot pace", hint="use 0 to 10 seconds"))
    if problems:
        raise DeckgenError(problems)


@dataclass
class HandResult:
    outcome: str
    winner: int | None
    points: int
    hands: list[list[int]]            # every seat's cards left at the end (faces)


@dataclass
class _Hand:
    game: Game
    number: int                       # 1-based, within the game
    seed: int                         # the game's seed (a match's hand i is seeded from (seed, i))
    dealer: int
    bots: list[Bot | None]
    bot_rng: random.Random
    told: Told = field(default_factory=Told)
    logged: int = 0                   # engine events already told
    result: HandResult | None = None


class Session:
    def __init__(self, deck: Deck, opts: PlayOptions, log: Callable[[str], None] | None = None,
                 make_bot: Callable[[int], Bot] | None = None):
        """``make_bot(seat)``: the bot for a seat in each hand (default: the agent named by
        ``opts.bots``; the expert at its strongest budget, ``expert.TABLE_THINK``)."""
        check_options(deck, opts)
        self.make_bot = make_bot or (lambda _seat: expert.make(opts.bots, expert.TABLE_THINK))
        self.deck, self.opts = deck, opts
        self.lang = opts.lang or deck.language
        self.table: Table = compile_deck(deck, opts.rules or deck.rule_options)
        self.n = opts.players
        self.seat = opts.seat
        self.names = self._seat_names()
        self.words = Words(deck, self.table, self.lang, self.names)
        self.echo = log or (lambda _line: None)
        self.cond = threading.Condition()
        self.version = 0
        self.seq = 0
        self.seed = opts.seed
        self.scores = [0] * self.n
        self.hand: _Hand | None = None
        self.lines: list[dict[str, Any]] = []
        self.records: list[dict[str, Any]] = []          # finished hands: seed, dealer and the engine's log
        self.thinking: int | None = None
        self.error: str | None = None
        self.match: Match | None = None
        self.match_winner: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _seat_names(self) -> list[str]:
        from deckgen.play.words import ui

        words = ui(self.lang)
        out, k = [], 0
        for q in range(self.n):
            if q == self.seat:
                out.append(words["you"])
            else:
                k += 1
                out.append(words["bot"].format(n=k))
        return out

    # ---------------------------------------------------------------- the game's life
    def start(self) -> None:
        with self.cond:
            self._new_game(self.seed)
        self._thread = threading.Thread(target=self._bots, name="deckgen-play-bots", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self.cond:
            self.cond.notify_all()

    def new_game(self, same_seed: bool) -> None:
        """A new game: the same seed again (the same deal and the same bots' luck) or the next seed."""
        with self.cond:
            self._new_game(self.seed if same_seed else self.seed + 1)

    def next_hand(self) -> bool:
        """The next hand of a match (False: no hand is over, or the match is)."""
        with self.cond:
            h = self.hand
            if h is None or h.result is None or self.match is None or self.match.over:
                return False
            self._begin_hand(h.number + 1)
            return True

    def _new_game(self, seed: int) -> None:
        self.seed = seed
        self.scores = [0] * self.n
        self.match = Match(self.table, self.n, seed) if self.opts.match else None
        self.match_winner = None
        self.lines = []
        self.records = []
        self._begin_hand(1)

    def _begin_hand(self, number: int) -> None:
        bots: list[Bot | None] = [None if q == self.seat else self.make_bot(q) for q in range(self.n)]
        # every seat is driven from here: the bots are asked by _bots(), after their pace
        seats: list[Bot | None] = [None] * self.n
        if self.match is not None:        # the match deals: hand i seeded from (seed, i), the deal passing on
            dealer = self.match.dealer
            game = self.match.new_hand(seats, record=True)
        else:
            dealer = self.n - 1
            game = Game(self.table, self.n, self.seed, seats, record=True, dealer=dealer)
        # the bots draw from a generator of their own, so nothing they draw tells the game's shuffles
        self.hand = _Hand(game, number, self.seed, dealer, bots, random.Random(f"{self.seed}:{number}:bots"))
        self.error = None
        self.thinking = None
        if self.opts.match:
            self.lines.append({"text": f"— {self.words.ui['hand_no'].format(n=number)} —", "seat": None})
        try:
            game.start()
        except Exception:
            self._failed()
            return
        self._settled()

    def _failed(self) -> None:
        self.error = traceback.format_exc(limit=8)
        self.echo(self.error)
        self.version += 1
        self.cond.notify_all()

    def _settled(self) -> None:
        """After the engine moved: tell the new events, note the next decision or the end."""
        h = self.hand
        assert h is not None
        g = h.game
        events = g.log or []
        seen = [public_event(e, self.seat) for e in events[h.logged:]]
        self.lines.extend(self.words.log(seen, self.seat, 0, h.told))
        h.logged = len(events)
        if g.over and h.result is None:
            h.result = HandResult(g.outcome or "", g.winner, g.score if g.outcome == FINISHED else 0,
                                  [list(hand) for hand in g.hands])
            self.scores = list(g.scores)
            self.lines.append({"text": self.words.end(h.result.outcome, g.winner, h.result.points, self.seat),
                               "seat": g.winner})
            self.records.append(self._record(h))
            if self.match is not None:
                self.match.end_hand(g)
                self.match_winner = self.match.winner
                if self.match_winner is not None:
                    self.lines.append({"text": self.words.match_end(self.match_winner, max(self.scores), self.seat),
                                       "seat": self.match_winner})
        self.seq += 1
        self.thinking = None
        self.version += 1
        self.cond.notify_all()

    def _record(self, h: _Hand) -> dict[str, Any]:
        g = h.game
        return {"hand": h.number, "seed": h.seed, "match": self.match is not None, "dealer": h.dealer,
                "outcome": g.outcome, "winner": g.winner,
                "points": g.score if g.outcome == FINISHED else 0,
                "log": [[type(e).__name__, *[_plain(v) for v in e]] for e in g.log or []]}

    # ---------------------------------------------------------------- answers
    def pending(self) -> Decision | None:
        h = self.hand
        if h is None or h.result is not None or self.error:
            return None
        return h.game.decision

    def answer(self, seq: Any, index: Any) -> bool:
        """The person's answer to decision ``seq``: the index of one of its legal answers. False
        (nothing changes) when it is not the current decision, not theirs, or not one of them."""
        with self.cond:
            d = self.pending()
            if d is None or d.player != self.seat or not isinstance(seq, int) or seq != self.seq:
                return False
            options = answers(d)
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(options):
                return False
            self._answer(d, options[index])
            return True

    def _answer(self, d: Decision, reply: Any) -> None:
        h = self.hand
        assert h is not None
        try:
            h.game.apply(reply, d.player, d.serial)
        except Exception:
            self._failed()
            return
        self._settled()

    def _bots(self) -> None:
        """The bots' thread: each bot decision, after the pace for the ones a person watches."""
        while not self._stop.is_set():
            with self.cond:
                d = self.pending()
                if d is None or d.player == self.seat:
                    self.cond.wait(0.5)
                    continue
                seq = self.seq
                if d.kind.value in PACED and self.opts.pace > 0:
                    self.thinking = d.player
                    self.version += 1
                    self.cond.notify_all()
                    self.cond.wait_for(self._moved(seq), self.opts.pace)
                if self.seq != seq or self._stop.is_set():
                    continue            # a new game began meanwhile
                h = self.hand
                assert h is not None
                bot = h.bots[d.player]
                assert bot is not None
                try:
                    reply = bot.decide(d, h.game.observation(d.player), h.bot_rng)
                except Exception:
                    self._failed()
                    continue
                self._answer(d, reply)

    def _moved(self, seq: int) -> Callable[[], bool]:
        return lambda: self.seq != seq or self._stop.is_set()

    def wait(self, version: int, timeout: float) -> None:
        """Return when the table's version is no longer ``version`` (or after ``timeout`` seconds)."""
        with self.cond:
            self.cond.wait_for(lambda: self.version != version or self._stop.is_set(), timeout)

    # ---------------------------------------------------------------- what the page shows
    def view(self) -> dict[str, Any]:
        """The person's observation of the table, the decision asked of them and its legal answers."""
        with self.cond:
            return self._view()

    def _view(self) -> dict[str, Any]:
        """Made from the person's observation alone (and, once the hand is over, every hand)."""
        h = self.hand
        assert h is not None
        t, w, me = self.table, self.words, self.seat
        o = h.game.observation(me)
        d = self.pending()
        color = None
        if o.color >= 0:
            color = {"name": w.color(o.color), "hex": self.deck.palette.get(t.colors[o.color]).hex}
        power = t.rules.power_cards and t.any_flex
        bots = h.bots
        players = [{"seat": q, "name": self.names[q], "you": q == me, "cards": o.hand_sizes[q],
                    "cards_text": w.cards(o.hand_sizes[q]), "alive": o.alive[q],
                    "power": o.power[q] if power else None, "owed": o.owed[q], "score": self.scores[q],
                    "bot": None if bots[q] is None else getattr(bots[q], "name", self.opts.bots)} for q in range(self.n)]
        pen = o.penalty
        duel = cast("Duel | None", o.duel)
        return {
            "version": self.version, "seq": self.seq, "lang": self.lang,
            "deck": {"id": self.deck.id, "name": self.deck.name(self.lang)},
            "seed": self.seed, "hand_no": h.number, "match": self.opts.match, "target": t.target,
            "you": me, "players": players, "turn": o.current, "direction": o.direction, "color": color,
            "top": self._card(o.top >> 1, o.top & 1) if o.top >= 0 else None,
            "draw_pile": o.draw_pile, "discard_pile": o.discard_pile,
            "pending": {"victim": pen.victim, "total": pen.total, "name": self.names[pen.victim]}
            if pen.total and pen.victim >= 0 else None,
            "duel": {"value": duel.value, "penalty": duel.penalty} if duel is not None else None,
            "power_name": w.power if power else None,
            "hand": [self._card(f, 0) for f in sorted(o.hand)],
            "decision": self._decision(d, o) if d is not None and d.player == me else None,
            "thinking": {"seat": self.thinking, "text": w.ui["waiting"].format(who=self.names[self.thinking])}
            if self.thinking is not None else None,
            "log": self.lines[-LOG_LINES:], "log_total": len(self.lines),
            "over": self._over(h) if h.result is not None else None,
            "error": self.error,
        }

    def _card(self, f: int, side: int) -> dict[str, Any]:
        card = self.table.faces[f]
        return {"face": f, "id": card.id, "name": self.words.card(f), "side": side,
                "side_name": self.words.side(f * 2 + side) if side else None}

    def _over(self, h: _Hand) -> dict[str, Any]:
        r = h.result
        assert r is not None
        t = self.table
        seats = [{"seat": q, "name": self.names[q], "cards": [self._card(f, 0) for f in sorted(r.hands[q])],
                  "points": sum(t.points[f] for f in r.hands[q]), "score": self.scores[q]} for q in range(self.n)]
        return {"outcome": r.outcome, "winner": r.winner, "points": r.points,
                "text": self.words.end(r.outcome, r.winner, r.points, self.seat), "seats": seats,
                "match_over": self.match is None or self.match.over,
                "match_winner": self.match_winner,
                "match_text": self.words.match_end(self.match_winner, max(self.scores), self.seat)
                if self.match_winner is not None else None}

    def _decision(self, d: Decision, o: Observation) -> dict[str, Any]:
        """The decision's legal answers (the engine's), each with the words and the card it is about."""
        w, ui, t = self.words, self.words.ui, self.table
        kind = d.kind.value
        items: list[dict[str, Any]] = []
        for i, a in enumerate(answers(d)):
            item: dict[str, Any] = {"i": i}
            if kind in ("play", "play_drawn", "stack"):
                if a is None:
                    key = {"play": "a_draw", "play_drawn": "a_keep", "stack": "a_take"}[kind]
                    item.update(key="draw", label=ui[key].format(cards=w.cards(o.penalty.total)))
                else:
                    f, side = a >> 1, a & 1
                    item.update(face=f, side=side, label=ui["a_flex"].format(side=w.side(a)) if side
                                else ui["a_play"].format(card=w.card(f)))
            elif kind == "duel":
                f = a >> 1
                item.update(face=f, side=0, label=ui["a_counter" if a & 1 else "a_discard"].format(card=w.card(f)),
                            counter=bool(a & 1))
            elif kind in ("color", "roulette_color"):
                item.update(label=w.color(a), color=self.deck.palette.get(t.colors[a]).hex)
            elif kind in ("target", "swap", "steal"):
                item.update(label=ui["a_player"].format(who=self.names[a], cards=w.cards(o.hand_sizes[a])), seat=a)
            else:
                yes, no = _YES_NO[kind]
                item.update(label=ui[yes if a else no].format(who=self.names[d.about] if d.about >= 0 else ""),
                            yes=bool(a))
                if kind == "uno" and a:
                    item["key"] = "uno"
            items.append(item)
        card = ""
        if kind in ("play_drawn", "jump_in") and d.options:
            card = w.card(d.options[0] >> 1)
        prompt = ui["q_play_nodraw" if kind == "play" and not d.passable else "q_" + kind]
        prompt = prompt.format(card=card, cards=w.cards(o.penalty.total),
                               who=self.names[d.about] if d.about >= 0 else "", value=d.value)
        return {"seq": self.seq, "kind": kind, "prompt": prompt, "answers": items}

    def card_texts(self) -> dict[str, dict[str, Any]]:
        """Every card's name and rulebook text (card id -> {name, group, text})."""
        return {c.id: self.words.card_text(c.id) for c in self.deck.cards}

    def config(self) -> dict[str, Any]:
        """What the page needs once: its labels, the faces' aspect, every card's rulebook text."""
        return {"lang": self.lang, "ui": self.words.ui, "texts": self.card_texts(),
                "deck": {"id": self.deck.id, "name": self.deck.name(self.lang)},
                "pace": self.opts.pace, "players": self.n}


_YES_NO = {"challenge": ("a_challenge", "a_accept"), "uno": ("a_uno", "a_silent"),
           "catch": ("a_catch", "a_let"), "jump_in": ("a_jump", "a_wait")}


def answers(d: Decision) -> list[Any]:
    """Every legal answer to a decision, in the order the page lists them: yes and no; or the
    engine's options, then None when it is legal too (draw, keep the card, take the penalty)."""
    if d.kind in YES_NO:
        return [True, False]
    return [*d.options, *([None] if d.passable else [])]


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


__all__ = ["PACED", "HandResult", "PlayOptions", "Session", "answers", "check_options"]
