// The game socket: connect, reconnect with back-off, resume or resync on (re)connection, send and act.
// Messages are handed to the handler that app.js registers, so this module imports no screen.

import { $, show, toast } from "./dom.js";
import { state, stored } from "./state.js";
import { lookFields } from "./prefs.js";
import { language, t } from "./i18n.js";

/** Where the languages the server speaks are remembered (boot.js reads them for its early `resume`). */
export const SERVER_LANGUAGES_KEY = "unokit.languages";

/**
 * Whether the server takes `lang` in messages: /api/options lists the languages it speaks (this
 * answer, or a former one remembered on the device).
 * @param {string} lang
 */
export function serverSpeaks(lang) {
  const languages = state.options?.languages ?? stored((storage) => JSON.parse(storage.getItem(SERVER_LANGUAGES_KEY) ?? "[]"), []);
  return Array.isArray(languages) && languages.includes(lang);
}

/**
 * A first message of a socket (create, join, resume, spectate) in the page's language.
 * @template {Record<string, unknown>} T
 * @param {T} hello
 * @returns {T}
 */
export function withLanguage(hello) {
  const lang = language();
  return serverSpeaks(lang) ? { ...hello, lang } : hello;
}

/** What the rest of the page registers: the message router and the table's redraw. */
export const hooks = {
  /** @type {(message: Message) => void} */
  message: () => {},
  /** @type {() => void} */
  render: () => {},
};

export const conn = {
  /** @type {WebSocket | null} */
  ws: null,
  attempt: 0,
  wanted: false,
  timer: 0,
  pingTimer: 0,

  connect() {
    this.wanted = true;
    clearTimeout(this.timer);
    const early = takeEarlySocket(helloMessage());
    const ws = early ? early.ws : new WebSocket(socketAddress());
    this.ws = ws;
    setConn(this.attempt > 0 ? "reconnecting" : "connecting"); // "reconnecting…" until the socket is back
    const opened = () => {
      this.attempt = 0;
      setConn("connected");
      state.catchingUp = true;
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }, true), 25000);
    };
    /** @param {string} data */
    const received = (data) => {
      let message;
      try {
        message = JSON.parse(data);
      } catch {
        return;
      }
      if (message && typeof message === "object") hooks.message(message);
    };
    // boot.js's early resume says the language it resolved: one resolved differently here is told at once
    const tellLanguage = () => {
      if (early && early.hello.lang !== language() && serverSpeaks(language())) this.send({ type: "lang", lang: language() }, true);
    };
    if (early && ws.readyState === WebSocket.OPEN) {
      opened(); // its hello is sent
      tellLanguage();
    }
    ws.addEventListener("open", () => {
      opened();
      const hello = early ? null : helloMessage();
      if (hello) ws.send(JSON.stringify(hello));
      tellLanguage();
    });
    for (const data of early?.messages ?? []) received(data);
    if (early) early.messages = null;
    ws.addEventListener("message", (event) => received(event.data));
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      state.busy = false;
      if (!this.wanted) return;
      const delay = Math.min(10000, 400 * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
      this.attempt += 1;
      setConn("reconnecting");
      this.timer = setTimeout(() => this.connect(), delay);
    });
  },

  /**
   * Send a message if the socket is open; else say so (unless `quiet`) and return false.
   * @param {Record<string, unknown>} message
   * @param {boolean} [quiet]
   * @returns {boolean}
   */
  send(message, quiet = false) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    if (!quiet) toast(t("toast.offline"));
    return false;
  },

  ensure() {
    if (!this.ws) this.connect();
  },
};

/** @param {"connecting" | "connected" | "reconnecting"} status */
function setConn(status) {
  const node = $("#conn");
  node.textContent = t({ connecting: "conn.connecting", connected: "conn.connected", reconnecting: "conn.reconnecting" }[status]);
  node.dataset.status = status;
  show(node);
}

function socketAddress() {
  // eslint-disable-next-line no-restricted-syntax -- an address, not words
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
}

/**
 * The socket boot.js opened before the modules loaded, if it is still usable and says `hello`;
 * taken once (a later connection opens its own).
 * @param {Record<string, unknown> | null} hello
 * @returns {EarlySocket | null}
 */
function takeEarlySocket(hello) {
  const page = /** @type {Window & {unokitEarly?: EarlySocket}} */ (window);
  const early = page.unokitEarly;
  delete page.unokitEarly;
  if (!early) return null;
  const { type, code, secret, version } = early.hello;
  const same = hello?.type === type && hello.code === code && hello.secret === secret && hello.version === version;
  if (same && early.ws.readyState <= WebSocket.OPEN) return early;
  early.ws.close();
  return null;
}

/** What to send when a socket opens: resume a held seat, else the pending create / join / spectate. */
function helloMessage() {
  if (state.code && state.secret) {
    return withLanguage({ type: "resume", code: state.code, secret: state.secret, version: state.version });
  }
  if (state.code && state.spectator) return withLanguage({ type: "spectate", code: state.code, version: state.version });
  return state.hello && withLanguage(state.hello);
}

/**
 * Open a game with `hello` (create / join / spectate): on the open socket, else on a new one.
 * @param {Message} hello
 */
export function startConnection(hello) {
  if (hello.type === "create" || hello.type === "join") hello = { ...hello, ...lookFields() }; // the avatar chosen here
  state.hello = hello;
  state.view = null;
  state.lobby = null;
  state.version = 0;
  if (conn.ws && conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify(withLanguage(hello)));
  else conn.connect();
}

/**
 * Send one of the legal actions; the page is busy until the server answers (or 4 seconds pass).
 * @param {string} action
 */
export function act(action) {
  if (state.busy) return;
  if (conn.send({ type: "act", action, version: state.version })) {
    state.busy = true;
    hooks.render();
    setTimeout(() => {
      if (state.busy) {
        state.busy = false;
        hooks.render();
      }
    }, 4000);
  }
}
