// The toy game's board (tests/core/toy_kit.py): the running total against the target and
// your secret. It draws only what the server sends (the View and its `board` facts).
import { el } from "/static/cards.js";
import { playerPlate, seatOrder } from "/static/ui.js";

/** A card of this game (it has none: a plain chip with the id). */
export function card(id) {
  return el("span", { class: "chip", text: String(id) });
}

export function render(ctx) {
  const v = ctx.view;
  const b = ctx.table.board || {};
  const root = el("div", { class: "board toy" });
  const others = el("div", { class: "opponents" });
  for (const s of seatOrder(v.num_players, v.seat)) others.append(el("div", { class: "opp", "data-seat": s }, playerPlate(ctx, s)));
  root.append(others);
  const done = b.target ? Math.round(100 * (b.target - b.left) / b.target) : 0;
  root.append(el("div", { class: "centre", "data-spot": "total", id: "toy-total" },
    el("div", { class: "big", text: `Total ${v.total}` }),
    el("div", { text: `target ${b.target} \u00b7 ${b.left} to go` }),
    el("div", { class: "toy-bar", style: `height:10px;background:#ddd;border-radius:5px;width:240px` },
      el("div", { style: `height:10px;width:${done}%;background:#2a7;border-radius:5px` }))));
  if (v.seat >= 0) {
    root.append(el("div", { class: "myhand", id: "my-hand", "data-seat": v.seat },
      playerPlate(ctx, v.seat), el("div", { class: "big", text: `your secret: ${v.secret}` })));
  }
  return root;
}
