// Runs before the modules: a page opened at /r/CODE that holds a seat (a reload, a link back to
// the game) opens the game socket at once and asks to resume, so the server answers while the
// modules still load. connection.js takes the socket over with the messages received so far.

/**
 * @typedef {object} EarlySocket
 * @property {WebSocket} ws the socket, connecting or open
 * @property {{type: "resume", code: string, secret: string, version: number}} hello sent when it opens
 * @property {string[] | null} messages received before connection.js took it over (then null)
 */

(() => {
  const room = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  if (!room || location.search) return;
  const code = decodeURIComponent(room[1]);
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(`unokit.seat.${code}`) || "null");
  } catch {
    return;
  }
  if (!stored || typeof stored.secret !== "string") return;
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  /** @type {EarlySocket} */
  const early = { ws, hello: { type: "resume", code, secret: stored.secret, version: 0 }, messages: [] };
  ws.addEventListener("open", () => ws.send(JSON.stringify(early.hello)));
  ws.addEventListener("message", (event) => early.messages?.push(event.data));
  /** @type {Window & {unokitEarly?: EarlySocket}} */ (window).unokitEarly = early;
})();
