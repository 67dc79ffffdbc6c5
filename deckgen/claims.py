"""A card says only what it does: the numbers and words of a kind's label, symbol and rules text,
and of a card's own text, held against the card's effects.

What a card does comes from one place, the rulebook's meaning model (``rulebook/meaning.py``):
who draws how many, who loses how many turns, whether its player plays again, and the other
effects in order; the sentence shown beside a designer's own text is the one the rulebook prints
(``rulebook/describe.py``). A label or symbol that claims something the effects lack is an error
(it is printed large on every card of the kind); a rules text that does is a warning, quoting
the text and the rulebook's sentence. Codes and examples: ``docs/checks.md``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from deckgen.errors import Finding, error, warning
from deckgen.model import NUMBER, WILD, Card, Deck, Kind
from deckgen.words import CLAIMED_ACTIONS, CLAIMED_NUMBERS, LANGS

# A symbol a kind names, and the primitives any one of which it stands for (shapes and the
# neutral marks claim nothing).
SYMBOL_OPS: dict[str, frozenset[str]] = {
    "skip": frozenset({"skip"}), "reverse": frozenset({"reverse"}),
    "skip-all": frozenset({"skip_all", "play_again"}), "play-again": frozenset({"play_again", "skip_all"}),
    "discard-all": frozenset({"discard_color"}), "flip": frozenset({"flip_power"}), "duel": frozenset({"duel"}),
    "target": frozenset({"target"}), "everyone": frozenset({"everyone_draws"}), "swap": frozenset({"swap_hands"}),
    "pass": frozenset({"pass_hands"}), "pass-left": frozenset({"pass_hands"}), "pass-right": frozenset({"pass_hands"}),
    "plus": frozenset({"draw", "everyone_draws"}), "steal": frozenset({"steal"}),
    "wild": frozenset({"choose_color"}), "roulette": frozenset({"roulette"}), "wheel": frozenset({"roulette"}),
}


def _lang(lang: str) -> str:
    return lang if lang in CLAIMED_ACTIONS else "en"


def numbers_in(text: str, lang: str) -> list[int]:
    """The numbers a text names: digits, and number words from two up (one/uno name cards and the game)."""
    found = [int(m) for m in re.findall(r"\d+", text)]
    words = CLAIMED_NUMBERS[_lang(lang)]
    found += [words[w] for w in re.findall(r"[^\W\d_]+", text.lower()) if w in words]
    return found


def actions_in(text: str, lang: str) -> list[tuple[str, frozenset[str]]]:
    low = text.lower()
    return [(name, ops) for name, pattern, ops in CLAIMED_ACTIONS[_lang(lang)] if re.search(pattern, low)]


def does(deck: Deck, kind: Kind) -> tuple[set[int], set[str]]:
    """The numbers and primitives a kind's cards really have, from the rulebook's meaning model."""
    from deckgen.rulebook.meaning import meaning

    ops = {e.op for e in kind.effects}
    nums: set[int] = {int(e.n) for e in kind.effects if e.n}
    nums.add(kind.draw_value)
    for players in (2, 3):
        m = meaning(kind.effects, deck.rule_options, players)
        nums.add(m.everyone)
        for f in m.fates.values():
            nums.update({f.drawn, f.lost, *(h.n for h in f.hits)})
        if m.reverse_as_skip:
            ops.add("skip")
    opts = deck.rule_options
    if "duel" in ops:
        nums.update({opts.duel_penalty, opts.duel_penalty_max})
    if "challenge" in ops:
        nums.add(opts.challenge_penalty)
    nums.update(c.value for c in deck.cards if c.kind == kind.id and c.value is not None)
    nums.discard(0)
    return nums, ops


def sentence(deck: Deck, kind: Kind, lang: str) -> str:
    """What the rulebook says the kind does."""
    from deckgen.rulebook.describe import effects_text, phrase

    text = effects_text(deck, kind.effects, _lang(lang), wild=kind.category == WILD).strip()
    return text or phrase(_lang(lang), "no_effect")


def _used_kinds(deck: Deck) -> Iterator[Kind]:
    seen: dict[str, None] = {}
    for c in deck.cards:
        seen[c.kind] = None
        if c.flex:
            seen[c.flex.kind] = None
    for kid in seen:
        if kid in deck.kinds:
            yield deck.kinds[kid]


def claim_findings(deck: Deck) -> list[Finding]:
    """Every label, symbol and rules text held against what its cards do."""
    file = str(deck.source) if deck.source else None
    out: list[Finding] = []
    langs = deck_languages(deck)
    for kind in _used_kinds(deck):
        if kind.category == NUMBER and not kind.effects:
            continue
        nums, ops = does(deck, kind)
        name = kind.names.get(deck.language)
        if kind.label is not None:
            for lang in langs:
                label = kind.label.get(lang)
                wrong = [n for n in numbers_in(label, lang) if n not in nums and n != 1]
                lacking = [a for a, need in actions_in(label, lang) if not need & ops]
                if wrong or lacking:
                    said = ", ".join([str(n) for n in wrong] + lacking)
                    out.append(error("label-contradicts-effect", f"kinds.{kind.id}.label",
                                     f"'{name}' is labelled \"{label}\" ({lang}), but {said} is not what its "
                                     f"cards do; the rulebook says: \"{sentence(deck, kind, lang)}\"", file=file,
                                     hint="remove the label to have one derived from the effects, or change "
                                          "the effects to match it"))
                    break
        if kind.symbol and kind.symbol in SYMBOL_OPS and not SYMBOL_OPS[kind.symbol] & ops:
            out.append(error("label-contradicts-effect", f"kinds.{kind.id}.symbol",
                             f"'{name}' shows the '{kind.symbol}' symbol, but its cards do not "
                             f"{kind.symbol.replace('-', ' ')}; the rulebook says: "
                             f"\"{sentence(deck, kind, deck.language)}\"", file=file,
                             hint="remove the symbol to have one derived from the effects"))
        if kind.text is not None:
            out.extend(_text_findings(deck, kind, kind.text.values, f"kinds.{kind.id}.text", file))
    entries: set[str] = set()
    for card in deck.cards:
        if card.text is not None and card.kind in deck.kinds and card.where not in entries:
            entries.add(card.where)          # one [[cards]] entry's text once, whatever it expands to
            kind = deck.kinds[card.kind]
            out.extend(_text_findings(deck, kind, card.text.values, f"{card.where}.text", file, card=card))
    return list(dict.fromkeys(out))


def _text_findings(deck: Deck, kind: Kind, texts: Mapping[str, str], where: str, file: str | None,
                   card: Card | None = None) -> list[Finding]:
    nums, ops = does(deck, kind)
    out: list[Finding] = []
    for key, text in texts.items():
        lang = key or deck.language               # a plain string is the deck's language
        wrong = sorted({n for n in numbers_in(text, lang) if n not in nums})
        lacking = [a for a, need in actions_in(text, lang) if not need & ops]
        said_draw = any("draw" in need for _, need in actions_in(text, lang))
        missing = (kind.draw_value and said_draw and numbers_in(text, lang)
                   and kind.draw_value not in numbers_in(text, lang)
                   and not any(h in numbers_in(text, lang) for h in nums - {kind.draw_value}))
        if not (wrong or lacking or missing):
            continue
        parts = []
        if wrong:
            parts.append("the number" + ("s " if len(wrong) > 1 else " ") + ", ".join(map(str, wrong)))
        if lacking:
            parts.append(("the action" if len(lacking) == 1 else "the actions") + " '" + "', '".join(lacking) + "'")
        what = " and ".join(parts) if parts else f"a draw without its number ({kind.draw_value})"
        who = f"'{card.name(deck.language)}'" if card else f"'{kind.names.get(deck.language)}'"
        out.append(warning("text-contradicts-effect", f"{where}.{key}" if key and len(texts) > 1 else where,
                           f"the text of {who} names {what}, which its effects do not have: the text says \"{text}\"; "
                           f"the card does: \"{sentence(deck, kind, lang)}\"", file=file,
                           hint="write the text from what the card does (or leave it out: the rulebook "
                                "explains every card)"))
    return out


def deck_languages(deck: Deck) -> list[str]:
    """The languages the deck's words are printed in: its own, then the rulebook's others."""
    return list(dict.fromkeys([deck.language, *LANGS]))
