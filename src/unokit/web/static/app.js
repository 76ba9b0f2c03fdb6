// unokit browser client: one page for the start page, the lobby, the table and replays.
// The server is the only authority: legality comes from the `legal` list of each update, and
// every user-provided string is put on the page as text (textContent / text nodes), never as HTML.
//
// This module routes the server's messages and the keys, wires the page and opens the screen the
// address asks for.  The other modules, by concern: docs/web.md, "The browser client".

import { $, toast } from "./dom.js";
import { state, storeSeat, forgetSeat, setScreen, showRoomLabel } from "./state.js";
import { conn, hooks, serverSpeaks } from "./connection.js";
import { loadOptions, showStart, showJoin, watch, enterRoom, bindStart, relabelStart } from "./start.js";
import { onLobby, onReading, showReading, renderLobby, bindLobby } from "./lobby.js";
import { addLog, renderTable } from "./table.js";
import { tableKey } from "./hand.js";
import { showNextResult, closeResults, dropStaleDecision } from "./dialogs.js";
import { presentUpdate, presenter } from "./animation.js";
import { applyPrefs, prefs } from "./prefs.js";
import { onChat, onChatHistory, chatError, bindChat } from "./chat.js";
import { onRoomWelcome, onRoomUpdate, onMoved, onRemoved, onLeft, bindRoom, continueIfRead } from "./room.js";
import { eventSound } from "./sound.js";
import { noticeUpdate } from "./attention.js";
import { bindSettings } from "./settings.js";
import { sentence } from "./labels.js";
import { bindSocial, socialEvent, socialMessage } from "./social.js";
import { language, resolveLanguage, t, useLanguage } from "./i18n.js";

// ------------------------------------------------------------------ loaded on demand

/** @type {typeof import("./replay.js") | null} */
let replayModule = null;

/**
 * The replay page (replay.js, loaded the first time it is opened).
 * @param {string} code
 */
async function openReplay(code) {
  if (!replayModule) {
    replayModule = await import("./replay.js");
    replayModule.bindReplay();
  }
  replayModule.startReplay(code);
}

/** Teaching newcomers (learn.js): how to play, the guided first game, hints. */
const learn = () => import("./learn.js");

// ------------------------------------------------------------------ messages

/** @param {Message} message */
function handleMessage(message) {
  socialMessage(message); // avatars and voice: social.js
  switch (message.type) {
    case "welcome":
      return onWelcome(message);
    case "lobby":
      return onLobby(message);
    case "update":
      return onUpdate(message);
    case "reading":
      return onReading(message);
    case "error":
      return onError(message);
    case "chat":
      return onChat(message);
    case "chat_history":
      return onChatHistory(message);
    case "moved":
      return onMoved(message);
    case "removed":
      return onRemoved(message);
    case "left":
      return onLeft();
    case "hint":
      return learn().then((module) => module.onHint(message));
    default:
      return undefined;
  }
}

/** @param {Message} message */
function onWelcome(message) {
  state.code = message.code;
  state.seat = typeof message.seat === "number" ? message.seat : null;
  state.spectator = state.seat === null;
  state.host = Boolean(message.host);
  // eslint-disable-next-line no-restricted-syntax -- an address, not words
  state.invite = message.invite || `/r/${message.code}`;
  state.hello = null;
  if (typeof message.secret === "string" && message.secret) {
    state.secret = message.secret;
    storeSeat(/** @type {string} */ (state.code), message.secret, state.seat);
  }
  onRoomWelcome(message);
  // eslint-disable-next-line no-restricted-syntax -- an address, not words
  const path = `/r/${state.code}`;
  if (location.pathname !== path) history.replaceState(null, "", path);
  setScreen(state.view ? "table" : state.screen === "start" || state.screen === "join" ? "lobby" : state.screen);
}

/** @param {Message} message */
function onError(message) {
  if (chatError(message)) return undefined; // said in the chat
  const text = typeof message.message === "string" ? message.message : t("toast.error");
  const code = message.code;
  if (code === "bad-rule-card" && state.expect.length) {
    const expected = state.expect.shift();
    if (expected?.kind === "read") return showReading(expected.index, expected.text, text, null);
    if (expected?.kind === "submit") {
      $("#rule-status").textContent = text;
      return undefined;
    }
  }
  state.busy = false;
  if (code === "stale") {
    conn.send({ type: "sync", version: state.version }, true);
  } else if ((code === "not-found" || code === "forbidden") && state.secret && !state.view && !state.lobby) {
    // the stored seat is no longer valid: offer to join or watch instead
    forgetSeat(/** @type {string} */ (state.code));
    state.secret = null;
    showJoin(/** @type {string} */ (state.code));
  } else if (code === "not-found" && !state.view && !state.lobby) {
    state.spectator = false;
    state.code = null;
    history.replaceState(null, "", "/");
    showStart();
  }
  toast(sentence(text));
  if (state.view) renderTable();
  return undefined;
}

// ------------------------------------------------------------------ updates and events

/** @param {Message} message */
function onUpdate(message) {
  /** @type {GameEvent[]} */
  const events = Array.isArray(message.events) ? message.events : [];
  const first = message.version - events.length;
  if (first > state.version) {
    // we missed events: ask for everything since our version, keep what we have meanwhile
    conn.send({ type: "sync", version: state.version }, true);
  }
  const fresh = events.filter((_, index) => first + index >= state.version);
  // a match that starts while this page is in the lobby is dealt before the player's eyes
  const live = !state.catchingUp || (state.lobby !== null && state.view === null);
  state.catchingUp = false;
  state.version = Math.max(state.version, message.version);
  if (Array.isArray(message.seats)) state.seats = message.seats;
  if (typeof message.you === "number") state.seat = message.you;
  onRoomUpdate(message);
  if (message.options?.tutorial) learn().then((module) => module.coachGame(message));
  if (message.version >= state.shownVersion && dropStaleDecision(message)) renderTable();
  state.busy = false;
  if (state.screen !== "table") setScreen("table");
  // the event queue (animation.js) tells the events in order, with their motion, then draws this
  // update's view, legal actions and timer, and calls afterUpdate
  presentUpdate(message, fresh, live);
}

/**
 * An update's table has just been drawn by the event queue.
 * @param {Message} message
 * @param {GameEvent[]} events
 * @param {boolean} live
 */
function afterUpdate(message, events, live) {
  if (!live && state.finished && !state.resultsQueue.length) queueFinalResults(events);
  showNextResult();
  continueIfRead(message);
  noticeUpdate(message);
}

/**
 * @param {GameEvent} event
 * @param {boolean} live whether it happens now (not told again on reconnection)
 * @param {View | undefined} view the update's view (its `round_results` end with a round ended in it)
 */
function onEvent(event, live, view) {
  addLog(event);
  if (live) eventSound(event); // until the table's event queue plays it as it presents the event
  socialEvent(event, live);
  switch (event.kind) {
    case "dealer":
      state.roundHands = [];
      state.eventRound = event.value;
      break;
    case "hand":
      state.roundHands.push(event);
      break;
    case "round_end":
      if (live || state.finished) {
        const result = view?.round_results?.find((ended) => ended.round === state.eventRound);
        const blocked = result?.ending === "blocked";
        state.resultsQueue.push({ kind: "round", event, hands: state.roundHands.slice(), round: state.eventRound, blocked });
      }
      break;
    case "match_end":
      if (live || state.finished) {
        // the match result replaces a pending round result of the same round
        const last = state.resultsQueue[state.resultsQueue.length - 1];
        const hands = last?.kind === "round" ? last.hands : state.roundHands.slice();
        const roundEvent = last?.kind === "round" ? last.event : null;
        const result = view?.round_results?.find((ended) => ended.round === state.eventRound);
        const blocked = last?.kind === "round" ? last.blocked : result?.ending === "blocked";
        if (last?.kind === "round") state.resultsQueue.pop();
        state.resultsQueue.push({ kind: "match", event, hands, roundEvent, blocked });
      }
      break;
    default:
      break;
  }
}

/** @param {GameEvent[]} events */
function queueFinalResults(events) {
  // a finished match opened afresh: show its last results once
  const ended = events.some((event) => event.kind === "match_end");
  if (!ended && state.resultsQueue.length) return;
  if (!state.resultsQueue.length) {
    const matchEnd = [...events].reverse().find((event) => event.kind === "match_end");
    if (matchEnd) state.resultsQueue.push({ kind: "match", event: matchEnd, hands: state.roundHands.slice(), roundEvent: null });
  }
  state.resultsQueue = state.resultsQueue.slice(-1);
}

// ------------------------------------------------------------------ keyboard

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLElement && target.matches("input, textarea, select")) return;
  if (!$("#results").hidden) {
    if (event.key === "Escape") {
      event.preventDefault();
      closeResults();
    }
    return;
  }
  if (state.screen === "replay") return replayModule?.replayKey(event);
  tableKey(event);
}

// ------------------------------------------------------------------ language

/**
 * Speak the language the settings now choose: the marked elements, the options' words and card
 * terms (/api/options in that language), the server's words (a `lang` message) and the screen shown.
 * Other modules redraw their words on the "unokit:language" event of `document`.
 */
async function changeLanguage() {
  const lang = resolveLanguage(prefs.language);
  if (lang === language()) return;
  await useLanguage(lang);
  state.options = null;
  await loadOptions().catch(() => null);
  if (conn.ws?.readyState === WebSocket.OPEN && serverSpeaks(lang)) conn.send({ type: "lang", lang }, true);
  showRoomLabel();
  if (state.screen === "start") relabelStart();
  else if (state.screen === "join" && state.code) showJoin(state.code);
  else if (state.screen === "lobby" && state.lobby) renderLobby();
  else if (state.view) renderTable();
  document.dispatchEvent(new CustomEvent("unokit:language", { detail: lang }));
}

// ------------------------------------------------------------------ start-up

function route() {
  const path = location.pathname;
  const params = new URLSearchParams(location.search);
  const room = path.match(/^\/r\/([^/]+)\/?$/);
  const replayPath = path.match(/^\/replay\/([^/]+)\/?$/);
  if (replayPath) return openReplay(decodeURIComponent(replayPath[1]));
  if (/^\/how-to-play(\/|$)/.test(path)) return learn().then((module) => module.showHowtoPage(path));
  if (params.has("learn")) learn().then((module) => module.startTutorial(params.get("learn") ?? ""));
  if (room) {
    const code = decodeURIComponent(room[1]);
    if (params.has("replay")) return openReplay(code);
    if (params.has("watch")) return watch(code);
    return enterRoom(code);
  }
  return showStart();
}

function bind() {
  hooks.message = handleMessage;
  hooks.render = renderTable;
  presenter.onEvent = onEvent;
  presenter.afterUpdate = afterUpdate;
  presenter.showResults = showNextResult;
  bindStart();
  $("#replay-button").addEventListener("click", () => {
    // eslint-disable-next-line no-restricted-syntax -- an address, not words
    history.pushState(null, "", `/r/${state.code}?replay`);
    openReplay(/** @type {string} */ (state.code));
  });
  bindLobby();
  bindChat();
  bindRoom();
  $("#results-close").addEventListener("click", closeResults);
  document.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target).closest?.("[data-learn]");
    if (target) learn().then((module) => module.onLearnClick(target));
  });
  bindSettings();
  bindSocial();
  document.addEventListener("unokit:prefs", (event) => {
    if (/** @type {CustomEvent} */ (event).detail?.name === "language") changeLanguage();
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", () => location.reload());
  window.addEventListener("online", () => conn.wanted && conn.ensure());
}

// the page's words before it is drawn (only the chosen language's catalogs), and the options in that
// language beside them (useLanguage sets the language at once)
const words = useLanguage(resolveLanguage(prefs.language));
const options = loadOptions();
await Promise.all([words.catch((error) => console.error(error)), options.catch(() => null)]);
applyPrefs();
bind();
route();
options
  .then(() => {
    if (state.screen === "lobby") renderLobby();
  })
  .catch(() => {});
