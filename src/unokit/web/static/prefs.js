// The player's preferences, kept in localStorage: sound, motion speed, colour-blind marks,
// notifications, hints, the page's language, and the avatar and colour the player shows at the table.  Every change is told on `document` as "unokit:prefs".

import { stored } from "./state.js";
import { isLanguage } from "./i18n.js";

const PREFS_KEY = "unokit.prefs";

/** @typedef {"slow" | "normal" | "fast"} Speed */
/**
 * @typedef {object} Prefs
 * @property {boolean} muted no sound
 * @property {Speed} speed how fast the table's motion plays
 * @property {boolean} colourBlind a symbol and a pattern on every colour
 * @property {boolean} notify a notification when it is your turn and the page is in the background
 * @property {boolean} hints a Hint button on your turn (the bot's move, asked of the server)
 * @property {string | null} avatar the avatar shown on this player's seat (one of `AVATARS`; null: their initial)
 * @property {string | null} colour the colour of their seat (one of `COLOURS`; null: the seat's own)
 * @property {"auto" | import("./i18n.js").Language} language "auto": the browser's languages decide
 */

/** The avatars and colours a player may choose (the server's sets: unokit.web.social). */
export const AVATARS = ["fox", "cat", "owl", "frog", "panda", "tiger", "octopus", "unicorn", "penguin", "rocket", "cactus", "ghost"];
export const COLOURS = ["red", "orange", "amber", "green", "teal", "blue", "indigo", "purple", "pink", "slate"];

/** @type {Prefs} */
const DEFAULTS = { muted: false, speed: "normal", colourBlind: false, notify: false, hints: false, language: "auto", avatar: null, colour: null };

/** How long motion lasts at each speed, as a factor of its normal duration. */
const SPEED_FACTORS = { slow: 1.6, normal: 1, fast: 0.45 };

function load() {
  /** @type {Prefs} */
  const prefs = { ...DEFAULTS };
  const saved = stored((storage) => JSON.parse(storage.getItem(PREFS_KEY) || "{}"), null); // unreadable: the defaults
  if (saved && typeof saved === "object") {
    if (typeof saved.muted === "boolean") prefs.muted = saved.muted;
    if (Object.hasOwn(SPEED_FACTORS, saved.speed)) prefs.speed = saved.speed;
    if (typeof saved.colourBlind === "boolean") prefs.colourBlind = saved.colourBlind;
    if (typeof saved.notify === "boolean") prefs.notify = saved.notify;
    if (typeof saved.hints === "boolean") prefs.hints = saved.hints;
    if (AVATARS.includes(saved.avatar)) prefs.avatar = saved.avatar;
    if (COLOURS.includes(saved.colour)) prefs.colour = saved.colour;
    if (isLanguage(saved.language)) prefs.language = saved.language;
  }
  return prefs;
}

/** The preferences now in force (read-only: change them with `setPref`). */
export const prefs = load();

/**
 * Change one preference, remember it, and tell the page.
 * @template {keyof Prefs} K
 * @param {K} name
 * @param {Prefs[K]} value
 */
export function setPref(name, value) {
  prefs[name] = value;
  stored((storage) => storage.setItem(PREFS_KEY, JSON.stringify(prefs)), undefined);
  applyPrefs();
  document.dispatchEvent(new CustomEvent("unokit:prefs", { detail: { name, value } }));
}

/** The avatar and colour chosen on this device, as `create`, `join`, `resume` and `look` send them. */
export function lookFields() {
  /** @type {{avatar?: string, colour?: string}} */
  const look = {};
  if (prefs.avatar) look.avatar = prefs.avatar;
  if (prefs.colour) look.colour = prefs.colour;
  return look;
}

/** Whether motion should be cut short: the system asks for reduced motion. */
export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/**
 * Milliseconds that a motion of `ms` normal milliseconds lasts now (0 with reduced motion).
 * @param {number} ms
 */
export function motionMs(ms) {
  return reducedMotion() ? 0 : Math.round(ms * SPEED_FACTORS[prefs.speed]);
}

/** Reflect the preferences on the page: `data-colour-blind`, `data-hints` and `data-speed` on <html>. */
export function applyPrefs() {
  const root = document.documentElement;
  root.toggleAttribute("data-colour-blind", prefs.colourBlind);
  root.toggleAttribute("data-hints", prefs.hints || root.hasAttribute("data-guided")); // a guided game has hints
  root.dataset.speed = prefs.speed;
}
