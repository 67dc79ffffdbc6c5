"""`deckgen play` as a person uses it: whole games played by clicking on the page in Debian's
chromium (driven by Playwright for Python), then the engine's own log of the hand checked.

The person at the table follows one simple policy (:func:`pick`): a card's Flex side when one is
offered, "UNO!" when asked, otherwise the first card offered, otherwise the first answer. Each
deck's hand is the first seed, from a start chosen for a short hand, where that policy meets the
decisions the deck is about (:func:`find_seed`): a colour choice (classic, woodland), a stack (no-mercy), a duel answer and
a Power-card play by a Flex side (flex-spectrum), and a UNO call everywhere (docs/play.md). The page is read like a person reads
it and answered by clicking the card in the hand or the answer's button; the keyboard test uses
the keys alone.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from deckgen import manifest
from deckgen.play import Faces, PlayOptions, Session, serve

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WOODLAND = str(Path(__file__).resolve().parent.parent / "decks" / "examples" / "woodland" / "woodland.toml")
SHOTS = os.environ.get("DECKGEN_PLAY_SHOTS")        # a folder to keep the screenshots in (else tmp_path)


def _chromium() -> str | None:
    return CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")


@pytest.fixture(scope="module")
def chromium():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    binary = _chromium()
    if binary is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=binary, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def desk(chromium):
    """One desktop tab for the module, as a person keeps one tab open: each test opens its table's
    address in it, a new document each time. (A new page costs chromium a renderer process, about
    half a second of CPU: the module's eight desktop tables would spend four seconds on them.)"""
    context = chromium.new_context(viewport={"width": 1280, "height": 860})
    yield context.new_page()
    context.close()


@pytest.fixture
def page(desk, chromium):
    """The desktop tab, the pointer off the table; after the test, its routes are removed and it
    shows a blank page (a table's page left open keeps polling its server, which is gone), and any
    other page the test opened is closed."""
    desk.mouse.move(0, 0)
    yield desk
    desk.unroute_all()
    desk.goto("about:blank")
    for context in chromium.contexts:
        if context is not desk.context:
            context.close()


class Table:
    """A session and its server for one test."""

    def __init__(self, deck: str, **opts):
        self.deck = manifest.load_deck(deck)
        rules = opts.pop("rules", {})
        self.session = Session(self.deck, PlayOptions(pace=0, rules=self.deck.rule_options.replace(**rules), **opts))
        self.session.start()
        self.server = serve(self.session, Faces(self.deck), 0)
        self.url = self.server.url

    def close(self) -> None:
        self.session.stop()
        self.server.stop()


def pick(decision: dict) -> int:
    answers = decision["answers"]
    flex = [a for a in answers if a.get("side") == 1]
    if flex:
        return flex[0]["i"]
    if decision["kind"] == "uno":
        return next(a["i"] for a in answers if a.get("yes"))
    cards = [a for a in answers if "face" in a]
    return (cards or answers)[0]["i"]


# Resolves when the page shows a decision newer than ``seq``, with no answer of the person still on its
# way (``busy``: a key pressed then would be dropped), or the end of the hand. Checked at each change of
# the body's attributes (show() sets them all after ``view``) and, for an answer whose reply came after
# a newer table (show() then changes nothing), every 50 ms; Playwright's wait_for_function would run
# the check at every frame, keeping chromium drawing frames for the whole wait.
_TURN = """([seq, ms]) => new Promise((done, fail) => {
    const now = () => busy ? null : document.body.dataset.over ? {over: true} :
                      (view && view.decision && String(view.decision.seq) !== seq ? view.decision : null);
    const stop = () => { watch.disconnect(); clearInterval(tick); clearTimeout(late); };
    const check = () => { const got = now(); if (got) { stop(); done(got); } };
    const watch = new MutationObserver(check);
    const tick = setInterval(check, 50);
    const late = setTimeout(() => { stop(); fail(new Error("no new decision in " + ms + " ms")); }, ms);
    watch.observe(document.body, {attributes: true});
    check();
})"""


def _wait_turn(page, seq: str) -> dict | None:
    """Until the page shows a decision newer than ``seq`` (returned) or the end of the hand (None)."""
    got = page.evaluate(_TURN, [seq, 20000])
    return None if got.get("over") else got


def click_answer(page, decision: dict, i: int) -> None:
    """Answer like a person: a card by clicking it in the hand (then its side, when it has two);
    anything else by its button."""
    answer = decision["answers"][i]
    if "face" in answer:
        page.click(f'#hand button.card.playable[data-face="{answer["face"]}"] >> nth=0')
        chooser = page.locator(f'#answers button[data-i="{i}"]')
        if sum(1 for a in decision["answers"] if a.get("face") == answer["face"]) > 1:
            chooser.click()
    else:
        page.click(f'#answers button[data-i="{i}"]')
    # then the pointer leaves the table, as a person's hand does while the bots play: left where it
    # clicked, it hovers the card the next table draws there, whose lift on hover (a 0.08 s
    # transition) keeps it moving, so the next click would first wait for it to stand still
    page.mouse.move(0, 0)


def play_through(page, url: str, max_decisions: int = 400) -> list[str]:
    """Play the hand to its end by clicking; the decision kinds answered (with '+flex')."""
    page.goto(url)
    seq = ""
    kinds: list[str] = []
    for _ in range(max_decisions):
        decision = _wait_turn(page, seq)
        if decision is None:
            return kinds
        seq = str(decision["seq"])
        i = pick(decision)
        kinds.append(decision["kind"] + ("+flex" if decision["answers"][i].get("side") == 1 else ""))
        click_answer(page, decision, i)
    raise AssertionError(f"the hand did not end within {max_decisions} decisions")


def shot(page, name: str, tmp_path: Path) -> Path:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.wait_for_function("[...document.images].every(i => i.complete)")
    page.screenshot(path=str(path), full_page=True)
    return path


def _events(table: Table) -> list[list]:
    records = table.session.records
    assert records, "no hand was recorded"
    return records[-1]["log"]


def _mine(log: list[list], name: str, seat: int) -> list[list]:
    return [e for e in log if e[0] == name and e[1] == seat]


def _seat_said_uno(log, seat):
    return any(e[0] == "Uno" and e[1] == seat and e[2] for e in log)


CASES = {
    # deck, players, the decisions the person must answer in the hand, the seed the search starts from
    "classic": (("classic", 2), {"color", "uno"}, 46),
    "no-mercy": (("no-mercy", 2), {"stack", "uno", "color"}, 85),
    "flex-spectrum": (("flex-spectrum", 2), {"duel", "play+flex", "uno"}, 20),
    "woodland": ((WOODLAND, 2), {"color", "uno"}, 114),
}
# The seeds to start from are, for each deck, the seed in 1-120 whose hand asks all of its decisions
# in the fewest, among those whose log is longer than the page's log box (December 2026: 8, 14, 29 and
# 10 decisions, 41, 60, 131 and 35 lines of log; the first such seeds from 1 took 18, 30, 51 and 26
# decisions). The browser's time goes by the decisions it answers, about a tenth of a second each.


# classic's shortest hand for the tests that play one whatever it asks (8 decisions; seed 2 took 15)
SHORT = 46


def find_seed(deck: str, players: int, wanted: set[str], start: int = 1, tries: int = 300) -> int:
    """The first seed from ``start`` on whose hand, played by :func:`pick` against the bots, asks the
    person every decision in ``wanted``: found through the session itself (a hand takes milliseconds
    there), so the browser then plays exactly that hand, whatever the engine's rules make of a seed."""
    d = manifest.load_deck(deck)
    for seed in range(start, start + tries):
        s = Session(d, PlayOptions(players=players, seed=seed, pace=0))
        s.start()
        kinds: set[str] = set()
        try:
            for _ in range(3000):
                v = s.view()
                if v["over"] or v["error"]:
                    break
                if v["decision"]:
                    i = pick(v["decision"])
                    kinds.add(v["decision"]["kind"] + ("+flex" if v["decision"]["answers"][i].get("side") == 1 else ""))
                    s.answer(v["decision"]["seq"], i)
                else:
                    s.wait(v["version"], 2)
        finally:
            s.stop()
        if wanted <= kinds and v["over"] and v["over"]["outcome"] == "finished":
            return seed
    raise AssertionError(f"no seed in {start}-{start + tries - 1} asks {sorted(wanted)} of the person")


@pytest.mark.parametrize("case", [pytest.param(k, marks=pytest.mark.slow) if k == "flex-spectrum" else k
                                  for k in CASES])
def test_a_whole_hand_by_clicking(page, case, tmp_path):
    (deck, players), wanted, start = CASES[case]
    table = Table(deck, players=players, seed=find_seed(deck, players, wanted, start))
    errors: list[str] = []

    def on_error(e) -> None:
        errors.append(str(e))

    page.on("pageerror", on_error)
    try:
        kinds = play_through(page, table.url)
        shot(page, f"{case}-over", tmp_path)
        assert wanted <= set(kinds), f"{case}: answered {sorted(set(kinds))}, wanted {sorted(wanted)}"
        assert not errors, errors
        # the page says who won, with the engine's own result
        record = table.session.records[-1]
        assert record["outcome"] == "finished"
        assert page.locator("#over-text").inner_text() == table.session.view()["over"]["text"]
        log = _events(table)
        seat = 0
        assert _seat_said_uno(log, seat), "the person's UNO call is not in the engine's log"
        plays = _mine(log, "Play", seat)
        assert plays, "none of the person's plays reached the engine"
        if "color" in wanted:
            # a colour named after one of the person's plays (no other play in between)
            last_player, named = None, False
            for e in log:
                if e[0] == "Play":
                    last_player = e[1]
                elif e[0] == "Color" and last_player == seat:
                    named = True
            assert named, "no colour named by the person in the engine's log"
        if "stack" in wanted:
            assert any(e[3] == "stack" for e in plays), "no stack by the person in the engine's log"
        if "duel" in wanted:
            in_duel = False
            answered = False
            for e in log:
                if e[0] == "DuelState":
                    in_duel = e[1] is not None
                elif in_duel and e[0] in ("Discard", "Play") and e[1] == seat:
                    answered = True
            assert answered, "no duel answer by the person in the engine's log"
        if "play+flex" in wanted:
            assert any(e[2] & 1 for e in plays), "no Flex-side play by the person in the engine's log"
            # the Power card turned red when the person used the Flex side
            assert any(e[0] == "Power" and e[1] == seat and e[2] is False for e in log)
        # the log ends with the engine's result, and the page keeps that latest line in view
        assert page.locator("#log li").last.inner_text() == table.session.lines[-1]["text"]
        assert page.evaluate("(b => b.scrollHeight > b.clientHeight)(document.getElementById('log'))"), \
            "the log fits its box, so its scrolling proves nothing: start the seed search where the hand is longer"
        assert page.evaluate("(b => b.scrollTop + b.clientHeight >= b.scrollHeight - 2)(document.getElementById('log'))")
        assert page.locator("#log li").count() >= len(plays)
    finally:
        page.remove_listener("pageerror", on_error)
        table.close()


def test_replay_same_seed_and_new_game(page, tmp_path):
    table = Table("classic", players=2, seed=SHORT)
    try:
        page.goto(table.url)
        _wait_turn(page, "")
        first_hand = page.evaluate("view.hand.map(c => c.id)")
        play_through(page, table.url)
        page.click("#btn-replay2")
        page.wait_for_function("!document.body.dataset.over && document.body.dataset.decision")
        assert page.evaluate("view.hand.map(c => c.id)") == first_hand
        assert page.evaluate("view.seed") == SHORT
        page.click("#btn-new")
        page.wait_for_function(f"view.seed === {SHORT + 1}")
        assert page.locator("#game-info").inner_text().endswith(str(SHORT + 1))
    finally:
        table.close()


def test_keyboard_only(page, tmp_path):
    """A whole hand with the keys alone: H to the hand, arrows, Enter; digits for the answers."""
    table = Table("classic", players=2, seed=SHORT, lang="en")
    try:
        page.goto(table.url)
        seq = ""
        for _ in range(200):
            decision = _wait_turn(page, seq)
            if decision is None:
                break
            seq = str(decision["seq"])
            i = pick(decision)
            answer = decision["answers"][i]
            if "face" in answer:
                page.keyboard.press("h")            # the first card that can be played
                cards = page.evaluate("[...document.querySelectorAll('#hand button.card')].map(b => b.dataset.face)")
                at = page.evaluate("[...document.querySelectorAll('#hand button.card')].indexOf(document.activeElement)")
                for _ in range((cards.index(str(answer["face"])) - at) % len(cards)):
                    page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
                if sum(1 for a in decision["answers"] if a.get("face") == answer["face"]) > 1:
                    buttons = page.evaluate("[...document.querySelectorAll('#answers button.answer')].map(b => b.dataset.i)")
                    page.keyboard.press(str(buttons.index(str(i)) + 1))
            else:
                buttons = page.evaluate("[...document.querySelectorAll('#answers button.answer')].map(b => b.dataset.i)")
                page.keyboard.press(str(buttons.index(str(i)) + 1))
        else:
            raise AssertionError("the hand did not end")
        assert table.session.records[-1]["outcome"] == "finished"
        assert page.locator("#over-title").inner_text() == "The game is over"
        page.keyboard.press("r")          # replay, from the keyboard too
        page.wait_for_function("!document.body.dataset.over")
    finally:
        table.close()


def test_phone_layout_and_card_text_on_tap(page, chromium, tmp_path):
    """A 390x844 phone: nothing wider than the screen; a tap on a card shows its rulebook text
    and asks before playing it."""
    table = Table("flex-spectrum", players=4, seed=1)
    try:
        desk = page          # the module's desktop tab: the same table beside the phone, later
        context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                       has_touch=True, is_mobile=True)
        page = context.new_page()
        page.goto(table.url)
        decision = _wait_turn(page, "")
        assert decision is not None
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        face = next(a["face"] for a in decision["answers"] if "face" in a)
        card = page.evaluate(f"view.hand.find(c => c.face === {face})")
        page.tap(f'#hand button.card.playable[data-face="{face}"] >> nth=0')
        texts = table.session.config()["texts"][card["id"]]
        assert page.locator("#info-text").inner_text().split("\n")[0] == texts["text"][0]
        assert page.evaluate("view.decision.seq") == decision["seq"]       # a tap alone plays nothing
        assert page.locator(f'#answers button[data-face="{face}"]').count() >= 1
        shot(page, "phone-flex-spectrum", tmp_path)
        desk.goto(table.url)
        _wait_turn(desk, "")
        desk.hover("#hand button.card >> nth=0")
        shot(desk, "desktop-flex-spectrum", tmp_path)
        context.close()
    finally:
        table.close()


def test_a_stale_answer_is_refused_and_the_page_resyncs(page, tmp_path):
    """The page's answer reaches the server naming an earlier decision (a stale tab, a forged
    request): refused (409), nothing changes, the page says so and shows the table as it is."""
    import json

    table = Table("classic", players=2, seed=2, lang="en")
    try:
        def stale(route):
            body = json.loads(route.request.post_data or "{}")
            route.continue_(post_data=json.dumps({**body, "seq": body["seq"] - 1}))

        page.route("**/answer", stale)
        page.goto(table.url)
        decision = _wait_turn(page, "")
        before = table.session.view()
        click_answer(page, decision, pick(decision))
        page.wait_for_function("document.getElementById('notice').textContent.length > 0")
        assert "no longer current" in page.locator("#notice").inner_text()
        after = table.session.view()
        assert after["seq"] == before["seq"] and after["hand"] == before["hand"]     # nothing changed
        assert page.evaluate("view.decision.seq") == decision["seq"]                   # still asked, again
        page.unroute("**/answer")
        click_answer(page, decision, pick(decision))
        _wait_turn(page, str(decision["seq"]))
        assert table.session.view()["seq"] > before["seq"]
    finally:
        table.close()


def test_a_match_goes_on_to_the_next_hand(page, tmp_path):
    table = Table(WOODLAND, players=2, seed=1, match=True, lang="en")
    try:
        play_through(page, table.url)
        assert page.locator("#over-title").inner_text() == "The hand is over"
        assert page.locator("#btn-next").is_visible()
        scores = [row.inner_text() for row in page.locator("#over-scores tbody tr td.num").all()]
        assert str(max(table.session.scores)) in scores                   # the match total is shown
        shot(page, "match-hand-over", tmp_path)
        page.click("#btn-next")
        page.wait_for_function("view.hand_no === 2 && !view.over")
        assert page.locator("#game-info").inner_text().startswith("seed 1 · hand 2")
        assert table.session.records[0]["dealer"] == 1 and table.session.hand.dealer == 0   # the deal passed on
    finally:
        table.close()
