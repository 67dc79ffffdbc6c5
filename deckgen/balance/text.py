"""The balance report's words looked up in Spanish and English, and the first page's
plain-words summary, written from the figures alone.

The words are :data:`deckgen.words.REPORT_WORDS`. A language other than es/en falls back to English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from deckgen.stats import share_digits
from deckgen.words import REPORT_WORDS

if TYPE_CHECKING:
    from deckgen.balance.figures import Group, Paragraph, Report, SkillGroup, SkillReference, VariantInfo


def lang_of(lang: str) -> str:
    return lang if lang in REPORT_WORDS else "en"


def w(lang: str, key: str, **fields: object) -> str:
    text = REPORT_WORDS[lang_of(lang)][key]
    return text.format(**fields) if fields else text


def num(x: float, lang: str, nd: int = 0) -> str:
    """A number as the language writes it: 12,345.5 in English, 12.345,5 in Spanish (which
    groups thousands only from five digits)."""
    if lang_of(lang) != "es":
        return f"{x:,.{nd}f}"
    whole, _, dec = f"{abs(x):.{nd}f}".partition(".")
    if len(whole) > 4:
        whole = f"{int(whole):,}".replace(",", ".")
    sign = "-" if x < 0 and float(f"{abs(x):.{nd}f}") else ""
    return sign + whole + ("," + dec if dec else "")


def pct(x: float, lang: str) -> str:
    """A share as a whole percentage ("36 %"), with the decimals it takes never to say 0 % of a
    share that is not nothing nor 100 % of one that is not all ("0.5 %", 1 game of 200)."""
    return f"{num(100 * x, lang, share_digits(x))} %"


def join(items: Sequence[str], lang: str) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {w(lang, 'and')} " + items[-1]


def sizes(values: Sequence[int], lang: str) -> str:
    """Table sizes as short runs: [5, 6, 7, 9] -> "5–7 and 9"."""
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    parts = [f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) if len(r) == 2 else str(r[0])
             for r in runs]
    return join(parts, lang)


def agent(lang: str, name: str, capital: bool = False) -> str:
    return w(lang, ("Agent_" if capital else "agent_") + name)


def cause(lang: str, key: str, kind_names: Mapping[str, str]) -> str:
    if key.startswith("penalty:"):
        kind = key.split(":", 1)[1]
        return w(lang, "cause_penalty", kind=kind_names.get(kind, kind))
    return w(lang, "cause_" + key)


# ---------------------------------------------------------------- the first page's summary

def summary(rep: Report) -> list[Paragraph]:
    """Plain-words paragraphs: [{"text": ..., "bullets": [...]}], from the report's figures."""
    lang = rep["lang"]
    base = rep["variants"][0]["id"]
    out: list[Paragraph] = []
    clean = True
    for agent_name in rep["agents"]:
        gs = [g for g in rep["groups"] if g["variant"] == base and g["agent"] == agent_name]
        if not gs:
            continue
        clean = clean and not any(g["capped"] or g["stalled"] for g in gs)
        out.append({"text": agent(lang, agent_name, capital=True) + ":", "bullets": _deck_lines(rep, gs, agent_name, lang)})
    if clean:
        out.insert(0, {"text": w(lang, "s_clean"), "bullets": []})
    changes: list[Paragraph] = []
    for v in rep["variants"][1:]:
        for agent_name in rep["agents"]:
            bullets = _variant_lines(rep, v, agent_name, lang)
            changes.append({"text": w(lang, "v_head", label=v["label"], agent=agent(lang, agent_name)),
                            "bullets": bullets})
    if changes:
        label = rep["variants"][0]["label"]
        for para in out:
            if para["bullets"]:
                para["text"] = para["text"][:-1] + f" ({label}):"
    return changes + out


def _groups(rep: Report, variant: str, agent_name: str) -> dict[int, Group]:
    return {g["players"]: g for g in rep["groups"] if g["variant"] == variant and g["agent"] == agent_name}


def _deck_lines(rep: Report, gs: Sequence[Group], agent_name: str, lang: str) -> list[str]:
    return [*_length_lines(gs, lang), *_stop_lines(rep, gs, lang), *_event_lines(gs, lang),
            *_cause_lines(rep, gs, lang), *_seat_lines(gs, lang)]


def _length_lines(gs: Sequence[Group], lang: str) -> list[str]:
    lo, hi = gs[0], gs[-1]
    if lo is hi:
        return [w(lang, "s_length_one", a=num(lo["turns"]["median"], lang), p90=num(lo["turns"]["p90"], lang))]
    return [w(lang, "s_length", a=num(lo["turns"]["median"], lang), lo=lo["players"],
              b=num(hi["turns"]["median"], lang), hi=hi["players"], p90=num(hi["turns"]["p90"], lang))]


def _capped(g: Group) -> int:
    return g["capped"]


def _stalled(g: Group) -> int:
    return g["stalled"]


def _stop_lines(rep: Report, gs: Sequence[Group], lang: str) -> list[str]:
    """The capped and the stalled games, where there are any."""
    lines = []
    for count, sentence in ((_capped, "s_capped"), (_stalled, "s_stalled")):
        hit = [g for g in gs if count(g)]
        if not hit:
            continue
        if len(hit) <= 3:
            where = join([w(lang, "s_count_at", k=count(g), n=g["games"], p=g["players"]) for g in hit], lang)
        else:
            worst = max(hit, key=count)
            where = w(lang, "s_most", list=sizes([g["players"] for g in hit], lang), p=worst["players"],
                      k=count(worst), n=worst["games"])
        cap = max(v["turn_cap"] for v in rep["variants"])
        lines.append(w(lang, sentence, where=where, cap=num(cap, lang)))
    return lines


def _event_lines(gs: Sequence[Group], lang: str) -> list[str]:
    lines = []
    for ev, sentence in (("dry", "s_dry"), ("knockout", "s_knockout")):
        hit = [g for g in gs if g["events"][ev]["games"]]
        if hit:
            k = sum(g["events"][ev]["games"] for g in hit)
            lines.append(w(lang, sentence + ("1" if k == 1 else ""), k=k,
                           where=w(lang, "s_sizes", list=sizes([g["players"] for g in hit], lang))))
    won = [g for g in gs if g.get("standing")]          # how the games with knock-outs are won
    if won:
        key = "s_standing_one" if len(won) == 1 else "s_standing_at"
        items = [w(lang, key if i == 0 else "s_standing_more", share=pct(g["standing"] / g["finished"], lang),
                   p=g["players"], k=g["standing"], n=g["finished"]) for i, g in enumerate(won)]
        lines.append(w(lang, "s_standing", list=join(items, lang)))
    return lines


def _cause_lines(rep: Report, gs: Sequence[Group], lang: str) -> list[str]:
    """Where the drawn cards come from, and the largest table's top cause when it differs."""
    totals: dict[str, float] = {}
    for g in gs:
        for c, v in g["draws"]["by_cause"].items():
            totals[c] = totals.get(c, 0.0) + v * g["games"]
    drawn = sum(totals.values())
    if not drawn:
        return []
    top = sorted(totals.items(), key=lambda kv: -kv[1])[:3]
    lines = [w(lang, "s_causes", list=join([f"{rep['causes'][c]} ({pct(v / drawn, lang)})" for c, v in top], lang))]
    lo, hi = gs[0], gs[-1]
    by = hi["draws"]["by_cause"]
    if by and lo is not hi:
        c, v = max(by.items(), key=lambda kv: kv[1])
        if c != top[0][0]:
            lines.append(w(lang, "s_cause_top", p=hi["players"], cause=rep["causes"][c],
                           share=pct(v / sum(by.values()), lang)))
    return lines


def _seat_lines(gs: Sequence[Group], lang: str) -> list[str]:
    """The table sizes where the first player wins significantly more, or less, than a fair share."""
    lines = []
    more = [g for g in gs if g["seats"]["first_player"]["significant"] and g["seats"]["first_player"]["advantage"] > 0]
    less = [g for g in gs if g["seats"]["first_player"]["significant"] and g["seats"]["first_player"]["advantage"] < 0]
    for hit, sentence in ((more, "s_first"), (less, "s_first_less")):
        if hit:
            where = join([w(lang, "s_first_at", p=g["players"], rate=pct(g["seats"]["first_player"]["rate"], lang),
                            fair=pct(g["seats"]["fair"], lang)) for g in hit[:4]], lang)
            lines.append(w(lang, sentence, where=where))
    if not more and not less:
        lines.append(w(lang, "s_seats_fair"))
    return lines


def _variant_lines(rep: Report, v: VariantInfo, agent_name: str, lang: str) -> list[str]:
    base = rep["variants"][0]["id"]
    a_g, b_g = _groups(rep, base, agent_name), _groups(rep, v["id"], agent_name)
    tests = {(t["players"], t["test"]): t for t in rep["tests"] if t["variant"] == v["id"] and t["agent"] == agent_name}
    out = []
    capped = []
    for p in sorted(a_g):
        k, k2 = a_g[p]["capped"], b_g[p]["capped"]
        if k != k2 and tests[(p, "capped")]["significant"]:
            capped.append((abs(k - k2), p, k, k2))
    for _, p, k, k2 in sorted(capped, reverse=True)[:3]:
        n = a_g[p]["games"]
        out.append(w(lang, "v_capped_none", p=p, k=k, n=n) if k2 == 0 else w(lang, "v_capped", p=p, k=k, k2=k2, n=n))
    sig = [p for p in sorted(a_g) if tests[(p, "turns")]["significant"]]
    if sig:
        def change(p: int) -> float:
            a = a_g[p]["turns"]["median"] or 1
            return abs(b_g[p]["turns"]["median"] - a) / a
        best = max(sig, key=change)
        a, b = a_g[best]["turns"]["median"], b_g[best]["turns"]["median"]
        out.append(w(lang, "v_median", p=best, verb=w(lang, "v_falls" if b < a else "v_rises"),
                     a=num(a, lang), b=num(b, lang)))
        rest = [p for p in sig if p != best]
        if rest:
            out.append(w(lang, "v_median_also", list=sizes(rest, lang)))
    else:
        out.append(w(lang, "v_same_length"))
    dsig = [p for p in sorted(a_g) if tests[(p, "draws")]["significant"]]
    best_draw = None
    for p in dsig:
        ca, cb = a_g[p]["draws"]["by_cause"], b_g[p]["draws"]["by_cause"]
        for c in set(ca) | set(cb):
            d = abs(cb.get(c, 0.0) - ca.get(c, 0.0))
            if best_draw is None or d > best_draw[0]:
                best_draw = (d, p, c, ca.get(c, 0.0), cb.get(c, 0.0))
    if best_draw:
        _, p, c, x, y = best_draw
        out.append(w(lang, "v_draw", cause=rep["causes"].get(c, c), p=p, a=num(x, lang, 1), b=num(y, lang, 1)))
    fsig = [p for p in sorted(a_g) if tests[(p, "first_player")]["significant"]]
    if fsig:
        p = max(fsig, key=lambda p: abs(b_g[p]["seats"]["first_player"]["rate"] - a_g[p]["seats"]["first_player"]["rate"]))
        out.append(w(lang, "v_first", p=p, a=pct(a_g[p]["seats"]["first_player"]["rate"], lang),
                     b=pct(b_g[p]["seats"]["first_player"]["rate"], lang)))
    return out


# ---------------------------------------------------------------- does skill matter?

def skill_headline(rep: Report) -> int:
    """The table size the skill sentences speak of: 4 players when the report has it."""
    sk = rep.get("skill")
    shown = (sk["players"] if sk else None) or rep["players"]
    return 4 if 4 in shown else shown[0]


def _skill_sentence(g: SkillGroup | SkillReference, opp: str, lang: str, tested: int = 1) -> str:
    """The expert's win rate against luck alone in words: more, less, or not clearly either. An
    interval that leaves out luck alone while the test over every figure of the section (``tested``
    of them, Holm) is not significant says so, rather than seeming to contradict its own words."""
    key, extra = "s_skill_luck", {}
    lo, hi = g["ci"]
    if g["significant"]:
        key = "s_skill_more" if g["rate"] > g["fair"] else "s_skill_less"
    elif tested > 1 and (lo > g["fair"] or hi < g["fair"]):
        key, extra = "s_skill_luck_adjusted", {"n": tested, "side": w(lang, "more" if lo > g["fair"] else "less")}
    return w(lang, key, opp=agent(lang, opp), rate=pct(g["rate"], lang), p=g["players"], fair=pct(g["fair"], lang),
             lo=pct(lo, lang), hi=pct(hi, lang), **extra)


def skill_summary(rep: Report) -> list[Paragraph]:
    """The "Does skill matter?" paragraph of the first page, from the skill figures."""
    sk = rep.get("skill")
    if not sk:
        return []
    lang = rep["lang"]
    base = rep["variants"][0]
    p = skill_headline(rep)
    bullets = []
    for opp in sk["opponents"]:
        mine = [g for g in sk["groups"] if g["variant"] == base["id"] and g["opponent"] == opp]
        head = next(g for g in mine if g["players"] == p)
        bullets.append(_skill_sentence(head, opp, lang, len(sk["groups"]) + len(sk["reference"])))
        if len(mine) > 1:
            ratios = [g["ratio"] for g in mine if g["finished"]]
            sig = [g["players"] for g in mine if g["significant"] and g["rate"] > g["fair"]]
            lo, hi = mine[0]["players"], mine[-1]["players"]
            a, b = num(min(ratios, default=0), lang, 1), num(max(ratios, default=0), lang, 1)
            if sig:
                bullets.append(w(lang, "s_skill_range", lo=lo, hi=hi, a=a, b=b, where=sizes(sig, lang)))
            else:
                bullets.append(w(lang, "s_skill_range_none", lo=lo, hi=hi, a=a, b=b))
    mine = [g for g in sk["groups"] if g["variant"] == base["id"]]
    bullets.append(w(lang, "s_skill_stop", budget=sk["games"]))
    open_ = [g for g in mine if g.get("answer") == "budget"]
    if open_:
        by_opp: dict[str, list[int]] = {}
        for g in open_:
            by_opp.setdefault(g["opponent"], []).append(g["players"])
        where = join([w(lang, "s_skill_open_at", sizes=sizes(ps, lang), opp=agent(lang, opp))
                      for opp, ps in by_opp.items()], lang)
        bullets.append(w(lang, "s_skill_open", where=where, budget=sk["games"]))
    for opp in sk["opponents"]:
        refs = [r for r in sk["reference"] if r["opponent"] == opp]
        if refs:
            items = [w(lang, "s_skill_ref_one", rate=pct(r["rate"], lang), name=sk["reference_names"][r["deck"]])
                     + f" ({pct(r['ci'][0], lang)}–{pct(r['ci'][1], lang)})" for r in refs]
            bullets.append(w(lang, "s_skill_ref", p=refs[0]["players"], opp=agent(lang, opp), list=join(items, lang)))
    if sk["reference"]:
        bullets.append(w(lang, "s_skill_ref_from", games=num(sk["reference_games"], lang),
                         command=sk["reference_command"]))
    for v in rep["variants"][1:]:
        for opp in sk["opponents"]:
            g = next(x for x in sk["groups"] if x["variant"] == v["id"] and x["opponent"] == opp and x["players"] == p)
            was = next(x for x in sk["groups"] if x["variant"] == base["id"] and x["opponent"] == opp
                       and x["players"] == p)
            bullets.append(w(lang, "v_skill", label=v["label"], opp=agent(lang, opp), rate=pct(g["rate"], lang), p=p,
                             base=base["id"], was=pct(was["rate"], lang)))
    return [{"text": w(lang, "skill"), "bullets": bullets}]
