// The decision dialog (colour, target, discard, give, challenge, drawn card, honour task, and the
// choices the player opens, such as how to play a card) and the round and match results overlay.

import { $, el, show } from "./dom.js";
import { COLOUR_NAMES, cardNode, sortedHand } from "./cards.js";
import { state, seatName, myDecisions, ruleText, HAND_PHASES } from "./state.js";
import { act } from "./connection.js";

/** @typedef {import("./state.js").View} View */
/** @typedef {import("./state.js").LegalEntry} LegalEntry */

/** @type {Record<string, string>} */
const DIALOG_TITLES = {
  drawn: "You drew a card",
  colour: "Choose a colour",
  challenge: "A Wild Draw Four is played on you",
  discard: "Discard a card",
  target: "Choose a player",
  "lever-discard": "Discard up to one card of each colour",
  honour: "Honour task",
  give: "Give a card",
};

/** @param {string} text */
function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A dialog of choices opened by the player (not by the phase).
 * @type {{title: string, detail: string, entries: LegalEntry[]} | null}
 */
let choiceOpen = null;

/**
 * Ask the player to choose among `entries` (legal actions).
 * @param {string} title
 * @param {string} detail
 * @param {LegalEntry[]} entries
 */
export function openChoice(title, detail, entries) {
  choiceOpen = { title, detail, entries };
  renderDecision(state.view);
}

/** Whether the player has a choice open. */
export function choiceIsOpen() {
  return choiceOpen !== null;
}

/** Forget the player's open choice (the next render closes it). */
export function dropChoice() {
  choiceOpen = null;
}

/** Close the player's open choice now. */
export function cancelChoice() {
  choiceOpen = null;
  renderDecision(state.view);
}

/** @param {View | null} view */
export function renderDecision(view) {
  const box = $("#decision");
  const mine = myDecisions();
  let title = "";
  let detail = "";
  /** @type {LegalEntry[]} */
  let entries = [];
  let cancel = false;
  if (view && !HAND_PHASES.has(view.phase) && mine.length && !state.spectator) {
    choiceOpen = null;
    title = DIALOG_TITLES[view.phase] ?? capitalize(state.asks || view.phase);
    detail = decisionDetail(view);
    entries = state.legal; // the phase's choices plus UNO / catch, which stay open meanwhile
  } else if (choiceOpen && mine.length) {
    ({ title, detail, entries } = choiceOpen);
    const legalNow = new Set(state.legal.map((entry) => entry.action));
    entries = entries.filter((entry) => legalNow.has(entry.action));
    cancel = true;
    if (!entries.length) choiceOpen = null;
  } else {
    choiceOpen = null;
  }
  document.body.classList.toggle("has-decision", entries.length > 0);
  if (!entries.length) {
    show(box, false);
    box.dataset.key = "";
    return;
  }
  const key = JSON.stringify([title, detail, entries.map((entry) => entry.action), state.busy]);
  if (!box.hidden && box.dataset.key === key) return;
  box.dataset.key = key;
  box.dataset.phase = view?.phase ?? "";
  $("#decision-title").textContent = title;
  $("#decision-detail").textContent = detail;
  show($("#decision-detail"), Boolean(detail));
  const options = $("#decision-options");
  options.replaceChildren();
  entries.forEach((entry, index) => options.append(decisionButton(entry, index)));
  if (cancel) {
    options.append(
      el("button", {
        type: "button",
        class: "act cancel",
        text: "Cancel",
        onclick: () => {
          choiceOpen = null;
          renderDecision(state.view);
        },
      }),
    );
  }
  show(box);
  const firstButton = /** @type {HTMLButtonElement | null} */ ($("button:not([disabled])", options));
  if (firstButton && !document.activeElement?.matches?.("input, textarea, select")) firstButton.focus();
}

/**
 * @param {LegalEntry} entry
 * @param {number} index
 */
function decisionButton(entry, index) {
  const action = entry.action;
  const number = index < 9 ? `${index + 1}` : "";
  const label = entry.label || action;
  const props = {
    type: "button",
    class: "act option",
    title: action,
    dataset: { action, key: number },
    disabled: state.busy,
    onclick: () => {
      choiceOpen = null;
      act(action);
    },
  };
  if (entry.colour) {
    const colour = COLOUR_NAMES[entry.colour] ?? "";
    props.class += ` colour-option c-${colour}`;
    return el("button", props, el("span", { class: "key", text: number }), label);
  }
  if (entry.card) {
    return el("button", props, el("span", { class: "key", text: number }), cardNode(entry.card, { small: true }), label);
  }
  if (entry.type === "call_uno") props.class += " uno-button";
  if (entry.type === "catch") props.class += " catch";
  return el("button", props, el("span", { class: "key", text: number }), label);
}

/** @param {View} view */
function decisionDetail(view) {
  const detail = phaseDetail(view);
  const decision = view.decision ?? {};
  const ruleShown = view.phase === "honour" || (view.phase === "target" && decision.target_rule >= 0);
  const rule = !ruleShown && decision.rule >= 0 ? ruleText(decision.rule) : null;
  return rule ? `${detail} Rule card: “${rule.text}” (${rule.reading})`.trim() : detail;
}

/**
 * @param {View} view
 * @returns {string}
 */
function phaseDetail(view) {
  const decision = view.decision ?? {};
  switch (view.phase) {
    case "challenge":
      return decision.bluffer >= 0 ? `${seatName(decision.bluffer)} played it.` : "";
    case "discard":
      return decision.discards_left ? `${decision.discards_left} left to discard.` : "";
    case "give":
      return decision.give_to >= 0 ? `To ${seatName(decision.give_to)}: ${decision.give_left} left to give.` : "";
    case "target":
    case "honour": {
      const id = view.phase === "honour" ? decision.rule : decision.target_rule;
      const rule = id >= 0 ? ruleText(id) : null;
      return rule ? `Rule card: “${rule.text}” (${rule.reading})` : "";
    }
    default:
      return "";
  }
}

// ------------------------------------------------------------------ round and match results

/** Show the next queued result, unless one is shown. */
export function showNextResult() {
  const overlay = $("#results");
  if (!overlay.hidden || !state.resultsQueue.length) return;
  const result = /** @type {import("./state.js").Result} */ (state.resultsQueue.shift());
  const match = result.kind === "match";
  const roundEvent = match ? result.roundEvent : result.event;
  const winner = result.event.seat;
  const winnerName = seatName(winner);
  const youWin = winner === state.seat;
  const roundWinner = roundEvent ? seatName(roundEvent.seat) : winnerName;
  const roundLine = roundEvent
    ? `${roundWinner === "You" ? "You win" : `${roundWinner} wins`} the round${
        roundEvent.value ? ` and ${roundWinner === "You" ? "score" : "scores"} ${roundEvent.value} points` : ""
      }.`
    : "";
  if (match) {
    const rounds = result.event.value;
    $("#results-title").textContent = `${youWin ? "You win" : `${winnerName} wins`} the match!`;
    $("#results-sub").textContent = `${roundLine} The match took ${rounds} round${rounds === 1 ? "" : "s"}.`.trim();
  } else {
    $("#results-title").textContent = `Round ${result.round ?? ""} is over`;
    $("#results-sub").textContent = roundLine;
  }
  overlay.dataset.kind = result.kind;
  const hands = $("#results-hands tbody");
  hands.replaceChildren();
  for (const hand of result.hands) {
    const cards = Array.isArray(hand.cards) ? sortedHand(hand.cards) : [];
    hands.append(
      el(
        "tr",
        {},
        el("th", { text: seatName(hand.seat) }),
        el("td", { class: "result-cards" }, cards.length ? cards.map((card) => cardNode(card, { small: true })) : "out"),
        el("td", { class: "num", text: `${hand.value} pts` }),
      ),
    );
  }
  show($("#results-hands"), result.hands.length > 0);
  const scores = result.event.scores ?? roundEvent?.scores ?? state.view?.scores ?? [];
  const body = $("#results-scores tbody");
  body.replaceChildren();
  scores.forEach((score, seat) => {
    body.append(el("tr", { class: seat === winner ? "winner" : "" }, el("td", { text: seatName(seat) }), el("td", { class: "num", text: score })));
  });
  const replay = /** @type {HTMLAnchorElement} */ ($("#results-replay"));
  replay.href = `/r/${state.code}?replay`;
  show(replay, match);
  show($("#results-new"), match);
  $("#results-close").textContent = match ? "Close" : "Continue";
  show(overlay);
  $("#results-close").focus();
}

/** Close the results shown; show the next, or give the focus back to the table. */
export function closeResults() {
  show($("#results"), false);
  showNextResult();
  if ($("#results").hidden) {
    const first = $("#decision:not([hidden]) button") ?? $("#hand .card.playable") ?? $("#actions button");
    first?.focus();
  }
}
