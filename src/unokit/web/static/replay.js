// Replay of a finished match: each step is the table as a spectator saw it after that many actions
// (`GET /api/rooms/CODE/replay/STEP`), drawn with the table's own rendering.

import { $, $$, el, show } from "./dom.js";
import { state, editionTitle, setScreen } from "./state.js";
import { conn } from "./connection.js";
import { renderTable, scrollLog } from "./table.js";
import { loadOptions } from "./start.js";
import { t } from "./i18n.js";
import { andList } from "./labels.js";

/**
 * `text` ending with a stop (the server's words may have none).
 * @param {string} text
 */
const stopped = (text) => (/[.!?]$/.test(text) ? text : text.concat("."));

const REPLAY_CACHE = 400; // steps kept in the page
const REPLAY_LOG_STEPS = 40; // steps told in the log, up to the current one

/** @type {typeof import("./analysis.js") | null} */
let board = null; // the analysis board, loaded the first time it is opened

const replay = {
  /** @type {string | null} */
  code: null,
  step: 0,
  steps: 0,
  wanted: 0,
  /** @type {Map<number, ReplayStep>} */
  cache: new Map(),
  sliderTimer: 0,
  meta: false,
};

/**
 * Open the replay of room `code` at its first step.
 * @param {string} code
 */
export function startReplay(code) {
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
  showControls(false);
  show($("#replay-error"), false);
  board?.closeBoard();
  return replayGo(0);
}

/** Open the analysis board under the replay's controls (analysis.js, loaded on demand). */
async function openAnalysis() {
  const button = $("#replay-analyse");
  button.setAttribute("disabled", "");
  try {
    board ??= await import("./analysis.js");
    const data = replay.cache.get(replay.step);
    const names = (data?.seats ?? []).map((/** @type {{name: string}} */ seat) => seat.name);
    await board.openBoard({ code: /** @type {string} */ (replay.code), names, steps: replay.steps, step: replay.step, go: replayGo });
    show(button, false);
  } finally {
    button.removeAttribute("disabled");
  }
}

/**
 * @param {number} step
 * @returns {Promise<ReplayStep>}
 */
async function replayStep(step) {
  const cached = replay.cache.get(step);
  if (cached) return cached;
  // eslint-disable-next-line no-restricted-syntax -- a URL
  const response = await fetch(`/api/rooms/${encodeURIComponent(/** @type {string} */ (replay.code))}/replay/${step}`);
  const data = await response.json().catch(() => ({}));
  // eslint-disable-next-line no-restricted-syntax -- a protocol's notation, shown only when the server says nothing
  if (!response.ok) throw Object.assign(new Error(data.error || `HTTP ${response.status}`), { status: response.status });
  replay.cache.set(step, data);
  if (replay.cache.size > REPLAY_CACHE) replay.cache.delete(/** @type {number} */ (replay.cache.keys().next().value));
  return data;
}

/**
 * The replay's controls show only with a replay to step through (not beside its error).
 * @param {boolean} shown
 */
function showControls(shown) {
  for (const node of $$(".replay-controls, #replay-slider, #replay-action, #replay-meta")) show(node, shown);
  let button = document.getElementById("replay-analyse");
  if (!button) {
    button = el("button", { id: "replay-analyse", "data-i18n": "replay.analyse", text: t("replay.analyse"), onclick: openAnalysis });
    $("#replay-action").before(button);
  }
  show(button, shown && !board?.isOpen());
}

/**
 * Show step `step` (clamped to the match), once the server has answered; a later request wins.
 * @param {number} step
 */
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
      const message = /** @type {Error} */ (error).message;
      box.replaceChildren(t("replay.error", { message: stopped(message) }));
      if (/** @type {{status?: number}} */ (error).status === 403) {
        // the match is still in play: its room can be watched or opened
        const room = "/r/".concat(encodeURIComponent(/** @type {string} */ (replay.code)));
        const [before, , between, , after] = t("replay.error.live").split(/\{(watch|open)\}/);
        box.append(
          " ",
          before,
          // eslint-disable-next-line no-restricted-syntax -- a URL
          el("a", { href: `${room}?watch`, text: t("replay.error.watch") }),
          between,
          el("a", { href: room, text: t("replay.error.open") }),
          after,
        );
      }
      show(box);
      showControls(false);
      $("#replay-pos").textContent = "";
    }
    return;
  }
  if (replay.wanted === wanted && state.screen === "replay") renderReplay(data);
}

/** @param {ReplayStep} data */
function renderReplay(data) {
  replay.step = data.step;
  replay.steps = data.steps;
  show($("#replay-error"), false);
  showControls(true);
  if (!replay.meta) {
    replay.meta = true;
    renderMeta(data);
    // the edition's title comes with the game options, which may not have arrived yet
    if (!state.options) loadOptions().then(() => renderMeta(data), () => {});
  }
  $("#replay-pos").textContent = t("replay.position", { step: data.step, count: data.steps });
  const slider = /** @type {HTMLInputElement} */ ($("#replay-slider"));
  slider.max = String(data.steps);
  slider.value = String(data.step);
  for (const button of $$("#replay-first, #replay-prev")) button.toggleAttribute("disabled", data.step <= 0);
  for (const button of $$("#replay-next, #replay-last")) button.toggleAttribute("disabled", data.step >= data.steps);
  const told = (data.events ?? [])
    .map((/** @type {{text?: unknown}} */ event) => (typeof event.text === "string" ? event.text.trim() : ""))
    .filter(Boolean)
    .map(stopped);
  $("#replay-action").textContent = told.length ? told.join(" ") : data.step ? "" : t("replay.dealt");
  state.view = data.view;
  state.seats = Array.isArray(data.seats) ? data.seats : [];
  state.finished = Boolean(data.finished);
  state.legal = [];
  state.asks = typeof data.asks === "string" ? data.asks : "";
  state.busy = false;
  show($("#table"));
  renderTable();
  $("#spectating").textContent = t("replay.spectating");
  renderReplayLog(data.step);
  board?.boardStep(data.step);
}

/**
 * The match's edition, players and length, above the controls.
 * @param {ReplayStep} data
 */
function renderMeta(data) {
  const names = (data.seats ?? []).map((/** @type {{name: string}} */ seat) => seat.name);
  const meta = $("#replay-meta");
  meta.replaceChildren(
    el("strong", { class: "replay-edition", text: editionTitle(data.edition) }),
    t("replay.players", { count: names.length, names: andList(names) }),
    t("replay.moves", { count: data.steps }),
  );
}

/**
 * The log: the events of the steps before this one that the page holds, then this step's, marked.
 * @param {number} step
 */
function renderReplayLog(step) {
  const items = [];
  for (let at = step; at >= 0 && at > step - REPLAY_LOG_STEPS; at -= 1) {
    const data = replay.cache.get(at);
    if (!data) break;
    const lines = (data.events ?? []).filter(
      (/** @type {{text?: unknown}} */ event) => typeof event.text === "string" && event.text,
    );
    items.unshift(
      ...lines.map((/** @type {{kind: string, text: string}} */ event) =>
        // eslint-disable-next-line no-restricted-syntax -- class names
        el("li", { class: `log-${event.kind}${at === step ? " current" : ""}`, text: event.text }),
      ),
    );
  }
  const list = $("#log");
  list.replaceChildren(...items);
  scrollLog(list);
}

function replaySlide() {
  clearTimeout(replay.sliderTimer);
  const value = Number(/** @type {HTMLInputElement} */ ($("#replay-slider")).value);
  replay.sliderTimer = setTimeout(() => replayGo(value), 40);
}

/**
 * The replay's keys: ←/→ step, Home / End.
 * @param {KeyboardEvent} event
 */
export function replayKey(event) {
  /** @type {Record<string, number>} */
  const moves = { ArrowRight: replay.wanted + 1, ArrowLeft: replay.wanted - 1, Home: 0, End: replay.steps };
  if (event.key in moves) {
    event.preventDefault();
    replayGo(moves[event.key]);
  }
}

export function bindReplay() {
  $("#replay-first").addEventListener("click", () => replayGo(0));
  $("#replay-prev").addEventListener("click", () => replayGo(replay.wanted - 1));
  $("#replay-next").addEventListener("click", () => replayGo(replay.wanted + 1));
  $("#replay-last").addEventListener("click", () => replayGo(replay.steps));
  $("#replay-slider").addEventListener("input", replaySlide);
}
