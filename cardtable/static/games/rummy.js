// Rummy 4x3x2's board: opponents across the top (card counts, cards taken from the
// discard pile), the draw pile and the face-up discard, your hand grouped by rank. It draws
// what the server sends: the View, your hand's groups as the rules judge them, and a
// judged round's hands, groups and reason.
import { backCard, el, emptySlot, stdCard } from "/static/cards.js";
import { chip, pips, playerPlate, seatOrder } from "/static/ui.js";

/** A card of this game, for the lobby's tile. */
export const card = stdCard;

/** The groups of a hand (its `parts`, by rank, as the server judged them) drawn in a row. */
function handGroups(parts, opts = {}) {
  const box = el("div", { class: "rgroups" });
  const looseCards = [];
  for (const p of parts) {
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
  return box;
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
  const runOuts = v.run_out_limit === null ? `run-outs ${v.run_outs} (no limit)` : `run-outs ${v.run_outs} of ${v.run_out_limit}`;
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
    el("div", { text: `${runOuts} \u00b7 turn ${v.turn}` }),
    v.finished_by >= 0 ? el("div", { class: "gold-text", text: `${ctx.name(v.finished_by)} finished; last turns: ${v.last_turns_left.map(ctx.name).join(", ") || "none"}` }) : null);
  centre.append(deck, discard, info);
  root.append(centre);
  if (buried.length) {
    root.append(el("div", { class: "buried" }, el("span", { class: "muted", text: "in the discard pile: " }),
      ...buried.map((c) => stdCard(c, { tiny: true }))));
  }

  // ---- your hand
  if (v.seat >= 0) {
    // data-dock: on a phone the hand stays in view at the bottom of the screen
    const mine = el("div", { class: "myhand", id: "my-hand", "data-spot": "hand", "data-seat": v.seat, "data-dock": "" });
    const chips = [pips(v.scores[v.seat], v.rounds_to_win, `rounds won: ${v.scores[v.seat]} of ${v.rounds_to_win}`)];
    if (v.seat === v.finished_by) chips.push(chip("finished", "gold"));
    if (v.last_turns_left.includes(v.seat)) chips.push(chip("last turn", "warn"));
    if (v.seat === v.dealer) chips.push(chip("dealer"));
    const judgement = (ctx.table.board || {}).hand || { parts: [], complete: false, text: "" };
    const box = handGroups(judgement.parts, { pick: true, taken: v.current === v.seat ? v.taken : -1 });
    mine.append(playerPlate(ctx, v.seat, { chips }), box,
      el("div", { class: "judgement" + (judgement.complete ? " ok" : ""), text: judgement.text }));
    const known = v.known[v.seat] || [];
    if (known.length) mine.append(el("div", { class: "known mine" }, el("span", { class: "muted", text: "everyone knows you hold: " }),
      ...known.map((c) => stdCard(c, { tiny: true }))));
    root.append(mine);
  }
  return root;
}

/** What a hand's value is made of, in words: the card points of its groups less those of
 * its loose cards (ace 1, 2 to 10 their number, J Q K 10), as the server judged them. */
function valueWords(h) {
  if (typeof h.value !== "number") return null;
  const loose = typeof h.loose_value === "number" ? h.loose_value : 0;
  const grouped = typeof h.grouped_value === "number" ? h.grouped_value : h.value + loose;
  const text = loose ? `card points: ${grouped} in groups less ${loose} loose` : `card points of its groups: ${grouped}`;
  return el("span", { class: "rr-points", title: "card points: ace 1, 2 to 10 their number, J Q K 10", text: `${text} (ace 1, J Q K 10)` });
}

/** Every hand shown with its groups, who won the round and why (all judged by the server). */
export function roundResult(rr, ctx) {
  const box = el("div", { class: "round-result" });
  const ended = rr.ended || "";
  box.append(el("h3", { text: `Round ${rr.round ?? ""} is over` + (ended ? `: ${ended}` : "") }));
  const winners = rr.winners || [];
  const tbl = el("div", { class: "rr-hands" });
  (rr.hands || []).forEach((h, s) => {
    const groups = handGroups(h.groups || [], { small: true });
    const shape = (h.shape || []).join("+") || "no group";
    const state = h.complete ? "complete" : `incomplete (loose ${h.loose_value ?? "?"})`;
    tbl.append(el("div", { class: "rr-row" + (winners.includes(s) ? " winner" : ""), "data-rr-seat": s },
      el("div", { class: "rr-name" }, el("b", { text: ctx.name(s), title: ctx.name(s) }), winners.includes(s) ? el("span", { class: "chip gold", text: "wins the round" }) : null),
      groups,
      el("div", { class: "rr-judge" }, `${shape}, ${state}, value ${h.value ?? "?"}`, valueWords(h))));
  });
  box.append(tbl);
  // why: every deciding comparison, worded by the server (the game's table face)
  const reasons = Array.isArray(rr.reasons) ? rr.reasons : (rr.why ? [rr.why.replace(/^why:\s*/, "")] : []);
  if (reasons.length) {
    box.append(el("p", { class: "why", text: "Why:" }),
      el("ul", { class: "why-list" }, ...reasons.map((w) => el("li", { text: w }))));
  }
  if (rr.scores) box.append(el("p", { class: "muted", text: "Rounds won: " + rr.scores.map((x, s) => `${ctx.name(s)} ${x}`).join(", ") }));
  return box;
}
