// The room around the table: the banners above it (the bot plays for you, a late arrival's seat), the
// rematch vote, leaving (the top bar's Leave, asked first during a match) and being moved or removed.

import { $, el, show, toast } from "./dom.js";
import { state, storeSeat, storedSeat, forgetSeat, seatName, forgetRoom } from "./state.js";
import { conn } from "./connection.js";
import { showStart } from "./start.js";
import { resetChat } from "./chat.js";
import { capitalize, seatList } from "./labels.js";
import { t } from "./i18n.js";

/**
 * A late arrival watches until the next round, when they take seat `seat`.
 * @param {number} seat
 */
function claim(seat) {
  state.claimedSeat = seat;
  state.seat = null;
  state.spectator = true;
}

/**
 * A `welcome` (app.js took it in): a late arrival's is for the seat they claimed.
 * @param {Message} message
 */
export function onRoomWelcome(message) {
  if (message.claimed === true && typeof message.seat === "number") claim(message.seat);
  else state.claimedSeat = null;
}

/**
 * The room's part of an `update` (rematch votes, a late arrival's claim), before the table is drawn.
 * @param {Message} message
 */
export function onRoomUpdate(message) {
  // null until the match is over
  state.rematch = message.rematch && Array.isArray(message.rematch.votes) ? message.rematch : null;
  state.reading = message.reading && Array.isArray(message.reading.waiting) ? message.reading : null;
  if (!state.reading) state.continued = false;
  if (typeof message.claimed_seat === "number") {
    claim(message.claimed_seat);
  } else if (typeof message.you === "number") {
    state.claimedSeat = null;
    state.spectator = false;
  } else if (state.claimedSeat !== null) {
    state.claimedSeat = null; // the match ended before the next round: the claim is void
  }
  renderRoomBanner();
}

/**
 * The round's results are read: the next round waits for this player no longer.  Sent once the page
 * shows the table of an update whose results hold it (`update.reading`), or when the results close.
 * @param {Message | null} message the update drawn (else the last one heard of)
 */
export function continueIfRead(message = null) {
  const reading = message ? message.reading : state.reading;
  if (!reading || !Array.isArray(reading.waiting) || state.seat === null || !reading.waiting.includes(state.seat)) return;
  if (state.continued || !$("#results").hidden || state.resultsQueue.some((result) => result.kind === "round")) return;
  state.continued = true;
  conn.send({ type: "continue" });
}

/** The seat entry of `seat` in the last seats heard of. */
/** @param {number | null} seat */
const seatInfo = (seat) => state.seats.find((entry) => entry.seat === seat);

/**
 * A banner above the table.
 * @param {string} role
 * @param {string} icon
 * @param {string} text
 * @param {HTMLElement} [button]
 */
const banner = (role, icon, text, button) =>
  el(
    "div",
    // eslint-disable-next-line no-restricted-syntax -- class names, not words
    { class: `banner ${role}`, dataset: { role } },
    el("span", { class: "banner-icon", "aria-hidden": "true", text: icon }),
    el("span", { class: "banner-text", text }),
    button,
  );

/** Draw the banners above the table and the rematch vote (also in the match results). */
export function renderRoomBanner() {
  const box = $("#room-banner");
  const parts = [];
  if (state.screen === "table") {
    if (state.claimedSeat !== null) {
      const was = seatInfo(state.claimedSeat)?.name ?? t("page.bot_name", { number: state.claimedSeat });
      parts.push(banner("claimed", "🪑", t("page.banner.claimed", { seat: state.claimedSeat, was })));
    }
    if (state.seat !== null && seatInfo(state.seat)?.auto && !state.rematch) {
      parts.push(
        banner(
          "auto",
          "🤖",
          t("page.banner.auto"),
          el("button", { id: "im-back", class: "primary", text: t("page.banner.back"), onclick: () => conn.send({ type: "back" }) }),
        ),
      );
    }
    if (state.rematch) parts.push(rematchBox("rematch-table")); // the match is over
  }
  box.replaceChildren(...parts);
  show(box, parts.length > 0);
  // the felt leaves the banners room, so that the table still fits the window
  const height = parts.length ? box.getBoundingClientRect().height + 10 : 0;
  // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
  document.documentElement.style.setProperty("--banner-h", `${Math.ceil(height)}px`);
  renderResultsRematch();
  renderLeave();
}

/** The rematch vote inside the match results (when the results are the match's). */
function renderResultsRematch() {
  const old = $("#results-rematch");
  if (!state.rematch || state.screen !== "table") {
    old?.remove();
    return;
  }
  const fresh = rematchBox("results-rematch");
  if (old) old.replaceWith(fresh);
  else $("#results .overlay-box > .row").before(fresh); // above the buttons
}

/** @param {number[]} seats the seats named mid-sentence: "Ann and you" */
const names = (seats) => seatList(seats, state.seat, seatName);

/**
 * The rematch vote: a button for a player, who voted and who is awaited for everyone.
 * @param {string} id
 */
function rematchBox(id) {
  const rematch = state.rematch ?? { votes: [], waiting: [] };
  const player = state.seat !== null && seatInfo(state.seat)?.kind === "human";
  const voted = player && rematch.votes.includes(/** @type {number} */ (state.seat));
  const lines = [];
  if (rematch.votes.length) lines.push(t("page.rematch.ready", { names: names(rematch.votes) }));
  if (rematch.waiting.length) lines.push(t("page.rematch.waiting", { names: names(rematch.waiting) }));
  if (!lines.length) lines.push(t(player ? "page.rematch.ask" : "page.rematch.follow"));
  return el(
    "div",
    { id, class: "rematch-box", dataset: { role: "rematch" } },
    player
      ? el("button", {
          // eslint-disable-next-line no-restricted-syntax -- class names, not words
          class: `rematch-button ${voted ? "" : "primary"}`.trim(),
          text: t(voted ? "page.rematch.asked" : "page.rematch.button"),
          disabled: voted,
          onclick: () => conn.send({ type: "rematch" }),
        })
      : null,
    el("span", { class: "rematch-status", text: lines.join(" ") }),
  );
}

/**
 * The rematch has begun in room `code` (just now, or this is an old link of the room): keep the new
 * seat's secret and go there.
 * @param {Message} message
 */
export function onMoved(message) {
  const code = typeof message.code === "string" ? message.code : "";
  if (!/^[A-Za-z0-9]+$/.test(code)) return;
  const seated = typeof message.secret === "string" && typeof message.seat === "number";
  if (seated) storeSeat(code, message.secret, message.seat);
  closeSocket();
  // an old link of the room: the seat this browser was given in the rematch, if any, else watch it
  // eslint-disable-next-line no-restricted-syntax -- addresses, not words
  location.assign(seated || storedSeat(code) ? `/r/${code}` : `/r/${code}?watch`);
}

/**
 * The host removed this player: their seat is gone.
 * @param {Message} message
 */
export function onRemoved(message) {
  if (state.code) forgetSeat(state.code);
  const text = typeof message.message === "string" && message.message ? `${capitalize(message.message)}.` : t("toast.removed");
  backToStart(text);
}

/** This connection left the room (a seat in a match is kept for a return). */
export function onLeft() {
  if (state.code && !state.view) forgetSeat(state.code);
  const match = Boolean(state.view) && !state.finished;
  backToStart(t(match ? "toast.left_match" : "toast.left_room"));
}

function closeSocket() {
  conn.wanted = false;
  clearTimeout(conn.timer);
  clearInterval(conn.pingTimer);
  const ws = conn.ws;
  conn.ws = null;
  ws?.close();
}

/** @param {string} text what happened, told on the start page */
function backToStart(text) {
  closeSocket();
  forgetRoom();
  show($("#results"), false);
  resetChat();
  renderRoomBanner();
  history.pushState(null, "", "/");
  showStart();
  toast(text);
}

// --- leaving the table

/** Whether leaving now hands a seat in a match to the bot (so it is asked first). */
function leavingHandsOver() {
  return (state.seat !== null || state.claimedSeat !== null) && !state.finished && !state.rematch;
}

/** The top bar's Leave button and its confirmation: shown at the table only. */
function renderLeave() {
  const button = $("#leave-match");
  const atTable = state.screen === "table" && Boolean(state.code);
  show(button, atTable);
  button.title = t(leavingHandsOver() ? "page.leave.title_match" : "page.leave.title");
  if (!atTable) askLeave(false);
}

/**
 * Open or close the confirmation of leaving.
 * @param {boolean} open
 */
function askLeave(open) {
  const box = $("#leave-confirm");
  show(box, open);
  $("#leave-match").setAttribute("aria-expanded", String(open));
  if (open) $("#leave-stay", box).focus();
}

/** Leave: at once for a spectator or once the match is over, else after the player confirms. */
function onLeaveClick() {
  if (leavingHandsOver()) askLeave(Boolean($("#leave-confirm").hidden));
  else conn.send({ type: "leave" });
}

/** The top bar's Leave button and its confirmation. */
function buildLeave() {
  const button = el("button", {
    id: "leave-match",
    class: "leave-button",
    "aria-haspopup": "dialog",
    "aria-expanded": "false",
    "aria-controls": "leave-confirm",
    hidden: true,
    onclick: onLeaveClick,
  });
  const box = el(
    "div",
    { id: "leave-confirm", class: "leave-confirm", role: "dialog", "aria-labelledby": "leave-confirm-title", hidden: true },
    el("h2", { id: "leave-confirm-title" }),
    el("p", { id: "leave-confirm-text" }),
    el(
      "div",
      { class: "row" },
      el("button", {
        id: "leave-confirmed",
        class: "danger",
        onclick: () => {
          askLeave(false);
          conn.send({ type: "leave" });
        },
      }),
      el("button", { id: "leave-stay", class: "primary", onclick: () => askLeave(false) }),
    ),
  );
  $("#topbar .topbar-tools").prepend(button);
  $("#topbar").append(box);
  labelLeave();
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      askLeave(false);
      button.focus();
    }
  });
}

/** The words of the Leave button and its confirmation, in the page's language. */
function labelLeave() {
  $("#leave-match").textContent = t("page.leave");
  $("#leave-confirmed").textContent = t("page.leave");
  $("#leave-stay").textContent = t("page.leave.stay");
  $("#leave-confirm-title").textContent = t("page.leave.confirm_title");
  $("#leave-confirm-text").textContent = t("page.leave.confirm_text");
}

/** Hide the banners on the other screens; the top bar's Leave; `continue` once the results close. */
export function bindRoom() {
  buildLeave();
  const results = $("#results");
  new MutationObserver(() => {
    if (results.hidden) continueIfRead();
  }).observe(results, { attributes: true, attributeFilter: ["hidden"] });
  document.addEventListener("unokit:screen", () => {
    renderRoomBanner();
    renderLeave();
  });
  document.addEventListener("unokit:language", () => {
    labelLeave();
    renderRoomBanner(); // its words, the Leave button's title too
  });
}
