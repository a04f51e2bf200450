// What every screen of the client shares: messages to the person (errors, notices, the
// screen reader's live region), the server's API, this browser's storage, the games'
// catalog and their boards, and the words for options and durations. No screen's state
// lives here: each screen (lobby.js, table.js, replay.js, rules.js) owns its own.
import { el } from "./cards.js";
import { countdownText } from "./ui.js";

/** The games the server offers (`/api/games`), loaded once by app.js. */
export const catalog = { games: [] };

/** Each game's board module, loaded from the URL the server gives (null: none, or it failed). */
const BOARDS = {};

export async function loadBoards(games) {
  await Promise.all(games.map(async (g) => {
    try { BOARDS[g.name] = g.board ? await import(g.board) : null; } catch { BOARDS[g.name] = null; }
  }));
}

export function boardOf(name) {
  return BOARDS[name] || null;
}

/** The catalog's entry of a game (a bare one when the server does not list it). */
export function gameEntry(name, title) {
  return catalog.games.find((g) => g.name === name) || { name, title, levels: [], cast: [], cards: [] };
}

// ------------------------------------------------------------------------ storage

export const store = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { if (v === null || v === undefined) localStorage.removeItem(k); else localStorage.setItem(k, v); } catch { /* private mode */ } },
};

export const tokenKey = (room) => `cardtable:${room}`;

export const hostKey = (room) => `cardtable:host:${room}`;

export const seatKey = (room) => `cardtable:seat:${room}`;

export const coachKey = (room) => `cardtable:coach:${room}`;

export const autoSitKey = (room) => `cardtable:autosit:${room}`;

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
  return item;
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

/** Countdowns (an absent person's seat, the turn clock) tick here, from deadlines the page
 * computed when the server's message arrived. */
export function startTicking() {
  setInterval(() => {
    document.querySelectorAll("[data-deadline]").forEach((n) => {
      const text = countdownText(Number(n.dataset.deadline));
      if (n.textContent !== text) n.textContent = text;
      n.classList.toggle("urgent", Number(n.dataset.deadline) - Date.now() <= 10000);
    });
  }, 250);
}

export function setText(id, text) {
  const node = document.getElementById(id);
  if (node) node.textContent = text;
}

export async function api(path, opts = {}) {
  const res = await fetch(path, opts);
  let body = null;
  try { body = await res.json(); } catch { body = null; }
  if (!res.ok) throw new Error((body && body.error) || `${res.status} ${res.statusText}`);
  return body;
}

/** Say something to screen readers (a polite live region). */
export function announce(text) {
  const box = document.getElementById("announce");
  if (!box) return;
  box.textContent = "";
  setTimeout(() => { box.textContent = text; }, 30);
}

// ------------------------------------------------------------------------- words

/** An option's value in the game's own words (the server's `labels`, beside `allowed`). */
export function optionLabel(opt, value) {
  const i = (opt.allowed || []).findIndex((a) => JSON.stringify(a) === JSON.stringify(value));
  if (i >= 0 && opt.labels && opt.labels[i] !== undefined) return opt.labels[i];
  return value === null ? "none" : String(value);
}

/** A room's option as "title: value", in the game's words. */
export function optionText(game, name, value) {
  const opt = ((game && game.options) || []).find((o) => o.name === name);
  if (!opt) return `${name.replace(/_/g, " ")}: ${value === null ? "none" : value}`;
  return `${opt.title.toLowerCase()}: ${optionLabel(opt, value)}`;
}

/** "30 s", "2 min" */
export function secondsWords(sec) {
  return sec % 60 === 0 && sec >= 60 ? `${sec / 60} min` : `${sec} s`;
}

export const AWAY_CHOICES = [30, 60, 120, 300, 900];

export const TURN_CHOICES = [null, 15, 30, 60, 120, 300];
