"""The words of the balance report in Spanish and English, and the first page's plain-words
summary, written from the figures alone.

A language other than es/en falls back to English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckgen.balance.figures import Group, Paragraph, Report, SkillGroup, SkillReference, VariantInfo

LANGS = ("es", "en")

WORDS: Mapping[str, Mapping[str, str]] = {
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
        "s_skill_range": "From {lo} to {hi} players it wins {a} to {b} times its fair share; significantly more "
                         "than luck at {where} players.",
        "s_skill_range_none": "From {lo} to {hi} players it wins {a} to {b} times its fair share, at no table size "
                              "significantly more than luck.",
        "s_skill_ref": "For reference, at {p} players against {opp}: an expert wins {list}.",
        "s_skill_ref_one": "{rate} in {name}",
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
        "s_skill_range": "De {lo} a {hi} jugadores gana entre {a} y {b} veces su parte justa; significativamente "
                         "más que la suerte con {where} jugadores.",
        "s_skill_range_none": "De {lo} a {hi} jugadores gana entre {a} y {b} veces su parte justa, con ningún "
                              "número de jugadores significativamente más que la suerte.",
        "s_skill_ref": "Como referencia, con {p} jugadores contra {opp}: un experto gana {list}.",
        "s_skill_ref_one": "el {rate} en {name}",
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


def lang_of(lang: str) -> str:
    return lang if lang in WORDS else "en"


def w(lang: str, key: str, **fields: object) -> str:
    text = WORDS[lang_of(lang)][key]
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
    """A share as a whole percentage ("36 %")."""
    return f"{num(100 * x, lang)} %"


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


def _skill_sentence(g: SkillGroup | SkillReference, opp: str, lang: str) -> str:
    key = "s_skill_luck"
    if g["significant"]:
        key = "s_skill_more" if g["rate"] > g["fair"] else "s_skill_less"
    return w(lang, key, opp=agent(lang, opp), rate=pct(g["rate"], lang), p=g["players"], fair=pct(g["fair"], lang),
             lo=pct(g["ci"][0], lang), hi=pct(g["ci"][1], lang))


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
        bullets.append(_skill_sentence(head, opp, lang))
        if len(mine) > 1:
            ratios = [g["ratio"] for g in mine if g["finished"]]
            sig = [g["players"] for g in mine if g["significant"] and g["rate"] > g["fair"]]
            lo, hi = mine[0]["players"], mine[-1]["players"]
            a, b = num(min(ratios, default=0), lang, 1), num(max(ratios, default=0), lang, 1)
            if sig:
                bullets.append(w(lang, "s_skill_range", lo=lo, hi=hi, a=a, b=b, where=sizes(sig, lang)))
            else:
                bullets.append(w(lang, "s_skill_range_none", lo=lo, hi=hi, a=a, b=b))
    for opp in sk["opponents"]:
        refs = [r for r in sk["reference"] if r["opponent"] == opp]
        if refs:
            items = [w(lang, "s_skill_ref_one", rate=pct(r["rate"], lang), name=sk["reference_names"][r["deck"]])
                     for r in refs]
            bullets.append(w(lang, "s_skill_ref", p=refs[0]["players"], opp=agent(lang, opp), list=join(items, lang)))
    for v in rep["variants"][1:]:
        for opp in sk["opponents"]:
            g = next(x for x in sk["groups"] if x["variant"] == v["id"] and x["opponent"] == opp and x["players"] == p)
            was = next(x for x in sk["groups"] if x["variant"] == base["id"] and x["opponent"] == opp
                       and x["players"] == p)
            bullets.append(w(lang, "v_skill", label=v["label"], opp=agent(lang, opp), rate=pct(g["rate"], lang), p=p,
                             base=base["id"], was=pct(was["rate"], lang)))
    return [{"text": w(lang, "skill"), "bullets": bullets}]
