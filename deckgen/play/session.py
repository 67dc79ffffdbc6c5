"""A table: one person at one seat against bots, hand after hand, as the page sees it.

The :class:`Session` owns the game. The engine decides every rule: the session only asks it
what decision is pending, shows the person their observation and the legal answers the engine
listed, and passes back the one they pick. Every decision gets a sequence number; an answer
naming another number (a stale page, a double click, a forged request) is refused and changes
nothing, and the page then shows the table as it is.

Bots answer their own decisions, after ``pace`` seconds for the ones a person watches (a card
played or drawn, a colour named), in a thread of the session's. Every change to the table bumps
``version``; the page waits for a new version (:meth:`Session.wait`).
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from deckgen.errors import DeckgenError, error
from deckgen.model import Deck
from deckgen.options import RuleOptions
from deckgen.play.driver import BOT, Decision, HandDriver
from deckgen.play.words import Told, Words
from deckgen.rules.agents import AGENTS, Agent
from deckgen.rules.state import FINISHED
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
    driver: HandDriver
    number: int                       # 1-based, within the game
    seed: Any
    dealer: int
    told: Told = field(default_factory=Told)
    logged: int = 0                   # engine events already told
    result: HandResult | None = None


class Session:
    def __init__(self, deck: Deck, opts: PlayOptions, log: Callable[[str], None] | None = None):
        check_options(deck, opts)
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
        self.lines: list[dict] = []
        self.records: list[dict] = []          # finished hands: seed, dealer and the engine's log
        self.thinking: int | None = None
        self.error: str | None = None
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
            if self.hand is not None:
                self.hand.driver.abandon()
            self.cond.notify_all()

    def new_game(self, same_seed: bool) -> None:
        """A new game: the same seed again (the same deal and the same bots' luck) or the next seed."""
        with self.cond:
            self._new_game(self.seed if same_seed else self.seed + 1)

    def next_hand(self) -> bool:
        """The next hand of a match (False: no hand is over, or the match is)."""
        with self.cond:
            h = self.hand
            if h is None or h.result is None or not self.opts.match or self.match_winner is not None:
                return False
            self._begin_hand(h.number + 1, (h.dealer + 1) % self.n)
            return True

    def _new_game(self, seed: int) -> None:
        if self.hand is not None:
            self.hand.driver.abandon()
        self.seed = seed
        self.scores = [0] * self.n
        self.match_winner = None
        self.lines = []
        self.records = []
        self._begin_hand(1, self.n - 1)

    def _begin_hand(self, number: int, dealer: int) -> None:
        seed: Any = f"{self.seed}:hand:{number - 1}" if self.opts.match else self.seed
        bots: list[Agent] = [AGENTS[self.opts.bots]() for _ in range(self.n)]
        driver = HandDriver(self.table, self.n, seed, bots, dealer=dealer)
        self.hand = _Hand(driver, number, seed, dealer)
        self.error = None
        self.thinking = None
        if self.opts.match:
            self.lines.append({"text": f"— {self.words.ui['hand_no'].format(n=number)} —", "seat": None})
        try:
            driver.start()
        except Exception:  # noqa: BLE001 - an engine bug: shown on the page and in the terminal
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
        g = h.driver.game
        events = g.log or []
        self.lines.extend(self.words.log(events, self.seat, h.logged, h.told))
        h.logged = len(events)
        if h.driver.done and h.result is None:
            h.result = HandResult(g.outcome or "", g.winner, g.score if g.outcome == FINISHED else 0,
                                  [list(hand) for hand in g.hands])
            if g.outcome == FINISHED and g.winner is not None:
                self.scores[g.winner] += g.score
            self.lines.append({"text": self.words.end(h.result.outcome, g.winner, h.result.points, self.seat),
                               "seat": g.winner})
            self.records.append(self._record(h))
            if self.opts.match and max(self.scores) >= self.table.target:
                self.match_winner = self.scores.index(max(self.scores))
                self.lines.append({"text": self.words.match_end(self.match_winner, max(self.scores), self.seat),
                                   "seat": self.match_winner})
        self.seq += 1
        self.thinking = None
        self.version += 1
        self.cond.notify_all()

    def _record(self, h: _Hand) -> dict:
        g = h.driver.game
        return {"hand": h.number, "seed": h.seed, "dealer": h.dealer, "outcome": g.outcome, "winner": g.winner,
                "points": g.score if g.outcome == FINISHED else 0,
                "log": [[type(e).__name__, *[_plain(v) for v in e]] for e in g.log or []]}

    # ---------------------------------------------------------------- answers
    def pending(self) -> Decision | None:
        h = self.hand
        if h is None or h.result is not None or self.error:
            return None
        return h.driver.pending

    def answer(self, seq: Any, index: Any) -> bool:
        """The person's answer to decision ``seq``: the index of one of its legal answers. False
        (nothing changes) when it is not the current decision, not theirs, or not one of them."""
        with self.cond:
            d = self.pending()
            if (d is None or d.seat != self.seat or not isinstance(seq, int) or seq != self.seq
                    or not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(d.answers)):
                return False
            self._answer(d.answers[index])
            return True

    def _answer(self, reply: Any) -> None:
        h = self.hand
        assert h is not None
        try:
            h.driver.answer(reply)
        except Exception:  # noqa: BLE001
            self._failed()
            return
        self._settled()

    def _bots(self) -> None:
        """The bots' thread: each bot decision, after the pace for the ones a person watches."""
        while not self._stop.is_set():
            with self.cond:
                d = self.pending()
                if d is None or d.seat == self.seat:
                    self.cond.wait(0.5)
                    continue
                seq = self.seq
                if d.kind in PACED and self.opts.pace > 0:
                    self.thinking = d.seat
                    self.version += 1
                    self.cond.notify_all()
                    self.cond.wait_for(lambda: self.seq != seq or self._stop.is_set(), self.opts.pace)
                if self.seq != seq or self._stop.is_set():
                    continue            # a new game began meanwhile
                self._answer(BOT)

    def wait(self, version: int, timeout: float) -> None:
        """Return when the table's version is no longer ``version`` (or after ``timeout`` seconds)."""
        with self.cond:
            self.cond.wait_for(lambda: self.version != version or self._stop.is_set(), timeout)

    # ---------------------------------------------------------------- what the page shows
    def view(self) -> dict:
        """The person's observation of the table, the decision asked of them and its legal answers."""
        with self.cond:
            return self._view()

    def _view(self) -> dict:
        h = self.hand
        assert h is not None
        g = h.driver.game
        t, w, me = self.table, self.words, self.seat
        d = self.pending()
        top = g.top
        color = None
        if g.color >= 0 and g.key != -1:
            cid = t.colors[g.color]
            color = {"name": w.color(g.color), "hex": self.deck.palette.get(cid).hex}
        players = []
        for q in range(self.n):
            players.append({
                "seat": q, "name": self.names[q], "you": q == me, "cards": len(g.hands[q]), "alive": g.alive[q],
                "power": (g.power[q] if g.power_rule else None), "owed": g.owed[q], "score": self.scores[q],
                "bot": None if q == me else self.opts.bots})
        view: dict[str, Any] = {
            "version": self.version, "seq": self.seq, "lang": self.lang,
            "deck": {"id": self.deck.id, "name": self.deck.name(self.lang)},
            "seed": self.seed, "hand_no": h.number, "match": self.opts.match, "target": t.target,
            "you": me, "players": players, "turn": g.cur, "direction": g.dir, "color": color,
            "top": self._card(top >> 1, top & 1) if top >= 0 else None,
            "draw_pile": len(g.draw_pile), "discard_pile": len(g.discard),
            "pending": {"victim": g.pend.victim, "total": g.pend.total, "name": self.names[g.pend.victim]}
            if g.pending and g.pend.victim >= 0 else None,
            "duel": {"value": g.duel.value, "penalty": g.duel.penalty} if g.duel is not None else None,
            "power_name": w.power if g.power_rule else None,
            "hand": [self._card(f, 0) for f in sorted(g.hands[me])],
            "decision": self._decision(d) if d is not None and d.seat == me else None,
            "thinking": {"seat": self.thinking, "text": w.ui["waiting"].format(who=self.names[self.thinking])}
            if self.thinking is not None else None,
            "log": self.lines[-LOG_LINES:], "log_total": len(self.lines),
            "over": self._over(h) if h.result is not None else None,
            "error": self.error,
        }
        return view

    def _card(self, f: int, side: int) -> dict:
        card = self.table.faces[f]
        return {"face": f, "id": card.id, "name": self.words.card(f), "side": side,
                "side_name": self.words.side(f * 2 + side) if side else None}

    def _over(self, h: _Hand) -> dict:
        r = h.result
        assert r is not None
        t = self.table
        seats = [{"seat": q, "name": self.names[q], "cards": [self._card(f, 0) for f in sorted(r.hands[q])],
                  "points": sum(t.points[f] for f in r.hands[q]), "score": self.scores[q]} for q in range(self.n)]
        return {"outcome": r.outcome, "winner": r.winner, "points": r.points,
                "text": self.words.end(r.outcome, r.winner, r.points, self.seat), "seats": seats,
                "match_over": (not self.opts.match) or self.match_winner is not None,
                "match_winner": self.match_winner,
                "match_text": self.words.match_end(self.match_winner, max(self.scores), self.seat)
                if self.match_winner is not None else None}

    def _decision(self, d: Decision) -> dict:
        w, ui, t = self.words, self.words.ui, self.table
        g = self.hand.driver.game if self.hand else None
        assert g is not None
        answers: list[dict] = []
        for i, a in enumerate(d.answers):
            item: dict[str, Any] = {"i": i}
            if d.kind in ("play", "play_drawn", "stack"):
                if a is None:
                    key = {"play": "a_draw", "play_drawn": "a_keep", "stack": "a_take"}[d.kind]
                    item.update(key="draw", label=ui[key].format(cards=w.cards(g.pend.total)))
                else:
                    f, side = a >> 1, a & 1
                    item.update(face=f, side=side, label=ui["a_flex"].format(side=w.side(a)) if side
                                else ui["a_play"].format(card=w.card(f)))
            elif d.kind == "duel":
                f = a >> 1
                item.update(face=f, side=0, label=ui["a_counter" if a & 1 else "a_discard"].format(card=w.card(f)),
                            counter=bool(a & 1))
            elif d.kind in ("color", "roulette_color"):
                cid = t.colors[a]
                item.update(label=w.color(a), color=self.deck.palette.get(cid).hex)
            elif d.kind in ("target", "swap", "steal"):
                item.update(label=ui["a_player"].format(who=self.names[a], n=len(g.hands[a])), seat=a)
            else:
                yes, no = {"challenge": ("a_challenge", "a_accept"), "uno": ("a_uno", "a_silent"),
                           "catch": ("a_catch", "a_let"), "jump_in": ("a_jump", "a_wait")}.get(d.kind, ("a_yes", "a_no"))
                who = self.names[d.about["offender"]] if "offender" in d.about else ""
                item.update(label=ui[yes if a else no].format(who=who), yes=bool(a))
                if d.kind == "uno" and a:
                    item["key"] = "uno"
            answers.append(item)
        about = d.about
        drawn = next((a for a in d.answers if a is not None), None) if d.kind == "play_drawn" else None
        prompt = ui["q_" + d.kind] if "q_" + d.kind in ui else d.kind
        if d.kind == "play" and None not in d.answers:
            prompt = ui["q_play_nodraw"]
        prompt = prompt.format(
            card=w.card(drawn >> 1) if drawn is not None else (w.card(about["move"] >> 1) if "move" in about else ""),
            cards=w.cards(g.pend.total), who=self.names[about["offender"]] if "offender" in about else "",
            value=about.get("value", ""))
        return {"seq": self.seq, "kind": d.kind, "prompt": prompt, "answers": answers}

    def card_texts(self) -> dict[str, dict]:
        """Every card's name and rulebook text (card id -> {name, group, text})."""
        return {c.id: self.words.card_text(c.id) for c in self.deck.cards}

    def config(self) -> dict:
        """What the page needs once: its labels, the faces' aspect, every card's rulebook text."""
        return {"lang": self.lang, "ui": self.words.ui, "texts": self.card_texts(),
                "deck": {"id": self.deck.id, "name": self.deck.name(self.lang)},
                "pace": self.opts.pace, "players": self.n}


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


__all__ = ["PACED", "HandResult", "PlayOptions", "Session", "check_options"]
