"""Card descriptions generated from effect primitives, flags and rule options (es, en).

Nothing here knows a card by name: a homemade "Wild Draw 20" (draw 20, choose colour)
is described correctly without new text, and changing a manifest changes the words.
"""

from __future__ import annotations

from deckgen.effects import Effect
from deckgen.model import NUMBER, WILD, Deck
from deckgen.rulebook.groups import Group, flex_offset
from deckgen.rulebook.words import cards_word, color_name, join, lang_of, power_name, values_text

_T = {
    "en": {
        "wild_lead": "Play it on any card.",
        "wild_lead_no_color": "Play it on any card, but only when you hold no card of the current colour "
                              "(cards that match only by number or symbol do not count).",
        "wild_lead_no_play": "Play it on any card, but only when you hold no other card you could play "
                             "(wild cards included).",
        "legal_no_color": "You may use it only when you hold no card of the current colour "
                          "(cards that match only by number or symbol do not count).",
        "legal_no_play": "You may use it only when you hold no other card you could play (wild cards included).",
        "skip": "The next player loses their turn.",
        "skip_all": "Every other player loses their turn, so you play again straight away.",
        "reverse": "The direction of play changes.",
        "reverse_2p_skip": "With two players it works like a skip: you play again.",
        "reverse_2p_plain": "With two players it only changes direction, so your opponent plays next.",
        "next": "The next player", "next_new": "The next player in the new direction",
        "target": "A player of your choice",
        "draw_lose": "{who} draws {cards} and loses their turn.",
        "draw_keep": "{who} draws {cards}; nobody loses a turn.",
        "stack_any": "They may pass the penalty on instead (see “Stacking draw cards”).",
        "rev_draw_2p_player": "With two players your opponent is skipped and you draw the {n} yourself{stack}.",
        "rev_draw_2p_stacked": "Played to answer a stack, it sends the total to your opponent as usual.",
        "rev_draw_2p_stack": ", unless you stack a draw card to send them back",
        "rev_draw_2p_opp": "With two players your opponent draws them.",
        "everyone_draws": "Every other player draws {cards}; nobody loses a turn.",
        "choose_color": "Then you name the colour that must be followed (you may keep the current one).",
        "discard_color": "You also discard every other card of this card's colour from your hand, "
                         "putting them under the card you played. If that empties your hand, you win the round.",
        "swap_hands": "You swap your whole hand with a player of your choice.",
        "pass_hands": "Every player passes their whole hand to the next player in the current direction.",
        "roulette": "You do not name a colour. The next player names one and turns over cards from the "
                    "draw pile, one by one, until a card of that colour appears (wild cards do not count). "
                    "They take every card turned over and lose their turn, and the colour they named "
                    "must be followed.",
        "flip_self": "You turn your own {power} over: green becomes red, red becomes green.",
        "flip_all": "Every player turns their {power} over: green becomes red, red becomes green.",
        "challenge": "The player who has to draw may challenge it (see “Challenges”).",
        "number_match": "Play it on a card of the same colour or with the same number.",
        "action_match": "Play it on a card of the same colour or on another {name}.",
        "colorless": "Play it on any card. It leaves the pile without a colour: the next player may "
                     "play any number card (any colour, any number) but no action or wild card, and "
                     "draws as usual without one.",
        "flip_icon": "It carries the flip icon: after playing it you turn your {power} over "
                     "(green becomes red, red becomes green).",
        "duel": "It starts a duel: every other player, in turn order, must discard a card showing a "
                "{value} or draw {cards} (see “Duels”).",
        "seven": "Each 7 makes you swap hands with a player of your choice (see “Sevens and zeros”).",
        "zero": "Each 0 makes every player pass their hand to the next player in the direction of play "
                "(see “Sevens and zeros”).",
        "flex_number": "Flex side: the same number in {where}. With your {power} green you may play it "
                       "by this side, matching that colour or the number on the pile.",
        "flex_card": "Flex side: {name}, in {where}. With your {power} green you may play it by this side, "
                     "matching that colour or the symbol on the pile, and then this effect applies instead: {text}",
        "flex_wild": "Flex side: {name}. With your {power} green you may play it by this side{cond}, and then "
                     "this effect applies instead: {text}",
        "cond_no_color": " (only when you hold no card of the current colour)",
        "cond_no_play": " (only when you hold no other card you could play, wild cards included)",
        "flex_after": "Whichever side you use, the colour to follow is then the centre colour of the card; "
                      "using the flex side turns your {power} red.",
        "flex_after_wild": "Using the flex side turns your {power} red.",
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
                             "puedas jugar (comodines incluidos).",
        "legal_no_color": "Solo puedes usarla si no tienes ninguna carta del color en juego "
                          "(las que solo coinciden en número o símbolo no cuentan).",
        "legal_no_play": "Solo puedes usarla si no tienes ninguna otra carta que puedas jugar (comodines incluidos).",
        "skip": "El siguiente jugador pierde su turno.",
        "skip_all": "Todos los demás jugadores pierden su turno, así que vuelves a jugar enseguida.",
        "reverse": "El sentido del juego cambia.",
        "reverse_2p_skip": "Con dos jugadores funciona como un salto: vuelves a jugar tú.",
        "reverse_2p_plain": "Con dos jugadores solo cambia el sentido, así que juega tu rival.",
        "next": "El siguiente jugador", "next_new": "El siguiente jugador en el nuevo sentido",
        "target": "El jugador que tú elijas",
        "draw_lose": "{who} roba {cards} y pierde su turno.",
        "draw_keep": "{who} roba {cards}; nadie pierde el turno.",
        "stack_any": "En lugar de robar puede pasar el castigo (ver «Acumular cartas de robo»).",
        "rev_draw_2p_player": "Con dos jugadores tu rival pierde el turno y las {n} cartas las robas tú{stack}.",
        "rev_draw_2p_stacked": "Si la juegas para acumular sobre un castigo, el total pasa a tu rival como siempre.",
        "rev_draw_2p_stack": ", salvo que acumules una carta de robo para devolvérselas",
        "rev_draw_2p_opp": "Con dos jugadores las roba tu rival.",
        "everyone_draws": "Cada uno de los demás jugadores roba {cards}; nadie pierde el turno.",
        "choose_color": "Después eliges el color que hay que seguir (puedes mantener el actual).",
        "discard_color": "Además descartas todas las demás cartas de ese color que tengas en la mano, "
                         "debajo de la carta jugada. Si así te quedas sin cartas, ganas la ronda.",
        "swap_hands": "Cambias tu mano entera por la de un jugador que elijas.",
        "pass_hands": "Cada jugador pasa su mano entera al siguiente en el sentido del juego.",
        "roulette": "No eliges color. El siguiente jugador nombra uno y va destapando cartas de la pila "
                    "para robar, de una en una, hasta que sale una de ese color (los comodines no cuentan). Se "
                    "queda con todas las cartas destapadas, pierde su turno, y el color que nombró es el "
                    "que hay que seguir.",
        "flip_self": "Das la vuelta a tu {power}: de verde pasa a rojo y de rojo a verde.",
        "flip_all": "Todos los jugadores dan la vuelta a su {power}: de verde pasa a rojo y de rojo a verde.",
        "challenge": "El jugador que debe robar puede desafiarla (ver «Desafíos»).",
        "number_match": "Se juega sobre una carta del mismo color o del mismo número.",
        "action_match": "Se juega sobre una carta del mismo color o sobre otra carta {name}.",
        "colorless": "Se juega sobre cualquier carta. Deja la pila sin color: el siguiente jugador puede "
                     "jugar cualquier carta de número (de cualquier color y número), pero ninguna de acción "
                     "ni comodín; si no tiene ninguna, roba como siempre.",
        "flip_icon": "Lleva el icono de voltear: después de jugarla das la vuelta a tu {power} "
                     "(de verde pasa a rojo y de rojo a verde).",
        "duel": "Empieza un duelo: cada uno de los demás jugadores, por turno, debe descartar una carta con "
                "un {value} o robar {cards} (ver «Duelos»).",
        "seven": "Cada 7 te obliga a cambiar tu mano con un jugador que elijas (ver «Sietes y ceros»).",
        "zero": "Cada 0 hace que todos pasen su mano al siguiente en el sentido del juego (ver «Sietes y ceros»).",
        "flex_number": "Lado flex: el mismo número en {where}. Con tu {power} en verde puedes jugarla por "
                       "este lado, coincidiendo con ese color o con el número de la pila.",
        "flex_card": "Lado flex: {name}, en {where}. Con tu {power} en verde puedes jugarla por este lado, "
                     "coincidiendo con ese color o con el símbolo de la pila, y entonces se aplica este "
                     "efecto en su lugar: {text}",
        "flex_wild": "Lado flex: {name}. Con tu {power} en verde puedes jugarla por este lado{cond}, y "
                     "entonces se aplica este efecto en su lugar: {text}",
        "cond_no_color": " (solo si no tienes ninguna carta del color en juego)",
        "cond_no_play": " (solo si no tienes ninguna otra carta que puedas jugar, comodines incluidos)",
        "flex_after": "Uses el lado que uses, después hay que seguir el color central de la carta; usar el "
                      "lado flex pone tu {power} en rojo.",
        "flex_after_wild": "Usar el lado flex pone tu {power} en rojo.",
        "offset": "el color que está {k} puestos después del suyo (en una carta de color {c0}: {c1})",
        "one_place": "el color siguiente al suyo (en una carta de color {c0}: {c1})",
        "by_value": "otro color: {parts}",
        "by_value_part": "en el {v} es el color que está {k} puestos después del suyo",
        "by_value_one": "en el {v} es el color siguiente al suyo",
        "various": "otro color, el que muestra la carta",
    },
}


def phrase(lang: str, key: str, **kw) -> str:
    return _T[lang_of(lang)][key].format(**kw)


def effects_text(deck: Deck, effects: tuple[Effect, ...], lang: str, *, wild: bool = False,
                 restrict: bool = True) -> str:
    """The sentences for an effect list, in order, as the engine applies them (restrict: say when
    a card with a 'challenge' effect may be played)."""
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
    targeted = reversed_ = False
    late: list[str] = []        # sentences about a special case, said after the card's effect
    for e in effects:
        if e.op == "target":
            targeted = True
        elif e.op == "reverse":
            reversed_ = True
            out.append(phrase(lang, "reverse"))
            if "draw" not in ops:
                two = opts.two_player_reverse
                out.append(phrase(lang, "reverse_2p_skip" if two == "skip" else "reverse_2p_plain"))
        elif e.op == "draw":
            who = phrase(lang, "target" if targeted else ("next_new" if reversed_ else "next"))
            out.append(phrase(lang, "draw_lose" if e.lose_turn else "draw_keep", who=who,
                              cards=cards_word(lang, e.n or 0)))
            if e.lose_turn and not targeted and opts.stacking != "off":
                out.append(phrase(lang, "stack_any"))
            if reversed_:
                if opts.two_player_reverse_draw == "player":
                    stacking = opts.stacking != "off" and e.lose_turn and not targeted
                    stack = phrase(lang, "rev_draw_2p_stack") if stacking else ""
                    late.append(phrase(lang, "rev_draw_2p_player", n=e.n, stack=stack))
                    if stacking:
                        late.append(phrase(lang, "rev_draw_2p_stacked"))
                else:
                    late.append(phrase(lang, "rev_draw_2p_opp"))
            targeted = False
        elif e.op == "everyone_draws":
            out.append(phrase(lang, "everyone_draws", cards=cards_word(lang, e.n or 0)))
        elif e.op == "flip_power":
            out.append(phrase(lang, "flip_all" if e.who == "all" else "flip_self", power=power_name(deck, lang)))
        elif e.op == "challenge":
            if opts.challenge:
                out.append(phrase(lang, "challenge"))
        elif e.op in ("skip", "skip_all", "choose_color", "discard_color", "swap_hands", "pass_hands", "roulette"):
            out.append(phrase(lang, e.op))
    return " ".join(out + late)


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
    c0, c1 = color_name(deck, card.color, lang), color_name(deck, card.flex.color, lang)
    return phrase(lang, "one_place" if k == 1 else "offset", k=k, c0=c0, c1=c1)


def group_text(deck: Deck, group: Group, lang: str) -> list[str]:
    """The paragraphs describing one group of cards: how it is played, what it does, its flex side."""
    kind = deck.kinds[group.kind]
    power = power_name(deck, lang)
    card = group.first
    first: list[str] = []
    if group.category == NUMBER:
        first.append(phrase(lang, "colorless" if card.colorless else "number_match"))
        if card.flip_icon:
            first.append(phrase(lang, "flip_icon", power=power))
        if card.duel:
            first.append(phrase(lang, "duel", value=values_text(group.values, lang),
                                cards=cards_word(lang, deck.rule_options.duel_penalty)))
        if deck.rule_options.seven_zero and not card.duel:
            if 7 in group.values:
                first.append(phrase(lang, "seven"))
            if 0 in group.values:
                first.append(phrase(lang, "zero"))
        if kind.effects:
            first.append(effects_text(deck, kind.effects, lang))
    elif group.category == WILD:
        first.append(effects_text(deck, kind.effects, lang, wild=True))
    else:
        first.append(phrase(lang, "action_match", name=kind.names.get(lang)))
        first.append(effects_text(deck, kind.effects, lang))
    paras = [" ".join(s for s in first if s)]
    if card.flex:
        fkind = deck.kinds[card.flex.kind]
        if fkind.category == NUMBER:
            paras.append(phrase(lang, "flex_number", value=values_text(group.values, lang),
                                where=_where(deck, group, lang), power=power))
        elif card.flex.color is None:
            legal = deck.rule_options.wild_draw_four_legal
            cond = ""
            if fkind.has("challenge") and legal in ("no-current-color", "no-playable-card"):
                cond = phrase(lang, "cond_no_color" if legal == "no-current-color" else "cond_no_play")
            paras.append(phrase(lang, "flex_wild", name=fkind.names.get(lang), power=power, cond=cond,
                                text=_embedded(effects_text(deck, fkind.effects, lang, restrict=False), lang)))
        else:
            paras.append(phrase(lang, "flex_card", name=fkind.names.get(lang), where=_where(deck, group, lang),
                                power=power, text=_embedded(effects_text(deck, fkind.effects, lang), lang)))
        paras.append(phrase(lang, "flex_after_wild" if group.category == WILD else "flex_after", power=power))
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
