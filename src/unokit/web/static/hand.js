// This seat's hand (overlapping cards when they do not fit, scrolling past that), playing a card, and
// the table's keys: pick, play, draw, pass, UNO, catch, answer the decision dialog.

import { $, $$, morphChildren, show, toast } from "./dom.js";
import { cardLongName, cardNode, sortedHand } from "./cards.js";
import { state, seatName, unoState } from "./state.js";
import { act } from "./connection.js";
import { openChoice, choiceIsOpen, cancelChoice, dropChoice } from "./dialogs.js";
import { unoArmed, disarmUno, pressUno } from "./uno.js";
import { t } from "./i18n.js";

/**
 * The legal actions that play `card`.
 * @param {string} card
 */
function cardActions(card) {
  return state.legal.filter((entry) => entry.card === card);
}

/** The hand's heading, with points or without, by the state of its UNO call. */
/** @type {Record<string, Record<string, string>>} */
const LABEL_IDS = {
  plain: { none: "hand.label", called: "hand.label.uno", uncalled: "hand.label.no_uno" },
  points: { none: "hand.label.points", called: "hand.label.points.uno", uncalled: "hand.label.points.no_uno" },
};

/** @param {View} view */
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
  const scored = view.scoring !== "single-round" && view.scoring !== "knockout";
  const words = { name: seatName(state.seat), count, points: view.scores[state.seat] };
  const ids = scored ? LABEL_IDS.points : LABEL_IDS.plain;
  $("#me-label").textContent = t(ids[uno ?? "none"] ?? ids.none, words);
  if (state.selected >= count) state.selected = count - 1;
  const nodes = cards.map((card, index) => {
    const actions = cardActions(card);
    const classes = [actions.length ? "playable" : "", index === state.selected ? "selected" : ""].join(" ");
    const onclick = () => {
      state.selected = index;
      playCard(card);
    };
    const node = cardNode(card, { extraClass: classes, onclick });
    node.dataset.index = String(index);
    if (!actions.length) node.setAttribute("aria-disabled", "true");
    node.toggleAttribute("disabled", state.busy);
    return node;
  });
  const focused = document.activeElement?.closest?.("#hand");
  morphChildren(hand, nodes);
  fitHand();
  if (focused && !document.activeElement?.closest?.("#hand")) /** @type {HTMLElement | undefined} */ (hand.children[state.selected])?.focus();
}

/** The hand's width and `--card-w` as last laid out, kept by a ResizeObserver: drawing forces no layout. */
let handWidth = 0;
let cardWidth = 0;

/** Overlap the cards when they do not fit in a row (each index stays in sight); scroll past that. */
function fitHand() {
  const hand = $("#hand");
  const count = hand.childElementCount;
  const width = cardWidth || 64;
  const gap = 6;
  if (count < 2 || !handWidth || count * width + (count - 1) * gap <= handWidth) {
    hand.classList.remove("overlapping", "fits");
    // eslint-disable-next-line no-restricted-syntax -- CSS
    hand.style.setProperty("--overlap", `${gap}px`);
    return;
  }
  const slice = Math.max(width * 0.42, 20); // what shows of each card but the last: its corner index
  const step = Math.max(slice, (handWidth - width) / (count - 1));
  // eslint-disable-next-line no-restricted-syntax -- CSS
  hand.style.setProperty("--overlap", `${(step - width).toFixed(1)}px`);
  hand.classList.add("overlapping");
  hand.classList.toggle("fits", width + step * (count - 1) <= handWidth + 0.5);
}

if (typeof ResizeObserver !== "undefined") {
  new ResizeObserver((entries) => {
    const now = entries[0]?.contentRect.width ?? 0;
    const card = parseFloat(getComputedStyle($("#hand")).getPropertyValue("--card-w")) || 64; // laid out: no forced recalculation
    if (Math.abs(now - handWidth) > 1 || card !== cardWidth) {
      handWidth = now;
      cardWidth = card;
      fitHand();
    }
  }).observe($("#hand"));
}

/**
 * Play `card`: with the UNO call if UNO was pressed, else without; a choice if ways remain.
 * @param {string} card
 */
function playCard(card) {
  const actions = cardActions(card);
  if (!actions.length) return toast(t("hand.refused", { card: cardLongName(card) }));
  const calls = actions.filter((entry) => entry.type === "play_uno" || entry.type === "jump_uno");
  const plain = actions.filter((entry) => entry.type !== "play_uno" && entry.type !== "jump_uno");
  const chosen = unoArmed() && calls.length ? calls : plain.length ? plain : actions;
  if (chosen.length === 1) {
    disarmUno();
    return act(chosen[0].action);
  }
  openChoice(t("hand.choice", { card: cardLongName(card) }), "", chosen);
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
      // eslint-disable-next-line no-restricted-syntax -- a CSS selector
      const button = $(`#decision-options button[data-key="${key}"]:not([disabled])`);
      if (button) {
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
  } else if (lower === "u") {
    if (state.legal.some((entry) => ["call_uno", "play_uno", "jump_uno"].includes(entry.type ?? ""))) {
      event.preventDefault();
      pressUno();
    }
  } else if (lower === "d" || lower === "p" || lower === "c") {
    const wanted = { d: "draw", p: "pass", c: "catch" }[lower];
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
