// Making the player's turn hard to miss: its sound, a cue in the tab's title and a notification (if
// allowed) while the page is hidden, and ticks in a turn timer's last seconds.  <body> has the class
// `my-turn` while this seat is asked a decision.

import { state, myDecisions } from "./state.js";
import { prefs } from "./prefs.js";
import { playSound } from "./sound.js";
import { sentence } from "./labels.js";
import { t } from "./i18n.js";
/** The last seconds of a turn timer that tick. */
const TICK_SECONDS = 5;

const attention = {
  myTurn: false,
  /** @type {string | null} the page's title while the cue is shown */
  baseTitle: null,
  /** @type {Notification | null} */
  notification: null,
  /** @type {number[]} */
  ticks: [],
};

/** Whether this seat is asked a decision now (not an UNO call or catch). */
function isMyTurn() {
  return !state.spectator && state.seat !== null && !state.finished && state.screen === "table" && myDecisions().length > 0;
}

/**
 * Take note of an update: a turn that begins sounds (and is notified while the page is hidden); a
 * timed turn ticks in its last seconds.
 * @param {Message} message
 */
export function noticeUpdate(message) {
  const mine = isMyTurn();
  const began = mine && !attention.myTurn;
  attention.myTurn = mine;
  document.body.classList.toggle("my-turn", mine);
  if (began) {
    playSound("turn");
    if (document.hidden) notify();
  }
  if (!mine) closeNotification();
  refreshTitle();
  const timer = message.timer;
  scheduleTicks(mine && timer && timer.seat === state.seat && typeof timer.remaining === "number" ? timer.remaining : null);
}

/** The title's cue, while the page is hidden and it is this seat's turn. */
function refreshTitle() {
  const cue = document.hidden && attention.myTurn && isMyTurn();
  if (cue && attention.baseTitle === null) {
    attention.baseTitle = document.title;
    document.title = t("attention.title", { title: document.title }); // the cue before the page's own title
  } else if (!cue && attention.baseTitle !== null) {
    document.title = attention.baseTitle;
    attention.baseTitle = null;
  }
}

function notify() {
  if (!prefs.notify || !("Notification" in window) || Notification.permission !== "granted") return;
  closeNotification();
  try {
    const note = new Notification(t("attention.notification"), {
      body: state.asks ? sentence(state.asks) : "",
      tag: "unokit-turn",
      icon: "/static/favicon.svg",
    });
    note.addEventListener("click", () => {
      window.focus();
      note.close();
    });
    attention.notification = note;
  } catch {
    // some browsers only notify from a service worker: the title's cue stays
  }
}

function closeNotification() {
  attention.notification?.close();
  attention.notification = null;
}

/**
 * Tick once a second in the last seconds of this seat's turn timer.
 * @param {number | null} remaining seconds left, counted from now
 */
function scheduleTicks(remaining) {
  for (const id of attention.ticks) clearTimeout(id);
  attention.ticks = [];
  if (remaining === null || remaining <= 0) return;
  for (let left = Math.min(TICK_SECONDS, Math.floor(remaining)); left >= 1; left -= 1) {
    const delay = (remaining - left) * 1000;
    attention.ticks.push(
      setTimeout(() => {
        if (isMyTurn()) playSound("tick");
      }, delay),
    );
  }
}

/** Ask the browser for permission to notify; resolves to whether notifications may be shown. */
export async function askNotificationPermission() {
  if (!("Notification" in window)) return false;
  if (Notification.permission === "granted") return true;
  if (Notification.permission === "denied") return false;
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch {
    return false;
  }
}

document.addEventListener("visibilitychange", () => {
  refreshTitle();
  if (!document.hidden) closeNotification();
});
