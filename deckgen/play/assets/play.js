// deckgen play: the page shows the table the server sends and posts the answer a person picks.
// It decides no rule: which cards can be played, and everything else, comes from the server.
"use strict";

const $ = (id) => document.getElementById(id);
const touch = window.matchMedia("(hover: none), (pointer: coarse)").matches;
let config = null;      // labels, card texts
let view = null;        // the latest table view
let chosen = null;      // a card face the person picked that has more than one answer (or a tap on a phone)
let busy = false;       // an answer is on its way

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
function fmt(s, vals) { return s.replace(/\{(\w+)\}/g, (m, k) => (k in vals ? vals[k] : m)); }
function faceUrl(id) { return "/face/" + encodeURIComponent(id) + ".png"; }
function L(key, vals) { return fmt((config && config.ui[key]) || key, vals || {}); }

// ------------------------------------------------------------------ talking to the server
async function getJSON(url) {
  const r = await fetch(url, {cache: "no-store"});
  if (!r.ok) throw new Error(url + ": " + r.status);
  return r.json();
}
async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                              body: JSON.stringify(body || {})});
  const data = await r.json();
  return {status: r.status, data};
}
async function answer(i) {
  if (!view || !view.decision || busy) return;
  busy = true;
  chosen = null;
  const seq = view.decision.seq;
  try {
    const {status, data} = await post("/answer", {seq, i});
    $("notice").textContent = status === 409 ? L("out_of_sync") : "";
    show(data.view);
  } finally {
    busy = false;
  }
}
async function action(name) {
  chosen = null;
  const route = name === "next" ? "/next" : "/new";
  const {data} = await post(route, {same_seed: name === "replay"});
  $("notice").textContent = "";
  show(data.view);
}
async function poll() {
  for (;;) {
    try {
      const v = await getJSON("/state.json?v=" + (view ? view.version : -1));
      if (!view || v.version !== view.version) show(v);
      document.body.classList.remove("lost");
    } catch (e) {
      document.body.classList.add("lost");
      $("notice").textContent = L("lost");
      await new Promise((ok) => setTimeout(ok, 1000));
    }
  }
}

// ------------------------------------------------------------------ showing the table
function cardButton(card, opts) {
  const b = el("button", "card");
  b.type = "button";
  const img = el("img");
  img.src = faceUrl(card.id);
  img.alt = card.name;
  b.append(img);
  b.dataset.face = card.face;
  b.dataset.id = card.id;
  b.setAttribute("aria-describedby", "card-info");
  b.addEventListener("mouseenter", () => info(card));
  b.addEventListener("focus", () => info(card));
  if (opts && opts.label) b.setAttribute("aria-label", opts.label);
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
  const box = $("info-text");
  box.replaceChildren(...t.text.map((p) => el("p", "", p)));
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
}

function showCentre(v) {
  $("draw-label").textContent = L("draw_pile") + ": " + v.draw_pile;
  $("discard-label").textContent = L("discard_pile") + ": " + v.discard_pile;
  const top = $("top-card");
  const img = top.querySelector("img");
  if (v.top) {
    if (img.dataset.id !== v.top.id) { img.src = faceUrl(v.top.id); img.dataset.id = v.top.id; }
    img.alt = v.top.name + (v.top.side_name ? " — " + v.top.side_name : "");
    top.onmouseenter = top.onfocus = () => info(v.top);
    top.onclick = () => info(v.top);
    top.classList.toggle("flexed", !!v.top.side);
    top.dataset.flex = v.top.side_name || "";
  }
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

function showHand(v) {
  $("hand-title").textContent = L("hand") + " (" + v.hand.length + ")";
  const box = $("hand");
  box.replaceChildren();
  const d = v.decision;
  for (const c of v.hand) {
    const b = cardButton(c);
    const mine = d ? d.answers.filter((a) => a.face === c.face) : [];
    if (mine.length) {
      b.classList.add("playable");
      b.addEventListener("click", () => pickCard(c, mine));
    } else {
      b.classList.add("idle");
      b.addEventListener("click", () => info(c));
    }
    if (chosen === c.face) b.classList.add("chosen");
    box.append(b);
  }
}

function pickCard(card, mine) {
  info(card);
  if (mine.length === 1 && !touch) { answer(mine[0].i); return; }
  chosen = card.face;
  showAsk(view);
  showHand(view);
  const first = $("answers").querySelector("button");
  if (first) first.focus();
}

function showAsk(v) {
  const d = v.decision;
  const box = $("answers");
  box.replaceChildren();
  document.body.classList.toggle("asked", !!d);
  if (!d) document.body.classList.remove("asks-card");
  if (!d) {
    $("prompt").textContent = v.over ? "" : (v.thinking ? v.thinking.text : "");
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
    if (n <= 9) b.append(el("kbd", "", String(n)));
    b.append(document.createTextNode(a.label));
    b.addEventListener("click", () => answer(a.i));
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

function showLog(v) {
  const box = $("log");
  const have = box.children.length;
  const first = v.log_total - v.log.length;
  if (have && Number(box.dataset.first) === first && have <= v.log.length) {
    for (let k = have; k < v.log.length; k++) box.append(logLine(v.log[k], v));
  } else {
    box.replaceChildren(...v.log.map((l) => logLine(l, v)));
    box.dataset.first = first;
    logPinned = true;                      // a new page or a new game: the latest lines
    logToEnd();
    return;
  }
  logToEnd();
}
// the log follows the latest line unless the person scrolled up to read an earlier one (a scroll
// the page made itself, or one a change of the panel's size made, does not count)
let logPinned = true;
let logTouchedAt = -1e9;     // the person's last wheel, touch, pointer or key on the log
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
  $("over").hidden = !o;
  document.body.classList.toggle("ended", !!o);
  if (!o) return;
  $("over-title").textContent = o.match_over ? L("game_over") : L("hand_over");
  $("over-text").textContent = o.text;
  $("over-match").textContent = o.match_text || (v.match ? L("target", {n: v.target}) : "");
  const head = $("over-scores").querySelector("thead tr");
  head.replaceChildren(el("th", "", ""), el("th", "", L("cards_left")), el("th", "num", L("points")),
                       ...(v.match ? [el("th", "num", L("total"))] : []));
  const body = $("over-scores").querySelector("tbody");
  body.replaceChildren();
  for (const s of o.seats) {
    const tr = el("tr");
    if (s.seat === o.winner) tr.classList.add("winner");
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
    tr.append(cell, el("td", "num", String(s.points)));
    if (v.match) tr.append(el("td", "num", String(s.score)));
    body.append(tr);
  }
  const next = $("btn-next");
  next.hidden = o.match_over;
  const focus = o.match_over ? $("btn-new2") : next;
  if (!document.activeElement || !$("over").contains(document.activeElement)) focus.focus();
}

function show(v) {
  if (!v || (view && v.version < view.version)) return;    // a slower, older answer: keep the newer table
  view = v;
  document.body.dataset.version = v.version;
  document.body.dataset.seq = v.seq;
  document.body.dataset.decision = v.decision ? v.decision.kind : "";
  document.body.dataset.over = v.over ? (v.over.match_over ? "game" : "hand") : "";
  $("game-info").textContent = [L("seed", {seed: v.seed}), v.match ? L("hand_no", {n: v.hand_no}) : "",
                                 v.match ? L("target", {n: v.target}) : ""].filter(Boolean).join(" · ");
  showPlayers(v);
  showCentre(v);
  showAsk(v);
  showHand(v);
  showLog(v);
  showOver(v);
  if (!shownInfo && v.top) info(v.top);
  const err = $("error");
  err.hidden = !v.error;
  err.textContent = v.error || "";
}

// ------------------------------------------------------------------ keyboard
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  if (/^[1-9]$/.test(k)) {
    const b = $("answers").querySelectorAll("button.answer")[Number(k) - 1];
    if (b) { ev.preventDefault(); b.click(); }
    return;
  }
  if (k === "d" || k === "u") {
    const b = $("answers").querySelector(k === "d" ? 'button[data-key="draw"]' : 'button[data-key="uno"]');
    if (b) { ev.preventDefault(); b.click(); }
    return;
  }
  if (k === "h") {
    const b = $("hand").querySelector("button.card.playable") || $("hand").querySelector("button.card");
    if (b) { ev.preventDefault(); b.focus(); }
    return;
  }
  if (k === "n" || k === "r") { ev.preventDefault(); action(k === "n" ? "new" : "replay"); return; }
  if (k === "escape" && chosen !== null) { chosen = null; showAsk(view); showHand(view); return; }
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

for (const b of document.querySelectorAll("button[data-action]")) {
  b.addEventListener("click", () => action(b.dataset.action));
}

async function boot() {
  config = await getJSON("/config.json");
  document.documentElement.lang = config.lang;
  document.title = config.deck.name + " · deckgen play";
  $("deck-name").textContent = config.deck.name;
  for (const [id, key] of [["btn-new", "new_game"], ["btn-new2", "new_game"], ["btn-replay", "replay"],
                           ["btn-replay2", "replay"], ["btn-next", "next_hand"], ["log-title", "log"],
                           ["keys", "help_keys"]]) {
    $(id).textContent = L(key);
  }
  $("info-name").textContent = L("card_text");
  poll();
}
boot();
