"""Watch mode: rebuilds on a change, draws only the changed faces, serves a page on 127.0.0.1 that
refreshes itself (proved in a real headless chromium, driven over the DevTools pipe)."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import select
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from PIL import Image

from deckgen.build import BuildOptions
from deckgen.render import RenderSettings
from deckgen.watch import HOST, Watcher, WatchOptions, serve, watch

LOW = RenderSettings(dpi=30)


@pytest.fixture
def deck(tmp_path, minimal_text, monkeypatch):
    monkeypatch.setenv("DECKGEN_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "deck"
    folder.mkdir()
    path = folder / "mini.toml"
    clean = minimal_text.replace('preset = "classic"', 'preset = "classic"\noptions = { challenge = false }')
    path.write_text(clean, encoding="utf-8")        # no finding at all (no Wild Draw Four to challenge)
    return path


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _opts(tmp_path, **kw) -> WatchOptions:
    return WatchOptions("preview", settings=LOW, sheet_path=tmp_path / "sheet.png", port=0, simulate=False, **kw)


def test_a_rebuild_draws_only_the_faces_that_changed(deck, tmp_path):
    w = Watcher(deck, _opts(tmp_path))
    w.rebuild()
    state, sheet = w.snapshot()
    assert state["status"] == "ok" and state["title"] == "Mini"
    assert state["drawn"] == state["faces"] == 46            # 40 numbers, 4 skips, a wild, the back
    assert Image.open(io.BytesIO(sheet)).size[0] > 100
    assert (tmp_path / "sheet.png").read_bytes() == sheet
    _edit(deck, 'name = "Mini"', 'name = "Mini"\nback_text = "Hola"')
    w.rebuild()
    state, sheet2 = w.snapshot()
    assert state["drawn"] == 1 and state["faces"] == 46      # only the back changed
    assert sheet2 != sheet and state["sheet_version"] > 0


def test_a_broken_manifest_keeps_the_last_sheet_and_shows_the_findings(deck, tmp_path):
    w = Watcher(deck, _opts(tmp_path))
    w.rebuild()
    _, sheet = w.snapshot()
    _edit(deck, "hand_size = 5", "hand_size = 500")
    w.rebuild()
    state, same = w.snapshot()
    assert state["status"] == "errors" and state["stale"] and same == sheet
    assert [f["where"] for f in state["findings"]] == ["deck.hand_size"]
    assert state["title"] == "Mini"
    deck.write_text("[deck\n", encoding="utf-8")
    w.rebuild()
    state, _ = w.snapshot()
    assert state["status"] == "unreadable" and state["findings"][0]["severity"] == "error"


def test_the_inputs_are_the_manifest_its_palette_and_its_templates(deck, tmp_path):
    (deck.parent / "colours.toml").write_text((Path(__file__).parent.parent / "decks" / "palettes" / "classic.toml")
                                              .read_text(encoding="utf-8"), encoding="utf-8")
    (deck.parent / "rules" / "en").mkdir(parents=True)
    (deck.parent / "rules" / "en" / "rulebook.j2").write_text('{% extends "preset/rulebook.j2" %}\n', encoding="utf-8")
    _edit(deck, 'palette = "classic"', 'palette = "colours.toml"\ntemplates = "rules"')
    w = Watcher(deck, _opts(tmp_path))
    w.rebuild()
    assert w.snapshot()[0]["status"] == "ok"
    folder = deck.parent.resolve()
    assert w.inputs() == [folder / "mini.toml", folder / "colours.toml", folder / "rules"]
    assert w.relevant(str(folder / "colours.toml"))
    assert w.relevant(str(folder / "rules" / "en" / "rulebook.j2"))
    assert not w.relevant(str(folder / "mini-preview.png"))
    assert not w.relevant(str(folder / ".mini.toml.swp")) and not w.relevant(str(folder / "mini.toml~"))
    assert folder / "rules" / "en" in w._watch_dirs()


def test_the_decks_own_layout_files_are_inputs_and_a_change_redraws_the_faces(deck, tmp_path):
    """Issue 32: preview --watch did not redraw when the deck's own layout file changed."""
    folder = deck.parent.resolve()
    (folder / "layouts").mkdir()
    bundled = Path(__file__).parent.parent / "decks" / "layouts" / "minimal.toml"
    (folder / "layouts" / "mine.toml").write_text(bundled.read_text(encoding="utf-8"), encoding="utf-8")
    _edit(deck, 'palette = "classic"', 'palette = "classic"\nlayout = "mine"')
    w = Watcher(deck, _opts(tmp_path))
    w.rebuild()
    assert w.snapshot()[0]["status"] == "ok"
    assert folder / "layouts" / "mine.toml" in w.inputs() and folder / "layouts" in w.inputs()
    assert w.relevant(str(folder / "layouts" / "mine.toml"))
    assert w.relevant(str(folder / "layouts" / "uno.toml"))           # a new file would replace a bundled one
    assert folder / "layouts" in w._watch_dirs()
    _edit(folder / "layouts" / "mine.toml", "[elements.index]\nbox = { left = 0, top = 0, width = 15, height = 13 }",
          "[elements.index]\nbox = { left = 0, top = 0, width = 18, height = 15 }")
    w.rebuild()
    state, _ = w.snapshot()
    assert state["status"] == "ok" and state["drawn"] == 45              # every face but the back drawn again
    (folder / "layouts" / "mine.toml").write_text("[layout]\nname = 3\n", encoding="utf-8")
    w.rebuild()
    state, _ = w.snapshot()
    assert state["status"] != "ok" and any("mine.toml" in f.get("file", "") for f in state["findings"])


def _get(url: str, host: str | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_the_page_is_served_on_localhost_only(deck, tmp_path):
    w = Watcher(deck, _opts(tmp_path))
    w.rebuild()
    server, url = serve(w, 0)
    try:
        assert server.server_address[0] == HOST == "127.0.0.1"
        status, body = _get(url)
        assert status == 200 and b"/state.json" in body
        status, body = _get(url + "state.json")
        assert status == 200 and json.loads(body)["title"] == "Mini"
        status, body = _get(url + "sheet.png")
        assert status == 200 and body.startswith(b"\x89PNG")
        assert _get(url + "state.json", host="attacker.example")[0] == 403      # DNS rebinding
        assert _get(url + "../etc/passwd")[0] == 404
    finally:
        server.shutdown()
        server.server_close()


def test_the_page_server_drops_idle_connections_and_caps_them(deck, tmp_path):
    import socket

    w = Watcher(deck, _opts(tmp_path))
    server, url = serve(w, 0)
    try:
        assert server.idle_timeout <= 10 and server.max_connections <= 32
        threads = threading.active_count()
        # One connection at a time, each accepted (or turned away) before the next: opened all at once,
        # they would overflow the listening socket's small backlog and wait out the kernel's SYN
        # retries (1 s, then 3 s...), which is the test's time, not the server's.
        held = []
        try:
            for n in range(1, server.max_connections + 1):
                held.append(socket.create_connection((HOST, server.port), timeout=5))
                # a count under a lock, looked at every millisecond: the server takes about that long
                _wait(lambda n=n: server.connections == n, 10, f"connection {n} to be accepted", step=0.001)
            for _ in range(20):          # beyond the cap: each turned away at once with a 503, none served
                extra = socket.create_connection((HOST, server.port), timeout=5)
                held.append(extra)
                extra.sendall(f"GET /state.json HTTP/1.1\r\nHost: {HOST}:{server.port}\r\n\r\n".encode())
                assert extra.recv(64).startswith(b"HTTP/1.0 503 ")
            assert server.connections == server.max_connections
            assert threading.active_count() <= threads + server.max_connections + 2   # not one per connection
            with contextlib.suppress(OSError):   # OSError: turned away before the answer could be read
                assert _get(url + "state.json")[0] == 503
        finally:
            for s in held:
                s.close()
        _wait(lambda: server.connections == 0, 10, "the connections to close")
        assert _get(url + "state.json")[0] == 200
    finally:
        server.stop()


def _wait(pred, timeout: float = 60.0, what: str = "condition", step: float = 0.02):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = pred()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out waiting for {what}")


def _watching_files() -> bool:
    """The watcher's file thread runs and (on Linux) an inotify watch is registered in this process."""
    if not any(t.name == "deckgen-watch-files" and t.is_alive() for t in threading.enumerate()):
        return False
    fdinfo = Path("/proc/self/fdinfo")
    if not fdinfo.is_dir():
        return True
    for f in fdinfo.iterdir():
        with contextlib.suppress(OSError):      # a descriptor closed while we look
            if "inotify wd:" in f.read_text(errors="replace"):
                return True
    return False


class _Running:
    """``watch()`` in a thread, stopped at the end."""

    def __init__(self, ref, options):
        self.stop = threading.Event()
        self.url = ""
        self.lines: list[str] = []
        self.thread = threading.Thread(target=watch, args=(ref, options, self.stop, self.lines.append,
                                                           lambda url: setattr(self, "url", url)), daemon=True)
        self.thread.start()
        _wait(lambda: self.url, 30, "the page")

    def state(self) -> dict:
        return json.loads(_get(self.url + "state.json")[1])

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=20)
        assert not self.thread.is_alive()


@pytest.mark.slow
def test_watch_rebuilds_when_the_manifest_changes(deck, tmp_path):
    run = _Running(deck, _opts(tmp_path))
    try:
        first = _wait(lambda: (s := run.state())["status"] == "ok" and s, what="the first build")
        _wait(_watching_files, 30, "the watcher to subscribe to the deck's folder")
        _edit(deck, 'name = "Mini"', 'name = "Mini Two"')
        later = _wait(lambda: (s := run.state())["title"] == "Mini Two" and s, what="the rebuild")
        assert later["version"] > first["version"] and later["rebuilds"] >= 2
        assert later["drawn"] == 1          # the back shows the name; no other face changed
        assert any("rebuilt mini" in line for line in run.lines)
    finally:
        run.close()


@pytest.mark.slow
def test_build_watch_writes_the_outputs_again(deck, tmp_path):
    out = tmp_path / "out"
    opts = WatchOptions("build", build=BuildOptions(out_dir=out, dpi=30, rulebook=False), port=0, simulate=False)
    run = _Running(deck, opts)
    try:
        _wait(lambda: run.state()["status"] == "ok", what="the first build")
        pdf = out / "mini" / "mini-cards.pdf"
        before = pdf.read_bytes()
        assert run.state()["outputs"][0]["path"] == str(pdf)
        _edit(deck, "count = 4", "count = 8")
        _wait(lambda: pdf.read_bytes() != before, what="the new PDF")
        assert _wait(lambda: (s := run.state())["status"] == "ok" and s)["faces"] == 46
    finally:
        run.close()


# ------------------------------------------------------------------ a real browser

def _chromium() -> str | None:
    return shutil.which("chromium") or (("/usr/bin/chromium") if Path("/usr/bin/chromium").exists() else None)


class DevTools:
    """Headless chromium driven over --remote-debugging-pipe (NUL-separated JSON on fds 3 and 4)."""

    def __init__(self, binary: str, profile: Path):
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                f"--user-data-dir={profile}", "--remote-debugging-pipe", "--window-size=1400,1000", "about:blank"]
        self._log = open(os.environ.get("CHROMIUM_LOG", os.devnull), "wb")  # noqa: SIM115 (closed in close())
        # chromium reads commands on fd 3 and answers on fd 4: a small trampoline puts the pipes there
        trampoline = ("import fcntl, os, sys; r, w = (fcntl.fcntl(int(a), fcntl.F_DUPFD, 10) for a in sys.argv[1:3]); "
                      "os.dup2(r, 3); os.dup2(w, 4); os.execv(sys.argv[3], sys.argv[3:])")
        self.proc = subprocess.Popen([sys.executable, "-c", trampoline, str(to_child_r), str(from_child_w), *args],
                                     pass_fds=(to_child_r, from_child_w),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._log)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.session = None

    def send(self, method: str, params: dict | None = None, timeout: float = 30.0) -> dict:
        self._id += 1
        msg: dict = {"id": self._id, "method": method, "params": params or {}}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        end = time.monotonic() + timeout
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self._id:
                    if "error" in reply:
                        raise AssertionError(f"{method}: {reply['error']}")
                    return reply["result"]
            left = end - time.monotonic()
            if left <= 0 or not select.select([self._from_child], [], [], left)[0]:
                raise AssertionError(f"chromium did not answer {method}")
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise AssertionError("chromium closed the pipe")
            self._buf += chunk

    def open(self, url: str) -> None:
        target = self.send("Target.createTarget", {"url": url})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def js(self, expression: str):
        return self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})["result"].get("value")

    def screenshot(self, path: Path) -> Path:
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"})["data"]))
        return path

    def close(self) -> None:
        with contextlib.suppress(AssertionError, OSError):
            self.send("Browser.close", timeout=5)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_child)
        os.close(self._from_child)
        self._log.close()


@pytest.mark.slow
def test_the_page_updates_itself_in_a_real_browser(deck, tmp_path):
    binary = _chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is missing on CI (.ci/run installs it with apt-get)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    run = _Running(deck, _opts(tmp_path))
    browser = DevTools(binary, tmp_path / "profile")
    shots = Path(os.environ.get("DECKGEN_SCREENSHOTS", tmp_path))
    try:
        _wait(lambda: run.state()["status"] == "ok", what="the first build")
        browser.open(run.url)
        _wait(lambda: browser.js("document.body.dataset.status") == "ok"
              and browser.js("document.getElementById('sheet').naturalWidth") > 0, what="the page")
        assert browser.js("document.getElementById('title').textContent") == "Mini"
        assert browser.js("document.querySelectorAll('#findings li').length") == 0
        assert browser.js("document.getElementById('none').hidden") is False
        loaded = browser.js("window.deckgenLoadedAt")
        first_sheet = browser.js("document.getElementById('sheet').src")
        before = browser.screenshot(shots / "watch-before.png")

        _edit(deck, 'name = "Mini"', 'name = "Mini Two"')
        _edit(deck, "hand_size = 5", "hand_size = 10")           # 48 cards for 4 x 10: a small draw pile
        _wait(lambda: browser.js("document.getElementById('title').textContent") == "Mini Two"
              and browser.js("document.querySelectorAll('#findings li[data-code=small-draw-pile]').length") == 1,
              what="the page to show the change")
        assert browser.js("window.deckgenLoadedAt") == loaded                     # updated in place, not reloaded
        assert browser.js("document.getElementById('none').hidden") is True
        _wait(lambda: browser.js("document.getElementById('sheet').src") != first_sheet
              and browser.js("document.getElementById('sheet').complete"), what="the new sheet")
        after = browser.screenshot(shots / "watch-after.png")
        a, b = Image.open(before), Image.open(after)
        assert a.size == b.size and a.size[0] >= 1000
        assert a.convert("RGB").tobytes() != b.convert("RGB").tobytes()
    finally:
        browser.close()
        run.close()
