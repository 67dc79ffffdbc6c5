"""A card says only what it does: the words of a kind's label, name and symbol, and of its and its
cards' rules texts, held against what the card does.

What a card does comes from one place, the rulebook's meaning model (``rulebook/meaning.py``):
who draws how many, who loses how many turns, whether its player plays again, the direction of
play, and the other effects. :func:`facts` turns it into a small set of facts, at a table of
three or more and at two; :func:`claimed` reads what words claim (the patterns of
:data:`deckgen.words.CLAIMED_ACTIONS`: "draws", "is skipped", "keeps the turn", "reverses" ...,
and the numbers, leaving out conditions such as "two or more"). A claim the facts lack is a lie:
in a label, a symbol or a kind's name (printed large on every card of the kind) an error, in a
rules text a warning quoting the text beside the rulebook's sentence. A sentence about two
players is held against the card at two. Codes, examples, and how well this does on a corpus of
card words (precision and recall): ``docs/checks.md``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from deckgen.effects import Effect
from deckgen.errors import Finding, error
from deckgen.model import NUMBER, WILD, Card, Deck, Kind
from deckgen.options import RuleOptions
from deckgen.words import CLAIM_CONDITIONS, CLAIM_TURNS, CLAIM_TWO_PLAYERS, CLAIMED_ACTIONS, CLAIMED_NUMBERS, LANGS

# A symbol a kind names, and the facts any one of which it stands for (shapes and the neutral
# marks claim nothing).
SYMBOL_FACTS: dict[str, frozenset[str]] = {
    "skip": frozenset({"skip"}), "reverse": frozenset({"reverse"}), "skip-all": frozenset({"again"}),
    "play-again": frozenset({"again"}), "discard-all": frozenset({"discard"}), "flip": frozenset({"flip"}),
    "duel": frozenset({"duel"}), "target": frozenset({"chosen"}), "everyone": frozenset({"everyone"}),
    "swap": frozenset({"swap"}), "pass": frozenset({"pass"}), "pass-left": frozenset({"pass"}),
    "pass-right": frozenset({"pass"}), "plus": frozenset({"draw"}), "steal": frozenset({"steal"}),
    "wild": frozenset({"colour"}), "roulette": frozenset({"roulette"}), "wheel": frozenset({"roulette"}),
}


def _lang(lang: str) -> str:
    return lang if lang in CLAIMED_ACTIONS else "en"


# ---------------------------------------------------------------- what words claim

@dataclass(frozen=True)
class Claims:
    """What some words claim: facts (with the words that claim each) and counts."""

    facts: tuple[tuple[str, str], ...]          # (fact, the claim in words)
    numbers: tuple[int, ...]
    turns: tuple[int, ...] = ()                 # counts of lost turns ("loses two turns")

    @property
    def tags(self) -> set[str]:
        return {f for f, _ in self.facts}


def _number(word: str, lang: str) -> int | None:
    return int(word) if word.isdigit() else CLAIMED_NUMBERS[_lang(lang)].get(word)


def numbers_in(text: str, lang: str) -> list[int]:
    """The counts a text names: digits, and number words from two up (one/uno name cards and the
    game), leaving out conditions ("two or more", "at least 2")."""
    low = re.sub(CLAIM_CONDITIONS[_lang(lang)], " ", text.lower())
    found = [int(m) for m in re.findall(r"\d+", low)]
    words = CLAIMED_NUMBERS[_lang(lang)]
    found += [words[w] for w in re.findall(r"[^\W\d_]+", low) if w in words]
    return found


def turns_in(text: str, lang: str) -> list[int]:
    """The counts of lost turns a text names ("loses two turns", "pierde dos turnos")."""
    return [n for w in re.findall(CLAIM_TURNS[_lang(lang)], text.lower()) if (n := _number(w, lang)) is not None]


def _claims(text: str, lang: str) -> Claims:
    low = text.lower()
    out: list[tuple[str, str]] = []
    for fact, words, pattern in CLAIMED_ACTIONS[_lang(lang)]:
        found = False

        def blank(m: re.Match[str]) -> str:
            nonlocal found
            found = True
            return " " * len(m.group(0))

        low = re.sub(pattern, blank, low)
        if found:
            out.append((fact, words))
    return Claims(tuple(out), tuple(numbers_in(text, lang)), tuple(turns_in(text, lang)))


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.;:!?])\s+|\n+", text) if s.strip()]


@functools.lru_cache(maxsize=1024)
def claimed(text: str, lang: str) -> tuple[tuple[Claims, bool], ...]:
    """What a text claims, sentence by sentence, each with whether it speaks of a table of two."""
    from deckgen.rulebook.markup import plain_text

    out = []
    for sentence in _sentences(plain_text(text)):
        two = re.search(CLAIM_TWO_PLAYERS[_lang(lang)], sentence.lower())
        if two:
            sentence = sentence[:two.start()] + " " * (two.end() - two.start()) + sentence[two.end():]
        out.append((_claims(sentence, lang), bool(two)))
    return tuple(out)


# ---------------------------------------------------------------- what a card does

@dataclass(frozen=True)
class Facts:
    """What a kind's cards do at one table size (three or more, or two): the facts words claim."""

    tags: frozenset[str]
    numbers: frozenset[int]
    turns: frozenset[int] = frozenset()         # how many turns the card costs a player (1: at most one)


def facts(deck: Deck, kind: Kind, players: int = 3) -> Facts:
    """What a kind's cards do at a table of ``players`` (2, or 3 for any larger table), from the
    rulebook's meaning model."""
    values = tuple(sorted({c.value for c in deck.cards if c.kind == kind.id and c.value is not None}))
    return _facts(deck.rule_options, kind.effects, kind.draw_value, values, players)


@functools.lru_cache(maxsize=512)
def _facts(opts: RuleOptions, effects: tuple[Effect, ...], draw_value: int, values: tuple[int, ...],
           players: int) -> Facts:
    from deckgen.rulebook.meaning import YOU, meaning

    ops = {e.op for e in effects}
    m = meaning(effects, opts, players)
    others = [f for role, f in m.fates.items() if role != YOU]
    tags = {t for t, on in (
        ("draw", any(f.hits for f in m.fates.values()) or m.everyone or ops & {"roulette", "duel"}),
        ("skip", any(f.lost for f in others) or "skip_all" in ops),          # play_again: the others only wait
        ("self-skip", YOU in m.fates and m.fates[YOU].lost > 0),             # the card's own player loses a turn
        ("keep", not any(f.lost for f in others) and "skip_all" not in ops),
        ("reverse", m.reversed), ("again", m.again),
        ("colour", ops & {"choose_color", "roulette"}),
        ("chosen", ops & {"target", "steal", "swap_hands"}),
        ("everyone", ops & {"everyone_draws", "skip_all", "pass_hands", "duel"}
         or any(e.op == "flip_power" and e.who == "all" for e in effects)),
        ("steal", "steal" in ops), ("swap", "swap_hands" in ops), ("pass", "pass_hands" in ops),
        ("discard", ops & {"discard_color", "duel"}), ("duel", "duel" in ops), ("roulette", "roulette" in ops),
        ("flip", "flip_power" in ops), ("challenge", "challenge" in ops)) if on}
    nums: set[int] = {int(e.n) for e in effects if e.n}
    nums.add(draw_value)
    nums.add(m.everyone)
    for f in m.fates.values():
        nums.update({f.drawn, f.lost, *(h.n for h in f.hits)})
    if "duel" in ops:
        nums.update({opts.duel_penalty, opts.duel_penalty_max})
    if "challenge" in ops:
        nums.add(opts.challenge_penalty)
    nums.update(values)
    nums.discard(0)
    return Facts(frozenset(tags), frozenset(nums), frozenset(f.lost for f in others if f.lost))


def untrue(deck: Deck, kind: Kind, text: str, lang: str) -> tuple[list[int], list[str]]:
    """(numbers, claims in words) a text claims that the kind's cards do not do: each sentence held
    against the card at a table of three or more, or of two when it speaks of two players."""
    at = {3: facts(deck, kind, 3), 2: facts(deck, kind, 2)}
    wrong: list[int] = []
    lacking: list[str] = []
    for claims, two in claimed(text, lang):
        f = at[2 if two else 3]
        wrong += [n for n in claims.numbers if n not in f.numbers and n not in wrong]
        wrong += [n for n in claims.turns if n not in f.turns and n not in wrong]
        lacking += [words for fact, words in claims.facts if fact not in f.tags and words not in lacking]
    return wrong, lacking


def sentence(deck: Deck, kind: Kind, lang: str) -> str:
    """What the rulebook says the kind does."""
    from deckgen.rulebook.describe import effects_text, phrase

    text = effects_text(deck, kind.effects, _lang(lang), wild=kind.category == WILD).strip()
    return text or phrase(_lang(lang), "no_effect")


# ---------------------------------------------------------------- the findings

def _used_kinds(deck: Deck) -> Iterator[Kind]:
    seen: dict[str, None] = {}
    for c in deck.cards:
        seen[c.kind] = None
        if c.flex:
            seen[c.flex.kind] = None
    for kid in seen:
        if kid in deck.kinds:
            yield deck.kinds[kid]


def _said(wrong: list[int], lacking: list[str]) -> str:
    parts = []
    if wrong:
        parts.append("the number" + ("s " if len(wrong) > 1 else " ") + ", ".join(map(str, wrong)))
    if lacking:
        parts.append(("the action" if len(lacking) == 1 else "the actions") + " '" + "', '".join(lacking) + "'")
    return " and ".join(parts)


def claim_findings(deck: Deck) -> list[Finding]:
    """Every label, symbol, kind name and rules text held against what its cards do."""
    file = str(deck.source) if deck.source else None
    out: list[Finding] = []
    langs = deck_languages(deck)
    for kind in _used_kinds(deck):
        if kind.category == NUMBER and not kind.effects:
            continue
        name = kind.names.get(deck.language)
        for key, names in (("label", kind.label), ("name", kind.names)):
            for lang in langs if names is not None else []:
                assert names is not None
                words = names.get(lang)
                wrong, lacking = untrue(deck, kind, words, lang)
                if wrong or lacking:
                    what = "labelled" if key == "label" else "named"
                    out.append(error(f"{key}-contradicts-effect", f"kinds.{kind.id}.{key}",
                                     f"'{name}' is {what} \"{words}\" ({lang}), but {_said(wrong, lacking)} is not "
                                     f"what its cards do; the rulebook says: \"{sentence(deck, kind, lang)}\"",
                                     file=file,
                                     hint=("remove the label to have one derived from the effects, or change the "
                                           "effects to match it") if key == "label" else
                                          "name it after what it does, or change the effects to match the name"))
                    break
        if kind.symbol and kind.symbol in SYMBOL_FACTS and not SYMBOL_FACTS[kind.symbol] & facts(deck, kind).tags:
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


def text_untrue(deck: Deck, kind: Kind, text: str, lang: str) -> str:
    """What a rules text claims that the kind's cards do not do, in words ("" when nothing): the
    numbers and actions it names that they lack, or a draw without its number."""
    wrong, lacking = untrue(deck, kind, text, lang)
    if wrong or lacking:
        return _said(sorted(set(wrong)), lacking)
    said = [n for claims, _ in claimed(text, lang) for n in claims.numbers]
    draws = any("draw" in claims.tags for claims, _ in claimed(text, lang))
    nums = facts(deck, kind).numbers | facts(deck, kind, 2).numbers
    if kind.draw_value and draws and said and kind.draw_value not in said and not any(
            h in said for h in nums - {kind.draw_value}):
        return f"a draw without its number ({kind.draw_value})"
    return ""


def _text_findings(deck: Deck, kind: Kind, texts: Mapping[str, str], where: str, file: str | None,
                   card: Card | None = None) -> list[Finding]:
    out: list[Finding] = []
    for key, text in texts.items():
        lang = key or deck.language               # a plain string is the deck's language
        what = text_untrue(deck, kind, text, lang)
        if not what:
            continue
        who = f"'{card.name(deck.language)}'" if card else f"'{kind.names.get(deck.language)}'"
        out.append(error("text-contradicts-effect", f"{where}.{key}" if key and len(texts) > 1 else where,
                           f"the text of {who} names {what}, which its effects do not have: the text says \"{text}\"; "
                           f"the card does: \"{sentence(deck, kind, lang)}\"", file=file,
                           hint="write the text from what the card does (or leave it out: the rulebook "
                                "explains every card)"))
    return out


def deck_languages(deck: Deck) -> list[str]:
    """The languages the deck's words are printed in: its own, then the rulebook's others."""
    return list(dict.fromkeys([deck.language, *LANGS]))
