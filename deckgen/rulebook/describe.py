"""Card descriptions generated from effect primitives, flags and rule options (es, en).

Nothing here knows a card by name: a homemade "Wild Draw 20" (draw 20, choose colour)
is described correctly without new text, and changing a manifest changes the words.

An effect list is first turned into its meaning (:mod:`deckgen.rulebook.meaning`: who draws how
many, who loses how many turns, who plays next); the sentences are written from that model, so a
composed card such as ``[{op="draw", n=3}, "skip"]`` reads as one statement about one player.
:data:`PHRASES` holds each primitive's words in both languages and what it does as a first card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from deckgen.effects import Effect
from deckgen.model import NUMBER, WILD, Deck, Kind
from deckgen.rulebook.groups import Group, flex_offset
from deckgen.rulebook.meaning import CHOSEN, NEXT, NEXT_NEW, OPPONENT, YOU, Fate, Meaning, meaning, seat_outcome
from deckgen.rulebook.words import cards_word, color_name, join, lang_of, number_word, power_name, values_text

ACTS, IDLE, ALL = "acts", "idle", "all"


@dataclass(frozen=True)
class Phrase:
    """One primitive's words. ``say``: its sentence when it has one of its own (keys of a language's
    table, per parameter value where it has one); ``start``: what it does as the first card turned
    under the classic start rule (acts on the first player, does nothing, or acts on every player)."""

    en: Mapping[str, str]
    es: Mapping[str, str]
    start: str = ACTS

    def get(self, lang: str, key: str) -> str:
        return (self.es if lang_of(lang) == "es" else self.en)[key]


def _ph(en: dict[str, str], es: dict[str, str], start: str = ACTS) -> Phrase:
    return Phrase(MappingProxyType(en), MappingProxyType(es), start)


#: Each primitive's words (the rulebook layer of the effect registry).
PHRASES: Mapping[str, Phrase] = MappingProxyType({
    "skip": _ph({"lose": "loses their turn"}, {"lose": "pierde su turno"}),
    "skip_all": _ph({"say": "Every other player is passed over: you play again straight away."},
                    {"say": "Te saltas a todos los demás jugadores: vuelves a jugar enseguida."}, IDLE),
    "play_again": _ph({"say": "You take another turn straight away."},
                      {"say": "Juegas otro turno enseguida."}, IDLE),
    "reverse": _ph({"say": "The direction of play changes."}, {"say": "El sentido del juego cambia."}),
    "target": _ph({"who": "A player of your choice", "who2": "Another player of your choice"},
                  {"who": "El jugador que tú elijas", "who2": "Otro jugador que tú elijas"}),
    "draw": _ph({"draw": "draws {cards}", "draw_you": "draw {cards}"},
                {"draw": "roba {cards}", "draw_you": "robas {cards}"}),
    "everyone_draws": _ph({"say": "Every other player draws {cards}{keep}"},
                          {"say": "Cada uno de los demás jugadores roba {cards}{keep}"}, ALL),
    "choose_color": _ph({"say": "Then you name the colour that must be followed (you may keep the current one)."},
                        {"say": "Después eliges el color que hay que seguir (puedes mantener el actual)."}),
    "discard_color": _ph(
        {"say": "You also discard every other card of this card's colour from your hand, putting them under "
                "the card you played. If that empties your hand, you win the round."},
        {"say": "Además descartas todas las demás cartas de ese color que tengas en la mano, debajo de la "
                "carta jugada. Si así te quedas sin cartas, ganas la ronda."}, IDLE),
    "swap_hands": _ph({"say": "You swap your whole hand with a player of your choice."},
                      {"say": "Cambias tu mano entera por la de un jugador que elijas."}, IDLE),
    "pass_hands": _ph(
        {"play": "Every player passes their whole hand to the next player in the current direction of play.",
         "left": "Every player passes their whole hand to the player on their left, whatever the direction "
                 "of play.",
         "right": "Every player passes their whole hand to the player on their right, whatever the "
                  "direction of play."},
        {"play": "Cada jugador pasa su mano entera al siguiente en el sentido del juego.",
         "left": "Cada jugador pasa su mano entera al jugador de su izquierda, sea cual sea el sentido del "
                 "juego.",
         "right": "Cada jugador pasa su mano entera al jugador de su derecha, sea cual sea el sentido del "
                  "juego."}, IDLE),
    "steal": _ph({"say": "Choose another player who holds two or more cards and take one card from their "
                         "hand without looking; it goes into your hand."},
                 {"say": "Elige a otro jugador que tenga dos cartas o más y quítale una carta de la mano sin "
                         "mirar; pasa a tu mano."},
                 IDLE),
    "roulette": _ph(
        {"say": "You do not name a colour. {who} names one and turns over cards from the draw pile, one by "
                "one, until a card of that colour appears (wild cards do not count). They take every card "
                "turned over and {lose}, and the colour they named must be followed."},
        {"say": "No eliges color. {who} nombra uno y va destapando cartas de la pila para robar, de una en "
                "una, hasta que sale una de ese color (los comodines no cuentan). Se queda con todas las "
                "cartas destapadas y {lose}, y el color que nombró es el que hay que seguir."}),
    "flip_power": _ph({"self": "You turn your own {power} over: green becomes red, red becomes green.",
                       "all": "Every player turns their {power} over: green becomes red, red becomes green."},
                      {"self": "Das la vuelta a tu {power}: de verde pasa a rojo y de rojo a verde.",
                       "all": "Todos los jugadores dan la vuelta a su {power}: de verde pasa a rojo y de rojo "
                              "a verde."}),
    "duel": _ph({"say": "It starts a duel (see “Duels”)."}, {"say": "Empieza un duelo (ver «Duelos»)."}, IDLE),
    "challenge": _ph({"say": "The player who has to draw may challenge it (see “Challenges”)."},
                     {"say": "El jugador que debe robar puede desafiarla (ver «Desafíos»)."}),
})

def start_idle(kind: Kind) -> bool:
    """Whether, as the first card under the classic start rule, part of this kind's effect does
    nothing because nobody played it."""
    return any(PHRASES[e.op].start == IDLE or (e.op == "flip_power" and e.who == "self") for e in kind.effects)


def start_all(kind: Kind) -> bool:
    return any(PHRASES[e.op].start == ALL for e in kind.effects)


_T = {
    "en": {
        "wild_lead": "Play it on any card.",
        "wild_lead_no_color": "Play it on any card, but only when you hold no card of the current colour "
                              "(cards that match only by number or symbol do not count).",
        "wild_lead_no_play": "Play it on any card, but only when you hold no other card you could play "
                             "(wild cards included; another card with this same condition does not count).",
        "legal_no_color": "You may use it only when you hold no card of the current colour "
                          "(cards that match only by number or symbol do not count).",
        "legal_no_play": "You may use it only when you hold no other card you could play (wild cards included; "
                         "another card with this same condition does not count).",
        "who_next": "The next player", "who_next_new": "The next player in the new direction",
        "who_opponent": "Your opponent", "who_you": "You",
        "lose_1": "loses their turn", "lose_2": "loses their next two turns", "lose_k": "loses their next {k} turns",
        "they_lose_1": "lose their turn", "they_lose_2": "lose their next two turns",
        "they_lose_k": "lose their next {k} turns",
        "fate_draw_lose": "{who} {draw} and {lose}.",
        "fate_draw_keep": "{who} {draw} and still plays their turn.",
        "fate_you_draw": "{who} {draw}.",
        "fate_lose": "{who} {lose}.",
        "keep": "; nobody loses a turn.",
        "keep_other": ".",
        "stack_any": "They may pass the penalty on instead (see “Stacking draw cards”).",
        "stack_part": "They may pass the {cards} on instead by stacking a draw card (see “Stacking draw "
                      "cards”), but {extra} stays with them.",
        "extra_1": "the other lost turn", "extra_k": "the other {k} lost turns",
        "owed": "A lost turn is still served when that player's turn comes round.",
        "two_skip": "With two players it works like a skip: you play again.",
        "two_plain": "With two players it only changes direction, so your opponent plays next.",
        "two_fates": "With two players, {text}",
        "fate_you": "You {draw} yourself{lose}{stack}.",
        "then_opponent": "Then your opponent plays.", "then_you": "Then you play again.",
        "you_lose_1": " and lose your turn", "you_lose_2": " and lose your next two turns",
        "you_lose_k": " and lose your next {k} turns",
        "rev_draw_2p_stacked": "Played to answer a stack, it sends the total to your opponent as usual.",
        "rev_draw_2p_stack": ", unless you stack a draw card to send them back",
        "number_match": "Play it on a card of the same colour or with the same number.",
        "action_match": "Play it on a card of the same colour or on another {name}.",
        "colorless": "Play it on any card. It leaves the pile without a colour: the next player may "
                     "play any number card (any colour, any number) but no action or wild card, and "
                     "draws as usual without one.",
        "flip_icon": "It carries the flip icon: after playing it you turn your {power} over "
                     "(green becomes red, red becomes green).",
        "duel": "It starts a duel: once round the table, each other player must discard a card showing "
                "a {value} or draw {cards} (see “Duels”).",
        "seven": "Each 7 makes you swap hands with a player of your choice (see “Sevens and zeros”).",
        "zero": "Each 0 makes every player pass their hand to the next player in the direction of play "
                "(see “Sevens and zeros”).",
        "flex_number": "Flex side: the same number in {where}. {may} play it by this side, "
                       "matching that colour or the number on the pile.",
        "flex_card": "Flex side: {name}, in {where}. {may} play it by this side, "
                     "matching that colour or the symbol on the pile, and then this effect applies instead: {text}",
        "flex_wild": "Flex side: {name}. {may} play it by this side{cond}, and then "
                     "this effect applies instead: {text}",
        "may_power": "With your {power} green you may",
        "may_free": "You may",
        "cond_no_color": " (only when you hold no card of the current colour)",
        "cond_no_play": (" (only when you hold no other card you could play, wild cards included, "
                         "another card with this same condition aside)"),
        "after_centre": "Whichever side you use, the colour to follow is then the centre colour of the card.",
        "after_named": "By its regular side the colour to follow is then the centre colour of the card; "
                       "by its flex side you name the colour, as that side says.",
        "after_power": "Using the flex side turns your {power} red.",
        "offset": "the colour {k} places after the card's own (on a {c0} card: {c1})",
        "one_place": "the colour right after the card's own (on a {c0} card: {c1})",
        "by_value": "another colour: {parts}",
        "by_value_part": "on the {v} it is the colour {k} places after the card's own",
        "by_value_one": "on the {v} it is the colour right after the card's own",
        "various": "another colour, shown on the card",
    },
    "es": {
        "wild_lead": "Se juega sobre cualquier carta.",
        "wild_lead_no_color": "Se juega sobre cualquier carta, siempre que no te quede ninguna carta del color "
                              "en juego (las que solo coinciden en número o símbolo no cuentan).",
        "wild_lead_no_play": "Se juega sobre cualquier carta, siempre que no te quede ninguna otra carta que "
                             "puedas jugar (comodines incluidos; otra carta con esta misma condición no cuenta).",
        "legal_no_color": "Solo puedes usarla si no tienes ninguna carta del color en juego "
                          "(las que solo coinciden en número o símbolo no cuentan).",
        "legal_no_play": "Solo puedes usarla si no tienes ninguna otra carta que puedas jugar (comodines incluidos; "
                         "otra carta con esta misma condición no cuenta).",
        "who_next": "El siguiente jugador", "who_next_new": "El siguiente jugador en el nuevo sentido",
        "who_opponent": "Tu rival", "who_you": "Tú",
        "lose_1": "pierde su turno", "lose_2": "pierde sus dos próximos turnos",
        "lose_k": "pierde sus próximos {k} turnos",
        "they_lose_1": "pierde su turno", "they_lose_2": "pierde sus dos próximos turnos",
        "they_lose_k": "pierde sus próximos {k} turnos",
        "fate_draw_lose": "{who} {draw} y {lose}.",
        "fate_draw_keep": "{who} {draw} y juega su turno como siempre.",
        "fate_you_draw": "{who} {draw}.",
        "fate_lose": "{who} {lose}.",
        "keep": "; nadie pierde el turno.",
        "keep_other": ".",
        "stack_any": "En lugar de robar puede pasar el castigo (ver «Acumular cartas de robo»).",
        "stack_part": "Puede pasar las {cards} a otro acumulando una carta de robo (ver «Acumular cartas de "
                      "robo»), pero {extra} no se lo quita nadie.",
        "extra_1": "el otro turno perdido", "extra_k": "los otros {k} turnos perdidos",
        "owed": "Un turno perdido se cumple igualmente cuando le llega el turno a ese jugador.",
        "two_skip": "Con dos jugadores funciona como un salto: vuelves a jugar tú.",
        "two_plain": "Con dos jugadores solo cambia el sentido, así que juega tu rival.",
        "two_fates": "Con dos jugadores, {text}",
        "fate_you": "Tú {draw}{lose}{stack}.",
        "then_opponent": "Después juega tu rival.", "then_you": "Después vuelves a jugar tú.",
        "you_lose_1": " y pierdes tu turno", "you_lose_2": " y pierdes tus dos próximos turnos",
        "you_lose_k": " y pierdes tus próximos {k} turnos",
        "rev_draw_2p_stacked": "Si la juegas para acumular sobre un castigo, el total pasa a tu rival como siempre.",
        "rev_draw_2p_stack": ", salvo que acumules una carta de robo para devolvérselas",
        "number_match": "Se juega sobre una carta del mismo color o del mismo número.",
        "action_match": "Se juega sobre una carta del mismo color o sobre otra carta {name}.",
        "colorless": "Se juega sobre cualquier carta. Deja la pila sin color: el siguiente jugador puede "
                     "jugar cualquier carta de número (de cualquier color y número), pero ninguna de acción "
                     "ni comodín; si no tiene ninguna, roba como siempre.",
        "flip_icon": "Lleva el icono de voltear: después de jugarla das la vuelta a tu {power} "
                     "(de verde pasa a rojo y de rojo a verde).",
        "duel": "Empieza un duelo: en una vuelta a la mesa, cada uno de los demás jugadores debe descartar "
                "una carta con un {value} o robar {cards} (ver «Duelos»).",
        "seven": "Cada 7 te obliga a cambiar tu mano con un jugador que elijas (ver «Sietes y ceros»).",
        "zero": "Cada 0 hace que todos pasen su mano al siguiente en el sentido del juego (ver «Sietes y ceros»).",
        "flex_number": "Lado flex: el mismo número en {where}. {may} jugarla por "
                       "este lado, coincidiendo con ese color o con el número de la pila.",
        "flex_card": "Lado flex: {name}, en {where}. {may} jugarla por este lado, "
                     "coincidiendo con ese color o con el símbolo de la pila, y entonces se aplica este "
                     "efecto en su lugar: {text}",
        "flex_wild": "Lado flex: {name}. {may} jugarla por este lado{cond}, y "
                     "entonces se aplica este efecto en su lugar: {text}",
        "may_power": "Con tu {power} en verde puedes",
        "may_free": "Puedes",
        "cond_no_color": " (solo si no tienes ninguna carta del color en juego)",
        "cond_no_play": (" (solo si no tienes ninguna otra carta que puedas jugar, comodines incluidos, "
                         "salvo otra carta con esta misma condición)"),
        "after_centre": "Uses el lado que uses, después hay que seguir el color central de la carta.",
        "after_named": "Por el lado regular, después hay que seguir el color central de la carta; por el "
                       "lado flex eliges tú el color, como dice ese lado.",
        "after_power": "Usar el lado flex pone tu {power} en rojo.",
        "offset": "el color que está {k} puestos después del suyo (en una carta de color {c0}: {c1})",
        "one_place": "el color siguiente al suyo (en una carta de color {c0}: {c1})",
        "by_value": "otro color: {parts}",
        "by_value_part": "en el {v} es el color que está {k} puestos después del suyo",
        "by_value_one": "en el {v} es el color siguiente al suyo",
        "various": "otro color, el que muestra la carta",
    },
}


def phrase(lang: str, key: str, **kw: object) -> str:
    return _T[lang_of(lang)][key].format(**kw)


def _who(lang: str, role: str) -> str:
    if role.startswith(CHOSEN):
        return PHRASES["target"].get(lang, "who" if role == CHOSEN else "who2")
    return phrase(lang, {NEXT: "who_next", NEXT_NEW: "who_next_new", OPPONENT: "who_opponent", YOU: "who_you"}[role])


def _lose(lang: str, k: int, they: bool = False) -> str:
    pre = "they_lose_" if they else "lose_"
    if k == 1:
        return PHRASES["skip"].get(lang, "lose") if not they else phrase(lang, pre + "1")
    return phrase(lang, pre + "2") if k == 2 else phrase(lang, pre + "k", k=number_word(lang, k))


def fate_sentences(lang: str, f: Fate) -> list[str]:
    """What one player's fate says: their draws and lost turns in one sentence, then how they may
    pass a penalty on."""
    who = _who(lang, f.role)
    out: list[str] = []
    if f.hits:
        draw = PHRASES["draw"].get(lang, "draw_you" if f.role == YOU else "draw").format(
            cards=cards_word(lang, f.drawn))
        if f.role == YOU:
            lose = "" if not f.lost else phrase(lang, "you_lose_1") if f.lost == 1 else \
                phrase(lang, "you_lose_2") if f.lost == 2 else phrase(lang, "you_lose_k", k=number_word(lang, f.lost))
            stack = phrase(lang, "rev_draw_2p_stack") if any(h.stack for h in f.hits) else ""
            out.append(phrase(lang, "fate_you", draw=draw, lose=lose, stack=stack))
        elif f.roulette or not f.lost:
            out.append(phrase(lang, "fate_draw_keep" if not f.lost else "fate_you_draw", who=who, draw=draw))
        else:
            out.append(phrase(lang, "fate_draw_lose", who=who, draw=draw, lose=_lose(lang, f.lost)))
    elif f.lost and not f.roulette:
        out.append(phrase(lang, "fate_lose", who=who, lose=_lose(lang, f.lost)))
    if f.roulette:
        out.append(PHRASES["roulette"].get(lang, "say").format(who=who, lose=_lose(lang, f.lost, they=True)))
    stacked = [h for h in f.hits if h.stack]
    if stacked and f.role != YOU:
        extra = f.lost - f.stacked_lost
        if extra:
            words = phrase(lang, "extra_1") if extra == 1 else phrase(lang, "extra_k", k=number_word(lang, extra))
            out.append(phrase(lang, "stack_part", cards=cards_word(lang, sum(h.n for h in stacked)), extra=words))
        else:
            out.append(phrase(lang, "stack_any"))
    return out


def _op_sentence(deck: Deck, lang: str, e: Effect, m: Meaning) -> str:
    words = PHRASES[e.op]
    if e.op == "everyone_draws":
        keep = phrase(lang, "keep" if not m.lost_total else "keep_other")
        return words.get(lang, "say").format(cards=cards_word(lang, e.n or 0), keep=keep)
    if e.op == "flip_power":
        return words.get(lang, "all" if e.who == "all" else "self").format(power=power_name(deck, lang))
    if e.op == "pass_hands":
        return words.get(lang, e.direction)
    if e.op == "challenge":
        may = any(h.challenge for f in m.fates.values() for h in f.hits)
        return words.get(lang, "say") if may else ""
    if e.op == "reverse":
        return words.get(lang, "say")
    return words.get(lang, "say")


def _two_players(deck: Deck, effects: tuple[Effect, ...], lang: str) -> list[str]:
    """The two-player sentences of a card that reverses (at two players 'next' is always the opponent)."""
    opts = deck.rule_options
    m2 = meaning(effects, opts, 2)
    late: list[str] = []
    if YOU in m2.fates and any(h.stack for h in m2.fates[YOU].hits):
        late.append(phrase(lang, "rev_draw_2p_stacked"))      # two_player_reverse_draw = "player"
    if not m2.fates:
        return [phrase(lang, "two_plain")] if not m2.again else []
    if (list(m2.fates) == [OPPONENT] and m2.reverse_as_skip and m2.fates[OPPONENT].lost == 1 and not m2.again
            and not m2.fates[OPPONENT].hits):
        return [phrase(lang, "two_skip")]
    text = " ".join(s for f in m2.fates.values() for s in fate_sentences(lang, f))
    if m2.again and m2.lost_total:
        text += " " + phrase(lang, "owed")
    nxt = seat_outcome(effects, opts, 2, turns=1).turns[0]
    text += " " + phrase(lang, "then_you" if nxt == 0 else "then_opponent")
    return [phrase(lang, "two_fates", text=_embedded(text, lang)), *late]


def effects_text(deck: Deck, effects: tuple[Effect, ...], lang: str, *, wild: bool = False,
                 restrict: bool = True) -> str:
    """The sentences for an effect list, generated from its meaning (the order of the list, each
    player's draws and lost turns said once), under the deck's rule options (restrict: say when a
    card with a 'challenge' effect may be played)."""
    opts = deck.rule_options
    out: list[str] = []
    ops = [e.op for e in effects]
    legal = opts.wild_draw_four_legal
    if wild:
        key = "wild_lead"
        if "challenge" in ops and legal == "no-current-color":
            key = "wild_lead_no_color"
        elif "challenge" in ops and legal == "no-playable-card":
            key = "wild_lead_no_play"
        out.append(phrase(lang, key))
    elif restrict and "challenge" in ops and legal in ("no-current-color", "no-playable-card"):
        out.append(phrase(lang, "legal_no_color" if legal == "no-current-color" else "legal_no_play"))
    m = meaning(effects, opts, 3)
    for step in m.steps:
        if step.what == "fate" and step.role is not None:
            out.extend(fate_sentences(lang, m.fates[step.role]))
        elif step.effect is not None:
            out.append(_op_sentence(deck, lang, step.effect, m))
    if m.again and m.lost_total:
        out.append(phrase(lang, "owed"))
    if "reverse" in ops:
        out.extend(_two_players(deck, effects, lang))
    return " ".join(s for s in out if s)


def _embedded(text: str, lang: str) -> str:
    """A description placed after a colon goes on in lower case (es and en)."""
    return text[:1].lower() + text[1:] if text else text


def _where(deck: Deck, group: Group, lang: str) -> str:
    k = flex_offset(deck, group)
    if k is None:
        by_value = [flex_offset(deck, Group(group.key, group.kind, group.category,
                                            tuple(c for c in group.cards if c.value == v))) for v in group.values]
        if not group.values or None in by_value:
            return phrase(lang, "various")
        parts = [phrase(lang, "by_value_one" if k == 1 else "by_value_part", v=v, k=k)
                 for v, k in zip(group.values, by_value)]
        return phrase(lang, "by_value", parts=join(parts, lang))
    card = group.first
    assert card.color is not None and card.flex is not None and card.flex.color is not None  # flex_offset
    c0, c1 = color_name(deck, card.color, lang), color_name(deck, card.flex.color, lang)
    return phrase(lang, "one_place" if k == 1 else "offset", k=k, c0=c0, c1=c1)


def _flex_after(deck: Deck, group: Group, fkind: Kind, lang: str) -> list[str]:
    """What follows a flex side: the colour to follow (the centre colour after either side; a side
    that names a colour names it) and, with Power cards, what using the flex side costs."""
    out: list[str] = []
    if group.category != WILD:
        out.append(phrase(lang, "after_named" if fkind.has("choose_color") else "after_centre"))
    if deck.rule_options.power_cards:
        out.append(phrase(lang, "after_power", power=power_name(deck, lang)))
    return out


def group_text(deck: Deck, group: Group, lang: str) -> list[str]:
    """The paragraphs describing one group of cards: how it is played, what it does, its flex side."""
    kind = deck.kinds[group.kind]
    card = group.first
    if group.category == NUMBER:
        first = _number_sentences(deck, group, lang)
    elif group.category == WILD:
        first = [effects_text(deck, kind.effects, lang, wild=True)]
    else:
        first = [phrase(lang, "action_match", name=kind.names.get(lang)), effects_text(deck, kind.effects, lang)]
    paras = [" ".join(s for s in first if s)]
    if card.flex:
        paras += _flex_text(deck, group, lang)
    return paras


def _number_sentences(deck: Deck, group: Group, lang: str) -> list[str]:
    """How a number card is played: matching, its flip icon, duel, the 7-0 rule, its own effects."""
    kind = deck.kinds[group.kind]
    opts = deck.rule_options
    card = group.first
    first = [phrase(lang, "colorless" if card.colorless else "number_match")]
    if card.flip_icon:
        first.append(phrase(lang, "flip_icon", power=power_name(deck, lang)))
    if card.duel:
        first.append(phrase(lang, "duel", value=values_text(group.values, lang),
                            cards=cards_word(lang, int(opts.duel_penalty))))
    if opts.seven_zero and not card.duel:
        if 7 in group.values:
            first.append(phrase(lang, "seven"))
        if 0 in group.values:
            first.append(phrase(lang, "zero"))
    if kind.effects:
        first.append(effects_text(deck, kind.effects, lang))
    return first


def _flex_text(deck: Deck, group: Group, lang: str) -> list[str]:
    """The paragraphs on a group's flex side: when it may be played and what it does, then what follows."""
    opts = deck.rule_options
    flex = group.first.flex
    assert flex is not None
    power = power_name(deck, lang)
    fkind = deck.kinds[flex.kind]
    may = phrase(lang, "may_power", power=power) if opts.power_cards else phrase(lang, "may_free")
    paras: list[str] = []
    if fkind.category == NUMBER:
        paras.append(phrase(lang, "flex_number", value=values_text(group.values, lang),
                            where=_where(deck, group, lang), may=may))
    elif flex.color is None:
        legal = opts.wild_draw_four_legal
        cond = ""
        if fkind.has("challenge") and legal in ("no-current-color", "no-playable-card"):
            cond = phrase(lang, "cond_no_color" if legal == "no-current-color" else "cond_no_play")
        paras.append(phrase(lang, "flex_wild", name=fkind.names.get(lang), may=may, cond=cond,
                            text=_embedded(effects_text(deck, fkind.effects, lang, restrict=False), lang)))
    else:
        paras.append(phrase(lang, "flex_card", name=fkind.names.get(lang), where=_where(deck, group, lang),
                            may=may, text=_embedded(effects_text(deck, fkind.effects, lang), lang)))
    after = _flex_after(deck, group, fkind, lang)
    if after:
        paras.append(" ".join(after))
    return paras


_NAME_WORDS = {
    "en": {"flip": "with flip icon", "duel": "duel", "colorless": "colourless", "flex": "Flex"},
    "es": {"flip": "con icono de voltear", "duel": "de duelo", "colorless": "incoloro", "flex": "flex"},
}


def group_name(deck: Deck, group: Group, lang: str) -> str:
    """"Skip / Skip All", "Number (duel)", "Flex number": a name for a group of cards."""
    w = _NAME_WORDS[lang_of(lang)]
    kind = deck.kinds[group.kind]
    card = group.first
    if card.colorless and len({c.name(lang) for c in group.cards}) == 1:
        return card.name(lang)      # one card: its own display name ("0 incoloro"), as everywhere else
    name = kind.names.get(lang)
    if card.colorless:
        name = f"{name} {w['colorless']}" if lang_of(lang) == "es" else f"{w['colorless'].capitalize()} {name.lower()}"
    if card.flip_icon:
        name += f" {w['flip']}" if lang_of(lang) == "es" else f" ({w['flip']})"
    if card.duel:
        name += f" {w['duel']}" if lang_of(lang) == "es" else f" ({w['duel']})"
    if card.flex:
        fkind = deck.kinds[card.flex.kind]
        if card.flex.kind == group.kind:
            name = f"{name} {w['flex']}" if lang_of(lang) == "es" else f"{w['flex']} {name.lower()}"
        else:
            name = f"{name} / {fkind.names.get(lang)}"
    return name
