// deckgen play: the page shows the table the server pushes and posts the answer a person picks.
// It decides no rule: which cards can be played, and everything else, comes from the server.
"use strict";

const $ = (id) => document.getElementById(id);
const base = location.pathname.replace(/[^/]*$/, "");       // /s/TOKEN/: every request of this seat
const touch = window.matchMedia("(hover: none), (pointer: coarse)").matches;
const calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
let config = null;      // labels, card texts
let view = null;        // the latest table view
let boot = null;        // the server's run the view came from
let chosen = null;      // a card face the person picked that has more than one answer (or a tap on a phone)
let busy = false;       // an answer is on its way
let focusHand = -1;     // the hand's card index that had the focus when the hand was drawn again
let stream = null;
let retry = 1000;
let closed = false;     // the link opens no seat any more: stop trying
let lastSeq = null;     // the latest decision of ours the page signalled
let shownResult = true; // the end dialog is open (the person may close it to look at the table)

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
function fmt(s, vals) { return s.replace(/\{(\w+)\}/g, (m, k) => (k in vals ? vals[k] : m)); }
function faceUrl(id) { return base + "face/" + encodeURIComponent(id) + ".png"; }
function L(key, vals) { return fmt((config && config.ui[key]) || key, vals || {}); }

// ------------------------------------------------------------------ talking to the server
async function getJSON(path) {
  const r = await fetch(base + path, {cache: "no-store"});
  if (!r.ok) throw new Error(path + ": " + r.status);
  return r.json();
}
async function post(path, body) {
  const r = await fetch(base + path, {method: "POST", headers: {"Content-Type": "application/json"},
                                      body: JSON.stringify(body || {})});
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  return {status: r.status, data};
}
function notice(text) { $("notice").textContent = text || ""; }

// the second click of a double click (detail 2) is never an answer: on Draw, it would land on the
// "Keep it" that replaced it; a key held down (repeat) is not a second answer either
function second(ev) { return !!ev && (ev.detail > 1 || ev.repeat === true); }

async function answer(i, ev) {
  if (!view || !view.decision || busy || second(ev)) return;
  busy = true;
  chosen = null;
  rememberFocus();
  const seq = view.decision.seq;
  try {
    const {status} = await post("answer", {seq, i});
    notice(status === 409 ? L("out_of_sync") : "");
  } catch (e) {
    notice(L("not_sent"));
  } finally {
    busy = false;
  }
}
async function press(what, ev) {
  if (!view || busy || second(ev)) return;
  busy = true;
  try {
    await post("press", {what, seq: view.seq});
  } catch (e) {
    notice(L("not_sent"));
  } finally {
    busy = false;
  }
}

function connect() {
  if (closed) return;
  if (stream) stream.close();
  const es = stream = new EventSource(base + "events");
  es.addEventListener("view", (ev) => {
    retry = 1000;
    $("conn").hidden = true;
    document.body.classList.remove("lost");
    const data = JSON.parse(ev.data);
    if (boot !== null && data.boot !== boot) notice(L("restarted"));
    boot = data.boot;
    addLog(data.log, data.view);
    show(data.view);
  });
  es.addEventListener("gone", () => { goneForGood(); });
  es.onerror = () => {
    if (es !== stream) return;
    lost();
    if (es.readyState === EventSource.CLOSED) {        // refused (not a network failure): is the seat still there?
      fetch(base + "state.json", {cache: "no-store"}).then((r) => {
        if (r.status === 404) goneForGood(); else later();
      }, later);
    }
  };
}
function later() {
  setTimeout(connect, retry);
  retry = Math.min(retry * 2, 8000);
}
function lost() {
  document.body.classList.add("lost");
  const c = $("conn");
  c.textContent = L("lost");
  c.hidden = false;
}
function goneForGood() {
  closed = true;
  if (stream) stream.close();
  document.body.classList.add("lost");
  const c = $("conn");
  c.textContent = L("gone");
  c.hidden = false;
  notice(L("gone"));
}

// ------------------------------------------------------------------ sound and signals
let audio = null;
let gestured = false;   // a browser lets a page make sound only after the person has used it
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, () => { gestured = true; }, {once: true});
function soundOn() { return localStorage.getItem("deckgen-play-sound") !== "off"; }
function beep() {
  if (!soundOn() || !gestured) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.0001, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.26);
  } catch (e) { /* no sound on this browser */ }
}
function showSound() {
  const b = $("btn-sound");
  b.setAttribute("aria-pressed", String(soundOn()));
  b.textContent = L(soundOn() ? "sound_on" : "sound_off");
}
function signal(v) {
  const mine = v.decision || (v.race && v.race.mine) ? (v.decision ? v.decision.seq : "race:" + v.seq) : null;
  const name = config ? config.deck.name : "deckgen";
  document.title = (mine ? "● " + L("your_turn") + " · " : "") + name + " · deckgen play";
  if (mine && mine !== lastSeq) {
    beep();
    $("announce").textContent = v.decision ? v.decision.prompt : raceText(v.race);
  }
  lastSeq = mine;
}

// ------------------------------------------------------------------ showing the table
function cardButton(card) {
  const b = el("button", "card");
  b.type = "button";
  const img = el("img");
  img.src = faceUrl(card.id);
  img.alt = "";
  b.append(img);
  b.dataset.face = card.face;
  b.dataset.id = card.id;
  b.setAttribute("aria-label", card.name);
  b.addEventListener("mouseenter", () => info(card));
  b.addEventListener("focus", () => info(card));
  return b;
}

let shownInfo = false;
function info(card) {
  if (!config || !card) return;
  shownInfo = true;
  const t = config.texts[card.id];
  if (!t) return;
  $("info-name").textContent = card.side_name ? card.name + " — " + card.side_name : t.name;
  $("info-group").textContent = t.group;
  $("info-text").replaceChildren(...t.text.map((p) => el("p", "", p)));
}

function showPlayers(v) {
  const box = $("players");
  box.replaceChildren();
  for (const p of v.players) {
    const chip = el("div", "seat");
    chip.dataset.seat = p.seat;
    if (p.you) chip.classList.add("you");
    if (!p.alive) chip.classList.add("out");
    if (v.turn === p.seat && !v.over) chip.classList.add("turn");
    if (v.thinking && v.thinking.seat === p.seat) chip.classList.add("thinking");
    chip.append(el("span", "seat-name", p.name));
    const count = el("span", "seat-cards", p.alive ? p.cards_text : L("out"));
    if (p.cards === 1 && p.alive) count.classList.add("one");
    chip.append(count);
    if (p.power !== null) {
      const state = L(p.power ? "green" : "red");
      const pw = el("span", "power " + (p.power ? "green" : "red"));
      const img = el("img");
      img.src = faceUrl(p.power ? "power-green" : "power-red");
      img.alt = "";
      pw.append(img, el("span", "power-word", state));
      pw.title = v.power_name + ": " + state;
      pw.setAttribute("aria-label", pw.title);
      chip.append(pw);
    }
    if (p.owed > 0) chip.append(el("span", "owed", L("owed_badge", {n: p.owed})));
    if (v.match) chip.append(el("span", "seat-score", p.score + " " + L("points")));
    box.append(chip);
  }
  $("last").textContent = v.last || "";
}

function showCentre(v) {
  $("draw-label").textContent = L("draw_pile") + ": " + v.draw_pile;
  $("discard-label").textContent = L("discard_pile") + ": " + v.discard_pile;
  const top = $("top-card");
  const img = top.querySelector("img");
  const pile = $("discard-pile");
  if (v.top) {
    if (img.dataset.id !== v.top.id) { img.src = faceUrl(v.top.id); img.dataset.id = v.top.id; }
    img.alt = v.top.name + (v.top.side_name ? " — " + v.top.side_name : "");
    top.setAttribute("aria-label", L("top_card") + ": " + img.alt + (v.color ? " · " + v.color.name : ""));
    top.onmouseenter = top.onfocus = () => info(v.top);
    top.onclick = () => info(v.top);
    top.classList.toggle("flexed", !!v.top.side);
    top.dataset.flex = v.top.side_name || "";
  }
  pile.classList.toggle("tinted", !!v.color);
  pile.style.setProperty("--pile", v.color ? v.color.hex : "transparent");
  const st = $("status");
  st.replaceChildren();
  const row = (k, val, cls) => {
    const dt = el("dt", "", k), dd = el("dd", cls || "");
    if (val instanceof Node) dd.append(val); else dd.textContent = val;
    st.append(dt, dd);
    return dd;
  };
  const turnName = v.players[v.turn] ? v.players[v.turn].name : "";
  const turnText = v.over ? "—" : v.turn === v.you ? L("your_turn") : v.decision ? turnName + " · " + L("your_answer") : turnName;
  row(L("turn"), turnText, "turn");
  row(L("direction"), (v.direction > 0 ? "↻ " + L("clockwise") : "↺ " + L("counter")), "direction");
  if (v.color) {
    const sw = el("span", "swatch-line");
    const dot = el("span", "swatch");
    dot.style.background = v.color.hex;
    sw.append(dot, document.createTextNode(v.color.name));
    row(L("colour"), sw, "colour");
  } else {
    row(L("colour"), L("no_colour"), "colour");
  }
  if (v.pending) row(L("penalty"), v.pending.name + ": +" + v.pending.total, "penalty");
  if (v.duel) row(L("duel"), v.duel.value + " · +" + v.duel.penalty, "duel");
}

function answersFor(face) {
  if (!view || !view.decision) return [];
  return view.decision.answers.filter((a) => a.face === face);
}

function rememberFocus() {
  const cards = [...$("hand").querySelectorAll("button.card")];
  focusHand = cards.indexOf(document.activeElement);
}

function showHand(v) {
  $("hand-title").textContent = L("hand") + " (" + v.hand.length + ")";
  const box = $("hand");
  const had = [...box.querySelectorAll("button.card")].indexOf(document.activeElement);
  if (had >= 0) focusHand = had;
  box.replaceChildren();
  box.style.setProperty("--n", Math.max(2, v.hand.length));
  const d = v.decision;
  const asksCard = d && d.answers.some((a) => a.face !== undefined);
  for (const c of v.hand) {
    const b = cardButton(c);
    const mine = d ? d.answers.filter((a) => a.face === c.face) : [];
    if (mine.length) {
      b.classList.add("playable");
      b.setAttribute("aria-label", c.name + ", " + L("playable"));
      b.addEventListener("click", (ev) => pickCard(c, mine, ev));
    } else {
      b.classList.add("idle");
      if (asksCard) {
        b.setAttribute("aria-label", c.name + ", " + L("not_playable"));
        b.setAttribute("aria-disabled", "true");
      }
      b.addEventListener("click", () => info(c));
    }
    if (chosen === c.face) b.classList.add("chosen");
    box.append(b);
  }
  if (focusHand >= 0) {            // the focus stays on the hand after an answer
    const cards = [...box.querySelectorAll("button.card")];
    const to = box.querySelector("button.card.playable") || cards[Math.min(focusHand, cards.length - 1)];
    if (to && !$("over").contains(document.activeElement)) to.focus({preventScroll: true});
    focusHand = -1;
  }
}

function pickCard(card, mine, ev) {
  info(card);
  if (second(ev)) return;
  if (mine.length === 1 && !touch) { answer(mine[0].i, ev); return; }
  chosen = card.face;
  showAsk(view);
  showHand(view);
  const first = $("answers").querySelector("button");
  if (first) first.focus();
}

function raceText(r) {
  if (!r) return "";
  if (r.kind === "uno") return r.mine ? L("race_uno", {s: Math.ceil(r.seconds)}) : L("race_uno_other", {who: r.who});
  return r.mine ? L("race_catch", {who: r.who}) : L("race_uno_other", {who: r.who});
}

let raceTimer = null;
function showRace(v) {
  const box = $("race");
  box.replaceChildren();
  clearInterval(raceTimer);
  const r = v.race;
  if (r) {
    const line = el("p", "race-text", raceText(r));
    box.append(line);
    if (r.mine) {
      const b = el("button", "answer uno big", r.kind === "uno" ? L("a_uno") : r.label);
      b.type = "button";
      b.dataset.key = r.kind === "uno" ? "uno" : "catch";
      b.addEventListener("click", (ev) => press(r.kind, ev));
      box.append(b);
    }
    const end = performance.now() + r.seconds * 1000;
    raceTimer = setInterval(() => {
      const left = Math.max(0, (end - performance.now()) / 1000);
      if (r.kind === "uno" && r.mine) line.textContent = L("race_uno", {s: Math.ceil(left)});
      if (left <= 0) clearInterval(raceTimer);
    }, 250);
  } else if (v.can_uno) {
    const b = el("button", "answer uno", v.armed ? L("uno_said") : L("a_uno"));
    b.type = "button";
    b.dataset.key = "uno";
    b.disabled = v.armed;
    b.addEventListener("click", (ev) => press("uno", ev));
    box.append(b);
  }
}

function showAsk(v) {
  const d = v.decision;
  const box = $("answers");
  box.replaceChildren();
  document.body.classList.toggle("asked", !!d || !!(v.race && v.race.mine));
  if (!d) document.body.classList.remove("asks-card");
  showRace(v);
  if (!d) {
    $("prompt").textContent = v.over ? "" : v.thinking ? v.thinking.text :
      v.waiting_for ? L("waiting_person", {who: v.waiting_for}) : "";
    return;
  }
  let list = d.answers;
  let prompt = d.prompt;
  if (chosen !== null) {
    const mine = answersFor(chosen);
    if (mine.length) {
      list = mine;
      const card = v.hand.find((c) => c.face === chosen);
      if (mine.length > 1) prompt = L("a_choose_side", {card: card ? card.name : ""});
    } else {
      chosen = null;
    }
  } else {
    list = d.answers.filter((a) => a.face === undefined);   // cards are answered from the hand
  }
  $("prompt").textContent = prompt;
  const cardAnswers = chosen === null && d.answers.some((a) => a.face !== undefined);
  document.body.classList.toggle("asks-card", cardAnswers);
  if (cardAnswers) $("prompt").append(el("span", "hint", L("pick_card")));
  let n = 0;
  for (const a of list) {
    n += 1;
    const b = el("button", "answer");
    b.type = "button";
    b.dataset.i = a.i;
    if (a.key) b.dataset.key = a.key;
    if (a.face !== undefined) b.dataset.face = a.face;
    if (a.side) b.classList.add("flex-side");
    if (a.seat !== undefined) b.dataset.seat = a.seat;
    if (a.color) {
      const dot = el("span", "swatch");
      dot.style.background = a.color;
      b.append(dot);
      b.dataset.color = a.color;
    }
    if (a.key === "uno") b.classList.add("uno");
    if (n <= 9) {
      const k = el("kbd", "", String(n));
      k.setAttribute("aria-hidden", "true");
      b.append(k);
    }
    b.append(document.createTextNode(a.label));
    b.addEventListener("click", (ev) => answer(a.i, ev));
    if (a.face !== undefined) {
      const card = v.hand.find((c) => c.face === a.face);
      if (card) {
        b.addEventListener("mouseenter", () => info(Object.assign({}, card, {side: a.side})));
        b.addEventListener("focus", () => info(card));
      }
    }
    box.append(b);
  }
  if (chosen !== null) {
    const back = el("button", "answer cancel", L("a_cancel"));
    back.type = "button";
    back.addEventListener("click", () => { chosen = null; showAsk(view); showHand(view); });
    box.append(back);
  }
}

// the log: lines are only ever added (a new game starts it again), so a person reading an earlier
// line keeps their place; it follows the latest line unless they scrolled up
let logPinned = true;
let logTouchedAt = -1e9;     // the person's last wheel, touch, pointer or key on the log
function addLog(log, v) {
  const box = $("log");
  if (log.reset) box.replaceChildren();
  if (box.children.length !== log.from) { box.replaceChildren(); if (log.from) { reconnectSoon(); return; } }
  for (const l of log.lines) box.append(logLine(l, v));
  if (log.reset) logPinned = true;
  if (!box.getAttribute("role")) box.setAttribute("role", "log");   // announced from now on, not the first fill
  logToEnd();
}
function reconnectSoon() { setTimeout(connect, 0); }
function logToEnd() {
  const box = $("log");
  if (logPinned) box.scrollTop = box.scrollHeight;
}
for (const kind of ["wheel", "touchmove", "pointerdown", "keydown"]) {
  $("log").addEventListener(kind, () => { logTouchedAt = performance.now(); }, {passive: true});
}
$("log").addEventListener("scroll", () => {
  if (performance.now() - logTouchedAt > 1500) return;
  const box = $("log");
  logPinned = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
});
new ResizeObserver(() => logToEnd()).observe($("log"));
function logLine(l, v) {
  const li = el("li", "", l.text);
  if (l.seat === v.you) li.classList.add("mine");
  if (l.seat === null) li.classList.add("table");
  return li;
}

function showOver(v) {
  const o = v.over;
  document.body.classList.toggle("ended", !!o);
  $("btn-result").hidden = !o || shownResult;
  $("over").hidden = !o || !shownResult;
  const canNext = !!o && !o.match_over && v.host;
  $("btn-next").hidden = !canNext;
  $("btn-next2").hidden = !canNext;
  const wait = o && !v.host ? L(o.match_over ? "host_new" : "host_next") : "";
  $("over-wait").textContent = wait;
  $("host-wait").textContent = wait;
  $("host-wait").hidden = !wait;
  for (const id of ["btn-new2", "btn-replay2", "btn-match2"]) $(id).hidden = !v.host || (o && !o.match_over);
  if (!o) return;
  $("over-title").textContent = o.match_over ? L("game_over") : L("hand_over");
  $("over-text").textContent = o.text;
  $("over-match").textContent = o.match_text || (v.match ? L("target", {n: v.target}) : "");
  const head = $("over-scores").querySelector("thead tr");
  head.replaceChildren(el("th", "", L("player_col")), el("th", "", L("cards_left")), el("th", "num", L("points")),
                       ...(v.match ? [el("th", "num", L("total"))] : []));
  const body = $("over-scores").querySelector("tbody");
  body.replaceChildren();
  for (const s of o.seats) {
    const tr = el("tr");
    if (s.winner) tr.classList.add("winner");
    tr.append(el("th", "", s.name));
    const cell = el("td");
    const cards = el("div", "left-cards");
    cell.append(cards);
    for (const c of s.cards.slice(0, 30)) {
      const img = el("img");
      img.src = faceUrl(c.id);
      img.alt = c.name;
      img.title = c.name;
      cards.append(img);
    }
    if (s.cards.length > 30) cards.append(el("span", "", "+" + (s.cards.length - 30)));
    const pts = s.winner ? L("wins_points", {n: o.points}) : s.out ? L("out") : s.points === null ? "—" : String(s.points);
    tr.append(cell, el("td", "num" + (s.out ? " out" : ""), pts));
    if (v.match) tr.append(el("td", "num", String(s.score)));
    body.append(tr);
  }
  if (shownResult && !$("over").contains(document.activeElement)) {
    const focus = [$("btn-next2"), $("btn-new2"), $("btn-close")].find((b) => !b.hidden);
    focus.focus();
  }
}

function showHost(v) {
  const box = $("host");
  box.hidden = !v.seats;                 // (sent to the host of a table for several people)
  for (const id of ["btn-new", "btn-replay", "btn-match"]) $(id).hidden = !v.host;
  $("btn-match").hidden = !v.host || v.match;
  if (box.hidden) return;
  const list = $("host-seats");
  list.replaceChildren();
  for (const s of v.seats) {
    if (s.seat === v.you) continue;
    const li = el("li", "host-seat");
    li.append(el("span", "seat-name", s.name));
    if (s.human) {
      li.append(el("span", "joined " + (s.joined ? "yes" : "no"), L(s.joined ? "joined" : "not_joined")));
      const link = el("input", "link");
      link.readOnly = true;
      link.value = s.link;
      link.setAttribute("aria-label", L("link_of", {who: s.name}));
      link.addEventListener("focus", () => link.select());
      li.append(link);
      if (s.qr) {
        const img = el("img", "qr");
        img.src = s.qr;
        img.alt = L("qr_of", {who: s.name});
        li.append(img);
      }
      const b = el("button", "quiet", L("give_bot"));
      b.type = "button";
      b.addEventListener("click", () => ask(L("confirm_bot", {who: s.name}), L("yes_bot"),
                                           () => post("seat", {seat: s.seat})));
      li.append(b);
    } else {
      li.append(el("span", "joined", L("a_bot")));
    }
    list.append(li);
  }
}

// a card that leaves a hand for the pile is seen going there (unless motion is turned down)
function fly(prev, v) {
  if (calm || v.over || !prev || !v.top || !prev.top || prev.game !== v.game || prev.top.id === v.top.id && prev.discard_pile === v.discard_pile) return;
  if (v.discard_pile <= prev.discard_pile) return;
  const to = $("top-card").getBoundingClientRect();
  let from = null;
  const had = prev.hand.filter((c) => c.id === v.top.id).length, has = v.hand.filter((c) => c.id === v.top.id).length;
  if (had > has) {
    const b = $("hand").querySelector(`button.card[data-id="${CSS.escape(v.top.id)}"]`) || $("hand");
    from = b.getBoundingClientRect();
  } else {
    const chip = $("players").querySelector(`.seat[data-seat="${prev.turn}"]`);
    if (chip) from = chip.getBoundingClientRect();
  }
  if (!from || !to.width) return;
  const img = el("img", "flying");
  img.src = faceUrl(v.top.id);
  img.alt = "";
  img.style.left = to.left + "px";
  img.style.top = to.top + "px";
  img.style.width = to.width + "px";
  document.body.append(img);
  const dx = from.left + from.width / 2 - (to.left + to.width / 2), dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const anim = img.animate([{transform: `translate(${dx}px, ${dy}px) scale(0.6)`, opacity: 0.6},
                            {transform: "translate(0, 0) scale(1)", opacity: 1}], {duration: 280, easing: "ease-out"});
  anim.onfinish = () => img.remove();
}

function show(v) {
  if (!v) return;
  const prev = view;
  if (prev && prev.game !== v.game) { shownResult = true; chosen = null; }
  if (prev && prev.over === null && v.over) shownResult = true;
  view = v;
  document.body.dataset.version = v.version;
  document.body.dataset.seq = v.seq || "";
  document.body.dataset.decision = v.decision ? v.decision.kind : "";
  document.body.dataset.race = v.race ? v.race.kind + (v.race.mine ? ":mine" : "") : "";
  document.body.dataset.over = v.over ? (v.over.match_over ? "game" : "hand") : "";
  $("game-info").textContent = [v.seed !== null ? L("seed", {seed: v.seed}) : "", v.match ? L("hand_no", {n: v.hand_no}) : "",
                                 v.match ? L("target", {n: v.target}) : ""].filter(Boolean).join(" · ");
  showPlayers(v);
  showCentre(v);
  showAsk(v);
  showHand(v);
  showHost(v);
  showOver(v);
  fly(prev, v);
  signal(v);
  if (!shownInfo && v.top) info(v.top);
  const err = $("error");
  err.hidden = !v.error;
  err.textContent = v.error || "";
}

// ------------------------------------------------------------------ dialogs
let confirmed = null;
let returnFocus = null;
function ask(text, yes, then) {
  returnFocus = document.activeElement;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = L("no_keep");
  confirmed = then;
  $("confirm").hidden = false;
  $("confirm-no").focus();
}
function closeConfirm() {
  $("confirm").hidden = true;
  confirmed = null;
  if (returnFocus && document.body.contains(returnFocus)) returnFocus.focus();
}
$("confirm-yes").addEventListener("click", () => { const f = confirmed; closeConfirm(); if (f) f(); });
$("confirm-no").addEventListener("click", closeConfirm);

function action(name) {
  const go = () => {
    chosen = null;
    notice("");
    if (name === "next") return post("next", {});
    return post("new", {same_seed: name === "replay", match: name === "match" ? true : null});
  };
  if (name === "next" || (view && view.over && view.over.match_over)) { go(); return; }
  ask(L("confirm_" + name, {n: config.target}), L("yes_throw"), go);
}
for (const b of document.querySelectorAll("button[data-action]")) {
  b.addEventListener("click", () => action(b.dataset.action));
}
$("btn-close").addEventListener("click", () => { shownResult = false; showOver(view); $("btn-result").focus(); });
$("btn-result").addEventListener("click", () => { shownResult = true; showOver(view); });
$("btn-sound").addEventListener("click", () => {
  localStorage.setItem("deckgen-play-sound", soundOn() ? "off" : "on");
  showSound();
});

let rulesLoaded = false;
function runs(list) {
  return list.map((r) => el(r.b ? "strong" : r.i ? "em" : "span", "", r.t));
}
async function openRules() {
  returnFocus = document.activeElement;
  $("rules").hidden = false;
  $("rules-close").focus();
  if (rulesLoaded) return;
  const data = await getJSON("rules.json");
  const box = $("rules-text");
  for (const b of data.blocks) {
    if (b.type === "h1" || b.type === "h2") {
      const h = el(b.type === "h1" ? "h3" : "h4");
      h.append(...runs(b.runs));
      box.append(h);
    } else if (b.type === "p") { const p = el("p"); p.append(...runs(b.runs)); box.append(p); }
    else if (b.type === "ol" || b.type === "ul") {
      const list = el(b.type);
      for (const item of b.items) { const li = el("li"); li.append(...runs(item)); list.append(li); }
      box.append(list);
    } else if (b.type === "card") {
      const entry = el("div", "rule-card");
      const img = el("img");
      img.src = faceUrl(b.id);
      img.alt = "";
      const words = el("div");
      words.append(el("h5", "", b.name), ...b.text.map((p) => el("p", "", p)));
      entry.append(img, words);
      box.append(entry);
    }
  }
  rulesLoaded = true;
}
function closeRules() {
  $("rules").hidden = true;
  if (returnFocus && document.body.contains(returnFocus)) returnFocus.focus();
}
$("btn-rules").addEventListener("click", openRules);
$("rules-close").addEventListener("click", closeRules);

// ------------------------------------------------------------------ keyboard
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.repeat && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); return; }
  const k = ev.key.toLowerCase();
  if (k === "escape") {
    if (!$("confirm").hidden) { closeConfirm(); return; }
    if (!$("rules").hidden) { closeRules(); return; }
    if (!$("over").hidden) { $("btn-close").click(); return; }
    if (chosen !== null) { chosen = null; showAsk(view); showHand(view); }
    return;
  }
  if (!$("confirm").hidden || !$("rules").hidden || ev.target instanceof HTMLInputElement) return;
  if (/^[1-9]$/.test(k)) {
    if (ev.repeat) return;
    const b = $("answers").querySelectorAll("button.answer")[Number(k) - 1];
    if (b) { ev.preventDefault(); b.click(); }
    return;
  }
  if (k === "d" || k === "u") {
    if (ev.repeat) return;
    const sel = k === "d" ? 'button[data-key="draw"]' : 'button[data-key="uno"], button[data-key="catch"]';
    const b = $("answers").querySelector(sel) || $("race").querySelector(sel);
    if (b) { ev.preventDefault(); b.click(); }
    return;
  }
  if (k === "h") {
    const b = $("hand").querySelector("button.card.playable") || $("hand").querySelector("button.card");
    if (b) { ev.preventDefault(); b.focus(); }
    return;
  }
  if (k === "arrowleft" || k === "arrowright") {
    const cards = [...$("hand").querySelectorAll("button.card")];
    const at = cards.indexOf(document.activeElement);
    if (at >= 0) {
      ev.preventDefault();
      const to = cards[(at + (k === "arrowright" ? 1 : cards.length - 1)) % cards.length];
      to.focus();
    }
  }
});

async function boot0() {
  try {
    config = await getJSON("config.json");
  } catch (e) {
    goneForGood();
    return;
  }
  document.documentElement.lang = config.lang;
  document.title = config.deck.name + " · deckgen play";
  $("deck-name").textContent = config.deck.name;
  $("draw-img").src = faceUrl("back");
  for (const [id, key] of [["btn-new", "new_game"], ["btn-new2", "new_game"], ["btn-replay", "replay"],
                           ["btn-replay2", "replay"], ["btn-next", "next_hand"], ["btn-next2", "next_hand"],
                           ["btn-match", "match_game"], ["btn-match2", "match_game"], ["log-title", "log"],
                           ["keys", "help_keys"], ["btn-rules", "rules"], ["rules-title", "rules"],
                           ["rules-close", "close"], ["btn-close", "look_table"], ["btn-result", "show_result"],
                           ["menu-title", "game_menu"], ["host-title", "seats_title"], ["players-title", "players"]]) {
    $(id).textContent = L(key, {n: config.target});
  }
  $("info-name").textContent = L("card_text");
  showSound();
  connect();
}
boot0();
