"""The keys a manifest (and a palette file) may hold: one table per TOML table.

``docs/manifest.md`` documents every key listed here; a test keeps the two in step.
Each entry maps a key to ``(type description, required)``.
"""

from __future__ import annotations

from dataclasses import fields

from deckgen.effects import Effect

DECK_KEYS = {
    "id": ("string", True),
    "name": ("text", True),
    "language": ("string", True),
    "players": ("table", True),
    "hand_size": ("integer", True),
    "card_size": ("string", False),
    "palette": ("string", False),
    "back_text": ("text", False),
    "description": ("text", False),
    "templates": ("string", False),
    "back_image": ("image path", False),
    "logo": ("image path", False),
    "cover_logo": ("image path", False),
    "fonts": ("folder path", False),
    "layout": ("string", False),
    "back_layout": ("string", False),
    "symbols": ("boolean", False),
}

PLAYERS_KEYS = {
    "min": ("integer", True),
    "max": ("integer", True),
}

TOP_KEYS = {
    "deck": ("table", True),
    "palette": ("table", False),
    "rules": ("table", True),
    "scoring": ("table", True),
    "kinds": ("table", False),
    "cards": ("array of tables", True),
    "components": ("array of tables", False),
}

PALETTE_KEYS = {
    "id": ("string", False),
    "name": ("string", False),
    "colors": ("array of tables", True),
}

COLOR_KEYS = {
    "id": ("string", True),
    "hex": ("string", True),
    "name": ("text", True),
    "symbol": ("string", False),
}

RULES_KEYS = {
    "preset": ("string", True),
    "options": ("table", False),
}

SCORING_KEYS = {
    "target": ("integer", True),
    "knockout_bonus": ("integer", False),
    "points": ("table", False),
}

KIND_KEYS = {
    "category": ("string", True),
    "name": ("text", True),
    "effects": ("array", False),
    "symbol": ("string", False),
    "label": ("text", False),
    "icon": ("image path", False),
    "art": ("image path", False),
    "art_fit": ("string", False),
    "text": ("text", False),
    "layout": ("string", False),
    "hide": ("array of strings", False),
}

CARD_KEYS = {
    "id": ("string", False),
    "kind": ("string", True),
    "color": ("string", False),
    "colors": ("string or array", False),
    "value": ("integer", False),
    "values": ("array of integers", False),
    "count": ("integer", True),
    "points": ("integer", False),
    "name": ("text", False),
    "flip_icon": ("boolean", False),
    "duel": ("boolean", False),
    "colorless": ("boolean", False),
    "flex": ("table", False),
    "art": ("image path", False),
    "art_fit": ("string", False),
    "text": ("text", False),
    "layout": ("string", False),
    "hide": ("array of strings", False),
}

FLEX_KEYS = {
    "color": ("string", False),
    "kind": ("string", True),
}

COMPONENT_KEYS = {
    "id": ("string", True),
    "kind": ("string", True),
    "count": ("integer", True),
    "name": ("text", True),
    "faces": ("array of strings", True),
}

EFFECT_KEYS = {f.name for f in fields(Effect)}      # an effect table's keys: the fields of deckgen.effects.Effect

# Every table the parser reads, by the name docs/manifest.md uses for its section.
ALL_TABLES = {
    "top level": TOP_KEYS,
    "[deck]": DECK_KEYS,
    "deck.players": PLAYERS_KEYS,
    "[palette]": PALETTE_KEYS,
    "[[palette.colors]]": COLOR_KEYS,
    "[rules]": RULES_KEYS,
    "[scoring]": SCORING_KEYS,
    "[kinds.<id>]": KIND_KEYS,
    "[[cards]]": CARD_KEYS,
    "cards[].flex": FLEX_KEYS,
    "[[components]]": COMPONENT_KEYS,
}

MAX_COUNT = 1000          # copies of one card entry
MAX_PLAYERS = 20
MAX_VALUE = 99
LANGUAGES = ("es", "en")

# Longest texts accepted (characters): what a card, a rulebook line or a table cell can hold.
# Longer ones are errors instead of text clipped or shrunk to nothing on the face.
MAX_NAME = 60             # a deck, kind, card or colour name; the back text
MAX_LABEL = 10            # a kind's centre label, e.g. "+4" or "SKIP"
MAX_DESCRIPTION = 2000    # deck.description (the rulebook's introduction)
MAX_TEXT = 400            # a card's rules text (kinds.<id>.text, cards[].text); its icons: rulebook/markup.py
MAX_CARDS = 10_000        # a deck with more cards than this is probably a typo (a warning)
