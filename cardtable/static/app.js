// The card table's client: lobby, room (seats, host controls), the table with tap-to-move,
// the coach panel, results and records. The server is the authority; this only shows
// what it sends and sends the moves it lists (cardtable/PROTOCOL.md). It knows no game:
// each game's board is a module the server names (`board` in /api/games), and every word,
// score and judgement comes from the server.
//
// This module starts the page: it loads the games and their boards, routes the path to its
// screen (the lobby, a room, a replay) and passes the page's keys to it. Each screen is a
// module that owns its state: lobby.js, table.js (the room), replay.js, rules.js (the rules
// panel, over any screen); board.js draws a position for the table and the replay.
import { stdText, liText } from "./cards.js";
import { api, catalog, loadBoards, showError, startTicking } from "./common.js";
import * as lobby from "./lobby.js";
import * as table from "./table.js";
import * as replay from "./replay.js";
import { closeRules, trapInRules, wireRulesButton } from "./rules.js";

export { showError, showNotice } from "./common.js";

/** The screen shown: its state (`state`) and its key handlers (`key`, `escape`). */
let screen = { state: lobby.state };

async function init() {
  const m = location.pathname.match(/^\/room\/([^/]+)\/?$/);
  const r = location.pathname.match(/^\/room\/([^/]+)\/replay\/(\d+)\/?$/);
  try {
    const data = await api("/api/games");
    catalog.games = data.games || [];
    await loadBoards(catalog.games);
  } catch (err) {
    showError("Could not load the games: " + err.message);
  }
  wireRulesButton();
  document.addEventListener("keydown", onKey);
  if (r) {
    screen = { state: replay.V, key: replay.replayKey };
    replay.enterReplay(decodeURIComponent(r[1]), Number(r[2]));
  } else if (m) {
    screen = { state: table.T, key: table.onKey, escape: table.onEscape };
    table.enterRoom(decodeURIComponent(m[1]));
  } else lobby.enterLobby();
}

/** Keys anywhere on the page: Tab stays in the rules panel, Escape closes it (else the
 * screen's Escape: the room clears the choice); the others go to the screen when no field
 * has the focus (in a game, 1-9 press the shown move buttons and M goes to them; in a
 * replay, the arrows step). */
function onKey(ev) {
  if (ev.key === "Tab" && trapInRules(ev)) return;
  if (ev.key === "Escape") {
    if (closeRules()) { ev.preventDefault(); return; }
    if (screen.escape) screen.escape(ev);
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey || document.getElementById("rules-shade")) return;
  const t = ev.target;
  if (t instanceof Element && t.closest("input, select, textarea, [contenteditable]")) return;
  if (screen.key) screen.key(ev);
}

startTicking();
// the shown screen's state and the room's socket, for the console and the browser tests
window.cardtable = { get S() { return screen.state; }, send: table.send, stdText, liText };
init();
