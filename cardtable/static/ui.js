// Pieces shared by the game renderers: a player's header, badges, small helpers.
import { el, prettyMoveText } from "./cards.js";

export const LEVEL_WORDS = {
  random: "Beginner",
  greedy: "Easy",
  planner: "Medium",
  trained: "Trained",
  expert: "Hard",
};

/** A small computer icon (inline SVG: no emoji font needed). */
export function botIcon() {
  const span = el("span", { class: "boticon", "aria-hidden": "true" });
  span.innerHTML = '<svg viewBox="0 0 24 24"><rect x="4" y="7" width="16" height="12" rx="3"/><rect x="11" y="2.5" width="2" height="4"/>'
    + '<circle cx="12" cy="2.5" r="1.6"/><circle cx="9" cy="12.5" r="1.7" class="eye"/><circle cx="15" cy="12.5" r="1.7" class="eye"/>'
    + '<rect x="9" y="15.6" width="6" height="1.4" rx=".7" class="eye"/></svg>';
  return span;
}

/** "0:42" (or "1:05:00") from milliseconds left (never negative). */
export function countdownText(deadline) {
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const sec = String(left % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** An element that counts down to ``deadline`` (ms, this page's clock); app.js ticks it. */
export function deadlineNode(deadline, attrs = {}) {
  const node = el("span", { ...attrs, "data-deadline": String(Math.round(deadline)), role: "timer" }, countdownText(deadline));
  if (deadline - Date.now() <= 10000) node.classList.add("urgent");
  return node;
}

/** The game's unranked levels and the level each plays like (the room's game entry's
 * ``level_peers``), for the seat plates; the lobby passes each game's own. */
let roomPeers = {};
export function setLevelPeers(peers) { roomPeers = peers || {}; }

/** A level's difficulty word. An unranked level (measured no stronger than another) is
 * named by the level it plays like: Rummy's expert is "Medium (expert)", not "Hard". */
export function levelWord(level, peers = roomPeers) {
  if (!level) return "";
  const peer = (peers || {})[level];
  if (peer) return `${LEVEL_WORDS[peer] || peer} (${level})`;
  return LEVEL_WORDS[level] || level;
}

/** A seat in words for screen readers: name, person or computer (and its level), what
 * everyone knows of it (the server's `seat_facts`: cards in hand...), whose turn. */
export function seatLabel(room, table, seat, you) {
  const info = (room && room.seats[seat]) || { name: `Seat ${seat + 1}`, kind: "computer" };
  const parts = [info.name + (you === seat ? " (you)" : "")];
  if (info.kind === "person") parts.push(info.connected === false ? "a person, away" : "a person");
  else parts.push(`a computer, ${levelWord(info.level).toLowerCase()} level`);
  if (room && room.host_seat === seat) parts.push("the host");
  const facts = table && table.seat_facts ? table.seat_facts[seat] : "";
  if (facts) parts.push(facts);
  if (table && table.current === seat && !table.result) parts.push(you === seat ? "your turn" : "to move");
  return parts.join(", ");
}

/** A player's name plate: name, person/computer badge, to-move marker, extra chips, last move. */
export function playerPlate(ctx, seat, opts = {}) {
  const info = ctx.room.seats[seat] || { name: `Seat ${seat + 1}`, kind: "computer" };
  const toMove = ctx.table && ctx.table.current === seat;
  const isYou = ctx.you === seat && !ctx.replay;
  const badge = info.kind === "person"
    ? el("span", { class: "badge person" + (info.connected === false ? " away" : ""),
      title: info.connected === false ? "disconnected" : "a person", text: info.connected === false ? "away" : "player" })
    : info.reserved // kept for the person who left it: their name, and who plays it now
      ? el("span", { class: "badge person away reserved", title: "their link takes the seat back" }, "away \u2014 ", botIcon(), "a computer is playing")
      : el("span", { class: "badge bot", title: "computer player" }, botIcon(), levelWord(info.level));
  const last = ctx.table && ctx.table.last ? ctx.table.last[seat] : null;
  const chips = [];
  if (ctx.room.host_seat === seat) chips.push(el("span", { class: "badge host", title: "the host", text: "host" }));
  if (info.awayUntil) {
    chips.push(el("span", { class: "chip away-count", title: "a computer plays this seat when the time is up" },
      "computer in ", deadlineNode(info.awayUntil, { class: "countdown" })));
  }
  if (toMove && ctx.clock && ctx.clock.seat === seat) {
    chips.push(deadlineNode(ctx.clock.deadline, { class: "clock plate-clock", title: "time left for this move" }));
  }
  return el("div", { class: "plate" + (toMove ? " to-move" : "") + (isYou ? " you" : ""), "data-seat-plate": seat,
    role: "group", "aria-label": seatLabel(ctx.room, ctx.table, seat, ctx.replay ? null : ctx.you) },
    el("div", { class: "plate-top" },
      el("span", { class: "dot", title: toMove ? "to move" : "" }),
      el("span", { class: "pname", text: info.name + (isYou ? " (you)" : "") }),
      badge,
      ...chips,
      ...(opts.chips || [])),
    opts.noLast ? null : el("div", { class: "last", "data-last": seat },
      last ? ["last: ", el("b", { text: prettyMoveText(last) })] : el("span", { class: "muted", text: "\u00a0" })));
}

export function chip(text, cls = "", title = "") {
  return el("span", { class: "chip " + cls, text, title });
}

/** Score pips: filled circles for points out of a target. */
export function pips(points, target, title) {
  const box = el("span", { class: "pips", title: title || `${points} of ${target}` });
  for (let i = 0; i < target; i += 1) box.append(el("i", { class: i < points ? "on" : "" }));
  return box;
}

export function seatOrder(n, you) {
  // seats after yours first (clockwise), yours excluded; spectators see everyone from seat 0
  const me = you === null || you === undefined || you < 0 ? null : you;
  const out = [];
  for (let k = 1; k <= n; k += 1) {
    const s = me === null ? k - 1 : (me + k) % n;
    if (s !== me) out.push(s);
  }
  return out;
}
