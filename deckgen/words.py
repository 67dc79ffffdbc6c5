"""Every word and phrase deckgen writes, per language (es, en): the one place to translate.

Each table is keyed by language code; a language missing from a table falls back to English
(the module that reads the table decides, with its own ``lang_of``), so a deck in another
language still gets complete, English text rather than an error. Grammar stays with the code
that writes the sentences (word order such as "2 rojo" / "red 2", plurals, number formats);
the words themselves are here. Adding a language is adding its entry to every table below
(CONTRIBUTING.md, "Add a language"), plus the rulebook's templates (templates/rulebook/).

This module imports nothing from deckgen, so any stage may read it.

Sections: the rulebook (labels, symbol and number names, each effect primitive's words, the
card descriptions' sentences, group names, the printing page); the manifest's default card
names; the claims check's patterns; the play page; the balance report; ``deckgen new``'s
starting manifest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

#: The languages every table below has.
LANGS = ("es", "en")


# ---------------------------------------------------------------- the rulebook (deckgen.rulebook)


#: The rulebook's labels (deckgen.rulebook.words.ui).
RULEBOOK_UI = {
    "en": {
        "rulebook": "Rulebook", "contents": "Contents", "page": "Page", "card": "Card",
        "colours": "Colours", "copies": "Copies", "points": "Points", "total": "Total",
        "per_colour": "in each colour", "by_colour": "per colour", "each": "each", "face": "face value",
        "players": "{lo}–{hi} players", "hand": "{n} cards each", "cards_total": "{n} cards",
        "colourless": "colourless", "no_colour": "no colour (wild)", "uncoloured": "no colour", "shuffled_no": "not shuffled in",
        "extras": "Printed extras", "faces": "faces", "regular": "Regular side", "flex": "Flex side",
        "colour": "Colour", "symbol": "Colour-blind mark", "order": "Order",
        "and": "and", "or": "or",
        "cat_number": "Number cards", "cat_action": "Action cards", "cat_wild": "Wild cards",
        "one_card": "1 card", "power_card": "Power card", "printed": "on the card: {caption}",
    },
    "es": {
        "rulebook": "Reglamento", "contents": "Índice", "page": "Página", "card": "Carta",
        "colours": "Colores", "copies": "Copias", "points": "Puntos", "total": "Total",
        "per_colour": "de cada color", "by_colour": "por color", "each": "cada uno", "face": "su número",
        "players": "{lo}–{hi} jugadores", "hand": "{n} cartas por jugador", "cards_total": "{n} cartas",
        "colourless": "sin color", "no_colour": "sin color (comodín)", "uncoloured": "sin color", "shuffled_no": "no se barajan",
        "extras": "Piezas impresas aparte", "faces": "caras", "regular": "Lado regular", "flex": "Lado flex",
        "colour": "Color", "symbol": "Marca para daltónicos", "order": "Orden",
        "and": "y", "or": "o",
        "cat_number": "Cartas de número", "cat_action": "Cartas de acción", "cat_wild": "Comodines",
        "one_card": "1 carta", "power_card": "Carta de poder", "printed": "en la carta: {caption}",
    },
}

#: The colour-blind symbols' names.
SYMBOL_NAMES = {
    "en": {"circle": "circle", "triangle": "triangle", "square": "square", "diamond": "diamond",
           "star": "star", "hexagon": "hexagon", "heart": "heart", "cross": "cross",
           "crescent": "crescent", "drop": "drop", "pentagon": "pentagon", "ring": "ring"},
    "es": {"circle": "círculo", "triangle": "triángulo", "square": "cuadrado", "diamond": "rombo",
           "star": "estrella", "hexagon": "hexágono", "heart": "corazón", "cross": "cruz",
           "crescent": "media luna", "drop": "gota", "pentagon": "pentágono", "ring": "anillo"},
}

#: Numbers as words, zero to ten ("two" / "dos"; digits above).
NUMBER_NAMES = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    "es": ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez"),
}


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
        return (self.es if lang == "es" else self.en)[key]


def _ph(en: dict[str, str], es: dict[str, str], start: str = ACTS) -> Phrase:
    return Phrase(MappingProxyType(en), MappingProxyType(es), start)


#: Each primitive's words (the rulebook layer of the effect registry).
PHRASES: Mapping[str, Phrase] = MappingProxyType({
    "skip": _ph({"lose": "loses their turn"}, {"lose": "pierde su turno"}),
    "skip_all": _ph({"say": "Every other player is passed over: you play again straight away.",
                     "idle": "passes nobody over"},
                    {"say": "Te saltas a todos los demás jugadores: vuelves a jugar enseguida.",
                     "idle": "no se salta a nadie"}, IDLE),
    "play_again": _ph({"say": "You take another turn straight away.", "idle": "gives nobody another turn"},
                      {"say": "Juegas otro turno enseguida.", "idle": "no da otro turno a nadie"}, IDLE),
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
                "the card you played. If that empties your hand, you win the round.",
         "idle": "discards no other card"},
        {"say": "Además descartas todas las demás cartas de ese color que tengas en la mano, debajo de la "
                "carta jugada. Si así te quedas sin cartas, ganas la ronda.",
         "idle": "no descarta ninguna otra carta"}, IDLE),
    "swap_hands": _ph({"say": "You swap your whole hand with a player of your choice.", "idle": "swaps no hands"},
                      {"say": "Cambias tu mano entera por la de un jugador que elijas.",
                       "idle": "no cambia ninguna mano"}, IDLE),
    "pass_hands": _ph(
        {"play": "Every player passes their whole hand to the next player in the current direction of play.",
         "left": "Every player passes their whole hand to the player on their left, whatever the direction "
                 "of play.",
         "right": "Every player passes their whole hand to the player on their right, whatever the "
                  "direction of play.",
         "idle": "passes no hands"},
        {"play": "Cada jugador pasa su mano entera al siguiente en el sentido del juego.",
         "left": "Cada jugador pasa su mano entera al jugador de su izquierda, sea cual sea el sentido del "
                 "juego.",
         "right": "Cada jugador pasa su mano entera al jugador de su derecha, sea cual sea el sentido del "
                  "juego.",
         "idle": "no pasa ninguna mano"}, IDLE),
    "steal": _ph({"say": "Choose another player who holds two or more cards and take one card from their "
                         "hand without looking; it goes into your hand.", "idle": "takes nobody's card"},
                 {"say": "Elige a otro jugador que tenga dos cartas o más y quítale una carta de la mano sin "
                         "mirar; pasa a tu mano.", "idle": "no quita ninguna carta"},
                 IDLE),
    "roulette": _ph(
        {"say": "You do not name a colour. {who} names one and turns over cards from the draw pile, one by "
                "one, until a card of that colour appears (wild cards do not count); they take every card "
                "turned over and {lose}, and the colour they named must be followed."},
        {"say": "No eliges color. {who} nombra uno y va destapando cartas de la pila para robar, de una en "
                "una, hasta que sale una de ese color (los comodines no cuentan); se queda con todas las "
                "cartas destapadas y {lose}, y el color que nombró es el que hay que seguir."}),
    "flip_power": _ph({"self": "You turn your own {power} over: green becomes red, red becomes green.",
                       "idle": "turns no {power} over",
                       "all": "Every player turns their {power} over: green becomes red, red becomes green."},
                      {"self": "Das la vuelta a tu {power}: de verde pasa a rojo y de rojo a verde.",
                       "idle": "no da la vuelta a ningún {power}",
                       "all": "Todos los jugadores dan la vuelta a su {power}: de verde pasa a rojo y de rojo "
                              "a verde."}),
    "duel": _ph({"say": "It starts a duel (see “Duels”).", "idle": "starts no duel"},
                {"say": "Empieza un duelo (ver «Duelos»).", "idle": "no empieza ningún duelo"}, IDLE),
    "challenge": _ph({"say": "The player who has to draw may challenge it (see “Challenges”)."},
                     {"say": "El jugador que debe robar puede desafiarla (ver «Desafíos»)."}),
})

#: The card descriptions' sentences (deckgen.rulebook.describe.phrase).
SENTENCES = {
    "en": {
        "wild_lead": "Play it on any card.",
        "wild_keeps": "It names no colour: the colour to follow stays as it was.",
        "wild_lead_no_color": "Play it on any card, but only when you hold no card of the current colour "
                              "(cards that match only by number or symbol do not count).",
        "wild_lead_no_play": "Play it on any card, but only when you hold no other card you could play "
                             "(wild cards included; another card with this same condition does not count).",
        "legal_no_color": "You may use it only when you hold no card of the current colour "
                          "(cards that match only by number or symbol do not count).",
        "legal_no_play": "You may use it only when you hold no other card you could play (wild cards included; "
                         "another card with this same condition does not count).",
        "who_next": "The next player", "who_next_new": "The next player in the new direction",
        "start_does_nothing": "does nothing",
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
        "no_effect": "It has no effect.",
    },
    "es": {
        "wild_lead": "Se juega sobre cualquier carta.",
        "wild_keeps": "No nombra ningún color: hay que seguir el mismo color que antes.",
        "wild_lead_no_color": "Se juega sobre cualquier carta, siempre que no te quede ninguna carta del color "
                              "en juego (las que solo coinciden en número o símbolo no cuentan).",
        "wild_lead_no_play": "Se juega sobre cualquier carta, siempre que no te quede ninguna otra carta que "
                             "puedas jugar (comodines incluidos; otra carta con esta misma condición no cuenta).",
        "legal_no_color": "Solo puedes usarla si no tienes ninguna carta del color en juego "
                          "(las que solo coinciden en número o símbolo no cuentan).",
        "legal_no_play": "Solo puedes usarla si no tienes ninguna otra carta que puedas jugar (comodines incluidos; "
                         "otra carta con esta misma condición no cuenta).",
        "who_next": "El siguiente jugador", "who_next_new": "El siguiente jugador en el nuevo sentido",
        "start_does_nothing": "no hace nada",
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
        "no_effect": "No tiene efecto.",
    },
}

#: The words a group of cards is named with ("Flex number", "Número flex").
GROUP_NAME_WORDS = {
    "en": {"flip": "with flip icon", "duel": "duel", "colorless": "colourless", "flex": "Flex"},
    "es": {"flip": "con icono de voltear", "duel": "de duelo", "colorless": "incoloro", "flex": "flex"},
}

#: The printing page (deckgen.rulebook.printing): its text, how the cards are counted, the sheets'
#: flip, and the booklet's paper and steps.
PRINTING_TEXT = {
    "en": """# Printing and making the game
## What you print
<b>{cards_pdf}</b> holds {counted}, {per} a sheet on {paper}: {sheets} sheets, fronts on the odd pages from
page {first_sheet} on and each sheet's backs on the page after it. Pages 1 to {covers} only hold instructions:
print them on plain paper, or not at all. Print at actual size (100 %).
## On a home printer
- <b>Card stock</b>: most home printers feed 160–220 g/m² (about 60–80 lb cover) through the rear or manual
tray, one sheet at a time; check your printer's heaviest weight. 250–300 g/m² (90–110 lb) makes sturdier
cards but only suits printers that say so, or a copy shop.
- <b>Printing both sides by hand</b>: print the odd pages (the fronts), let them dry, put the stack back in
the tray turned over, and print the even pages (the backs) in the same order. Which way to turn it: for
{flip_name} turn the sheets over {flip_how}. Try it with one sheet first, marked in a corner.
- A printer with automatic two-sided printing: choose {flip_name} as page 1 says. If the backs come out
shifted, <b>deckgen calibrate</b> measures the offset.
- <b>This rulebook</b>: plain paper of 80–100 g/m² (20–27 lb bond).{booklet_paper}
## Cutting order
Cut when the ink is dry, one sheet at a time (a stack slides). The cards PDF's page 1 gives the same order for
its sheets; on {paper} they are cut like this:
{cutting}

When every card is cut you have {total_cards} cards of {size}.
{booklet_steps}
""",
    "es": """# Imprimir y montar el juego
## Qué se imprime
<b>{cards_pdf}</b> tiene {counted}, {per} por hoja en {paper}: {sheets} hojas, los frentes en las páginas
impares desde la {first_sheet} y los dorsos de cada hoja en la página siguiente. Las páginas 1 a {covers} solo
llevan instrucciones: imprímelas en papel normal o no las imprimas. Imprime a tamaño real (100 %).
## En una impresora doméstica
- <b>Cartulina</b>: casi todas las impresoras domésticas admiten 160–220 g/m² por la bandeja trasera o manual,
hoja a hoja; comprueba el gramaje máximo de la tuya. 250–300 g/m² da cartas más firmes, pero solo en
impresoras que lo admitan, o en una copistería.
- <b>Doble cara a mano</b>: imprime las páginas impares (los frentes), deja secar, vuelve a poner el montón en
la bandeja dado la vuelta e imprime las pares (los dorsos) en el mismo orden. Cómo girarlo: con
{flip_name_es} da la vuelta a las hojas {flip_how_es}. Prueba antes con una hoja marcada en una esquina.
- Con impresión a doble cara automática: elige {flip_name_es}, como dice la página 1. Si los dorsos salen
desplazados, <b>deckgen calibrate</b> mide el desfase.
- <b>Este reglamento</b>: papel normal de 80–100 g/m².{booklet_paper}
## Orden de corte
Corta con la tinta seca y hoja a hoja (un montón se desliza). La página 1 del PDF de cartas da el mismo orden
para sus hojas; en {paper} se cortan así:
{cutting}

Cortadas todas, tienes {total_cards} cartas de {size}.
{booklet_steps}
""",
}

PRINTING_CORNERS = {  # the printing page's last cutting step, after the sheet's own (CUT_STEPS)
    "en": "Last, if you like, round the corners with a 3–4 mm corner punch.",
    "es": "Por último, si quieres, redondea las esquinas con un cortador de esquinas de 3–4 mm.",
}
PRINTING_COUNTED = {
    "en": ("{cards} cards", "{cards} playing cards and {extras} component cards ({names}), {total} in all"),
    "es": ("{cards} cartas", "{cards} cartas de juego y {extras} cartas de componente ({names}), {total} en total"),
}
PRINTING_FLIP = {  # the default long-edge flip, by the orientation of the card sheets
    "portrait": ("a long-edge flip", "from left to right, like the page of a book",
                 "giro por el borde largo", "de izquierda a derecha, como la página de un libro"),
    "landscape": ("a long-edge flip", "from top to bottom, like a wall calendar",
                  "giro por el borde largo", "de arriba abajo, como un calendario de pared"),
}

PRINTING_BOOKLET = {
    "en": {
        "paper": " The booklet's outer sheet (the cover) can go on 120–160 g/m² paper.",
        "steps": """
## The booklet
1. Print the booklet file double-sided, flipping on the short edge, at actual size (100 %).
2. Keep the sheets in the order they come out, fold the stack in half and staple it twice on the fold.
""",
    },
    "es": {
        "paper": " La hoja exterior del cuadernillo (la portada) puede ir en papel de 120–160 g/m².",
        "steps": """
## El cuadernillo
1. Imprime el archivo del cuadernillo a doble cara, girando por el borde corto, a tamaño real (100 %).
2. Deja las hojas en el orden en que salen, dobla el montón por la mitad y grápalo dos veces por el pliegue.
""",
    },
}


#: The cutting order (deckgen.layout.cutplan): the same steps on the cards PDF's cover and the rulebook's
#: printing page.
CUT_STEPS = {
    "en": {
        "fold": "Fold the sheet on the dashed line with the printed sides out, glue the halves together and let "
                "them dry; then cut the folded sheet as one.",
        "first": "First make the {n} {dir} cuts right across the sheet, {guide}.",
        "dir_x": "vertical",
        "dir_y": "horizontal",
        "between_x": "each from its crop mark above the cards to the one below them",
        "between_y": "each from its crop mark left of the cards to the one right of them",
        "on_grey": "each along the thin grey line printed on it",
        "second": "Then cut every strip into cards along the thin grey {dir} lines printed on it ({n} cut lines): "
                  "their crop marks went with the first cuts' waste. Where two cards share a grey line, cut through "
                  "its middle; elsewhere cut on the card's side of the line, so that it goes with the waste.",
        "gaps": "Throw away the thin strips that the gaps between the cards leave.",
    },
    "es": {
        "fold": "Dobla la hoja por la línea discontinua con lo impreso hacia fuera, pega las dos mitades y deja "
                "secar; después corta la hoja doblada como una sola.",
        "first": "Primero haz los {n} cortes {dir} de lado a lado de la hoja, {guide}.",
        "dir_x": "verticales",
        "dir_y": "horizontales",
        "between_x": "cada uno desde su marca de corte encima de las cartas hasta la de debajo",
        "between_y": "cada uno desde su marca de corte a la izquierda de las cartas hasta la de la derecha",
        "on_grey": "cada uno por la línea gris fina impresa sobre él",
        "second": "Después corta cada tira en cartas por las líneas grises finas {dir} impresas en ella ({n} líneas "
                  "de corte): sus marcas de corte se fueron con el recorte de los primeros cortes. Donde dos cartas "
                  "comparten una línea gris, corta por su centro; en las demás, corta por el lado de la carta, para "
                  "que la línea se vaya con el recorte.",
        "gaps": "Tira las tiras finas que dejan los huecos entre las cartas.",
    },
}


# ---------------------------------------------------------------- the cards PDF's first pages (deckgen.layout.cover)

COVER_TEXT = {
    "es": {
        "subtitle": "Cartas para imprimir y recortar",
        "cards": "Cartas: {cards}",
        "extras": " + {extras} cartas de componente (no se barajan)",
        "sheets": "Hojas: {sheets} ({pages} páginas de cartas), {cols} × {rows} = {per} cartas por hoja, {turn}",
        "portrait": "en vertical",
        "landscape": "en horizontal",
        "paper": "Papel: {paper}, {duplex}",
        "duplex_long": "a doble cara (giro por el borde largo)",
        "duplex_short": "a doble cara (giro por el borde corto)",
        "duplex_none": "a una cara (dorsos en hojas aparte)",
        "duplex_fold": "a una cara, doblada por la mitad (frentes y dorsos en la misma página)",
        "duplex_fronts": "a una cara, solo frentes (sin dorsos)",
        "size": "Tamaño de carta: {w:g} × {h:g} mm",
        "bleed_full": "Sangrado: {bleed:g} mm alrededor de cada carta; separación entre cartas {gap:g} mm",
        "bleed_mixed": "Sangrado: {outer} en los bordes exteriores del bloque; {inner}",
        "outer_same": "{v:g} mm",
        "outer_two": "{lr:g} mm a izquierda y derecha y {tb:g} mm arriba y abajo (el área imprimible termina ahí)",
        "inner_none": "las cartas vecinas comparten la línea de corte (separación 0)",
        "inner_same": "{i:g} mm entre cartas (separación {g:g} mm)",
        "inner_two": "{ix:g} mm entre columnas y {iy:g} mm entre filas (separaciones de {gx:g} y {gy:g} mm)",
        "actual": "IMPRIME A TAMAÑO REAL (100 %)",
        "actual2": "Desactiva «Ajustar a la página», «Reducir» o «Encajar» en el diálogo de impresión.",
        "ruler": "Esta barra mide exactamente 50 mm: compruébala con una regla antes de imprimir todo.",
        "long": "Imprime a doble cara con giro por el borde largo. Las páginas impares llevan los frentes "
                "y las pares los dorsos, que caen detrás de cada carta.",
        "short": "Imprime a doble cara con giro por el borde corto. Las páginas impares llevan los frentes "
                 "y las pares los dorsos, que caen detrás de cada carta.",
        "none": "Imprime a una cara. Cada hoja de frentes va seguida de su hoja de dorsos: gira la hoja de "
                "dorsos de izquierda a derecha, pega las dos espalda con espalda alineando las marcas de corte "
                "a contraluz, y después corta.",
        "fold": "Imprime a una cara. Dobla cada hoja por la línea discontinua «doblar», con lo impreso hacia "
                "fuera, pégala y después corta por las marcas: cada dorso queda detrás de su frente. No hace "
                "falta imprimir a doble cara.",
        "fronts": "Imprime a una cara: solo frentes, para fundas con dorso propio o para reponer cartas.",
        "offset": "Si los dorsos salen desplazados, mide el desfase con «deckgen calibrate» y vuelve a "
                  "generar con --back-offset X,Y.",
        "cut_order": "Orden de corte (con la tinta seca, hoja a hoja):",
        "cut_short": "Las marcas de corte de los bordes {where} miden {len:g} mm: no cabe más.",
        "edge_lr": "izquierdo y derecho",
        "edge_tb": "superior e inferior",
        "registration": "Corte a máquina (Silhouette): las marcas de registro tipo 1 de las esquinas están a 10 mm "
                        "del borde (largo 20 mm, grosor 0,5 mm); pon esos valores en Silhouette Studio y abre "
                        "el SVG de corte de cada hoja. {fewer}",
        "registration_fewer": "Para dejar libres las marcas, cada hoja lleva {n} cartas en vez de {was}.",
        "glued": "Las {n} cartas de dos caras se imprimen por las dos caras: sus hojas van al final, cada hoja "
                 "de frentes seguida de la de sus segundas caras; pega cada una detrás de la anterior (gírala de "
                 "izquierda a derecha, marcas alineadas a contraluz) y después corta.",
        "calibrate": "Para medir el desfase de estas hojas: {command}",
        "fold_word": "doblar / fold",
        "forced": "IMPRESO CON ERRORES (--force): «deckgen check» no lo da por listo ({codes})",
        "meta_title": "{deck}: cartas para imprimir y recortar",
        "meta_subject": "{cards} cartas en papel {paper}",
        "label_front": "{deck} · hoja {n} de {total} · frentes",
        "label_back": "{deck} · hoja {n} de {total} · dorsos",
        "label_fold": "{deck} · hoja {n} de {total} · frentes y dorsos (doblar)",
    },
    "en": {
        "subtitle": "Print-and-play cards",
        "cards": "Cards: {cards}",
        "extras": " + {extras} component cards (never shuffled in)",
        "sheets": "Sheets: {sheets} ({pages} card pages), {cols} × {rows} = {per} cards per sheet, {turn}",
        "portrait": "portrait",
        "landscape": "landscape",
        "paper": "Paper: {paper}, {duplex}",
        "duplex_long": "double-sided (long-edge flip)",
        "duplex_short": "double-sided (short-edge flip)",
        "duplex_none": "single-sided (backs on their own sheets)",
        "duplex_fold": "single-sided, folded in half (fronts and backs on the same page)",
        "duplex_fronts": "single-sided, fronts only (no backs)",
        "size": "Card size: {w:g} × {h:g} mm",
        "bleed_full": "Bleed: {bleed:g} mm around every card; gap between cards {gap:g} mm",
        "bleed_mixed": "Bleed: {outer} on the outer edges of the block; {inner}",
        "outer_same": "{v:g} mm",
        "outer_two": "{lr:g} mm left and right and {tb:g} mm at top and bottom (the printable area ends there)",
        "inner_none": "neighbouring cards share their cut lines (gap 0)",
        "inner_same": "{i:g} mm between cards (gap {g:g} mm)",
        "inner_two": "{ix:g} mm between columns and {iy:g} mm between rows (gaps {gx:g} and {gy:g} mm)",
        "actual": "PRINT AT ACTUAL SIZE (100 %)",
        "actual2": "Turn off \"Fit to page\", \"Shrink\" or \"Scale to fit\" in the print dialog.",
        "ruler": "This bar is exactly 50 mm long: check it with a ruler before printing everything.",
        "long": "Print double-sided, flipping on the long edge. Odd pages carry the fronts, even pages "
                "the backs, which land behind their cards.",
        "short": "Print double-sided, flipping on the short edge. Odd pages carry the fronts, even pages "
                 "the backs, which land behind their cards.",
        "none": "Print single-sided. Each sheet of fronts is followed by its sheet of backs: turn the sheet "
                "of backs over left to right, glue the two back to back, lining up the crop marks against the "
                "light, then cut.",
        "fold": "Print single-sided. Fold each sheet on the dashed \"fold\" line with the printed side out, "
                "glue it, then cut on the crop marks: every back lands behind its own front. No duplex "
                "printer needed.",
        "fronts": "Print single-sided: fronts only, for sleeves with their own backs or for replacing cards.",
        "offset": "If the backs come out shifted, measure the offset with \"deckgen calibrate\" and build "
                  "again with --back-offset X,Y.",
        "cut_order": "Cutting order (when the ink is dry, one sheet at a time):",
        "cut_short": "The crop marks on the {where} edges are {len:g} mm long: there is no room for more.",
        "edge_lr": "left and right",
        "edge_tb": "top and bottom",
        "registration": "Machine cutting (Silhouette): the Type 1 registration marks in the corners sit 10 mm in "
                        "from the edges (length 20 mm, thickness 0.5 mm); set Silhouette Studio to the same and "
                        "open each sheet's cut SVG. {fewer}",
        "registration_fewer": "To keep the marks clear, each sheet holds {n} cards instead of {was}.",
        "glued": "The {n} two-sided cards are printed on both sides: their sheets come last, each sheet of "
                 "fronts followed by the sheet of their second sides; glue each behind the one before it "
                 "(turned over left to right, crop marks lined up against the light), then cut.",
        "calibrate": "To measure the offset for these sheets: {command}",
        "fold_word": "fold / doblar",
        "forced": "PRINTED WITH ERRORS (--force): deckgen check says it is not ready ({codes})",
        "meta_title": "{deck}: print-and-play cards",
        "meta_subject": "{cards} cards on {paper} paper",
        "label_front": "{deck} · sheet {n} of {total} · fronts",
        "label_back": "{deck} · sheet {n} of {total} · backs",
        "label_fold": "{deck} · sheet {n} of {total} · fronts and backs (fold)",
    },
}


# ---------------------------------------------------------------- words printed on the faces (deckgen.render.faces)

FACE_WORDS = {
    "es": {"flex": "FLEX", "power": "PODER", "flip": "VOLTEA", "duel": "DUELO", "colorless": "INCOLORO"},
    "en": {"flex": "FLEX", "power": "POWER", "flip": "FLIP", "duel": "DUEL", "colorless": "COLOURLESS"},
}


# ---------------------------------------------------------------- default card names (deckgen.manifest.names)

CARD_NAME_WORDS = {
    "es": {"flip": "voltear", "duel": "duelo", "colorless": "incoloro", "flex": "flex"},
    "en": {"flip": "flip", "duel": "duel", "colorless": "colourless", "flex": "flex"},
}


# ---------------------------------------------------------------- the claims check (deckgen.claims)

# What a card's words claim (a label, a kind's name, a rules text), per language: (what, the claim
# in words, pattern). ``what`` is one of the facts deckgen.claims derives from a card's effects
# (draw, skip, keep, reverse, again, colour, chosen, everyone, steal, swap, pass, discard, duel,
# roulette, flip, challenge). Patterns match lower-case text, in this order; a match is taken out
# of the text before the next pattern is tried ("does not lose a turn" is a keep, not a skip).
CLAIMED_ACTIONS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "en": (
        ("keep", "keep the turn",
         r"\b(?:keeps?|keeping) (?:their |your |his |her |the )?turns?\b|\b(?:does not|doesn't|do not|don't|never|"
         r"won't|will not) (?:lose|miss)(?: (?:their|your|a|the|his|her) (?:next )?turns?)?\b|\bwithout (?:losing|"
         r"missing)(?: (?:their|your|a|the) (?:next )?turns?)?\b|\b(?:nobody|no one|no player) (?:loses|misses)"
         r"(?: (?:a|their) turns?)?\b|\bno turns? (?:is|are) lost\b"),
        ("steal", "steal", r"\bsteals?\b|\btakes? (?:a |one )?(?:random )?card from\b|\btake a random card\b"),
        # the card's own player loses a turn (a card text speaks to its player: "you")
        ("self-skip", "lose your own turn",
         r"\b(?:lose|losing|miss|missing) your (?:next |own )?turns?\b|\byou (?:lose|miss) (?:a |one |two |\d+ )?"
         r"(?:next )?turns?\b"),
        ("skip", "lose a turn",
         r"\bskip(?:s|ped|ping)?\b|\blos(?:e|es|ing|t) (?:their |your |a |the |his |her |one |two |three |\d+ )?"
         r"(?:next )?turns?\b|\bmiss(?:es|ed)? (?:their |your |a |the |his |her )?(?:next )?turns?\b|\bsits? out\b|"
         r"\bpassed over\b"),
        ("reverse", "reverse", r"\brevers(?:e|es|ed|ing)\b|\bchang(?:e|es|ed|ing) (?:the )?direction\b|"
                               r"\bdirection (?:of play )?(?:changes|is reversed|reverses|flips)\b"),
        ("again", "play again", r"\bplays? again\b|\bgo(?:es)? again\b|\b(?:another|extra|second) turn\b"),
        ("colour", "choose a colour",
         r"\b(?:choose|chooses|chosen|name|names|named|call|calls|declare|declares|change|changes|pick(?! up)|"
         r"picks(?! up))\b[^.;]*\bcolou?rs?\b"),
        ("chosen", "choose a player",
         r"\b(?:choose|chooses|pick|picks|select|selects) (?:a|any|another|one|an) (?:other )?(?:player|opponent)\b|"
         r"\btarget(?:s|ed)?\b|\bof (?:your|their) choice\b|\bany (?:other )?player\b"),
        ("everyone", "every player", r"\bevery(?:one|body)\b|\b(?:every|each) (?:other )?players?\b|"
                                     r"\ball (?:other |the other )?players\b|\ball opponents\b"),
        ("swap", "swap hands", r"\bswaps?\b|\bexchanges?\b|\btrades? hands\b"),
        ("pass", "pass hands", r"\bpass(?:es)? (?:your |their |every |all |the )?hands?\b"),
        ("discard", "discard", r"\bdiscards?\b(?! pile)|\bthrows? away\b"),
        ("duel", "duel", r"\bduels?\b"),
        ("roulette", "roulette", r"\broulette\b"),
        ("flip", "flip Power cards", r"\bflips?\b|\bturns? (?:their |your |every |all |the )?power cards? over\b|"
                                     r"\bturns? over (?:their |your |every |all |the )?power cards?\b"),
        ("challenge", "challenge", r"\bchalleng(?:e|es|ed)\b"),
        ("draw", "draw", r"\bdraws?\b(?! pile)|\bdrawn\b|\bdrawing\b(?! pile)|\bpicks? up\b|\+\s*\d+"),
    ),
    "es": (
        ("keep", "conservar el turno",
         r"\bno pierden?(?: (?:su|tu|el|un) turno)?\b|\bsin perder(?: (?:su|tu|el|un) turno)?\b|"
         r"\b(?:conserva|mantiene)n? (?:su |tu |el )?turno\b|\bsiguen? jugando\b|\bnadie pierde(?: (?:su|un) turno)?\b"),
        ("steal", "quitar una carta", r"\bqu[ií]ta(?:le|les|r)?\b|\brob(?:a|as|ar) una carta (?:al azar )?(?:a|de)\b"),
        ("self-skip", "perder tu propio turno", r"\bpierdes\b[^.;]*?\bturnos?\b"),
        ("skip", "perder turno", r"\bpierd(?:e|en|es)\b[^.;]*?\bturnos?\b|\bsalta(?:r|n|do|da|dos|das)?\b|"
                                 r"\bsin jugar\b|\bpasa(?:n)? de largo\b"),
        ("reverse", "invertir el sentido",
         r"\binviert(?:e|en)\b|\binvertir\b|\breversa\b|\bcambia(?:r|n)? (?:el )?sentido\b|"
         r"\bel sentido (?:de juego )?(?:cambia|se invierte)\b"),
        ("again", "volver a jugar", r"\bvuelv(?:e|es|en) a jugar\b|\bjuega(?:s|n)? (?:otra vez|de nuevo)\b|"
                                    r"\botro turno\b|\bturno extra\b"),
        ("colour", "elegir color", r"\b(?:elige|eliges|elegir|nombra|nombras|di|dice|escoge|escoges|decide|decides|"
                                   r"cambia|cambias)\b[^.;]*\bcolor(?:es)?\b"),
        ("chosen", "elegir jugador",
         r"\b(?:elige|eliges|escoge|escoges|elegir|escoger) (?:a )?(?:un|una|otro|otra|cualquier) (?:otro )?"
         r"(?:jugador|rival|oponente)\b|\ba (?:tu|su) elecci[oó]n\b|\bdirigid[oa]s?\b|\bcualquier (?:otro )?jugador\b|"
         r"\bque elijas\b"),
        ("everyone", "todos los jugadores", r"\btodos\b|\bcada (?:otro )?jugador\b|\btodo el mundo\b|"
                                            r"\blos dem[aá]s\b|\bcada rival\b"),
        ("swap", "intercambiar manos", r"\bintercambi(?:a|an|ar|as)\b|\bcambia(?:r|n|s)? (?:la |las |su |sus |tu |tus )?"
                                       r"manos?\b"),
        ("pass", "pasar las manos", r"\bpasa(?:n|r|s)? (?:tu |su |sus |tus |las |la |toda la |todas las )?manos?\b"),
        ("discard", "descartar", r"\bdescart(?:a|an|ar|as)\b|\btira(?:r|n|s)?\b"),
        ("duel", "duelo", r"\bduelos?\b"),
        ("roulette", "ruleta", r"\bruleta\b"),
        ("flip", "dar la vuelta a las cartas de poder",
         r"\bvolte(?:a|an|ar|as)\b|\bda(?:r|n)? la vuelta a (?:su |tu |sus |las )?cartas? de poder\b"),
        ("challenge", "desafiar", r"\bdesaf[ií](?:a|an|ar|o)\b"),
        ("draw", "robar", r"\brob(?:a|an|ar|as|e|en)\b|\bcog(?:e|en|er)\b|\btoma(?:n|r|s)?\b|\+\s*\d+"),
    ),
}

#: A number that is a condition, not a count the card claims ("two or more cards", "at least 2").
CLAIM_CONDITIONS = {
    "en": r"\b(?:at least|at most|up to|more than|fewer than|less than|over)\s+(\w+)|\b(\w+)\s+or\s+(?:more|fewer|less)\b",
    "es": r"\b(?:al menos|como m[aá]ximo|hasta|m[aá]s de|menos de)\s+(\w+)|\b(\w+)\s+o\s+(?:m[aá]s|menos)\b",
}

#: A count of lost turns ("loses two turns"): held against how many turns the card costs a player.
CLAIM_TURNS = {
    "en": r"\b(?:los(?:e|es|ing)|miss(?:es)?) (\w+) (?:more )?turns\b",
    "es": r"\bpierd(?:e|en|es) (\w+) turnos\b",
}

#: A sentence about a table of two players: its claims are held against the card at two players.
# Only words that speak of the table ("with two players", "in a two-player game", "when two players
# remain", "a dos jugadores," at a sentence's start), never a count of players the card acts on ("skip
# the next two players", "elige a dos jugadores"), whose number the card must have.
CLAIM_TWO_PLAYERS = {
    "en": r"\b(?:with|in|at|for)\s+(?:only\s+|just\s+)?(?:a\s+)?(?:two|2)[ -]players?\b"
          r"|\b(?:two|2)-players?\b|\b(?:two|2)\s+player\s+(?:game|table|play)"
          r"|\b(?:two|2)\s+players?\s+(?:remain|are\s+left|left\b)|\bheads[- ]up\b",
    "es": r"\b(?:con|en|para)\s+(?:solo\s+|sólo\s+)?(?:dos|2)\s+jugadores\b"
          r"|(?:^|[,;:(]\s*)a\s+(?:dos|2)\s+jugadores\b|\bpartidas?\s+(?:a|de)\s+(?:dos|2)\s+jugadores\b"
          r"|\bquedan\s+(?:solo\s+|sólo\s+)?(?:dos|2)\s+jugadores\b|\bmano\s+a\s+mano\b",
}

#: Number words a card's text may claim a count with.
CLAIMED_NUMBERS = {
    "en": {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
           "eleven": 11, "twelve": 12, "twenty": 20, "twice": 2},
    "es": {"dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9, "diez": 10,
           "once": 11, "doce": 12, "veinte": 20},
}

#: Words of running text in one language and not the other (deckgen.check's one-language-text):
#: which language a text written once for every language reads as.
FUNCTION_WORDS = {
    "en": frozenset(("the", "and", "of", "to", "is", "you", "your", "with", "for", "on", "or", "be", "each", "every",
                     "first", "player", "players", "card", "cards", "game", "this", "that", "it", "their", "who",
                     "when", "then", "draw", "draws", "play", "plays", "next", "turn")),
    "es": frozenset(("el", "la", "los", "las", "de", "del", "y", "que", "en", "es", "un", "una", "con", "por", "para",
                     "su", "sus", "tu", "tus", "cada", "jugador", "jugadores", "carta", "cartas", "juego", "este",
                     "esta", "quien", "cuando", "roba", "juega", "siguiente", "turno", "se")),
}


# ---------------------------------------------------------------- the play page (deckgen.play.words)

# Each sentence: (said of another player, said to the viewer). {who} is the player's name.
PLAY_LOG: dict[str, dict[str, tuple[str, str]]] = {
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

#: Words the log's sentences are put together with (not the page's labels: those are PLAY_UI).
PLAY_WORDS = {
    "en": {"one_point": "1 point", "you": "you"},
    "es": {"one_point": "1 punto", "you": "ti"},
}

#: Why a player draws, in the log.
PLAY_WHY = {
    "en": {"penalty": "penalty", "stack": "stacked penalty", "everyone": "everyone draws", "duel": "duel",
           "challenge": "challenge", "uno": "no UNO", "roulette": "until the colour appears"},
    "es": {"penalty": "castigo", "stack": "castigo acumulado", "everyone": "todos roban", "duel": "duelo",
           "challenge": "desafío", "uno": "sin UNO", "roulette": "hasta que sale el color"},
}

#: The page's labels. The page has no words of its own: it shows these.
PLAY_UI: dict[str, dict[str, str]] = {
    "en": {
        "you": "You", "bot": "Bot {n}", "draw_pile": "Draw pile", "discard_pile": "Discard pile",
        "turn": "Turn", "your_turn": "Your turn", "waiting": "{who} is thinking…", "direction": "Direction",
        "clockwise": "clockwise", "counter": "anticlockwise", "colour": "Colour", "no_colour": "none (colourless)",
        "penalty": "Penalty waiting", "duel": "Duel", "log": "What happened", "hand": "Your hand",
        "new_game": "New game", "replay": "Replay this seed", "next_hand": "Next hand",
        "hand_over": "The hand is over", "game_over": "The game is over", "points": "points", "total": "total",
        "target": "first to {n} points", "seed": "seed {seed}", "hand_no": "hand {n}", "out": "out",
        "green": "green", "red": "red",
        "help_keys": "Keys: H your hand (← → move, Enter plays), 1–9 answer, D draw or take, U UNO or catch, "
                     "Esc back or close",
        "out_of_sync": "That answer was not taken: the decision it answered is no longer pending.",
        "lost": "Lost contact with the table; trying again…", "card_text": "Card",
        "not_sent": "Lost contact: your answer was not sent. Answer again when the table is back.",
        "restarted": "The table was restarted; the game goes on where it was.",
        "gone": "This link opens no seat at this table now (a new table was started, or your seat was handed "
                "to a bot). Ask the host for a link.",
        "player": "Player {n}", "players": "Players", "player_col": "Player", "a_bot": "a bot",
        "sound_on": "Sound: on", "sound_off": "Sound: off", "top_card": "Top of the discard pile",
        "playable": "can be played", "not_playable": "cannot be played now",
        "race_uno": "One card left: press UNO! before the time runs out ({s} s).",
        "race_uno_other": "{who} has one card left.", "race_catch": "{who} did not say UNO: catch them first!",
        "uno_said": "UNO said", "waiting_person": "Waiting for {who}…",
        "wins_points": "wins {n}", "host_new": "The host can start a new game.",
        "host_next": "Waiting for the host to start the next hand.",
        "joined": "at the table", "not_joined": "not here yet", "link_of": "{who}'s link",
        "qr_of": "QR code of {who}'s link", "give_bot": "Give the seat to a bot",
        "confirm_bot": "Give {who}'s seat to a bot? Their link will stop working.", "yes_bot": "Yes, give it to a bot",
        "no_keep": "No, keep playing", "yes_throw": "Yes, start again",
        "confirm_new": "Throw this game away and start a new one?",
        "confirm_replay": "Throw this game away and deal the same seed again?",
        "confirm_match": "Throw this game away and start a match to {n} points?",
        "match_game": "Play a match to {n} points", "rules": "Rules", "close": "Close",
        "look_table": "Look at the table", "show_result": "Show the result", "game_menu": "Game",
        "seats_title": "Seats and join links",
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
        "help_keys": "Teclas: H tu mano (← → moverse, Intro juega), 1–9 responder, D robar o cargar, "
                     "U UNO o pillar, Esc volver o cerrar",
        "out_of_sync": "Esa respuesta no se ha tomado: la decisión a la que respondía ya no está pendiente.",
        "lost": "Se perdió el contacto con la mesa; reintentando…", "card_text": "Carta",
        "not_sent": "Se perdió el contacto: tu respuesta no se ha enviado. Responde de nuevo cuando vuelva la mesa.",
        "restarted": "La mesa se ha reiniciado; la partida sigue donde estaba.",
        "gone": "Este enlace ya no abre ningún asiento de esta mesa (se empezó una mesa nueva o tu asiento pasó "
                "a un bot). Pide un enlace al anfitrión.",
        "player": "Jugador {n}", "players": "Jugadores", "player_col": "Jugador", "a_bot": "un bot",
        "sound_on": "Sonido: sí", "sound_off": "Sonido: no", "top_card": "Arriba del descarte",
        "playable": "se puede jugar", "not_playable": "no se puede jugar ahora",
        "race_uno": "Te queda una carta: pulsa ¡UNO! antes de que se acabe el tiempo ({s} s).",
        "race_uno_other": "A {who} le queda una carta.", "race_catch": "{who} no ha dicho UNO: ¡píllale el primero!",
        "uno_said": "UNO dicho", "waiting_person": "Esperando a {who}…",
        "wins_points": "gana {n}", "host_new": "El anfitrión puede empezar una partida nueva.",
        "host_next": "Esperando a que el anfitrión empiece la siguiente ronda.",
        "joined": "en la mesa", "not_joined": "aún no ha llegado", "link_of": "enlace de {who}",
        "qr_of": "código QR del enlace de {who}", "give_bot": "Dar el asiento a un bot",
        "confirm_bot": "¿Das el asiento de {who} a un bot? Su enlace dejará de funcionar.", "yes_bot": "Sí, dárselo a un bot",
        "no_keep": "No, seguir jugando", "yes_throw": "Sí, empezar de nuevo",
        "confirm_new": "¿Tiras esta partida y empiezas otra?",
        "confirm_replay": "¿Tiras esta partida y repartes otra vez la misma semilla?",
        "confirm_match": "¿Tiras esta partida y empiezas un juego a {n} puntos?",
        "match_game": "Jugar a {n} puntos", "rules": "Reglas", "close": "Cerrar",
        "look_table": "Ver la mesa", "show_result": "Ver el resultado", "game_menu": "Partida",
        "seats_title": "Asientos y enlaces para unirse",
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


# ---------------------------------------------------------------- the balance report (deckgen.balance.text)

REPORT_WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "title": "Balance report",
        "subtitle": "{games} simulated games per table size and kind of player · seed {seed}",
        "summary": "In plain words",
        "key_figures": "Key figures",
        "length": "Game length",
        "length_intro": "How many turns a game lasts, one chart per table size. The solid line is the median, "
                        "the dashed line the 90th percentile; the red bar on the right counts games stopped "
                        "at the turn cap of {cap} turns.",
        "draws": "Where drawn cards come from",
        "draws_intro": "Cards drawn per game after the deal, by cause. The penalty of a draw card taken on its "
                       "own is named after the card; penalties answered with more draw cards are 'stacked'.",
        "hands": "Hand size over a game",
        "hands_intro": "The median hand (line) and the middle 80 % of hands (band) along the game, with the "
                       "median draw pile (dashed, right-hand scale). Each chart runs until 90 % of its games "
                       "have ended.",
        "seats": "Win rate by seat",
        "seats_intro": "Share of finished games won from each seat (seat 1 plays first), with 95 % confidence "
                       "intervals (Wilson). The dashed line is a fair share, 1 in the number of players.",
        "kinds": "Card kinds",
        "kinds_intro": "Every table size together. Played: cards of the kind played per game. Held: cards of "
                       "the kind still in hands when the game ends. Win rate: of the players who played at "
                       "least one, the share who won the game (95 % interval; the tick is a fair share).",
        "events": "Events the checker warns about",
        "events_intro": "Games stopped at the turn cap, stalled games (nobody can play or draw), draw piles "
                        "that ran dry and knock-outs: at which table size and how far into the game. "
                        "A dot's area grows with the number of events; the numbers on the right count the games "
                        "with each event.",
        "no_events": "No game was capped or stalled, no draw pile ran dry and nobody was knocked out.",
        "method": "How this report was made",
        "method_text": "Each table size was played {games} times by each kind of player, with seeds derived "
                       "from seed {seed}, the table size and the game number: every variant plays the same "
                       "shuffles. Random players pick uniformly among their legal moves; greedy players keep "
                       "their wilds for when nothing else plays, get rid of their highest-scoring cards and attack "
                       "the player with the fewest cards. Intervals are 95 % Wilson score "
                       "intervals. The first player's win rate is compared with a fair share by the score test "
                       "behind that interval; it is called significant when its p-value, adjusted with Holm's "
                       "method over every table size, kind of player and variant, is below 5 %.",
        "method_tests": "Variants are compared with the deck as written: game length and cards "
                       "drawn with the Mann-Whitney U test, capped games and the first player's wins with "
                       "Fisher's exact test; a difference is marked significant (*) when its p-value, "
                       "adjusted with Holm's method over all {tests} comparisons in this report, is below 5 %.",
        "variants": "Variants",
        "variant_deck": "the deck as written",
        "agent_random": "random players", "agent_greedy": "greedy players",
        "Agent_random": "Random players", "Agent_greedy": "Greedy players",
        "agent_expert": "expert players", "Agent_expert": "Expert players",
        "skill": "Does skill matter?",
        "skill_intro": "One expert player sits among {opponents}, at a different seat in each game (every seat "
                       "in turn). The expert decides from what it has seen (its hand, the cards played, who "
                       "drew and when) by playing its possible moves out on deals of the hidden cards that agree "
                       "with it, {think} play-outs per decision. The dots are its win rate over the finished "
                       "games with 95 % intervals (Wilson); the dashed marks are what luck alone gives, 1 in "
                       "the number of players. Each figure is from {games} games (per table size and kind of opponent): "
                       "a small sample, so the intervals are wide; --skill-games and --think give a fuller picture.",
        "skill_vs": "Expert against {opp}",
        "skill_col": "expert wins (95 %)",
        "skill_luck": "luck alone",
        "skill_mark": "* significantly more or less than luck alone gives (score test, Holm-adjusted over every "
                      "figure of this section, p < 0.05)",
        "s_skill_more": "Against {opp}, an expert wins {rate} at {p} players where luck alone gives {fair} "
                        "(95 % interval {lo}–{hi}).",
        "s_skill_less": "Against {opp}, an expert wins only {rate} at {p} players, less than the {fair} luck alone "
                        "gives (95 % interval {lo}–{hi}).",
        "s_skill_luck": "Against {opp}, an expert wins {rate} at {p} players where luck alone gives {fair} "
                        "(95 % interval {lo}–{hi}): not clearly more than luck.",
        "s_skill_luck_adjusted": "Against {opp}, an expert wins {rate} at {p} players where luck alone gives {fair} "
                                 "(95 % interval {lo}–{hi}). That interval alone leaves out {fair}, but among "
                                 "the {n} figures of this section tested together (Holm) one can do so by chance: "
                                 "not clearly {side} than luck.",
        "more": "more", "less": "less",
        "s_skill_range": "From {lo} to {hi} players it wins {a} to {b} times its fair share; significantly more "
                         "than luck at {where} players.",
        "s_skill_range_none": "From {lo} to {hi} players it wins {a} to {b} times its fair share, at no table size "
                              "significantly more than luck.",
        "s_skill_ref": "For reference, at {p} players against {opp}: an expert wins {list}.",
        "s_skill_ref_one": "{rate} in {name}",
        "s_skill_stop": "Each of these figures' games stopped as soon as its 95 % interval answered whether skill "
                        "matters here (above luck, below it, or within 5 points of it), at most {budget} games per "
                        "table size and opponent.",
        "s_skill_open": "At {where}, the budget of {budget} games ended before the interval could tell.",
        "s_skill_open_at": "{sizes} players against {opp}",
        "s_skill_ref_from": "The reference figures were measured once, over {games} games each ({command}).",
        "v_skill": "With {label}: against {opp} an expert wins {rate} at {p} players ({base}: {was}).",
        "players_n": "{n} players",
        "turns": "turns", "games": "games", "cards": "cards", "draw_pile": "draw pile",
        "cards_per_game": "cards drawn per game", "players": "players", "seat": "seat", "win_rate": "win rate",
        "median": "median", "p90": "90th percentile", "cap": "cap", "capped_games": "capped",
        "played": "played per game", "held": "held at the end per game", "won": "win rate of hands that played it",
        "fair": "fair share", "hand": "hand", "middle80": "middle 80 % of hands",
        "col_players": "players", "col_median": "median turns", "col_p90": "p90", "col_capped": "capped",
        "col_stalled": "stalled", "col_dry": "dry pile", "col_draws": "drawn / game", "col_first": "seat 1 wins",
        "col_variant": "variant",
        "cause_no_play": "no playable card", "cause_stack": "stacked penalties", "cause_everyone": "everyone draws",
        "cause_duel": "duels", "cause_challenge": "challenges", "cause_uno": "UNO penalty",
        "cause_roulette": "Colour Roulette", "cause_penalty": "{kind}",
        "event_capped": "capped", "event_stalled": "stalled", "event_dry": "dry draw pile", "event_knockout": "knock-out",
        "significant": "* significant difference from the deck as written (Holm-adjusted p < 0.05)",
        "first_mark": "seat 1 wins: (+) / (-) significantly more / less than a fair share (Holm-adjusted p < 0.05)",
        # summary sentences
        "s_length": "A game lasts a median of {a} turns at {lo} players and {b} at {hi} players; "
                    "90 % of games end within {p90} turns at {hi} players.",
        "s_length_one": "A game lasts a median of {a} turns; 90 % end within {p90} turns.",
        "s_clean": "No game was stopped at the turn cap or stalled.",
        "s_capped": "Games reach the turn cap of {cap} turns: {where}.",
        "s_stalled": "Games stall (nobody can play or draw): {where}.",
        "s_most": "at {list} players, most often at {p} players ({k} of {n})",
        "s_count_at": "{k} of {n} at {p} players",
        "s_dry": "The draw pile runs dry in {k} games ({where}).",
        "s_dry1": "The draw pile runs dry in 1 game ({where}).",
        "s_knockout": "Players are knocked out in {k} games ({where}).",
        "s_knockout1": "A player is knocked out in 1 game ({where}).",
        "s_standing": "The last player standing, every other knocked out, wins {list}; the rest are won by a player "
                      "who empties their hand.",
        "s_standing_at": "{share} of the finished games at {p} players", "s_standing_more": "{share} at {p}",
        "s_standing_one": "{share} of the finished games at {p} players ({k} of {n})",
        "s_sizes": "at {list} players",
        "s_causes": "Drawn cards come mostly from: {list}.",
        "s_cause_top": "At {p} players the biggest source is: {cause} ({share}).",
        "s_first": "The first player wins significantly more than a fair share at {where}.",
        "s_first_less": "The first player wins significantly less than a fair share at {where}.",
        "s_first_at": "{p} players ({rate} against {fair})",
        "s_seats_fair": "No table size shows a significant first-player advantage or disadvantage.",
        "v_head": "With {label} ({agent}):",
        "v_capped_none": "no {p}-player game is capped (was {k} of {n})",
        "v_capped": "capped games at {p} players go from {k} to {k2} of {n}",
        "v_median": "the median length at {p} players {verb} from {a} to {b} turns",
        "v_falls": "falls", "v_rises": "rises",
        "v_median_also": "it also changes significantly at {list} players",
        "v_same_length": "game length does not change significantly at any table size",
        "v_draw": "cards drawn per game from {cause} at {p} players go from {a} to {b}",
        "v_first": "the first player's win rate at {p} players goes from {a} to {b}",
        "and": "and",
    },
    "es": {
        "title": "Informe de equilibrio",
        "subtitle": "{games} partidas simuladas por número de jugadores y tipo de jugador · semilla {seed}",
        "summary": "En pocas palabras",
        "key_figures": "Cifras clave",
        "length": "Duración de la partida",
        "length_intro": "Cuántos turnos dura una partida, un gráfico por número de jugadores. La línea continua "
                        "es la mediana y la discontinua el percentil 90; la barra roja de la derecha cuenta las "
                        "partidas detenidas en el límite de {cap} turnos.",
        "draws": "De dónde salen las cartas robadas",
        "draws_intro": "Cartas robadas por partida después del reparto, por causa. El castigo de una carta de "
                       "robo que se cumple sin más lleva el nombre de la carta; los castigos contestados con "
                       "más cartas de robo son «acumulados».",
        "hands": "Tamaño de la mano durante la partida",
        "hands_intro": "La mano mediana (línea) y el 80 % central de las manos (banda) a lo largo de la "
                       "partida, con el mazo de robo mediano (discontinuo, escala de la derecha). Cada gráfico llega hasta "
                       "que han terminado el 90 % de sus partidas.",
        "seats": "Victorias por asiento",
        "seats_intro": "Parte de las partidas terminadas que gana cada asiento (el asiento 1 juega primero), "
                       "con intervalos de confianza del 95 % (Wilson). La línea discontinua es el reparto justo, "
                       "1 entre el número de jugadores.",
        "kinds": "Tipos de carta",
        "kinds_intro": "Todos los números de jugadores juntos. Jugadas: cartas del tipo jugadas por partida. "
                       "En la mano: cartas del tipo que quedan en las manos al terminar. Victorias: de los "
                       "jugadores que jugaron al menos una, la parte que ganó la partida (intervalo del 95 %; "
                       "la marca es el reparto justo).",
        "events": "Avisos del comprobador",
        "events_intro": "Partidas detenidas en el límite de turnos, partidas bloqueadas (nadie puede jugar ni "
                        "robar), mazos de robo agotados y eliminaciones: con cuántos jugadores y en qué momento "
                        "de la partida. El área de cada punto crece con el número de casos; las cifras de la "
                        "derecha cuentan las partidas con cada aviso.",
        "no_events": "Ninguna partida llegó al límite de turnos ni se bloqueó, ningún mazo de robo se agotó y "
                     "nadie fue eliminado.",
        "method": "Cómo se hizo este informe",
        "method_text": "Cada número de jugadores se jugó {games} veces con cada tipo de jugador, con semillas "
                       "derivadas de la semilla {seed}, el número de jugadores y el número de partida: todas "
                       "las variantes juegan los mismos barajados. Los jugadores al azar eligen por igual entre "
                       "sus jugadas legales; los voraces guardan los comodines para cuando nada más se puede "
                       "jugar, se deshacen de sus cartas de más puntos y atacan al jugador con menos cartas. "
                       "Los intervalos son intervalos de Wilson del 95 %. Las victorias del primer jugador se "
                       "comparan con el reparto justo mediante la prueba de puntuación en la que se basa ese "
                       "intervalo; se consideran significativas cuando su valor p, ajustado con el método de "
                       "Holm sobre todos los números de jugadores, tipos de jugador y variantes, es menor que el 5 %.",
        "method_tests": "Las variantes se comparan con la baraja tal como está escrita: la duración y las "
                        "cartas robadas con la prueba U de "
                       "Mann-Whitney, las partidas detenidas y las victorias del primer jugador con la prueba "
                       "exacta de Fisher; una diferencia se marca como significativa (*) cuando su valor p, "
                       "ajustado con el método de Holm sobre las {tests} comparaciones del informe, es menor "
                       "que el 5 %.",
        "variants": "Variantes",
        "variant_deck": "la baraja tal como está escrita",
        "agent_random": "jugadores al azar", "agent_greedy": "jugadores voraces",
        "Agent_random": "Jugadores al azar", "Agent_greedy": "Jugadores voraces",
        "agent_expert": "jugadores expertos", "Agent_expert": "Jugadores expertos",
        "skill": "¿Importa la habilidad?",
        "skill_intro": "Un jugador experto se sienta entre {opponents}, en un asiento distinto en cada partida "
                       "(todos los asientos por turno). El experto decide a partir de lo que ha visto (su mano, "
                       "las cartas jugadas, quién robó y cuándo) jugando sus jugadas posibles hacia delante "
                       "sobre repartos de las cartas ocultas que concuerdan con ello, {think} partidas simuladas por "
                       "decisión. "
                       "Los puntos son sus victorias sobre las partidas terminadas, con intervalos del 95 % "
                       "(Wilson); las marcas discontinuas son lo que da la suerte sola, 1 entre el número de "
                       "jugadores. Cada cifra sale de {games} partidas (por número de jugadores y tipo de rival): "
                       "una muestra pequeña, con intervalos anchos; --skill-games y --think dan una imagen más completa.",
        "skill_vs": "Experto contra {opp}",
        "skill_col": "gana el experto (95 %)",
        "skill_luck": "la suerte sola",
        "skill_mark": "* significativamente más o menos de lo que da la suerte sola (prueba de puntuación, p "
                      "ajustado de Holm sobre todas las cifras de esta sección < 0,05)",
        "s_skill_more": "Contra {opp}, un experto gana el {rate} con {p} jugadores, donde la suerte sola da el "
                        "{fair} (intervalo del 95 %: {lo}–{hi}).",
        "s_skill_less": "Contra {opp}, un experto gana solo el {rate} con {p} jugadores, menos que el {fair} que "
                        "da la suerte sola (intervalo del 95 %: {lo}–{hi}).",
        "s_skill_luck": "Contra {opp}, un experto gana el {rate} con {p} jugadores, donde la suerte sola da el "
                        "{fair} (intervalo del 95 %: {lo}–{hi}): no claramente más que la suerte.",
        "s_skill_luck_adjusted": "Contra {opp}, un experto gana el {rate} con {p} jugadores, donde la suerte sola "
                                 "da el {fair} (intervalo del 95 %: {lo}–{hi}). Ese intervalo, por sí solo, deja "
                                 "fuera el {fair}, pero entre las {n} cifras de esta sección probadas a la vez (Holm) "
                                 "una puede hacerlo por azar: no claramente {side} que la suerte.",
        "more": "más", "less": "menos",
        "s_skill_range": "De {lo} a {hi} jugadores gana entre {a} y {b} veces su parte justa; significativamente "
                         "más que la suerte con {where} jugadores.",
        "s_skill_range_none": "De {lo} a {hi} jugadores gana entre {a} y {b} veces su parte justa, con ningún "
                              "número de jugadores significativamente más que la suerte.",
        "s_skill_ref": "Como referencia, con {p} jugadores contra {opp}: un experto gana {list}.",
        "s_skill_ref_one": "el {rate} en {name}",
        "s_skill_stop": "Las partidas de cada una de estas cifras se detuvieron en cuanto su intervalo del 95 % "
                        "respondió si la habilidad importa aquí (por encima de la suerte, por debajo o a menos de 5 "
                        "puntos de ella), con un máximo de {budget} partidas por número de jugadores y rival.",
        "s_skill_open_at": "{sizes} jugadores contra {opp}",
        "s_skill_open": "Con {where}, se acabó el presupuesto de {budget} partidas antes de que el intervalo pudiera "
                        "decirlo.",
        "s_skill_ref_from": "Las cifras de referencia se midieron una vez, con {games} partidas cada una ({command}).",
        "v_skill": "Con {label}: contra {opp} un experto gana el {rate} con {p} jugadores ({base}: {was}).",
        "players_n": "{n} jugadores",
        "turns": "turnos", "games": "partidas", "cards": "cartas", "draw_pile": "mazo de robo",
        "cards_per_game": "cartas robadas por partida", "players": "jugadores", "seat": "asiento",
        "win_rate": "victorias", "median": "mediana", "p90": "percentil 90", "cap": "límite",
        "capped_games": "detenidas", "played": "jugadas por partida", "held": "en la mano al final, por partida",
        "won": "victorias de quien la jugó", "fair": "reparto justo", "hand": "mano",
        "middle80": "80 % central de las manos",
        "col_players": "jugadores", "col_median": "turnos (mediana)", "col_p90": "p90", "col_capped": "detenidas",
        "col_stalled": "bloqueadas", "col_dry": "mazo agotado", "col_draws": "robadas / partida",
        "col_first": "gana el asiento 1", "col_variant": "variante",
        "cause_no_play": "sin carta jugable", "cause_stack": "castigos acumulados", "cause_everyone": "todos roban",
        "cause_duel": "duelos", "cause_challenge": "desafíos", "cause_uno": "castigo por no decir UNO",
        "cause_roulette": "Ruleta de color", "cause_penalty": "{kind}",
        "event_capped": "límite de turnos", "event_stalled": "bloqueada", "event_dry": "mazo agotado",
        "event_knockout": "eliminación",
        "significant": "* diferencia significativa respecto a la baraja tal como está escrita (p ajustado de Holm < 0,05)",
        "first_mark": "gana el asiento 1: (+) / (-) significativamente más / menos que el reparto justo (p ajustado de "
                      "Holm < 0,05)",
        "s_length": "Una partida dura una mediana de {a} turnos con {lo} jugadores y {b} con {hi}; "
                    "el 90 % de las partidas con {hi} jugadores termina en {p90} turnos o menos.",
        "s_length_one": "Una partida dura una mediana de {a} turnos; el 90 % termina en {p90} turnos o menos.",
        "s_clean": "Ninguna partida llegó al límite de turnos ni se bloqueó.",
        "s_capped": "Hay partidas que llegan al límite de {cap} turnos: {where}.",
        "s_stalled": "Hay partidas que se bloquean (nadie puede jugar ni robar): {where}.",
        "s_count_at": "{k} de {n} con {p} jugadores",
        "s_most": "con {list} jugadores, sobre todo con {p} ({k} de {n})",
        "s_dry": "El mazo de robo se agota en {k} partidas ({where}).",
        "s_dry1": "El mazo de robo se agota en 1 partida ({where}).",
        "s_knockout": "Hay jugadores eliminados en {k} partidas ({where}).",
        "s_knockout1": "Hay un jugador eliminado en 1 partida ({where}).",
        "s_standing": "El último jugador en pie, con todos los demás eliminados, gana {list}; las demás las gana "
                      "quien se queda sin cartas.",
        "s_standing_at": "el {share} de las partidas terminadas con {p} jugadores", "s_standing_more": "el {share} con {p}",
        "s_standing_one": "el {share} de las partidas terminadas con {p} jugadores ({k} de {n})",
        "s_sizes": "con {list} jugadores",
        "s_causes": "Las cartas robadas vienen sobre todo de: {list}.",
        "s_cause_top": "Con {p} jugadores la causa principal es: {cause} ({share}).",
        "s_first": "El primer jugador gana significativamente más que el reparto justo {where}.",
        "s_first_less": "El primer jugador gana significativamente menos que el reparto justo {where}.",
        "s_first_at": "con {p} jugadores ({rate} frente a {fair})",
        "s_seats_fair": "Ningún número de jugadores muestra una ventaja o desventaja significativa del primer "
                        "jugador.",
        "v_head": "Con {label} ({agent}):",
        "v_capped_none": "ninguna partida de {p} jugadores llega al límite (antes {k} de {n})",
        "v_capped": "las partidas detenidas con {p} jugadores pasan de {k} a {k2} de {n}",
        "v_median": "la duración mediana con {p} jugadores {verb} de {a} a {b} turnos",
        "v_falls": "baja", "v_rises": "sube",
        "v_median_also": "también cambia de forma significativa con {list} jugadores",
        "v_same_length": "la duración no cambia de forma significativa con ningún número de jugadores",
        "v_draw": "las cartas robadas por partida por {cause} con {p} jugadores pasan de {a} a {b}",
        "v_first": "las victorias del primer jugador con {p} jugadores pasan de {a} a {b}",
        "and": "y",
    },
}


# ---------------------------------------------------------------- deckgen new (deckgen.scaffold)

#: The starting manifest, with its comments, per language; its description in both languages.
STARTER_MANIFEST_EN = '''\
# {title}: a deck made with `deckgen new`. Every key is explained in docs/manifest.md.
#
#   deckgen check {file}               every problem at once (it passes as written)
#   deckgen preview {file} --watch     a page that redraws the cards whenever you save
#   deckgen build {file}               the print-and-play PDF and the rulebooks
#
# A text is a plain string (used in every language) or one string per language:
#   name = {{ en = "Skip", es = "Salta" }}

[deck]
id = "{slug}"                     # names the output folder: output/{slug}/
name = "{title}"                  # the game's name, printed on the cover, the rulebook and the backs
language = "{lang}"                     # the rulebook's and the cards' language: en or es
players = {{ min = 2, max = 6 }}    # the table sizes the game supports (2 to 20)
hand_size = 7                     # cards dealt to each player
card_size = "uno"                 # uno, poker, bridge, tarot, mini, euro, or e.g. "63mm x 88mm"
back_text = "{back}"          # the words on every card back (default: the name)
# description: one or two sentences about the game, for the rulebook's first page
description = {description}
# templates = "rules"             # a folder of your own rulebook templates (see templates/README.md)
# symbols = true                  # print each colour's shape (its symbol below) on the cards; on by default past 4 colours

# The palette: the colours in order. `colors = "all"` below makes one card per colour.
# The order matters for Flex cards ("+2" counts along it). Instead of this table a deck can
# name a palette file: palette = "classic" (bundled) or palette = "my-colours.toml" under [deck].
# `deckgen check` measures how well the colours can be told apart, colour-blind vision included.
[palette]
id = "{slug}-colours"
name = "{title} colours"

[[palette.colors]]
id = "red"                        # the id cards use: color = "red"
hex = "#E53935"                   # #RRGGBB
name = {{ en = "red", es = "rojo" }}
symbol = "circle"                 # a shape that marks the colour for colour-blind players (printed with symbols = true)

[[palette.colors]]
id = "yellow"
hex = "#F9C80E"
name = {{ en = "yellow", es = "amarillo" }}
symbol = "triangle"

[[palette.colors]]
id = "green"
hex = "#00A087"
name = {{ en = "green", es = "verde" }}
symbol = "square"

[[palette.colors]]
id = "blue"
hex = "#1E5FBF"
name = {{ en = "blue", es = "azul" }}
symbol = "diamond"

# The rules: a preset (classic, no-mercy, flex-spectrum) and single options changed.
[rules]
preset = "classic"                # every rule option starts from the preset's value

[rules.options]
stacking = "off"                  # off, same-kind or equal-or-higher: answer a draw card with another
uno_penalty = 2                   # cards drawn for a missed "UNO!" (0: no call)

# Scoring: the round's winner scores the cards left in the other hands.
[scoring]
target = 500                      # the score that wins the game

[scoring.points]                  # points per card kind
number = "face"                   # a number card scores the number on it
skip = 20
reverse = 20
draw-two = 20
wild-swap = 40
wild = 50
wild-draw-four = 50

# Your own card kinds. A kind is what a card does: a category (number, action or wild), a
# name, and effect primitives in order (draw, skip, reverse, choose_color, swap_hands,
# everyone_draws, target ...: see docs/manifest.md). No code needed.
[kinds.wild-swap]
category = "wild"                 # wild: no colour, plays on anything
name = {{ en = "Wild Swap", es = "Comodín intercambio" }}
effects = ["swap_hands", "choose_color"]
# label = "SWAP"                  # a short text printed on the card instead of the one derived from the effects
# Other effect lists to try instead (then name the kind after what it does: check holds the name to it):
# effects = ["steal", "choose_color"]                              # take a random card from a player
# effects = [{{ op = "draw", n = 2 }}, "play_again", "choose_color"]   # the victim draws 2, you go again
# effects = [{{ op = "pass_hands", direction = "left" }}, "choose_color"]  # every hand moves one seat left

# The cards. One entry per card or group: colors = "all" makes one card per palette
# colour, values = [...] one per number; count is the copies of each.
[[cards]]
kind = "number"
colors = "all"
value = 0
count = 1

[[cards]]
kind = "number"
colors = "all"
values = [1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2

[[cards]]
kind = "skip"                     # a standard kind: see docs/manifest.md for the whole list
colors = "all"
count = 2

[[cards]]
kind = "reverse"
colors = "all"
count = 2

[[cards]]
kind = "draw-two"
colors = "all"
count = 2

[[cards]]
kind = "wild"
count = 4

[[cards]]
kind = "wild-draw-four"
count = 4

[[cards]]
kind = "wild-swap"
count = 2
# points = 40                     # a card's own points instead of scoring.points
# name = "Trade!"                 # a card's own name instead of the kind's
'''


STARTER_DESCRIPTION_ES = ('{ es = "Un juego casero: iguala el color o el número y sé el primero en quedarte sin cartas.", '
                  'en = "A homemade shedding game: match the colour or the number, be the first to run out." }')
# (one text per language: a sentence written once would print in the other language's rulebook as it is)
STARTER_DESCRIPTION_EN = ('{ en = "A homemade shedding game: match the colour or the number, be the first to run out.", '
                          'es = "Un juego casero: iguala el color o el número y sé el primero en quedarte sin cartas." }')

STARTER_MANIFEST_ES = '''\
# {title}: un mazo hecho con `deckgen new`. Cada clave se explica en docs/manifest.md.
#
#   deckgen check {file}               todos los problemas a la vez (así escrito, no tiene ninguno)
#   deckgen preview {file} --watch     una página que vuelve a dibujar las cartas cada vez que guardas
#   deckgen build {file}               el PDF para imprimir y recortar, y los reglamentos
#
# Un texto es una cadena sola (la misma en todos los idiomas) o una por idioma:
#   name = {{ es = "Salta", en = "Skip" }}

[deck]
id = "{slug}"                     # da nombre a la carpeta de salida: output/{slug}/
name = "{title}"                  # el nombre del juego, en la portada, el reglamento y los dorsos
language = "{lang}"                     # el idioma del reglamento y de las cartas: es o en
players = {{ min = 2, max = 6 }}    # los números de jugadores que admite el juego (de 2 a 20)
hand_size = 7                     # cartas que se reparten a cada jugador
card_size = "uno"                 # uno, poker, bridge, tarot, mini, euro, o p. ej. "63mm x 88mm"
back_text = "{back}"          # las palabras del dorso de cada carta (si falta: el nombre)
# description: una o dos frases sobre el juego, para la primera página del reglamento
description = {description}
# templates = "reglas"            # una carpeta con tus propias plantillas del reglamento (ver templates/README.md)
# symbols = true                  # imprime la forma de cada color (su symbol) en las cartas; por defecto, con más de 4 colores

# La paleta: los colores, en orden. `colors = "all"` más abajo hace una carta de cada color.
# El orden importa en las cartas Flex ("+2" cuenta a lo largo de él). En lugar de esta tabla, un
# mazo puede nombrar un archivo de paleta: palette = "classic" (incluida) o palette = "mis-colores.toml" en [deck].
# `deckgen check` mide si los colores se distinguen bien, también con daltonismo.
[palette]
id = "{slug}-colores"
name = "Colores de {title}"

[[palette.colors]]
id = "red"                        # el id que usan las cartas: color = "red"
hex = "#E53935"                   # #RRGGBB
name = {{ es = "rojo", en = "red" }}
symbol = "circle"                 # una forma que marca el color para jugadores daltónicos (se imprime con symbols = true)

[[palette.colors]]
id = "yellow"
hex = "#F9C80E"
name = {{ es = "amarillo", en = "yellow" }}
symbol = "triangle"

[[palette.colors]]
id = "green"
hex = "#00A087"
name = {{ es = "verde", en = "green" }}
symbol = "square"

[[palette.colors]]
id = "blue"
hex = "#1E5FBF"
name = {{ es = "azul", en = "blue" }}
symbol = "diamond"

# Las reglas: un conjunto de partida (classic, no-mercy, flex-spectrum) y las opciones que cambias.
[rules]
preset = "classic"                # cada opción empieza con el valor del conjunto elegido

[rules.options]
stacking = "off"                  # off, same-kind o equal-or-higher: responder a una carta de robo con otra
uno_penalty = 2                   # cartas que roba quien no dice «¡UNO!» a tiempo (0: sin aviso)

# Puntuación: quien gana la ronda suma las cartas que quedan en las otras manos.
[scoring]
target = 500                      # los puntos con los que se gana la partida

[scoring.points]                  # puntos por tipo de carta
number = "face"                   # una carta de número vale su número
skip = 20
reverse = 20
draw-two = 20
wild-swap = 40
wild = 50
wild-draw-four = 50

# Tus propios tipos de carta. Un tipo es lo que hace una carta: una categoría (number, action o
# wild), un nombre y efectos primitivos en orden (draw, skip, reverse, choose_color, swap_hands,
# everyone_draws, target ...: ver docs/manifest.md). Sin programar nada.
[kinds.wild-swap]
category = "wild"                 # wild: sin color, se juega sobre cualquier carta
name = {{ es = "Comodín intercambio", en = "Wild Swap" }}
effects = ["swap_hands", "choose_color"]
# label = {{ es = "CAMBIO", en = "SWAP" }}   # un texto corto impreso en la carta en lugar del que sale de los efectos
# Otras listas de efectos para probar (y da al tipo un nombre que diga lo que hace: check lo comprueba):
# effects = ["steal", "choose_color"]                              # quita una carta al azar a un jugador
# effects = [{{ op = "draw", n = 2 }}, "play_again", "choose_color"]   # la víctima roba 2 y tú vuelves a jugar
# effects = [{{ op = "pass_hands", direction = "left" }}, "choose_color"]  # cada mano pasa un asiento a la izquierda

# Las cartas. Una entrada por carta o por grupo: colors = "all" hace una carta de cada color de
# la paleta, values = [...] una por número; count es el número de copias de cada una.
[[cards]]
kind = "number"
colors = "all"
value = 0
count = 1

[[cards]]
kind = "number"
colors = "all"
values = [1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2

[[cards]]
kind = "skip"                     # un tipo estándar: la lista completa está en docs/manifest.md
colors = "all"
count = 2

[[cards]]
kind = "reverse"
colors = "all"
count = 2

[[cards]]
kind = "draw-two"
colors = "all"
count = 2

[[cards]]
kind = "wild"
count = 4

[[cards]]
kind = "wild-draw-four"
count = 4

[[cards]]
kind = "wild-swap"
count = 2
# points = 40                     # los puntos de una carta en lugar de los de scoring.points
# name = "¡Cambio!"               # el nombre de una carta en lugar del de su tipo
'''

STARTER_MANIFEST = {"en": STARTER_MANIFEST_EN, "es": STARTER_MANIFEST_ES}
