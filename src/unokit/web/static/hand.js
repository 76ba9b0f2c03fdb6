// This seat's hand: the cards, playing one (asking how when there are several ways), and the
// table's keyboard: pick a card, play it, draw, pass, call UNO, catch, answer the decision dialog.

import { $, $$, show, toast } from "./dom.js";
import { cardLongName, cardNode, sortedHand } from "./cards.js";
import { state, seatName, unoState } from "./state.js";
import { act } from "./connection.js";
import { openChoice, choiceIsOpen, cancelChoice, dropChoice } from "./dialogs.js";

/**
 * The legal actions that play `card`.
 * @param {string} card
 */
function cardActions(card) {
  return state.legal.filter((entry) => entry.card === card);
}

/** @param {import("./state.js").View} view */
export function renderHand(view) {
  const area = $("#hand-area");
  const hand = $("#hand");
  if (state.spectator || state.seat === null) {
    hand.replaceChildren();
    show(area, false);
    show($("#spectating"));
    return;
  }
  show(area);
  show($("#spectating"), false);
  const cards = sortedHand(view.hand ?? []);
  const count = cards.length;
  const uno = unoState(view, state.seat);
  const score = view.scoring === "single-round" ? "" : ` · ${view.scores[state.seat]} pts`;
  $("#me-label").textContent = `${seatName(state.seat)} · ${count} card${count === 1 ? "" : "s"}${score}${
    uno === "called" ? " · UNO!" : uno === "uncalled" ? " · UNO not called!" : ""
  }`;
  if (state.selected >= count) state.selected = count - 1;
  const focused = document.activeElement?.closest?.("#hand") ? state.selected : -1;
  hand.replaceChildren();
  cards.forEach((card, index) => {
    const actions = cardActions(card);
    const classes = [actions.length ? "playable" : "", index === state.selected ? "selected" : ""].join(" ");
    const node = /** @type {HTMLButtonElement} */ (
      cardNode(card, {
        extraClass: classes,
        onclick: () => {
          state.selected = index;
          playCard(card);
        },
      })
    );
    node.dataset.index = String(index);
    if (!actions.length) node.setAttribute("aria-disabled", "true");
    if (state.busy) node.disabled = true;
    hand.append(node);
  });
  if (focused >= 0 && hand.children[focused]) /** @type {HTMLElement} */ (hand.children[focused]).focus();
}

/**
 * Play `card`: its one action, or a choice of its actions.
 * @param {string} card
 */
function playCard(card) {
  const actions = cardActions(card);
  if (!actions.length) return toast(`${cardLongName(card)} cannot be played now.`);
  if (actions.length === 1) return act(actions[0].action);
  // several ways to play it (e.g. play, or play and call UNO): ask, UNO first
  const ordered = [...actions].sort((a, b) => Number(b.type === "play_uno") - Number(a.type === "play_uno"));
  openChoice(`Play ${cardLongName(card)}`, "", ordered);
  return undefined;
}

/**
 * The table's keys (app.js has already left out modified keys, form fields, the results and replays).
 * @param {KeyboardEvent} event
 */
export function tableKey(event) {
  const target = event.target;
  if (state.screen !== "table" || !state.view) return;
  const decision = $("#decision");
  const key = event.key;
  if (!decision.hidden) {
    if (/^[1-9]$/.test(key)) {
      const button = /** @type {HTMLButtonElement | null} */ ($(`#decision-options button[data-key="${key}"]`));
      if (button && !button.disabled) {
        event.preventDefault();
        button.click();
      }
      return;
    }
    if (key === "Escape" && choiceIsOpen()) {
      cancelChoice();
      return;
    }
    if (key === "ArrowDown" || key === "ArrowUp" || key === "ArrowLeft" || key === "ArrowRight") {
      const buttons = $$("#decision-options button:not([disabled])");
      const index = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      const step = key === "ArrowDown" || key === "ArrowRight" ? 1 : -1;
      buttons[(index + step + buttons.length) % buttons.length]?.focus();
      event.preventDefault();
      return;
    }
  }
  const cards = $$("#hand .card");
  const lower = key.toLowerCase();
  if (key === "ArrowLeft" || key === "ArrowRight") {
    if (!cards.length) return;
    const step = key === "ArrowRight" ? 1 : -1;
    state.selected = state.selected < 0 ? (step > 0 ? 0 : cards.length - 1) : (state.selected + step + cards.length) % cards.length;
    selectCard(cards);
    event.preventDefault();
  } else if (/^[0-9]$/.test(key) && decision.hidden) {
    const index = key === "0" ? 9 : Number(key) - 1;
    if (index < cards.length) {
      state.selected = index;
      selectCard(cards);
      event.preventDefault();
    }
  } else if (key === "Enter" && decision.hidden) {
    if (target instanceof HTMLButtonElement && !target.closest("#hand")) return; // a focused button clicks itself
    if (target instanceof HTMLElement && target.closest("#hand .card")) state.selected = Number(target.dataset.index);
    const card = cards[state.selected];
    if (card) {
      event.preventDefault();
      playCard(/** @type {string} */ (card.dataset.card));
    }
  } else if (lower === "d" || lower === "p" || lower === "u" || lower === "c") {
    const wanted = { d: "draw", p: "pass", u: "call_uno", c: "catch" }[lower];
    const entry = state.legal.find((item) => item.type === wanted);
    if (entry) {
      event.preventDefault();
      dropChoice();
      act(entry.action);
    }
  }
}

/** @param {HTMLElement[]} cards */
function selectCard(cards) {
  cards.forEach((card, index) => card.classList.toggle("selected", index === state.selected));
  cards[state.selected]?.focus();
}
