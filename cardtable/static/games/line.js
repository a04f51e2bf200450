// Line's board: the shared 4x4 grid (rows r1..r4, jokers), your hand, draw pile and discard.
// It draws what the server sends: the View and its board facts (the rows in tidy order
// with their kind, your hand sorted with its total), judged by the rules on the server.
import { backCard, el, emptySlot, stdCard } from "/static/cards.js";
import { chip, playerPlate, seatOrder } from "/static/ui.js";

/** A card of this game (a standard card or the joker), for the lobby's tile. */
export const card = stdCard;

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

  const b = ctx.table.board || {};
  const grid = el("div", { class: "grid" });
  (b.rows || []).forEach((row, r) => {
    const kind = row.kind;
    const cells = row.cards.map((c) => {
      const node = stdCard(c);
      node.dataset.pick = "1";
      return node;
    });
    while (cells.length < 4) cells.push(emptySlot());
    grid.append(el("div", { class: `row ${kind}` + (row.full ? " full" : ""), "data-spot": `row:${r}`, title: `row r${r + 1}` },
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
    const hand = b.hand || [];
    const total = b.hand_total;
    const cards = el("div", { class: "fan hand-fan" }, ...hand.map((c) => {
      const node = stdCard(c);
      node.dataset.pick = "1";
      return node;
    }));
    const chips = [chip(`${hand.length} cards \u00b7 ${total} points`, "", "your hand total (lowest wins)")];
    if (v.known_jokers[v.seat]) chips.push(chip(`${v.known_jokers[v.seat]} joker known`, "warn"));
    // data-dock: on a phone the hand stays in view at the bottom of the screen
    root.append(el("div", { class: "myhand", id: "my-hand", "data-spot": "hand", "data-seat": v.seat, "data-dock": "" },
      playerPlate(ctx, v.seat, { chips }), cards));
  }
  return root;
}
