// The client state: what the server last said, the seats held in this browser, the screen shown.
// Legality always comes from the server's `legal` list.

import { $, $$, show } from "./dom.js";
import { t } from "./i18n.js";

const STORE_PREFIX = "unokit.seat.";
const NAME_KEY = "unokit.name";

/**
 * A round or match result waiting to be shown.
 * @typedef {object} Result
 * @property {"round" | "match"} kind
 * @property {GameEvent} event
 * @property {GameEvent[]} hands
 * @property {number} [round]
 * @property {GameEvent | null} [roundEvent]
 * @property {boolean} [blocked] the round was blocked (nobody could play or draw): the lowest hand won it
 */
/** @typedef {{kind: "read", index: number, text: string} | {kind: "submit"}} Expected */

/** What the page knows of the room it is in: all of it goes when the player leaves the room. */
function freshRoom() {
  return {
    /** @type {string | null} */
    code: null,
    /** @type {number | null} */
    seat: null,
    /** @type {string | null} */
    secret: null,
    host: false,
    /** @type {string | null} */
    invite: null,
    spectator: false,
    version: 0,
    /** @type {View | null} */
    view: null,
    /** @type {LegalEntry[]} */
    legal: [],
    asks: "",
    /** @type {SeatInfo[]} */
    seats: [],
    finished: false,
    /** @type {Lobby | null} */
    lobby: null,
    /** @type {Message | null} the create / join / spectate to send when a socket opens without a seat */
    hello: null,
    catchingUp: true, // the first update after (re)connecting replays history: no motion, no results
    busy: false,
    selected: -1,
    /** @type {GameEvent[]} */
    roundHands: [],
    eventRound: 0,
    /** @type {Result[]} */
    resultsQueue: [],
    /** @type {Expected[]} replies expected to read_rule / rule_cards, in order */
    expect: [],
    ruleEditorCount: -1,
    /** @type {RematchStatus | null} */
    rematch: null,
    /** @type {ReadingStatus | null} `update.reading`: who is still reading the round's results */
    reading: null,
    continued: false, // this page sent `continue` for the results being read
    /** @type {number | null} the bot seat this late arrival takes at the next round */
    claimedSeat: null,
    quickPlay: false, // "Play now against bots": the lobby fills the seats with bots and starts
    /** the version of the update the table shows */
    shownVersion: 0,
    /** a decision shown was taken away by an update not yet shown: its version (the status line waits for it) */
    staleUntil: 0,
    /** @type {Set<string>} the actions the last update to arrive offers (it may be ahead of the table shown) */
    offered: new Set(),
    /** @type {{seat: number, remaining: number, total: number, at: number} | null} `update.timer`, received `at` (performance.now()) */
    turnTimer: null,
  };
}

export const state = {
  screen: "start",
  /** @type {Options | null} */
  options: null,
  ...freshRoom(),
};

/** Forget the room the page was in. */
export function forgetRoom() {
  Object.assign(state, freshRoom());
}

/**
 * `use(localStorage)`, or `fallback` if the storage is full, disabled or unreadable (what is kept
 * then lasts as long as the page).
 * @template T
 * @param {(storage: Storage) => T} use
 * @param {T} fallback
 */
export function stored(use, fallback) {
  try {
    return use(localStorage);
  } catch {
    return fallback;
  }
}

/**
 * @param {string} code
 * @returns {{secret: string, seat: number | null} | null}
 */
export function storedSeat(code) {
  const data = stored((storage) => JSON.parse(storage.getItem(STORE_PREFIX + code) ?? "null"), null);
  return data && typeof data.secret === "string" ? data : null;
}

/** @param {string} code @param {string} secret @param {number | null} seat */
export const storeSeat = (code, secret, seat) => stored((storage) => storage.setItem(STORE_PREFIX + code, JSON.stringify({ secret, seat })), undefined);
/** @param {string} code */
export const forgetSeat = (code) => stored((storage) => storage.removeItem(STORE_PREFIX + code), undefined);
/** @param {string} name */
export const rememberName = (name) => stored((storage) => storage.setItem(NAME_KEY, name), undefined);
export const savedName = () => stored((storage) => storage.getItem(NAME_KEY) ?? "", "");

/**
 * A seat's name, "You" for this browser's seat.
 * @param {number | null} seat
 */
export function seatName(seat) {
  if (seat === state.seat && seat !== null) return t("seat.you");
  const entry = state.seats.find((s) => s.seat === seat);
  return entry?.name ?? ""; // the server names every seat
}

/**
 * An edition's title (from /api/options, once loaded).
 * @param {string | null | undefined} edition
 */
export function editionTitle(edition) {
  return state.options?.edition_titles?.[/** @type {string} */ (edition)] ?? edition ?? "";
}

/** @param {string} name the id of the `.screen` section to show */
export function setScreen(name) {
  state.screen = name;
  for (const section of $$(".screen")) show(section, section.id === name);
  if (name !== "table") {
    show($("#decision"), false);
    document.body.classList.remove("has-decision");
  }
  showRoomLabel();
  document.dispatchEvent(new CustomEvent("unokit:screen", { detail: name }));
}

/** The phases in which cards are played from the hand. */
export const HAND_PHASES = new Set(["turn", "rule-run", "stack", "multi"]);
/** The out-of-turn actions (the server's `legal[].type`): UNO calls, catches and jump-ins. */
const INTERRUPT_TYPES = new Set(["call_uno", "catch", "jump", "jump_uno"]);

/**
 * The rule card shown with this id, if any.
 * @param {number} id
 */
export function ruleText(id) {
  const shown = state.view?.public?.rule_cards_shown ?? [];
  const entry = shown.find((item) => item[0] === id);
  return entry ? { text: entry[1], reading: entry[2] } : null;
}

/** The jump-ins this seat may make now (house rule: an identical card played out of turn). */
export function myJumps() {
  return state.legal.filter((entry) => entry.type === "jump" || entry.type === "jump_uno");
}

/** The legal actions that are this seat's own decision (not UNO calls, catches or jump-ins). */
export function myDecisions() {
  return state.legal.filter((entry) => !INTERRUPT_TYPES.has(entry.type ?? ""));
}

/**
 * @param {View} view
 * @param {number} seat
 */
export function unoState(view, seat) {
  if (view.uncalled.includes(seat)) return "uncalled";
  return (view.called ?? []).includes(seat) ? "called" : null;
}

/** The top bar's room label: the code, and whether this page replays or watches it. */
export function showRoomLabel() {
  const label = $("#room-label");
  const code = state.code ?? "";
  const id = state.screen === "replay" ? "top.room.replay" : state.spectator ? "top.room.watching" : "top.room";
  label.textContent = code ? t(id, { code }) : "";
  show(label, Boolean(code));
}
