// Teaching newcomers, loaded on demand (app.js imports it the first time it is needed): the
// /how-to-play pages, the top bar's "How to play" (a dialog over the lobby or the table, for the
// room's edition, so the game goes on), "Learn to play: a guided first game" (a room of the player
// and slow bots that coach.js coaches), and hints (the Hint button asks the server for the bot's
// move, which lights up where the player would make it).  Its words are the catalog "learn" of the
// page's language (fetched when this module loads), its styles in learn-styles.js.

import { $, el, show } from "./dom.js";
import { state, savedName, setScreen } from "./state.js";
import { conn, startConnection } from "./connection.js";
import { loadOptions } from "./start.js";
import { howtoArticle, EDITIONS, say } from "./howto.js";
import { loadNamespace, t } from "./i18n.js";
import { adoptLearnStyles } from "./learn-styles.js";

/** The guided first game: the player and two bots, one round, no timer (the server slows its bots). */
const TUTORIAL_SEATS = 3;
const TUTORIAL_RULES = { scoring: "single-round" };

adoptLearnStyles();
await loadNamespace("learn");

// ------------------------------------------------------------------ how to play

/**
 * The how-to-play article of `edition` ("" or unknown: UNO in general).
 * @param {string} edition
 * @param {string} [titleId] the id of its title
 */
async function article(edition, titleId = "howto-title") {
  const options = await loadOptions().catch(() => null);
  const known = EDITIONS.includes(edition);
  return howtoArticle(known ? edition : "", {
    summary: known ? options?.edition_summaries?.[edition] ?? "" : "",
    unknown: Boolean(edition) && !known,
    titleId,
  });
}

/** The how-to-play screen, made the first time it is shown. */
function howtoScreen() {
  const existing = document.getElementById("howto");
  if (existing) return existing;
  const screen = el(
    "section",
    { id: "howto", class: "screen", hidden: true },
    el(
      "div",
      { class: "panel howto-page" },
      el("div", { id: "howto-body" }),
      el(
        "div",
        { class: "row howto-footer" },
        el("button", { id: "howto-learn", class: "primary", text: say("howto.learn"), onclick: () => startTutorial(screen.dataset.edition || "classic") }),
        el("a", { class: "button", href: "/", text: say("howto.back") }),
      ),
    ),
  );
  $("main").append(screen);
  screen.addEventListener("click", (event) => {
    const anchor = /** @type {Element} */ (event.target).closest("a[data-howto]");
    if (!(anchor instanceof HTMLAnchorElement)) return;
    event.preventDefault();
    history.pushState(null, "", anchor.pathname);
    showHowtoPage(anchor.pathname);
  });
  return screen;
}

/**
 * The page /how-to-play[/EDITION] of `path`.
 * @param {string} path
 */
export async function showHowtoPage(path) {
  const edition = decodeURIComponent(path.split("/")[2] ?? "");
  const screen = howtoScreen();
  const shown = await article(edition);
  $("#howto-body").replaceChildren(shown);
  screen.dataset.edition = EDITIONS.includes(edition) ? edition : "classic";
  setScreen("howto");
  document.title = t("learn.page.title", { title: shown.querySelector("h1")?.textContent ?? "" });
  window.scrollTo(0, 0);
}

/** The dialog that shows how to play over the game, made the first time it opens. */
function howtoDialog() {
  const existing = document.getElementById("howto-dialog");
  if (existing) return /** @type {HTMLDialogElement} */ (existing);
  const dialog = /** @type {HTMLDialogElement} */ (
    el(
      "dialog",
      { id: "howto-dialog", class: "howto-dialog", "aria-labelledby": "howto-dialog-title" },
      el("div", { class: "howto-dialog-head" }, el("button", { id: "howto-dialog-close", class: "primary", text: say("howto.close"), onclick: () => dialog.close() })),
      el("div", { id: "howto-dialog-body", class: "howto-dialog-body" }),
    )
  );
  document.body.append(dialog);
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) return dialog.close(); // the backdrop
    const anchor = /** @type {Element} */ (event.target).closest("a[data-howto]");
    if (anchor instanceof HTMLAnchorElement) {
      event.preventDefault();
      openHowtoDialog(anchor.pathname.split("/")[2] ?? "");
    }
    return undefined;
  });
  dialog.addEventListener("keydown", (event) => event.stopPropagation()); // the table's keys do not act from it
  return dialog;
}

/**
 * How to play `edition`, in the dialog over the game.
 * @param {string} edition
 */
async function openHowtoDialog(edition) {
  const dialog = howtoDialog();
  const body = $("#howto-dialog-body");
  body.replaceChildren(await article(edition, "howto-dialog-title"));
  body.scrollTop = 0;
  if (!dialog.open) dialog.showModal();
}

// ------------------------------------------------------------------ the guided first game

/**
 * Start a guided first game in `edition` (Classic if unknown): the lobby fills it with bots and starts.
 * @param {string} edition
 */
export function startTutorial(edition) {
  if (location.search) history.replaceState(null, "", location.pathname);
  document.title = "unokit";
  state.quickPlay = true;
  startConnection({
    type: "create",
    name: savedName() || t("learn.player"),
    edition: EDITIONS.includes(edition) ? edition : "classic",
    seats: TUTORIAL_SEATS,
    rules: TUTORIAL_RULES,
    timer: 0,
    tutorial: true,
  });
}

/**
 * An `update` of a guided game: its coach starts (once).
 * @param {Message} message
 */
export function coachGame(message) {
  document.documentElement.toggleAttribute("data-guided", true);
  document.documentElement.toggleAttribute("data-hints", true);
  import("./coach.js").then((coach) =>
    coach.startCoach({
      edition: message.view?.edition ?? "classic",
      // eslint-disable-next-line no-restricted-syntax -- a URL
      again: (/** @type {string} */ edition) => location.assign(`/?learn=${encodeURIComponent(edition)}`),
    }),
  );
}

// ------------------------------------------------------------------ hints

/** The hint shown, if any. */
/** @type {LegalEntry | null} */
let hinted = null;

/** The line that says the hint: in the coach's panel in a guided game, else under the hand's head. */
function hintLine() {
  let line = document.getElementById("hint-text");
  if (!line) line = el("p", { id: "hint-text", class: "hint-text", "aria-live": "polite", hidden: true });
  const coach = document.getElementById("coach");
  const place = coach && !coach.hidden ? $(".coach-buttons", coach) : $("#hand-area .hand-head").nextElementSibling;
  if (line.nextElementSibling !== place) place?.before(line);
  return line;
}

/** After each drawing of the table: the hint lights up again where the table was drawn anew, or
 * goes once the game has moved on. */
function refreshHint() {
  const line = hintLine();
  const current = line.dataset.version === String(state.version) && !state.finished;
  if (!current) {
    show(line, false);
    hinted = null;
  }
  for (const node of document.querySelectorAll(".hinted")) node.classList.remove("hinted");
  if (current && hinted) for (const node of placesOf(hinted)) node.classList.add("hinted");
}

function askHint() {
  const line = hintLine();
  line.dataset.version = String(state.version);
  line.textContent = say("hint.asking");
  show(line);
  conn.send({ type: "hint", version: state.version });
}

/**
 * Where the move of `entry` is made on the page.
 * @param {LegalEntry} entry
 * @returns {Element[]}
 */
function placesOf(entry) {
  /** @type {Element[]} */
  const places = [];
  if (entry.card && (entry.type === "play" || entry.type === "play_uno")) {
    // eslint-disable-next-line no-restricted-syntax -- a CSS selector
    const card = document.querySelector(`#hand .card[data-card="${CSS.escape(entry.card)}"]`);
    if (card) places.push(card);
    if (entry.type === "play_uno") places.push(...document.querySelectorAll("#uno-button"));
  }
  if (entry.type === "draw") places.push($("#draw-pile"));
  // eslint-disable-next-line no-restricted-syntax -- a CSS selector
  places.push(...document.querySelectorAll(`[data-action="${CSS.escape(entry.action ?? "")}"]`));
  return places;
}

/**
 * A `hint` (the bot's move and why): lit up and said, unless the game has moved on.
 * @param {Message} message
 */
export function onHint(message) {
  if (message.version !== state.version) return;
  const move = /** @type {LegalEntry} */ (message.move ?? {});
  hinted = move;
  const line = hintLine();
  line.dataset.version = String(message.version);
  line.textContent = say("hint.says", { move: move.label ?? move.action ?? "", why: String(message.why ?? "") });
  show(line);
  refreshHint();
}

// ------------------------------------------------------------------ the page's buttons

/**
 * A click on a `[data-learn]` button of the page: "how to play", "tutorial" or "hint".
 * @param {Element} button
 */
export function onLearnClick(button) {
  const what = button instanceof HTMLElement ? button.dataset.learn : "";
  if (what === "hint") return askHint();
  if (what === "tutorial") {
    const select = /** @type {HTMLSelectElement | null} */ (document.querySelector("#create-form [name=edition]"));
    return startTutorial(select?.value || "classic");
  }
  if (state.code && (state.screen === "table" || state.screen === "lobby")) {
    return openHowtoDialog(state.view?.edition ?? state.lobby?.edition ?? "");
  }
  history.pushState(null, "", "/how-to-play");
  return showHowtoPage("/how-to-play");
}

document.addEventListener("unokit:table-drawn", refreshHint);
