// Line-it's board: the market, the four jackpots, each player's line (direction, Bet,
// colours), hand, scoring pile, tokens and score. It draws what the server sends: the View,
// its board facts (each line's direction, Bet and colour counts, as the rules count them)
// and the scores.
import { LI_COLOURS, LI_SYMBOLS, backCard, el, emptySlot, liCard, liSymbol } from "/static/cards.js";
import { chip, playerPlate, seatOrder } from "/static/ui.js";

/** A card of this game (a number card or a Bet), for the lobby's tile. */
export const card = liCard;

function dirText(st) {
  if (st.dir === 0) return st.numbers ? "no direction yet" : "empty";
  return st.dir > 0 ? "\u2197 ascending" : "\u2198 descending";
}

function playerArea(ctx, s) {
  const v = ctx.view;
  const mine = s === v.seat;
  const line = v.lines[s];
  const st = ((ctx.table.board || {}).lines || [])[s] || { dir: 0, numbers: 0, last: null, bet: 0, after: 0, colours: [0, 0, 0, 0] };
  const scores = ctx.table.scores || [];
  const chips = [chip(`score ${scores[s] ?? ""}`, "gold", "banked cards + Bet tokens")];
  if (s === v.first) chips.push(chip("first", "", "first player this round"));
  // data-dock: on a phone your own line and hand stay in view at the bottom of the screen
  const area = el("div", { class: "li-player" + (mine ? " mine" : "") + (ctx.table.current === s ? " to-move" : ""), "data-seat": s,
    ...(mine ? { "data-dock": "" } : {}) });
  area.append(playerPlate(ctx, s, { chips }));
  const dirBox = el("div", { class: "li-dir" },
    el("span", { class: "dirword " + (st.dir > 0 ? "up" : st.dir < 0 ? "down" : ""), text: dirText(st) }),
    st.last !== null && st.dir !== 0 ? el("span", { class: "muted", text: st.dir > 0 ? ` next above ${st.last}` : ` next below ${st.last}` }) : null,
    st.bet ? chip(`Bet ${st.bet}: ${st.after}/${st.bet} after`, st.after >= st.bet ? "ok" : "warn", "numbers placed after the Bet") : null,
    ...st.colours.map((k, i) => (k ? el("span", { class: `colcount ${LI_COLOURS[i]}`, title: `${k} ${LI_COLOURS[i]} in this line (3rd claims the jackpot)` },
      liSymbol(LI_SYMBOLS[i]), String(k)) : null)));
  const lineCards = line.map((c) => liCard(c, { small: !mine }));
  const lineBox = el("div", { class: "li-line fan", ...(mine ? { "data-spot": "line" } : {}), title: mine ? "your line" : "line" },
    ...(lineCards.length ? lineCards : [el("span", { class: "li-empty", text: "empty line" })]));
  const hand = v.hands[s].map((c) => {
    const node = liCard(c, { small: !mine });
    if (mine) node.dataset.pick = "1";
    return node;
  });
  while (hand.length < 2) hand.push(emptySlot({ small: !mine }));
  const tokens = v.tokens[s].map((t) => el("span", { class: "token " + (t > 0 ? "plus" : "minus"), text: (t > 0 ? "+" : "") + t }));
  area.append(el("div", { class: "li-body" },
    el("div", { class: "li-linebox" }, el("div", { class: "li-label", text: "line" }), lineBox,
      mine ? el("div", { class: "newline", "data-spot": "new", title: "score this line, then start a new one with the card" }, "+ new line") : null),
    el("div", { class: "li-handbox" }, el("div", { class: "li-label", text: "hand" }),
      el("div", { class: "li-hand fan", ...(mine ? { "data-spot": "hand", id: "my-hand" } : {}) }, ...hand)),
    el("div", { class: "li-bank" }, el("span", { class: "muted", text: "banked" }), el("b", { text: String(v.scored[s].length) }),
      ...(tokens.length ? [el("span", { class: "muted", text: "tokens" }), ...tokens] : []))));
  area.append(dirBox);
  return area;
}

export function render(ctx) {
  const v = ctx.view;
  const n = v.num_players;
  const root = el("div", { class: "board lineit" });

  const top = el("div", { class: "li-top" });
  const market = el("div", { class: "market", "data-spot": "market", title: "the market" },
    ...v.market.map((c) => {
      const node = liCard(c);
      node.dataset.pick = "1";
      return node;
    }));
  top.append(el("div", { class: "li-marketbox" }, el("div", { class: "li-label", text: "market" }), market));
  top.append(el("div", { class: "pile", "data-spot": "deck", title: "the deck" },
    v.deck_size > 0 ? backCard({ cls: "stacked li-back" }) : emptySlot({ label: "empty" }),
    el("div", { class: "pile-label", text: `deck ${v.deck_size}` })));
  const jp = el("div", { class: "jackpots" });
  v.jackpots.forEach((pile, k) => {
    jp.append(el("div", { class: `jackpot ${LI_COLOURS[k]}`, title: `${LI_COLOURS[k]} jackpot: ${pile.join(" ") || "empty"}` },
      liSymbol(LI_SYMBOLS[k]), el("b", { text: String(pile.length) }), el("small", { text: "jackpot" })));
  });
  top.append(el("div", { class: "li-jpbox" }, el("div", { class: "li-label", text: "jackpots" }), jp));
  top.append(el("div", { class: "roundinfo" },
    el("div", { class: "big", text: v.phase === "final" ? "Final phase" : "Line-it" }),
    el("div", { text: `${v.picks_left} to act this ${v.phase === "final" ? "final phase" : "round"}` }),
    el("div", { class: "muted", text: `discarded ${v.discarded.length}` })));
  root.append(top);

  const players = el("div", { class: "li-players" });
  if (v.seat >= 0) players.append(playerArea(ctx, v.seat));
  for (const s of seatOrder(n, v.seat)) players.append(playerArea(ctx, s));
  root.append(players);
  return root;
}

export function roundResult(rr) {
  return el("div", { class: "round-result" }, el("pre", { text: JSON.stringify(rr, null, 1) }));
}
