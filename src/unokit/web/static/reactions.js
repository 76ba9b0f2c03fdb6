// Quick reactions as bubbles over the sender's seat (loaded with the first reaction): stacked a
// few high, gone after a few seconds, an arrow and a label toward the seat a reaction is aimed at,
// told politely to screen readers when the chat is out of sight; and the small menu that aims a
// reaction at a seat ("React to Bob").  Also the layer that celebrate.js draws on.

import { el } from "./dom.js";
import { state } from "./state.js";
import { REACTIONS, react } from "./social.js";
import { t } from "./i18n.js";

const BUBBLE_MS = 4000;
const MAX_BUBBLES = 3;

/** The layer of the bubbles and celebrations, over the page (no layout shift, no pointer events). */
export function overlay() {
  let layer = document.getElementById("social-layer");
  if (!layer) {
    layer = el("div", { id: "social-layer", class: "social-layer", "aria-hidden": "true" });
    document.body.append(layer);
  }
  return layer;
}

/** The polite announcer of reactions (when the chat's own log is out of sight): on the page from the start. */
const announcer = () => document.getElementById("social-announce");

/**
 * Where a seat shows now: its seat at the table, its row in the lobby; the stands for a spectator.
 * @param {number | null} seat
 * @returns {HTMLElement | null}
 */
export function seatAnchor(seat) {
  if (state.screen === "table") {
    if (seat === null) return document.getElementById("felt");
    // eslint-disable-next-line no-restricted-syntax -- a selector, not words
    return document.querySelector(`#felt .seat[data-seat="${seat}"]`);
  }
  if (state.screen === "lobby") {
    if (seat === null) return document.getElementById("lobby-seats");
    // eslint-disable-next-line no-restricted-syntax -- a selector, not words
    const row = document.querySelector(`#lobby-seats .seat-row[data-seat="${seat}"]`);
    return /** @type {HTMLElement | null} */ (row?.querySelector(".avatar, .seat-name") ?? row); // over the name, not the row's middle
  }
  return null;
}

/**
 * A reaction's bubble over the sender's seat, with an arrow and a label to its target.
 * @param {ChatMessage} message
 */
export function showReaction(message) {
  if (typeof message.reaction !== "string") return;
  const target = typeof message.to === "number" ? message.to : null;
  const anchor = seatAnchor(message.seat);
  const toMe = target !== null && target === state.seat && !state.spectator;
  const toName = target === null ? "" : toMe ? t("social.aimed.you") : nameOf(target);
  const chatShown = Boolean(document.querySelector("#chat:not([hidden]) .chat-log")?.getClientRects().length);
  const live = announcer();
  if (!chatShown && live) live.textContent = announcement(message, target, toMe);
  if (!anchor) return;
  const layer = overlay();
  const key = message.seat === null ? "stands" : String(message.seat);
  // eslint-disable-next-line no-restricted-syntax -- a selector, not words
  let stack = /** @type {HTMLElement | null} */ (layer.querySelector(`.bubble-stack[data-from="${key}"]`));
  if (!stack) {
    stack = el("div", { class: "bubble-stack", dataset: { from: key } });
    layer.append(stack);
  }
  place(stack, anchor, message.seat === null);
  const bubble = el(
    "div",
    // eslint-disable-next-line no-restricted-syntax -- class names, not words
    { class: `bubble${target !== null ? " aimed" : ""}${message.seat === null ? " from-stands" : ""}` },
    message.seat === null ? el("span", { class: "bubble-from", text: t("social.bubble.spectator") }) : null,
    el("span", { class: "bubble-text", text: message.reaction }),
    target !== null ? el("span", { class: "bubble-to" }, el("span", { class: "bubble-arrow", "aria-hidden": "true", text: "➜" }), " ", toName) : null,
  );
  if (target !== null) aim(bubble, anchor, seatAnchor(target));
  stack.append(bubble);
  while (stack.children.length > MAX_BUBBLES) stack.firstElementChild?.remove();
  setTimeout(() => {
    bubble.classList.add("leaving");
    setTimeout(() => {
      bubble.remove();
      if (stack && !stack.children.length) stack.remove();
    }, 400);
  }, BUBBLE_MS);
}

/** @param {number} seat */
function nameOf(seat) {
  return state.seats.find((entry) => entry.seat === seat)?.name ?? t("social.seat", { seat });
}

/**
 * What screen readers are told of a reaction: who, what, and to whom.
 * @param {ChatMessage} message
 * @param {number | null} target
 * @param {boolean} toMe
 */
function announcement(message, target, toMe) {
  const reaction = String(message.reaction);
  const mine = message.seat !== null && message.seat === state.seat && !state.spectator;
  if (mine) return target === null ? t("social.announce.mine", { reaction }) : t("social.announce.mine_to", { reaction, target: nameOf(target) });
  const name = message.name;
  if (target === null) return t("social.announce.other", { name, reaction });
  if (toMe) return t("social.announce.other_to_you", { name, reaction });
  return t("social.announce.other_to", { name, reaction, target: nameOf(target) });
}

/**
 * Put a stack of bubbles above (a seat at the table's bottom half: above; else below) its anchor.
 * @param {HTMLElement} stack
 * @param {HTMLElement} anchor
 * @param {boolean} stands a spectator's: the felt's top left corner
 */
function place(stack, anchor, stands) {
  const box = anchor.getBoundingClientRect();
  const x = stands ? box.left + 70 : box.left + box.width / 2;
  const below = !stands && state.screen === "table" && box.top < window.innerHeight * 0.28 && anchor.closest("#opponents");
  const y = stands ? box.top + 8 : below ? box.bottom : box.top;
  stack.classList.toggle("below", Boolean(below) || stands);
  // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
  stack.style.left = `${Math.round(Math.min(Math.max(x, 70), window.innerWidth - 70))}px`;
  // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
  stack.style.top = `${Math.round(y)}px`;
}

/**
 * Turn a bubble's arrow toward its target's seat.
 * @param {HTMLElement} bubble
 * @param {HTMLElement} from
 * @param {HTMLElement | null} to
 */
function aim(bubble, from, to) {
  const arrow = /** @type {HTMLElement | null} */ (bubble.querySelector(".bubble-arrow"));
  if (!to || !arrow) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  const angle = Math.atan2(b.top + b.height / 2 - (a.top + a.height / 2), b.left + b.width / 2 - (a.left + a.width / 2));
  // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
  arrow.style.setProperty("--aim", `${((angle * 180) / Math.PI).toFixed(1)}deg`);
}

// ------------------------------------------------------------------ aiming a reaction at a seat

/** The open menu of reactions aimed at a seat, if any. */
let menu = /** @type {HTMLElement | null} */ (null);

let placing = 0;

/** The page scrolled (a phone's table): the bubbles follow their seats. */
function follow() {
  placing = 0;
  for (const stack of overlay().querySelectorAll(".bubble-stack")) {
    const from = /** @type {HTMLElement} */ (stack).dataset.from;
    const anchor = seatAnchor(from === "stands" ? null : Number(from));
    if (anchor) place(/** @type {HTMLElement} */ (stack), anchor, from === "stands");
  }
}

window.addEventListener("scroll", () => (placing ||= requestAnimationFrame(follow)), { passive: true });

document.addEventListener("unokit:screen", () => {
  for (const stack of overlay().querySelectorAll(".bubble-stack")) stack.remove(); // another screen: the seats moved
});

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && menu) {
    closeMenu();
    event.stopPropagation();
  }
});

export function closeMenu() {
  menu?.remove();
  menu = null;
}

/**
 * The small menu "React to Bob": the quick reactions, aimed at `seat`.
 * @param {number} seat
 * @param {HTMLElement} anchor
 */
export function openReactMenu(seat, anchor) {
  closeMenu();
  if (state.seat === seat && !state.spectator) return;
  const info = state.seats.find((entry) => entry.seat === seat);
  if (!info || info.kind === "open") return;
  const name = info.name;
  const buttons = REACTIONS.map((reaction) =>
    el("button", {
      class: "react-menu-button",
      text: reaction,
      title: t("social.menu.reaction", { reaction, name }),
      "aria-label": t("social.menu.reaction", { reaction, name }),
      onclick: () => {
        react(reaction, seat);
        closeMenu();
        anchor.focus?.();
      },
    }),
  );
  menu = el(
    "div",
    { class: "react-menu", role: "dialog", "aria-label": t("social.menu.title", { name }) },
    el("p", { class: "react-menu-title", text: t("social.menu.title", { name }) }),
    el("div", { class: "react-menu-buttons" }, buttons),
    el("button", { class: "react-menu-close", "aria-label": t("social.menu.close"), text: "×", onclick: closeMenu }),
  );
  document.body.append(menu);
  const box = anchor.getBoundingClientRect();
  const width = menu.offsetWidth;
  const left = Math.min(Math.max(box.left + box.width / 2 - width / 2, 6), window.innerWidth - width - 6);
  const above = box.top > menu.offsetHeight + 12;
  // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
  menu.style.left = `${Math.round(left + window.scrollX)}px`;
  // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
  menu.style.top = `${Math.round((above ? box.top - menu.offsetHeight - 6 : box.bottom + 6) + window.scrollY)}px`;
  /** @type {HTMLElement | null} */ (menu.querySelector("button"))?.focus();
}

