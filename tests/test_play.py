"""`deckgen play` without a browser: the session (answers, decision numbers, what the person and
the bots may see, matches, replays), the log in words, the card texts, the page's server and
the command (docs/play.md)."""

from __future__ import annotations

import json
import struct
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckgen import manifest
from deckgen.cli import main
from deckgen.play import Faces, PlayOptions, Session, serve
from deckgen.play.server import asset
from deckgen.play.words import UI, Words
from deckgen.rulebook.describe import group_text
from deckgen.rulebook.groups import group_key, groups
from deckgen.rules import state as ev
from deckgen.rules.agents import GreedyAgent
from deckgen.rules.decision import Observation
from deckgen.rules.table import compile_deck

WOODLAND = str(Path(__file__).resolve().parent.parent / "decks" / "examples" / "woodland" / "woodland.toml")
DECKS = ["classic", "no-mercy", "flex-spectrum", WOODLAND]


@pytest.fixture(scope="module")
def decks():
    return {name: manifest.load_deck(name) for name in DECKS}


def _session(deck, **kw):
    s = Session(deck, PlayOptions(**{"pace": 0, "players": 3, **kw}))
    s.start()
    return s


def _my_turn(s: Session) -> dict:
    """The view once a decision of the person's is pending (the bots may move first)."""
    for _ in range(200):
        v = s.view()
        if v["decision"] or v["over"]:
            return v
        s.wait(v["version"], 2)
    raise AssertionError("no decision for the person")


def _play_out(s: Session, choose=lambda d: 0, limit: int = 2000) -> list[dict]:
    """Answer every decision of the person (the first answer by default) until the hand ends; the views seen."""
    seen = []
    for _ in range(limit):
        v = s.view()
        seen.append(v)
        if v["over"] or v["error"]:
            return seen
        if v["decision"]:
            assert s.answer(v["decision"]["seq"], choose(v["decision"]))
        else:
            s.wait(v["version"], 2)
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("name", DECKS)
def test_a_whole_hand_and_the_view_shows_only_the_persons_cards(decks, name):
    deck = decks[name]
    s = _session(deck, seed=4)
    try:
        views = _play_out(s)
        last = views[-1]
        assert last["error"] is None and last["over"]["outcome"] in ("finished", "stalled", "capped")
        for v in views[:-1]:
            mine = {c["face"] for c in v["hand"]}
            top = v["top"]["face"] if v["top"] else None
            # every card the view names is the person's own, the top card, or an answer about their hand
            about = [a["face"] for a in (v["decision"] or {"answers": []})["answers"] if "face" in a]
            assert set(about) <= mine
            assert json.dumps(v).count('"face"') == len(v["hand"]) + (1 if top is not None else 0) + len(about)
            assert sum(p["cards"] for p in v["players"]) + v["draw_pile"] + v["discard_pile"] <= deck.total
        assert last["over"]["text"] == s.lines[-1]["text"]
    finally:
        s.stop()


def test_stale_forged_and_foreign_answers_are_refused_and_change_nothing(decks):
    s = _session(decks["classic"], players=2, seed=2)
    try:
        v = _my_turn(s)
        d = v["decision"]
        assert d is not None
        for seq, i in [(d["seq"] - 1, 0), (d["seq"] + 1, 0), (d["seq"], len(d["answers"])), (d["seq"], -1),
                       (d["seq"], True), (d["seq"], "0"), (str(d["seq"]), 0), (None, None)]:
            assert not s.answer(seq, i), (seq, i)
            assert s.view()["seq"] == d["seq"] and s.view()["hand"] == v["hand"]
        assert s.answer(d["seq"], 0)
        assert not s.answer(d["seq"], 0)               # the same answer twice: the second is stale
    finally:
        s.stop()


def test_bots_decide_from_their_observation_only(decks):
    """Each bot is handed the decision, its own Observation and its own generator: plain values,
    its own hand, and nothing that leads to the game or another hand."""
    seen: list[tuple] = []

    class Spy(GreedyAgent):
        name = "spy"

        def decide(self, d, o, rng):
            seen.append((d, o))
            return super().decide(d, o, rng)

    deck = decks["flex-spectrum"]
    s = Session(deck, PlayOptions(players=3, pace=0, seed=3), make_bot=lambda seat: Spy())
    s.start()
    try:
        _play_out(s)
        assert seen
        game_types = {type(s.hand.game)}
        for d, o in seen:
            assert isinstance(o, Observation) and o.player == d.player != s.seat
            assert len(o.hand) == o.hand_sizes[o.player]
            for value in o:
                assert type(value) not in game_types
                assert not hasattr(value, "hands")           # no field holds every hand
    finally:
        s.stop()


def test_the_log_hides_other_players_draws_and_names_cards_as_the_deck_does(decks):
    deck = decks["classic"]
    t = compile_deck(deck)
    names = ["You", "Bot 1", "Bot 2"]
    w = Words(deck, t, "en", names)
    red5 = next(i for i, c in enumerate(t.faces) if c.id == "red-5")
    lines = w.log([ev.Draw(0, red5, 0), ev.Draw(1, -1, 0), ev.Draw(1, -1, 0), ev.Play(1, red5 * 2, "play"),
                   ev.Color(t.colors.index("blue")), ev.Uno(1, True), ev.Caught(0, 2)], viewer=0)
    texts = [line["text"] for line in lines]
    assert texts[0] == f"You draw 1 card: {deck.card('red-5').name('en')}."
    assert texts[1] == "Bot 1 draws 2 cards."                            # a run of draws, no names
    assert texts[2] == f"Bot 1 plays {deck.card('red-5').name('en')}."
    assert texts[3] == f"The colour to follow is now {deck.palette.get('blue').names.get('en')}."
    assert texts[4] == "Bot 1 says UNO!"
    assert texts[5] == "You catch Bot 2 without UNO."
    es = Words(deck, t, "es", ["Tú", "Bot 1", "Bot 2"])
    assert es.log([ev.Play(0, red5 * 2, "play")], viewer=0)[0]["text"] == f"Juegas {deck.card('red-5').name('es')}."


def test_the_card_text_is_the_rulebooks(decks):
    deck = decks["flex-spectrum"]
    s = Session(deck, PlayOptions(pace=0))
    by_key = {g.key: g for g in groups(deck)}
    texts = s.config()["texts"]
    assert set(texts) == {c.id for c in deck.cards}
    for card in deck.cards:
        assert texts[card.id]["text"] == group_text(deck, by_key[group_key(card)], "es")
        assert texts[card.id]["name"] == card.name("es")
    assert Session(deck, PlayOptions(pace=0, lang="en")).config()["ui"] == UI["en"]


def test_replay_the_same_seed_and_a_new_game(decks):
    s = _session(decks["classic"], seed=9)
    try:
        first = _my_turn(s)["hand"]
        _play_out(s)
        s.new_game(same_seed=True)
        assert _my_turn(s)["hand"] == first and s.view()["seed"] == 9 and s.view()["over"] is None
        s.new_game(same_seed=False)
        assert s.view()["seed"] == 10
    finally:
        s.stop()


def test_a_match_to_the_target_score(decks):
    deck = decks[WOODLAND]
    s = _session(deck, players=2, seed=1, match=True)
    try:
        for _ in range(60):
            v = _play_out(s)[-1]
            over = v["over"]
            assert over["outcome"] == "finished"
            if over["match_over"]:
                break
            assert not s.answer(v["seq"], 0)
            assert s.next_hand()
        assert over["match_winner"] is not None and max(s.scores) >= deck.scoring.target
        assert s.scores[over["match_winner"]] == max(s.scores)
        assert sum(r["points"] for r in s.records) == sum(s.scores)
        assert not s.next_hand()                              # the match is over
        assert [r["hand"] for r in s.records] == list(range(1, len(s.records) + 1))
    finally:
        s.stop()


def test_bots_wait_their_pace_and_say_so(decks):
    pace = 0.05        # the hand's 10 bot plays then take 0.5 s in all; unpaced, the whole hand takes 5 ms
    s = Session(decks["classic"], PlayOptions(players=2, pace=pace, seed=2))
    s.start()
    try:
        start = time.monotonic()
        thinking = []
        for _ in range(2000):
            v = s.view()
            if v["thinking"]:
                thinking.append(v["thinking"])
            if v["over"]:
                break
            if v["decision"]:
                assert s.answer(v["decision"]["seq"], 0)
            else:
                s.wait(v["version"], 2)
        elapsed = time.monotonic() - start
        bot_plays = sum(1 for e in s.records[-1]["log"] if e[0] == "Play" and e[1] == 1)
        assert bot_plays >= 3
        assert elapsed >= 0.9 * pace * bot_plays             # each bot play waited its pace
        assert {"seat": 1, "text": UI["es"]["waiting"].format(who="Bot 1")} in thinking
    finally:
        s.stop()


@pytest.fixture
def served(decks):
    deck = decks["classic"]
    s = _session(deck, players=2, seed=2, lang="en")
    server = serve(s, Faces(deck), 0)
    yield s, server
    s.stop()
    server.stop()


def _get(url, host=None):
    req = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def _post(url, data, ctype="application/json"):
    req = urllib.request.Request(url, data=json.dumps(data).encode(), method="POST", headers={"Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_server(served):
    s, server = served
    url = server.url
    assert _get(url)[0] == 200 and b"/play.js" in _get(url)[2]
    assert _get(url + "play.js")[2] == asset("play.js")
    assert _get(url, host="evil.example")[0] == 403
    assert _get(url + "state.json", host=f"attacker.test:{server.port}")[0] == 403
    status, ctype, body = _get(url + "face/back.png")
    assert status == 200 and ctype == "image/png" and body[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", body[16:24])
    assert (w, h) == Faces(s.deck).size and 200 < w < 400
    assert _get(url + "face/nothing.png")[0] == 404
    assert _get(url + "face/..%2Fetc.png")[0] == 404
    config = json.loads(_get(url + "config.json")[2])
    assert config["ui"]["new_game"] == "New game"
    view = _my_turn(s)
    d = view["decision"]
    req = urllib.request.Request(url + "answer", data=b'{"seq": 1, "i": 0}', method="POST",
                                 headers={"Content-Type": "text/plain"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(req, timeout=10)
    assert refused.value.code == 415                                  # a plain form post from another site
    status, data = _post(url + "answer", {"seq": d["seq"] - 1, "i": 0})
    assert status == 409 and data["ok"] is False and data["view"]["seq"] == d["seq"]
    status, data = _post(url + "answer", {"seq": d["seq"], "i": 0})
    assert status == 200 and data["ok"] and data["view"]["seq"] > d["seq"]
    assert json.loads(_get(url + "log.json")[2])["hands"] == []        # no finished hand yet: nothing told early
    status, data = _post(url + "new", {"same_seed": True})
    assert status == 200 and _my_turn(s)["hand"] == view["hand"]


def test_the_log_of_a_finished_hand_is_the_engines(served):
    from deckgen.rules.replay import replay

    s, server = served
    _play_out(s)
    hands = json.loads(_get(server.url + "log.json")[2])["hands"]
    assert len(hands) == 1 and hands[0]["outcome"] == s.hand.game.outcome
    assert len(hands[0]["log"]) == len(s.hand.game.log)
    assert replay(s.table, 2, s.hand.game.log).table_snapshot() == s.hand.game.table_snapshot()


def test_the_command_refuses_bad_options():
    runner = CliRunner()
    r = runner.invoke(main, ["play", "classic", "--seat", "5", "--players", "3", "--no-open"])
    assert r.exit_code == 2 and "seat 5 is not at a table of 3" in r.output
    r = runner.invoke(main, ["play", "classic", "--rule", "stacking=sometimes", "--rule", "nonsense", "--no-open"])
    assert r.exit_code == 2
    assert "'sometimes' is not a value of rule option 'stacking'" in r.output and "'nonsense' is not NAME=VALUE" in r.output
    r = runner.invoke(main, ["play", "classic", "--bots", "clever", "--no-open"])
    assert r.exit_code == 2 and "unknown bot 'clever'" in r.output
    r = runner.invoke(main, ["play", "nowhere.toml", "--no-open"])
    assert r.exit_code == 2


def test_the_page_assets_come_with_the_package():
    for name in ("index.html", "play.js", "play.css"):
        text = asset(name).decode("utf-8")
        assert "http://" not in text and "https://" not in text          # nothing fetched from elsewhere
    assert "innerHTML" not in asset("play.js").decode("utf-8")           # data is shown as text, never markup


def test_the_faces_are_the_print_drawing_at_screen_size(decks):
    import io

    from PIL import Image, ImageChops

    from deckgen.render import RenderSettings, render_face

    deck = decks[WOODLAND]
    faces = Faces(deck, use_cache=False)
    settings = RenderSettings(dpi=120, bleed_mm=0.0)
    for face_id in ("fox-3", "night", "back"):
        shown = Image.open(io.BytesIO(faces.png(face_id))).convert("RGB")
        printed = render_face(deck, face_id, settings)
        assert shown.size == printed.size == faces.size
        assert ImageChops.difference(shown, printed).getbbox() is None, face_id
    assert faces.png("nothing") is None


def test_expert_bots_sit_at_the_table_with_their_strongest_budget(decks):
    """--bots expert: each bot is the expert at TABLE_THINK play-outs (docs/play.md), the budget
    from which it trusts its play-outs (docs/expert.md); the others are the plain agents."""
    from deckgen.rules import expert

    bot = Session(decks["classic"], PlayOptions(pace=0, bots="expert")).make_bot(1)
    assert isinstance(bot, expert.ExpertAgent) and bot.think == expert.TABLE_THINK == expert.TRUST_THINK
    assert type(Session(decks["classic"], PlayOptions(pace=0, bots="greedy")).make_bot(1)) is GreedyAgent
