"""Small words and phrases the generated text needs, per language (es, en).

A language missing here falls back to English, so a deck in another language still
gets a complete (English) rulebook rather than an error.
"""

from __future__ import annotations

from deckgen.model import Deck

LANGS = ("es", "en")

UI = {
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
    },
}

SYMBOLS = {
    "en": {"circle": "circle", "triangle": "triangle", "square": "square", "diamond": "diamond",
           "star": "star", "hexagon": "hexagon", "heart": "heart", "cross": "cross",
           "crescent": "crescent", "drop": "drop", "pentagon": "pentagon", "ring": "ring"},
    "es": {"circle": "círculo", "triangle": "triángulo", "square": "cuadrado", "diamond": "rombo",
           "star": "estrella", "hexagon": "hexágono", "heart": "corazón", "cross": "cruz",
           "crescent": "media luna", "drop": "gota", "pentagon": "pentágono", "ring": "anillo"},
}


def lang_of(lang: str) -> str:
    return lang if lang in UI else "en"


def ui(lang: str, key: str, **kw: object) -> str:
    return UI[lang_of(lang)][key].format(**kw)


def cards_word(lang: str, n: int) -> str:
    """"4 cards" / "1 card"."""
    lang = lang_of(lang)
    if lang == "es":
        return "1 carta" if n == 1 else f"{n} cartas"
    return "1 card" if n == 1 else f"{n} cards"


_NUMBER_WORDS = {
    "en": ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    "es": ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez"),
}


def number_word(lang: str, n: int) -> str:
    """"two" / "dos" up to ten, digits above."""
    words = _NUMBER_WORDS[lang_of(lang)]
    return words[n] if 0 <= n < len(words) else str(n)


def join(items: list[str], lang: str, word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {ui(lang, word)} " + items[-1]


def power_name(deck: Deck, lang: str) -> str:
    for comp in deck.components:
        if comp.kind == "power":
            return comp.names.get(lang)
    return "Carta de poder" if lang_of(lang) == "es" else "Power card"


def color_name(deck: Deck, color_id: str, lang: str) -> str:
    return deck.palette.get(color_id).names.get(lang)


def values_text(values: tuple[int, ...], lang: str) -> str:
    """(1,2,3,4,9) -> "1–4, 9"."""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    parts = [str(r[0]) if len(r) == 1 else (f"{r[0]}, {r[1]}" if len(r) == 2 else f"{r[0]}–{r[-1]}")
             for r in runs]
    return join(parts, lang)
