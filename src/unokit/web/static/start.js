// The start page (create a room, join one by code) and the join page of /r/CODE; the rule options form.

import { $, $$, el, show, toast } from "./dom.js";
import { state, editionTitle, storedSeat, rememberName, savedName, setScreen } from "./state.js";
import { conn, startConnection } from "./connection.js";

/** @typedef {import("./state.js").Options} Options */
/** @typedef {import("./state.js").OptionSpec} OptionSpec */
/** @typedef {Omit<HTMLFormElement, "name"> & {name: HTMLInputElement} & Record<string, any>} Form a form with its named fields */

/**
 * @param {EventTarget | null} node a form
 * @returns {Form}
 */
const asForm = (node) => /** @type {Form} */ (/** @type {unknown} */ (node));

/** The game options of `/api/options`, fetched once. */
export async function loadOptions() {
  if (state.options) return state.options;
  const response = await fetch("/api/options");
  if (!response.ok) throw new Error(`options: HTTP ${response.status}`);
  state.options = /** @type {Options} */ (await response.json());
  return state.options;
}

/** @type {Record<string, string>} */
export const OPTION_LABELS = {
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
/** @type {Record<string, string>} */
export const LEVER_LABELS = {
  "choose-player": "A player of your choice",
  right: "The player on your right",
  left: "The player on your left",
  everyone: "Everyone",
  "discard-colours": "Discard one of each colour",
  "draw-four": "Draw four",
};
export const LEVER_ORDER = ["choose-player", "right", "left", "everyone", "discard-colours", "draw-four"];
const FIXED_OPTIONS = new Set(["target_score", "scoring", "deck"]);

/** @param {string} name an option's name, as words */
export function humanize(name) {
  const text = name.replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * @param {Options} options
 * @returns {[string, OptionSpec][]}
 */
function optionSpecs(options) {
  return Object.entries(options.rules ?? {}).filter(([name]) => !FIXED_OPTIONS.has(name));
}

/**
 * The editions an option matters in (from /api/options), or null for every edition.
 * @param {OptionSpec} spec
 * @returns {string[] | null}
 */
export function optionEditions(spec) {
  return Array.isArray(spec.editions) ? spec.editions : null;
}

/** @param {Options} options */
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
        const option = /** @type {HTMLOptionElement} */ (el("option", { value: JSON.stringify(choice), text: String(choice) }));
        if (JSON.stringify(choice) === JSON.stringify(def)) option.selected = true;
        select.append(option);
      }
      wrap.append(el("label", {}, label, " ", select));
    } else if (typeof def === "boolean" || spec.type === "bool") {
      const box2 = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", name: `rule.${name}` }));
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

/** Show the rule fields that matter in the chosen edition. */
function filterRuleFields() {
  const edition = /** @type {HTMLSelectElement} */ ($("#create-form [name=edition]")).value;
  for (const field of $$("#rule-fields .rule-field")) {
    const editions = field.dataset.editions;
    show(field, !editions || editions.split(" ").includes(edition));
  }
}

/**
 * The rules of the create form that differ from the defaults.
 * @param {Form} form
 * @param {Options} options
 * @returns {Record<string, unknown>}
 */
function collectRules(form, options) {
  /** @type {Record<string, unknown>} */
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
    const name = /** @type {string} */ (field.dataset.option);
    const spec = /** @type {Record<string, OptionSpec>} */ (options.rules)[name];
    let value;
    const select = /** @type {HTMLSelectElement | null} */ ($("select", field));
    const inputs = /** @type {HTMLInputElement[]} */ ($$("input", field));
    if (select) value = JSON.parse(select.value);
    else if (inputs.length === 1 && inputs[0].type === "checkbox") value = inputs[0].checked;
    else if (inputs.length > 1) value = inputs.map((input) => Number(input.value));
    else if (inputs.length === 1) value = Number(inputs[0].value);
    if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) continue;
    if (JSON.stringify(value) !== JSON.stringify(spec.default)) rules[name] = value;
  }
  return rules;
}

/** The start page: create a room or join one. */
export async function showStart() {
  state.code = null;
  setScreen("start");
  const form = asForm($("#create-form"));
  if (!form.name.value) form.name.value = savedName();
  const joinForm = asForm($("#join-code-form"));
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
    const option = /** @type {HTMLOptionElement} */ (el("option", { value: choice, text: choice }));
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

/** @param {SubmitEvent} event */
function onCreate(event) {
  event.preventDefault();
  const form = asForm(event.currentTarget);
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

/**
 * A room code, from the code itself or an invite link.
 * @param {string} text
 */
export function cleanCode(text) {
  const trimmed = text.trim();
  const match = trimmed.match(/\/r\/([^/?#\s]+)/);
  return (match ? match[1] : trimmed).trim();
}

/** @param {SubmitEvent} event */
function onJoinCode(event) {
  event.preventDefault();
  const form = asForm(event.currentTarget);
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

/**
 * Watch room `code` as a spectator.
 * @param {string} code
 */
export function watch(code) {
  state.code = code;
  state.spectator = true;
  state.secret = null;
  state.version = 0;
  history.replaceState(null, "", `/r/${code}?watch`); // a reload keeps watching
  startConnection({ type: "spectate", code, version: 0 });
}

/**
 * The join page of room `code`: join with a name, watch, or replay.
 * @param {string} code
 */
export function showJoin(code) {
  state.code = code;
  setScreen("join");
  $("#join-code").textContent = code;
  const form = asForm($("#join-form"));
  if (!form.name.value) form.name.value = savedName();
}

/** @param {SubmitEvent} event */
function onJoin(event) {
  event.preventDefault();
  const name = asForm(event.currentTarget).name.value.trim();
  if (!name) return toast("Write your name first.");
  rememberName(name);
  startConnection({ type: "join", code: state.code, name });
  return undefined;
}

/**
 * Open /r/CODE: resume the stored seat, or offer to join or watch.
 * @param {string} code
 */
export function enterRoom(code) {
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

/** Wire the start and join pages' forms (the join page's Replay button is wired by app.js). */
export function bindStart() {
  $("#create-form").addEventListener("submit", onCreate);
  $("#create-form [name=edition]").addEventListener("change", filterRuleFields);
  $("#join-code-form").addEventListener("submit", onJoinCode);
  $("#watch-code").addEventListener("click", () => {
    const code = cleanCode(/** @type {HTMLInputElement} */ ($("#join-code-form [name=code]")).value);
    if (code) watch(code);
    else toast("Write the room code.");
  });
  $("#join-form").addEventListener("submit", onJoin);
  $("#watch").addEventListener("click", () => watch(/** @type {string} */ (state.code)));
}
