// unokit browser client: one page for the start page, the lobby, the table and replays.
// The server is the only authority: legality comes from the `legal` list of each update, and
// every user-provided string is put on the page as text (textContent / text nodes), never as HTML.

const STORE_PREFIX = "unokit.seat.";
const NAME_KEY = "unokit.name";
const READ_DELAY_MS = 300;
const MAX_LOG = 400;

// ------------------------------------------------------------------ small DOM helpers

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

/** Create an element; `props` sets class, text, dataset, event handlers (on*) and attributes. */
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function show(node, visible = true) {
  node.hidden = !visible;
}

let toastTimer = 0;
function toast(message) {
  const box = $("#toast");
  box.textContent = message;
  show(box);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => show(box, false), 4500);
}

// ------------------------------------------------------------------ cards (presentation only)

const COLOUR_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", O: "orange" };
const COLOUR_ORDER = "RYGBO";
const KIND_ORDER = [
  "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2", "$",
  "W", "W+4", "WJ", "W$", "WR", "WS", "WS2", "W+2", "WT2", "WX",
];
const KIND_NAMES = {
  S: "Skip", R: "Reverse", "+2": "Draw Two", $: "Jackpot", W: "Wild", "W+4": "Wild Draw Four",
  WJ: "Wild Welcome to the Jam", W$: "Wild Jackpot", WR: "Wild Reverse", WS: "Wild Skip", WS2: "Wild Skip Two",
  "W+2": "Wild Draw Two", WT2: "Wild Targeted Draw Two", WX: "Wild Forced Swap",
};
const KIND_FACES = {
  S: "⊘", R: "⇄", "+2": "+2", $: "$", W: "W", "W+4": "+4", WJ: "JAM", W$: "$", WR: "⇄", WS: "⊘",
  WS2: "⊘2", "W+2": "+2", WT2: "→2", WX: "⇆",
};

function parseCard(name) {
  if (name.startsWith("W")) return { colour: null, kind: name };
  return { colour: name[0], kind: name.slice(1) };
}

function cardLongName(name) {
  const { colour, kind } = parseCard(name);
  const kindName = KIND_NAMES[kind] ?? kind;
  return colour ? `${COLOUR_NAMES[colour] ?? colour} ${kindName}` : kindName;
}

function cardSortKey(name) {
  const { colour, kind } = parseCard(name);
  const c = colour ? COLOUR_ORDER.indexOf(colour) : 9;
  const k = KIND_ORDER.indexOf(kind);
  return c * 100 + (k < 0 ? 99 : k);
}

function sortedHand(cards) {
  return [...cards].sort((a, b) => cardSortKey(a) - cardSortKey(b));
}

/** A card face: a <button> when `onclick` is given, else a <div>. */
function cardNode(name, { small = false, onclick = null, extraClass = "" } = {}) {
  const { colour, kind } = parseCard(name);
  const classes = ["card", colour ? `c-${COLOUR_NAMES[colour]}` : "c-wild", small ? "small" : "", extraClass];
  const props = { class: classes.filter(Boolean).join(" "), title: cardLongName(name), dataset: { card: name } };
  const face = el("span", { class: "face", text: KIND_FACES[kind] ?? kind });
  const corner = el("span", { class: "corner", text: name });
  if (onclick) {
    return el("button", { ...props, type: "button", "aria-label": cardLongName(name), onclick }, face, corner);
  }
  return el("div", props, face, corner);
}

// ------------------------------------------------------------------ state

const state = {
  screen: "start",
  options: null,
  code: null,
  seat: null,
  secret: null,
  host: false,
  invite: null,
  spectator: false,
  version: 0,
  view: null,
  legal: [],
  asks: "",
  seats: [],
  finished: false,
  lobby: null,
  hello: null, // the first message of a new connection when no seat is held yet (create / join / spectate)
  catchingUp: true, // the first update after (re)connecting replays history: no animations, no round popups
  busy: false,
  selected: -1,
  roundHands: [],
  eventRound: 0,
  resultsQueue: [],
  expect: [], // replies expected to read_rule / rule_cards, in order
  ruleEditorCount: -1,
};

function storedSeat(code) {
  try {
    const raw = localStorage.getItem(STORE_PREFIX + code);
    const data = raw ? JSON.parse(raw) : null;
    return data && typeof data.secret === "string" ? data : null;
  } catch {
    return null;
  }
}

function storeSeat(code, secret, seat) {
  try {
    localStorage.setItem(STORE_PREFIX + code, JSON.stringify({ secret, seat }));
  } catch {
    // storage full or disabled: the seat lasts as long as the page
  }
}

function forgetSeat(code) {
  try {
    localStorage.removeItem(STORE_PREFIX + code);
  } catch {
    // ignore
  }
}

function rememberName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // ignore
  }
}

function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) ?? "";
  } catch {
    return "";
  }
}

function seatName(seat) {
  if (seat === state.seat && seat !== null) return "You";
  const entry = state.seats.find((s) => s.seat === seat);
  return entry?.name ?? ""; // the server names every seat
}

function setScreen(name) {
  state.screen = name;
  for (const section of $$(".screen")) show(section, section.id === name);
  if (name !== "table") {
    show($("#decision"), false);
    document.body.classList.remove("has-decision");
  }
  const label = $("#room-label");
  const role = name === "replay" ? " · replay" : state.spectator ? " · watching" : "";
  label.textContent = state.code ? `Room ${state.code}${role}` : "";
  show(label, Boolean(state.code));
}

// ------------------------------------------------------------------ connection

const conn = {
  ws: null,
  attempt: 0,
  wanted: false,
  timer: 0,
  pingTimer: 0,

  connect() {
    this.wanted = true;
    clearTimeout(this.timer);
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    setConn("connecting");
    ws.addEventListener("open", () => {
      this.attempt = 0;
      setConn("connected");
      state.catchingUp = true;
      const hello = helloMessage();
      if (hello) ws.send(JSON.stringify(hello));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }, true), 25000);
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message && typeof message === "object") handleMessage(message);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      state.busy = false;
      if (!this.wanted) return;
      const delay = Math.min(10000, 400 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
      this.attempt += 1;
      setConn("reconnecting");
      this.timer = setTimeout(() => this.connect(), delay);
    });
  },

  send(message, quiet = false) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    if (!quiet) toast("Not connected: reconnecting…");
    return false;
  },

  ensure() {
    if (!this.ws) this.connect();
  },
};

function setConn(status) {
  const node = $("#conn");
  node.textContent = { connecting: "connecting…", connected: "online", reconnecting: "reconnecting…" }[status];
  node.dataset.status = status;
  show(node);
}

/** What to send when a socket opens: resume a held seat, else the pending create / join / spectate. */
function helloMessage() {
  if (state.code && state.secret) {
    return { type: "resume", code: state.code, secret: state.secret, version: state.version };
  }
  if (state.code && state.spectator) return { type: "spectate", code: state.code, version: state.version };
  return state.hello;
}

function act(action) {
  if (state.busy) return;
  if (conn.send({ type: "act", action, version: state.version })) {
    state.busy = true;
    renderTable();
    setTimeout(() => {
      if (state.busy) {
        state.busy = false;
        renderTable();
      }
    }, 4000);
  }
}

// ------------------------------------------------------------------ messages

function handleMessage(message) {
  switch (message.type) {
    case "welcome":
      return onWelcome(message);
    case "lobby":
      return onLobby(message);
    case "update":
      return onUpdate(message);
    case "reading":
      return onReading(message);
    case "error":
      return onError(message);
    default:
      return undefined;
  }
}

function onWelcome(message) {
  state.code = message.code;
  state.seat = typeof message.seat === "number" ? message.seat : null;
  state.spectator = state.seat === null;
  state.host = Boolean(message.host);
  state.invite = message.invite || `/r/${message.code}`;
  state.hello = null;
  if (typeof message.secret === "string" && message.secret) {
    state.secret = message.secret;
    storeSeat(state.code, state.secret, state.seat);
  }
  const path = `/r/${state.code}`;
  if (location.pathname !== path) history.replaceState(null, "", path);
  setScreen(state.view ? "table" : state.screen === "start" || state.screen === "join" ? "lobby" : state.screen);
}

function onError(message) {
  const text = typeof message.message === "string" ? message.message : "Something went wrong.";
  const code = message.code;
  if (code === "bad-rule-card" && state.expect.length) {
    const expected = state.expect.shift();
    if (expected?.kind === "read") return showReading(expected.index, expected.text, text, null);
    if (expected?.kind === "submit") {
      $("#rule-status").textContent = text;
      return undefined;
    }
  }
  state.busy = false;
  if (code === "stale") {
    conn.send({ type: "sync", version: state.version }, true);
  } else if ((code === "not-found" || code === "forbidden") && state.secret && !state.view && !state.lobby) {
    // the stored seat is no longer valid: offer to join or watch instead
    forgetSeat(state.code);
    state.secret = null;
    showJoin(state.code);
  } else if (code === "not-found" && !state.view && !state.lobby) {
    state.spectator = false;
    state.code = null;
    history.replaceState(null, "", "/");
    showStart();
  }
  toast(text);
  if (state.view) renderTable();
}

// ------------------------------------------------------------------ start page

async function loadOptions() {
  if (state.options) return state.options;
  const response = await fetch("/api/options");
  if (!response.ok) throw new Error(`options: HTTP ${response.status}`);
  state.options = await response.json();
  return state.options;
}

const OPTION_LABELS = {
  hand_size: "Cards dealt",
  allow_bluff: "Wild Draw Four may be bluffed (and challenged)",
  challenger_plays_after_catching_bluff: "A challenger who catches a bluff still plays",
  two_player_reverse_skips: "With two players a Reverse acts as a Skip",
  uno_penalty: "Cards drawn when caught without UNO",
  jam_slam_chance: "Chance the Jam card lands Slam side up",
  jam_discard: "Cards discarded on a Slam",
  jam_draw: "Cards drawn when the Jam lands UNO side up",
  forced_swap_final_card: "Forced Swap as the final card",
  lever_weights: "Lever odds (relative weights of the six outcomes)",
  rule_card_count: "Rule cards in the game",
};
const LEVER_LABELS = {
  "choose-player": "A player of your choice",
  right: "The player on your right",
  left: "The player on your left",
  everyone: "Everyone",
  "discard-colours": "Discard one of each colour",
  "draw-four": "Draw four",
};
const LEVER_ORDER = ["choose-player", "right", "left", "everyone", "discard-colours", "draw-four"];
const FIXED_OPTIONS = new Set(["target_score", "scoring", "deck"]);

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function humanize(name) {
  const text = name.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function optionSpecs(options) {
  return Object.entries(options.rules ?? {}).filter(([name]) => !FIXED_OPTIONS.has(name));
}

/** The editions an option matters in (from /api/options), or null for every edition. */
function optionEditions(spec) {
  return Array.isArray(spec.editions) ? spec.editions : null;
}

/** An edition's title (from /api/options, once loaded). */
function editionTitle(edition) {
  return state.options?.edition_titles?.[edition] ?? edition ?? "";
}

function buildRuleFields(options) {
  const box = $("#rule-fields");
  box.replaceChildren();
  for (const [name, spec] of optionSpecs(options)) {
    const label = spec.label || OPTION_LABELS[name] || humanize(name);
    const editions = optionEditions(spec);
    const wrap = el("div", { class: "rule-field", dataset: { option: name, editions: editions ? editions.join(" ") : "" } });
    const def = spec.default;
    if (Array.isArray(spec.choices)) {
      const select = el("select", { name: `rule.${name}` });
      for (const choice of spec.choices) {
        const option = el("option", { value: JSON.stringify(choice), text: String(choice) });
        if (JSON.stringify(choice) === JSON.stringify(def)) option.selected = true;
        select.append(option);
      }
      wrap.append(el("label", {}, label, " ", select));
    } else if (typeof def === "boolean" || spec.type === "bool") {
      const box2 = el("input", { type: "checkbox", name: `rule.${name}` });
      box2.checked = Boolean(def);
      wrap.append(el("label", { class: "check" }, box2, " ", label));
    } else if (Array.isArray(def)) {
      const fieldset = el("fieldset", {}, el("legend", { text: label }));
      def.forEach((value, index) => {
        const itemLabel = name === "lever_weights" ? LEVER_LABELS[LEVER_ORDER[index]] ?? `#${index + 1}` : `#${index + 1}`;
        const input = el("input", { type: "number", name: `rule.${name}.${index}`, min: spec.min, max: spec.max, value });
        fieldset.append(el("label", { class: "inline" }, itemLabel, " ", input));
      });
      wrap.append(fieldset);
    } else if (typeof def === "number" || spec.type === "int" || spec.type === "float") {
      const isFloat = spec.type === "float" || (typeof def === "number" && !Number.isInteger(def));
      const input = el("input", {
        type: "number",
        name: `rule.${name}`,
        value: def ?? "",
        min: spec.min,
        max: spec.max,
        step: isFloat ? "0.05" : "1",
      });
      wrap.append(el("label", {}, label, " ", input));
    } else {
      continue;
    }
    box.append(wrap);
  }
  filterRuleFields();
}

function filterRuleFields() {
  const edition = $("#create-form [name=edition]").value;
  for (const field of $$("#rule-fields .rule-field")) {
    const editions = field.dataset.editions;
    show(field, !editions || editions.split(" ").includes(edition));
  }
}

function collectRules(form, options) {
  const rules = {};
  const target = Number(form.target_score.value);
  const targetSpec = options.rules?.target_score;
  if (Number.isFinite(target) && (!targetSpec || target !== targetSpec.default)) rules.target_score = target;
  const scoringSpec = options.rules?.scoring;
  if (!scoringSpec || JSON.stringify(form.scoring.value) !== JSON.stringify(scoringSpec.default)) {
    rules.scoring = form.scoring.value;
  }
  for (const field of $$("#rule-fields .rule-field")) {
    if (field.hidden) continue;
    const name = field.dataset.option;
    const spec = options.rules[name];
    let value;
    const select = $("select", field);
    const inputs = $$("input", field);
    if (select) value = JSON.parse(select.value);
    else if (inputs.length === 1 && inputs[0].type === "checkbox") value = inputs[0].checked;
    else if (inputs.length > 1) value = inputs.map((input) => Number(input.value));
    else if (inputs.length === 1) value = Number(inputs[0].value);
    if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) continue;
    if (JSON.stringify(value) !== JSON.stringify(spec.default)) rules[name] = value;
  }
  return rules;
}

async function showStart() {
  state.code = null;
  setScreen("start");
  const form = $("#create-form");
  if (!form.name.value) form.name.value = savedName();
  const joinForm = $("#join-code-form");
  if (!joinForm.name.value) joinForm.name.value = savedName();
  let options;
  try {
    options = await loadOptions();
  } catch {
    toast("Could not load the game options. Is the server running?");
    return;
  }
  if (form.edition.options.length) return;
  for (const edition of options.editions ?? []) {
    form.edition.append(el("option", { value: edition, text: editionTitle(edition) }));
  }
  const scoring = options.rules?.scoring;
  for (const choice of scoring?.choices ?? []) {
    const option = el("option", { value: choice, text: choice });
    if (choice === scoring?.default) option.selected = true;
    form.scoring.append(option);
  }
  const target = options.rules?.target_score;
  if (target) {
    form.target_score.value = target.default;
    if (target.min !== undefined) form.target_score.min = target.min;
    if (target.max !== undefined) form.target_score.max = target.max;
  }
  for (const bot of options.bots ?? ["heuristic"]) form.bot.append(el("option", { value: bot, text: bot }));
  buildRuleFields(options);
}

function startConnection(hello) {
  state.hello = hello;
  state.view = null;
  state.lobby = null;
  state.version = 0;
  if (conn.ws && conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify(hello));
  else conn.connect();
}

function onCreate(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const name = form.name.value.trim();
  if (!name) return toast("Write your name first.");
  rememberName(name);
  const options = state.options ?? { rules: {} };
  startConnection({
    type: "create",
    name,
    edition: form.edition.value,
    seats: Number(form.seats.value),
    rules: collectRules(form, options),
    bot: form.bot.value,
  });
  return undefined;
}

function cleanCode(text) {
  const trimmed = text.trim();
  const match = trimmed.match(/\/r\/([^/?#\s]+)/);
  return (match ? match[1] : trimmed).trim();
}

function onJoinCode(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const code = cleanCode(form.code.value);
  const name = form.name.value.trim();
  if (!code) return toast("Write the room code.");
  const stored = storedSeat(code);
  if (stored) {
    history.pushState(null, "", `/r/${code}`);
    return enterRoom(code);
  }
  if (!name) return toast("Write your name first.");
  rememberName(name);
  state.code = code;
  startConnection({ type: "join", code, name });
  return undefined;
}

function watch(code) {
  state.code = code;
  state.spectator = true;
  state.secret = null;
  state.version = 0;
  history.replaceState(null, "", `/r/${code}?watch`); // a reload keeps watching
  startConnection({ type: "spectate", code, version: 0 });
}

function showJoin(code) {
  state.code = code;
  setScreen("join");
  $("#join-code").textContent = code;
  const form = $("#join-form");
  if (!form.name.value) form.name.value = savedName();
}

function onJoin(event) {
  event.preventDefault();
  const name = event.currentTarget.name.value.trim();
  if (!name) return toast("Write your name first.");
  rememberName(name);
  startConnection({ type: "join", code: state.code, name });
  return undefined;
}

/** Open /r/CODE: resume the stored seat, or offer to join or watch. */
function enterRoom(code) {
  state.code = code;
  const stored = storedSeat(code);
  if (stored) {
    state.secret = stored.secret;
    state.seat = stored.seat;
    state.version = 0;
    setScreen("lobby");
    conn.connect();
  } else {
    showJoin(code);
  }
}

// ------------------------------------------------------------------ lobby

function onLobby(message) {
  state.lobby = message;
  if (message.code) state.code = message.code;
  state.seats = message.seats ?? [];
  if (typeof message.you === "number") state.seat = message.you;
  if (typeof message.host === "number" && state.seat !== null) state.host = message.host === state.seat;
  if (state.view) return; // the match has begun: the table has the seats
  setScreen("lobby");
  renderLobby();
}

function renderLobby() {
  const lobby = state.lobby;
  if (!lobby) return;
  $("#lobby-code").textContent = state.code;
  $("#invite-link").value = new URL(state.invite || `/r/${state.code}`, location.href).href;
  const changed = Object.entries(changedRules(lobby.rules ?? {}, lobby.edition))
    .map(([key, value]) => `${OPTION_LABELS[key] ?? humanize(key)}: ${Array.isArray(value) ? value.join(", ") : value}`)
    .join(" · ");
  $("#lobby-rules").textContent = `${editionTitle(lobby.edition)} · ${lobby.players ?? lobby.seats.length} seats${
    changed ? ` · ${changed}` : ""
  }`;
  const list = $("#lobby-seats");
  list.replaceChildren();
  let open = 0;
  for (const seat of lobby.seats) {
    if (seat.kind === "open") open += 1;
    const isMe = seat.seat === state.seat;
    const badges = [];
    badges.push(el("span", { class: `badge kind-${seat.kind}`, text: seat.kind }));
    if (seat.seat === lobby.host) badges.push(el("span", { class: "badge", text: "host" }));
    if (seat.away) badges.push(el("span", { class: "badge away", text: "away" }));
    if (lobby.rule_cards && seat.kind === "human") {
      badges.push(el("span", { class: `badge ${seat.ready ? "ready" : ""}`, text: seat.ready ? "cards written" : "writing" }));
    }
    const controls = [];
    if (state.host) {
      if (seat.kind === "open") {
        controls.push(
          el("button", { type: "button", text: "Add bot", dataset: { seat: seat.seat }, onclick: () => setBot(seat.seat, true) }),
        );
      } else if (seat.kind === "bot") {
        controls.push(
          el("button", { type: "button", text: "Remove bot", dataset: { seat: seat.seat }, onclick: () => setBot(seat.seat, false) }),
        );
      }
    }
    const name = seat.kind === "open" ? `${seat.name} (open)` : seat.name;
    list.append(
      el(
        "li",
        { class: `seat-row${isMe ? " me" : ""}`, dataset: { seat: seat.seat, kind: seat.kind } },
        el("span", { class: "seat-name", text: isMe ? `${name} (you)` : name }),
        el("span", { class: "badges" }, badges),
        el("span", { class: "controls" }, controls),
      ),
    );
  }
  show($("#host-controls"), state.host);
  show($("#lobby-wait"), !state.host);
  $("#fill-bots").disabled = open === 0;
  $("#start-game").disabled = open > 0;
  renderRuleEditor();
}

/** The rule options that differ from the defaults (all of them while the defaults are unknown), for `edition`. */
function changedRules(rules, edition) {
  const specs = state.options?.rules;
  const out = {};
  for (const [name, value] of Object.entries(rules)) {
    if (value === null || value === undefined) continue;
    const spec = specs?.[name];
    if (specs && !spec) continue;
    if (spec && JSON.stringify(spec.default) === JSON.stringify(value)) continue;
    const editions = spec ? optionEditions(spec) : null;
    if (editions && !editions.includes(edition)) continue;
    out[name] = value;
  }
  return out;
}

function setBot(seat, bot) {
  conn.send({ type: "seat", seat, bot });
}

function fillBots() {
  for (const seat of state.lobby?.seats ?? []) if (seat.kind === "open") setBot(seat.seat, true);
}

const RULE_PLACEHOLDERS = [
  "Draw until you have 7 cards in your hand.",
  "Give 2 cards to the player on your left",
  "Make chicken noises until your next turn.",
  "Everyone draws two cards",
  "Skip your next turn",
  "Swap hands with the player with the most cards",
];

function renderRuleEditor() {
  const form = $("#rule-cards");
  const cards = state.lobby?.rule_cards;
  if (!cards || state.seat === null) {
    show(form, false);
    state.ruleEditorCount = -1;
    return;
  }
  show(form);
  const mine = cards.mine ?? [];
  if (state.ruleEditorCount !== cards.count) {
    state.ruleEditorCount = cards.count;
    const box = $("#rule-inputs");
    box.replaceChildren();
    const suggested = Array.isArray(cards.suggestions) ? cards.suggestions.filter((text) => typeof text === "string") : [];
    const placeholders = suggested.length ? suggested : RULE_PLACEHOLDERS;
    for (let index = 0; index < cards.count; index += 1) {
      const input = el("input", {
        type: "text",
        maxlength: 120,
        name: `rule-${index}`,
        placeholder: placeholders[index % placeholders.length],
        "aria-label": `Rule card ${index + 1}`,
      });
      input.value = mine[index]?.text ?? "";
      input.addEventListener("input", () => scheduleReading(index));
      const reading = el("p", { class: "reading muted", dataset: { index }, "aria-live": "polite" });
      box.append(el("div", { class: "rule-input" }, el("label", {}, `Card ${index + 1}`, " ", input), reading));
      if (mine[index]) showReading(index, mine[index].text, mine[index].reading, mine[index].enforced);
    }
  }
  const status = $("#rule-status");
  if (mine.length) {
    status.textContent = `Submitted ${mine.length} rule card${mine.length === 1 ? "" : "s"}. You may change them until the start.`;
  }
}

const readTimers = new Map();

function scheduleReading(index) {
  clearTimeout(readTimers.get(index));
  readTimers.set(
    index,
    setTimeout(() => {
      const input = $(`#rule-inputs [name=rule-${index}]`);
      const text = input.value;
      if (!text.trim()) return showReading(index, "", "", null);
      if (conn.send({ type: "read_rule", text }, true)) state.expect.push({ kind: "read", index, text });
      return undefined;
    }, READ_DELAY_MS),
  );
}

function onReading(message) {
  const position = state.expect.findIndex((entry) => entry.kind === "read");
  const expected = position >= 0 ? state.expect.splice(position, 1)[0] : null;
  if (!expected) return;
  showReading(expected.index, expected.text, message.reading, message.enforced);
}

/** Show how a rule card is read; `enforced` null means an error message or nothing. */
function showReading(index, text, reading, enforced) {
  const input = $(`#rule-inputs [name=rule-${index}]`);
  const node = $(`#rule-inputs .reading[data-index="${index}"]`);
  if (!input || !node) return;
  if (text && input.value !== text && input.value.trim() !== text.trim()) return; // outdated reply
  node.className = `reading ${enforced === true ? "enforced" : enforced === false ? "honour" : text ? "bad" : "muted"}`;
  if (!text) {
    node.textContent = "";
    return;
  }
  const head = enforced === true ? "Enforced" : enforced === false ? "Honour task" : "Cannot be written";
  node.replaceChildren(el("strong", { text: `${head}: ` }), readingBody(reading));
}

/** A reading without its leading "enforced:" / "honour task:" (shown as a heading instead). */
function readingBody(reading) {
  return String(reading ?? "").replace(/^(enforced|honour task):\s*/i, "");
}

function onSubmitRules(event) {
  event.preventDefault();
  const count = state.lobby?.rule_cards?.count ?? 0;
  const texts = [];
  for (let index = 0; index < count; index += 1) {
    const input = $(`#rule-inputs [name=rule-${index}]`);
    const text = input.value.trim() || input.placeholder;
    input.value = text;
    texts.push(text);
  }
  if (!conn.send({ type: "rule_cards", texts })) return;
  state.expect.push({ kind: "submit" });
  $("#rule-status").textContent = "Submitting…";
  // the lobby message that follows confirms; drop the expectation then
  setTimeout(() => {
    const position = state.expect.findIndex((entry) => entry.kind === "submit");
    if (position >= 0) state.expect.splice(position, 1);
  }, 3000);
}

async function copyInvite() {
  const input = $("#invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    toast("Invite link copied.");
  } catch {
    // no clipboard API (a page served over plain http to another machine): copy the selection
    input.focus();
    input.select();
    const copied = document.execCommand?.("copy");
    toast(copied ? "Invite link copied." : "Select the link and copy it.");
  }
}

// ------------------------------------------------------------------ updates and events

function onUpdate(message) {
  const events = Array.isArray(message.events) ? message.events : [];
  const first = message.version - events.length;
  if (first > state.version) {
    // we missed events: ask for everything since our version, keep what we have meanwhile
    conn.send({ type: "sync", version: state.version }, true);
  }
  const fresh = events.filter((_, index) => first + index >= state.version);
  const live = !state.catchingUp;
  state.catchingUp = false;
  state.version = Math.max(state.version, message.version);
  state.view = message.view;
  state.legal = Array.isArray(message.legal) ? message.legal : [];
  state.asks = typeof message.asks === "string" ? message.asks : "";
  if (Array.isArray(message.seats)) state.seats = message.seats;
  if (typeof message.you === "number") state.seat = message.you;
  state.finished = Boolean(message.finished);
  state.busy = false;
  if (state.screen !== "table") setScreen("table");
  for (const event of fresh) onEvent(event, live);
  if (!live && state.finished && !state.resultsQueue.length) queueFinalResults(fresh);
  renderTable();
  showNextResult();
}

function onEvent(event, live) {
  addLog(event);
  switch (event.kind) {
    case "dealer":
      state.roundHands = [];
      state.eventRound = event.value;
      break;
    case "hand":
      state.roundHands.push(event);
      break;
    case "round_end":
      if (live || state.finished) {
        state.resultsQueue.push({ kind: "round", event, hands: state.roundHands.slice(), round: state.eventRound });
      }
      break;
    case "match_end":
      if (live || state.finished) {
        // the match result replaces a pending round result of the same round
        const last = state.resultsQueue[state.resultsQueue.length - 1];
        const hands = last?.kind === "round" ? last.hands : state.roundHands.slice();
        const roundEvent = last?.kind === "round" ? last.event : null;
        if (last?.kind === "round") state.resultsQueue.pop();
        state.resultsQueue.push({ kind: "match", event, hands, roundEvent });
      }
      break;
    case "lever":
      if (live) queueFx(() => leverFx(event));
      break;
    case "jam":
      if (live) queueFx(() => jamFx(event));
      break;
    case "rule":
      if (live) queueFx(() => ruleFx(event));
      break;
    default:
      break;
  }
}

function queueFinalResults(events) {
  // a finished match opened afresh: show its last results once
  const ended = events.some((event) => event.kind === "match_end");
  if (!ended && state.resultsQueue.length) return;
  if (!state.resultsQueue.length) {
    const matchEnd = [...events].reverse().find((event) => event.kind === "match_end");
    if (matchEnd) state.resultsQueue.push({ kind: "match", event: matchEnd, hands: state.roundHands.slice(), roundEvent: null });
  }
  state.resultsQueue = state.resultsQueue.slice(-1);
}

function addLog(event) {
  const text = typeof event.text === "string" ? event.text : "";
  if (!text) return;
  const list = $("#log");
  const item = el("li", { class: `log-${event.kind}`, text });
  list.append(item);
  while (list.childElementCount > MAX_LOG) list.firstElementChild.remove();
  const panel = list.parentElement;
  list.scrollTop = list.scrollHeight;
  if (panel) panel.scrollTop = panel.scrollHeight;
}

// ------------------------------------------------------------------ table rendering

const DIALOG_TITLES = {
  drawn: "You drew a card",
  colour: "Choose a colour",
  challenge: "A Wild Draw Four is played on you",
  discard: "Discard a card",
  target: "Choose a player",
  "lever-discard": "Discard up to one card of each colour",
  honour: "Honour task",
  give: "Give a card",
};
const HAND_PHASES = new Set(["turn", "rule-run"]);
/** The out-of-turn actions (the server's `legal[].type`): UNO calls and catches. */
const INTERRUPT_TYPES = new Set(["call_uno", "catch"]);

function ruleText(id) {
  const shown = state.view?.public?.rule_cards_shown ?? [];
  const entry = shown.find((item) => item[0] === id);
  return entry ? { text: entry[1], reading: entry[2] } : null;
}

function myDecisions() {
  return state.legal.filter((entry) => !INTERRUPT_TYPES.has(entry.type));
}

function renderTable() {
  const view = state.view;
  if (!view) return;
  renderOpponents(view);
  renderCentre(view);
  renderStatus(view);
  renderActions(view);
  renderHand(view);
  renderScores(view);
  renderRulesShown(view);
  renderDecision(view);
}

function seatOrder(view) {
  const order = [];
  const start = state.seat ?? -1;
  for (let step = 1; step <= view.players; step += 1) {
    const seat = (start + step + view.players) % view.players;
    if (seat !== state.seat) order.push(seat);
  }
  return order;
}

function unoState(view, seat) {
  if (view.uncalled.includes(seat)) return "uncalled";
  return (view.called ?? []).includes(seat) ? "called" : null;
}

function renderOpponents(view) {
  const box = $("#opponents");
  box.replaceChildren();
  const catchable = new Map(
    state.legal.filter((entry) => entry.type === "catch").map((entry) => [entry.seat, entry]),
  );
  for (const seat of seatOrder(view)) {
    const info = state.seats.find((s) => s.seat === seat) ?? {};
    const count = view.hand_sizes[seat];
    const acting = view.phase !== "over" && view.actor === seat;
    const classes = ["seat", acting ? "acting" : "", info.away ? "away" : ""].filter(Boolean).join(" ");
    const backs = el("div", { class: "backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(count, 12); i += 1) backs.append(el("span", { class: "mini-back" }));
    const badges = [];
    if (info.kind === "bot") badges.push(el("span", { class: "badge kind-bot", text: "bot" }));
    if (info.away) badges.push(el("span", { class: "badge away", text: "away" }));
    if (seat === view.dealer) badges.push(el("span", { class: "badge", text: "dealer" }));
    const uno = unoState(view, seat);
    if (uno === "called") badges.push(el("span", { class: "badge uno", text: "UNO!" }));
    if (uno === "uncalled") badges.push(el("span", { class: "badge no-uno", text: "no UNO" }));
    const node = el(
      "div",
      { class: classes, dataset: { seat, count } },
      el("div", { class: "seat-head" }, el("span", { class: "seat-name", text: seatName(seat) }), el("span", { class: "badges" }, badges)),
      el(
        "div",
        { class: "seat-body" },
        backs,
        el("span", { class: "count", text: `${count} card${count === 1 ? "" : "s"}` }),
        el("span", { class: "seat-score muted", text: view.scoring === "single-round" ? "" : `${view.scores[seat]} pts` }),
      ),
    );
    const catchEntry = catchable.get(seat);
    if (catchEntry) {
      node.append(
        el("button", {
          type: "button",
          class: "catch",
          text: "Catch!",
          title: catchEntry.label,
          dataset: { action: catchEntry.action },
          disabled: state.busy,
          onclick: () => act(catchEntry.action),
        }),
      );
    }
    box.append(node);
  }
}

function renderCentre(view) {
  const top = $("#top-card");
  top.replaceChildren(cardNode(view.top_card, { extraClass: "top" }));
  $("#draw-count").textContent = `${view.draw_pile_size} to draw`;
  $("#discard-count").textContent = `${view.discard_pile_size} discarded`;
  const chip = $("#current-colour");
  const colour = COLOUR_NAMES[view.colour];
  chip.className = `colour-chip ${colour ? `c-${colour}` : "c-none"}`;
  chip.textContent = colour ? `Colour: ${colour}` : "No colour";
  $("#direction").textContent = view.direction >= 0 ? "↻ clockwise" : "↺ counter-clockwise";
  const scoring = view.scoring === "single-round" ? "single round" : `to ${view.target_score} · ${view.scoring}`;
  $("#round-info").textContent = `Round ${view.round} · ${scoring}`;
}

function renderStatus(view) {
  const status = $("#status");
  const mine = myDecisions();
  if (view.phase === "over" || state.finished) {
    const winner = view.winner >= 0 ? seatName(view.winner) : null;
    status.textContent = winner ? `Match over: ${winner === "You" ? "you win" : `${winner} wins`}.` : "Match over.";
  } else if (mine.length) {
    status.textContent = `Your move: ${state.asks || view.phase}.`;
  } else {
    status.textContent = `${seatName(view.actor)} to ${state.asks || view.phase}.`;
  }
  status.classList.toggle("mine", mine.length > 0);
}

function actionButton(entry, extraClass = "") {
  return el("button", {
    type: "button",
    class: `act ${extraClass}`.trim(),
    text: entry.label || entry.action,
    title: entry.action,
    dataset: { action: entry.action },
    disabled: state.busy,
    onclick: () => act(entry.action),
  });
}

function renderActions(view) {
  const box = $("#actions");
  box.replaceChildren();
  const handPhase = HAND_PHASES.has(view.phase);
  for (const entry of state.legal) {
    if (entry.card) continue; // cards are played from the hand
    if (entry.type === "call_uno") box.append(actionButton(entry, "uno-button"));
    else if (entry.type === "catch") box.append(actionButton(entry, "catch"));
    else if (handPhase) box.append(actionButton(entry, entry.type === "draw" ? "primary" : ""));
  }
}

function cardActions(card) {
  return state.legal.filter((entry) => entry.card === card);
}

function renderHand(view) {
  const area = $("#hand-area");
  const hand = $("#hand");
  if (state.spectator || state.seat === null) {
    hand.replaceChildren();
    show(area, false);
    show($("#spectating"));
    return;
  }
  show(area);
  show($("#spectating"), false);
  const cards = sortedHand(view.hand ?? []);
  const count = cards.length;
  const uno = unoState(view, state.seat);
  const score = view.scoring === "single-round" ? "" : ` · ${view.scores[state.seat]} pts`;
  $("#me-label").textContent = `${seatName(state.seat)} · ${count} card${count === 1 ? "" : "s"}${score}${
    uno === "called" ? " · UNO!" : uno === "uncalled" ? " · UNO not called!" : ""
  }`;
  if (state.selected >= count) state.selected = count - 1;
  const focused = document.activeElement?.closest?.("#hand") ? state.selected : -1;
  hand.replaceChildren();
  cards.forEach((card, index) => {
    const actions = cardActions(card);
    const classes = [actions.length ? "playable" : "", index === state.selected ? "selected" : ""].join(" ");
    const node = cardNode(card, {
      extraClass: classes,
      onclick: () => {
        state.selected = index;
        playCard(card);
      },
    });
    node.dataset.index = String(index);
    if (!actions.length) node.setAttribute("aria-disabled", "true");
    if (state.busy) node.disabled = true;
    hand.append(node);
  });
  if (focused >= 0 && hand.children[focused]) hand.children[focused].focus();
}

function playCard(card) {
  const actions = cardActions(card);
  if (!actions.length) return toast(`${cardLongName(card)} cannot be played now.`);
  if (actions.length === 1) return act(actions[0].action);
  // several ways to play it (e.g. play, or play and call UNO): ask, UNO first
  const ordered = [...actions].sort((a, b) => Number(b.type === "play_uno") - Number(a.type === "play_uno"));
  openChoice(`Play ${cardLongName(card)}`, "", ordered);
  return undefined;
}

/** A dialog of choices opened by the player (not by the phase). */
let choiceOpen = null;

function openChoice(title, detail, entries) {
  choiceOpen = { title, detail, entries };
  renderDecision(state.view);
}

function renderDecision(view) {
  const box = $("#decision");
  const mine = myDecisions();
  let title = "";
  let detail = "";
  let entries = [];
  let cancel = false;
  if (view && !HAND_PHASES.has(view.phase) && mine.length && !state.spectator) {
    choiceOpen = null;
    title = DIALOG_TITLES[view.phase] ?? capitalize(state.asks || view.phase);
    detail = decisionDetail(view);
    entries = state.legal; // the phase's choices plus UNO / catch, which stay open meanwhile
  } else if (choiceOpen && mine.length) {
    ({ title, detail, entries } = choiceOpen);
    const legalNow = new Set(state.legal.map((entry) => entry.action));
    entries = entries.filter((entry) => legalNow.has(entry.action));
    cancel = true;
    if (!entries.length) choiceOpen = null;
  } else {
    choiceOpen = null;
  }
  document.body.classList.toggle("has-decision", entries.length > 0);
  if (!entries.length) {
    show(box, false);
    box.dataset.key = "";
    return;
  }
  const key = JSON.stringify([title, detail, entries.map((entry) => entry.action), state.busy]);
  if (!box.hidden && box.dataset.key === key) return;
  box.dataset.key = key;
  box.dataset.phase = view?.phase ?? "";
  $("#decision-title").textContent = title;
  $("#decision-detail").textContent = detail;
  show($("#decision-detail"), Boolean(detail));
  const options = $("#decision-options");
  options.replaceChildren();
  entries.forEach((entry, index) => options.append(decisionButton(entry, index)));
  if (cancel) {
    options.append(
      el("button", {
        type: "button",
        class: "act cancel",
        text: "Cancel",
        onclick: () => {
          choiceOpen = null;
          renderDecision(state.view);
        },
      }),
    );
  }
  show(box);
  const firstButton = $("button:not([disabled])", options);
  if (firstButton && !document.activeElement?.matches?.("input, textarea, select")) firstButton.focus();
}

function decisionButton(entry, index) {
  const action = entry.action;
  const number = index < 9 ? `${index + 1}` : "";
  const label = entry.label || action;
  const props = {
    type: "button",
    class: "act option",
    title: action,
    dataset: { action, key: number },
    disabled: state.busy,
    onclick: () => {
      choiceOpen = null;
      act(action);
    },
  };
  if (entry.colour) {
    const colour = COLOUR_NAMES[entry.colour] ?? "";
    props.class += ` colour-option c-${colour}`;
    return el("button", props, el("span", { class: "key", text: number }), label);
  }
  if (entry.card) {
    return el("button", props, el("span", { class: "key", text: number }), cardNode(entry.card, { small: true }), label);
  }
  if (entry.type === "call_uno") props.class += " uno-button";
  if (entry.type === "catch") props.class += " catch";
  return el("button", props, el("span", { class: "key", text: number }), label);
}

function decisionDetail(view) {
  const detail = phaseDetail(view);
  const decision = view.decision ?? {};
  const ruleShown = view.phase === "honour" || (view.phase === "target" && decision.target_rule >= 0);
  const rule = !ruleShown && decision.rule >= 0 ? ruleText(decision.rule) : null;
  return rule ? `${detail} Rule card: “${rule.text}” (${rule.reading})`.trim() : detail;
}

function phaseDetail(view) {
  const decision = view.decision ?? {};
  switch (view.phase) {
    case "challenge":
      return decision.bluffer >= 0 ? `${seatName(decision.bluffer)} played it.` : "";
    case "discard":
      return decision.discards_left ? `${decision.discards_left} left to discard.` : "";
    case "give":
      return decision.give_to >= 0 ? `To ${seatName(decision.give_to)}: ${decision.give_left} left to give.` : "";
    case "target":
    case "honour": {
      const id = view.phase === "honour" ? decision.rule : decision.target_rule;
      const rule = id >= 0 ? ruleText(id) : null;
      return rule ? `Rule card: “${rule.text}” (${rule.reading})` : "";
    }
    default:
      return "";
  }
}

function renderScores(view) {
  const body = $("#scoreboard tbody");
  body.replaceChildren();
  for (let seat = 0; seat < view.players; seat += 1) {
    const row = el(
      "tr",
      { class: seat === state.seat ? "me" : "" },
      el("td", { text: seatName(seat) }),
      el("td", {
        class: "num",
        text:
          view.scoring === "single-round"
            ? `${view.hand_sizes[seat]} card${view.hand_sizes[seat] === 1 ? "" : "s"}`
            : view.scores[seat],
      }),
    );
    body.append(row);
  }
}

function renderRulesShown(view) {
  const panel = $("#rules-shown-panel");
  const publicInfo = view.public ?? {};
  if (!("rule_cards_shown" in publicInfo)) {
    show(panel, false);
    return;
  }
  show(panel);
  $("#dispenser").textContent = `${publicInfo.rule_cards_in_dispenser ?? 0} in the dispenser, ${
    publicInfo.rule_cards_used ?? 0
  } used.`;
  const list = $("#rules-shown");
  list.replaceChildren();
  for (const [, text, reading] of publicInfo.rule_cards_shown) {
    const enforced = String(reading).startsWith("enforced");
    list.append(
      el(
        "li",
        { class: enforced ? "enforced" : "honour" },
        el("span", { class: "rule-text", text: `“${text}”` }),
        el("span", { class: "rule-reading", text: String(reading) }),
      ),
    );
  }
}

// ------------------------------------------------------------------ animations

const fx = { queue: [], running: false };

function queueFx(run) {
  if (fx.queue.length >= 3) fx.queue.shift();
  fx.queue.push(run);
  if (!fx.running) runFx();
}

async function runFx() {
  fx.running = true;
  const box = $("#fx");
  while (fx.queue.length) {
    const run = fx.queue.shift();
    try {
      await run(box);
    } catch {
      // an animation never stops the game
    }
  }
  show(box, false);
  box.replaceChildren();
  fx.running = false;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

async function leverFx(event) {
  const box = $("#fx");
  const outcomes = state.view?.public?.lever_outcomes ?? LEVER_ORDER;
  const outcome = outcomes[event.value - 1] ?? "";
  const reel = el("div", { class: "reel" });
  box.replaceChildren(el("div", { class: "fx-card lever" }, el("div", { class: "fx-title", text: "The lever spins…" }), reel));
  box.dataset.kind = "lever";
  show(box);
  if (!reducedMotion()) {
    for (let i = 0; i < 12; i += 1) {
      reel.textContent = LEVER_LABELS[outcomes[i % outcomes.length]] ?? outcomes[i % outcomes.length];
      await sleep(60 + i * 8);
    }
  }
  reel.textContent = LEVER_LABELS[outcome] ?? outcome;
  reel.classList.add("settled");
  box.querySelector(".fx-title").textContent = "The lever stops on";
  box.firstElementChild.append(el("p", { class: "fx-text", text: event.text ?? "" }));
  await sleep(1300);
}

async function jamFx(event) {
  const box = $("#fx");
  const slam = event.value === 1;
  const card = cardNode("WJ", { extraClass: `dropping ${slam ? "slam" : "uno-side"}` });
  box.replaceChildren(
    el(
      "div",
      { class: "fx-card jam" },
      el("div", { class: "fx-title", text: "The Jam card drops…" }),
      card,
      el("div", { class: "fx-side", text: slam ? "SLAM! Discard" : "UNO side up: draw" }),
      el("p", { class: "fx-text", text: event.text ?? "" }),
    ),
  );
  box.dataset.kind = "jam";
  show(box);
  await sleep(reducedMotion() ? 900 : 1600);
}

async function ruleFx(event) {
  const box = $("#fx");
  const rule = ruleText(event.value);
  box.replaceChildren(
    el(
      "div",
      { class: `fx-card rule ${rule && String(rule.reading).startsWith("enforced") ? "enforced" : "honour"}` },
      el("div", { class: "fx-title", text: `${seatName(event.seat)} ${event.seat === state.seat ? "perform" : "performs"} a rule card` }),
      el("div", { class: "rule-text", text: rule ? `“${rule.text}”` : "" }),
      el("div", { class: "rule-reading", text: rule ? rule.reading : "" }),
    ),
  );
  box.dataset.kind = "rule";
  show(box);
  await sleep(1800);
}

// ------------------------------------------------------------------ round and match results

function showNextResult() {
  const overlay = $("#results");
  if (!overlay.hidden || !state.resultsQueue.length) return;
  const result = state.resultsQueue.shift();
  const match = result.kind === "match";
  const roundEvent = match ? result.roundEvent : result.event;
  const winner = result.event.seat;
  const winnerName = seatName(winner);
  const youWin = winner === state.seat;
  const roundWinner = roundEvent ? seatName(roundEvent.seat) : winnerName;
  const roundLine = roundEvent
    ? `${roundWinner === "You" ? "You win" : `${roundWinner} wins`} the round${
        roundEvent.value ? ` and ${roundWinner === "You" ? "score" : "scores"} ${roundEvent.value} points` : ""
      }.`
    : "";
  if (match) {
    const rounds = result.event.value;
    $("#results-title").textContent = `${youWin ? "You win" : `${winnerName} wins`} the match!`;
    $("#results-sub").textContent = `${roundLine} The match took ${rounds} round${rounds === 1 ? "" : "s"}.`.trim();
  } else {
    $("#results-title").textContent = `Round ${result.round ?? ""} is over`;
    $("#results-sub").textContent = roundLine;
  }
  overlay.dataset.kind = result.kind;
  const hands = $("#results-hands tbody");
  hands.replaceChildren();
  for (const hand of result.hands) {
    const cards = Array.isArray(hand.cards) ? sortedHand(hand.cards) : [];
    hands.append(
      el(
        "tr",
        {},
        el("th", { text: seatName(hand.seat) }),
        el("td", { class: "result-cards" }, cards.length ? cards.map((card) => cardNode(card, { small: true })) : "out"),
        el("td", { class: "num", text: `${hand.value} pts` }),
      ),
    );
  }
  show($("#results-hands"), result.hands.length > 0);
  const scores = result.event.scores ?? roundEvent?.scores ?? state.view?.scores ?? [];
  const body = $("#results-scores tbody");
  body.replaceChildren();
  scores.forEach((score, seat) => {
    body.append(el("tr", { class: seat === winner ? "winner" : "" }, el("td", { text: seatName(seat) }), el("td", { class: "num", text: score })));
  });
  const replay = $("#results-replay");
  replay.href = `/r/${state.code}?replay`;
  show(replay, match);
  show($("#results-new"), match);
  $("#results-close").textContent = match ? "Close" : "Continue";
  show(overlay);
  $("#results-close").focus();
}

function closeResults() {
  show($("#results"), false);
  showNextResult();
  if ($("#results").hidden) {
    const first = $("#decision:not([hidden]) button") ?? $("#hand .card.playable") ?? $("#actions button");
    first?.focus();
  }
}

// ------------------------------------------------------------------ keyboard

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.matches("input, textarea, select")) return;
  if (!$("#results").hidden) {
    if (event.key === "Escape") {
      event.preventDefault();
      closeResults();
    }
    return;
  }
  if (state.screen === "replay") return replayKey(event);
  if (state.screen !== "table" || !state.view) return;
  const decision = $("#decision");
  const key = event.key;
  if (!decision.hidden) {
    if (/^[1-9]$/.test(key)) {
      const button = $(`#decision-options button[data-key="${key}"]`);
      if (button && !button.disabled) {
        event.preventDefault();
        button.click();
      }
      return;
    }
    if (key === "Escape" && choiceOpen) {
      choiceOpen = null;
      renderDecision(state.view);
      return;
    }
    if (key === "ArrowDown" || key === "ArrowUp" || key === "ArrowLeft" || key === "ArrowRight") {
      const buttons = $$("#decision-options button:not([disabled])");
      const index = buttons.indexOf(document.activeElement);
      const step = key === "ArrowDown" || key === "ArrowRight" ? 1 : -1;
      buttons[(index + step + buttons.length) % buttons.length]?.focus();
      event.preventDefault();
      return;
    }
  }
  const cards = $$("#hand .card");
  const lower = key.toLowerCase();
  if (key === "ArrowLeft" || key === "ArrowRight") {
    if (!cards.length) return;
    const step = key === "ArrowRight" ? 1 : -1;
    state.selected = state.selected < 0 ? (step > 0 ? 0 : cards.length - 1) : (state.selected + step + cards.length) % cards.length;
    selectCard(cards);
    event.preventDefault();
  } else if (/^[0-9]$/.test(key) && decision.hidden) {
    const index = key === "0" ? 9 : Number(key) - 1;
    if (index < cards.length) {
      state.selected = index;
      selectCard(cards);
      event.preventDefault();
    }
  } else if (key === "Enter" && decision.hidden) {
    if (target instanceof HTMLButtonElement && !target.closest("#hand")) return; // a focused button clicks itself
    if (target instanceof HTMLElement && target.closest("#hand .card")) state.selected = Number(target.dataset.index);
    const card = cards[state.selected];
    if (card) {
      event.preventDefault();
      playCard(card.dataset.card);
    }
  } else if (lower === "d" || lower === "p" || lower === "u" || lower === "c") {
    const wanted = { d: "draw", p: "pass", u: "call_uno", c: "catch" }[lower];
    const entry = state.legal.find((item) => item.type === wanted);
    if (entry) {
      event.preventDefault();
      choiceOpen = null;
      act(entry.action);
    }
  }
}

function selectCard(cards) {
  cards.forEach((card, index) => card.classList.toggle("selected", index === state.selected));
  cards[state.selected]?.focus();
}

// ------------------------------------------------------------------ replay
//
// A finished match, move by move: for each step the server answers the table as a spectator saw
// it after that many actions (`GET /api/rooms/CODE/replay/STEP`: the view, the events of that step
// in words, the seats), and the page draws it with the table's own rendering.  No hand is ever
// shown, and the page knows no rules: it only asks for steps.

const REPLAY_CACHE = 400; // steps kept in the page
const REPLAY_LOG_STEPS = 40; // steps told in the log, up to the current one

const replay = { code: null, step: 0, steps: 0, wanted: 0, cache: new Map(), sliderTimer: 0, meta: false };

function startReplay(code) {
  state.code = code;
  conn.wanted = false;
  state.spectator = true;
  state.seat = null;
  state.legal = [];
  state.resultsQueue = [];
  replay.code = code;
  replay.cache.clear();
  replay.meta = false;
  setScreen("replay");
  document.body.classList.add("replaying");
  show($("#table"), false);
  $("#replay-code").textContent = code;
  $("#replay-pos").textContent = "Loading…";
  return replayGo(0);
}

async function replayStep(step) {
  const cached = replay.cache.get(step);
  if (cached) return cached;
  const response = await fetch(`/api/rooms/${encodeURIComponent(replay.code)}/replay/${step}`);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  replay.cache.set(step, data);
  if (replay.cache.size > REPLAY_CACHE) replay.cache.delete(replay.cache.keys().next().value);
  return data;
}

/** Show step `step` (clamped to the match), once the server has answered; a later request wins. */
async function replayGo(step) {
  const last = replay.meta ? replay.steps : Infinity;
  const wanted = Math.max(0, Math.min(last, Math.trunc(step) || 0));
  replay.wanted = wanted;
  let data;
  try {
    data = await replayStep(wanted);
  } catch (error) {
    if (replay.wanted === wanted) {
      const box = $("#replay-error");
      box.textContent = `No replay: ${error.message}`;
      show(box);
      $("#replay-pos").textContent = "";
    }
    return;
  }
  if (replay.wanted === wanted && state.screen === "replay") renderReplay(data);
}

function renderReplay(data) {
  replay.step = data.step;
  replay.steps = data.steps;
  show($("#replay-error"), false);
  if (!replay.meta) {
    replay.meta = true;
    const names = (data.seats ?? []).map((seat) => seat.name);
    $("#replay-meta").textContent = `${editionTitle(data.edition)} · ${names.length} players: ${names.join(
      ", ",
    )} · ${data.steps} moves`;
  }
  $("#replay-pos").textContent = `step ${data.step} of ${data.steps}`;
  const slider = $("#replay-slider");
  slider.max = String(data.steps);
  slider.value = String(data.step);
  $("#replay-first").disabled = $("#replay-prev").disabled = data.step <= 0;
  $("#replay-next").disabled = $("#replay-last").disabled = data.step >= data.steps;
  const told = (data.events ?? [])
    .map((event) => (typeof event.text === "string" ? event.text.trim() : ""))
    .filter(Boolean)
    .map((text) => (/[.!?]$/.test(text) ? text : `${text}.`));
  $("#replay-action").textContent = told.length ? told.join(" ") : data.step ? "" : "The cards are dealt.";
  state.view = data.view;
  state.seats = Array.isArray(data.seats) ? data.seats : [];
  state.finished = Boolean(data.finished);
  state.legal = [];
  state.asks = typeof data.asks === "string" ? data.asks : "";
  state.busy = false;
  show($("#table"));
  renderTable();
  $("#spectating").textContent = "Replay: the table as the spectators saw it. No hand is shown.";
  renderReplayLog(data.step);
}

/** The log: the events of the steps before this one that the page holds, then this step's, marked. */
function renderReplayLog(step) {
  const items = [];
  for (let at = step; at >= 0 && at > step - REPLAY_LOG_STEPS; at -= 1) {
    const data = replay.cache.get(at);
    if (!data) break;
    const lines = (data.events ?? []).filter((event) => typeof event.text === "string" && event.text);
    items.unshift(
      ...lines.map((event) =>
        el("li", { class: `log-${event.kind}${at === step ? " current" : ""}`, dataset: { step: at }, text: event.text }),
      ),
    );
  }
  const list = $("#log");
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
  const panel = list.parentElement;
  if (panel) panel.scrollTop = panel.scrollHeight;
}

function replaySlide() {
  clearTimeout(replay.sliderTimer);
  const value = Number($("#replay-slider").value);
  replay.sliderTimer = setTimeout(() => replayGo(value), 40);
}

function replayKey(event) {
  const moves = { ArrowRight: replay.wanted + 1, ArrowLeft: replay.wanted - 1, Home: 0, End: replay.steps };
  if (event.key in moves) {
    event.preventDefault();
    replayGo(moves[event.key]);
  }
}

// ------------------------------------------------------------------ start-up

function route() {
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  const room = path.match(/^\/r\/([^/]+)\/?$/);
  const replayPath = path.match(/^\/replay\/([^/]+)\/?$/);
  if (replayPath) return startReplay(decodeURIComponent(replayPath[1]));
  if (room) {
    const code = decodeURIComponent(room[1]);
    if (params.has("replay")) return startReplay(code);
    if (params.has("watch")) return watch(code);
    return enterRoom(code);
  }
  return showStart();
}

function bind() {
  $("#create-form").addEventListener("submit", onCreate);
  $("#create-form [name=edition]").addEventListener("change", filterRuleFields);
  $("#join-code-form").addEventListener("submit", onJoinCode);
  $("#watch-code").addEventListener("click", () => {
    const code = cleanCode($("#join-code-form [name=code]").value);
    if (code) watch(code);
    else toast("Write the room code.");
  });
  $("#join-form").addEventListener("submit", onJoin);
  $("#watch").addEventListener("click", () => watch(state.code));
  $("#replay-button").addEventListener("click", () => {
    history.pushState(null, "", `/r/${state.code}?replay`);
    startReplay(state.code);
  });
  $("#copy-invite").addEventListener("click", copyInvite);
  $("#fill-bots").addEventListener("click", fillBots);
  $("#start-game").addEventListener("click", () => conn.send({ type: "start" }));
  $("#rule-cards").addEventListener("submit", onSubmitRules);
  $("#results-close").addEventListener("click", closeResults);
  $("#replay-first").addEventListener("click", () => replayGo(0));
  $("#replay-prev").addEventListener("click", () => replayGo(replay.wanted - 1));
  $("#replay-next").addEventListener("click", () => replayGo(replay.wanted + 1));
  $("#replay-last").addEventListener("click", () => replayGo(replay.steps));
  $("#replay-slider").addEventListener("input", replaySlide);
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", () => location.reload());
  window.addEventListener("online", () => conn.wanted && conn.ensure());
}

bind();
route();
loadOptions()
  .then(() => {
    if (state.screen === "lobby") renderLobby();
  })
  .catch(() => {});
