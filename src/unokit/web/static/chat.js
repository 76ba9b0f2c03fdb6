// The room chat, from the lobby to the table (a drawer with an unread count on a phone): quick
// reactions (to everyone or aimed at a seat; each a bubble over its sender's seat too), the
// writers' avatars, the last messages on entering and the chat's errors.  Every text goes in as text.

import { $, el, scrollToEnd, show } from "./dom.js";
import { state } from "./state.js";
import { conn } from "./connection.js";
import { REACTIONS, aimedReaction, chatAvatar, fillReactionTargets, react, reactionNotSent, showReaction } from "./social.js";
import { t } from "./i18n.js";

/** One-tap reactions (`react`): a bubble over the sender's seat, and a line of the chat. */
const QUICK_REACTIONS = REACTIONS;
const MAX_SHOWN = 100;
const ERROR_MS = 6000;
/** An error this soon after a chat message was sent is taken as that message's. */
const ERROR_WINDOW_MS = 3000;
const PHONE = "(max-width: 600px)";

const chat = {
  /** @type {HTMLElement | null} */
  root: null,
  maxLength: 200,
  open: false,
  unread: 0,
  /** @type {Set<number>} */
  seen: new Set(),
  sentAt: 0,
  lastSent: "",
  errorTimer: 0,
  /** whether the log is scrolled to (near) its end: then a new message scrolls it on */
  atEnd: true,
};

/** Whether the chat is a drawer (a phone-sized screen). */
const isDrawer = () => window.matchMedia(PHONE).matches;

/** The chat's elements, made once. */
function build() {
  if (chat.root) return chat.root;
  const limit = Number(/** @type {any} */ (state.options)?.limits?.chat);
  if (Number.isInteger(limit) && limit > 0) chat.maxLength = limit;
  const input = /** @type {HTMLInputElement} */ (
    el("input", {
      name: "text",
      class: "chat-input",
      maxlength: chat.maxLength,
      placeholder: t("chat.placeholder"),
      "aria-label": t("chat.input"),
      autocomplete: "off",
      oninput: updateCount,
    })
  );
  const quick = QUICK_REACTIONS.map((text) =>
    el("button", { class: "chat-quick-button", text, title: t("chat.quick.send", { text }), onclick: () => sendReaction(text) }),
  );
  const target = el("select", { class: "chat-target", onfocus: fillTargets, onpointerdown: fillTargets }); // named and filled by social.js
  const root = el(
    "aside",
    { id: "chat", class: "chat", "aria-label": t("chat.title"), hidden: true },
    el(
      "button",
      { class: "chat-toggle", "aria-expanded": "false", "aria-controls": "chat-panel", onclick: () => setOpen(!chat.open) },
      el("span", { class: "chat-toggle-icon", "aria-hidden": "true", text: "💬" }),
      el("span", { class: "chat-toggle-label", text: t("chat.title") }),
      el("span", { class: "chat-unread", hidden: true, "aria-label": t("chat.unread") }),
    ),
    el(
      "div",
      { id: "chat-panel", class: "chat-panel panel" },
      el(
        "div",
        { class: "chat-head" },
        el("h3", { text: t("chat.title") }),
        el("button", { class: "chat-close", "aria-label": t("chat.close"), text: "×", onclick: () => setOpen(false) }),
      ),
      el("ol", { class: "chat-log", "aria-live": "polite", onscroll: onLogScroll }),
      el("p", { class: "chat-empty muted", text: t("chat.empty") }),
      el("div", { class: "chat-quick", role: "group", "aria-label": t("chat.quick") }, target, quick),
      el(
        "form",
        { class: "chat-form", autocomplete: "off", onsubmit: onSubmit },
        input,
        el("button", { type: "submit", class: "chat-send", text: t("chat.send") }),
      ),
      el(
        "p",
        { class: "chat-meta" },
        el("span", { class: "chat-error", role: "status" }),
        el("span", { class: "chat-count muted" }),
      ),
    ),
  );
  chat.root = root;
  document.body.append(root);
  updateCount();
  window.matchMedia(PHONE).addEventListener("change", () => setOpen(chat.open));
  return root;
}

/**
 * Put the chat on the screen shown: in the lobby, beside the table, nowhere else.
 * @param {string} screen
 */
function mountChat(screen) {
  const root = build();
  if (!state.code || (screen !== "lobby" && screen !== "table")) {
    show(root, false);
    setOpen(false);
    return;
  }
  const lobby = screen === "lobby";
  const host = $(lobby ? "#lobby" : "#table .side");
  if (root.parentElement !== host) host.insertBefore(root, lobby ? null : host.children[1] ?? null); // at the table: under the scores
  if (root.dataset.screen !== screen) chat.open = false; // a drawer opened in the lobby stays there
  root.dataset.screen = screen;
  show(root, true);
  fillTargets();
  setOpen(chat.open);
}

/** @param {boolean} open the drawer (phones; always open on wider screens) */
function setOpen(open) {
  const root = build();
  chat.open = open;
  const shown = open || !isDrawer();
  root.classList.toggle("open", open);
  $(".chat-toggle", root).setAttribute("aria-expanded", String(shown));
  // a drawer open: the page gets room below for what it would cover (the hand, Submit rule cards)
  const sheet = open && isDrawer() && !root.hidden ? $(".chat-panel", root).getBoundingClientRect().height : 0;
  // eslint-disable-next-line no-restricted-syntax -- CSS
  document.documentElement.style.setProperty("--chat-sheet", `${Math.ceil(sheet)}px`);
  document.documentElement.classList.toggle("chat-sheet-open", sheet > 0);
  if (shown) {
    chat.unread = 0;
    scrollDown(true);
  }
  updateUnread();
}

function updateUnread() {
  const badge = $(".chat-unread", build());
  badge.textContent = chat.unread > 9 ? "9+" : String(chat.unread);
  show(badge, chat.unread > 0);
}

const chatInput = () => /** @type {HTMLInputElement} */ ($(".chat-input", build()));

function updateCount() {
  const length = chatInput().value.trim().length;
  const count = $(".chat-count", build());
  count.textContent = `${length}/${chat.maxLength}`;
  count.classList.toggle("near", length > chat.maxLength - 20);
}

/** @param {boolean} [force] scroll even if the player scrolled up to read */
function scrollDown(force = false) {
  if (force || chat.atEnd) scrollToEnd($(".chat-log", build()));
}

/** @param {Event} event */
function onLogScroll(event) {
  const log = /** @type {HTMLElement} */ (event.currentTarget);
  chat.atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 60;
}

/** @param {SubmitEvent} event */
function onSubmit(event) {
  event.preventDefault();
  const input = chatInput();
  const text = input.value.trim();
  if (!text) return;
  if (send(text)) {
    input.value = "";
    updateCount();
  }
}

const targetSelect = () => /** @type {HTMLSelectElement} */ ($(".chat-target", build()));

/** The "to" list of the quick reactions: everyone, or another seat of the room. */
function fillTargets() {
  fillReactionTargets(targetSelect());
}

/**
 * Send a quick reaction to the seat chosen in the "to" list (or to all).
 * @param {string} reaction
 */
function sendReaction(reaction) {
  fillTargets();
  const to = targetSelect().value;
  if (!react(reaction, to === "" ? null : Number(to))) {
    sayError(reactionNotSent());
    return;
  }
  chat.sentAt = Date.now();
  chat.lastSent = "";
  sayError("");
}

/**
 * Send a chat text.
 * @param {string} text
 * @returns {boolean} whether it went out
 */
function send(text) {
  if (text.length > chat.maxLength) {
    sayError(t("chat.error.long", { count: chat.maxLength }));
    return false;
  }
  if (!conn.send({ type: "chat", text })) {
    sayError(t("chat.error.offline"));
    return false;
  }
  chat.sentAt = Date.now();
  chat.lastSent = text;
  sayError("");
  return true;
}

/** @param {string} text */
function sayError(text) {
  const node = $(".chat-error", build());
  node.textContent = text;
  clearTimeout(chat.errorTimer);
  if (text) chat.errorTimer = setTimeout(() => (node.textContent = ""), ERROR_MS);
}

/**
 * An `error` that answers a chat message just sent: said in the chat (true), else left to the page (false).
 * @param {Message} message
 */
export function chatError(message) {
  if (!chat.sentAt || Date.now() - chat.sentAt > ERROR_WINDOW_MS) return false;
  const input = chatInput();
  if (message.code === "rate-limited") {
    sayError(t("chat.error.rate"));
  } else if (message.code === "malformed") {
    sayError(t("chat.error.malformed", { count: chat.maxLength }));
  } else {
    return false;
  }
  chat.sentAt = 0;
  if (!input.value) {
    input.value = chat.lastSent;
    updateCount();
  }
  return true;
}

/** @param {ChatMessage} message */
const isMine = (message) => message.seat !== null && message.seat === state.seat && !state.spectator;

/**
 * A message's line: its writer ("You" for this seat) and its text, as text.
 * @param {ChatMessage} message
 */
function line(message) {
  const mine = isMine(message);
  const who = mine ? t("seat.you") : message.name;
  const time = new Date(message.time * 1000);
  const stamp = Number.isFinite(time.getTime()) ? time.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
  const short = message.text.length <= 5 && QUICK_REACTIONS.includes(message.text);
  return el(
    "li",
    {
      // eslint-disable-next-line no-restricted-syntax -- class names
      class: `chat-line${mine ? " mine" : ""}${message.seat === null ? " spectator" : ""}${short ? " reaction" : ""}`,
      title: stamp,
    },
    chatAvatar(message.seat, message.name),
    el("span", { class: "chat-name", text: who }),
    typeof message.reaction === "string" && message.to !== null && message.to !== undefined
      ? aimedReaction(message)
      : el("span", { class: "chat-text", text: message.text }),
  );
}

/** @param {unknown} value */
function isChat(value) {
  const message = /** @type {Record<string, unknown>} */ (value);
  return Boolean(message) && typeof message.text === "string" && typeof message.name === "string" && typeof message.id === "number";
}

/** @param {ChatMessage} message */
function append(message) {
  if (chat.seen.has(message.id)) return false;
  chat.seen.add(message.id);
  const log = $(".chat-log", build());
  log.append(line(message));
  while (log.children.length > MAX_SHOWN) log.firstElementChild?.remove();
  show($(".chat-empty", build()), false);
  return true;
}

/** @param {Message} message a `chat` message */
export function onChat(message) {
  if (!isChat(message)) return;
  const chatMessage = /** @type {ChatMessage} */ (message);
  if (!append(chatMessage)) return;
  showReaction(chatMessage);
  const mine = isMine(chatMessage);
  if (!mine && isDrawer() && !chat.open) {
    chat.unread += 1;
    updateUnread();
  }
  scrollDown(mine);
}

/** @param {Message} message a `chat_history` message: the room's last messages */
export function onChatHistory(message) {
  const messages = Array.isArray(message.messages) ? message.messages.filter(isChat) : [];
  resetChat();
  for (const item of messages) append(item);
  scrollDown(true);
}

/** Forget the messages shown (another room, or none). */
export function resetChat() {
  const root = build();
  chat.seen.clear();
  chat.unread = 0;
  chat.atEnd = true;
  $(".chat-log", root).replaceChildren();
  show($(".chat-empty", root), true);
  updateUnread();
  sayError("");
}

/** Follow the screens (state.js tells each change). */
export function bindChat() {
  document.addEventListener("unokit:screen", (event) => mountChat(String(/** @type {CustomEvent} */ (event).detail)));
}
