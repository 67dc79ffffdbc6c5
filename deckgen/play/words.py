"""What the table says, in the deck's language (es or en): the log of what happened and the page's labels.

The sentences and labels are :mod:`deckgen.words`' ``PLAY_LOG``, ``PLAY_WHY``, ``PLAY_WORDS`` and
``PLAY_UI``; this module puts them together. The names are never written there: a card is
called by its display name in the manifest, a colour by its palette name, a Power card by its
component's name, a flex side by its kind's name, the same words the rulebook and the faces use
(:mod:`deckgen.rulebook.words`, :mod:`deckgen.rulebook.describe`). A card's rulebook text, shown
when a player points at it, is the rulebook's own paragraphs for the card's group
(:func:`deckgen.rulebook.describe.group_text`).

The log is told from one seat's point of view, from the events as that player sees them
(:func:`deckgen.rules.engine.public_event`: another player's drawn card, or a card stolen
between two others, comes with its face hidden): the player reads the names of the cards they
draw and of a card stolen from or by them, and of the others' draws only the count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from deckgen.model import NUMBER, Deck
from deckgen.rulebook.describe import group_name, group_text
from deckgen.rulebook.groups import group_key, groups
from deckgen.rulebook.words import cards_word, color_name, lang_of, number_word, power_name
from deckgen.rules import state as ev
from deckgen.rules.record import CAUSES
from deckgen.rules.table import Table
from deckgen.words import PLAY_LOG, PLAY_UI, PLAY_WHY, PLAY_WORDS

UI = PLAY_UI          # the page's labels (deckgen.words.PLAY_UI)


def ui(lang: str) -> dict[str, str]:
    return PLAY_UI[lang_of(lang)]


class Words:
    """The names and sentences of one deck at one table, in one language."""

    def __init__(self, deck: Deck, table: Table, lang: str, names: Sequence[str]):
        self.deck, self.t, self.lang = deck, table, lang_of(lang)
        self.names = list(names)             # seat -> what the log calls the player ("You", "Bot 2")
        self.power = power_name(deck, self.lang)
        self.ui = ui(self.lang)
        by_key = {g.key: g for g in groups(deck)}
        self._texts: dict[str, dict[str, Any]] = {}
        for card in deck.cards:
            g = by_key[group_key(card)]
            self._texts[card.id] = {"name": card.name(self.lang), "group": group_name(deck, g, self.lang),
                                    "text": group_text(deck, g, self.lang)}

    # ---------------------------------------------------------------- names
    def card(self, f: int) -> str:
        """A card's display name ("" for a face the viewer may not see, -1)."""
        return self.t.faces[f].name(self.lang) if f >= 0 else ""

    def side(self, move: int) -> str:
        """What a card's flex side is called: its kind's name, in its colour when it has one."""
        card = self.t.faces[move >> 1]
        if not move & 1 or card.flex is None:
            return str(card.name(self.lang))
        kind = self.deck.kinds[card.flex.kind]
        name = kind.names.get(self.lang)
        if card.flex.color is None:
            return name
        color = color_name(self.deck, card.flex.color, self.lang)
        if kind.category == NUMBER and card.value is not None:
            name = str(card.value)          # a flex number is called like a number card: "2 rojo", "red 2"
        return f"{name} {color}" if self.lang == "es" else f"{color} {name}"

    def color(self, c: int) -> str:
        return color_name(self.deck, self.t.colors[c], self.lang)

    def cards(self, n: int) -> str:
        return cards_word(self.lang, n)

    def points(self, n: int) -> str:
        return f"{n} {self.ui['points']}" if n != 1 else PLAY_WORDS[self.lang]["one_point"]

    def card_text(self, card_id: str) -> dict[str, Any]:
        """The card's name, its rulebook group's name and the rulebook's paragraphs about it."""
        return self._texts[card_id]

    # ---------------------------------------------------------------- sentences
    def say(self, key: str, who: int | None, viewer: int, **kw: Any) -> str:
        other, mine = PLAY_LOG[self.lang][key]
        text = mine if who is not None and who == viewer and mine else other
        if who is not None:
            kw["who"] = self.names[who]
        return text.format(**kw)

    def log(self, events: Sequence[Any], viewer: int, first: int = 0, state: Told | None = None) -> list[dict[str, Any]]:
        """Sentences for ``events[first:]`` told to the viewer: each ``{"text", "seat"}``; runs of
        one player's draws for one cause become one sentence."""
        told = state or Told()
        out: list[dict[str, Any]] = []
        i = first
        while i < len(events):
            e = events[i]
            if isinstance(e, ev.Draw):
                j = i
                while j + 1 < len(events) and isinstance(events[j + 1], ev.Draw) and \
                        events[j + 1].player == e.player and events[j + 1].cause == e.cause:
                    j += 1
                faces = [d.face for d in events[i:j + 1]]
                why = CAUSES[e.cause]
                key = "draw" if why == "no_play" else "draw_why"
                text = self.say(key, e.player, viewer, cards=self.cards(len(faces)),
                                names=", ".join(self.card(f) for f in faces), why=PLAY_WHY[self.lang].get(why, why))
                out.append({"text": text, "seat": e.player})
                i = j + 1
                continue
            text = self._one(e, viewer, told, events, i)
            if text:
                out.append({"text": text, "seat": _seat_of(e)})
            i += 1
        return out

    def _one(self, e: Any, viewer: int, told: Told, events: Sequence[Any], i: int) -> str:
        """The sentence for one event other than a draw ("" for one not told)."""
        tell = _TELL.get(type(e))
        return tell(self, _Told(e, viewer, told, events, i)) if tell is not None else ""

    def _plain(self, c: _Told) -> str:
        e, viewer = c.e, c.viewer
        if isinstance(e, ev.Deal):
            return self.say("deal", None, viewer, cards=e.cards)
        if isinstance(e, (ev.Start, ev.Aside, ev.Return)):
            key = {ev.Start: "start", ev.Aside: "aside", ev.Return: "return"}[type(e)]
            return self.say(key, None, viewer, card=self.card(e.face))
        if isinstance(e, ev.Discard):
            return self.say("discard", e.player, viewer, card=self.card(e.face))
        if isinstance(e, (ev.Dry, ev.Knockout)):
            return self.say("dry" if isinstance(e, ev.Dry) else "knockout", e.player, viewer)
        if isinstance(e, ev.Color):
            return self.say("color", None, viewer, color=self.color(e.color))
        if isinstance(e, ev.Uno):
            return self.say("uno" if e.said else "no_uno", e.player, viewer)
        if isinstance(e, ev.Pending):
            return "" if e.victim < 0 or not e.total else self.say("pending", e.victim, viewer, cards=self.cards(e.total))
        key = {ev.Reshuffle: "reshuffle", ev.Direction: "direction", ev.PassHands: "pass"}[type(e)]
        return self.say(key, None, viewer)

    def _between(self, c: _Told) -> str:
        """An event between two players: a swap, a steal, a catch, a challenge."""
        e, viewer = c.e, c.viewer
        if isinstance(e, ev.Swap):
            if e.b == viewer:
                return self.say("swapped", e.a, viewer)
            return self.say("swap", e.a, viewer, other=self._obj(e.b, viewer))
        if isinstance(e, ev.Steal):
            if e.victim == viewer:
                return self.say("stolen", e.player, viewer, card=self.card(e.face))
            return self.say("steal", e.player, viewer, other=self._obj(e.victim, viewer), card=self.card(e.face))
        if isinstance(e, ev.Caught):
            if e.offender == viewer:
                return self.say("caught_you", e.catcher, viewer)
            return self.say("caught", e.catcher, viewer, other=self._obj(e.offender, viewer))
        assert isinstance(e, ev.Challenge)
        return self.say("challenge_guilty" if e.guilty else "challenge_fair", e.challenger, viewer,
                        other=self._obj(e.offender, viewer))

    def _play(self, c: _Told) -> str:
        t = self.t
        e, viewer, events, i = c.e, c.viewer, c.events, c.i
        name, flex = self.card(e.move >> 1), bool(e.move & 1)
        if e.how == "stack":
            nxt = next((x for x in events[i + 1:] if isinstance(x, ev.Pending)), None)
            total = self.cards(nxt.total) if nxt is not None and nxt.total else self.cards(t.draw_val[e.move])
            return self.say("stack_flex" if flex else "stack", e.player, viewer, card=name,
                            side=self.side(e.move), total=total)
        if e.how == "duel":
            return self.say("counter", e.player, viewer, card=name, value=t.value[e.move >> 1])
        if e.how == "jump":
            return self.say("jump", e.player, viewer, card=name)
        return self.say("play_flex" if flex else "play", e.player, viewer, card=name, side=self.side(e.move))

    def _power(self, c: _Told) -> str:
        e, viewer, told = c.e, c.viewer, c.told
        if told.power.get(e.player, True) == e.green:
            return ""
        told.power[e.player] = e.green
        return self.say("power", e.player, viewer, power=self.power, state=self.ui["green" if e.green else "red"])

    def _owe(self, c: _Told) -> str:
        e, viewer, told = c.e, c.viewer, c.told
        before = told.owed.get(e.player, 0)
        told.owed[e.player] = e.owed
        if e.owed > before:
            k = e.owed - before
            return self.say("owe" if k == 1 else "owe_k", e.player, viewer, k=number_word(self.lang, k))
        if e.owed < before:
            return self.say("served", e.player, viewer)
        return ""

    def _duel(self, c: _Told) -> str:
        viewer, told = c.viewer, c.told
        d = c.e.duel
        if d is None:
            told.duel = None
            return self.say("duel_end", None, viewer)
        started = told.duel is None or told.duel.value != d.value or told.duel.penalty != d.penalty
        told.duel = d
        if started:
            return self.say("duel", None, viewer, value=d.value, cards=self.cards(d.penalty))
        return ""

    def _obj(self, seat: int, viewer: int) -> str:
        """A player named as the object of a sentence ("you" / "ti" for the viewer)."""
        if seat == viewer:
            return PLAY_WORDS[self.lang]["you"]
        return self.names[seat]

    def end(self, outcome: str, winner: int | None, points: int, viewer: int) -> str:
        if outcome == "finished" and winner is not None:
            return self.say("win", winner, viewer, points=self.points(points))
        return self.say("stalled" if outcome == "stalled" else "capped", None, viewer)

    def match_end(self, winner: int, points: int, viewer: int) -> str:
        return self.say("match", winner, viewer, points=self.points(points))


class Told:
    """What the log has told so far, to say changes only (Power cards, lost turns, duels)."""

    def __init__(self) -> None:
        self.power: dict[int, bool] = {}
        self.owed: dict[int, int] = {}
        self.duel: Any = None


class _Told(NamedTuple):
    """One event to tell and what telling it may look at."""

    e: Any
    viewer: int
    told: Told
    events: Sequence[Any]
    i: int


# which Words method tells each kind of event (Draw runs are told by Words.log; the rest untold)
_TELL: dict[type, Callable[[Words, _Told], str]] = {
    **{k: Words._plain for k in (ev.Deal, ev.Start, ev.Aside, ev.Return, ev.Discard, ev.Dry, ev.Color, ev.Knockout,
                                 ev.Uno, ev.Pending, ev.Reshuffle, ev.Direction, ev.PassHands)},
    **{k: Words._between for k in (ev.Swap, ev.Steal, ev.Caught, ev.Challenge)},
    ev.Play: Words._play, ev.Power: Words._power, ev.Owe: Words._owe, ev.DuelState: Words._duel,
}


def _seat_of(e: Any) -> int | None:
    for name in ("player", "challenger", "catcher", "a", "victim"):
        v = getattr(e, name, None)
        if isinstance(v, int) and v >= 0:
            return v
    return None


__all__ = ["UI", "Told", "Words", "ui"]
