// The replay viewer (`/room/{id}/replay/{index}`): a finished game stepped through, every
// position built by the server from the record; drawn with the table's board (board.js)
// from this screen's own state.
import { el } from "./cards.js";
import { setLevelPeers } from "./ui.js";
import { api, gameEntry, setText, showError } from "./common.js";
import { handsBox, name, renderBanner, renderBoard } from "./board.js";
import { setRulesGame } from "./rules.js";

/** The replay screen's state: the position shown (as board.js draws it) and the replay's
 * own (`replay`: the summary, the step, whose view, the frames fetched). */
export const V = {
  mode: "replay",
  roomId: null,
  game: null,
  room: null,
  table: null,
  prevTable: null,
  advice: [],
  sel: { cards: [], spots: [] },
  pending: false,
  roundShown: null,
  clock: null,
  replay: null,
};

/** A finished game's replay (`/room/{id}/replay/{index}`): every position is built by the
 * server from the record (the rules replay it); this page steps through them. The game is
 * over, so every hand is shown at every step (and the board can be seen as any seat saw it). */
export async function enterReplay(roomId, index) {
  V.roomId = roomId;
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
  V.game = gameEntry(sum.game, sum.title);
  setRulesGame(V.game);
  setLevelPeers(V.game.level_peers);
  V.room = { room: roomId, game: sum.game, title: sum.title, num_players: sum.num_players, status: "finished", host: false,
    host_seat: null, you: null, seats: sum.seats.map((x) => ({ ...x, connected: true })), options: sum.options };
  V.replay = { sum, index, step: 0, seat: null, frames: new Map(), want: 0 };
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
    V.replay.seat = seatSel.value === "" ? null : Number(seatSel.value);
    V.room.you = V.replay.seat;
    showStep(V.replay.step);
  };
  const moveList = el("ol", { class: "log rp-moves", id: "rp-moves", start: 1 },
    ...sum.moves.map((m) => el("li", { "data-step": m.step },
      el("button", { class: "rp-move", type: "button", "data-step": m.step, onclick: () => showStep(m.step) },
        el("b", { text: sum.seats[m.seat] ? sum.seats[m.seat].name : `Seat ${m.seat + 1}` }), " ", m.label))));
  const bar = el("div", { class: "replay-bar", id: "replay-bar", role: "toolbar", "aria-label": "replay controls" },
    button("rp-first", "\u00ab", "the deal (before the first move)", () => showStep(0)),
    button("rp-prev", "\u25c0", "previous move (left arrow)", () => showStep(V.replay.step - 1)),
    el("div", { class: "rp-where" }, el("span", { class: "rp-step", id: "rp-step", role: "status", "aria-live": "polite" }), slider),
    button("rp-next", "\u25b6", "next move (right arrow)", () => showStep(V.replay.step + 1)),
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

/** The replay's keys: the arrows a move, Home and End, Page Up and Page Down ten moves. */
export function replayKey(ev) {
  const r = V.replay;
  if (!r) return;
  const to = { ArrowRight: r.step + 1, ArrowLeft: r.step - 1, Home: 0, End: r.sum.steps, PageDown: r.step + 10, PageUp: r.step - 10 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  showStep(to);
}

async function replayFrame(step, seat) {
  const r = V.replay;
  const key = `${seat === null ? "all" : seat}:${step}`;
  if (!r.frames.has(key)) {
    const q = seat === null ? "" : `?seat=${seat}`;
    r.frames.set(key, api(`/api/rooms/${encodeURIComponent(V.roomId)}/games/${r.index}/replay/${step}${q}`));
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
  const r = V.replay;
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
  V.prevTable = null;
  V.table = frame;
  V.sel = { cards: [], spots: [] };
  renderBoard(V);
  renderBanner(V, null);
  const wrap = document.getElementById("rp-hands-wrap");
  if (wrap) {
    wrap.replaceChildren(...(Array.isArray(frame.hands)
      ? [el("h3", { class: "fh-title", text: "Every hand (the game is over: nothing is hidden)" }), handsBox(V, frame.hands, "rp-hands")] : []));
  }
  const m = frame.move;
  const who = m ? name(V, m.seat) : "";
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
