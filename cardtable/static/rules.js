// The rules panel: a game's rules (rendered by the server from the game's own document)
// over the page, opened from the top bar's Rules button or the lobby; a modal dialog that
// keeps the keyboard's focus inside until it closes.
import { el } from "./cards.js";
import { api } from "./common.js";

/** The rules panel's state: the game whose rules the top bar's button opens. */
const R = { game: null };

/** The top bar's Rules button opens the current game's rules. */
export function wireRulesButton() {
  const rulesBtn = document.getElementById("rules-button");
  if (rulesBtn) rulesBtn.onclick = () => openRules(R.game);
}

/** The game whose rules the top bar's Rules button opens (none: the button hides). */
export function setRulesGame(g) {
  R.game = g && g.rules ? g : null;
  const btn = document.getElementById("rules-button");
  if (!btn) return;
  btn.hidden = !R.game;
  if (R.game) btn.title = `the rules of ${R.game.title}`;
}

/** The rules of a game in a panel over the page (rendered by the server from the game's
 * rules document); Escape or the close button closes it and gives the focus back. */
export async function openRules(g) {
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
export function trapInRules(ev) {
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

/** Close the rules panel (false: none was open). */
export function closeRules() {
  const shade = document.getElementById("rules-shade");
  if (!shade) return false;
  shade.remove();
  document.body.classList.remove("rules-open");
  if (shade._back && shade._back.focus) shade._back.focus();
  return true;
}
