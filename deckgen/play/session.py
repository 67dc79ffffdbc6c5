"""A table: people and bots at one game, hand after hand, as each person's page sees it.

The :class:`Session` owns the hand, a :class:`deckgen.rules.engine.Game` whose every seat is
driven from outside (docs/engine.md): it has no thread of its own and never waits. The engine
decides every rule; the session asks it which decision is pending, shows each person their own
:class:`~deckgen.rules.decision.Observation` and the legal answers the engine listed, and
applies the one they pick. A decision is named on the page by its ``seq``
(``GAME.HAND.SERIAL``: the game's id, the hand's number and the engine's decision serial), so an
answer to any other decision (a stale page, a double click, a forged request) is refused and
changes nothing.

A bot's decision is handed out as a :class:`BotJob` (the decision, the seat's observation and a
generator seed of its own) by :meth:`Session.bot_job`; whoever drives the table
(:class:`deckgen.play.driver.Driver`: a worker thread, off the request path) asks the bot with
:meth:`Session.think` and applies its answer with :meth:`Session.bot_answer`, which takes it
only if the game has not moved on. :meth:`Session.settle_bots` does the same inline (tests,
scripts). Under the ``race`` UNO mode, a person's UNO call and everybody's catch are pressed in
time: :meth:`Session.press` takes a press, :meth:`Session.tick` closes the windows.

Every change bumps ``version`` and calls the listeners (:meth:`Session.subscribe`). Every answer
is written to the table's journal (:mod:`deckgen.play.journal`) before the next one is asked, so
``deckgen play --resume`` replays the game to where it was.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from deckgen.errors import DeckgenError, error
from deckgen.model import Deck
from deckgen.options import RuleOptions
from deckgen.play.journal import Journal, read
from deckgen.play.seats import PlayOptions, Seats, check_options, new_seed
from deckgen.play.words import Told, Words, ui
from deckgen.rules import bots as registry
from deckgen.rules import expert
from deckgen.rules.decision import YES_NO, Answer, Bot, Decision, DecisionKind, IllegalAnswer, Observation
from deckgen.rules.engine import Game, public_event
from deckgen.rules.match import Match
from deckgen.rules.state import FINISHED
from deckgen.rules.table import Table, compile_deck

#: Bot decisions a person sees happen: the bot's answer is shown ``pace`` seconds after it is asked.
PACED = frozenset({"play", "play_drawn", "stack", "color", "roulette_color", "target", "swap", "steal", "duel"})
UNO_WINDOW = 3.0          # seconds a person has to press UNO (race mode)
CATCH_WINDOW = 3.0        # seconds everyone has to catch a missed call (race mode)
REACTION = (0.9, 2.4)     # a bot's catch comes this many seconds after the call was missed (race mode)


@dataclass
class HandResult:
    outcome: str
    winner: int | None
    points: int
    hands: list[list[int]]            # every seat's cards left at the end (faces)
    alive: list[bool]                 # False: knocked out


@dataclass
class Hand:
    game: Game
    number: int                       # 1-based, within the game
    dealer: int
    bots: dict[int, Bot]
    told: dict[int, Told] = field(default_factory=dict)
    logged: int = 0                   # engine events already told
    result: HandResult | None = None
    briefed: set[int] = field(default_factory=set)   # bot seats sent the whole hand's events once


class BotJob(NamedTuple):
    """One bot decision to think about, off the table: everything the bot may see."""

    key: tuple[str, int, int]         # (game, hand, serial): the answer is taken only while this is pending
    seat: int
    decision: Decision
    observation: Observation
    rng: str                          # the seed of the bot's generator for this decision
    paced: bool                       # a move a person watches: shown after the pace


@dataclass
class Race:
    """A UNO call or a catch pressed in time (the ``race`` UNO mode)."""

    kind: str                         # "uno" or "catch"
    key: tuple[str, int, int]
    offender: int                     # who has one card left
    deadline: float
    presses: dict[int, float] = field(default_factory=dict)    # seat -> when it pressed (a bot's: will press)


class Session:
    def __init__(self, deck: Deck, opts: PlayOptions, *, make_bot: Callable[[int], Bot] | None = None,
                 tokens: dict[int, str] | None = None, log: Callable[[str], None] | None = None):
        """``make_bot(seat)``: the bot for a seat in each game (default: the agent named by
        ``opts.bots``; the expert at its strongest budget, ``expert.TABLE_THINK``)."""
        check_options(deck, opts)
        self.default_bots = make_bot is None            # the agents named by opts.bots
        self.make_bot = make_bot or (lambda _seat: registry.make(opts.bots, expert.TABLE_THINK))
        self.deck, self.opts = deck, opts
        self.lang = opts.lang or deck.language
        self.table: Table = compile_deck(deck, opts.rules or deck.rule_options)
        self.n = opts.players
        self.seats = Seats(self.n, opts.human_seats(), opts.seat, tokens)
        self.host = opts.seat
        self.ui = ui(self.lang)
        self.echo = log or (lambda _line: None)
        self.lock = threading.RLock()
        self.version = 0
        self.journal: Journal | None = None
        self.listeners: list[Callable[[], None]] = []
        self.game_id = ""
        self.seed = 0
        self.match_play = opts.match
        self.scores = [0] * self.n
        self.hand: Hand | None = None
        self.lines: dict[int, list[dict[str, Any]]] = {}
        self.records: list[dict[str, Any]] = []          # finished hands: seed, dealer and the engine's log
        self.thinking: int | None = None
        self.error: str | None = None
        self.match: Match | None = None
        self.match_winner: int | None = None
        self.race: Race | None = None
        self.armed: dict[int, int] = {}                  # seat -> the turn it pressed UNO in (race mode)
        self.clock: Callable[[], float] = time.monotonic
        self._words: dict[int, Words] = {}

    # ---------------------------------------------------------------- names and words
    def names(self, viewer: int | None) -> list[str]:
        return self.seats.names(viewer, self.ui["you"], self.ui["player"], self.ui["bot"])

    def words(self, viewer: int) -> Words:
        w = self._words.get(viewer)
        if w is None or w.names != self.names(viewer):
            w = self._words[viewer] = Words(self.deck, self.table, self.lang, self.names(viewer))
        return w

    def subscribe(self, listener: Callable[[], None]) -> None:
        self.listeners.append(listener)

    def _bump(self) -> None:
        self.version += 1
        for listener in list(self.listeners):
            listener()

    # ---------------------------------------------------------------- the game's life
    def start(self, game_id: str | None = None, seed: int | None = None) -> Session:
        """Deal the first game (``game_id``, ``seed``: a resumed game's)."""
        with self.lock:
            self._new_game(self.opts.seed if seed is None else seed, game_id)
        return self

    def new_game(self, seat: int, same_seed: bool, match: bool | None = None) -> bool:
        """A new game, asked by the host: the same seed again (the same deal and the same bots'
        luck) or a new one (the next seed when the table was given one, else a secret one);
        ``match``: play it as a match to the target score (None: as the last one)."""
        with self.lock:
            if seat != self.host:
                return False
            if match is not None:
                self.match_play = match
            if same_seed:
                seed: int | None = self.seed
            else:
                seed = self.seed + 1 if self.opts.seed is not None else None
            self._new_game(seed, None)
            return True

    def next_hand(self, seat: int) -> bool:
        """The next hand of a match, asked by the host (False: no hand is over, or the match is)."""
        with self.lock:
            h = self.hand
            if seat != self.host or h is None or h.result is None or self.match is None or self.match.over:
                return False
            if self.journal is not None:
                self.journal.next_hand(h.number + 1)
            self._begin_hand(h.number + 1)
            return True

    def seat_to_bot(self, seat: int, other: int) -> bool:
        """The host hands another person's seat to a bot (that person's link opens nothing more)."""
        with self.lock:
            if seat != self.host or not self.seats.to_bot(other):
                return False
            if self.journal is not None:
                self.journal.to_bot(other)
            self._seat_bot(other)
            self._bump()
            return True

    def _seat_bot(self, seat: int) -> None:
        h = self.hand
        if h is not None and seat not in h.bots:
            h.bots[seat] = self.make_bot(seat)
        self.lines.pop(seat, None)
        self.armed.pop(seat, None)
        if self.race is not None and self.race.kind == "uno" and self.race.offender == seat:
            self.race = None
        self.thinking = None

    def _new_game(self, seed: int | None, game_id: str | None) -> None:
        self.seed = new_seed() if seed is None else seed
        self.game_id = game_id or secrets.token_hex(4)
        self.scores = [0] * self.n
        self.match = Match(self.table, self.n, self.seed) if self.match_play else None
        self.match_winner = None
        self.lines = {q: [] for q in self.seats.tokens}
        self.records = []
        if self.journal is not None and game_id is None:
            self.journal.new_game(self)
        self._begin_hand(1)

    def _begin_hand(self, number: int) -> None:
        seats: list[Bot | None] = [None] * self.n       # every seat is driven from here
        if self.match is not None:        # the match deals: hand i seeded from (seed, i), the deal passing on
            dealer = self.match.dealer
            game = self.match.new_hand(seats, record=True)
        else:
            dealer = self.n - 1
            game = Game(self.table, self.n, self.seed, seats, record=True, dealer=dealer)
        bots = {q: self.make_bot(q) for q in range(self.n) if not self.seats.human(q)}
        self.hand = Hand(game, number, dealer, bots)
        self.error = None
        self.thinking = None
        self.race = None
        self.armed = {}
        if self.match is not None:
            for q, lines in self.lines.items():
                lines.append({"text": f"— {self.words(q).ui['hand_no'].format(n=number)} —", "seat": None})
        try:
            game.start()
        except Exception:
            self._failed()
            return
        self._settled()

    def _failed(self) -> None:
        self.error = traceback.format_exc(limit=8)
        self.echo(self.error)
        self._bump()

    def _settled(self) -> None:
        """After the engine moved: tell the new events to each person, note the end, open a race."""
        h = self.hand
        assert h is not None
        g = h.game
        events = g.log or []
        new = events[h.logged:]
        for q, lines in self.lines.items():
            told = h.told.setdefault(q, Told())
            lines.extend(self.words(q).log([public_event(e, q) for e in new], q, 0, told))
        h.logged = len(events)
        if g.over and h.result is None:
            self._hand_over(h)
        self.thinking = None
        self.race = None
        self._open_race()
        self._bump()

    def _hand_over(self, h: Hand) -> None:
        g = h.game
        h.result = HandResult(g.outcome or "", g.winner, g.score if g.outcome == FINISHED else 0,
                              [list(hand) for hand in g.hands], list(g.alive))
        self.scores = list(g.scores)
        if self.match is not None:
            self.match.end_hand(g)
            self.match_winner = self.match.winner
        for q, lines in self.lines.items():
            w = self.words(q)
            lines.append({"text": w.end(h.result.outcome, g.winner, h.result.points, q), "seat": g.winner})
            if self.match_winner is not None:
                lines.append({"text": w.match_end(self.match_winner, max(self.scores), q), "seat": self.match_winner})
        self.records.append(record(self, h))

    @property
    def game_over(self) -> bool:
        """The game is over: its hand is (or, in a match, the match is)."""
        h = self.hand
        return h is not None and h.result is not None and (self.match is None or self.match.over)

    # ---------------------------------------------------------------- answers
    def pending(self) -> Decision | None:
        h = self.hand
        if h is None or h.result is not None or self.error:
            return None
        return h.game.decision

    def key(self) -> tuple[str, int, int] | None:
        d = self.pending()
        h = self.hand
        return None if d is None or h is None else (self.game_id, h.number, d.serial)

    def seq(self) -> str | None:
        k = self.key()
        return None if k is None else f"{k[0]}.{k[1]}.{k[2]}"

    def answer(self, seat: int, seq: Any, index: Any) -> bool:
        """A person's answer to decision ``seq``: the index of one of its legal answers. False
        (nothing changes) when it is not the pending decision, not theirs, or not one of them."""
        with self.lock:
            d = self.pending()
            if d is None or d.player != seat or not self.seats.human(seat) or seq != self.seq() or self._raced(d):
                return False
            options = answers(d)
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(options):
                return False
            self._apply(d, options[index])
            return True

    def _apply(self, d: Decision, reply: Answer) -> None:
        h = self.hand
        assert h is not None
        try:
            h.game.apply(reply, d.player, d.serial)
        except IllegalAnswer:
            raise
        except Exception:
            self._failed()
            return
        if self.journal is not None:
            self.journal.answer(h.number, d.serial, reply)
        self._settled()

    def replay(self, hand: int, serial: int, reply: Answer) -> None:
        """Apply a saved answer (``--resume``); DeckgenError when it does not fit the game."""
        with self.lock:
            d = self.pending()
            h = self.hand
            if d is None or h is None or h.number != hand or d.serial != serial:
                raise DeckgenError(error("play", "--resume", f"the saved answer to decision {serial} of hand {hand} "
                                         "does not fit the game", hint="the deck or deckgen changed since: start a "
                                         "new game without --resume"))
            try:
                h.game.apply(reply, d.player, d.serial)
            except IllegalAnswer as exc:
                raise DeckgenError(error("play", "--resume", f"the saved game does not replay: {exc.findings[0].message}",
                                         hint="the deck or deckgen changed since: start a new game without --resume")
                                   ) from None
            self._settled()

    # ---------------------------------------------------------------- bots
    def bot_job(self) -> BotJob | None:
        """The bot decision waiting (None: the game waits for a person, a race or nothing)."""
        with self.lock:
            d = self.pending()
            h = self.hand
            if d is None or h is None or self.seats.human(d.player) or self._raced(d):
                return None
            key = (self.game_id, h.number, d.serial)
            o = h.game.observation(d.player)
            if d.player not in h.briefed:
                # a bot's first question of the hand carries every public event since the deal, not
                # the latest window: a bot made after --resume (or a new thinking process) then
                # knows the hand as well as the one that sat through it
                h.briefed.add(d.player)
                o = o._replace(events=tuple(public_event(ev, d.player) for ev in h.game.log or ()))
            return BotJob(key, d.player, d, o, f"{self.seed}:{key[1]}:{key[2]}:bot",
                          d.kind.value in PACED and self.opts.pace > 0)

    def think(self, job: BotJob) -> Answer:
        """The bot's answer to a job (run anywhere: it reads the job alone, never the game)."""
        with self.lock:
            h = self.hand
            bot = h.bots.get(job.seat) if h is not None else None
        if bot is None:
            return None
        return bot.decide(job.decision, job.observation, random.Random(job.rng))

    def bot_answer(self, job: BotJob, reply: Answer) -> bool:
        """Apply a bot's answer if its decision is still the one pending (False: the game moved on)."""
        with self.lock:
            if self.key() != job.key or self.seats.human(job.seat):
                return False
            d = self.pending()
            assert d is not None
            if not d.legal(reply):
                self.error = f"bot of seat {job.seat + 1} answered {reply!r} to a {d.kind.value} decision"
                self.echo(self.error)
                self._bump()
                return False
            self._apply(d, reply)
            return True

    def bot_failed(self, job: BotJob, text: str) -> None:
        """A bot raised while thinking: the table shows the error (the game waits)."""
        with self.lock:
            if self.key() == job.key:
                self.error = text
                self.echo(text)
                self._bump()

    def touch(self) -> None:
        """Something the pages show changed outside the game (a person joined or left)."""
        with self.lock:
            self._bump()

    def set_thinking(self, job: BotJob | None) -> None:
        with self.lock:
            seat = None if job is None or self.key() != job.key else job.seat
            if seat != self.thinking:
                self.thinking = seat
                self._bump()

    def settle_bots(self) -> None:
        """Answer every bot decision (and close every race) at once, here, until a person's
        decision or the end of the hand (a script's or a test's table, without pace)."""
        while True:
            job = self.bot_job()
            if job is not None:
                self.bot_answer(job, self.think(job))
                continue
            with self.lock:
                if self.race is None:
                    return
                self.tick(float("inf"))

    # ---------------------------------------------------------------- races (UNO mode "race")
    def _raced(self, d: Decision) -> bool:
        """Whether this decision is pressed in time rather than asked."""
        if self.opts.uno != "race":
            return False
        return d.kind is DecisionKind.CATCH or (d.kind is DecisionKind.UNO and self.seats.human(d.player))

    def _open_race(self) -> None:
        d = self.pending()
        h = self.hand
        if d is None or h is None or not self._raced(d):
            return
        key, now = (self.game_id, h.number, d.serial), self.clock()
        if d.kind is DecisionKind.UNO:
            if self.armed.pop(d.player, None) == h.game.turns:
                self._apply(d, True)          # pressed with the card that left one: said in time
                return
            self.race = Race("uno", key, d.player, now + UNO_WINDOW)
            return
        race = self.race = Race("catch", key, d.about, now + CATCH_WINDOW)
        for q in range(self.n):
            if q == d.about or self.seats.human(q) or not h.game.alive[q]:
                continue
            bot = h.bots[q]
            rng = random.Random(f"{self.seed}:{key[1]}:{key[2]}:catch:{q}")
            ask = Decision(q, DecisionKind.CATCH, (True, False), False, d.about, -1, d.serial)
            if bot.decide(ask, h.game.observation(q), rng) is True:
                race.presses[q] = now + rng.uniform(*REACTION)

    def press(self, seat: int, what: Any, seq: Any) -> bool:
        """A person presses UNO or catch (race mode): UNO answers their call, or is kept for the
        call their play is about to ask (pressed on their turn with two cards); catch joins the race."""
        with self.lock:
            d, h = self.pending(), self.hand
            if self.opts.uno != "race" or d is None or h is None or not self.seats.human(seat) or seq != self.seq():
                return False
            race = self.race
            if what == "uno":
                if race is not None and race.kind == "uno" and race.offender == seat:
                    self._apply(d, True)
                    return True
                if d.player == seat and d.kind is DecisionKind.PLAY and len(h.game.hands[seat]) == 2:
                    self.armed[seat] = h.game.turns
                    self._bump()
                    return True
                return False
            if what == "catch" and race is not None and race.kind == "catch" and seat != race.offender:
                race.presses.setdefault(seat, self.clock())
                self.tick(self.clock())
                return True
            return False

    def next_timer(self) -> float | None:
        """When :meth:`tick` has something to do next (a clock() time; None: nothing)."""
        with self.lock:
            race = self.race
            if race is None:
                return None
            return min([race.deadline, *race.presses.values()])

    def tick(self, now: float) -> None:
        """Close the race whose time has come: an unsaid UNO, the first catch pressed."""
        with self.lock:
            race = self.race
            if race is None or race.key != self.key():
                return
            d = self.pending()
            assert d is not None
            if race.kind == "uno":
                if now >= race.deadline:
                    self._apply(d, False)
                return
            pressed = [(t, q) for q, t in race.presses.items() if t <= now]
            if not pressed and now < race.deadline:
                return
            first = min(pressed)[1] if pressed else -1
            while (d := self.pending()) is not None and d.kind is DecisionKind.CATCH and d.about == race.offender:
                if self.key() is None:
                    break
                self._apply(d, d.player == first)
                if d.player == first:
                    break

    # ---------------------------------------------------------------- what a page shows
    def log_lines(self, seat: int, start: int = 0) -> tuple[list[dict[str, Any]], int]:
        """The log as this seat reads it, from line ``start``; and how many lines it has."""
        with self.lock:
            lines = self.lines.get(seat, [])
            return lines[start:], len(lines)

    def config(self, seat: int) -> dict[str, Any]:
        """What the page needs once: its labels, every card's rulebook text."""
        w = self.words(seat)
        return {"lang": self.lang, "ui": w.ui, "texts": {c.id: w.card_text(c.id) for c in self.deck.cards},
                "deck": {"id": self.deck.id, "name": self.deck.name(self.lang)},
                "pace": self.opts.pace, "players": self.n, "uno": self.opts.uno, "target": self.table.target}


def answers(d: Decision) -> list[Any]:
    """Every legal answer to a decision, in the order the page lists them: yes and no; or the
    engine's options, then None when it is legal too (draw, keep the card, take the penalty)."""
    if d.kind in YES_NO:
        return [True, False]
    return [*d.options, *([None] if d.passable else [])]


def record(s: Session, h: Hand) -> dict[str, Any]:
    """A finished hand as ``/log.json`` gives it: the engine's whole log (every hand, the
    shuffles): sent only once the game is over."""
    g = h.game
    return {"hand": h.number, "match": s.match is not None, "dealer": h.dealer,
            "outcome": g.outcome, "winner": g.winner, "points": g.score if g.outcome == FINISHED else 0,
            "log": [[type(e).__name__, *[_plain(v) for v in e]] for e in g.log or []]}


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


def resume(deck: Deck, path: Path, make_bot: Callable[[int], Bot] | None = None,
           pace: float | None = None, log: Callable[[str], None] | None = None) -> tuple[Session, dict[str, Any]]:
    """The game saved at ``path`` (:mod:`deckgen.play.journal`), dealt again and replayed to
    where it was; and the save's header (its port, ...)."""
    header, lines = read(path)
    if header.get("deck") != deck.id:
        raise DeckgenError(error("play", str(path), f"is a game of '{header.get('deck')}', not of '{deck.id}'",
                                 hint=f"deckgen play {header.get('deck')} --resume"))
    try:
        o = header["options"]
        rules = RuleOptions(**o["rules"])
        opts = PlayOptions(players=int(o["players"]), bots=str(o["bots"]), seat=int(o["seat"]), humans=int(o["humans"]),
                           seed=o["seed"], rules=rules, pace=float(o["pace"] if pace is None else pace),
                           match=bool(header["game"]["match"]), lang=o["lang"], uno=str(o["uno"]))
        tokens = {int(q): str(t) for q, t in header["tokens"].items()}
        game = header["game"]
        seed, game_id = int(game["seed"]), str(game["id"])
        handed = [int(q) for q in header.get("bots", [])]
    except (KeyError, TypeError, ValueError, DeckgenError):
        raise DeckgenError(error("play", str(path), "the save's header is incomplete or damaged",
                                 hint="start a new game without --resume")) from None
    s = Session(deck, opts, make_bot=make_bot, tokens={**tokens, **dict.fromkeys(handed, "")}, log=log)
    for q in handed:
        s.seats.to_bot(q)
    s.start(game_id=game_id, seed=seed)
    for item in lines:
        if "next" in item:
            if not s.next_hand(s.host):
                raise DeckgenError(error("play", str(path), "the saved game does not replay (a next hand too early)",
                                         hint="start a new game without --resume"))
        elif "bot" in item:
            s.seat_to_bot(s.host, int(item["bot"]))
        else:
            reply = item.get("a")
            if not (reply is None or isinstance(reply, (bool, int))):
                raise DeckgenError(error("play", str(path), "the save holds an answer that is not one",
                                         hint="start a new game without --resume"))
            s.replay(int(item.get("h", 0)), int(item.get("s", 0)), reply)
    return s, header


__all__ = ["CATCH_WINDOW", "PACED", "UNO_WINDOW", "BotJob", "Hand", "HandResult", "PlayOptions", "Race", "Session",
           "answers", "check_options", "record", "resume"]
