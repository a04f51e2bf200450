// The room: the link to share, the seats and the host's controls, the table with
// tap-to-move (cards and places chosen on the board, then a move button), the coach, the
// log, the result and the finished games' records. The server is the authority; this only
// shows what it sends and sends the moves it lists (cardtable/PROTOCOL.md).
import { el } from "./cards.js";
import { botIcon, levelWord, deadlineNode, seatLabel, setLevelPeers } from "./ui.js";
import { AWAY_CHOICES, TURN_CHOICES, announce, api, autoSitKey, coachKey, gameEntry, hostKey, optionText, secondsWords,
  seatKey, setText, showError, showNotice, store, tokenKey } from "./common.js";
import { clockFor, decorate, matching, moveCards, moveLabel, moveSpots, name, renderBanner, renderBoard } from "./board.js";
import { setRulesGame } from "./rules.js";

/** The room screen's state: the room, its socket, the table, the choice being made. */
export const T = {
  mode: "room",
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
  movesSig: "", // the ids of the moves offered: a new set clears the choice
  askedName: null, // the request for a name shown when "Sit here" was tapped without one
};

/** The board's click and key handlers (the replay draws the same board without them). */
const HOOKS = { click: (ev) => onBoardClick(ev), key: (ev) => onBoardKey(ev) };
/** What the result banner offers at the live table: the rematch and the game's record. */
const LIVE = { rematch: () => send({ type: "rematch" }), fillDownload: () => fillDownload() };

/** Draw this room's board. */
function draw() {
  renderBoard(T, HOOKS);
}

/** The room's page (`/room/{id}`): its panels, then the socket. */
export function enterRoom(roomId) {
  T.roomId = roomId;
  T.coachOn = store.get(coachKey(roomId)) === "1";
  document.body.dataset.page = "room";
  const app = document.getElementById("app");
  app.replaceChildren(el("div", { class: "room-grid", id: "room" },
    el("section", { class: "tablearea" },
      el("div", { class: "statusbar", id: "statusbar" },
        el("div", { class: "status", id: "status", role: "status", "aria-live": "polite", "aria-atomic": "true", text: "Connecting\u2026" }),
        el("div", { class: "moves", id: "moves", role: "group", "aria-label": "your moves" }),
        el("div", { class: "barlines", id: "barlines" })),
      el("div", { id: "banner" }),
      el("div", { id: "board-wrap" })),
    el("aside", { class: "side" },
      el("div", { class: "panel", id: "share-panel" }),
      el("div", { class: "panel", id: "seats-panel" }),
      el("div", { class: "panel", id: "coach-panel" }),
      el("div", { class: "panel", id: "log-panel" }),
      el("div", { class: "panel", id: "records-panel" }))));
  renderShare();
  watchBars();
  connect();
}

/** On a phone the status bar is fixed at the top and the hand at the bottom (style.css):
 * the page keeps room for them (`--bar-h`, `--dock-h`), whatever their height now. */
function watchBars() {
  const bar = document.getElementById("statusbar");
  if (!bar || typeof ResizeObserver === "undefined") return;
  new ResizeObserver(() => document.documentElement.style.setProperty("--bar-h", `${bar.offsetHeight}px`)).observe(bar);
}

function renderShare() {
  const link = `${location.origin}/room/${T.roomId}`;
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

// how often an open room's page tells the server it is still there (below the idle timeout)
const PING_MS = 25000;

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${encodeURIComponent(T.roomId)}`);
  T.ws = ws;
  ws.onopen = () => {
    T.wsOpen = true;
    T.retry = 0;
    document.body.classList.remove("offline");
    T.sentHost = Boolean(store.get(hostKey(T.roomId)));
    ws.send(JSON.stringify({ type: "hello", token: store.get(tokenKey(T.roomId)), host_token: store.get(hostKey(T.roomId)) }));
    // the server closes a socket that sends nothing for a while (--idle-timeout): an open tab pings
    const ping = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}');
      else clearInterval(ping);
    }, PING_MS);
  };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    handle(msg);
  };
  ws.onclose = (ev) => {
    T.wsOpen = false;
    if (T.ws !== ws || T.gone) return;
    if (GONE[ev.code]) {
      roomGone(GONE[ev.code]);
      return;
    }
    document.body.classList.add("offline");
    T.retry += 1;
    if (ev.code === 4429 || ev.code === 4503) T.retry = Math.max(T.retry, 20); // refused: try again slowly
    setText("status", `Connection lost \u2014 reconnecting\u2026${T.retry > 1 ? ` (try ${T.retry})` : ""}`);
    // the server may be up while the room is not (restarted without it): ask it, so that
    // nobody waits on "reconnecting" for a room that will never come back
    if (T.retry >= 2) checkRoom();
    setTimeout(() => { if (!T.gone) connect(); }, 500 * Math.min(T.retry, 20));
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
  try { res = await fetch(`/api/rooms/${encodeURIComponent(T.roomId)}`); } catch { return; } // still down
  if (res.status === 404 || res.status === 410 || res.status === 503) {
    let body = null;
    try { body = await res.json(); } catch { body = null; }
    roomGone(GONE[{ 404: 4404, 410: 4410, 503: 4500 }[res.status]] + (body && body.error ? ` (${body.error})` : ""));
  }
}

/** The room is gone for good: say so and stop reconnecting. */
function roomGone(message) {
  if (T.gone) return;
  T.gone = true;
  if (T.ws) T.ws.close();
  document.body.classList.add("offline");
  document.body.dataset.page = "gone";
  document.getElementById("app").replaceChildren(el("main", { class: "errorpage", id: "room-gone" },
    el("h1", { text: "This room is gone" }),
    el("p", { class: "lede", text: message }),
    el("p", {}, el("a", { class: "btn primary", href: "/", text: "Start a new game" }))));
}

export function send(msg) {
  if (!T.ws || T.ws.readyState !== WebSocket.OPEN) {
    showError("Not connected to the table; reconnecting\u2026");
    return false;
  }
  T.ws.send(JSON.stringify(msg));
  return true;
}

function handle(msg) {
  switch (msg.type) {
    case "room": onRoom(msg); break;
    case "seated":
      if (T.askedName) T.askedName.remove(); // the name came: the request for it is done
      T.askedName = null;
      store.set(tokenKey(T.roomId), msg.token);
      store.set(seatKey(T.roomId), String(msg.seat));
      if (T.coachOn) send({ type: "coach", on: true });
      break;
    case "table": onTable(msg); break;
    case "coach":
      T.advice = msg.advice || [];
      renderCoach();
      break;
    case "error":
      T.pending = false;
      showError(msg.message || "error");
      renderActions();
      break;
    case "notice":
      showNotice(msg.message || "");
      break;
    case "host":
      // the host role passed to this seat: keep the new credential
      store.set(hostKey(T.roomId), msg.host_token);
      break;
    case "clock":
      T.clock = msg.seat === null || msg.seat === undefined ? null
        : { seat: msg.seat, step: msg.step, game_index: msg.game_index, seconds: msg.seconds, deadline: Date.now() + 1000 * msg.left };
      renderActions();
      if (T.table) draw();
      break;
    default: break;
  }
}

function onRoom(room) {
  const first = T.room === null;
  const prevYou = T.room ? T.room.you : null;
  if (T.sentHost && !room.host) {
    // the host token this page kept is no longer the host's (the role passed on)
    store.set(hostKey(T.roomId), null);
    T.sentHost = false;
  }
  T.room = room;
  for (const s of room.seats) s.awayUntil = s.away === null || s.away === undefined ? null : Date.now() + 1000 * s.away;
  if (room.status !== "playing") T.resignArmed = false;
  T.game = gameEntry(room.game, room.title);
  setRulesGame(T.game);
  setLevelPeers(T.game.level_peers);
  document.title = `${room.title} \u00b7 Card table`;
  setText("crumb", `${room.title} \u00b7 room ${room.room}`);
  document.body.dataset.game = room.game;
  document.body.dataset.status = room.status;
  if (first && room.you === null && store.get(autoSitKey(T.roomId)) === "1") {
    store.set(autoSitKey(T.roomId), null);
    const free = room.seats.find((s) => s.kind !== "person");
    if (free) send({ type: "sit", seat: free.seat, name: myName() || "Player" });
  }
  if (room.you !== null && room.you !== undefined && room.you !== prevYou && T.coachOn) send({ type: "coach", on: true });
  if (room.status === "waiting") {
    T.table = null;
    T.roundResult = null;
  }
  renderSeats();
  renderCoach();
  if (!T.table) renderWaiting();
  else draw();
  renderActions();
  renderRecords();
}

/** The name typed (or kept from before); `null` when there is none yet. */
function myName() {
  const input = document.getElementById("name-input");
  const name = (input && input.value.trim()) || store.get("cardtable:name") || null;
  if (name) store.set("cardtable:name", name);
  return name;
}

/** Take `seat` under the name typed; with no name yet, ask for one first (the field is
 * brought into view and focused) rather than sit down as "Player". */
function sitAt(seat) {
  const name = myName();
  if (name) {
    send({ type: "sit", seat, name });
    return;
  }
  const input = document.getElementById("name-input");
  if (input) {
    input.scrollIntoView({ block: "center" });
    input.focus();
    input.classList.add("wanted");
  }
  T.askedName = showError("Type your name first, then tap \u201cSit here\u201d.");
}

/** The name field (the one already on the page when there is one, so that what is being
 * typed and the focus survive a redraw). */
function nameField() {
  const old = document.getElementById("name-input");
  if (old) return old;
  return el("input", { id: "name-input", type: "text", maxlength: 24, value: store.get("cardtable:name") || "", placeholder: "your name",
    autocomplete: "nickname", "aria-label": "your name at the table" });
}

function nameLabel() {
  const input = nameField();
  const focused = document.activeElement === input;
  const label = el("label", { class: "namefield" }, el("span", { text: "Your name" }), input);
  if (focused) queueMicrotask(() => input.focus());
  return label;
}

function renderSeats() {
  const room = T.room;
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
      // an absent person's seat goes to a computer by the room's away time alone (never by the host)
    } else if (room.host && room.status !== "playing") {
      const sel = el("select", { class: "level-select", "data-seat": s.seat, title: "this computer player's level",
        "aria-label": `level of the computer in seat ${s.seat + 1}` },
        ...(T.game.levels || [s.level]).map((lv) => el("option", { value: lv, text: levelWord(lv) })));
      sel.value = s.level;
      sel.onchange = () => send({ type: "level", seat: s.seat, level: sel.value });
      parts.push(el("span", { class: "badge bot" }, botIcon()), sel);
    } else {
      parts.push(el("span", { class: "badge bot" }, botIcon(), levelWord(s.level)));
    }
    if (s.reserved) {
      // kept for the person who left it (their link takes it back): their name, and who plays now
      parts[1].textContent = `${s.name} \u2014 away, a computer is playing`;
      parts[1].title = "kept for the player who left: their link takes the seat back";
      parts[1].classList.add("reserved");
    } else if (s.kind !== "person" && (you === null || you === undefined) && room.status !== "playing") {
      // nobody takes a seat during a game (its cards are its holder's alone): free seats are
      // offered before the deal and between games
      parts.push(el("button", { class: "btn small sit", type: "button", "data-seat": s.seat, text: "Sit here",
        onclick: () => sitAt(s.seat) }));
    }
    return el("div", { class: "seatrow" + (mine ? " mine" : "") + (T.table && T.table.current === s.seat ? " to-move" : ""), "data-seat": s.seat,
      role: "group", "aria-label": `seat ${s.seat + 1}: ${seatLabel(room, T.table, s.seat, you)}` }, ...parts);
  });
  const controls = el("div", { class: "seat-controls" });
  if (you === null || you === undefined) {
    // before the deal the name field is at the top of the table, beside the seats (renderWaiting)
    if (room.status !== "waiting") controls.append(nameLabel());
    const mySeat = store.get(seatKey(T.roomId));
    if (store.get(tokenKey(T.roomId)) && mySeat !== null && room.seats[Number(mySeat)] && room.seats[Number(mySeat)].kind !== "person") {
      controls.append(el("button", { class: "btn primary", id: "take-back", type: "button", text: `Take back seat ${Number(mySeat) + 1}`,
        onclick: () => sitAt(Number(mySeat)) }));
    }
    controls.append(el("p", { class: "muted", text: room.status === "playing"
      ? "You are watching. Seats are taken before the deal: sit when the next game starts."
      : "You are watching. Pick a free seat to play." }));
  } else {
    controls.append(el("button", { class: "btn", id: "leave", type: "button", text: "Leave seat",
      title: "a computer player takes over; you can take the seat back", onclick: () => send({ type: "leave" }) }));
    if (room.status === "playing") {
      // two presses: the first asks, the second resigns (no dialog: it works everywhere)
      const resign = el("button", { class: "btn danger" + (T.resignArmed ? " armed" : ""), id: "resign", type: "button",
        text: T.resignArmed ? "Really resign? You lose this game" : "Resign",
        title: "give up this game: it ends now, you lose, the others share the win" });
      resign.onclick = () => {
        if (!T.resignArmed) {
          T.resignArmed = true;
          renderSeats();
          setTimeout(() => { if (T.resignArmed) { T.resignArmed = false; if (T.room) renderSeats(); } }, 5000);
          return;
        }
        T.resignArmed = false;
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
  const opts = [...Object.entries(room.options || {}).map(([k, v]) => optionText(T.game, k, v)),
  `turn clock ${set.turn_seconds ? secondsWords(set.turn_seconds) : "off"}`,
  `away ${secondsWords(set.away_seconds || 60)}`].join(" \u00b7 ");
  panel.replaceChildren(
    el("h3", {}, "Seats ", el("small", { class: "muted", text: `${room.status}${room.games_played ? ` \u00b7 ${room.games_played} played` : ""}` })),
    el("div", { class: "muted optline", text: opts }),
    el("div", { class: "seats", id: "seats" }, ...rows), controls);
}

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
  const room = T.room;
  const wrap = document.getElementById("board-wrap");
  const you = room.you;
  const seats = room.seats.map((s) => el("div", { class: "wait-seat" + (s.kind === "person" ? " taken" : "") + (you === s.seat ? " mine" : ""), "data-seat": s.seat },
    el("div", { class: "avatar" + (s.kind === "person" ? "" : " bot") }, s.kind === "person" ? (s.name[0] || "?").toUpperCase() : botIcon()),
    el("div", { class: "wname", text: s.name + (you === s.seat ? " (you)" : "") }),
    el("div", { class: "muted", text: s.kind === "person" ? "player" : `computer \u00b7 ${levelWord(s.level)}` }),
    s.kind !== "person" && (you === null || you === undefined)
      ? el("button", { class: "btn small sit", type: "button", "data-seat": s.seat, text: "Sit here", onclick: () => sitAt(s.seat) })
      : null));
  wrap.replaceChildren(el("div", { class: "waiting" },
    el("h2", { text: room.title }),
    el("p", { class: "muted", text: room.host ? "Send the link to your friends. Every seat not taken by a person is played by the computer. Start when ready." : "Waiting for the host to start. Pick a free seat to play, or just watch." }),
    you === null || you === undefined ? el("div", { class: "wait-name" }, nameLabel()) : null,
    el("div", { class: "wait-seats" }, ...seats)));
}

// ----------------------------------------------------------------- table

function onTable(t) {
  T.prevTable = T.table;
  T.table = t;
  T.pending = false;
  const sig = (t.moves || []).map((m) => m.id).join(",");
  if (sig !== T.movesSig) {
    T.movesSig = sig;
    T.sel = { cards: [], spots: [] };
  }
  const ids = new Set((t.moves || []).map((m) => m.id));
  if (!T.advice.every((a) => ids.has(a.id)) || !ids.size) T.advice = [];
  if (t.round_result) T.roundResult = t.round_result;
  draw();
  renderActions();
  renderCoach();
  renderLog();
  renderBanner(T, LIVE);
  // the seat list is rebuilt on room messages only (its buttons stay clickable); here just the
  // turn marker and the words a screen reader says for each seat
  document.querySelectorAll("#seats .seatrow").forEach((row) => {
    const seat = Number(row.dataset.seat);
    row.classList.toggle("to-move", seat === t.current);
    row.setAttribute("aria-label", `seat ${seat + 1}: ${seatLabel(T.room, t, seat, T.room.you)}`);
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
  const moves = (T.table && T.table.moves) || [];
  if (!moves.length || T.pending || !(node instanceof Element)) return;
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
  const names = (T.game && T.game.card_names) || [];
  const spots = (T.game && T.game.spot_names) || {};
  const chosen = [...T.sel.cards.map((c) => names[c] || String(c)), ...T.sel.spots.map((x) => spots[x] || x)];
  const what = chosen.length ? `Chosen: ${chosen.join(", ")}. ` : "Nothing chosen. ";
  const list = buttons.slice(0, 9).map((b, i) => `${i + 1}: ${b.dataset.label || b.textContent}`).join("; ");
  announce(what + (list ? `Moves: ${list}.` : ""));
}

/** The move buttons shown now (after the choices), in order: digit keys press them. */
function shownMoves() {
  return [...document.querySelectorAll("#moves .btn.move:not(.any)")].filter((b) => !b.disabled);
}

/** Keys on the room's page (app.js passes them on when no field has the focus): 1-9 press
 * the shown move buttons, M goes to them. */
export function onKey(ev) {
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

/** Escape on the room's page (the rules panel closed): clear the choice. */
export function onEscape(ev) {
  if (T.sel && (T.sel.cards.length || T.sel.spots.length)) {
    T.sel = { cards: [], spots: [] };
    afterSelect();
    announce("Choice cleared.");
    ev.preventDefault();
  }
}

function toggleCard(c) {
  const { cards } = T.sel;
  if (cards.includes(c)) T.sel.cards = cards.filter((x) => x !== c);
  else {
    T.sel.cards = [...cards, c];
    if (!matching(T).length) T.sel = { cards: [c], spots: T.sel.spots };
    if (!matching(T).length) T.sel = { cards: [c], spots: [] };
  }
  afterSelect();
}

function toggleSpot(s) {
  const { spots } = T.sel;
  if (spots.includes(s)) T.sel.spots = spots.filter((x) => x !== s);
  else {
    T.sel.spots = [...spots, s];
    if (!matching(T).length) T.sel = { cards: T.sel.cards, spots: [s] };
    if (!matching(T).length) T.sel = { cards: [], spots: [s] };
  }
  afterSelect();
}

function afterSelect() {
  decorate(T);
  renderActions();
}

function playMove(m) {
  if (T.pending) return;
  const step = T.table && typeof T.table.step === "number" ? T.table.step : null;
  if (send(step === null ? { type: "move", id: m.id } : { type: "move", id: m.id, step })) {
    T.pending = true;
    T.sel = { cards: [], spots: [] };
    decorate(T);
    renderActions();
  }
}

function moveButton(m, cls = "", key = 0) {
  return el("button", { class: `btn move ${cls}`, type: "button", "data-move-id": m.id, "data-move-text": m.text,
    "data-label": moveLabel(m), title: m.text + (key ? ` (key ${key})` : ""), disabled: T.pending,
    "aria-keyshortcuts": key ? String(key) : null, onclick: () => playMove(m) },
  key ? el("kbd", { class: "key", "aria-hidden": "true", text: String(key) }) : null, moveLabel(m));
}

/** The status bar's own lines, under the moves: the result's one-line summary (the round
 * just judged, or the game's end) and the coach's first line, so that a phone, whose panels
 * are screens below the board, shows them without scrolling (a tap goes to the whole). */
function renderBarLines() {
  const box = document.getElementById("barlines");
  if (!box || !T.room) return;
  const t = T.table;
  const lines = [];
  const go = (id) => () => { const n = document.getElementById(id); if (n) n.scrollIntoView({ block: "start" }); };
  if (t && t.result) {
    lines.push(el("button", { class: "barline result-line", id: "result-line", type: "button", onclick: go("banner"),
      text: `Game over: ${t.result.summary || "see the result"}` }));
  } else if (t && t.round_result && (t.round_result.step === undefined || t.step - t.round_result.step <= T.room.num_players)) {
    const rr = t.round_result;
    const won = (rr.winners || []).map((s) => name(T, s)).join(" and ");
    lines.push(el("button", { class: "barline result-line", id: "result-line", type: "button", onclick: () => {
      const d = document.getElementById("round-result");
      if (d) { d.open = true; T.roundShown = rr.step; }
      go("banner")();
    }, text: `Round ${rr.round ?? ""}: ${won} won the round \u25b8` }));
  }
  const you = T.room.you;
  if (T.coachOn && t && you !== null && you !== undefined && t.current === you && (t.moves || []).length && !t.result) {
    const best = T.advice[0];
    lines.push(el("button", { class: "barline coach-line", id: "coach-line", type: "button", onclick: go("coach-panel"),
      title: "your coach's best move (the whole advice is in the coach panel)" },
    el("b", { text: "Coach: " }), best ? `${moveLabel(best)}${best.reason ? ` \u2014 ${best.reason}` : ""}` : "thinking\u2026"));
  }
  box.replaceChildren(...lines);
}

function renderActions() {
  renderBarLines();
  const status = document.getElementById("status");
  const box = document.getElementById("moves");
  if (!status || !box || !T.room) return;
  box.replaceChildren();
  const t = T.table;
  const room = T.room;
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
  const clock = clockFor(T, t);
  const clockNode = clock ? deadlineNode(clock.deadline, { class: "clock", id: "clock", title: "time left for this move; then the computer plays it" }) : null;
  if (you === null || you === undefined) {
    status.replaceChildren(`Watching \u00b7 ${name(T, t.current)} to move`, clockNode ? " " : "", clockNode || "");
    return;
  }
  if (t.current !== you || !moves.length) {
    status.replaceChildren(`Waiting for ${name(T, t.current)}\u2026`, clockNode ? " " : "", clockNode || "");
    return;
  }
  status.classList.add("your-turn");
  status.replaceChildren(el("b", { text: "Your turn: " }), t.prompt || "make a move", clockNode ? " " : "", clockNode || "");
  const direct = moves.filter((m) => !moveCards(m).length);
  const any = T.sel.cards.length + T.sel.spots.length > 0;
  const picked = any ? matching(T).filter((m) => moveCards(m).length) : [];
  const directShown = any ? direct.filter((m) => T.sel.spots.every((s) => moveSpots(m).includes(s)) && !T.sel.cards.length) : direct;
  let key = 0;
  for (const m of picked) box.append(moveButton(m, "picked", key < 9 ? ++key : 0));
  for (const m of directShown) box.append(moveButton(m, "direct", key < 9 ? ++key : 0));
  if (any) {
    box.append(el("button", { class: "btn ghost", id: "clear-sel", type: "button", text: "Clear", onclick: () => { T.sel = { cards: [], spots: [] }; afterSelect(); } }));
  } else if (moves.some((m) => moveCards(m).length)) {
    box.append(el("span", { class: "hint", text: direct.length ? "or choose a highlighted card" : "choose a highlighted card",
      title: "tap it, or reach it with Tab and press Enter; then press a move's number" }));
  }
  const all = el("details", { class: "allmoves", id: "all-moves" }, el("summary", { text: `all ${moves.length} moves` }),
    el("div", { class: "allmoves-list" }, ...moves.map((m) => moveButton(m, "any"))));
  box.append(all);
}

// ----------------------------------------------------------------- coach

function renderCoach() {
  renderBarLines();
  const panel = document.getElementById("coach-panel");
  if (!panel || !T.room) return;
  const you = T.room.you;
  if (you === null || you === undefined) {
    panel.replaceChildren(el("h3", { text: "Coach" }), el("p", { class: "muted", text: "Take a seat to use your own coach; it only sees your cards." }));
    return;
  }
  const toggle = el("label", { class: "switch", title: "your coach: only you see its advice" },
    el("input", { type: "checkbox", id: "coach-toggle", checked: T.coachOn, onchange: (e) => {
      T.coachOn = e.target.checked;
      store.set(coachKey(T.roomId), T.coachOn ? "1" : null);
      if (!T.coachOn) T.advice = [];
      send({ type: "coach", on: T.coachOn });
      renderCoach();
    } }), el("span", { class: "slider" }), el("span", { text: T.coachOn ? "on" : "off" }));
  const body = el("div", { class: "advice", id: "advice" });
  const t = T.table;
  if (!T.coachOn) body.append(el("p", { class: "muted", text: "Switch on for the best moves with reasons. It sees only your own cards." }));
  else if (!t || t.current !== you || !(t.moves || []).length) body.append(el("p", { class: "muted", text: "Advice appears on your turn." }));
  else if (!T.advice.length) body.append(el("p", { class: "muted", text: "Thinking\u2026" }));
  else {
    const legal = new Map((t.moves || []).map((m) => [m.id, m]));
    // the coach's own scores have no scale a player could read: it shows its order only
    // (a plain rank; moves it rates the same share one)
    const shown = T.advice.slice(0, 5);
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
            "aria-label": `play ${moveLabel(a)}`, disabled: T.pending, onclick: () => playMove(m) }) : null),
        a.reason ? el("div", { class: "reason", text: a.reason }) : null));
    });
  }
  panel.replaceChildren(el("div", { class: "coach-head" }, el("h3", { text: "Your coach" }), toggle), body);
}

// ------------------------------------------------------------------- log

/** A logged move in words, told after the mover's name in the past tense (the server's
 * words: "Ann threw J\u2665"), marked when a computer made it for a person who was away
 * or whose time ran out (so that it does not read as theirs). */
function logLabel(e) {
  const who = e.for || name(T, e.seat);
  if (e.stand_in === "away") return `${moveLabel(e)} (computer, while ${who} was away)`;
  if (e.stand_in === "time") return `${moveLabel(e)} (computer, ${who}'s time ran out)`;
  return moveLabel(e);
}

function renderLog() {
  const panel = document.getElementById("log-panel");
  const t = T.table;
  if (!panel || !t) return;
  const items = (t.log || []).slice(-14).reverse().map((e) => el("li", { "data-seat": e.seat },
    el("b", { text: name(T, e.seat) }), " ", logLabel(e)));
  panel.replaceChildren(el("h3", { text: "Moves" }), el("ol", { class: "log", id: "log" }, ...items));
}

// --------------------------------------------------------------- records

async function loadRecords() {
  if (!T.room) return [];
  if (T.recordsFor === T.room.games_played) return T.records;
  try {
    const list = await api(`/api/rooms/${encodeURIComponent(T.roomId)}/games`);
    T.records = Array.isArray(list) ? list : (list.games || []);
    T.recordsFor = T.room.games_played;
  } catch { T.records = []; }
  return T.records;
}

async function fillDownload() {
  const recs = await loadRecords();
  const slot = document.getElementById("download-slot");
  if (!slot || !recs.length) return;
  const last = recs[recs.length - 1];
  slot.replaceChildren(
    el("a", { class: "btn", id: "replay-last", href: `/room/${encodeURIComponent(T.roomId)}/replay/${last.index}`, text: "Replay this game" }),
    " ",
    el("a", { class: "btn", id: "download-record", href: `/api/rooms/${encodeURIComponent(T.roomId)}/games/${last.index}`,
      download: `${T.room.game}-${T.roomId}-${last.index}.json`, text: "Download the game record" }));
}

async function renderRecords() {
  const panel = document.getElementById("records-panel");
  if (!panel || !T.room) return;
  if (!T.room.games_played) {
    panel.replaceChildren();
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const recs = await loadRecords();
  panel.replaceChildren(el("h3", { text: "Finished games" }), el("ul", { class: "records" },
    ...recs.map((g) => el("li", {},
      el("a", { href: `/room/${encodeURIComponent(T.roomId)}/replay/${g.index}`, "data-replay": g.index, text: `Replay game ${g.index + 1}` }),
      el("span", { class: "muted", text: ` \u00b7 ${g.moves} moves \u00b7 ` }),
      el("a", { href: `/api/rooms/${encodeURIComponent(T.roomId)}/games/${g.index}`,
        download: `${T.room.game}-${T.roomId}-${g.index}.json`, "data-record": g.index, text: "record" })))));
  fillDownload();
}
