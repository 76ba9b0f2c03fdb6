// The event queue: an update's events are presented in order, each with its motion (motion.js), and
// only then is its table drawn (`#table[data-version]`; `data-presenting` while events move), so the
// table never runs ahead of the motion.  Behind, the motion gets shorter; with four updates waiting,
// one 1.5 s late, the page hidden or reduced motion, none.  A new round waits for the results to be
// dismissed.  Each event presented is announced on `document` as "unokit:presented".

import { $ } from "./dom.js";
import { state } from "./state.js";
import { motionMs } from "./prefs.js";
import { renderTable } from "./table.js";
import { eventFx, dealFx, clearLanded, clearMotion } from "./motion.js";

/** @typedef {{message: Message, events: GameEvent[], live: boolean, at: number}} Item an update waiting to be presented */

/** What app.js registers: an event told and an update drawn. */
export const presenter = {
  /** @type {(event: GameEvent, live: boolean, view: View | undefined) => void} */
  onEvent: () => {},
  /** @type {(message: Message, events: GameEvent[], live: boolean) => void} */
  afterUpdate: () => {},
  /** @type {() => void} */
  showResults: () => {},
};

/** An update that has waited this long (ms) is presented at once; half as long, at double speed. */
const LATE_MS = 1500;

/** @type {Item[]} */
const queue = [];
let running = false;

/**
 * Queue an update for presentation (its events are those not yet presented).
 * @param {Message} message
 * @param {GameEvent[]} events
 * @param {boolean} live whether they happen now (not told again on reconnection)
 */
export function presentUpdate(message, events, live) {
  queue.push({ message, events, live, at: performance.now() });
  if (!running) void run();
}

/**
 * How long motion lasts now, as a factor of its normal length (0: present at once).
 * @param {Item} item
 */
function pace(item) {
  if (!item.live || document.hidden || !state.view) return 0;
  const base = motionMs(1000) / 1000;
  const behind = queue.length - 1;
  const late = performance.now() - item.at; // how long this update has waited
  if (!base || behind >= 4 || late > LATE_MS) return 0;
  return base * [1, 0.6, 0.4, 0.25][behind] * (late > LATE_MS / 2 ? 0.5 : 1);
}

async function run() {
  running = true;
  try {
    while (queue.length) {
      const item = queue[0];
      try {
        await present(item);
      } catch (error) {
        console.warn("presenting an update failed", error); // the table is drawn below all the same
        clearMotion();
        draw(item);
      }
      queue.shift();
    }
  } finally {
    running = false;
  }
}

/**
 * Present one update: its events in order with their motion, then its table.
 * @param {Item} item
 */
async function present(item) {
  const table = $("#table");
  const { message, events } = item;
  const view = /** @type {View} */ (message.view);
  if (Array.isArray(message.seats)) state.seats = message.seats;
  if (typeof message.you === "number") state.seat = message.you;
  if (events.length) table.dataset.presenting = "1";
  let dealt = false;
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index];
    if (event.kind === "deal") {
      // consecutive deals move together, round after round of cards to every seat
      let end = index;
      while (end + 1 < events.length && events[end + 1].kind === "deal") end += 1;
      const deals = events.slice(index, end + 1);
      for (const deal of deals) told(item, deal);
      const now = pace(item) || (!state.view && item.live ? motionMs(1000) / 1000 : 0);
      if (now && !dealt) {
        drawBeforeDeal(item);
        dealt = true;
        await rendered(); // the cards' places are read once laid out, not forced
      }
      if (now) await dealFx(deals, now);
      index = end;
      continue;
    }
    told(item, event);
    const now = pace(item);
    if (now) await eventFx(event, view, now);
    if (item.live && event.kind === "round_end" && events.slice(index + 1).some((later) => later.kind === "deal")) {
      const waiting = performance.now();
      await resultsDismissed(); // the next round is dealt after the results
      item.at += performance.now() - waiting; // and the deal is not late for it
    }
  }
  draw(item);
}

/**
 * An event is told: the log, the ticker, the results, the sound; then announced.
 * @param {Item} item
 * @param {GameEvent} event
 */
function told(item, event) {
  presenter.onEvent(event, item.live, item.message.view);
  document.dispatchEvent(new CustomEvent("unokit:presented", { detail: { version: state.shownVersion, event } }));
}

/**
 * Draw the update's table: from now on the page shows this update.
 * @param {Item} item
 */
function draw(item) {
  const { message, events, live } = item;
  state.view = message.view;
  state.shownVersion = message.version;
  state.legal = Array.isArray(message.legal) ? message.legal : [];
  state.asks = typeof message.asks === "string" ? message.asks : "";
  if (Array.isArray(message.seats)) state.seats = message.seats;
  if (typeof message.you === "number") state.seat = message.you;
  state.finished = Boolean(message.finished);
  const timer = message.timer;
  state.turnTimer =
    timer && typeof timer.seat === "number"
      ? { seat: timer.seat, remaining: Number(timer.remaining) || 0, total: Number(timer.total) || 0, at: item.at }
      : null;
  clearLanded();
  renderTable();
  delete $("#table").dataset.presenting;
  presenter.afterUpdate(message, events, live);
}

/**
 * Before a deal: the table with empty hands and no discard, for the cards to fly into (no update's:
 * `data-version` is empty meanwhile).
 * @param {Item} item
 */
function drawBeforeDeal(item) {
  const view = /** @type {View} */ (item.message.view);
  const before = state.view ?? view;
  const dealt = view.hand_sizes.reduce((sum, size) => sum + size, 0);
  state.view = {
    ...view,
    hand_sizes: view.hand_sizes.map(() => 0),
    hand: [],
    top_card: "",
    discard_pile_size: 0,
    draw_pile_size: view.draw_pile_size + dealt + 1,
    actor: before.actor,
    phase: "deal",
    uncalled: [],
    called: [],
  };
  state.legal = [];
  state.asks = "deal";
  state.turnTimer = null;
  renderTable();
  $("#table").dataset.version = "";
}

/** Resolve once the page has drawn a frame (at once when hidden: no frames come). */
function rendered() {
  if (document.hidden) return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Resolve once the results shown are dismissed (at once if none are shown). */
function resultsDismissed() {
  presenter.showResults();
  const overlay = $("#results");
  if (overlay.hidden) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (overlay.hidden) {
        observer.disconnect();
        resolve(undefined);
      }
    });
    observer.observe(overlay, { attributes: true, attributeFilter: ["hidden"] });
  });
}
