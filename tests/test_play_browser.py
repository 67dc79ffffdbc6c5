"""`deckgen play` as people use it: whole hands played by clicking in Debian's chromium (driven by
Playwright for Python, headless, the system's browser: none is downloaded), then the engine's
own log of the hand checked.

The people follow one simple policy (:func:`pick`): a card's Flex side when one is offered,
"UNO!" when asked, otherwise the first card offered, otherwise the first answer. Each deck's hand
is the first seed, from a start chosen for a short hand, where that policy meets the decisions
the deck is about (:func:`find_seed`). Two people sit at seats 1 and 2, each in a browser context
of their own (their own cookies, storage and tab), two bots at seats 3 and 4: one person's page
is reloaded a third of the way in, the server is stopped and started again with ``--resume``
two thirds of the way in, and both pages go on by themselves; at every decision each page holds
its own person's cards and the top card, never another's.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import time
from pathlib import Path

import pytest

from deckgen import manifest
from deckgen.play import Faces, PlayOptions, PlayServer, Session
from deckgen.play.journal import Journal
from deckgen.play.session import resume
from deckgen.play.views import view
from deckgen.play.words import UI

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--autoplay-policy=user-gesture-required"]
WOODLAND = str(Path(__file__).resolve().parent.parent / "decks" / "examples" / "woodland" / "woodland.toml")
SHOTS = os.environ.get("DECKGEN_PLAY_SHOTS")        # a folder to keep the screenshots in (else tmp_path)
_FACES: dict[str, Faces] = {}
_DECKS: dict[str, object] = {}


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
def desks(chromium):
    """Two desktop tabs, each in a browser context of its own (two people's browsers), kept for the
    module: each test opens its table's links in them (a new page costs chromium a renderer)."""
    contexts = [chromium.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    yield [c.new_page() for c in contexts]
    for c in contexts:
        c.close()


@pytest.fixture
def pages(desks, chromium):
    """The two tabs, the pointer off the table; afterwards blank (a table's page left open keeps
    its stream to a server that is gone), their routes removed, any other context closed."""
    for p in desks:
        p.mouse.move(0, 0)
    yield desks
    for p in desks:
        p.unroute_all()
        p.goto("about:blank")
    for context in chromium.contexts:
        if context not in (d.context for d in desks):
            context.close()


@pytest.fixture
def page(pages):
    return pages[0]


def load(deck: str):
    if deck not in _DECKS:
        _DECKS[deck] = manifest.load_deck(deck)
    return _DECKS[deck]


class Table:
    """A session, its save and its server for one test; ``restart()`` stops the server and starts
    it again from the save, on the same port (``deckgen play --resume``)."""

    def __init__(self, deck: str, tmp_path: Path, **opts):
        self.deck = load(deck)
        rules = opts.pop("rules", {})
        self.opts = PlayOptions(**{"pace": 0, "rules": self.deck.rule_options.replace(**rules), **opts})
        self.path = tmp_path / "table.jsonl"
        if deck not in _FACES:
            _FACES[deck] = Faces(self.deck)
        self.faces = _FACES[deck]
        self.session = Session(self.deck, self.opts)
        self.session.journal = Journal(self.path)
        self.session.start()
        self.server = PlayServer(self.session, self.faces, 0).start()

    def url(self, seat: int = 0) -> str:
        return self.server.local_link(seat)

    def restart(self, resumed: bool = True) -> None:
        port = self.server.port
        self.server.stop()
        assert self.session.journal is not None
        self.session.journal.close()
        if resumed:
            self.session, _ = resume(self.deck, self.path)
            self.session.journal = Journal(self.path)
        else:
            self.session = Session(self.deck, self.opts).start()
        self.server = PlayServer(self.session, self.faces, port).start()

    def close(self) -> None:
        self.server.stop()
        if self.session.journal is not None:
            self.session.journal.close()


def pick(decision: dict) -> int:
    answers = decision["answers"]
    flex = [a for a in answers if a.get("side") == 1]
    if flex:
        return flex[0]["i"]
    if decision["kind"] == "uno":
        return next(a["i"] for a in answers if a.get("yes"))
    cards = [a for a in answers if "face" in a]
    return (cards or answers)[0]["i"]


def kind_of(decision: dict, i: int) -> str:
    return decision["kind"] + ("+flex" if decision["answers"][i].get("side") == 1 else "")


# Resolves when the page shows a decision other than ``seq``, with no answer of the person still on
# its way (``busy``: a key pressed then would be dropped), or the end of the hand. Checked at each
# change of the body's attributes (show() sets them all after ``view``) and every 50 ms;
# Playwright's wait_for_function would run the check at every frame, keeping chromium drawing frames.
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


_PAGE_STATE = """() => ({notice: document.getElementById('notice').textContent,
    conn: document.getElementById('conn').hidden ? null : document.getElementById('conn').textContent,
    stream: stream ? stream.readyState : null, closed, retry})"""


def _wait_text(page, element: str, text: str, timeout: int = 30000) -> None:
    """Until the element reads ``text``; else fail saying what the page shows and how its stream
    stands (a restart under load once took longer than 15 s, and the failure said nothing more)."""
    try:
        page.wait_for_function("([id, t]) => document.getElementById(id).textContent === t", arg=[element, text],
                               timeout=timeout)
    except Exception as exc:                          # playwright's TimeoutError
        if "Timeout" not in type(exc).__name__:
            raise
        raise AssertionError(f"#{element} never read {text!r} in {timeout} ms; the page: "
                             f"{page.evaluate(_PAGE_STATE)}") from None


def _wait_turn(page, seq: str) -> dict | None:
    """Until the page shows a decision other than ``seq`` (returned) or the end of the hand (None)."""
    got = page.evaluate(_TURN, [seq, 20000])
    return None if got.get("over") else got


def click_answer(page, decision: dict, i: int) -> None:
    """Answer like a person: a card by clicking it in the hand (then its side, when it has two);
    anything else by its button."""
    answer = decision["answers"][i]
    if "face" in answer:
        card = page.locator(f'#hand button.card.playable[data-face="{answer["face"]}"]').first
        box = card.bounding_box()
        card.click(position={"x": 6, "y": box["height"] / 2})   # the strip a fanned hand shows of each card
        if sum(1 for a in decision["answers"] if a.get("face") == answer["face"]) > 1:
            page.locator(f'#answers button[data-i="{i}"]').click()
    else:
        page.click(f'#answers button[data-i="{i}"]')
    # then the pointer leaves the table, as a person's hand does while the bots play: left where it
    # clicked, it hovers the card the next table draws there, whose lift on hover keeps it moving
    page.mouse.move(0, 0)


def d_seq(table: Table, first: dict) -> str:
    """The seq of the decision pending now (the play-drawn one that came after ``first``)."""
    seq = table.session.seq()
    assert seq is not None and seq != first["seq"]
    return seq


def answered(table: Table, seq: str, timeout: float = 10) -> None:
    """Until the table has taken the answer to decision ``seq`` (the click's request has arrived)."""
    end = time.monotonic() + timeout
    while table.session.seq() == seq:
        assert time.monotonic() < end, f"the answer to {seq} did not arrive"
        time.sleep(0.005)


def wait_for_person(table: Table, timeout: float = 20) -> int | None:
    """The seat of the person whose decision the table waits for (None: the hand is over)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = table.session
        with s.lock:
            if s.hand is not None and s.hand.result is not None:
                return None
            d = s.pending()
            if d is not None and s.seats.human(d.player):
                return d.player
        time.sleep(0.005)
    raise AssertionError("the bots did not hand the table back to a person")


def play_through(page, url: str, max_decisions: int = 400) -> list[str]:
    """One person plays the hand to its end by clicking; the decision kinds answered."""
    page.goto(url)
    seq = ""
    kinds: list[str] = []
    for _ in range(max_decisions):
        decision = _wait_turn(page, seq)
        if decision is None:
            return kinds
        seq = str(decision["seq"])
        i = pick(decision)
        kinds.append(kind_of(decision, i))
        click_answer(page, decision, i)
    raise AssertionError(f"the hand did not end within {max_decisions} decisions")


def shot(page, name: str, tmp_path: Path, full: bool = True) -> Path:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.wait_for_function("() => [...document.images].every(i => i.complete)")
    page.screenshot(path=str(path), full_page=full)
    return path


def find_seed(deck: str, wanted: set[str], start: int, *, most: int = 30, tries: int = 300, **opts) -> tuple[int, int]:
    """The first seed from ``start`` whose hand, both people playing :func:`pick` against the bots,
    ends with a winner within ``most`` of the people's decisions and asks them every decision in
    ``wanted``: found through the session itself (a hand takes milliseconds there), so the browser
    then plays exactly that hand. Returns the seed and how many decisions the people answer."""
    d = load(deck)
    for seed in range(start, start + tries):
        s = Session(d, PlayOptions(**{"players": 4, "humans": 2, "pace": 0, "seed": seed, **opts})).start()
        kinds: set[str] = set()
        n = 0
        while n <= most:
            s.settle_bots()
            p = s.pending()
            if p is None:
                break
            v = view(s, p.player)["decision"]
            i = pick(v)
            kinds.add(kind_of(v, i))
            s.answer(p.player, v["seq"], i)
            n += 1
        if n <= most and wanted <= kinds and s.hand.result is not None and s.hand.result.outcome == "finished":
            return seed, n
    raise AssertionError(f"no seed in {start}-{start + tries - 1} asks {sorted(wanted)} in {most} decisions")


def _face_ids(page) -> set[str]:
    """The card faces a page holds: its images' and its view's (the end of a hand excepted)."""
    return set(page.evaluate("""() => {
        const ids = new Set();
        for (const img of document.images) {
            if (img.closest('#over') || img.closest('#rules') || img.classList.contains('flying')) continue;  // (a played card on its way)
            const m = /\\/face\\/([^/]+)\\.png$/.exec(img.getAttribute('src') || '');
            if (m) ids.add(decodeURIComponent(m[1]));
        }
        const walk = (x, key) => {
            if (Array.isArray(x)) x.forEach((y) => walk(y));
            else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) { if (k !== 'over' && k !== 'deck') walk(v, k); }
            else if (key === 'id' && typeof x === 'string') ids.add(x);
        };
        walk(view);
        return [...ids];
    }"""))


def check_own_cards(table: Table, pages: dict[int, object]) -> None:
    """Each page, brought up to the table's decision, holds its person's hand exactly, and no card
    but its own, the top card, the back and the Power cards."""
    s = table.session
    with s.lock:
        seq = s.seq()
        truth = {q: sorted(s.hand.game.hands[q]) for q in pages}
        top = s.hand.game.discard[-1] if s.hand.game.discard else None
    faces = s.table.faces
    for q, page in pages.items():
        page.wait_for_function("(seq) => view && view.seq === seq", arg=seq, timeout=10000)
        assert page.evaluate("view.hand.map(c => c.face)") == truth[q]
        allowed = {faces[f].id for f in truth[q]} | {"back", "power-green", "power-red"}
        if top is not None:
            allowed.add(faces[top].id)
        held = _face_ids(page)
        assert held <= allowed, f"seat {q + 1}'s page holds {sorted(held - allowed)}"
        assert page.evaluate("view.seed") is None


def _play_two(table: Table, seats: dict[int, object], n: int) -> tuple[list[str], bool, bool]:
    """Both people answer their decisions by clicking until the hand ends; a third of the way in
    the second person's page reloads, two thirds in the server restarts from its save."""
    last = {0: "", 1: ""}
    kinds: list[str] = []
    reloaded = restarted = False
    for k in range(n + 5):
        seat = wait_for_person(table)
        if seat is None:
            return kinds, reloaded, restarted
        if k >= n // 3 and not reloaded:               # a person's page reloads and rejoins mid-hand
            seats[1].reload()
            reloaded = True
        if k >= 2 * n // 3 and not restarted:         # the server restarts with --resume mid-hand
            table.restart()
            restarted = True
            for p in seats.values():
                _wait_text(p, "notice", UI["en"]["restarted"])
        check_own_cards(table, seats)
        decision = _wait_turn(seats[seat], last[seat])
        assert decision is not None and decision["seq"] == table.session.seq()
        last[seat] = decision["seq"]
        i = pick(decision)
        kinds.append(kind_of(decision, i))
        click_answer(seats[seat], decision, i)
        answered(table, decision["seq"])
    raise AssertionError("the hand did not end")


CASES = {
    # deck, the decisions the people must answer in the hand, the seed the search starts from
    "classic": ("classic", {"color", "uno"}, 1),
    "no-mercy": ("no-mercy", {"stack", "uno"}, 1),
    "flex-spectrum": ("flex-spectrum", {"play+flex", "uno"}, 1),
    "woodland": (WOODLAND, {"color", "uno"}, 1),
}


@pytest.mark.parametrize("case", [pytest.param(k, marks=pytest.mark.slow) if k == "flex-spectrum" else k
                                  for k in CASES])
def test_two_people_and_two_bots_finish_a_hand_by_clicking(pages, case, tmp_path):
    deck, wanted, start = CASES[case]
    seed, n = find_seed(deck, wanted, start)
    table = Table(deck, tmp_path, players=4, humans=2, seed=seed, lang="en")
    errors: list[str] = []
    seats = {0: pages[0], 1: pages[1]}

    def on_error(e) -> None:
        errors.append(str(e))

    for p in pages:
        p.on("pageerror", on_error)

    try:
        for q, p in seats.items():
            p.goto(table.url(q))
        kinds, reloaded, restarted = _play_two(table, seats, n)
        assert reloaded and restarted
        for p in seats.values():
            p.wait_for_function("() => document.body.dataset.over")
        shot(seats[0], f"{case}-two-people-over", tmp_path)
        assert wanted <= set(kinds), f"{case}: answered {sorted(set(kinds))}, wanted {sorted(wanted)}"
        assert not errors, errors
        s = table.session
        record = s.records[-1]
        assert record["outcome"] == "finished" and len(kinds) == n
        for q, p in seats.items():
            assert p.locator("#over-text").inner_text() == view(s, q)["over"]["text"]
            assert p.evaluate("view.seed") == seed                  # shown once the game is over
        log = record["log"]
        plays = [e for e in log if e[0] == "Play" and e[1] in (0, 1)]
        assert plays and any(e[0] == "Uno" and e[1] in (0, 1) and e[2] for e in log)
        if "stack" in wanted:
            assert any(e[3] == "stack" for e in plays), "no stack by a person in the engine's log"
        if "play+flex" in wanted:
            assert any(e[2] & 1 for e in plays), "no Flex-side play by a person in the engine's log"
        # the log ends with the engine's result; its latest line is in view
        for q, p in seats.items():
            assert p.locator("#log li").last.inner_text() == s.lines[q][-1]["text"]
            assert p.evaluate("(b => b.scrollTop + b.clientHeight >= b.scrollHeight - 2)(document.getElementById('log'))")
    finally:
        for p in pages:
            p.remove_listener("pageerror", on_error)
        table.close()


def test_a_double_click_on_draw_does_not_keep_the_card_drawn(page, tmp_path):
    """The second click of a double click lands on "Keep it", which replaced "Draw": it is not an
    answer; a later click is."""
    deck = load("classic")
    for seed in range(1, 200):
        s = Session(deck, PlayOptions(players=2, pace=0, seed=seed)).start()
        s.settle_bots()
        v = view(s, 0)["decision"]
        draw = next((a for a in v["answers"] if a.get("key") == "draw"), None)
        if draw is None:
            continue
        s.answer(0, v["seq"], draw["i"])
        after = s.pending()
        if after is not None and after.kind.value == "play_drawn" and after.player == 0:
            break
    else:
        pytest.skip("no seed draws a playable card first")
    table = Table("classic", tmp_path, players=2, seed=seed, lang="en")
    try:
        page.goto(table.url())
        first = _wait_turn(page, "")
        page.wait_for_function("() => [...document.images].every(i => i.complete)")    # the layout is still
        box = page.locator('#answers button[data-key="draw"]').bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.click(x, y)                                     # Draw
        page.wait_for_function("() => view.decision && view.decision.kind === 'play_drawn'")
        assert page.locator('#answers button[data-key="draw"]').inner_text().endswith(UI["en"]["a_keep"])
        under = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('button').textContent", [x, y])
        assert under.endswith(UI["en"]["a_keep"])                  # "Keep it" is where "Draw" was
        page.mouse.down(click_count=2)                             # ... the second click of the double click
        page.mouse.up(click_count=2)                               # (the browser counts it: detail 2)
        page.wait_for_timeout(300)
        d = table.session.pending()
        assert d is not None and d.kind.value == "play_drawn" and d.player == 0      # still asked: not kept
        logged = len(table.session.hand.game.log)
        drawn = d_seq(table, first)
        keep = page.locator('#answers button[data-key="draw"]').bounding_box()
        page.mouse.click(keep["x"] + 8, keep["y"] + keep["height"] / 2)   # a click of its own, elsewhere on it: keep it
        answered(table, drawn)
        kept = table.session.hand.game.log[logged:]
        assert first["kind"] == "play" and kept and not any(type(e).__name__ == "Play" and e.player == 0 for e in kept[:1])
    finally:
        table.close()


def test_a_new_game_asks_first_and_a_replay_deals_the_same_seed(page, tmp_path):
    table = Table("classic", tmp_path, players=2, seed=46, lang="en")
    try:
        page.goto(table.url())
        first = _wait_turn(page, "")
        hand = page.evaluate("view.hand.map(c => c.id)")
        game = page.evaluate("view.game")
        page.keyboard.press("n")                                   # no key throws the game away
        page.click("#btn-new")
        page.wait_for_selector("#confirm:not([hidden])")
        assert page.evaluate("document.activeElement.id") == "confirm-no"    # the safe answer has the focus
        page.keyboard.press("Escape")
        page.wait_for_selector("#confirm", state="hidden")
        assert page.evaluate("view.game") == game and table.session.seq() == first["seq"]
        page.click("#btn-replay")
        page.click("#confirm-yes")
        page.wait_for_function("(g) => view.game !== g", arg=game)
        assert page.evaluate("view.hand.map(c => c.id)") == hand
        game = page.evaluate("view.game")
        play_through(page, table.url())
        assert page.evaluate("view.seed") == 46
        page.click("#btn-close")                                    # look at the table under the result
        assert page.locator("#over").is_hidden() and page.locator("#btn-result").is_visible()
        page.click("#btn-result")
        page.click("#btn-new2")                                      # the game is over: nothing to confirm
        page.wait_for_function("(g) => view.game !== g && !view.over", arg=game)
        assert page.evaluate("view.seed") is None and table.session.seed == 47
    finally:
        table.close()


def test_a_restarted_server_is_found_again_or_said_to_be_gone(page, tmp_path):
    """--resume: the page reconnects by itself, says so truly, and the answer it then sends is taken.
    A new table in its place: the page says its link opens nothing now, and stops asking."""
    table = Table("classic", tmp_path, players=2, seed=46, lang="en")
    try:
        page.goto(table.url())
        decision = _wait_turn(page, "")
        table.restart()
        _wait_text(page, "notice", UI["en"]["restarted"])
        assert page.locator("#conn").is_hidden()
        click_answer(page, decision, pick(decision))
        _wait_turn(page, decision["seq"])
        assert table.session.hand.game.decisions > 1
        table.restart(resumed=False)                                 # a new table: new links
        _wait_text(page, "conn", UI["en"]["gone"])
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url))
        page.wait_for_timeout(2500)
        assert len(asked) <= 1                                       # it does not keep knocking
    finally:
        table.close()


def test_keyboard_only(page, tmp_path):
    """A whole hand with the keys alone: H to the hand, arrows, Enter; digits for the answers; the
    focus stays on the hand after a card is played."""
    table = Table("classic", tmp_path, players=2, seed=46, lang="en")
    try:
        page.goto(table.url())
        seq = ""
        kept = []
        for _ in range(200):
            decision = _wait_turn(page, seq)
            if decision is None:
                break
            if seq and any("face" in a for a in decision["answers"]):
                kept.append(page.evaluate("!!document.activeElement.closest('#hand')"))
            seq = str(decision["seq"])
            i = pick(decision)
            answer = decision["answers"][i]
            if "face" in answer:
                if not page.evaluate("!!document.activeElement.closest('#hand')"):
                    page.keyboard.press("h")
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
        assert kept and all(kept), "the focus left the hand after an answer"
        assert page.locator("#over-title").inner_text() == "The game is over"
        assert page.evaluate("document.activeElement.id") == "btn-new2"
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")                                 # replay, from the keyboard too
        page.wait_for_function("() => !document.body.dataset.over")
    finally:
        table.close()


def test_screen_readers_hear_the_playable_cards_the_answers_and_the_bots(page, tmp_path):
    table = Table("classic", tmp_path, players=3, seed=46, lang="en")
    try:
        page.goto(table.url())
        decision = _wait_turn(page, "")
        while not any("face" in a for a in decision["answers"]):
            click_answer(page, decision, pick(decision))
            decision = _wait_turn(page, decision["seq"])
        playable = {str(a["face"]) for a in decision["answers"] if "face" in a}
        labels = page.evaluate("[...document.querySelectorAll('#hand button.card')].map(b => [b.dataset.face, "
                               "b.getAttribute('aria-label'), b.getAttribute('aria-disabled')])")
        for face, label, disabled in labels:
            if face in playable:
                assert label.endswith(", can be played") and disabled is None
            else:
                assert label.endswith(", cannot be played now") and disabled == "true"
        names = page.evaluate("[...document.querySelectorAll('#answers button, #menu button:not([hidden])')]"
                              ".map(b => b.textContent.trim())")
        assert all(names)
        assert page.evaluate("document.getElementById('log').getAttribute('role')") == "log"
        assert page.evaluate("document.getElementById('card-info').getAttribute('aria-live')") is None
        assert page.evaluate("document.getElementById('notice').getAttribute('role')") == "status"
        assert page.locator("#announce").get_attribute("aria-live") == "assertive"
        assert page.locator("#announce").inner_text() == decision["prompt"]
        assert page.title().startswith("● Your turn")
        # the focus ring is not the playable card's yellow
        page.keyboard.press("h")
        ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
        assert ring == "rgb(255, 255, 255)"
    finally:
        table.close()


# ---------------------------------------------------------------- contrast, from the CSS as drawn
_CONTRAST = """() => {
    const parse = (c) => {
        let m = /rgba?\\(([^)]+)\\)/.exec(c);
        if (m) { const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
        m = /color\\(srgb ([^)]+)\\)/.exec(c);
        if (m) { const p = m[1].split(/[\\s\\/]+/).filter(Boolean).map(Number); return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1]; }
        return null;
    };
    const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
    const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
    const behind = (e) => {           // the layers of background behind e, and the opaque ones they lie on
        const layers = [];
        for (; e; e = e.parentElement) {
            const cs = getComputedStyle(e);
            const bg = parse(cs.backgroundColor);
            if (cs.backgroundImage && cs.backgroundImage.includes("gradient")) {
                const stops = [...cs.backgroundImage.matchAll(/rgba?\\([^)]+\\)/g)].map((m) => parse(m[0]));
                return [layers, stops];
            }
            if (bg && bg[3] > 0) { layers.push(bg); if (bg[3] >= 1) return [layers.slice(0, -1), [bg]]; }
        }
        return [layers, [parse(getComputedStyle(document.documentElement).backgroundColor)]];
    };
    const bad = [];
    for (const e of document.querySelectorAll("body *")) {
        const text = [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
        if (!text || !e.getClientRects().length || e.closest("[hidden]") || e.disabled || e.closest(".sr-only")) continue;
        const cs = getComputedStyle(e);
        if (cs.visibility === "hidden") continue;
        const [layers, bases] = behind(e);
        const fg = parse(cs.color);
        const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
        const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
        for (const base of bases) {
            let bg = base.slice(0, 3);
            for (const l of layers.slice().reverse()) bg = over(l, bg);
            const f = over(fg, bg);
            const a = lum(f), b = lum(bg);
            const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
            if (ratio < need) { bad.push([text.slice(0, 40), e.id || e.className, Math.round(ratio * 100) / 100]); break; }
        }
    }
    return bad;
}"""


def test_every_text_meets_wcag_aa_contrast(pages, chromium, tmp_path):
    """Every text the page draws, in every state (a question, the host's seats, a confirmation,
    the rules, the end of a hand; desktop and phone), against what is behind it as the CSS draws
    it (semi-transparent layers over the felt's lightest and darkest parts): 4.5:1, 3:1 when large."""
    table = Table("flex-spectrum", tmp_path, players=4, humans=2, seed=3, lang="en")
    phone = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    try:
        page = pages[0]
        page.goto(table.url(0))
        decision = _wait_turn(page, "")
        phone.goto(table.url(1))
        phone.wait_for_function("() => view")
        found = {"question": page.evaluate(_CONTRAST), "phone": phone.evaluate(_CONTRAST)}
        page.click("#btn-new")
        found["confirm"] = page.evaluate(_CONTRAST)
        page.click("#confirm-no")
        page.click("#btn-rules")
        page.wait_for_selector("#rules-text h3")
        found["rules"] = page.evaluate(_CONTRAST)
        page.click("#rules-close")
        s = table.session
        while True:                                                   # play the hand out from here
            q = wait_for_person(table)
            if q is None:
                break
            s.answer(q, s.seq(), pick(view(s, q)["decision"]))
        page.wait_for_function("() => document.body.dataset.over")
        found["over"] = page.evaluate(_CONTRAST)
        phone.wait_for_function("() => document.body.dataset.over")
        found["phone over"] = phone.evaluate(_CONTRAST)
        assert decision is not None
        assert all(not bad for bad in found.values()), {k: v for k, v in found.items() if v}
    finally:
        phone.context.close()
        table.close()


# ---------------------------------------------------------------- a 19-card hand, on three screens
def _big_hand(tmp_path: Path) -> Path:
    """A save of a No Mercy hand where the person holds 19 cards or more at their decision: the
    person always takes what the rules let them take (found through the session, ms a hand)."""
    deck = load("no-mercy")
    for seed in range(1, 400):
        path = tmp_path / f"big-{seed}.jsonl"
        s = Session(deck, PlayOptions(players=4, pace=0, seed=seed, lang="en"))
        s.journal = Journal(path)
        s.start()
        for _ in range(300):
            s.settle_bots()
            d = s.pending()
            if d is None:
                break
            if len(s.hand.game.hands[0]) >= 19 and d.kind.value == "play":
                s.journal.close()
                return path
            v = view(s, 0)["decision"]
            s.answer(0, v["seq"], len(v["answers"]) - 1)
        s.journal.close()
    raise AssertionError("no seed gives a 19-card hand")


@pytest.mark.parametrize("size", [(390, 844), (1024, 700), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_19_card_hand_stays_within_the_screen(chromium, size, tmp_path):
    path = _big_hand(tmp_path)
    deck = load("no-mercy")
    session, _ = resume(deck, path)
    if "no-mercy" not in _FACES:
        _FACES["no-mercy"] = Faces(deck)
    server = PlayServer(session, _FACES["no-mercy"], 0).start()
    w, h = size
    context = chromium.new_context(viewport={"width": w, "height": h}, device_scale_factor=1,
                                   has_touch=w < 500, is_mobile=w < 500)
    try:
        page = context.new_page()
        page.goto(server.local_link(0))
        page.wait_for_function("() => view && view.decision")
        n = page.evaluate("view.hand.length")
        assert n >= 19
        assert page.evaluate("document.documentElement.scrollWidth") <= w              # nothing wider than the screen
        boxes = page.evaluate("[...document.querySelectorAll('#hand button.card')].map(b => "
                              "{const r = b.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom];})")
        hand = page.evaluate("(() => {const r = document.getElementById('hand').getBoundingClientRect(); "
                             "return [r.left, r.right, document.getElementById('hand').scrollWidth, "
                             "document.getElementById('hand').clientWidth];})()")
        assert hand[1] <= w
        if hand[2] <= hand[3] + 1:                                   # fanned to fit: every card in view
            assert all(hand[0] - 1 <= left and right <= hand[1] + 1 for left, right, _, _ in boxes)
        shown = [right - left for left, right, _, _ in boxes]
        gaps = [b[0] - a[0] for a, b in itertools.pairwise(boxes)]
        assert min(gaps) >= 0.2 * shown[0]                           # each card shows a strip to pick it by
        if w >= 1000:
            assert hand[2] <= hand[3] + 1                              # a laptop or a desktop fans it all in
            assert boxes[0][3] <= h                                     # ... above the fold
        shot(page, f"no-mercy-19-cards-{w}x{h}", tmp_path, full=False)
    finally:
        context.close()
        server.stop()


# ---------------------------------------------------------------- one person: phone, stale answers, a match
def test_phone_layout_and_card_text_on_tap(chromium, tmp_path):
    """A 390x844 phone: nothing wider than the screen; a tap on a card shows its rulebook text and
    asks before playing it; the bots' latest move is under the players."""
    table = Table("flex-spectrum", tmp_path, players=4, seed=1)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                   has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(table.url())
        decision = _wait_turn(page, "")
        assert decision is not None
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        face = next(a["face"] for a in decision["answers"] if "face" in a)
        card = page.evaluate(f"view.hand.find(c => c.face === {face})")
        page.tap(f'#hand button.card.playable[data-face="{face}"] >> nth=0')
        texts = table.session.config(0)["texts"][card["id"]]
        assert page.locator("#info-text").inner_text().split("\n")[0] == texts["text"][0]
        assert page.evaluate("view.decision.seq") == decision["seq"]       # a tap alone plays nothing
        assert page.locator(f'#answers button[data-face="{face}"]').count() >= 1
        if page.evaluate("view.last"):
            box = page.locator("#last").bounding_box()
            assert box is not None and box["y"] + box["height"] <= 844       # above the fold
        shot(page, "phone-flex-spectrum", tmp_path)
    finally:
        context.close()
        table.close()


def test_a_stale_answer_is_refused_and_the_page_says_so(page, tmp_path):
    """The page's answer reaches the server naming another decision (a stale tab, a forged
    request): refused (409), nothing changes, the page says so truly and asks again."""
    table = Table("classic", tmp_path, players=2, seed=2, lang="en")
    try:
        def stale(route):
            body = json.loads(route.request.post_data or "{}")
            route.continue_(post_data=json.dumps({**body, "seq": body["seq"] + "0"}))

        page.route("**/answer", stale)
        page.goto(table.url())
        decision = _wait_turn(page, "")
        before = view(table.session, 0)
        click_answer(page, decision, pick(decision))
        page.wait_for_function("() => document.getElementById('notice').textContent.length > 0")
        assert page.locator("#notice").inner_text() == UI["en"]["out_of_sync"]
        after = view(table.session, 0)
        assert after["seq"] == before["seq"] and after["hand"] == before["hand"]     # nothing changed
        assert page.evaluate("view.decision.seq") == decision["seq"]                   # still asked, again
        page.unroute("**/answer")
        click_answer(page, decision, pick(decision))
        _wait_turn(page, str(decision["seq"]))
        assert table.session.seq() != before["seq"]
    finally:
        table.close()


def test_a_match_started_from_the_page_goes_on_to_the_next_hand(page, tmp_path):
    table = Table(WOODLAND, tmp_path, players=2, seed=1, lang="en")
    try:
        page.goto(table.url())
        _wait_turn(page, "")
        page.click("#btn-match")
        page.click("#confirm-yes")
        page.wait_for_function("() => view.match")
        play_through(page, table.url())
        assert page.locator("#over-title").inner_text() == "The hand is over"
        assert page.locator("#btn-next2").is_visible()
        scores = [row.inner_text() for row in page.locator("#over-scores tbody tr td.num").all()]
        assert str(max(table.session.scores)) in scores                   # the match total is shown
        assert page.evaluate("view.seed") is None                         # the match goes on: still secret
        shot(page, "match-hand-over", tmp_path)
        page.click("#btn-next2")
        page.wait_for_function("() => view.hand_no === 2 && !view.over")
        assert page.locator("#game-info").inner_text().startswith("hand 2")
        assert table.session.records[0]["dealer"] == 1 and table.session.hand.dealer == 0   # the deal passed on
    finally:
        table.close()


def test_uno_as_a_race_is_pressed_in_time(page, tmp_path):
    """--uno race: with one card left the person gets a big UNO! button instead of a question,
    and pressing it in time is the call the engine logs."""
    deck = load("classic")
    for seed in range(1, 300):
        s = Session(deck, PlayOptions(players=2, pace=0, seed=seed, uno="race")).start()
        for _ in range(60):
            if s.race is None:
                s.settle_bots()
            if s.race is not None and s.race.kind == "uno" and s.race.offender == 0:
                break
            d = s.pending()
            if d is None or s.race is not None:
                break
            s.answer(0, s.seq(), pick(view(s, 0)["decision"]))
        if s.race is not None and s.race.kind == "uno" and s.race.offender == 0:
            break
    else:
        pytest.skip("no seed brings the person to a UNO race")
    table = Table("classic", tmp_path, players=2, seed=seed, uno="race", lang="en")
    try:
        page.goto(table.url())
        seq = ""
        while True:
            got = page.evaluate(_TURN.replace("document.body.dataset.over ? {over: true} :",
                                              "document.body.dataset.race === 'uno:mine' ? {race: true} : "
                                              "document.body.dataset.over ? {over: true} :"), [seq, 20000])
            if got.get("race"):
                break
            assert not got.get("over"), "the hand ended before the race"
            seq = got["seq"]
            click_answer(page, got, pick(got))
        assert page.locator("#answers button").count() == 0          # no question: a button to press
        page.click('#race button[data-key="uno"]')
        page.wait_for_function("() => !document.body.dataset.race")
        assert any(type(e).__name__ == "Uno" and e.player == 0 and e.said for e in table.session.hand.game.log)
    finally:
        table.close()
