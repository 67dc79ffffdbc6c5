"""The play table's latency, as a page sees it, over the loopback (the table in a process of its own,
the client in this one, as a browser would be):

1. **click to the bots' replies shown**: from the moment a person's answer is posted
   (``POST /s/TOKEN/answer``) to the event (Server-Sent Events, ``/s/TOKEN/events``) that shows
   the table back at that person's next decision (or the end of the hand), every bot having
   answered in between; classic UNO, 4 players, one person and three bots, pace 0;
2. **a page's GET while an expert thinks**: ``GET /s/TOKEN/state.json`` every 20 ms at a table of
   expert bots (512 play-outs a decision, their strongest), counted between the person's answer
   and the view that asks them again: the bots' turns, the experts thinking nearly all of it.

Run:

    .venv/bin/python benchmarks/play.py [--clicks 60] [--expert-clicks 25] [--seed 1]

It prints medians and 90th percentiles in milliseconds, with the machine's load average.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import statistics
import threading
import time
from dataclasses import dataclass
from typing import Any

from deckgen import manifest
from deckgen.play import Faces, PlayOptions, PlayServer, Session


@dataclass
class Served:
    """A table served by a child process: its port and the person's path."""

    port: int
    path: str
    process: multiprocessing.process.BaseProcess
    conn: Any

    def stop(self) -> None:
        self.conn.send("stop")                      # the server stops, and with it the experts' process
        self.process.join(20)
        if self.process.is_alive():
            self.process.terminate()


def _serve(bots: str, seed: int, conn) -> None:
    deck = manifest.load_deck("classic")
    s = Session(deck, PlayOptions(players=4, bots=bots, pace=0, seed=seed, lang="en")).start()
    server = PlayServer(s, Faces(deck), 0).start()
    conn.send((server.port, f"/s/{s.seats.tokens[0]}/"))
    conn.recv()
    server.stop()


def table(bots: str, seed: int) -> Served:
    ctx = multiprocessing.get_context("spawn")
    here, there = ctx.Pipe()
    process = ctx.Process(target=_serve, args=(bots, seed, there))     # not daemonic: the experts' process is its child
    process.start()
    port, path = here.recv()
    return Served(port, path, process, here)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Page:
    """One person's page: its event stream read in a thread, each view stamped as it arrives."""

    def __init__(self, server: Served):
        self.server = server
        self.path = server.path
        self.views: list[tuple[float, dict]] = []
        self.cond = threading.Condition()
        self.stop = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        c = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        c.request("GET", self.path + "events", headers={"Host": f"127.0.0.1:{self.server.port}"})
        r = c.getresponse()
        buf = b""
        while not self.stop.is_set():
            try:
                chunk = r.read1(65536)
            except (OSError, http.client.HTTPException):
                return
            if not chunk:
                return
            buf += chunk
            while b"\n\n" in buf:
                msg, buf = buf.split(b"\n\n", 1)
                for line in msg.split(b"\n"):
                    if line.startswith(b"data: "):
                        v = json.loads(line[6:])["view"]
                        with self.cond:
                            self.views.append((time.perf_counter(), v))
                            self.cond.notify_all()

    def wait(self, since: int, pred, timeout: float = 120) -> tuple[float, dict]:
        """The first view after the ``since``-th that satisfies ``pred``, and when it came."""
        end = time.monotonic() + timeout
        with self.cond:
            while True:
                for t, v in self.views[since:]:
                    if pred(v):
                        return t, v
                left = end - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no such view")
                self.cond.wait(left)

    def post(self, route: str, data: dict) -> int:
        c = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        c.request("POST", self.path + route, body=json.dumps(data),
                  headers={"Host": f"127.0.0.1:{self.server.port}", "Content-Type": "application/json",
                           "Origin": f"http://127.0.0.1:{self.server.port}"})
        status = c.getresponse().status
        c.close()
        return status


def clicks(bots: str, n: int, seed: int) -> list[float]:
    """n answers by the person (the first legal one): milliseconds from each post to the view that
    asks them again (or ends the hand)."""
    server = table(bots, seed)
    page = Page(server)
    out: list[float] = []
    try:
        _, v = page.wait(0, lambda v: v["decision"] is not None or v["over"] is not None)
        while len(out) < n:
            if v["over"] is not None:
                since = len(page.views)
                page.post("new", {"same_seed": False})
                _, v = page.wait(since, lambda v: v["over"] is None and v["decision"] is not None)
                continue
            seq = v["decision"]["seq"]
            since = len(page.views)
            t0 = time.perf_counter()
            assert page.post("answer", {"seq": seq, "i": 0}) == 200
            t1, v = page.wait(since, lambda v, seq=seq: v["over"] is not None or
                              (v["decision"] is not None and v["decision"]["seq"] != seq))
            out.append((t1 - t0) * 1000)
    finally:
        page.stop.set()
        server.stop()
    return out


def gets_while_thinking(n_clicks: int, seed: int) -> tuple[list[float], int]:
    """GET state.json every 20 ms at an expert table; the times of those made while the bots played."""
    server = table("expert", seed)
    page = Page(server)
    stop = threading.Event()
    bots_turn = threading.Event()
    times: list[float] = []
    total = [0]

    def poll() -> None:
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        while not stop.is_set():
            during = bots_turn.is_set()
            t0 = time.perf_counter()
            c.request("GET", page.path + "state.json", headers={"Host": f"127.0.0.1:{server.port}"})
            r = c.getresponse()
            r.read()
            dt = (time.perf_counter() - t0) * 1000
            total[0] += 1
            if during and bots_turn.is_set() and r.status == 200:
                times.append(dt)
            time.sleep(0.02)
        c.close()

    poller = threading.Thread(target=poll, daemon=True)
    try:
        _, v = page.wait(0, lambda v: v["decision"] is not None or v["over"] is not None)
        poller.start()
        for _ in range(n_clicks):
            if v["over"] is not None:
                since = len(page.views)
                page.post("new", {"same_seed": False})
                _, v = page.wait(since, lambda v: v["over"] is None and v["decision"] is not None)
                continue
            seq = v["decision"]["seq"]
            since = len(page.views)
            page.post("answer", {"seq": seq, "i": 0})
            bots_turn.set()
            _, v = page.wait(since, lambda v, seq=seq: v["over"] is not None or
                             (v["decision"] is not None and v["decision"]["seq"] != seq))
            bots_turn.clear()
    finally:
        stop.set()
        poller.join(5)
        page.stop.set()
        server.stop()
    return times, total[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clicks", type=int, default=60, help="answers timed per kind of bot (random, greedy)")
    ap.add_argument("--expert-clicks", type=int, default=25, help="answers timed with expert bots")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; classic, 4 players (1 person, 3 bots), pace 0")
    print("click to the bots' replies shown (ms): median, 90th percentile, n")
    for bots, n in (("random", args.clicks), ("greedy", args.clicks), ("expert", args.expert_clicks)):
        ms = clicks(bots, n, args.seed)
        print(f"  {bots:<7} {statistics.median(ms):8.1f} {pct(ms, 0.9):8.1f}  n={len(ms)}")
    times, total = gets_while_thinking(args.expert_clicks, args.seed)
    if times:
        print(f"GET state.json while the experts play (ms): median {statistics.median(times):.1f}, "
              f"90th percentile {pct(times, 0.9):.1f}, max {max(times):.1f}  (n={len(times)} of {total} GETs)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
