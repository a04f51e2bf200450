// Cards drawn with HTML/CSS: standard cards (ids 0..51, rank = id >> 2, suit = id & 3,
// suits c d h s), the Line joker (id 52), Line-it number cards (1..100) and Bets (101..103).

export const RANKS = "A23456789TJQK";
export const SUITS = "cdhs";
export const SUIT_SYMBOLS = ["\u2663", "\u2666", "\u2665", "\u2660"];
export const JOKER = 52;

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k === "html") e.innerHTML = v;
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// ------------------------------------------------------------------ standard cards
export function stdText(id) {
  if (id === JOKER) return "X";
  return RANKS[id >> 2] + SUITS[id & 3];
}

export function rankLabel(id) {
  const r = RANKS[id >> 2];
  return r === "T" ? "10" : r;
}

export function isRed(id) {
  const s = id & 3;
  return s === 1 || s === 2;
}

/** Pretty text of a standard card for sentences: 7♥, 10♠, Joker. */
export function prettyStd(id) {
  if (id === JOKER) return "Joker";
  return rankLabel(id) + SUIT_SYMBOLS[id & 3];
}

/** Replace card notation inside a move text with suit symbols: "throw 7h" -> "throw 7♥". */
export function prettyMoveText(text) {
  return String(text).replace(/\b([A2-9TJQK])([cdhs])\b/g, (_, r, s) =>
    (r === "T" ? "10" : r) + SUIT_SYMBOLS[SUITS.indexOf(s)]);
}

export function stdCard(id, opts = {}) {
  if (id === JOKER) return jokerCard(opts);
  const red = isRed(id);
  const rank = rankLabel(id);
  const sym = SUIT_SYMBOLS[id & 3];
  const cls = ["card", "std", red ? "red" : "black", opts.small ? "small" : "", opts.tiny ? "tiny" : "",
    opts.cls || ""].join(" ");
  return el("div", { class: cls, "data-card": id, title: stdText(id) + (opts.title ? " - " + opts.title : "") },
    el("span", { class: "corner tl" }, el("b", { text: rank }), el("i", { text: sym })),
    el("span", { class: "pip", text: sym }),
    el("span", { class: "corner br" }, el("b", { text: rank }), el("i", { text: sym })));
}

export function jokerCard(opts = {}) {
  const cls = ["card", "joker", opts.small ? "small" : "", opts.tiny ? "tiny" : "", opts.cls || ""].join(" ");
  return el("div", { class: cls, "data-card": JOKER, title: "X (joker)" },
    el("span", { class: "corner tl" }, el("b", { text: "\u2605" })),
    el("span", { class: "jword", text: "JOKER" }),
    el("span", { class: "corner br" }, el("b", { text: "\u2605" })));
}

export function backCard(opts = {}) {
  const cls = ["card", "back", opts.small ? "small" : "", opts.tiny ? "tiny" : "", opts.cls || ""].join(" ");
  return el("div", { class: cls, title: opts.title || "face down" });
}

export function emptySlot(opts = {}) {
  return el("div", { class: "card slot " + (opts.small ? "small " : "") + (opts.cls || ""), title: opts.title || "" },
    opts.label ? el("span", { class: "slot-label", text: opts.label }) : null);
}

// --------------------------------------------------------------------- Line-it cards
export const LI_COLOURS = ["red", "blue", "green", "yellow"];
export const LI_SYMBOLS = ["heart", "diamond", "leaf", "star"];
const SVG = {
  heart: '<path d="M12 21s-7.5-4.6-9.6-9.3C.9 8.2 3 4.5 6.6 4.5c2.1 0 3.6 1.2 4.4 2.6.8-1.4 2.3-2.6 4.4-2.6 3.6 0 5.7 3.7 4.2 7.2C19.5 16.4 12 21 12 21z"/>',
  diamond: '<path d="M12 2 21 12 12 22 3 12z"/>',
  leaf: '<path d="M20 3C9 3 3 9 4 18c0 .7.2 1.4.4 2l1.4-1.3C8 12.6 12 9.5 16 8c-3.4 2.1-6.5 5.5-8.6 10.4 2.3.9 5 .9 7.2-.1C20 15.6 21 9 20 3z"/>',
  star: '<path d="m12 2 2.9 6.6 7.1.6-5.4 4.7 1.6 7L12 17.3 5.8 20.9l1.6-7L2 9.2l7.1-.6z"/>',
};

export function liSymbol(name, cls = "") {
  const span = el("span", { class: "sym " + cls });
  span.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true">${SVG[name]}</svg>`;
  return span;
}

export function liColour(c) {
  return (c - 1) & 3;
}

export function liText(c) {
  return c > 100 ? "B" + (c - 98) : String(c);
}

export function liCard(c, opts = {}) {
  const small = opts.small ? " small" : "";
  const tiny = opts.tiny ? " tiny" : "";
  if (c > 100) {
    const v = c - 98;
    return el("div", { class: "card li bet" + small + tiny + " " + (opts.cls || ""), "data-card": c,
      title: `B${v}: a Bet of ${v}` },
    el("span", { class: "bet-word", text: "BET" }), el("span", { class: "bet-val", text: String(v) }));
  }
  const k = liColour(c);
  return el("div", { class: `card li ${LI_COLOURS[k]}${small}${tiny} ${opts.cls || ""}`, "data-card": c,
    title: `${c} (${LI_COLOURS[k]} ${LI_SYMBOLS[k]})` },
  liSymbol(LI_SYMBOLS[k], "tl"), el("span", { class: "num", text: String(c) }), liSymbol(LI_SYMBOLS[k], "br"));
}
