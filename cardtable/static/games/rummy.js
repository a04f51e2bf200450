// Rummy 4x3x2's table: opponents across the top (card counts, cards taken from the
// discard pile), the draw pile and the face-up discard, your hand grouped by rank.
import { backCard, el, emptySlot, prettyStd, stdCard } from "../cards.js";
import { chip, pips, playerPlate, seatOrder } from "../ui.js";

const GROUP_SIZES = { four: [4], three: [3], mixed: [2, 3, 4] };

export const title = "Rummy 4x3x2's";

function groupOf(pack, count) {
  const sizes = GROUP_SIZES[pack] || [2, 3, 4];
  let g = 0;
  for (const s of sizes) if (s <= count && s > g) g = s;
  return g;
}

/** The hand by rank, biggest groups first: [{rank, cards, group}], plus the judgement. */
export function judge(pack, hand) {
  const byRank = new Map();
  for (const c of [...hand].sort((a, b) => a - b)) {
    const r = c >> 2;
    if (!byRank.has(r)) byRank.set(r, []);
    byRank.get(r).push(c);
  }
  const ranks = [...byRank.keys()].sort((a, b) => byRank.get(b).length - byRank.get(a).length || a - b);
  const parts = ranks.map((r) => ({ rank: r, cards: byRank.get(r), group: groupOf(pack, byRank.get(r).length) }));
  const value = (r) => Math.min(r + 1, 10);
  let loose = 0;
  let gv = 0;
  let lv = 0;
  const shape = [];
  for (const p of parts) {
    loose += p.cards.length - p.group;
    gv += p.group * value(p.rank);
    lv += (p.cards.length - p.group) * value(p.rank);
    if (p.group) shape.push(p.group);
  }
  shape.sort((a, b) => b - a);
  return { parts, loose, complete: loose === 0, value: gv - lv, shape };
}

function handGroups(view, cards, opts = {}) {
  const j = judge(view.pack, cards);
  const box = el("div", { class: "rgroups" });
  const looseCards = [];
  for (const p of j.parts) {
    if (p.group === 0) {
      looseCards.push(...p.cards);
      continue;
    }
    const grp = el("div", { class: "rgroup" + (p.group === p.cards.length ? " full" : "") });
    const inner = el("div", { class: "fan" });
    p.cards.forEach((c, i) => inner.append(stdCard(c, {
      small: opts.small, cls: (i >= p.group ? "loose " : "") + (c === opts.taken ? "taken" : ""),
      title: c === opts.taken ? "just taken" : "",
    })));
    for (const node of inner.children) if (opts.pick) node.dataset.pick = "1";
    grp.append(inner, el("div", { class: "glabel",
      text: p.group === p.cards.length ? `group of ${p.group}` : `group of ${p.group} + ${p.cards.length - p.group} loose` }));
    box.append(grp);
  }
  if (looseCards.length) {
    const grp = el("div", { class: "rgroup loosegrp" });
    const inner = el("div", { class: "fan" });
    looseCards.forEach((c) => inner.append(stdCard(c, { small: opts.small, cls: c === opts.taken ? "taken" : "",
      title: c === opts.taken ? "just taken" : "" })));
    for (const node of inner.children) if (opts.pick) node.dataset.pick = "1";
    grp.append(inner, el("div", { class: "glabel", text: "loose" }));
    box.append(grp);
  }
  return { box, judgement: j };
}

function judgementText(j) {
  const shape = j.shape.length ? j.shape.join("+") : "no group";
  return j.complete ? `complete: ${shape}, value ${j.value}` : `${j.loose} loose \u00b7 groups ${shape} \u00b7 value ${j.value}`;
}

export function prompt(ctx) {
  const v = ctx.view;
  if (v.phase === "over") return "Game over";
  const top = v.discard_top >= 0 ? prettyStd(v.discard_top) : "";
  if (v.phase === "pick") return v.pile_size > 0 ? `pick up: draw, or take the ${top}` : `pick up: take the ${top} (the pile is empty)`;
  const not = v.taken >= 0 ? ` (not the ${prettyStd(v.taken)} you just took)` : "";
  return `throw a card, or finish if the rest is complete${not}`;
}

export function render(ctx) {
  const v = ctx.view;
  const n = v.num_players;
  const root = el("div", { class: "board rummy" });

  // ---- opponents across the top
  const opp = el("div", { class: "opponents" });
  for (const s of seatOrder(n, v.seat)) {
    const chips = [pips(v.scores[s], v.rounds_to_win, `rounds won: ${v.scores[s]} of ${v.rounds_to_win}`)];
    if (s === v.finished_by) chips.push(chip("finished", "gold"));
    if (v.last_turns_left.includes(s)) chips.push(chip("last turn", "warn"));
    if (s === v.dealer) chips.push(chip("dealer", "", "deals this round"));
    const box = el("div", { class: "opp", "data-seat": s });
    box.append(playerPlate(ctx, s, { chips }));
    const backs = el("div", { class: "backs", title: `${v.hand_sizes[s]} cards` });
    for (let i = 0; i < v.hand_sizes[s]; i += 1) backs.append(backCard({ tiny: true }));
    backs.append(el("span", { class: "count", text: String(v.hand_sizes[s]) }));
    box.append(backs);
    const known = v.known[s] || [];
    box.append(el("div", { class: "known" },
      el("span", { class: "muted", text: known.length ? "took: " : "took nothing from the discard" }),
      ...known.map((c) => stdCard(c, { tiny: true, cls: c === v.taken && s === v.current ? "taken" : "" }))));
    opp.append(box);
  }
  root.append(opp);

  // ---- centre: the piles and the round
  const limit = v.run_out_limit === null ? "never" : v.run_out_limit;
  const centre = el("div", { class: "centre" });
  const deck = el("div", { class: "pile", "data-spot": "deck", title: "the face-down pile: draw" },
    v.pile_size > 0 ? backCard({ cls: "stacked" }) : emptySlot({ label: "empty" }),
    el("div", { class: "pile-label", text: `pile ${v.pile_size}` }));
  const topCard = v.discard_top >= 0 ? stdCard(v.discard_top) : emptySlot({ label: "empty" });
  if (v.discard_top >= 0) topCard.dataset.pick = "1";
  const discard = el("div", { class: "pile", "data-spot": "discard", title: "the face-up discard: take" },
    topCard, el("div", { class: "pile-label", text: `discard ${v.discard.length}` }));
  const buried = v.discard.filter((c) => c !== v.discard_top);
  const info = el("div", { class: "roundinfo" },
    el("div", { class: "big", text: `Round ${v.round}` }),
    el("div", { text: `first to ${v.rounds_to_win} round${v.rounds_to_win > 1 ? "s" : ""} \u00b7 pack ${v.pack} \u00b7 ${v.hand_size} cards` }),
    el("div", { text: `run-outs ${v.run_outs} of ${limit} \u00b7 turn ${v.turn}` }),
    v.finished_by >= 0 ? el("div", { class: "gold-text", text: `${ctx.name(v.finished_by)} finished; last turns: ${v.last_turns_left.map(ctx.name).join(", ") || "none"}` }) : null);
  centre.append(deck, discard, info);
  root.append(centre);
  if (buried.length) {
    root.append(el("div", { class: "buried" }, el("span", { class: "muted", text: "in the discard pile: " }),
      ...buried.map((c) => stdCard(c, { tiny: true }))));
  }

  // ---- your hand
  if (v.seat >= 0) {
    const mine = el("div", { class: "myhand", id: "my-hand", "data-spot": "hand", "data-seat": v.seat });
    const chips = [pips(v.scores[v.seat], v.rounds_to_win, `rounds won: ${v.scores[v.seat]} of ${v.rounds_to_win}`)];
    if (v.seat === v.finished_by) chips.push(chip("finished", "gold"));
    if (v.last_turns_left.includes(v.seat)) chips.push(chip("last turn", "warn"));
    if (v.seat === v.dealer) chips.push(chip("dealer"));
    const { box, judgement } = handGroups(v, v.hand, { pick: true, taken: v.current === v.seat ? v.taken : -1 });
    mine.append(playerPlate(ctx, v.seat, { chips }), box,
      el("div", { class: "judgement" + (judgement.complete ? " ok" : ""), text: judgementText(judgement) }));
    const known = v.known[v.seat] || [];
    if (known.length) mine.append(el("div", { class: "known mine" }, el("span", { class: "muted", text: "everyone knows you hold: " }),
      ...known.map((c) => stdCard(c, { tiny: true }))));
    root.append(mine);
  }
  return root;
}

const ENDED_BY = {
  finish: "a player finished and everyone had a last turn",
  run_outs: "the face-down pile ran out the last time allowed",
  turn_cap: "the round reached its turn cap",
};

function why(rr) {
  const hands = rr.hands || [];
  const winners = rr.winners || [];
  const shared = winners.length > 1 ? " (shared)" : "";
  const complete = hands.filter((h) => h.complete);
  if (complete.length === 1) return "the only complete hand wins" + shared;
  if (complete.length > 1) {
    const shapes = new Set(complete.map((h) => (h.shape || []).join("+")));
    if (shapes.size > 1) return "among complete hands the bigger groups win, compared largest first" + shared;
    return "complete hands with the same groups: the higher card value wins" + shared;
  }
  return "nobody is complete, so grouped value minus loose value decides" + shared;
}

/** Every hand shown, who won the round and why. `cardId` maps a card text to its id. */
export function roundResult(rr, ctx) {
  const box = el("div", { class: "round-result" });
  const ended = rr.ended_by ? (ENDED_BY[rr.ended_by] || rr.ended_by) : "";
  box.append(el("h3", { text: `Round ${rr.round ?? ""} is over` + (ended ? `: ${ended}` : "") }));
  const winners = rr.winners || [];
  const tbl = el("div", { class: "rr-hands" });
  (rr.hands || []).forEach((h, s) => {
    const ids = h.card_ids || (h.cards || []).map((c) => (typeof c === "number" ? c : ctx.cardId(c))).filter((c) => c >= 0);
    const pack = ctx.view ? ctx.view.pack : (ctx.room.options || {}).pack;
    const { box: groups } = handGroups({ pack }, ids, { small: true });
    const shape = (h.shape || []).join("+") || "no group";
    const state = h.complete ? "complete" : `incomplete (loose ${h.loose_value ?? "?"})`;
    tbl.append(el("div", { class: "rr-row" + (winners.includes(s) ? " winner" : ""), "data-rr-seat": s },
      el("div", { class: "rr-name" }, el("b", { text: ctx.name(s) }), winners.includes(s) ? el("span", { class: "chip gold", text: "wins the round" }) : null),
      groups,
      el("div", { class: "rr-judge", text: `${shape}, ${state}, value ${h.value ?? "?"}` })));
  });
  box.append(tbl);
  if (rr.hands) box.append(el("p", { class: "why", text: (rr.why || "why: " + why(rr)).replace(/^why:/, "Why:") }));
  if (rr.scores) box.append(el("p", { class: "muted", text: "Rounds won: " + rr.scores.map((x, s) => `${ctx.name(s)} ${x}`).join(", ") }));
  return box;
}
