"""Card descriptions generated from effect primitives, flags and rule options (es, en).

Nothing here knows a card by name: a homemade "Wild Draw 20" (draw 20, choose colour)
is described correctly without new text, and changing a manifest changes the words.

An effect list is first turned into its meaning (:mod:`deckgen.rulebook.meaning`: who draws how
many, who loses how many turns, who plays next); the sentences are written from that model, so a
composed card such as ``[{op="draw", n=3}, "skip"]`` reads as one statement about one player.
:data:`deckgen.words.PHRASES` holds each primitive's words in both languages and what it does as
a first card; the sentences are :data:`deckgen.words.SENTENCES`.
"""

from __future__ import annotations

import re

from deckgen.effects import Effect
from deckgen.model import NUMBER, WILD, Deck, Kind
from deckgen.rulebook.groups import Group, flex_offset
from deckgen.rulebook.meaning import CHOSEN, NEXT, NEXT_NEW, OPPONENT, YOU, Fate, Meaning, meaning, seat_outcome
from deckgen.rulebook.words import cards_word, color_name, join, lang_of, number_word, power_name, values_text
from deckgen.words import ACTS, ALL, GROUP_NAME_WORDS, IDLE, PHRASES, SENTENCES


def start_idle(kind: Kind) -> bool:
    """Whether, as the first card under the classic start rule, part of this kind's effect does
    nothing because nobody played it."""
    return any(PHRASES[e.op].start == IDLE or (e.op == "flip_power" and e.who == "self") for e in kind.effects)


def start_idle_words(kind: Kind, lang: str, power: str) -> str:
    """What this kind's effect leaves undone as the first card (nobody played it): "does nothing"
    when none of it acts then, else its idle parts ("swaps no hands" for a Wild Swap, whose colour
    the first player still names); "" when all of it acts. As the engine's start handlers do."""
    idle = [e for e in kind.effects if PHRASES[e.op].start == IDLE or (e.op == "flip_power" and e.who == "self")]
    if not idle:
        return ""
    if all(e in idle or e.op in START_SILENT for e in kind.effects):
        return phrase(lang, "start_does_nothing")
    return join(list(dict.fromkeys(PHRASES[e.op].get(lang, "idle").format(power=power) for e in idle)), lang)


# Primitives that do nothing by themselves as the first card, though not counted as idle: a chosen
# victim (the card's other parts then act on the first player) and a challenge (a flag of a draw).
START_SILENT = ("target", "challenge")


def start_all(kind: Kind) -> bool:
    return any(PHRASES[e.op].start == ALL for e in kind.effects)


def names_colour(effects: tuple[Effect, ...]) -> bool:
    """Whether a wild with these effects names the colour to follow (else the colour stays as it
    was; as the first card, the first player names it: actions.start_from)."""
    return any(e.op in ("choose_color", "roulette") for e in effects)


def start_acts(kind: Kind) -> bool:
    """Whether, as the first card, a wild of this kind does more than have its colour named: an
    effect that acts on the first player (a skip, a reverse, a roulette, every Power card turned).
    Drawing from it is not counted: a wild that draws goes back under the classic start rule, and
    everyone's draw has its own sentence (start_all)."""
    return any(PHRASES[e.op].start == ACTS and e.op not in ("choose_color", "draw", "everyone_draws", *START_SILENT)
               and not (e.op == "flip_power" and e.who == "self") for e in kind.effects)


def phrase(lang: str, key: str, **kw: object) -> str:
    return SENTENCES[lang_of(lang)][key].format(**kw)


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
        return words.get(lang, "say").format(cards=cards_word(lang, e.n), keep=keep)
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
    text = " ".join(dict.fromkeys(s for f in m2.fates.values() for s in fate_sentences(lang, f)))
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
    if wild and not names_colour(effects):
        out.append(phrase(lang, "wild_keeps"))
    return _once(" ".join(s for s in out if s))


def _once(text: str) -> str:
    """Each sentence once: two ``skip_all`` say it once, and a lost turn still owed is said once
    though the two-player paragraph would say it again."""
    sentences = re.split(r"(?<=[.!?])\s+", text)
    return " ".join(dict.fromkeys(s for s in sentences if s))


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


def group_name(deck: Deck, group: Group, lang: str) -> str:
    """"Skip / Skip All", "Number (duel)", "Flex number": a name for a group of cards."""
    w = GROUP_NAME_WORDS[lang_of(lang)]
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
