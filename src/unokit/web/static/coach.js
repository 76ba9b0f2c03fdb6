// The coach of a guided first game: a panel beside the table that says what the player can do now
// (the playable cards glow on their turn, or the draw pile when none can be played), explains each
// special card the first time it is seen on the pile or in the hand, reminds them to call UNO at two
// cards, says why a card they click cannot be played, and sums the game up at the end.  It can be
// dismissed for good.  Loaded on demand (learn.js) when the room is a guided game.

import { $, el, show } from "./dom.js";
import { cardLongName, colourWord, kindWord } from "./cards.js";
import { state, seatName, myDecisions } from "./state.js";
import { andList } from "./labels.js";
import { cardMeanings, say } from "./howto.js";

/** @typedef {{topic: string, text: string, version: number}} Note a message for one version of the game */

let started = false;
let stopped = false;
/** @type {Record<string, {name: string, does: string}>} */
let meanings = {};
/** The special cards explained so far (their kinds). */
const seen = new Set();
/** Explanations waiting for "Got it", oldest first. */
/** @type {{topic: string, text: string}[]} */
const queue = [];
/** A message for the version it was said at (a refused card). */
/** @type {Note | null} */
let note = null;
/** @type {(edition: string) => void} */
let playAgain = () => {};
/** Put the panel where it can be read: set by buildPanel. */
let place = () => {};

/**
 * A card's kind and colour letter from its notation ("R7": R and 7; "W+4": no colour).
 * @param {string} card
 */
function parse(card) {
  return card.startsWith("W") ? { colour: "", kind: card } : { colour: card[0], kind: card.slice(1) };
}

/** @param {string} kind */
const isNumber = (kind) => /^[0-9]$/.test(kind);

/** What the top card asks to match, in words ("number 7", "Skip symbol"). */
function symbolWords(/** @type {string} */ top) {
  const { kind } = parse(top);
  if (isNumber(kind)) return say("coach.symbol.number", { number: kind });
  return say("coach.symbol.kind", { kind: kindWord(kind) });
}

/** The colour in force, in words. */
function colourWords() {
  const colour = state.view?.colour ?? "";
  return colour ? colourWord(colour) : "";
}

/**
 * Why `card` cannot be played now, from the table and the legal actions the client has.
 * @param {string} card
 */
function refusal(card) {
  const view = /** @type {View} */ (state.view);
  const name = cardLongName(card);
  if (!myDecisions().length) return say("coach.refused.notyours", { card: name });
  if (view.phase === "drawn") return say("coach.refused.drawn", { card: name });
  if (view.phase === "turn" && view.top_card) {
    if (view.top_card.startsWith("W")) return say("coach.refused.wild", { card: name, colour: colourWords() });
    return say("coach.refused", { card: name, colour: colourWords(), symbol: symbolWords(view.top_card) });
  }
  return say("coach.refused.other", { card: name, asks: state.asks });
}

/** Explain the special cards on the pile and in the hand not explained yet. */
function meetCards() {
  const view = /** @type {View} */ (state.view);
  for (const card of [view.top_card, ...(view.hand ?? [])]) {
    if (!card) continue;
    const { kind } = parse(card);
    if (isNumber(kind) || seen.has(kind) || !meanings[kind]) continue;
    seen.add(kind);
    queue.push({ topic: "new-card", text: say("coach.new", { card: meanings[kind].name, does: meanings[kind].does }) });
  }
}

/** What the player can do now, and the class that lights it up. */
function situation() {
  const view = /** @type {View} */ (state.view);
  const mine = myDecisions();
  const catchable = state.legal.some((entry) => entry.type === "catch");
  if (catchable) return { topic: "catch", text: say("coach.catch"), glow: "" };
  if (!mine.length) return { topic: "wait", text: say("coach.wait"), glow: "" };
  const hand = view.hand ?? [];
  if (view.phase === "turn") {
    const playable = new Set(mine.filter((entry) => entry.card).map((entry) => entry.card));
    if (hand.length === 2 && playable.size) return { topic: "uno", text: say("coach.uno"), glow: "cards" };
    const wild = Boolean(view.top_card?.startsWith("W"));
    const values = { colour: colourWords(), symbol: view.top_card ? symbolWords(view.top_card) : "" };
    if (!playable.size) return { topic: "turn-draw", text: say(wild ? "coach.turn.none.wild" : "coach.turn.none", values), glow: "draw" };
    if (hand.every((card) => playable.has(card)) && !view.colour) return { topic: "turn", text: say("coach.turn.any"), glow: "cards" };
    return { topic: "turn", text: say(wild ? "coach.turn.wild" : "coach.turn", values), glow: "cards" };
  }
  if (view.phase === "drawn") return { topic: "drawn", text: say("coach.drawn"), glow: "cards" };
  if (view.phase === "colour") return { topic: "colour", text: say("coach.colour"), glow: "" };
  if (view.phase === "challenge") return { topic: "challenge", text: say("coach.challenge"), glow: "" };
  if (view.phase === "target") return { topic: "target", text: say("coach.target"), glow: "" };
  return { topic: "move", text: say("coach.move", { asks: state.asks }), glow: "" };
}

/** The end of the game, summed up. */
function summary() {
  const view = /** @type {View} */ (state.view);
  const won = view.winner === state.seat;
  const lines = [won ? say("coach.end.won") : say("coach.end.lost", { winner: seatName(view.winner) })];
  const names = [...seen].map((kind) => meanings[kind]?.name).filter(Boolean);
  if (names.length) lines.push(say("coach.end.seen", { cards: andList(names) }));
  return lines.join(" ");
}

/**
 * Show `text` under `topic`, with the buttons asked for.
 * @param {string} topic
 * @param {string} text
 * @param {{ok?: boolean, end?: boolean}} [buttons]
 */
function say_(topic, text, { ok = false, end = false } = {}) {
  const panel = $("#coach");
  panel.dataset.topic = topic;
  $("#coach-text").textContent = text;
  show($("#coach-ok"), ok);
  show($("#coach-end"), end);
  show(panel);
}

/** Draw the coach for the table just drawn. */
function render() {
  const view = state.view;
  if (stopped || !view) return;
  const body = document.body;
  body.classList.add("coaching");
  place();
  if (state.finished || view.phase === "over") {
    body.classList.remove("coach-cards", "coach-draw");
    queue.length = 0;
    say_("end", summary(), { end: true });
    return;
  }
  meetCards();
  const now = situation();
  body.classList.toggle("coach-cards", now.glow === "cards");
  body.classList.toggle("coach-draw", now.glow === "draw");
  if (note && note.version !== state.version) note = null;
  if (note) return say_(note.topic, note.text, { ok: true });
  const next = queue[0];
  if (next) return say_(next.topic, next.text, { ok: true });
  return say_(now.topic, now.text);
}

/** "Got it": the message shown goes. */
function dismiss() {
  if (note) note = null;
  else queue.shift();
  render();
}

/** Stop the coach for this game. */
function stop() {
  stopped = true;
  show($("#coach"), false);
  document.body.classList.remove("coaching", "coach-cards", "coach-draw");
}

/** @param {MouseEvent} event a click in the hand, before the hand takes it */
function onHandClick(event) {
  if (stopped || !state.view) return;
  const card = /** @type {HTMLElement} */ (event.target).closest?.("#hand .card");
  if (!(card instanceof HTMLElement) || card.classList.contains("playable")) return;
  event.stopPropagation(); // the coach says why, in place of the hand's short notice
  note = { topic: "refused", text: refusal(/** @type {string} */ (card.dataset.card)), version: state.version };
  render();
}

/** The coach's panel, in the table's screen. */
function buildPanel() {
  const panel = el(
    "aside",
    { id: "coach", class: "coach", "aria-live": "polite", "aria-labelledby": "coach-title", hidden: true },
    el("h2", { id: "coach-title", text: say("coach.title") }),
    el("p", { id: "coach-text", class: "coach-text" }),
    el(
      "div",
      { class: "row coach-buttons" },
      el("button", { id: "coach-ok", class: "primary", text: say("coach.ok"), onclick: dismiss, hidden: true }),
      el(
        "span",
        { id: "coach-end", class: "row", hidden: true },
        el("button", { class: "primary", text: say("coach.end.again"), onclick: () => playAgain(state.view?.edition ?? "classic") }),
        el("a", { class: "button", href: "/", text: say("coach.end.rooms") }),
      ),
      el("button", { id: "coach-stop", class: "quiet coach-stop", text: say("coach.hide"), onclick: stop }),
    ),
  );
  const wide = window.matchMedia("(min-width: 900px)");
  place = () => {
    // beside the felt, or above it on a phone; in the dialog docked over it while a decision is open
    const docked = document.querySelector("#decision.dock-top:not([hidden]) .decision-box");
    const home = docked ?? (wide.matches ? $("#table .side") : $("#table .board"));
    if (panel.parentElement !== home) home.prepend(panel);
  };
  place();
  wide.addEventListener("change", place);
}

/**
 * Start coaching the guided game shown (once per page).
 * @param {{edition: string, again: (edition: string) => void}} options `again` starts another guided game
 */
export function startCoach({ edition, again }) {
  if (started) return;
  started = true;
  playAgain = again;
  meanings = cardMeanings(edition);
  buildPanel();
  queue.push({ topic: "welcome", text: say("coach.welcome") });
  $("#hand").addEventListener("click", onHandClick, true);
  document.addEventListener("unokit:table-drawn", render);
  render();
}
