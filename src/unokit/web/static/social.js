// A table that feels social: each player's avatar and colour (chosen on the start page and
// remembered on the device), quick reactions as bubbles over the sender's seat, aimed at a seat
// by a long press or a right click on it (or the chat's "to" list), short celebrations
// (celebrate.js) and the voice chat (voice.js), both loaded when first needed.

import { $, badge, el, show } from "./dom.js";
import { state } from "./state.js";
import { conn } from "./connection.js";
import { lookFields } from "./prefs.js";
import { t } from "./i18n.js";

/** The quick reactions (the server's set: unokit.web.chat.REACTIONS). */
export const REACTIONS = ["👍", "😂", "😮", "😡", "👏", "🎉", "GG", "UNO!"];

/** How each avatar is drawn. */
export const GLYPHS = /** @type {Record<string, string>} */ ({
  fox: "🦊", cat: "🐱", owl: "🦉", frog: "🐸", panda: "🐼", tiger: "🐯", octopus: "🐙", unicorn: "🦄",
  penguin: "🐧", rocket: "🚀", cactus: "🌵", ghost: "👻", robot: "🤖",
});

/** Each colour: dark enough for white text on it (at least 4.5:1), and apart from the felt's green. */
export const COLOUR_VALUES = /** @type {Record<string, string>} */ ({
  red: "#c62828", orange: "#b45309", amber: "#8a6100", green: "#2e7d32", teal: "#00695c",
  blue: "#1565c0", indigo: "#3949ab", purple: "#7b1fa2", pink: "#ad1457", slate: "#475569",
});

const LONG_PRESS_MS = 500;

// ------------------------------------------------------------------ avatars

/**
 * A seat's avatar: its symbol (or the name's initial) on its colour (or the seat's own hue).
 * @param {Partial<SeatInfo>} info
 * @param {string} name
 * @param {number} seat
 * @param {string} [extra] more classes
 */
export function avatarNode(info, name, seat, extra = "") {
  const glyph = info.avatar ? GLYPHS[info.avatar] : undefined;
  const colour = info.colour ? COLOUR_VALUES[info.colour] : undefined;
  const classes = ["avatar", glyph ? "glyph" : "", colour ? "chosen" : "", extra].filter(Boolean).join(" ");
  const node = el("div", {
    class: classes,
    "aria-hidden": "true",
    // drawn by the style sheet (::after): a picture, not words of the seat's or the chat line's text
    dataset: { glyph: glyph ?? (name.trim().charAt(0).toUpperCase() || "?"), ...(info.avatar ? { avatar: info.avatar } : {}) },
  });
  node.style.setProperty("--hue", String((seat * 67 + 200) % 360)); // a hue of its own per seat
  if (colour) node.style.setProperty("--seat-colour", colour);
  return node;
}

/**
 * The avatar of `seat` now (null: a spectator's, a small eye).
 * @param {number | null} seat
 * @param {string} name
 */
export function chatAvatar(seat, name) {
  if (seat === null) return el("span", { class: "avatar mini spectator-avatar", "aria-hidden": "true", dataset: { glyph: "👀" } });
  const info = state.seats.find((entry) => entry.seat === seat) ?? {};
  return avatarNode(info, name, seat, "mini");
}

/** The badge of a seat in the voice chat (lobby and table). */
export function voiceBadge() {
  return badge("voice", t("social.badge.voice"), t("social.badge.voice.title"));
}

// ------------------------------------------------------------------ the seat's look in a room

/** What this device last asked its seat to look like (room, seat, avatar, colour). */
let lookSent = "";

/** Ask for this device's avatar and colour on its seat, if the seat shows others (once per change). */
export function sendLook() {
  if (state.seat === null || state.spectator || !state.code) return;
  const look = lookFields();
  if (!look.avatar && !look.colour) return;
  const mine = state.seats.find((entry) => entry.seat === state.seat);
  if (!mine || mine.kind !== "human") return;
  if ((!look.avatar || mine.avatar === look.avatar) && (!look.colour || mine.colour === look.colour)) return;
  const key = JSON.stringify([state.code, state.seat, look]);
  if (key === lookSent) return;
  lookSent = key;
  conn.send({ type: "look", ...look });
}

/**
 * Send a quick reaction, aimed at `to` (or at nobody).
 * @param {string} reaction
 * @param {number | null} to
 */
export function react(reaction, to) {
  /** @type {Message} */
  const message = { type: "react", reaction };
  if (to !== null) message.to = to;
  return conn.send(message);
}

/**
 * Fill the chat's "to" list of the quick reactions: everyone, or another seat of the room.
 * @param {HTMLSelectElement} select
 */
export function fillReactionTargets(select) {
  const kept = select.value;
  const others = state.seats.filter((seat) => seat.kind !== "open" && !(seat.seat === state.seat && !state.spectator));
  select.setAttribute("aria-label", t("social.chat.target"));
  select.title = t("social.chat.target.title");
  select.replaceChildren(
    el("option", { value: "", text: t("social.chat.to_all") }),
    ...others.map((seat) => el("option", { value: String(seat.seat), text: t("social.chat.to_name", { name: seat.name }) })),
  );
  select.value = others.some((seat) => String(seat.seat) === kept) ? kept : "";
}

/**
 * A reaction aimed at a seat as a chat line shows it: the reaction, an arrow and its target.
 * @param {ChatMessage} message
 */
export function aimedReaction(message) {
  const toMe = message.to === state.seat && !state.spectator;
  const target = toMe ? t("social.aimed.you") : message.text.split(" → ").slice(1).join(" → "); // the server's "👍 → Ann"
  return el("span", { class: "chat-text" }, el("span", { class: "chat-emoji", text: message.reaction }), " → ", target);
}

/** What the chat says when a reaction could not be sent. */
export const reactionNotSent = () => t("social.chat.not_sent");

/** @type {Promise<typeof import("./reactions.js")> | null} */
let reactionsModule = null;

/** reactions.js, loaded with the first reaction. */
export function loadReactions() {
  reactionsModule ??= import("./reactions.js");
  return reactionsModule;
}

/**
 * A chat message: a reaction shows as a bubble over its sender's seat too.
 * @param {ChatMessage} message
 */
export function showReaction(message) {
  if (typeof message.reaction === "string") loadReactions().then((module) => module.showReaction(message)).catch(() => {});
}

/**
 * The seat a pointer event is on (another player's or a bot's, at the table or in the lobby), with its element.
 * @param {Event} event
 * @returns {[number, HTMLElement] | null}
 */
function seatOf(event) {
  const target = /** @type {Element | null} */ (event.target instanceof Element ? event.target : null);
  const node = /** @type {HTMLElement | null} */ (target?.closest("#felt .seat, #lobby-seats .seat-row") ?? null);
  if (!node || target?.closest("button")) return null;
  const seat = Number(node.dataset.seat);
  const info = state.seats.find((entry) => entry.seat === seat);
  if (!info || info.kind === "open" || (seat === state.seat && !state.spectator)) return null; // nobody to react to
  return [seat, node];
}

let pressTimer = 0;

function bindAiming() {
  document.addEventListener("contextmenu", (event) => {
    const found = seatOf(event);
    if (!found || !state.code) return;
    event.preventDefault();
    loadReactions().then((module) => module.openReactMenu(found[0], found[1]));
  });
  document.addEventListener("pointerdown", (event) => {
    if (reactionsModule && !(event.target instanceof Element && event.target.closest(".react-menu"))) reactionsModule.then((module) => module.closeMenu());
    const found = seatOf(event);
    if (!found || event.pointerType === "mouse") return;
    clearTimeout(pressTimer);
    pressTimer = setTimeout(() => loadReactions().then((module) => module.openReactMenu(found[0], found[1])), LONG_PRESS_MS);
  });
  for (const kind of ["pointerup", "pointercancel", "pointermove"]) {
    document.addEventListener(kind, (event) => {
      if (kind === "pointermove" && /** @type {PointerEvent} */ (event).movementX ** 2 + /** @type {PointerEvent} */ (event).movementY ** 2 < 25) return;
      clearTimeout(pressTimer);
    });
  }
  document.addEventListener("unokit:screen", () => reactionsModule?.then((module) => module.closeMenu()));
}

// ------------------------------------------------------------------ messages

/** @type {Promise<typeof import("./voice.js")> | null} */
let voiceModule = null;

/** voice.js, loaded the first time voice is wanted. */
export function loadVoice() {
  voiceModule ??= import("./voice.js");
  return voiceModule;
}

/**
 * Every message from the server: keep the seat's look, and pass the voice chat's on.
 * @param {Message} message
 */
export function socialMessage(message) {
  switch (message.type) {
    case "lobby":
    case "update":
      queueMicrotask(sendLook); // once the page took the seats in
      voiceModule?.then((voice) => voice.onSeats(message.seats ?? [])).catch(() => {}); // calls to seats gone from voice end
      showVoiceBar();
      break;
    case "voice":
    case "signal":
      loadVoice().then((voice) => voice.onVoiceMessage(message)).catch(() => {});
      break;
    case "welcome":
      lookSent = "";
      break;
    default:
      break;
  }
}

const PHONE = "(max-width: 600px)";

/** The voice controls show in a room for a seated player: in the top bar, but at the table on a
 * phone, where the top bar is full, over the hand (by the thumb). */
function showVoiceBar() {
  const bar = document.getElementById("voice-bar");
  if (!bar) return;
  const home = state.screen === "table" && window.matchMedia(PHONE).matches ? $("#hand-area .hand-head") : $("#topbar .topbar-tools");
  if (home && bar.parentElement !== home) {
    if (home.classList.contains("topbar-tools")) home.prepend(bar);
    else home.append(bar);
  }
  show(bar, Boolean(state.code) && state.seat !== null && !state.spectator && (state.screen === "lobby" || state.screen === "table"));
}

/**
 * A game event as it is presented: celebrate a win or an UNO call (celebrate.js, loaded when first needed).
 * @param {GameEvent} event
 * @param {boolean} live
 */
export function socialEvent(event, live) {
  const uno = event.kind === "uno" || (event.kind === "play" && event.value === 1); // a card played with the call
  if (!live || !(uno || event.kind === "round_end" || event.kind === "match_end")) return;
  import("./celebrate.js").then((fx) => fx.celebrate(event, uno)).catch(() => {});
}

/** Wire the pickers, the aiming and the voice controls. */
export function bindSocial() {
  bindAiming();
  $("#voice-join")?.addEventListener("click", () => loadVoice().then((voice) => voice.toggleVoice()));
  $("#voice-mic")?.addEventListener("click", () => loadVoice().then((voice) => voice.toggleMic()));
  window.matchMedia(PHONE).addEventListener("change", showVoiceBar);
  document.addEventListener("unokit:screen", () => {
    if (state.screen === "start" || state.screen === "join") import("./look.js").then((look) => look.buildPickers()).catch(() => {});
    showVoiceBar();
    if (state.screen !== "lobby" && state.screen !== "table") voiceModule?.then((voice) => voice.leaveVoice());
  });
}
