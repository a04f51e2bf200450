// The lobby: the games as tiles, the chosen game's options (only the combinations the
// game allows), the opponents' level, the room's time settings; "Play with friends" makes
// the room and goes to its link.
import { el } from "./cards.js";
import { LEVEL_WORDS, levelWord } from "./ui.js";
import { AWAY_CHOICES, TURN_CHOICES, api, autoSitKey, boardOf, catalog, hostKey, optionLabel, secondsWords, setText,
  showError, store } from "./common.js";
import { openRules, setRulesGame } from "./rules.js";

/** The lobby's state: the game chosen (also kept in this browser's storage). */
export const state = { chosen: null };

/** The lobby: the games' tiles and the chosen game's form. */
export function enterLobby() {
  document.body.dataset.page = "lobby";
  setText("crumb", "New game");
  const app = document.getElementById("app");
  app.replaceChildren();
  const saved = store.get("cardtable:lastgame");
  let chosen = catalog.games.find((g) => g.name === saved) || catalog.games[0];
  const tiles = el("div", { class: "game-tiles", id: "game-tiles" });
  const form = el("div", { class: "lobby-form", id: "lobby-form" });
  const pickGame = (g, picked = true) => {
    chosen = g;
    state.chosen = g.name;
    setRulesGame(g);
    store.set("cardtable:lastgame", g.name);
    for (const t of tiles.children) t.classList.toggle("chosen", t.dataset.game === g.name);
    buildForm(form, g);
    // a person who picked a game sees its form (on a phone it is below the tiles)
    if (picked && form.getBoundingClientRect().top > window.innerHeight * 0.5) form.scrollIntoView({ block: "start" });
  };
  for (const g of catalog.games) {
    tiles.append(el("button", { class: "game-tile", type: "button", "data-game": g.name, onclick: () => pickGame(g) },
      el("div", { class: "tile-art " + g.name }, tileArt(g)),
      el("div", { class: "tile-title", text: g.title }),
      el("div", { class: "tile-players", text: `${g.players.min}-${g.players.max} players` }),
      el("div", { class: "tile-blurb", text: g.blurb || "" })));
  }
  app.append(el("section", { class: "lobby" },
    el("h1", { text: "Play cards with friends" }),
    el("p", { class: "lede", text: "Choose a game, make a room and send the link. Computer players fill any empty seat; each player can switch on a coach that only sees their own cards." }),
    tiles, form));
  if (chosen) pickGame(chosen, false);
  else form.append(el("p", { text: "No games available (is the server running?)" }));
}

function tileArt(g) {
  const board = boardOf(g.name);
  if (!board || !board.card) return [];
  return (g.tile || []).map((c) => board.card(c, { small: true }));
}

function buildForm(form, g) {
  form.replaceChildren();
  const rows = el("div", { class: "opt-rows" });
  const values = {};
  const selects = {};
  const players = el("select", { id: "opt-num_players", name: "num_players" });
  for (let p = g.players.min; p <= g.players.max; p += 1) players.append(el("option", { value: p, text: String(p) }));
  players.value = String(g.players.default);
  rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: "Players" }), players,
    el("small", { class: "opt-help", text: "seats at the table; computer players fill the empty ones" })));

  for (const opt of g.options || []) {
    const numeric = (opt.allowed || []).length > 12 && opt.min !== undefined;
    const sel = numeric
      ? el("input", { id: `opt-${opt.name}`, name: opt.name, type: "number", min: opt.min, max: opt.max, step: 1, value: opt.default })
      : el("select", { id: `opt-${opt.name}`, name: opt.name });
    sel._numeric = numeric;
    selects[opt.name] = sel;
    rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: opt.title || opt.name }), sel,
      el("small", { class: "opt-help", text: opt.help || "" })));
    values[opt.name] = opt.default;
  }

  const levelSel = el("select", { id: "opt-level", name: "level" });
  for (const lv of g.levels || []) {
    const word = levelWord(lv, g.level_peers);
    levelSel.append(el("option", { value: lv, text: `${word}${LEVEL_WORDS[lv] && !word.includes("(") ? ` (${lv})` : ""}` }));
  }
  const defaultLevel = (g.levels || []).includes("planner") ? "planner" : (g.levels || [])[0];
  levelSel.value = store.get("cardtable:level:" + g.name) || defaultLevel;
  if (!levelSel.value) levelSel.value = defaultLevel;
  const castLine = el("small", { class: "opt-help", id: "cast-line" });
  rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: "Opponents" }), levelSel, castLine));

  const turnSel = el("select", { id: "opt-turn_seconds", name: "turn_seconds" },
    ...TURN_CHOICES.map((v) => el("option", { value: v === null ? "" : String(v), text: v === null ? "off" : `${secondsWords(v)} a move` })));
  rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: "Turn clock" }), turnSel,
    el("small", { class: "opt-help", text: "time for each move; when it runs out the computer plays that move (off: take your time)" })));
  const awaySel = el("select", { id: "opt-away_seconds", name: "away_seconds" },
    ...AWAY_CHOICES.map((v) => el("option", { value: String(v), text: secondsWords(v) })));
  awaySel.value = "60";
  rows.append(el("label", { class: "opt" }, el("span", { class: "opt-name", text: "If a player leaves" }), awaySel,
    el("small", { class: "opt-help", text: "a computer plays the seat of a player who left after this long; coming back takes it back" })));

  const nameInput = el("input", { id: "lobby-name", type: "text", maxlength: 24, placeholder: "your name", value: store.get("cardtable:name") || "",
    autocomplete: "nickname" });
  const nameRow = el("label", { class: "opt lobby-name" }, el("span", { class: "opt-name", text: "Your name" }), nameInput,
    el("small", { class: "opt-help", text: "shown at your seat" }));

  const combos = g.combos || { keys: [], valid: [] };
  const order = ["num_players", ...(g.options || []).map((o) => o.name)];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  // the values of `key` that some valid combination allows, given the choices above it
  const allowedFor = (key, base, chosen) => {
    const ki = combos.keys.indexOf(key);
    if (ki < 0 || !combos.valid.length) return base;
    const earlier = combos.keys.map((k, i) => [k, i]).filter(([k]) => order.indexOf(k) < order.indexOf(key));
    const rows = combos.valid.filter((row) => earlier.every(([k, i]) => same(row[i], chosen[k])));
    return base.filter((a) => rows.some((row) => same(row[ki], a)));
  };
  const refill = () => {
    const n = Number(players.value);
    const chosen = { num_players: n };
    for (const opt of g.options || []) {
      const sel = selects[opt.name];
      if (sel._numeric) {
        chosen[opt.name] = values[opt.name];
        continue;
      }
      const allowed = allowedFor(opt.name, opt.allowed || [], chosen);
      const prev = values[opt.name];
      sel.replaceChildren(...allowed.map((a, i) => el("option", { value: String(i), "data-value": JSON.stringify(a), text: optionLabel(opt, a) })));
      sel._allowed = allowed;
      let idx = allowed.findIndex((a) => same(a, prev));
      if (idx < 0) idx = allowed.findIndex((a) => same(a, opt.default));
      if (idx < 0) idx = 0;
      sel.value = String(idx);
      values[opt.name] = allowed[idx];
      chosen[opt.name] = allowed[idx];
    }
    const cast = g.cast || [];
    const opponents = n - 1;
    castLine.textContent = cast.length
      ? `You play against ${castNames(cast, opponents)}, as many as the seats no friend takes; this makes them easier or harder.`
      : "the computer players' strength; the host can change each seat later";
  };
  players.onchange = refill;
  for (const opt of g.options || []) {
    selects[opt.name].onchange = () => {
      const sel = selects[opt.name];
      if (sel._numeric) {
        const v = Math.round(Number(sel.value));
        values[opt.name] = Number.isFinite(v) ? Math.min(opt.max, Math.max(opt.min, v)) : opt.default;
        sel.value = String(values[opt.name]);
      } else values[opt.name] = sel._allowed[Number(sel.value)];
      refill();
    };
  }
  refill();

  const create = el("button", { class: "btn primary big", id: "create-room", type: "button", text: "Play with friends" });
  create.onclick = async () => {
    create.disabled = true;
    const name = nameInput.value.trim();
    store.set("cardtable:name", name || null);
    store.set("cardtable:level:" + g.name, levelSel.value);
    try {
      const res = await api("/api/rooms", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game: g.name, num_players: Number(players.value), options: values, level: levelSel.value,
          turn_seconds: turnSel.value === "" ? null : Number(turnSel.value), away_seconds: Number(awaySel.value) }),
      });
      store.set(hostKey(res.room), res.host_token);
      store.set(autoSitKey(res.room), "1");
      location.assign(res.link || `/room/${res.room}`);
    } catch (err) {
      showError(err.message);
      create.disabled = false;
    }
  };
  form.append(el("div", { class: "form-head" }, el("h2", { text: g.title }),
    g.rules ? el("button", { class: "btn small", id: "lobby-rules", type: "button", text: `Rules of ${g.title}`, onclick: () => openRules(g) }) : null),
    el("p", { class: "muted", text: "Press Play with friends to make a room, then send the link. Computer players fill any empty seat. Each player has their own coach, which only sees their own cards." }),
    // your name and the button first (the options below have defaults): on a phone they are in view
    el("div", { class: "create-row" }, nameRow, create,
      el("span", { class: "muted", text: "makes a room and its link; start alone or wait for friends" })),
    el("h3", { class: "opt-title", text: "Options" }), rows);
}

function castNames(cast, n) {
  const names = [];
  for (let i = 0; i < n; i += 1) names.push(cast[i % cast.length]);
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}
