"""What the table says, in the deck's language (es or en): the log of what happened and the page's labels.

The names are never written here: a card is called by its display name in the manifest, a
colour by its palette name, a Power card by its component's name, a flex side by its kind's
name, the same words the rulebook and the faces use (:mod:`deckgen.rulebook.words`,
:mod:`deckgen.rulebook.describe`). A card's rulebook text, shown when a player points at it, is
the rulebook's own paragraphs for the card's group (:func:`deckgen.rulebook.describe.group_text`).

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

# Each sentence: (said of another player, said to the viewer). {who} is the player's name.
_LOG: dict[str, dict[str, tuple[str, str]]] = {
    "en": {
        "deal": ("The cards are dealt: {cards} each.", ""),
        "start": ("The first card is {card}.", ""),
        "aside": ("{card} is set aside: the first card must be a number card.", ""),
        "return": ("{card} goes back into the draw pile and another card is turned.", ""),
        "play": ("{who} plays {card}.", "You play {card}."),
        "play_flex": ("{who} plays {card} by its flex side: {side}.", "You play {card} by its flex side: {side}."),
        "stack": ("{who} stacks {card}: {total} to draw now.", "You stack {card}: {total} to draw now."),
        "stack_flex": ("{who} stacks {card} by its flex side ({side}): {total} to draw now.",
                       "You stack {card} by its flex side ({side}): {total} to draw now."),
        "counter": ("{who} answers the duel with {card}: a counter-duel on {value}.",
                    "You answer the duel with {card}: a counter-duel on {value}."),
        "jump": ("{who} jumps in with {card}.", "You jump in with {card}."),
        "discard": ("{who} discards {card}.", "You discard {card}."),
        "draw": ("{who} draws {cards}.", "You draw {cards}: {names}."),
        "draw_why": ("{who} draws {cards} ({why}).", "You draw {cards} ({why}): {names}."),
        "dry": ("{who} should draw, but no card is left to draw.", "You should draw, but no card is left to draw."),
        "reshuffle": ("The discard pile is shuffled into a new draw pile.", ""),
        "color": ("The colour to follow is now {color}.", ""),
        "direction": ("The direction of play changes.", ""),
        "power": ("{who}'s {power} turns {state}.", "Your {power} turns {state}."),
        "swap": ("{who} swaps hands with {other}.", "You swap hands with {other}."),
        "swapped": ("{who} swaps hands with you.", ""),
        "pass": ("Every player passes their hand on.", ""),
        "steal": ("{who} takes a card from {other}.", "You take {card} from {other}."),
        "stolen": ("{who} takes {card} from you.", ""),
        "knockout": ("{who} holds too many cards and is out of the hand.",
                     "You hold too many cards and are out of the hand."),
        "owe": ("{who} will lose a turn.", "You will lose a turn."),
        "owe_k": ("{who} will lose {k} turns.", "You will lose {k} turns."),
        "served": ("{who} loses this turn.", "You lose this turn."),
        "pending": ("A penalty of {cards} waits for {who}.", "A penalty of {cards} waits for you."),
        "duel": ("A duel on {value}: each player in turn discards a card showing {value} or draws {cards}.", ""),
        "duel_end": ("The duel is over.", ""),
        "uno": ("{who} says UNO!", "You say UNO!"),
        "no_uno": ("{who} has one card left and says nothing.", "You have one card left and say nothing."),
        "caught": ("{who} catches {other} without UNO.", "You catch {other} without UNO."),
        "caught_you": ("{who} catches you without UNO.", ""),
        "challenge_guilty": ("{who} challenges {other}: the card was not allowed, {other} draws instead.",
                             "You challenge {other}: the card was not allowed, {other} draws instead."),
        "challenge_fair": ("{who} challenges {other}: the card was allowed, {who} draws the extra cards.",
                           "You challenge {other}: the card was allowed, you draw the extra cards."),
        "win": ("{who} wins the hand and scores {points}.", "You win the hand and score {points}."),
        "stalled": ("The hand cannot go on (no card left to draw and nobody can play): nobody wins it.", ""),
        "capped": ("The hand ran past the turn limit: nobody wins it.", ""),
        "match": ("{who} wins the game with {points}.", "You win the game with {points}."),
    },
    "es": {
        "deal": ("Se reparten las cartas: {cards} por jugador.", ""),
        "start": ("La primera carta es {card}.", ""),
        "aside": ("{card} se aparta: la primera carta tiene que ser de número.", ""),
        "return": ("{card} vuelve a la pila para robar y se destapa otra.", ""),
        "play": ("{who} juega {card}.", "Juegas {card}."),
        "play_flex": ("{who} juega {card} por su lado flex: {side}.", "Juegas {card} por su lado flex: {side}."),
        "stack": ("{who} acumula {card}: ahora hay que robar {total}.", "Acumulas {card}: ahora hay que robar {total}."),
        "stack_flex": ("{who} acumula {card} por su lado flex ({side}): ahora hay que robar {total}.",
                       "Acumulas {card} por su lado flex ({side}): ahora hay que robar {total}."),
        "counter": ("{who} responde al duelo con {card}: un contraduelo al {value}.",
                    "Respondes al duelo con {card}: un contraduelo al {value}."),
        "jump": ("{who} se adelanta con {card}.", "Te adelantas con {card}."),
        "discard": ("{who} descarta {card}.", "Descartas {card}."),
        "draw": ("{who} roba {cards}.", "Robas {cards}: {names}."),
        "draw_why": ("{who} roba {cards} ({why}).", "Robas {cards} ({why}): {names}."),
        "dry": ("{who} tendría que robar, pero no quedan cartas.", "Tendrías que robar, pero no quedan cartas."),
        "reshuffle": ("La pila de descartes se baraja y forma una nueva pila para robar.", ""),
        "color": ("Ahora hay que seguir el color {color}.", ""),
        "direction": ("El sentido del juego cambia.", ""),
        "power": ("La {power} de {who} pasa a {state}.", "Tu {power} pasa a {state}."),
        "swap": ("{who} cambia su mano con {other}.", "Cambias tu mano con {other}."),
        "swapped": ("{who} cambia su mano con la tuya.", ""),
        "pass": ("Cada jugador pasa su mano al siguiente.", ""),
        "steal": ("{who} le quita una carta a {other}.", "Le quitas {card} a {other}."),
        "stolen": ("{who} te quita {card}.", ""),
        "knockout": ("{who} tiene demasiadas cartas y queda fuera de la ronda.",
                     "Tienes demasiadas cartas y quedas fuera de la ronda."),
        "owe": ("{who} perderá un turno.", "Perderás un turno."),
        "owe_k": ("{who} perderá {k} turnos.", "Perderás {k} turnos."),
        "served": ("{who} pierde este turno.", "Pierdes este turno."),
        "pending": ("Un castigo de {cards} espera a {who}.", "Un castigo de {cards} te espera."),
        "duel": ("Un duelo al {value}: cada jugador, por turno, descarta una carta con un {value} o roba {cards}.",
                 ""),
        "duel_end": ("El duelo termina.", ""),
        "uno": ("{who} dice ¡UNO!", "Dices ¡UNO!"),
        "no_uno": ("A {who} le queda una carta y no dice nada.", "Te queda una carta y no dices nada."),
        "caught": ("{who} pilla a {other} sin decir UNO.", "Pillas a {other} sin decir UNO."),
        "caught_you": ("{who} te pilla sin decir UNO.", ""),
        "challenge_guilty": ("{who} desafía a {other}: la carta no estaba permitida, roba {other}.",
                             "Desafías a {other}: la carta no estaba permitida, roba {other}."),
        "challenge_fair": ("{who} desafía a {other}: la carta estaba permitida, {who} roba las cartas de más.",
                           "Desafías a {other}: la carta estaba permitida, robas las cartas de más."),
        "win": ("{who} gana la ronda y suma {points}.", "Ganas la ronda y sumas {points}."),
        "stalled": ("La ronda no puede seguir (no quedan cartas para robar y nadie puede jugar): nadie la gana.",
                    ""),
        "capped": ("La ronda pasó del límite de turnos: nadie la gana.", ""),
        "match": ("{who} gana la partida con {points}.", "Ganas la partida con {points}."),
    },
}

_WHY = {
    "en": {"penalty": "penalty", "stack": "stacked penalty", "everyone": "everyone draws", "duel": "duel",
           "challenge": "challenge", "uno": "no UNO", "roulette": "until the colour appears"},
    "es": {"penalty": "castigo", "stack": "castigo acumulado", "everyone": "todos roban", "duel": "duelo",
           "challenge": "desafío", "uno": "sin UNO", "roulette": "hasta que sale el color"},
}

#: The page's labels. The page has no words of its own: it shows these.
UI: dict[str, dict[str, str]] = {
    "en": {
        "you": "You", "bot": "Bot {n}", "draw_pile": "Draw pile", "discard_pile": "Discard pile",
        "turn": "Turn", "your_turn": "Your turn", "waiting": "{who} is thinking…", "direction": "Direction",
        "clockwise": "clockwise", "counter": "anticlockwise", "colour": "Colour", "no_colour": "none (colourless)",
        "penalty": "Penalty waiting", "duel": "Duel", "log": "What happened", "hand": "Your hand",
        "new_game": "New game", "replay": "Replay this seed", "next_hand": "Next hand",
        "hand_over": "The hand is over", "game_over": "The game is over", "points": "points", "total": "total",
        "target": "first to {n} points", "seed": "seed {seed}", "hand_no": "hand {n}", "out": "out",
        "green": "green", "red": "red",
        "help_keys": "Keys: H your hand (← → move, Enter plays), 1–9 answer, D draw or take, U UNO, "
                     "N new game, R replay",
        "out_of_sync": "That answer was no longer current; the table has been brought up to date.",
        "lost": "Lost contact with the table; trying again…", "card_text": "Card",
        "q_play": "Play a card or draw.", "q_play_nodraw": "Play a card.",
        "q_play_drawn": "You drew {card}. Play it?", "q_stack": "A penalty of {cards} waits for you: stack or take it.",
        "q_challenge": "Challenge {who}'s card?", "q_color": "Choose the colour to follow.",
        "q_roulette_color": "Name a colour: you turn cards until it appears.",
        "q_target": "Choose a player.", "q_swap": "Choose the player to swap hands with.",
        "q_steal": "Choose the player to take a card from.",
        "q_duel": "Duel on {value}: discard a card showing {value}, or counter with a duel card.",
        "q_uno": "You have one card left.", "q_catch": "{who} did not say UNO. Catch them?",
        "q_jump_in": "You hold {card}, the same as the top card. Jump in?",
        "a_draw": "Draw", "a_keep": "Keep it", "a_take": "Take {cards}",
        "a_challenge": "Challenge", "a_accept": "Do not challenge", "a_uno": "UNO!", "a_silent": "Say nothing",
        "a_catch": "Catch {who}", "a_let": "Let it go", "a_jump": "Jump in", "a_wait": "Wait",
        "a_play": "Play {card}", "a_flex": "Flex side: {side}",
        "a_counter": "Counter-duel with {card}", "a_discard": "Discard {card}", "a_player": "{who} ({cards})",
        "a_choose_side": "Which side of {card}?", "a_cancel": "Back",
        "cards_left": "Cards left in the hand",
        "your_answer": "Your answer", "pick_card": "The cards you can use are lifted: pick one in your hand.",
        "owed_badge": "turns lost: {n}",
    },
    "es": {
        "you": "Tú", "bot": "Bot {n}", "draw_pile": "Para robar", "discard_pile": "Descartes",
        "turn": "Turno", "your_turn": "Te toca", "waiting": "{who} está pensando…", "direction": "Sentido",
        "clockwise": "horario", "counter": "antihorario", "colour": "Color", "no_colour": "ninguno (incoloro)",
        "penalty": "Castigo pendiente", "duel": "Duelo", "log": "Lo que ha pasado", "hand": "Tu mano",
        "new_game": "Nueva partida", "replay": "Repetir esta semilla", "next_hand": "Siguiente ronda",
        "hand_over": "La ronda ha terminado", "game_over": "La partida ha terminado",
        "points": "puntos", "total": "total", "target": "gana quien llegue a {n} puntos", "seed": "semilla {seed}",
        "hand_no": "ronda {n}", "out": "fuera", "green": "verde", "red": "rojo",
        "help_keys": "Teclas: H tu mano (← → moverse, Intro juega), 1–9 responder, D robar o cargar, U UNO, "
                     "N nueva partida, R repetir",
        "out_of_sync": "Esa respuesta ya no valía; la mesa se ha puesto al día.",
        "lost": "Se perdió el contacto con la mesa; reintentando…", "card_text": "Carta",
        "q_play": "Juega una carta o roba.", "q_play_nodraw": "Juega una carta.",
        "q_play_drawn": "Has robado {card}. ¿La juegas?",
        "q_stack": "Te espera un castigo de {cards}: acumula o cárgalo.",
        "q_challenge": "¿Desafías la carta de {who}?", "q_color": "Elige el color que hay que seguir.",
        "q_roulette_color": "Nombra un color: destapas cartas hasta que salga.",
        "q_target": "Elige un jugador.", "q_swap": "Elige con quién cambias la mano.",
        "q_steal": "Elige a quién le quitas una carta.",
        "q_duel": "Duelo al {value}: descarta una carta con un {value} o responde con una carta de duelo.",
        "q_uno": "Te queda una carta.", "q_catch": "{who} no ha dicho UNO. ¿Le pillas?",
        "q_jump_in": "Tienes {card}, igual que la carta de arriba. ¿Te adelantas?",
        "a_draw": "Robar", "a_keep": "Quedármela", "a_take": "Robar {cards}",
        "a_challenge": "Desafiar", "a_accept": "No desafiar", "a_uno": "¡UNO!", "a_silent": "No decir nada",
        "a_catch": "Pillar a {who}", "a_let": "Dejarlo", "a_jump": "Adelantarme", "a_wait": "Esperar",
        "a_play": "Jugar {card}", "a_flex": "Lado flex: {side}",
        "a_counter": "Contraduelo con {card}", "a_discard": "Descartar {card}", "a_player": "{who} ({cards})",
        "a_choose_side": "¿Qué lado de {card}?", "a_cancel": "Volver",
        "cards_left": "Cartas que le quedan",
        "your_answer": "Te toca responder",
        "pick_card": "Las cartas que puedes usar están resaltadas: elige una de tu mano.",
        "owed_badge": "turnos perdidos: {n}",
    },
}


def ui(lang: str) -> dict[str, str]:
    return UI[lang_of(lang)]


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
        return f"{n} {self.ui['points']}" if n != 1 else ("1 punto" if self.lang == "es" else "1 point")

    def card_text(self, card_id: str) -> dict[str, Any]:
        """The card's name, its rulebook group's name and the rulebook's paragraphs about it."""
        return self._texts[card_id]

    # ---------------------------------------------------------------- sentences
    def say(self, key: str, who: int | None, viewer: int, **kw: Any) -> str:
        other, mine = _LOG[self.lang][key]
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
                                names=", ".join(self.card(f) for f in faces), why=_WHY[self.lang].get(why, why))
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
            return self.say("counter", e.player, viewer, card=name, value=t.val[e.move >> 1])
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
            return "you" if self.lang == "en" else "ti"
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
