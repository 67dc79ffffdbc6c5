"""``deckgen new NAME``: a playable starting deck whose comments teach every key.

It writes ``NAME/NAME.toml``: a four-colour deck with its own inline palette, the classic
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
label = "SWAP"                    # the short text printed on the card (derived when absent)
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


def slug_of(text: str) -> str:
    """``My Game!`` -> ``my-game``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def manifest_text(slug: str, lang: str = "en") -> str:
    title = " ".join(w.capitalize() for w in slug.split("-"))
    return TEMPLATE.format(slug=slug, title=title, lang=lang, file=f"{slug}/{slug}.toml",
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
