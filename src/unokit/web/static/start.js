// The start page (the editions, "Play now against bots", the room form, the public rooms, join by
// code), the join page of /r/CODE (join, take a bot's seat, watch or replay, as the room allows) and
// the words every option is shown with.

import { $, $$, MARK, el, show, textAround, toast } from "./dom.js";
import { state, editionTitle, storedSeat, rememberName, savedName, setScreen, stored } from "./state.js";
import { conn, startConnection, SERVER_LANGUAGES_KEY } from "./connection.js";
import { cardNode } from "./cards.js";
import { capitalize } from "./labels.js";
import { language, setTerms, t } from "./i18n.js";

/** @typedef {Omit<HTMLFormElement, "name"> & {name: HTMLInputElement} & Record<string, any>} Form a form with its named fields */

/** @param {EventTarget | null} node a form */
const asForm = (node) => /** @type {Form} */ (/** @type {unknown} */ (node));

/** Between two refreshes of the public rooms. */
const PUBLIC_REFRESH_MS = 4000;
const QUICK_SEATS = 4;

/** @type {{lang: string, answer: Promise<Options>} | null} the request of /api/options under way */
let optionsLoading = null;

/** @param {string} lang */
async function fetchOptions(lang) {
  // eslint-disable-next-line no-restricted-syntax -- an address, not words
  const response = await fetch(`/api/options?lang=${lang}`);
  // eslint-disable-next-line no-restricted-syntax -- for developers, in the console, not words
  if (!response.ok) throw new Error(`options: HTTP ${response.status}`);
  return /** @type {Options} */ (await response.json());
}

/**
 * The game options of `/api/options` in the page's language, fetched once per language; their card
 * terms go to i18n.js, the languages the server speaks are remembered (connection.js, boot.js).
 * @returns {Promise<Options>}
 */
export async function loadOptions() {
  if (state.options) return state.options;
  const lang = language();
  if (optionsLoading?.lang !== lang) optionsLoading = { lang, answer: fetchOptions(lang) };
  const loading = optionsLoading;
  const options = await loading.answer.finally(() => {
    if (optionsLoading === loading) optionsLoading = null;
  });
  if (lang !== language()) return loadOptions(); // the language changed meanwhile
  if (state.options) return state.options;
  state.options = options;
  setTerms(options.terms);
  if (Array.isArray(options.languages)) {
    stored((storage) => storage.setItem(SERVER_LANGUAGES_KEY, JSON.stringify(options.languages)), undefined);
  }
  return options;
}

// --- words

/** Three cards to show for each edition (its sentence comes from the server). */
/** @type {Record<string, string[]>} */
const EDITION_CARDS = {
  classic: ["R7", "YR", "W+4"],
  "wild-jackpot": ["G$", "B5", "W$"],
  "space-jam": ["O4", "BS", "WJ"],
  "all-wild": ["WS2", "WT2", "WX"],
};

/** The message of the line of help under each room option (the rule options' come from the server). */
/** @type {Record<string, string>} */
const OPTION_HELP = {
  seats: "start.help.seats",
  bot: "start.help.bot",
  timer: "start.help.timer",
  public: "start.help.public",
  late_join: "start.help.late_join",
};

/** The messages of each bot level: in the form, and the lobby's "Normal bots". */
/** @type {Record<string, {label: string, bots: string}>} */
const BOT_WORDS = {
  random: { label: "start.bot.random", bots: "lobby.bots.random" },
  heuristic: { label: "start.bot.heuristic", bots: "lobby.bots.heuristic" },
  ismcts: { label: "start.bot.ismcts", bots: "lobby.bots.ismcts" },
  learned: { label: "start.bot.learned", bots: "lobby.bots.learned" },
};

/** The presets' names (the server's ids). */
/** @type {Record<string, string>} */
const PRESET_NAMES = {
  official: "start.preset.official",
  house: "start.preset.house",
  party: "start.preset.party",
  "no-mercy": "start.preset.no_mercy",
  teams: "start.preset.teams",
  chaos: "start.preset.chaos",
};

/** The room form's fields with a line of help under them. */
const HELPED_FIELDS = ["seats", "scoring", "target_score", "bot", "timer", "public", "late_join"];
const TIMER_CHOICES = [0, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300];
const FIXED_OPTIONS = new Set(["target_score", "scoring", "deck"]);

/** @param {string} name an option's name, as words */
function humanize(name) {
  return capitalize(name.replaceAll("_", " ").replaceAll("-", " "));
}

/**
 * A rule option's label, as the server words it.
 * @param {string} name
 */
const optionLabel = (name) => state.options?.rules?.[name]?.label ?? humanize(name);

/**
 * One of a rule option's choices in words, as the server words it.
 * @param {string} name
 * @param {unknown} choice
 */
const choiceLabel = (name, choice) => state.options?.rules?.[name]?.choice_labels?.[String(choice)] ?? humanize(String(choice));

/**
 * What item `index` of a rule option holding several numbers is for (the lever's outcomes).
 * @param {string} name
 * @param {number} index
 */
const itemLabel = (name, index) => Object.values(state.options?.rules?.[name]?.choice_labels ?? {})[index] ?? `#${index + 1}`;

/**
 * A bot level in words: the form's label, or the lobby's "Normal bots" (`bots`).
 * @param {string | undefined} level
 */
export function botLabel(level, bots = false) {
  const words = BOT_WORDS[level ?? "heuristic"];
  return words ? t(bots ? words.bots : words.label) : humanize(level ?? "");
}

/** @param {number} seconds */
function timerLabel(seconds) {
  if (!seconds) return t("start.timer.off");
  if (seconds % 60 === 0) return t("start.timer.minutes", { count: seconds / 60 });
  return t("start.timer.seconds", { count: seconds });
}

/**
 * The room options in words (the lobby, the public rooms).
 * @param {RoomOptions | null | undefined} options
 */
export function optionsInWords(options) {
  if (!options) return [];
  return [
    options.timer ? t("start.options.timer", { timer: timerLabel(options.timer) }) : t("start.options.no_timer"),
    t(options.public ? "start.options.public" : "start.options.private"),
    t(options.late_join ? "start.options.late_join" : "start.options.no_late_join"),
  ];
}

/**
 * @param {string} name
 * @param {unknown} value
 */
function valueInWords(name, value) {
  if (typeof value === "boolean") return t(value ? "start.value.yes" : "start.value.no");
  if (Array.isArray(value)) return value.map((item, index) => t("start.value.item", { label: itemLabel(name, index), value: item })).join(", ");
  if (name === "jam_slam_chance" && typeof value === "number") return new Intl.NumberFormat(language(), { style: "percent" }).format(value);
  return choiceLabel(name, value);
}

/**
 * "Label: value" for each rule given.
 * @param {Record<string, unknown>} rules
 */
export function rulesInWords(rules) {
  return Object.entries(rules).map(([name, value]) => t("start.rule", { label: optionLabel(name), value: valueInWords(name, value) }));
}

/**
 * The line of help under option `name` (an empty one if it has none).
 * @param {string} name
 */
const help = (name) => el("small", { class: "help", text: OPTION_HELP[name] ? t(OPTION_HELP[name]) : state.options?.rules?.[name]?.help ?? "" });

// --- the form

/**
 * What a preset sets, in words (from the server's table, so it never says more than it does).
 * @param {Options} options
 * @param {string} name
 */
function presetInWords(options, name) {
  const values = options.presets?.[name] ?? {};
  const words = rulesInWords(values);
  return words.length ? t("start.preset.summary", { rules: words.join("; ") }) : t("start.preset.none");
}

/** @param {Options} options */
function buildRuleFields(options) {
  const box = $("#rule-fields");
  const house = $("#house-fields");
  box.replaceChildren();
  house.replaceChildren();
  const presets = Object.keys(options.presets ?? {});
  $("#preset").replaceChildren(...presets.map((name) => el("option", { value: name, text: PRESET_NAMES[name] ? t(PRESET_NAMES[name]) : humanize(name) })));
  show($("#preset-field"), presets.length > 0);
  $("#preset-summary").textContent = presets.length ? presetInWords(options, presets[0]) : "";
  for (const [name, spec] of Object.entries(options.rules ?? {})) {
    if (FIXED_OPTIONS.has(name)) continue;
    const label = optionLabel(name);
    const def = spec.default;
    let control;
    if (Array.isArray(spec.choices)) {
      const choices = spec.choices.map((choice) =>
        el("option", {
          value: JSON.stringify(choice),
          text: choiceLabel(name, choice),
          selected: JSON.stringify(choice) === JSON.stringify(def),
        }),
      );
      // eslint-disable-next-line no-restricted-syntax -- a field's name, not words
      control = el("label", {}, label, " ", el("select", { name: `rule.${name}` }, choices));
    } else if (typeof def === "boolean" || spec.type === "bool") {
      // eslint-disable-next-line no-restricted-syntax -- a field's name, not words
      control = el("label", { class: "check" }, el("input", { type: "checkbox", name: `rule.${name}`, checked: Boolean(def) }), " ", label);
    } else if (Array.isArray(def)) {
      const inputs = def.map((value, index) =>
        el(
          "label",
          { class: "inline" },
          itemLabel(name, index),
          " ",
          // eslint-disable-next-line no-restricted-syntax -- a field's name, not words
          el("input", { type: "number", name: `rule.${name}.${index}`, min: spec.min, max: spec.max, value }),
        ),
      );
      control = el("fieldset", {}, el("legend", { text: label }), inputs);
    } else if (typeof def === "number" || spec.type === "int" || spec.type === "float") {
      const step = spec.type === "float" || (typeof def === "number" && !Number.isInteger(def)) ? "0.05" : "1";
      // eslint-disable-next-line no-restricted-syntax -- a field's name, not words
      control = el("label", {}, label, " ", el("input", { type: "number", name: `rule.${name}`, value: def ?? "", min: spec.min, max: spec.max, step }));
    } else {
      continue;
    }
    // `editions`: the editions the option matters in (none: all of them)
    const dataset = { option: name, editions: spec.editions?.join(" ") ?? "", requires: spec.requires ?? "" };
    const field = el("div", { class: "rule-field", dataset }, control, help(name));
    (spec.group === "house" ? house : box).append(field);
  }
  show($("#house-rules"), house.childElementCount > 0);
  filterRuleFields();
  syncRequires();
}

/**
 * The value a rule field holds (undefined if it holds none).
 * @param {Element | null} field
 */
function fieldValue(field) {
  if (!field) return undefined;
  const select = /** @type {HTMLSelectElement | null} */ ($("select", field));
  const inputs = /** @type {HTMLInputElement[]} */ ($$("input", field));
  if (select) return JSON.parse(select.value);
  if (inputs.length === 1 && inputs[0].type === "checkbox") return inputs[0].checked;
  if (inputs.length > 1) return inputs.map((input) => Number(input.value));
  if (inputs.length === 1) return Number(inputs[0].value);
}

/** Turn off the options that work only with another one while that one is at its default (the
server refuses them then). */
function syncRequires() {
  const rules = state.options?.rules ?? {};
  for (const field of $$('[data-requires]:not([data-requires=""])')) {
    const needed = /** @type {string} */ (field.dataset.requires);
    // eslint-disable-next-line no-restricted-syntax -- a CSS selector, not words
    const value = fieldValue($(`.rule-field[data-option="${needed}"]`));
    const off = JSON.stringify(value) === JSON.stringify(rules[needed]?.default);
    for (const control of $$("input, select", field)) /** @type {HTMLInputElement} */ (control).disabled = off;
  }
}

/**
 * Set the house rules' fields to preset `name` (the house rules it does not name at their defaults);
 * the other options only where it names them (Scoring, and the seats for team play).  The fields
 * that changed are marked (`data-changed`) and named under the preset.
 * @param {Options} options
 * @param {string} name
 */
function applyPreset(options, name) {
  const values = options.presets?.[name] ?? {};
  const form = asForm($("#create-form"));
  for (const marked of $$("#create-form [data-changed]")) delete marked.dataset.changed;
  /** @type {string[]} */
  const changed = [];
  /**
   * @param {HTMLElement} field what shows the change
   * @param {string} label
   * @param {() => boolean} set sets the value; whether it changed it
   */
  const change = (field, label, set) => {
    if (!set()) return;
    field.dataset.changed = "true";
    changed.push(label);
  };
  for (const field of $$("#house-fields .rule-field")) {
    const option = /** @type {string} */ (field.dataset.option);
    const value = option in values ? values[option] : options.rules?.[option]?.default;
    const select = /** @type {HTMLSelectElement | null} */ ($("select", field));
    const input = /** @type {HTMLInputElement | null} */ ($("input", field));
    change(field, optionLabel(option), () => {
      const before = fieldValue(field);
      if (select) select.value = JSON.stringify(value);
      else if (input?.type === "checkbox") input.checked = Boolean(value);
      else if (input) input.value = String(value);
      return JSON.stringify(before) !== JSON.stringify(fieldValue(field));
    });
  }
  syncRequires();
  const seats = Number(form.seats.value);
  if (values.teams && (seats < 4 || seats % 2)) {
    change(form.seats.closest("label"), t("start.create.seats"), () => {
      form.seats.value = String(seats < 4 ? 4 : Math.min(10, seats + 1)); // two teams of two or more
      return true;
    });
    filterRuleFields();
  }
  if ("scoring" in values) {
    change(form.scoring.closest("label"), t("start.create.scoring"), () => {
      const before = form.scoring.value;
      form.scoring.value = values.scoring;
      return before !== form.scoring.value;
    });
  }
  syncTarget();
  const words = presetInWords(options, name);
  $("#preset-summary").textContent = changed.length
    ? t("start.preset.changed", { summary: words, changed: changed.join(", ") })
    : t("start.preset.unchanged", { summary: words });
}

function chosenEdition() {
  return asForm($("#create-form")).edition.value || "classic";
}

/** Show the rule fields that matter in the chosen edition, and mark its picture. */
function filterRuleFields() {
  const edition = chosenEdition();
  const seats = Number(asForm($("#create-form")).seats.value);
  for (const field of $$("#rule-fields .rule-field, #house-fields .rule-field")) {
    const editions = field.dataset.editions;
    const inEdition = !editions || editions.split(" ").includes(edition);
    // team play needs two teams of two or more: 4, 6, 8 or 10 seats
    const fits = field.dataset.option !== "teams" || (seats >= 4 && seats % 2 === 0);
    show(field, inEdition && fits);
  }
  for (const tile of $$("#editions .edition")) tile.setAttribute("aria-pressed", String(tile.dataset.edition === edition));
  syncBotTables(edition, seats);
  $("#play-now-note").textContent = t("start.play_now.note", { edition: editionTitle(edition), count: QUICK_SEATS - 1 });
}

/**
 * Levels of bot trained for some tables only (`bot_tables` of /api/options: the trained bots) can be
 * chosen at those tables alone; elsewhere the level chosen falls back to the first one that can.
 * @param {string} edition
 * @param {number} seats
 */
function syncBotTables(edition, seats) {
  const select = asForm($("#create-form")).bot;
  const tables = state.options?.bot_tables ?? {};
  for (const option of select.options) {
    const only = tables[option.value];
    const fits = !only || only.some(([e, n]) => e === edition && n === seats);
    option.disabled = !fits; // shown greyed out, so that players learn it exists
  }
  if (select.selectedOptions[0]?.disabled) select.value = [...select.options].find((o) => !o.disabled)?.value ?? "";
}

/** The target score means nothing when a single round or knockouts decide the match (UNO All Wild's
sheet plays single rounds). */
function syncTarget() {
  const form = asForm($("#create-form"));
  const scoring = form.scoring.value === "edition" && chosenEdition() === "all-wild" ? "single-round" : form.scoring.value;
  form.target_score.disabled = scoring === "single-round" || scoring === "knockout";
}

/**
 * The rules of the create form that differ from the defaults.
 * @param {Form} form
 * @param {Options} options
 */
function collectRules(form, options) {
  /** @type {Record<string, unknown>} */
  const rules = {};
  const target = Number(form.target_score.value);
  const targetSpec = options.rules?.target_score;
  if (!form.target_score.disabled && Number.isFinite(target) && (!targetSpec || target !== targetSpec.default)) {
    rules.target_score = target;
  }
  const scoringSpec = options.rules?.scoring;
  if (!scoringSpec || JSON.stringify(form.scoring.value) !== JSON.stringify(scoringSpec.default)) {
    rules.scoring = form.scoring.value;
  }
  for (const field of $$("#rule-fields .rule-field, #house-fields .rule-field")) {
    if (field.hidden || /** @type {HTMLInputElement | null} */ ($("input, select", field))?.disabled) continue;
    const name = /** @type {string} */ (field.dataset.option);
    const value = fieldValue(field);
    if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) continue;
    if (JSON.stringify(value) !== JSON.stringify(options.rules?.[name]?.default)) rules[name] = value;
  }
  return rules;
}

/** @param {Options} options */
function buildEditions(options) {
  const box = $("#editions");
  box.replaceChildren();
  for (const edition of options.editions ?? []) {
    const fan = el("span", { class: "edition-fan", "aria-hidden": "true" }, (EDITION_CARDS[edition] ?? []).map((card) => cardNode(card, { small: true })));
    box.append(
      el(
        "button",
        {
          class: "edition",
          dataset: { edition },
          "aria-pressed": "false",
          onclick: () => chooseEdition(edition),
        },
        fan,
        el("strong", { class: "edition-title", text: editionTitle(edition) }),
        el("span", { class: "edition-text", text: options.edition_summaries?.[edition] ?? "" }),
      ),
    );
  }
}

/** @param {string} edition */
function chooseEdition(edition) {
  asForm($("#create-form")).edition.value = edition;
  filterRuleFields();
  syncTarget();
}

/** @param {Options} options */
function buildForm(options) {
  const form = asForm($("#create-form"));
  for (const edition of options.editions ?? []) {
    form.edition.append(el("option", { value: edition, text: editionTitle(edition) }));
  }
  const scoring = options.rules?.scoring;
  for (const choice of scoring?.choices ?? []) {
    form.scoring.append(el("option", { value: choice, text: choiceLabel("scoring", choice), selected: choice === scoring?.default }));
  }
  const target = options.rules?.target_score;
  if (target) {
    form.target_score.value = target.default;
    if (target.min !== undefined) form.target_score.min = target.min;
    if (target.max !== undefined) form.target_score.max = target.max;
  }
  for (const bot of options.bots ?? ["heuristic"]) form.bot.append(el("option", { value: bot, text: botLabel(bot) }));
  const limits = /** @type {{timer?: number[]}} */ (/** @type {any} */ (options).limits ?? {});
  const [low, high] = Array.isArray(limits.timer) ? limits.timer : [5, 300];
  for (const seconds of TIMER_CHOICES) {
    if (seconds && (seconds < low || seconds > high)) continue;
    form.timer.append(el("option", { value: seconds, text: timerLabel(seconds), selected: seconds === 30 }));
  }
  for (const name of HELPED_FIELDS) {
    const field = form[name];
    const label = field?.closest("label");
    if (label && !label.nextElementSibling?.matches(".help")) label.after(help(name));
  }
  buildEditions(options);
  buildRuleFields(options);
  syncTarget();
  showEditionTitles();
}

/** The how-to-play links' edition titles, as printed (from /api/options). */
function showEditionTitles() {
  for (const link of $$("[data-edition-title]")) link.textContent = editionTitle(link.dataset.editionTitle);
}

/**
 * The start page in the language just chosen: its form built again from the options in that
 * language, with the values written or chosen kept.
 */
export function relabelStart() {
  const form = asForm($("#create-form"));
  const options = state.options;
  if (!options || !form.edition.options.length) return;
  const kept = [...form.elements].flatMap((field) => {
    const control = /** @type {HTMLInputElement} */ (field);
    return control.name ? [{ name: control.name, value: control.value, checked: control.checked }] : [];
  });
  for (const name of ["edition", "scoring", "bot", "timer"]) form[name].replaceChildren();
  for (const name of HELPED_FIELDS) {
    const note = form[name]?.closest("label")?.nextElementSibling;
    if (note?.matches(".help")) note.remove();
  }
  buildForm(options);
  for (const { name, value, checked } of kept) {
    const control = /** @type {HTMLInputElement | null} */ (form.elements.namedItem(name));
    if (!control || !("value" in control)) continue;
    if (control.type === "checkbox") control.checked = checked;
    else control.value = value;
  }
  filterRuleFields();
  syncRequires();
  syncTarget();
  refreshPublic();
}

export async function showStart() {
  state.code = null;
  setScreen("start");
  const form = asForm($("#create-form"));
  if (!form.name.value) form.name.value = savedName();
  const joinForm = asForm($("#join-code-form"));
  if (!joinForm.name.value) joinForm.name.value = savedName();
  refreshPublic();
  showEditionTitles();
  let options;
  try {
    options = await loadOptions();
  } catch {
    toast(t("toast.options"));
    return;
  }
  if (form.edition.options.length) return;
  buildForm(options);
}

/** @param {SubmitEvent} event */
function onCreate(event) {
  event.preventDefault();
  const form = asForm(event.currentTarget);
  const name = form.name.value.trim();
  if (!name) {
    form.name.focus();
    return toast(t("toast.name"));
  }
  rememberName(name);
  const options = state.options ?? { rules: {} };
  state.quickPlay = false;
  startConnection({
    type: "create",
    name,
    edition: form.edition.value,
    seats: Number(form.seats.value),
    rules: collectRules(form, options),
    bot: form.bot.value,
    timer: Number(form.timer.value),
    public: Boolean(form.public.checked),
    late_join: Boolean(form.late_join.checked),
  });
  return undefined;
}

/** "Play now against bots": a room with the usual rules; the lobby fills it with bots and starts. */
function playNow() {
  const name = asForm($("#create-form")).name.value.trim() || savedName() || t("start.quick_name");
  state.quickPlay = true;
  startConnection({ type: "create", name, edition: chosenEdition(), seats: QUICK_SEATS });
}

/**
 * A room code, from the code itself or an invite link.
 * @param {string} text
 */
function cleanCode(text) {
  const trimmed = text.trim();
  const match = trimmed.match(/\/r\/([^/?#\s]+)/);
  return (match ? match[1] : trimmed).trim();
}

/** The name written on the start page (either form), or the one remembered. */
function startName() {
  const names = [asForm($("#join-code-form")).name.value, asForm($("#create-form")).name.value, savedName()];
  return names.map((name) => name.trim()).find(Boolean) ?? "";
}

/**
 * Join room `code` with `name` (a seat stored in this browser is resumed instead).
 * @param {string} code
 * @param {string} name
 */
function joinRoom(code, name) {
  if (storedSeat(code)) {
    // eslint-disable-next-line no-restricted-syntax -- an address, not words
    history.pushState(null, "", `/r/${code}`);
    return enterRoom(code);
  }
  if (!name) {
    asForm($("#join-code-form")).name.focus();
    return toast(t("toast.name"));
  }
  rememberName(name);
  state.code = code;
  state.quickPlay = false;
  startConnection({ type: "join", code, name });
  return undefined;
}

/** @param {SubmitEvent} event */
function onJoinCode(event) {
  event.preventDefault();
  const form = asForm(event.currentTarget);
  const code = cleanCode(form.code.value);
  if (!code) return toast(t("toast.code"));
  return joinRoom(code, form.name.value.trim());
}

// --- public rooms

let publicTimer = 0;

/** Show the public rooms, again every few seconds while the start page is shown. */
async function refreshPublic() {
  clearTimeout(publicTimer);
  if (state.screen !== "start") return;
  if (document.visibilityState !== "hidden") {
    try {
      const response = await fetch("/api/rooms", { cache: "no-store" });
      if (response.ok) {
        const data = await response.json();
        renderPublic(Array.isArray(data.rooms) ? data.rooms : []);
      }
    } catch {
      // the server is away for a moment: try again at the next tick
    }
  }
  if (state.screen === "start") publicTimer = setTimeout(refreshPublic, PUBLIC_REFRESH_MS);
}

/** @param {PublicRoom[]} rooms */
function renderPublic(rooms) {
  const list = $("#public-rooms");
  list.replaceChildren();
  for (const room of rooms) {
    const taken = room.players - room.open;
    const details = [
      t("start.rooms.free", { open: room.open, count: room.players }),
      ...optionsInWords(room.options).filter((text) => text !== t("start.options.public")),
      ...rulesInWords(room.rules ?? {}),
    ];
    const edition = editionTitle(room.edition);
    list.append(
      el(
        "li",
        { class: "public-room", dataset: { code: room.code } },
        el(
          "div",
          { class: "public-info" },
          el("strong", { text: edition }),
          el("span", { class: "public-host" }, " ", room.host ? t("start.rooms.host", { name: room.host }) : t("start.rooms.no_host")),
          el("span", { class: "public-details muted", text: details.join(" · ") }),
        ),
        el("button", {
          class: "primary",
          text: t("start.join.submit"),
          "aria-label": room.host
            ? t("start.rooms.join_label", { edition, name: room.host, count: taken })
            : t("start.rooms.join_label_no_host", { edition, count: taken }),
          onclick: () => joinRoom(room.code, startName()),
        }),
      ),
    );
  }
  show($("#public-empty"), rooms.length === 0);
}

// --- watch and the join page

/** @param {string} code */
export function watch(code) {
  state.code = code;
  state.spectator = true;
  state.secret = null;
  state.version = 0;
  // eslint-disable-next-line no-restricted-syntax -- an address, not words
  history.replaceState(null, "", `/r/${code}?watch`); // a reload keeps watching
  startConnection({ type: "spectate", code, version: 0 });
}

/**
 * What a newcomer may do in room `code`: join, watch, replay; null for an unknown code.
 * @param {string} code
 * @returns {Promise<RoomStatus | null | undefined>} undefined when the server could not be asked
 */
async function roomStatus(code) {
  try {
    // eslint-disable-next-line no-restricted-syntax -- an address, not words
    const response = await fetch(`/api/rooms/${encodeURIComponent(code)}`, { cache: "no-store" });
    if (response.status === 404) return null;
    if (!response.ok) return undefined;
    return /** @type {RoomStatus} */ (await response.json());
  } catch {
    return undefined;
  }
}

/**
 * The join page's buttons and note for a room's status.
 * @param {RoomStatus | null | undefined} room
 */
function joinChoices(room) {
  const choice = (join = "", note = "", watch = true, replay = false) => ({ join, watch, replay, note });
  if (room === undefined) return choice(t("start.join.submit"));
  if (room === null) return choice("", t("join.unknown"), false);
  const edition = editionTitle(room.edition);
  if (room.status === "finished") return choice("", t("join.finished", { edition }), false, true);
  if (room.status === "playing") {
    if (room.late_seats > 0) return choice(t("join.late.button"), t("join.late", { edition }));
    return choice("", t(room.options?.late_join ? "join.playing.taken" : "join.playing.closed", { edition }));
  }
  if (room.open > 0) return choice(t("start.join.submit"), t("join.open", { edition, count: room.open, players: room.players }));
  return choice("", t("join.full", { edition }));
}

/**
 * The join page of room `code`: join with a name or watch; Replay once the match is over.
 * @param {string} code
 */
export function showJoin(code) {
  state.code = code;
  setScreen("join");
  $("#join-code").textContent = code;
  textAround($("#join-title"), t("join.title", { code: MARK }), $("#join-code"));
  const form = asForm($("#join-form"));
  if (!form.name.value) form.name.value = savedName();
  for (const id of ["#replay-button", "#join-fields", "#join-submit", "#watch"]) show($(id), false);
  $("#join-note").textContent = "";
  $("#join").dataset.status = "";
  const titles = loadOptions().catch(() => null); // the editions' titles, never their ids
  Promise.all([roomStatus(code), titles]).then(([room]) => {
    if (state.code !== code || state.screen !== "join") return;
    const choice = joinChoices(room);
    $("#join").dataset.status = room === null ? "unknown" : room?.status ?? "";
    $("#join-note").textContent = choice.note;
    $("#join-submit").textContent = choice.join || t("start.join.submit");
    show($("#join-fields"), Boolean(choice.join));
    show($("#join-submit"), Boolean(choice.join));
    show($("#watch"), choice.watch);
    show($("#replay-button"), choice.replay);
    $("#replay-button").classList.toggle("primary", choice.replay);
    $("#watch").classList.toggle("primary", choice.watch && !choice.join);
  });
}

/** @param {SubmitEvent} event */
function onJoin(event) {
  event.preventDefault();
  const name = asForm(event.currentTarget).name.value.trim();
  if (!name) return toast(t("toast.name"));
  rememberName(name);
  state.quickPlay = false;
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

/** Wire the start and join pages (app.js wires the join page's Replay). */
export function bindStart() {
  $("#create-form").addEventListener("submit", onCreate);
  $("#create-form [name=edition]").addEventListener("change", () => {
    filterRuleFields();
    syncTarget();
  });
  $("#create-form [name=scoring]").addEventListener("change", syncTarget);
  $("#create-form [name=seats]").addEventListener("change", filterRuleFields);
  $("#house-fields").addEventListener("change", syncRequires);
  $("#preset").addEventListener("change", (event) => {
    if (state.options) applyPreset(state.options, /** @type {HTMLSelectElement} */ (event.currentTarget).value);
  });
  $("#play-now").addEventListener("click", playNow);
  $("#join-code-form").addEventListener("submit", onJoinCode);
  $("#watch-code").addEventListener("click", () => {
    const code = cleanCode(asForm($("#join-code-form")).code.value);
    if (code) watch(code);
    else toast(t("toast.code"));
  });
  $("#join-form").addEventListener("submit", onJoin);
  $("#watch").addEventListener("click", () => watch(/** @type {string} */ (state.code)));
  document.addEventListener("visibilitychange", () => {
    if (state.screen === "start" && document.visibilityState === "visible") refreshPublic();
  });
}
