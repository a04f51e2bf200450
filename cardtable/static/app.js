// The card table's client: lobby, room (seats, host controls), the table with tap-to-move,
// the coach panel, results and records. The server is the authority; this only shows
// what it sends and sends the moves it lists (cardtable/PROTOCOL.md). It knows no game:
// each game's board is a module the server names (`board` in /api/games), and every word,
// score and judgement comes from the server.
import { el, stdText, liText } from "./cards.js";
import { LEVEL_WORDS, botIcon, levelWord, deadlineNode, countdownText, seatLabel, setLevelPeers } from "./ui.js";

/** Each game's board module, loaded from the URL the server gives (null: none, or it failed). */
const BOARDS = {};

async function loadBoards(games) {
  await Promise.all(games.map(async (g) => {
    try { BOARDS[g.name] = g.board ? await import(g.board) : null; } catch { BOARDS[g.name] = null; }
  }));
}

function boardOf(name) {
  return BOARDS[name] || null;
}

const S = {
  games: [],
  game: null, // the room's game entry from /api/games
  roomId: null,
  ws: null,
  wsOpen: false,
  retry: 0,
  room: null,
  table: null,
  prevTable: null,
  advice: [],
  coachOn: false,
  sel: { cards: [], spots: [] },
  pending: false,
  roundResult: null,
  roundShown: null,
  records: [],
  recordsFor: -1,
  gone: false, // the room will not come back: no more reconnecting
  clock: null, // the turn clock: {seat, step, game_index, deadline (ms, this page's clock), seconds}
  sentHost: false, // this page's hello carried a host token
  resignArmed: false, // the Resign button was pressed once: the next press resigns
};

// ------------------------------------------------------------------------ storage
const store = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { if (v === null || v === undefined) localStorage.removeItem(k); else localStorage.setItem(k, v); } catch { /* private mode */ } },
};
const tokenKey = (room) => `cardtable:${room}`;
const hostKey = (room) => `cardtable:host:${room}`;
const seatKey = (room) => `cardtable:seat:${room}`;
const coachKey = (room) => `cardtable:coach:${room}`;
const autoSitKey = (room) => `cardtable:autosit:${room}`;

// ------------------------------------------------------------------------- errors
export function showError(message) {
  const box = document.getElementById("errors");
  const item = el("div", { class: "error", role: "alert" },
    el("span", { class: "error-icon", text: "!" }), el("span", { class: "error-text", text: message }),
    el("button", { class: "error-close", title: "dismiss", text: "\u00d7", onclick: () => item.remove() }));
  box.append(item);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => item.classList.add("fade"), 9000);
  setTimeout(() => item.remove(), 10000);
}

/** Something that happened at the table that everyone should know (the host changed, a
 * seat went to a computer, somebody's time ran out, somebody resigned). */
export function showNotice(message) {
  const box = document.getElementById("errors");
  const item = el("div", { class: "error notice", role: "status" },
    el("span", { class: "error-icon", text: "i" }), el("span", { class: "notice-text", text: message }),
    el("button", { class: "error-close", title: "dismiss", text: "\u00d7", onclick: () => item.remove() }));
  box.append(item);
  while (box.children.length > 3) box.firstChild.remove();
  setTimeout(() => item.classList.add("fade"), 11000);
  setTimeout(() => item.remove(), 12000);
}

// countdowns (an absent person's seat, the turn clock) tick here, from deadlines the page
// computed when the server's message arrived
setInterval(() => {
  document.querySelectorAll("[data-deadline]").forEach((n) => {
    const text = countdownText(Number(n.dataset.deadline));
    if (n.textContent !== text) n.textContent = text;
    n.classList.toggle("urgent", Number(n.dataset.deadline) - Date.now() <= 10000);
  });
}, 250);

function setText(id, text) {
  const node = document.getElementById(id);
  if (node) node.textContent = text;
}

async function api(path, opts = {}) {
  const res = await fetch(path, opts);
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  if (!res.ok) throw new Error((body && body.error) || `${res.status} ${res.statusText}`);
  return body;
}

/** Say something to screen readers (a polite live region). */
function announce(text) {
  const box = document.getElementById("announce");
  if (!box) return;
  box.textContent = "";
  setTimeout(() => { box.textContent = text; }, 30);
}

// ------------------------------------------------------------------------ routing
async function init() {
  const m = location.pathname.match(/^\/room\/([^/]+)\/?$/);
  const r = location.pathname.match(/^\/room\/([^/]+)\/replay\/(\d+)\/?$/);
  try {
    const data = await api("/api/games");
    S.games = data.games || [];
    await loadBoards(S.games);
  } catch (err) {
    showError("Could not load the games: " + err.message);
  }
  const rulesBtn = document.getElementById("rules-button");
  if (rulesBtn) rulesBtn.onclick = () => openRules(S.rulesGame);
  document.addEventListener("keydown", onKey);
  if (r) enterReplay(decodeURIComponent(r[1]), Number(r[2]));
  else if (m) enterRoom(decodeURIComponent(m[1]));
  else renderLobby();
}

// -------------------------------------------------------------------------- rules
/** The game whose rules the top bar's Rules button opens (none: the button hides). */
function setRulesGame(g) {
  S.rulesGame = g && g.rules ? g : null;
  const btn = document.getElementById("rules-button");
  if (!btn) return;
  btn.hidden = !S.rulesGame;
  if (S.rulesGame) btn.title = `the rules of ${S.rulesGame.title}`;
}

/** The rules of a game in a panel over the page (rendered by the server from the game's
 * rules document); Escape or the close button closes it and gives the focus back. */
async function openRules(g) {
  if (!g || !g.rules) return;
  closeRules();
  const back = document.activeElement;
  const body = el("div", { class: "rules-body", id: "rules-body", tabindex: "-1" }, el("p", { class: "muted", text: "Loading the rules\u2026" }));
  const close = el("button", { class: "btn small", id: "rules-close", type: "button", text: "Close", "aria-label": "close the rules" });
  const dialog = el("div", { class: "rules-dialog", id: "rules-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "rules-title" },
    el("div", { class: "rules-head" },
      el("h2", { id: "rules-title", text: `Rules of ${g.title}` }),
      el("a", { href: g.rules, target: "_blank", rel: "noopener", class: "btn small", text: "Open as a page" }), close),
    el("nav", { class: "rules-toc-box", id: "rules-toc", "aria-label": "sections" }), body);
  const shade = el("div", { class: "rules-shade", id: "rules-shade" }, dialog);
  shade.addEventListener("click", (e) => { if (e.target === shade) closeRules(); });
  close.onclick = () => closeRules();
  shade._back = back;
  document.body.append(shade);
  document.body.classList.add("rules-open");
  close.focus();
  try {
    const doc = await api(`/api/games/${encodeURIComponent(g.name)}/rules`);
    if (!document.getElementById("rules-dialog")) return;
    body.innerHTML = doc.html; // the server's rendering of the game's own document (raw HTML escaped)
    const toc = document.getElementById("rules-toc");
    const heads = (doc.toc || []).filter((h) => h.level === 2);
    toc.replaceChildren(...heads.map((h) => el("a", { href: `#${h.id}`, class: "chip toc-link", text: h.text,
      onclick: (e) => { e.preventDefault(); const t = document.getElementById(h.id); if (t) t.scrollIntoView({ block: "start" }); } })));
  } catch (err) {
    body.replaceChildren(el("p", { text: "Could not load the rules: " + err.message }));
  }
}

/** Tab stays inside the open rules panel (a modal dialog): from its last control to its
 * first and back. True when the key was handled here. */
function trapInRules(ev) {
  const dialog = document.getElementById("rules-dialog");
  if (!dialog) return false;
  const stops = [...dialog.querySelectorAll("a[href], button:not([disabled]), [tabindex='0']")];
  if (!stops.length) return false;
  const first = stops[0], last = stops[stops.length - 1];
  const at = document.activeElement;
  if (!dialog.contains(at) || (ev.shiftKey && at === first) || (!ev.shiftKey && at === last)) {
    ev.preventDefault();
    (ev.shiftKey ? last : first).focus();
  }
  return true;
}

function closeRules() {
  const shade = document.getElementById("rules-shade");
  if (!shade) return false;
  shade.remove();
  document.body.classList.remove("rules-open");
  if (shade._back && shade._back.focus) shade._back.focus();
  return true;
}

// -------------------------------------------------------------------------- lobby
/** An option's value in the game's own words (the server's `labels`, beside `allowed`). */
function optionLabel(opt, value) {
  const i = (opt.allowed || []).findIndex((a) => JSON.stringify(a) === JSON.stringify(value));
  if (i >= 0 && opt.labels && opt.labels[i] !== undefined) return opt.labels[i];
  return value === null ? "none" : String(value);
}

/** A room's option as "title: value", in the game's words. */
function optionText(game, name, value) {
  const opt = ((game && game.options) || []).find((o) => o.name === name);
  if (!opt) return `${name.replace(/_/g, " ")}: ${value === null ? "none" : value}`;
  return `${opt.title.toLowerCase()}: ${optionLabel(opt, value)}`;
}

function renderLobby() {
  document.body.dataset.page = "lobby";
  setText("crumb", "New game");
  const app = document.getElementById("app");
  app.replaceChildren();
  const saved = store.get("cardtable:lastgame");
  let chosen = S.games.find((g) => g.name === saved) || S.games[0];
  const tiles = el("div", { class: "game-tiles", id: "game-tiles" });
  const form = el("div", { class: "lobby-form", id: "lobby-form" });
  const pickGame = (g) => {
    chosen = g;
    setRulesGame(g);
    store.set("cardtable:lastgame", g.name);
    for (const t of tiles.children) t.classList.toggle("chosen", t.dataset.game === g.name);
    buildForm(form, g);
  };
  for (const g of S.games) {
    tiles.append(el("button", { class: "game-tile", type: "button", "data-game": g.name, onclick: () => pickGame(g) },
      el("div", { class: "tile-art " + g.name }, tileArt(g)),
      el("div", { class: "tile-title", text: g.title }),
      el("div", { class: "tile-players", text: `${g.players.min}-${g.players.max} players` }),
      el("div", { class: "tile-blurb", text: g.blurb || "" })));
  }
  app.append(el("section", { class: "lobby" },
    el("h1", { text: "Play cards with friends" }),
    el("p", { class: "lede", text: "Choose a game, make a room and send the link. Computer players fill any empty seat; each player can switch on a coach that only sees their own cards." }),
    tiles, form));
  if (chosen) pickGame(chosen);
  else form.append(el("p", { text: "No games available (is the server running?)" }));
}

function tileArt(g) {
  const board = boardOf(g.name);
  if (!board || !board.card) return [];
  return (g.tile || []).map((c) => board.card(c, { small: true }));
}

function buildForm(form, g) {
  form.replaceChildren();
  const rows = el("div", { class: "opt-rows" });
  const values = {};
  const selects = {};
  const players = el("select", { id: "opt-num_players", name: "num_players" });
  for (let p = g.players.min; p <= g.players.max; p += 1) players.append(el("option", { value: p, text: String(p) }));
  players.value = String(g.players.default);
  rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: "Players" }), players,
    el("small", { class: "opt-help", text: "seats at the table; computer players fill the empty ones" })));

  for (const opt of g.options || []) {
    const numeric = (opt.allowed || []).length > 12 && opt.min !== undefined;
    const sel = numeric
      ? el("input", { id: `opt-${opt.name}`, name: opt.name, type: "number", min: opt.min, max: opt.max, step: 1, value: opt.default })
      : el("select", { id: `opt-${opt.name}`, name: opt.name });
    sel._numeric = numeric;
    selects[opt.name] = sel;
    rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: opt.title || opt.name }), sel,
      el("small", { class: "opt-help", text: opt.help || "" })));
    values[opt.name] = opt.default;
  }

  const levelSel = el("select", { id: "opt-level", name: "level" });
  for (const lv of g.levels || []) {
    const word = levelWord(lv, g.level_peers);
    levelSel.append(el("option", { value: lv, text: `${word}${LEVEL_WORDS[lv] && !word.includes("(") ? ` (${lv})` : ""}` }));
  }
  const defaultLevel = (g.levels || []).includes("planner") ? "planner" : (g.levels || [])[0];
  levelSel.value = store.get("cardtable:level:" + g.name) || defaultLevel;
  if (!levelSel.value) levelSel.value = defaultLevel;
  const castLine = el("small", { class: "opt-help", id: "cast-line" });
  rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: "Opponents" }), levelSel, castLine));

  const turnSel = el("select", { id: "opt-turn_seconds", name: "turn_seconds" },
    ...TURN_CHOICES.map((v) => el("option", { value: v === null ? "" : String(v), text: v === null ? "off" : `${secondsWords(v)} a move` })));
  rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: "Turn clock" }), turnSel,
    el("small", { class: "opt-help", text: "time for each move; when it runs out the computer plays that move (off: take your time)" })));
  const awaySel = el("select", { id: "opt-away_seconds", name: "away_seconds" },
    ...AWAY_CHOICES.map((v) => el("option", { value: String(v), text: secondsWords(v) })));
  awaySel.value = "60";
  rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: "If a player leaves" }), awaySel,
    el("small", { class: "opt-help", text: "a computer plays the seat of a player who left after this long; coming back takes it back" })));

  const nameInput = el("input", { id: "lobby-name", type: "text", maxlength: 24, placeholder: "your name", value: store.get("cardtable:name") || "" });
  rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: "Your name" }), nameInput,
    el("small", { class: "opt-help", text: "shown at your seat" })));

  const combos = g.combos || { keys: [], valid: [] };
  const order = ["num_players", ...(g.options || []).map((o) => o.name)];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  // the values of `key` that some valid combination allows, given the choices above it
  const allowedFor = (key, base, chosen) => {
    const ki = combos.keys.indexOf(key);
    if (ki < 0 || !combos.valid.length) return base;
    const earlier = combos.keys.map((k, i) => [k, i]).filter(([k]) => order.indexOf(k) < order.indexOf(key));
    const rows = combos.valid.filter((row) => earlier.every(([k, i]) => same(row[i], chosen[k])));
    return base.filter((a) => rows.some((row) => same(row[ki], a)));
  };
  const refill = () => {
    const n = Number(players.value);
    const chosen = { num_players: n };
    for (const opt of g.options || []) {
      const sel = selects[opt.name];
      if (sel._numeric) {
        chosen[opt.name] = values[opt.name];
        continue;
      }
      const allowed = allowedFor(opt.name, opt.allowed || [], chosen);
      const prev = values[opt.name];
      sel.replaceChildren(...allowed.map((a, i) => el("option", { value: String(i), "data-value": JSON.stringify(a), text: optionLabel(opt, a) })));
      sel._allowed = allowed;
      let idx = allowed.findIndex((a) => same(a, prev));
      if (idx < 0) idx = allowed.findIndex((a) => same(a, opt.default));
      if (idx < 0) idx = 0;
      sel.value = String(idx);
      values[opt.name] = allowed[idx];
      chosen[opt.name] = allowed[idx];
    }
    const cast = g.cast || [];
    const opponents = n - 1;
    castLine.textContent = cast.length
      ? `You play against ${castNames(cast, opponents)}, as many as the seats no friend takes; this makes them easier or harder.`
      : "the computer players' strength; the host can change each seat later";
  };
  players.onchange = refill;
  for (const opt of g.options || []) {
    selects[opt.name].onchange = () => {
      const sel = selects[opt.name];
      if (sel._numeric) {
        const v = Math.round(Number(sel.value));
        values[opt.name] = Number.isFinite(v) ? Math.min(opt.max, Math.max(opt.min, v)) : opt.default;
        sel.value = String(values[opt.name]);
      } else values[opt.name] = sel._allowed[Number(sel.value)];
      refill();
    };
  }
  refill();

  const create = el("button", { class: "btn primary big", id: "create-room", type: "button", text: "Play with friends" });
  create.onclick = async () => {
    create.disabled = true;
    const name = nameInput.value.trim();
    store.set("cardtable:name", name || null);
    store.set("cardtable:level:" + g.name, levelSel.value);
    try {
      const res = await api("/api/rooms", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: g.name, num_players: Number(players.value), options: values, level: levelSel.value,
          turn_seconds: turnSel.value === "" ? null : Number(turnSel.value), away_seconds: Number(awaySel.value) }),
      });
      store.set(hostKey(res.room), res.host_token);
      store.set(autoSitKey(res.room), "1");
      location.assign(res.link || `/room/${res.room}`);
    } catch (err) {
      showError(err.message);
      create.disabled = false;
    }
  };
  form.append(el("div", { class: "form-head" }, el("h2", { text: g.title }),
    g.rules ? el("button", { class: "btn small", id: "lobby-rules", type: "button", text: `Rules of ${g.title}`, onclick: () => openRules(g) }) : null),
    el("p", { class: "muted", text: "Press Play with friends to make a room, then send the link. Computer players fill any empty seat. Each player has their own coach, which only sees their own cards." }),
    rows, el("div", { class: "create-row" }, create,
      el("span", { class: "muted", text: "makes a room and its link; start alone or wait for friends" })));
}

function castNames(cast, n) {
  const names = [];
  for (let i = 0; i < n; i += 1) names.push(cast[i % cast.length]);
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}

// --------------------------------------------------------------------------- room
function enterRoom(roomId) {
  S.roomId = roomId;
  S.coachOn = store.get(coachKey(roomId)) === "1";
  document.body.dataset.page = "room";
  const app = document.getElementById("app");
  app.replaceChildren(el("div", { class: "room-grid", id: "room" },
    el("section", { class: "tablearea" },
      el("div", { class: "statusbar", id: "statusbar" },
        el("div", { class: "status", id: "status", role: "status", "aria-live": "polite", "aria-atomic": "true", text: "Connecting\u2026" }),
        el("div", { class: "moves", id: "moves", role: "group", "aria-label": "your moves" })),
      el("div", { id: "banner" }),
      el("div", { id: "board-wrap" })),
    el("aside", { class: "side" },
      el("div", { class: "panel", id: "share-panel" }),
      el("div", { class: "panel", id: "seats-panel" }),
      el("div", { class: "panel", id: "coach-panel" }),
      el("div", { class: "panel", id: "log-panel" }),
      el("div", { class: "panel", id: "records-panel" }))));
  renderShare();
  connect();
}

function renderShare() {
  const link = `${location.origin}/room/${S.roomId}`;
  const input = el("input", { id: "room-link", type: "text", readonly: true, value: link, onclick: (e) => e.target.select() });
  const btn = el("button", { class: "btn", id: "copy-link", type: "button", text: "Copy" });
  btn.onclick = async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(link);
      ok = true;
    } catch {
      input.select();
      try { ok = document.execCommand("copy"); } catch { ok = false; }
    }
    btn.textContent = ok ? "Copied!" : "Select & copy";
    setTimeout(() => { btn.textContent = "Copy"; }, 1800);
  };
  document.getElementById("share-panel").replaceChildren(
    el("h3", { text: "Invite friends" }),
    el("div", { class: "share" }, input, btn),
    el("small", { class: "muted", text: "Anyone with the link can take a free seat or watch." }));
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(S.roomId)}`);
  S.ws = ws;
  ws.onopen = () => {
    S.wsOpen = true;
    S.retry = 0;
    document.body.classList.remove("offline");
    S.sentHost = Boolean(store.get(hostKey(S.roomId)));
    ws.send(JSON.stringify({ type: "hello", token: store.get(tokenKey(S.roomId)), host_token: store.get(hostKey(S.roomId)) }));
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    handle(msg);
  };
  ws.onclose = (ev) => {
    S.wsOpen = false;
    if (S.ws !== ws || S.gone) return;
    if (GONE[ev.code]) {
      roomGone(GONE[ev.code]);
      return;
    }
    document.body.classList.add("offline");
    S.retry += 1;
    if (ev.code === 4429 || ev.code === 4503) S.retry = Math.max(S.retry, 20); // refused: try again slowly
    setText("status", `Connection lost \u2014 reconnecting\u2026${S.retry > 1 ? ` (try ${S.retry})` : ""}`);
    // the server may be up while the room is not (restarted without it): ask it, so that
    // nobody waits on "reconnecting" for a room that will never come back
    if (S.retry >= 2) checkRoom();
    setTimeout(() => { if (!S.gone) connect(); }, 500 * Math.min(S.retry, 20));
  };
}

// close codes that mean the room will not come back: what to tell the person
const GONE = {
  4404: "This room is not on the server (any more). The link may be wrong, or the server lost the room.",
  4410: "This room has expired: nobody played in it for a long time. Its finished games' records are kept.",
  4500: "This room could not be loaded on the server. Its operator has been told; the other rooms are fine.",
};

async function checkRoom() {
  let res;
  try { res = await fetch(`/api/rooms/${encodeURIComponent(S.roomId)}`); } catch { return; } // still down
  if (res.status === 404 || res.status === 410 || res.status === 503) {
    let body = null;
    try { body = await res.json(); } catch { body = null; }
    roomGone(GONE[{ 404: 4404, 410: 4410, 503: 4500 }[res.status]] + (body && body.error ? ` (${body.error})` : ""));
  }
}

/** The room is gone for good: say so and stop reconnecting. */
function roomGone(message) {
  if (S.gone) return;
  S.gone = true;
  if (S.ws) S.ws.close();
  document.body.classList.add("offline");
  document.body.dataset.page = "gone";
  document.getElementById("app").replaceChildren(el("main", { class: "errorpage", id: "room-gone" },
    el("h1", { text: "This room is gone" }),
    el("p", { class: "lede", text: message }),
    el("p", {}, el("a", { class: "btn primary", href: "/", text: "Start a new game" }))));
}

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    showError("Not connected to the table; reconnecting\u2026");
    return false;
  }
  S.ws.send(JSON.stringify(msg));
  return true;
}

function handle(msg) {
  switch (msg.type) {
    case "room": onRoom(msg); break;
    case "seated":
      store.set(tokenKey(S.roomId), msg.token);
      store.set(seatKey(S.roomId), String(msg.seat));
      if (S.coachOn) send({ type: "coach", on: true });
      break;
    case "table": onTable(msg); break;
    case "coach":
      S.advice = msg.advice || [];
      renderCoach();
      break;
    case "error":
      S.pending = false;
      showError(msg.message || "error");
      renderActions();
      break;
    case "notice":
      showNotice(msg.message || "");
      break;
    case "host":
      // the host role passed to this seat: keep the new credential
      store.set(hostKey(S.roomId), msg.host_token);
      break;
    case "clock":
      S.clock = msg.seat === null || msg.seat === undefined ? null
        : { seat: msg.seat, step: msg.step, game_index: msg.game_index, seconds: msg.seconds, deadline: Date.now() + 1000 * msg.left };
      renderActions();
      if (S.table) renderBoard();
      break;
    default: break;
  }
}

function onRoom(room) {
  const first = S.room === null;
  const prevYou = S.room ? S.room.you : null;
  if (S.sentHost && !room.host) {
    // the host token this page kept is no longer the host's (the role passed on)
    store.set(hostKey(S.roomId), null);
    S.sentHost = false;
  }
  S.room = room;
  for (const s of room.seats) s.awayUntil = s.away === null || s.away === undefined ? null : Date.now() + 1000 * s.away;
  if (room.status !== "playing") S.resignArmed = false;
  S.game = S.games.find((g) => g.name === room.game) || { name: room.game, title: room.title, levels: [], cast: [], cards: [] };
  setRulesGame(S.game);
  setLevelPeers(S.game.level_peers);
  document.title = `${room.title} \u00b7 Card table`;
  setText("crumb", `${room.title} \u00b7 room ${room.room}`);
  document.body.dataset.game = room.game;
  document.body.dataset.status = room.status;
  if (first && room.you === null && store.get(autoSitKey(S.roomId)) === "1") {
    store.set(autoSitKey(S.roomId), null);
    const free = room.seats.find((s) => s.kind !== "person");
    if (free) send({ type: "sit", seat: free.seat, name: myName() });
  }
  if (room.you !== null && room.you !== undefined && room.you !== prevYou && S.coachOn) send({ type: "coach", on: true });
  if (room.status === "waiting") {
    S.table = null;
    S.roundResult = null;
  }
  renderSeats();
  renderCoach();
  if (!S.table) renderWaiting();
  else renderBoard();
  renderActions();
  renderRecords();
}

function myName() {
  const input = document.getElementById("name-input");
  const name = (input && input.value.trim()) || store.get("cardtable:name") || "Player";
  store.set("cardtable:name", name);
  return name;
}

function name(seat) {
  const s = S.room && S.room.seats[seat];
  return s ? s.name : `Seat ${seat + 1}`;
}

function renderSeats() {
  const room = S.room;
  const panel = document.getElementById("seats-panel");
  const you = room.you;
  const rows = room.seats.map((s) => {
    const mine = you === s.seat;
    const parts = [el("span", { class: "seatno", text: String(s.seat + 1) }),
      el("span", { class: "seatname", text: s.name + (mine ? " (you)" : "") })];
    if (room.host_seat === s.seat) parts.push(el("span", { class: "badge host", id: `host-badge-${s.seat}`, title: "the host: starts games and sets the computers", text: "host" }));
    if (s.kind === "person") {
      parts.push(el("span", { class: "badge person" + (s.connected === false ? " away" : ""), text: s.connected === false ? "away" : "player" }));
      if (s.awayUntil) {
        // a computer takes the seat when this runs out (coming back stops it)
        parts.push(el("span", { class: "away-count", title: "a computer plays this seat when the time is up; opening the link again takes it back" },
          "computer in ", deadlineNode(s.awayUntil, { class: "countdown", "data-away-seat": s.seat })));
      }
      if (room.host && s.connected === false && !mine) {
        // the table waits for a person who closed the page; the host may let a computer play on
        const sel = el("select", { class: "level-select", "data-seat": s.seat, title: "let a computer play this seat (their link still takes it back)" },
          el("option", { value: "", text: "computer\u2026" }), ...(S.game.levels || []).map((lv) => el("option", { value: lv, text: levelWord(lv) })));
        sel.onchange = () => { if (sel.value) send({ type: "level", seat: s.seat, level: sel.value }); };
        parts.push(sel);
      }
    } else if (room.host && (room.status !== "finished" || true)) {
      const sel = el("select", { class: "level-select", "data-seat": s.seat, title: "this computer player's level",
        "aria-label": `level of the computer in seat ${s.seat + 1}` },
        ...(S.game.levels || [s.level]).map((lv) => el("option", { value: lv, text: levelWord(lv) })));
      sel.value = s.level;
      sel.onchange = () => send({ type: "level", seat: s.seat, level: sel.value });
      parts.push(el("span", { class: "badge bot" }, botIcon()), sel);
    } else {
      parts.push(el("span", { class: "badge bot" }, botIcon(), levelWord(s.level)));
    }
    if (s.reserved && (you === null || you === undefined)) {
      parts.push(el("span", { class: "muted", text: "kept for the player who left" }));
    } else if (s.kind !== "person" && (you === null || you === undefined) && room.status !== "playing") {
      // nobody takes a seat during a game (its cards are its holder's alone): free seats are
      // offered before the deal and between games
      parts.push(el("button", { class: "btn small sit", type: "button", "data-seat": s.seat, text: "Sit here",
        onclick: () => send({ type: "sit", seat: s.seat, name: myName() }) }));
    }
    return el("div", { class: "seatrow" + (mine ? " mine" : "") + (S.table && S.table.current === s.seat ? " to-move" : ""), "data-seat": s.seat,
      role: "group", "aria-label": `seat ${s.seat + 1}: ${seatLabel(room, S.table, s.seat, you)}` }, ...parts);
  });
  const controls = el("div", { class: "seat-controls" });
  if (you === null || you === undefined) {
    controls.append(el("label", { class: "namefield" }, el("span", { text: "Name" }),
      el("input", { id: "name-input", type: "text", maxlength: 24, value: store.get("cardtable:name") || "", placeholder: "your name" })));
    const mySeat = store.get(seatKey(S.roomId));
    if (store.get(tokenKey(S.roomId)) && mySeat !== null && room.seats[Number(mySeat)] && room.seats[Number(mySeat)].kind !== "person") {
      controls.append(el("button", { class: "btn primary", id: "take-back", type: "button", text: `Take back seat ${Number(mySeat) + 1}`,
        onclick: () => send({ type: "sit", seat: Number(mySeat), name: myName() }) }));
    }
    controls.append(el("p", { class: "muted", text: room.status === "playing"
      ? "You are watching. Seats are taken before the deal: sit when the next game starts."
      : "You are watching. Pick a free seat to play." }));
  } else {
    controls.append(el("button", { class: "btn", id: "leave", type: "button", text: "Leave seat",
      title: "a computer player takes over; you can take the seat back", onclick: () => send({ type: "leave" }) }));
    if (room.status === "playing") {
      // two presses: the first asks, the second resigns (no dialog: it works everywhere)
      const resign = el("button", { class: "btn danger" + (S.resignArmed ? " armed" : ""), id: "resign", type: "button",
        text: S.resignArmed ? "Really resign? You lose this game" : "Resign",
        title: "give up this game: it ends now, you lose, the others share the win" });
      resign.onclick = () => {
        if (!S.resignArmed) {
          S.resignArmed = true;
          renderSeats();
          setTimeout(() => { if (S.resignArmed) { S.resignArmed = false; if (S.room) renderSeats(); } }, 5000);
          return;
        }
        S.resignArmed = false;
        send({ type: "resign" });
      };
      controls.append(resign);
    }
  }
  if (room.host && room.status === "waiting") {
    controls.append(el("button", { class: "btn primary", id: "start", type: "button", text: "Start the game", onclick: () => send({ type: "start" }) }));
  }
  if (room.host && room.status !== "playing") controls.append(timeSettings(room));
  const set = room.settings || {};
  const opts = [...Object.entries(room.options || {}).map(([k, v]) => optionText(S.game, k, v)),
  `turn clock ${set.turn_seconds ? secondsWords(set.turn_seconds) : "off"}`,
  `away ${secondsWords(set.away_seconds || 60)}`].join(" \u00b7 ");
  panel.replaceChildren(
    el("h3", {}, "Seats ", el("small", { class: "muted", text: `${room.status}${room.games_played ? ` \u00b7 ${room.games_played} played` : ""}` })),
    el("div", { class: "muted optline", text: opts }),
    el("div", { class: "seats", id: "seats" }, ...rows), controls);
}

/** "30 s", "2 min" */
function secondsWords(sec) {
  return sec % 60 === 0 && sec >= 60 ? `${sec / 60} min` : `${sec} s`;
}

const AWAY_CHOICES = [30, 60, 120, 300, 900];
const TURN_CHOICES = [null, 15, 30, 60, 120, 300];

/** The host's time settings (between games): how long an absent person's seat waits, and
 * the turn clock. */
function timeSettings(room) {
  const set = room.settings || {};
  const choice = (id, label, values, current, words, key, help) => {
    const all = values.includes(current) ? values : [...values, current].sort((a, b) => (a ?? -1) - (b ?? -1));
    const sel = el("select", { id, title: help }, ...all.map((v) => el("option", { value: v === null ? "" : String(v), text: words(v) })));
    sel.value = current === null || current === undefined ? "" : String(current);
    sel.onchange = () => send({ type: "settings", [key]: sel.value === "" ? null : Number(sel.value) });
    return el("label", { class: "opt small" }, el("span", { class: "opt-name", text: label }), sel);
  };
  return el("div", { class: "time-settings", id: "time-settings" },
    choice("set-away", "An absent player's seat goes to a computer after", AWAY_CHOICES, set.away_seconds ?? 60, secondsWords, "away_seconds",
      "a player who closes the page or loses the connection during a game: after this, a computer plays for them until they come back"),
    choice("set-turn", "Turn clock", TURN_CHOICES, set.turn_seconds ?? null, (v) => (v === null ? "off" : `${secondsWords(v)} a move`), "turn_seconds",
      "time for each move; when it runs out the computer plays that move"));
}

function renderWaiting() {
  const room = S.room;
  const wrap = document.getElementById("board-wrap");
  const you = room.you;
  const seats = room.seats.map((s) => el("div", { class: "wait-seat" + (s.kind === "person" ? " taken" : "") + (you === s.seat ? " mine" : ""), "data-seat": s.seat },
    el("div", { class: "avatar" + (s.kind === "person" ? "" : " bot") }, s.kind === "person" ? (s.name[0] || "?").toUpperCase() : botIcon()),
    el("div", { class: "wname", text: s.name + (you === s.seat ? " (you)" : "") }),
    el("div", { class: "muted", text: s.kind === "person" ? "player" : `computer \u00b7 ${levelWord(s.level)}` }),
    s.kind !== "person" && (you === null || you === undefined)
      ? el("button", { class: "btn small sit", type: "button", "data-seat": s.seat, text: "Sit here", onclick: () => send({ type: "sit", seat: s.seat, name: myName() }) })
      : null));
  wrap.replaceChildren(el("div", { class: "waiting" },
    el("h2", { text: room.title }),
    el("p", { class: "muted", text: room.host ? "Send the link to your friends. Every seat not taken by a person is played by the computer. Start when ready." : "Waiting for the host to start. Pick a free seat to play, or just watch." }),
    el("div", { class: "wait-seats" }, ...seats)));
}

// -------------------------------------------------------------------------- table
function onTable(t) {
  S.prevTable = S.table;
  S.table = t;
  S.pending = false;
  const sig = (t.moves || []).map((m) => m.id).join(",");
  if (sig !== S.movesSig) {
    S.movesSig = sig;
    S.sel = { cards: [], spots: [] };
  }
  const ids = new Set((t.moves || []).map((m) => m.id));
  if (!S.advice.every((a) => ids.has(a.id)) || !ids.size) S.advice = [];
  if (t.round_result) S.roundResult = t.round_result;
  renderBoard();
  renderActions();
  renderCoach();
  renderLog();
  renderBanner();
  // the seat list is rebuilt on room messages only (its buttons stay clickable); here just the
  // turn marker and the words a screen reader says for each seat
  document.querySelectorAll("#seats .seatrow").forEach((row) => {
    const seat = Number(row.dataset.seat);
    row.classList.toggle("to-move", seat === t.current);
    row.setAttribute("aria-label", `seat ${seat + 1}: ${seatLabel(S.room, t, seat, S.room.you)}`);
  });
}

/** The turn clock of this table's position, if one runs. */
function clockFor(t) {
  const c = S.clock;
  if (!c || !t || c.step !== t.step || c.game_index !== t.game_index || c.seat !== t.current) return null;
  return c;
}

function ctx() {
  const t = S.table;
  return {
    clock: clockFor(t),
    view: t ? t.view : null,
    table: t,
    room: S.room,
    you: S.room ? S.room.you : null,
    // a replay shows the board as a seat saw it: that seat is not "you"
    replay: S.mode === "replay",
    name,
    cardId: (text) => (S.game.cards || []).indexOf(text),
  };
}

/** Which element of the board has the keyboard's focus, to give it back after a redraw. */
function focusKey() {
  const a = document.activeElement;
  if (!a || !a.closest || !a.closest("#board")) return null;
  if (a.dataset.card !== undefined) return `[data-card="${a.dataset.card}"][data-pick]`;
  if (a.dataset.spot !== undefined) return `[data-spot="${a.dataset.spot}"]`;
  return null;
}

function renderBoard() {
  const wrap = document.getElementById("board-wrap");
  const t = S.table;
  if (!t || !t.view) return;
  const r = boardOf(S.room.game);
  if (!r) {
    wrap.replaceChildren(el("pre", { text: JSON.stringify(t.view, null, 1) }));
    return;
  }
  const refocus = focusKey();
  const board = r.render(ctx());
  board.id = "board";
  board.dataset.current = t.current;
  // cards that just came into your hand
  if (S.prevTable && S.prevTable.view && S.prevTable.view.hand && t.view.hand) {
    const before = [...S.prevTable.view.hand];
    const hand = board.querySelector("#my-hand");
    if (hand) {
      for (const c of t.view.hand) {
        const i = before.indexOf(c);
        if (i >= 0) before.splice(i, 1);
        else hand.querySelectorAll(`[data-card="${c}"]`).forEach((n) => n.classList.add("fresh"));
      }
    }
  }
  board.addEventListener("click", onBoardClick);
  board.addEventListener("keydown", onBoardKey);
  labelBoard(board);
  wrap.replaceChildren(board);
  decorate();
  if (refocus) {
    const again = [...board.querySelectorAll(refocus)].find((n) => n.tabIndex >= 0);
    if (again) again.focus({ preventScroll: true });
  }
}

/** Screen-reader names for what the board draws: every card by the game's words for it
 * (`card_names` from the server), face-down cards as one group, places by their names. */
function labelBoard(root) {
  const names = (S.game && S.game.card_names) || [];
  root.querySelectorAll("[data-card]").forEach((n) => {
    const id = Number(n.dataset.card);
    n.setAttribute("aria-label", names[id] || n.getAttribute("title") || String(id));
    if (!n.hasAttribute("role")) n.setAttribute("role", "img");
  });
  root.querySelectorAll(".card.back").forEach((n) => n.setAttribute("aria-hidden", "true"));
  root.querySelectorAll(".backs[title]").forEach((n) => {
    n.setAttribute("role", "img");
    n.setAttribute("aria-label", `${n.getAttribute("title")}, face down`);
  });
  const spots = (S.game && S.game.spot_names) || {};
  root.querySelectorAll("[data-spot]").forEach((n) => {
    n.dataset.spotName = spots[n.dataset.spot] || n.getAttribute("title") || n.dataset.spot;
  });
}

function moveCards(m) { return (m.cards || []).map(Number); }
function moveSpots(m) { return m.spots || []; }

function matching() {
  const moves = (S.table && S.table.moves) || [];
  const { cards, spots } = S.sel;
  return moves.filter((m) => cards.every((c) => moveCards(m).includes(c)) && spots.every((s) => moveSpots(m).includes(s)));
}

function decorate() {
  const board = document.getElementById("board");
  if (!board) return;
  const moves = (S.table && S.table.moves) || [];
  const any = S.sel.cards.length + S.sel.spots.length > 0;
  const live = any ? matching() : moves;
  const cards = new Set(live.flatMap(moveCards));
  const spots = new Set(live.flatMap(moveSpots));
  const names = (S.game && S.game.card_names) || [];
  board.querySelectorAll("[data-pick][data-card]").forEach((n) => {
    const c = Number(n.dataset.card);
    const on = cards.has(c) && !S.pending;
    const chosen = S.sel.cards.includes(c);
    n.classList.toggle("playable", cards.has(c));
    n.classList.toggle("selected", chosen);
    // a card a move names is a button: reachable by Tab, chosen with Enter or Space
    if (on) {
      n.tabIndex = 0;
      n.setAttribute("role", "button");
      n.setAttribute("aria-pressed", chosen ? "true" : "false");
    } else {
      n.removeAttribute("tabindex");
      n.setAttribute("role", "img");
      n.removeAttribute("aria-pressed");
    }
    n.setAttribute("aria-label", (names[c] || n.getAttribute("title") || String(c)) + (on ? (chosen ? ", chosen" : ", playable") : ""));
  });
  board.querySelectorAll("[data-spot]").forEach((n) => {
    const s = n.dataset.spot;
    const live = spots.has(s) && !S.pending && moves.length > 0;
    const chosen = S.sel.spots.includes(s);
    n.classList.toggle("spot-live", spots.has(s));
    n.classList.toggle("spot-selected", chosen);
    if (live) {
      n.tabIndex = 0;
      n.setAttribute("role", "button");
      n.setAttribute("aria-pressed", chosen ? "true" : "false");
      n.setAttribute("aria-label", n.dataset.spotName || s);
    } else {
      n.removeAttribute("tabindex");
      n.removeAttribute("role");
      n.removeAttribute("aria-pressed");
      n.removeAttribute("aria-label");
    }
  });
}

/** Enter or Space on a focused card or place chooses it (as a tap does); the arrow keys
 * move between the cards and places that can be chosen now. */
function onBoardKey(ev) {
  const target = ev.target;
  if (!(target instanceof Element) || !target.closest("#board")) return;
  const focusables = () => [...document.querySelectorAll("#board [tabindex='0']")];
  if (ev.key === "Enter" || ev.key === " ") {
    if (target.matches("[data-pick][data-card], [data-spot]") && target.tabIndex >= 0) {
      ev.preventDefault();
      ev.stopPropagation();
      chooseFrom(target, true);
    }
    return;
  }
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
  if (step && target.tabIndex >= 0) {
    const all = focusables();
    const i = all.indexOf(target);
    if (i >= 0 && all.length) {
      ev.preventDefault();
      all[(i + step + all.length) % all.length].focus();
    }
  }
}

function onBoardClick(ev) {
  chooseFrom(ev.target, false);
}

/** A tap (or Enter) on the board: the card under it, else the place under it. */
function chooseFrom(node, byKey) {
  const moves = (S.table && S.table.moves) || [];
  if (!moves.length || S.pending || !(node instanceof Element)) return;
  const cardNode = node.closest("[data-pick][data-card]");
  const named = (c) => moves.some((m) => moveCards(m).includes(c));
  if (cardNode && named(Number(cardNode.dataset.card))) {
    toggleCard(Number(cardNode.dataset.card));
    if (byKey) sayChoice();
    return;
  }
  const spotNode = node.closest("[data-spot]");
  if (spotNode && moves.some((m) => moveSpots(m).includes(spotNode.dataset.spot))) {
    toggleSpot(spotNode.dataset.spot);
    if (byKey) sayChoice();
  }
}

/** After a choice by keyboard: what is chosen and which moves it leaves, with their keys. */
function sayChoice() {
  const buttons = shownMoves();
  const names = (S.game && S.game.card_names) || [];
  const spots = (S.game && S.game.spot_names) || {};
  const chosen = [...S.sel.cards.map((c) => names[c] || String(c)), ...S.sel.spots.map((x) => spots[x] || x)];
  const what = chosen.length ? `Chosen: ${chosen.join(", ")}. ` : "Nothing chosen. ";
  const list = buttons.slice(0, 9).map((b, i) => `${i + 1}: ${b.dataset.label || b.textContent}`).join("; ");
  announce(what + (list ? `Moves: ${list}.` : ""));
}

/** The move buttons shown now (after the choices), in order: digit keys press them. */
function shownMoves() {
  return [...document.querySelectorAll("#moves .btn.move:not(.any)")].filter((b) => !b.disabled);
}

/** Keys anywhere on the page: Escape closes the rules or clears the choice; in a game,
 * 1-9 press the shown move buttons and M goes to them; in a replay, the arrows step. */
function onKey(ev) {
  if (ev.key === "Tab" && trapInRules(ev)) return;
  if (ev.key === "Escape") {
    if (closeRules()) { ev.preventDefault(); return; }
    if (S.sel && (S.sel.cards.length || S.sel.spots.length)) {
      S.sel = { cards: [], spots: [] };
      afterSelect();
      announce("Choice cleared.");
      ev.preventDefault();
    }
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey || document.getElementById("rules-shade")) return;
  const t = ev.target;
  if (t instanceof Element && t.closest("input, select, textarea, [contenteditable]")) return;
  if (S.mode === "replay") {
    replayKey(ev);
    return;
  }
  if (/^[1-9]$/.test(ev.key)) {
    const b = shownMoves()[Number(ev.key) - 1];
    if (b) {
      ev.preventDefault();
      b.click();
    }
  } else if (ev.key === "m" || ev.key === "M") {
    const b = shownMoves()[0] || document.querySelector("#moves summary");
    if (b) {
      ev.preventDefault();
      b.focus();
    }
  }
}

function toggleCard(c) {
  const { cards } = S.sel;
  if (cards.includes(c)) S.sel.cards = cards.filter((x) => x !== c);
  else {
    S.sel.cards = [...cards, c];
    if (!matching().length) S.sel = { cards: [c], spots: S.sel.spots };
    if (!matching().length) S.sel = { cards: [c], spots: [] };
  }
  afterSelect();
}

function toggleSpot(s) {
  const { spots } = S.sel;
  if (spots.includes(s)) S.sel.spots = spots.filter((x) => x !== s);
  else {
    S.sel.spots = [...spots, s];
    if (!matching().length) S.sel = { cards: S.sel.cards, spots: [s] };
    if (!matching().length) S.sel = { cards: [], spots: [s] };
  }
  afterSelect();
}

function afterSelect() {
  decorate();
  renderActions();
}

/** A move in words, as the server says it (cards in people's notation). */
function moveLabel(m) {
  return m.label || m.text || String(m.id);
}

function playMove(m) {
  if (S.pending) return;
  const step = S.table && typeof S.table.step === "number" ? S.table.step : null;
  if (send(step === null ? { type: "move", id: m.id } : { type: "move", id: m.id, step })) {
    S.pending = true;
    S.sel = { cards: [], spots: [] };
    decorate();
    renderActions();
  }
}

function moveButton(m, cls = "", key = 0) {
  return el("button", { class: `btn move ${cls}`, type: "button", "data-move-id": m.id, "data-move-text": m.text,
    "data-label": moveLabel(m), title: m.text + (key ? ` (key ${key})` : ""), disabled: S.pending,
    "aria-keyshortcuts": key ? String(key) : null, onclick: () => playMove(m) },
  key ? el("kbd", { class: "key", "aria-hidden": "true", text: String(key) }) : null, moveLabel(m));
}

function renderActions() {
  const status = document.getElementById("status");
  const box = document.getElementById("moves");
  if (!status || !box || !S.room) return;
  box.replaceChildren();
  const t = S.table;
  const room = S.room;
  const you = room.you;
  status.className = "status";
  if (!t) {
    if (room.status === "waiting") status.textContent = room.host ? "Waiting to start \u2014 you are the host" : "Waiting for the host to start";
    else status.textContent = "Loading the table\u2026";
    return;
  }
  if (t.result || t.current < 0 || room.status === "finished") {
    status.textContent = "Game over";
    status.classList.add("over");
    if (room.host) box.append(el("button", { class: "btn primary", id: "rematch-bar", type: "button", text: "Rematch", onclick: () => send({ type: "rematch" }) }));
    return;
  }
  const moves = t.moves || [];
  const clock = clockFor(t);
  const clockNode = clock ? deadlineNode(clock.deadline, { class: "clock", id: "clock", title: "time left for this move; then the computer plays it" }) : null;
  if (you === null || you === undefined) {
    status.replaceChildren(`Watching \u00b7 ${name(t.current)} to move`, clockNode ? " " : "", clockNode || "");
    return;
  }
  if (t.current !== you || !moves.length) {
    status.replaceChildren(`Waiting for ${name(t.current)}\u2026`, clockNode ? " " : "", clockNode || "");
    return;
  }
  status.classList.add("your-turn");
  status.replaceChildren(el("b", { text: "Your turn: " }), t.prompt || "make a move", clockNode ? " " : "", clockNode || "");
  const direct = moves.filter((m) => !moveCards(m).length);
  const any = S.sel.cards.length + S.sel.spots.length > 0;
  const picked = any ? matching().filter((m) => moveCards(m).length) : [];
  const directShown = any ? direct.filter((m) => S.sel.spots.every((s) => moveSpots(m).includes(s)) && !S.sel.cards.length) : direct;
  let key = 0;
  for (const m of picked) box.append(moveButton(m, "picked", key < 9 ? ++key : 0));
  for (const m of directShown) box.append(moveButton(m, "direct", key < 9 ? ++key : 0));
  if (any) {
    box.append(el("button", { class: "btn ghost", id: "clear-sel", type: "button", text: "Clear", onclick: () => { S.sel = { cards: [], spots: [] }; afterSelect(); } }));
  } else if (moves.some((m) => moveCards(m).length)) {
    box.append(el("span", { class: "hint", text: direct.length ? "or choose a highlighted card" : "choose a highlighted card",
      title: "tap it, or reach it with Tab and press Enter; then press a move's number" }));
  }
  const all = el("details", { class: "allmoves", id: "all-moves" }, el("summary", { text: `all ${moves.length} moves` }),
    el("div", { class: "allmoves-list" }, ...moves.map((m) => moveButton(m, "any"))));
  box.append(all);
}

// -------------------------------------------------------------------------- coach
function renderCoach() {
  const panel = document.getElementById("coach-panel");
  if (!panel || !S.room) return;
  const you = S.room.you;
  if (you === null || you === undefined) {
    panel.replaceChildren(el("h3", { text: "Coach" }), el("p", { class: "muted", text: "Take a seat to use your own coach; it only sees your cards." }));
    return;
  }
  const toggle = el("label", { class: "switch", title: "your coach: only you see its advice" },
    el("input", { type: "checkbox", id: "coach-toggle", checked: S.coachOn, onchange: (e) => {
      S.coachOn = e.target.checked;
      store.set(coachKey(S.roomId), S.coachOn ? "1" : null);
      if (!S.coachOn) S.advice = [];
      send({ type: "coach", on: S.coachOn });
      renderCoach();
    } }), el("span", { class: "slider" }), el("span", { text: S.coachOn ? "on" : "off" }));
  const body = el("div", { class: "advice", id: "advice" });
  const t = S.table;
  if (!S.coachOn) body.append(el("p", { class: "muted", text: "Switch on for the best moves with reasons. It sees only your own cards." }));
  else if (!t || t.current !== you || !(t.moves || []).length) body.append(el("p", { class: "muted", text: "Advice appears on your turn." }));
  else if (!S.advice.length) body.append(el("p", { class: "muted", text: "Thinking\u2026" }));
  else {
    const legal = new Map((t.moves || []).map((m) => [m.id, m]));
    // the coach's own scores have no scale a player could read: it shows its order only
    // (a plain rank; moves it rates the same share one)
    const shown = S.advice.slice(0, 5);
    body.append(el("p", { class: "muted advice-note", text: "Its best moves first; the same number: it rates them the same." }));
    shown.forEach((a, i) => {
      const m = legal.get(a.id);
      const rank = typeof a.rank === "number" ? a.rank : i + 1;
      const place = rank === 1 ? "its best move" : `its choice number ${rank}`;
      body.append(el("div", { class: "advice-item" + (rank === 1 ? " best" : ""), "data-advice-id": a.id, "data-rank": rank },
        el("div", { class: "advice-head" },
          el("span", { class: "rank", title: place, "aria-label": place, text: String(rank) }),
          el("b", { class: "advice-move", text: moveLabel(a) }),
          m ? el("button", { class: "btn small play-advice", type: "button", "data-move-id": a.id, text: "Play",
            "aria-label": `play ${moveLabel(a)}`, disabled: S.pending, onclick: () => playMove(m) }) : null),
        a.reason ? el("div", { class: "reason", text: a.reason }) : null));
    });
  }
  panel.replaceChildren(el("div", { class: "coach-head" }, el("h3", { text: "Your coach" }), toggle), body);
}

// ---------------------------------------------------------------------------- log
/** A logged move in words: the server words it for this page (the mover's words for its
 * own moves, a third person's for the others'). */
function logLabel(e) {
  return moveLabel(e);
}

function renderLog() {
  const panel = document.getElementById("log-panel");
  const t = S.table;
  if (!panel || !t) return;
  const items = (t.log || []).slice(-14).reverse().map((e) => el("li", { "data-seat": e.seat },
    el("b", { text: name(e.seat) }), " ", logLabel(e)));
  panel.replaceChildren(el("h3", { text: "Moves" }), el("ol", { class: "log", id: "log" }, ...items));
}

// ------------------------------------------------------------- results and records
function resultWinners(res) {
  if (Array.isArray(res.winners)) return res.winners;
  const returns = res.returns || [];
  const best = Math.max(...returns);
  return returns.map((r, s) => (r === best ? s : -1)).filter((s) => s >= 0);
}

/** A seat's outcome of a finished game, in words. */
function outcome(res, seat) {
  const winners = resultWinners(res);
  if (res.resigned === seat) return "resigned";
  if (!winners.length) return "no winner";
  if (winners.includes(seat)) return winners.length > 1 ? "shared the win" : "won";
  return "lost";
}

/** Every seat's final hand, drawn with the game's cards (the game is over: nothing is
 * hidden any more). */
function handsBox(hands, id) {
  const board = boardOf(S.room.game);
  const names = (S.game && S.game.card_names) || [];
  const draw = (c) => {
    const node = board && board.card ? board.card(c, { small: true }) : el("span", { class: "chip", text: String(c) });
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", names[c] || String(c));
    return node;
  };
  return el("div", { class: "final-hands", id },
    ...hands.map((h, s) => el("div", { class: "final-hand", "data-hand-seat": s, role: "group", "aria-label": `${name(s)}'s hand` },
      el("b", { class: "fh-name", text: name(s) }),
      el("div", { class: "fan" }, ...(h.length ? h.map(draw) : [el("span", { class: "muted", text: "no cards" })])))));
}

/** The finished game: who won and why (every deciding comparison, in the game's words),
 * the scores, every hand, and (at the live table) the rematch and the record. */
function resultBox(t, live) {
  const res = t.result;
  const winners = resultWinners(res);
  const you = S.room.you;
  const youWon = live && you !== null && you !== undefined && winners.includes(you);
  const scores = t.scores || [];
  const text = res.summary || (winners.length === 1 ? `${name(winners[0])} wins` : `${winners.map(name).join(" and ")} share the win`);
  const infos = res.infos || [];
  const scoreHead = (S.game && S.game.score_name) || "score";
  const rows = S.room.seats.map((s) => el("tr", { class: winners.includes(s.seat) ? "winner" : "" },
    el("td", {}, s.name, winners.includes(s.seat) ? el("span", { class: "star", "aria-hidden": "true", text: " \u2605" }) : null),
    el("td", { text: scores[s.seat] !== undefined && scores[s.seat] !== null ? String(scores[s.seat]) : (infos[s.seat] && infos[s.seat].hand_total !== undefined ? String(infos[s.seat].hand_total) : "") }),
    el("td", { class: "outcome", text: outcome(res, s.seat) })));
  const extra = [];
  const why = Array.isArray(res.why) ? res.why : [];
  if (why.length) extra.push(el("ul", { class: "why-list", id: "result-why" }, ...why.map((w) => el("li", { text: w }))));
  else if (S.game && S.game.result_note) extra.push(el("p", { class: "muted", text: S.game.result_note }));
  if (live && Array.isArray(res.hands)) {
    extra.push(el("h3", { class: "fh-title", text: "Every hand at the end" }), handsBox(res.hands, "result-hands"));
  }
  const actions = live ? el("div", { class: "result-actions" },
    S.room.host ? el("button", { class: "btn primary", id: "rematch-banner", type: "button", text: "Rematch", onclick: () => send({ type: "rematch" }) })
      : el("span", { class: "muted", text: "The host can start a rematch." }),
    el("span", { id: "download-slot" })) : null;
  const box = el("div", { class: "result" + (youWon ? " you-won" : ""), id: "result" },
    el("h2", {}, youWon ? el("span", { class: "star", "aria-hidden": "true", text: "\u2605 " }) : null, "Game over: " + text),
    el("table", { class: "scores" }, el("tr", {}, el("th", { text: "player" }), el("th", { text: scoreHead }), el("th", { text: "result" })), ...rows),
    ...extra, actions);
  if (live) fillDownload();
  return box;
}

function renderBanner() {
  const banner = document.getElementById("banner");
  const t = S.table;
  if (!banner || !t) return;
  const openBefore = banner.querySelector("details.rr-wrap");
  const wasOpen = openBefore ? openBefore.open : null;
  banner.replaceChildren();
  if (t.result) banner.append(resultBox(t, S.mode !== "replay"));
  const rr = t.round_result;
  const r = boardOf(S.room.game);
  if (rr && r && r.roundResult) {
    // a round just judged is shown open; once play has moved on it folds away
    const fresh = t.result || rr.step === undefined || (t.step - rr.step) <= S.room.num_players;
    const node = r.roundResult(rr, ctx());
    const wrap = el("details", { class: "rr-wrap", id: "round-result" },
      el("summary", { text: `Round ${rr.round ?? ""} result: ${(rr.winners || []).map(name).join(" and ")} won the round` }), node);
    wrap.open = S.roundShown === rr.step ? Boolean(wasOpen) : fresh;
    wrap.querySelector("summary").addEventListener("click", () => { S.roundShown = rr.step; });
    banner.append(wrap);
  }
}

async function loadRecords() {
  if (!S.room) return [];
  if (S.recordsFor === S.room.games_played) return S.records;
  try {
    const list = await api(`/api/rooms/${encodeURIComponent(S.roomId)}/games`);
    S.records = Array.isArray(list) ? list : (list.games || []);
    S.recordsFor = S.room.games_played;
  } catch { S.records = []; }
  return S.records;
}

async function fillDownload() {
  const recs = await loadRecords();
  const slot = document.getElementById("download-slot");
  if (!slot || !recs.length) return;
  const last = recs[recs.length - 1];
  slot.replaceChildren(
    el("a", { class: "btn", id: "replay-last", href: `/room/${encodeURIComponent(S.roomId)}/replay/${last.index}`, text: "Replay this game" }),
    " ",
    el("a", { class: "btn", id: "download-record", href: `/api/rooms/${encodeURIComponent(S.roomId)}/games/${last.index}`,
      download: `${S.room.game}-${S.roomId}-${last.index}.json`, text: "Download the game record" }));
}

async function renderRecords() {
  const panel = document.getElementById("records-panel");
  if (!panel || !S.room) return;
  if (!S.room.games_played) {
    panel.replaceChildren();
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const recs = await loadRecords();
  panel.replaceChildren(el("h3", { text: "Finished games" }), el("ul", { class: "records" },
    ...recs.map((g) => el("li", {},
      el("a", { href: `/room/${encodeURIComponent(S.roomId)}/replay/${g.index}`, "data-replay": g.index, text: `Replay game ${g.index + 1}` }),
      el("span", { class: "muted", text: ` \u00b7 ${g.moves} moves \u00b7 ` }),
      el("a", { href: `/api/rooms/${encodeURIComponent(S.roomId)}/games/${g.index}`,
        download: `${S.room.game}-${S.roomId}-${g.index}.json`, "data-record": g.index, text: "record" })))));
  fillDownload();
}

// ---------------------------------------------------------------- replay viewer
/** A finished game's replay (`/room/{id}/replay/{index}`): every position is built by the
 * server from the record (the rules replay it); this page steps through them. The game is
 * over, so every hand is shown at every step (and the board can be seen as any seat saw it). */
async function enterReplay(roomId, index) {
  S.mode = "replay";
  S.roomId = roomId;
  document.body.dataset.page = "replay";
  const app = document.getElementById("app");
  let sum;
  try {
    sum = await api(`/api/rooms/${encodeURIComponent(roomId)}/games/${index}/replay`);
  } catch (err) {
    app.replaceChildren(el("main", { class: "errorpage", id: "replay-gone" },
      el("h1", { text: "This game cannot be replayed" }), el("p", { class: "lede", text: err.message }),
      el("p", {}, el("a", { class: "btn primary", href: `/room/${encodeURIComponent(roomId)}`, text: "Back to the room" }))));
    return;
  }
  S.game = S.games.find((g) => g.name === sum.game) || { name: sum.game, title: sum.title, levels: [], cast: [], cards: [] };
  setRulesGame(S.game);
  setLevelPeers(S.game.level_peers);
  S.room = { room: roomId, game: sum.game, title: sum.title, num_players: sum.num_players, status: "finished", host: false,
    host_seat: null, you: null, seats: sum.seats.map((x) => ({ ...x, connected: true })), options: sum.options };
  S.replay = { sum, index, step: 0, seat: null, frames: new Map(), want: 0 };
  document.title = `Replay: ${sum.title} \u00b7 Card table`;
  setText("crumb", `${sum.title} \u00b7 room ${roomId} \u00b7 replay of game ${index + 1}`);
  document.body.dataset.game = sum.game;
  const button = (id, text, label, go) => el("button", { class: "btn rp-btn", id, type: "button", text, "aria-label": label, title: label, onclick: go });
  const slider = el("input", { type: "range", id: "rp-slider", min: 0, max: sum.steps, value: 0, step: 1, "aria-label": "position in the game (moves played)" });
  slider.addEventListener("input", () => showStep(Number(slider.value)));
  const seatSel = el("select", { id: "rp-seat", "aria-label": "whose view the board shows" },
    el("option", { value: "", text: "everyone (the table as a spectator saw it)" }),
    ...sum.seats.map((x) => el("option", { value: String(x.seat), text: `${x.name}'s view` })));
  seatSel.onchange = () => {
    S.replay.seat = seatSel.value === "" ? null : Number(seatSel.value);
    S.room.you = S.replay.seat;
    showStep(S.replay.step);
  };
  const moveList = el("ol", { class: "log rp-moves", id: "rp-moves", start: 1 },
    ...sum.moves.map((m) => el("li", { "data-step": m.step },
      el("button", { class: "rp-move", type: "button", "data-step": m.step, onclick: () => showStep(m.step) },
        el("b", { text: sum.seats[m.seat] ? sum.seats[m.seat].name : `Seat ${m.seat + 1}` }), " ", m.label))));
  const bar = el("div", { class: "replay-bar", id: "replay-bar", role: "toolbar", "aria-label": "replay controls" },
    button("rp-first", "\u00ab", "the deal (before the first move)", () => showStep(0)),
    button("rp-prev", "\u25c0", "previous move (left arrow)", () => showStep(S.replay.step - 1)),
    el("div", { class: "rp-where" }, el("span", { class: "rp-step", id: "rp-step", role: "status", "aria-live": "polite" }), slider),
    button("rp-next", "\u25b6", "next move (right arrow)", () => showStep(S.replay.step + 1)),
    button("rp-last", "\u00bb", "the end of the game", () => showStep(sum.steps)));
  app.replaceChildren(el("div", { class: "room-grid replay", id: "replay" },
    el("section", { class: "tablearea" }, bar, el("div", { id: "banner" }), el("div", { id: "board-wrap" }),
      el("div", { class: "rp-hands-wrap", id: "rp-hands-wrap" })),
    el("aside", { class: "side" },
      el("div", { class: "panel", id: "rp-panel" },
        el("h3", { text: `Replay of game ${index + 1}` }),
        el("p", { class: "muted optline", text: (sum.option_words || []).join(" \u00b7 ") }),
        el("p", { class: "muted", text: "The game is over, so every hand is shown at every step. Keys: \u2190 \u2192 a move, Home and End the deal and the end, Page Up and Page Down ten moves." }),
        el("label", { class: "opt small" }, el("span", { class: "opt-name", text: "The board as seen by" }), seatSel),
        el("p", {}, el("a", { class: "btn small", href: `/room/${encodeURIComponent(roomId)}`, text: "Back to the room" }), " ",
          el("a", { class: "btn small", href: `/api/rooms/${encodeURIComponent(roomId)}/games/${index}`, download: `${sum.game}-${roomId}-${index}.json`, text: "Download the record" }))),
      el("div", { class: "panel", id: "rp-moves-panel" }, el("h3", { text: `Moves (${sum.steps})` }), moveList))));
  await showStep(0);
}

function replayKey(ev) {
  const r = S.replay;
  if (!r) return;
  const to = { ArrowRight: r.step + 1, ArrowLeft: r.step - 1, Home: 0, End: r.sum.steps, PageDown: r.step + 10, PageUp: r.step - 10 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  showStep(to);
}

async function replayFrame(step, seat) {
  const r = S.replay;
  const key = `${seat === null ? "all" : seat}:${step}`;
  if (!r.frames.has(key)) {
    const q = seat === null ? "" : `?seat=${seat}`;
    r.frames.set(key, api(`/api/rooms/${encodeURIComponent(S.roomId)}/games/${r.index}/replay/${step}${q}`));
    while (r.frames.size > 400) r.frames.delete(r.frames.keys().next().value);
  }
  try {
    return await r.frames.get(key);
  } catch (err) {
    r.frames.delete(key);
    throw err;
  }
}

/** Show the position after `step` moves (the server builds it; the newest request wins). */
async function showStep(step) {
  const r = S.replay;
  if (!r) return;
  const target = Math.max(0, Math.min(r.sum.steps, Math.round(step)));
  r.want = target;
  let frame;
  try {
    frame = await replayFrame(target, r.seat);
  } catch (err) {
    showError("Could not load that position: " + err.message);
    return;
  }
  if (r.want !== target) return; // a newer step was asked for meanwhile
  r.step = target;
  S.prevTable = null;
  S.table = frame;
  S.sel = { cards: [], spots: [] };
  renderBoard();
  renderBanner();
  const wrap = document.getElementById("rp-hands-wrap");
  if (wrap) {
    wrap.replaceChildren(...(Array.isArray(frame.hands)
      ? [el("h3", { class: "fh-title", text: "Every hand (the game is over: nothing is hidden)" }), handsBox(frame.hands, "rp-hands")] : []));
  }
  const m = frame.move;
  const who = m ? name(m.seat) : "";
  const where = target === 0 ? `The deal \u00b7 ${r.sum.steps} moves follow` : `Move ${target} of ${r.sum.steps}: ${who} ${m ? m.label : ""}`;
  setText("rp-step", where + (target === r.sum.steps && frame.result ? ` \u00b7 game over: ${frame.result.summary || ""}` : ""));
  const slider = document.getElementById("rp-slider");
  if (slider) slider.value = String(target);
  const set = (id, off) => { const b = document.getElementById(id); if (b) b.disabled = off; };
  set("rp-first", target === 0);
  set("rp-prev", target === 0);
  set("rp-next", target === r.sum.steps);
  set("rp-last", target === r.sum.steps);
  document.querySelectorAll("#rp-moves li").forEach((li) => {
    const on = Number(li.dataset.step) === target;
    li.classList.toggle("current", on);
    if (on) {
      li.setAttribute("aria-current", "step");
      const list = li.closest("#rp-moves");
      if (list) list.scrollTop = Math.max(0, li.offsetTop - list.offsetTop - list.clientHeight / 2);
    } else li.removeAttribute("aria-current");
  });
  if (target < r.sum.steps) replayFrame(target + 1, r.seat).catch(() => {}); // the next one, ahead of the key press
}

// the client's state and its socket, for the console and the browser tests
window.cardtable = { S, send, stdText, liText };
init();
