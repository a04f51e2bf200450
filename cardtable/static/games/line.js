// Line table: the shared 4x4 grid (rows r1..r4, jokers), your hand, draw pile and discard.
import { JOKER, backCard, el, emptySlot, prettyStd, stdCard } from "../cards.js";
import { chip, playerPlate, seatOrder } from "../ui.js";

export const title = "Line";

/** Tidy order of a row (as cardenvs/line/render.py): runs ascending with the joker at its
 * gap, sets in suit order with the joker at the missing suit. */
export function orderRow(cards) {
  const reals = cards.filter((c) => c !== JOKER).sort((a, b) => a - b);
  if (!cards.includes(JOKER)) return reals;
  const ranks = reals.map((c) => c >> 2);
  if (reals.length >= 2 && new Set(ranks).size === 1) {
    const suits = reals.map((c) => c & 3);
    let missing = 0;
    while (suits.includes(missing)) missing += 1;
    const out = [...reals];
    out.splice(suits.filter((s) => s < missing).length, 0, JOKER);
    return out;
  }
  if (reals.length >= 2) {
    for (let i = 0; i < ranks.length - 1; i += 1) {
      if (ranks[i + 1] - ranks[i] > 1) return [...reals.slice(0, i + 1), JOKER, ...reals.slice(i + 1)];
    }
    if (ranks[ranks.length - 1] === 12) return [JOKER, ...reals];
    return [...reals, JOKER];
  }
  return [...reals, JOKER];
}

function rowKind(row) {
  const reals = row.filter((c) => c !== JOKER);
  if (reals.length < 2) return row.length ? "open" : "empty";
  if (new Set(reals.map((c) => c >> 2)).size === 1) return "set";
  return "run";
}

const PHASE_WORDS = { turn: "play, upgrade or shift", place_drawn: "the drawn card must go down", discard: "discard down to 7 cards", over: "game over" };

export function prompt(ctx) {
  const v = ctx.view;
  if (v.phase === "over") return "Game over";
  if (v.phase === "place_drawn" && v.pending !== null && v.pending !== undefined) return `place the drawn ${prettyStd(v.pending)} into a row`;
  if (v.phase === "discard") return "you hold 8 cards: discard one";
  const forced = (ctx.table.moves || []).length && ctx.table.moves.every((m) => /^(take|draw)/.test(m.text));
  if (forced) return "no play, upgrade or shift: take the top discard into a row, or draw";
  return "play a card into a row, upgrade a joker or shift a run" + (v.bonus_turn ? " (bonus turn)" : "");
}

export function render(ctx) {
  const v = ctx.view;
  const n = v.num_players;
  const root = el("div", { class: "board line" });

  const opp = el("div", { class: "opponents stack" });
  for (const s of seatOrder(n, v.seat)) {
    const chips = [];
    if (v.known_jokers[s]) chips.push(chip(`${v.known_jokers[s]} joker known`, "warn"));
    const box = el("div", { class: "opp", "data-seat": s });
    box.append(playerPlate(ctx, s, { chips }));
    const backs = el("div", { class: "backs", title: `${v.hand_sizes[s]} cards` });
    for (let i = 0; i < v.hand_sizes[s]; i += 1) backs.append(backCard({ tiny: true }));
    backs.append(el("span", { class: "count", text: `${v.hand_sizes[s]} card${v.hand_sizes[s] === 1 ? "" : "s"}` }));
    box.append(backs);
    opp.append(box);
  }

  const grid = el("div", { class: "grid" });
  v.rows.forEach((row, r) => {
    const kind = rowKind(row);
    const cells = orderRow(row).map((c) => {
      const node = stdCard(c);
      node.dataset.pick = "1";
      return node;
    });
    while (cells.length < 4) cells.push(emptySlot());
    grid.append(el("div", { class: `row ${kind}` + (row.length === 4 ? " full" : ""), "data-spot": `row:${r}`, title: `row r${r + 1}` },
      el("div", { class: "rowname" }, el("b", { text: `r${r + 1}` }), el("small", { text: kind === "empty" ? "" : kind })),
      el("div", { class: "cells" }, ...cells)));
  });

  const piles = el("div", { class: "piles" });
  piles.append(el("div", { class: "pile", "data-spot": "deck", title: "draw pile" },
    v.draw_size > 0 ? backCard({ cls: "stacked" }) : emptySlot({ label: "empty" }),
    el("div", { class: "pile-label", text: `draw ${v.draw_size}` })));
  const top = v.discard.length ? v.discard[v.discard.length - 1] : null;
  const topNode = top === null ? emptySlot({ label: "empty" }) : stdCard(top);
  if (top !== null) topNode.dataset.pick = "1";
  piles.append(el("div", { class: "pile", "data-spot": "discard", title: "discard pile" },
    topNode, el("div", { class: "pile-label", text: `discard ${v.discard.length}` })));
  if (v.pending !== null && v.pending !== undefined) {
    const p = stdCard(v.pending, { cls: "pending" });
    p.dataset.pick = "1";
    piles.append(el("div", { class: "pile pending-box", title: "the drawn card must go down" }, p,
      el("div", { class: "pile-label", text: "drawn: goes down" })));
  }
  const info = el("div", { class: "roundinfo" },
    el("div", { class: "big", text: v.bonus_turn ? "Bonus turn!" : "Line" }),
    el("div", { text: `${n} players \u00b7 joker ${v.joker_points} points` }),
    el("div", { class: "muted", text: "fill the grid; least in hand wins" }));
  root.append(el("div", { class: "line-top" }, grid, el("div", { class: "line-side" }, opp, piles, info)));

  if (v.seat >= 0) {
    const hand = [...v.hand].sort((a, b) => (a === JOKER) - (b === JOKER) || (a & 3) - (b & 3) || a - b);
    const total = hand.reduce((t, c) => t + (c === JOKER ? v.joker_points : Math.min((c >> 2) + 1, 10)), 0);
    const cards = el("div", { class: "fan hand-fan" }, ...hand.map((c) => {
      const node = stdCard(c);
      node.dataset.pick = "1";
      return node;
    }));
    const chips = [chip(`${hand.length} cards \u00b7 ${total} points`, "", "your hand total (lowest wins)")];
    if (v.known_jokers[v.seat]) chips.push(chip(`${v.known_jokers[v.seat]} joker known`, "warn"));
    root.append(el("div", { class: "myhand", id: "my-hand", "data-spot": "hand", "data-seat": v.seat },
      playerPlate(ctx, v.seat, { chips }), cards));
  }
  return root;
}
