// Runs before the modules: a page opened at /r/CODE that holds a seat (a reload, a link back to
// the game) opens the game socket at once and asks to resume, so the server answers while the
// modules still load. connection.js takes the socket over with the messages received so far.
//
// The resume says the page's language, resolved as i18n.js's resolveLanguage does (without loading
// it): the one chosen in the settings, else the first of the browser's languages, else English; the
// languages known are those the server listed in /api/options, remembered on the device (none known
// yet: no `lang`, and the server follows Accept-Language).

/**
 * @typedef {object} EarlySocket
 * @property {WebSocket} ws the socket, connecting or open
 * @property {{type: "resume", code: string, secret: string, version: number, lang?: string}} hello sent when it opens
 * @property {string[] | null} messages received before connection.js took it over (then null)
 */

(() => {
  const room = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  if (!room || location.search) return;
  const code = decodeURIComponent(room[1]);
  let stored;
  /** @type {string[]} */
  let languages = [];
  /** @type {unknown} */
  let chosen = null;
  try {
    // eslint-disable-next-line no-restricted-syntax -- a storage key, not words
    stored = JSON.parse(localStorage.getItem(`unokit.seat.${code}`) || "null");
    const known = JSON.parse(localStorage.getItem("unokit.languages") || "[]");
    if (Array.isArray(known)) languages = known.filter((item) => typeof item === "string");
    chosen = JSON.parse(localStorage.getItem("unokit.prefs") || "{}")?.language;
  } catch {
    return;
  }
  if (!stored || typeof stored.secret !== "string") return;
  const browser = (navigator.languages ?? [navigator.language]).map((tag) => String(tag).toLowerCase().split("-")[0]);
  const lang = [chosen, ...browser, "en"].find((item) => typeof item === "string" && languages.includes(item));
  // eslint-disable-next-line no-restricted-syntax -- an address, not words
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  /** @type {EarlySocket} */
  const early = { ws, hello: { type: "resume", code, secret: stored.secret, version: 0 }, messages: [] };
  if (typeof lang === "string") early.hello.lang = lang;
  ws.addEventListener("open", () => ws.send(JSON.stringify(early.hello)));
  ws.addEventListener("message", (event) => early.messages?.push(event.data));
  /** @type {Window & {unokitEarly?: EarlySocket}} */ (window).unokitEarly = early;
})();
