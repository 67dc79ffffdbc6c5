"""What a person's page is sent: their view of the table, made from their observation alone.

A view names only the person's own cards, the top card and the legal answers to their own
decision; the others' hands only by their sizes. The game's seed is sent once the game is over
(for a replay), never before: from it the engine would rebuild every hand and the draw pile.
"""

from __future__ import annotations

from typing import Any, cast

from deckgen.play.session import Hand, Session, answers
from deckgen.rules.decision import Decision, DecisionKind, Observation
from deckgen.rules.state import FINISHED, Duel

_YES_NO = {"challenge": ("a_challenge", "a_accept"), "uno": ("a_uno", "a_silent"),
           "catch": ("a_catch", "a_let"), "jump_in": ("a_jump", "a_wait")}


def view(s: Session, me: int) -> dict[str, Any]:
    """A person's view of the table (their observation, their decision), or of its end."""
    with s.lock:
        return _view(s, me)


def _view(s: Session, me: int) -> dict[str, Any]:
    h = s.hand
    assert h is not None
    t, w, names = s.table, s.words(me), s.names(me)
    o = h.game.observation(me)
    d = s.pending()
    color = None
    if o.color >= 0:
        color = {"name": w.color(o.color), "hex": s.deck.palette.get(t.colors[o.color]).hex}
    power = t.rules.power_cards and t.any_flex
    human = s.seats.human
    players = [{"seat": q, "name": names[q], "you": q == me, "human": human(q), "cards": o.hand_sizes[q],
                "cards_text": w.cards(o.hand_sizes[q]), "alive": o.alive[q],
                "power": o.power[q] if power else None, "owed": o.owed[q], "score": s.scores[q],
                "bot": None if human(q) else s.opts.bots} for q in range(s.n)]
    pen = o.penalty
    duel = cast("Duel | None", o.duel)
    mine = d is not None and d.player == me and not s._raced(d)
    lines = s.lines.get(me, [])
    return {
        "game": s.game_id, "version": s.version, "seq": s.seq(), "lang": s.lang,
        "deck": {"id": s.deck.id, "name": s.deck.name(s.lang)},
        "seed": s.seed if s.game_over else None,
        "hand_no": h.number, "match": s.match is not None, "target": t.target,
        "you": me, "host": me == s.host, "uno": s.opts.uno,
        "players": players, "turn": o.current, "direction": o.direction, "color": color,
        "top": card(s, o.top >> 1, o.top & 1) if o.top >= 0 else None,
        "draw_pile": o.draw_pile, "discard_pile": o.discard_pile,
        "pending": {"victim": pen.victim, "total": pen.total, "name": names[pen.victim]}
        if pen.total and pen.victim >= 0 else None,
        "duel": {"value": duel.value, "penalty": duel.penalty} if duel is not None else None,
        "power_name": w.power if power else None,
        "hand": [card(s, f, 0) for f in sorted(o.hand)],
        "decision": decision(s, me, d, o) if mine and d is not None else None,
        "waiting_for": names[d.player] if d is not None and d.player != me and human(d.player) else None,
        "thinking": {"seat": s.thinking, "text": w.ui["waiting"].format(who=names[s.thinking])}
        if s.thinking is not None else None,
        "race": race(s, me, names),
        "armed": s.armed.get(me) is not None,
        "can_uno": s.opts.uno == "race" and d is not None and d.player == me and d.kind is DecisionKind.PLAY
        and len(o.hand) == 2,
        "log_total": len(lines),
        "last": next((line["text"] for line in reversed(lines) if line["seat"] != me), None),
        "over": over(s, h, me) if h.result is not None else None,
        "error": s.error,
    }


def race(s: Session, me: int, names: list[str]) -> dict[str, Any] | None:
    r = s.race
    if r is None:
        return None
    left = max(0.0, r.deadline - s.clock())
    if r.kind == "uno":
        return {"kind": "uno", "mine": r.offender == me, "who": names[r.offender], "seconds": round(left, 1)}
    h = s.hand
    can = me != r.offender and h is not None and h.game.alive[me] and me not in r.presses
    return {"kind": "catch", "mine": can, "who": names[r.offender], "seconds": round(left, 1),
            "label": s.words(me).ui["a_catch"].format(who=names[r.offender])}


def card(s: Session, f: int, side: int) -> dict[str, Any]:
    c = s.table.faces[f]
    w = s.words(s.host)
    return {"face": f, "id": c.id, "name": w.card(f), "side": side,
            "side_name": w.side(f * 2 + side) if side else None}


def over(s: Session, h: Hand, me: int) -> dict[str, Any]:
    """The end of a hand: who won, every hand's cards left, the points the winner scores from each
    (a player knocked out scores nothing and shows "out"), the match totals."""
    r = h.result
    assert r is not None
    t, w, names = s.table, s.words(me), s.names(me)
    seats = []
    for q in range(s.n):
        cards = [card(s, f, 0) for f in sorted(r.hands[q])]
        counted = r.outcome == FINISHED and r.winner is not None and q != r.winner and r.alive[q]
        seats.append({"seat": q, "name": names[q], "cards": cards, "out": not r.alive[q], "winner": q == r.winner,
                      "points": sum(t.points[f] for f in r.hands[q]) if counted else None,
                      "score": s.scores[q]})
    match_over = s.match is None or s.match.over
    return {"outcome": r.outcome, "winner": r.winner, "points": r.points,
            "text": w.end(r.outcome, r.winner, r.points, me), "seats": seats,
            "match_over": match_over, "match_winner": s.match_winner,
            "match_text": w.match_end(s.match_winner, max(s.scores), me) if s.match_winner is not None else None}


def decision(s: Session, me: int, d: Decision, o: Observation) -> dict[str, Any]:
    """The decision's legal answers (the engine's), each with the words and the card it is about."""
    w, ui, t, names = s.words(me), s.words(me).ui, s.table, s.names(me)
    kind = d.kind.value
    items: list[dict[str, Any]] = []
    for i, a in enumerate(answers(d)):
        item: dict[str, Any] = {"i": i}
        if kind in ("play", "play_drawn", "stack"):
            if a is None:
                key = {"play": "a_draw", "play_drawn": "a_keep", "stack": "a_take"}[kind]
                item.update(key="draw", label=ui[key].format(cards=w.cards(o.penalty.total)))
            else:
                f, side = a >> 1, a & 1
                item.update(face=f, side=side, label=ui["a_flex"].format(side=w.side(a)) if side
                            else ui["a_play"].format(card=w.card(f)))
        elif kind == "duel":
            f = a >> 1
            item.update(face=f, side=0, label=ui["a_counter" if a & 1 else "a_discard"].format(card=w.card(f)),
                        counter=bool(a & 1))
        elif kind in ("color", "roulette_color"):
            item.update(label=w.color(a), color=s.deck.palette.get(t.colors[a]).hex)
        elif kind in ("target", "swap", "steal"):
            item.update(label=ui["a_player"].format(who=names[a], cards=w.cards(o.hand_sizes[a])), seat=a)
        else:
            yes, no = _YES_NO[kind]
            item.update(label=ui[yes if a else no].format(who=names[d.about] if d.about >= 0 else ""), yes=bool(a))
            if kind == "uno" and a:
                item["key"] = "uno"
        items.append(item)
    about = ""
    if kind in ("play_drawn", "jump_in") and d.options:
        about = w.card(d.options[0] >> 1)
    prompt = ui["q_play_nodraw" if kind == "play" and not d.passable else "q_" + kind]
    prompt = prompt.format(card=about, cards=w.cards(o.penalty.total),
                           who=names[d.about] if d.about >= 0 else "", value=d.value)
    return {"seq": s.seq(), "kind": kind, "prompt": prompt, "answers": items}


__all__ = ["card", "decision", "over", "view"]
