// A position drawn: the game's board with its cards and places labelled and the playable
// ones marked, the result banner (who won and why, the scores, every hand) and a round's
// result. The live table (table.js) and the replay viewer (replay.js) both draw with it,
// each from its own state `v`: { game, room, table, prevTable, sel, pending, clock,
// mode, roundShown }.
import { el } from "./cards.js";
import { boardOf } from "./common.js";

/** The turn clock of this table's position, if one runs. */
export function clockFor(v, t) {
  const c = v.clock;
  if (!c || !t || c.step !== t.step || c.game_index !== t.game_index || c.seat !== t.current) return null;
  return c;
}

/** What a board's renderer is given. */
export function ctx(v) {
  const t = v.table;
  return {
    clock: clockFor(v, t),
    view: t ? t.view : null,
    table: t,
    room: v.room,
    you: v.room ? v.room.you : null,
    // a replay shows the board as a seat saw it: that seat is not "you"
    replay: v.mode === "replay",
    name: (seat) => name(v, seat),
    cardId: (text) => (v.game.cards || []).indexOf(text),
  };
}

/** A seat's name (as the room message says it). */
export function name(v, seat) {
  const s = v.room && v.room.seats[seat];
  return s ? s.name : `Seat ${seat + 1}`;
}

/** Which element of the board has the keyboard's focus, to give it back after a redraw. */
function focusKey() {
  const a = document.activeElement;
  if (!a || !a.closest || !a.closest("#board")) return null;
  if (a.dataset.card !== undefined) return `[data-card="${a.dataset.card}"][data-pick]`;
  if (a.dataset.spot !== undefined) return `[data-spot="${a.dataset.spot}"]`;
  return null;
}

/** Draw the board of `v.table` (`hooks`: the table's click and key handlers). */
export function renderBoard(v, hooks = null) {
  const wrap = document.getElementById("board-wrap");
  const t = v.table;
  if (!t || !t.view) return;
  const r = boardOf(v.room.game);
  if (!r) {
    wrap.replaceChildren(el("pre", { text: JSON.stringify(t.view, null, 1) }));
    return;
  }
  const refocus = focusKey();
  const board = r.render(ctx(v));
  board.id = "board";
  board.dataset.current = t.current;
  // cards that just came into your hand
  if (v.prevTable && v.prevTable.view && v.prevTable.view.hand && t.view.hand) {
    const before = [...v.prevTable.view.hand];
    const hand = board.querySelector("#my-hand");
    if (hand) {
      for (const c of t.view.hand) {
        const i = before.indexOf(c);
        if (i >= 0) before.splice(i, 1);
        else hand.querySelectorAll(`[data-card="${c}"]`).forEach((n) => n.classList.add("fresh"));
      }
    }
  }
  if (hooks) {
    board.addEventListener("click", hooks.click);
    board.addEventListener("keydown", hooks.key);
  }
  labelBoard(v, board);
  wrap.replaceChildren(board);
  keepDockRoom(board);
  decorate(v);
  if (refocus) {
    const again = [...board.querySelectorAll(refocus)].find((n) => n.tabIndex >= 0);
    if (again) again.focus({ preventScroll: true });
  }
}

/** A phone's screen: the status bar and the hand are fixed to its edges (style.css). */
export const PHONE = typeof matchMedia === "function" ? matchMedia("(max-width: 640px)") : { matches: false };

/** On a phone the hand (the board's `[data-dock]` part) is fixed at the bottom of the
 * screen: the page keeps its height free at the end (`--dock-h`), so nothing stays under it. */
let dockWatch = null;
function keepDockRoom(board) {
  const dock = board.querySelector("[data-dock]");
  const set = () => document.documentElement.style.setProperty("--dock-h", `${dock && dock.isConnected ? dock.offsetHeight : 0}px`);
  if (dockWatch) dockWatch.disconnect();
  dockWatch = null;
  if (dock && typeof ResizeObserver !== "undefined") {
    dockWatch = new ResizeObserver(set);
    dockWatch.observe(dock);
  }
  set();
}

/** Screen-reader names for what the board draws: every card by the game's words for it
 * (`card_names` from the server), face-down cards as one group, places by their names. */
function labelBoard(v, root) {
  const names = (v.game && v.game.card_names) || [];
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
  const spots = (v.game && v.game.spot_names) || {};
  root.querySelectorAll("[data-spot]").forEach((n) => {
    n.dataset.spotName = spots[n.dataset.spot] || n.getAttribute("title") || n.dataset.spot;
  });
}

export function moveCards(m) { return (m.cards || []).map(Number); }

export function moveSpots(m) { return m.spots || []; }

/** A move in words, as the server says it (cards in people's notation). */
export function moveLabel(m) {
  return m.label || m.text || String(m.id);
}

/** The moves that name everything chosen so far. */
export function matching(v) {
  const moves = (v.table && v.table.moves) || [];
  const { cards, spots } = v.sel;
  return moves.filter((m) => cards.every((c) => moveCards(m).includes(c)) && spots.every((s) => moveSpots(m).includes(s)));
}

/** Mark what can be chosen now, and what is chosen. */
export function decorate(v) {
  const board = document.getElementById("board");
  if (!board) return;
  const moves = (v.table && v.table.moves) || [];
  const any = v.sel.cards.length + v.sel.spots.length > 0;
  const live = any ? matching(v) : moves;
  const cards = new Set(live.flatMap(moveCards));
  const spots = new Set(live.flatMap(moveSpots));
  const names = (v.game && v.game.card_names) || [];
  board.querySelectorAll("[data-pick][data-card]").forEach((n) => {
    const c = Number(n.dataset.card);
    const on = cards.has(c) && !v.pending;
    const chosen = v.sel.cards.includes(c);
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
    const live = spots.has(s) && !v.pending && moves.length > 0;
    const chosen = v.sel.spots.includes(s);
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

// ------------------------------------------------------------- results

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
export function handsBox(v, hands, id) {
  const board = boardOf(v.room.game);
  const names = (v.game && v.game.card_names) || [];
  const draw = (c) => {
    const node = board && board.card ? board.card(c, { small: true }) : el("span", { class: "chip", text: String(c) });
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", names[c] || String(c));
    return node;
  };
  return el("div", { class: "final-hands", id },
    ...hands.map((h, s) => el("div", { class: "final-hand", "data-hand-seat": s, role: "group", "aria-label": `${name(v, s)}'s hand` },
      el("b", { class: "fh-name", text: name(v, s) }),
      el("div", { class: "fan" }, ...(h.length ? h.map(draw) : [el("span", { class: "muted", text: "no cards" })])))));
}

/** The finished game: who won and why (every deciding comparison, in the game's words),
 * the scores, every hand, and (at the live table: `live`, its rematch and fillDownload) the
 * rematch and the record. */
function resultBox(v, t, live) {
  const res = t.result;
  const winners = resultWinners(res);
  const you = v.room.you;
  const youWon = live && you !== null && you !== undefined && winners.includes(you);
  const scores = t.scores || [];
  const text = res.summary || (winners.length === 1 ? `${name(v, winners[0])} wins` : `${winners.map((s) => name(v, s)).join(" and ")} share the win`);
  const infos = res.infos || [];
  const scoreHead = (v.game && v.game.score_name) || "score";
  const rows = v.room.seats.map((s) => el("tr", { class: winners.includes(s.seat) ? "winner" : "" },
    el("td", {}, s.name, winners.includes(s.seat) ? el("span", { class: "star", "aria-hidden": "true", text: " \u2605" }) : null),
    el("td", { text: scores[s.seat] !== undefined && scores[s.seat] !== null ? String(scores[s.seat]) : (infos[s.seat] && infos[s.seat].hand_total !== undefined ? String(infos[s.seat].hand_total) : "") }),
    el("td", { class: "outcome", text: outcome(res, s.seat) })));
  const extra = [];
  const why = Array.isArray(res.why) ? res.why : [];
  if (why.length) extra.push(el("ul", { class: "why-list", id: "result-why" }, ...why.map((w) => el("li", { text: w }))));
  else if (v.game && v.game.result_note) extra.push(el("p", { class: "muted", text: v.game.result_note }));
  if (live && Array.isArray(res.hands)) {
    extra.push(el("h3", { class: "fh-title", text: "Every hand at the end" }), handsBox(v, res.hands, "result-hands"));
  }
  const actions = live ? el("div", { class: "result-actions" },
    v.room.host ? el("button", { class: "btn primary", id: "rematch-banner", type: "button", text: "Rematch", onclick: () => live.rematch() })
      : el("span", { class: "muted", text: "The host can start a rematch." }),
    el("span", { id: "download-slot" })) : null;
  const box = el("div", { class: "result" + (youWon ? " you-won" : ""), id: "result" },
    el("h2", {}, youWon ? el("span", { class: "star", "aria-hidden": "true", text: "\u2605 " }) : null, "Game over: " + text),
    el("table", { class: "scores" }, el("tr", {}, el("th", { text: "player" }), el("th", { text: scoreHead }), el("th", { text: "result" })), ...rows),
    ...extra, actions);
  if (live) live.fillDownload();
  return box;
}

/** The result banner and a round's result (`live`: the live table's hooks, null in a replay). */
export function renderBanner(v, live) {
  const banner = document.getElementById("banner");
  const t = v.table;
  if (!banner || !t) return;
  const openBefore = banner.querySelector("details.rr-wrap");
  const wasOpen = openBefore ? openBefore.open : null;
  banner.replaceChildren();
  if (t.result) banner.append(resultBox(v, t, live));
  const rr = t.round_result;
  const r = boardOf(v.room.game);
  if (rr && r && r.roundResult) {
    // a round just judged is shown open; once play has moved on it folds away
    const fresh = t.result || rr.step === undefined || (t.step - rr.step) <= v.room.num_players;
    const node = r.roundResult(rr, ctx(v));
    const wrap = el("details", { class: "rr-wrap", id: "round-result" },
      el("summary", { text: `Round ${rr.round ?? ""} result: ${(rr.winners || []).map((s) => name(v, s)).join(" and ")} won the round` }), node);
    // (on a phone it starts folded: its one line is in the status bar, the whole is screens long)
    wrap.open = v.roundShown === rr.step ? Boolean(wasOpen) : fresh && !PHONE.matches;
    wrap.querySelector("summary").addEventListener("click", () => { v.roundShown = rr.step; });
    banner.append(wrap);
  }
}
