"""``deckgen new NAME``: a playable starting deck whose comments teach every key.

It writes ``NAME/NAME.toml`` (with ``lang="es"`` every comment and word in Spanish, each printed
text given in both languages so that both rulebooks are complete): a four-colour deck with its own inline palette, the classic
rules, one homemade card kind composed from effect primitives, and every card count chosen
so that ``deckgen check`` passes with no error and no warning. Edit it, run
``deckgen preview NAME/NAME.toml --watch`` and look.
"""

from __future__ import annotations

import re
from pathlib import Path

from deckgen.atomic import write_text
from deckgen.errors import DeckgenError, error

LANGUAGES = ("en", "es")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

TEMPLATE = '''\
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
description = "A homemade shedding game: match the colour or the number, be the first to run out."
# templates = "rules"             # a folder of your own rulebook templates (see templates/README.md)

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
symbol = "circle"                 # a shape printed beside the colour for colour-blind players

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
# Other effect lists to try instead:
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


DESCRIPTION_ES = ('{ es = "Un juego casero: iguala el color o el número y sé el primero en quedarte sin cartas.", '
                  'en = "A homemade shedding game: match the colour or the number, be the first to run out." }')

TEMPLATE_ES = '''\
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
symbol = "circle"                 # una forma impresa junto al color para jugadores daltónicos

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
# Otras listas de efectos para probar:
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


def slug_of(text: str) -> str:
    """``My Game!`` -> ``my-game``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def manifest_text(slug: str, lang: str = "en") -> str:
    title = " ".join(w.capitalize() for w in slug.split("-"))
    template = TEMPLATE_ES if lang == "es" else TEMPLATE
    return template.format(slug=slug, title=title, lang=lang, file=f"{slug}/{slug}.toml", description=DESCRIPTION_ES,
                           back=title.upper()[:12] if len(title) > 1 else title)


def new_deck(name: str, parent: Path | None = None, lang: str = "en") -> Path:
    """Write ``<parent>/<name>/<name>.toml`` and return its path; never overwrites a file."""
    name = str(name)
    if not _SLUG.fullmatch(name):
        suggestion = slug_of(name)
        raise DeckgenError(error("usage", "NAME", f"'{name}' is not a deck id (lowercase letters, digits and '-')",
                                 hint=f"try deckgen new {suggestion}" if suggestion else "e.g. deckgen new my-game"))
    if lang not in LANGUAGES:
        raise DeckgenError(error("usage", "--lang", f"no language '{lang}'", hint="use en or es"))
    path = (Path(parent) if parent is not None else Path()) / name / f"{name}.toml"
    if path.exists():
        raise DeckgenError(error("exists", str(path), "the file already exists; deckgen new never overwrites",
                                 hint="pick another NAME, or move the file away"))
    return write_text(path, manifest_text(name, lang))
