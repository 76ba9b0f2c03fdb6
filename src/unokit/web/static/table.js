// The table: the seats (seats.js), the centre (piles, colour, direction), the ticker, status, actions
// and UNO button, the scores, the rule cards shown and the log; the hand and the dialog draw
// themselves.  It draws the update the event queue shows, its version on `#table[data-version]`.

import { $, el, morphChildren, scrollToEnd, show } from "./dom.js";
import { COLOUR_NAMES, backNode, cardNode, colourWord } from "./cards.js";
import { state, seatName, myDecisions, myJumps, editionTitle, HAND_PHASES } from "./state.js";
import { act } from "./connection.js";
import { renderHand } from "./hand.js";
import { unoButton, unoWithCard } from "./uno.js";
import { renderSeats } from "./seats.js";
import { renderDecision, phaseDialog } from "./dialogs.js";
import { andList, midSentence } from "./labels.js";
import { t } from "./i18n.js";

const MAX_LOG = 400;
let firstDrawn = false;

/**
 * Add an event's words to the log and the ticker.
 * @param {GameEvent} event
 */
export function addLog(event) {
  const text = typeof event.text === "string" ? event.text : "";
  if (!text) return;
  const list = $("#log");
  // eslint-disable-next-line no-restricted-syntax -- a class name
  list.append(el("li", { class: `log-${event.kind}`, text }));
  while (list.childElementCount > MAX_LOG) list.firstElementChild?.remove();
  scrollLog(list);
  const ticker = $("#ticker");
  ticker.textContent = text;
  ticker.dataset.kind = event.kind;
}

/**
 * Scroll the log and its panel to the last line.
 * @param {HTMLElement} list
 */
export function scrollLog(list) {
  scrollToEnd(list, list.parentElement);
}

export function renderTable() {
  const view = state.view;
  if (!view) return;
  const table = $("#table");
  table.dataset.version = String(state.shownVersion);
  document.body.dataset.edition = view.edition ?? "";
  const edition = editionTitle(view.edition);
  $("#table-title").textContent = state.code ? t("table.title.room", { edition, code: state.code }) : t("table.title", { edition });
  table.dataset.actor = String(view.actor);
  renderSeats(view);
  renderCentre(view);
  renderStatus(view);
  renderActions(view);
  renderHand(view);
  renderScores(view);
  renderRulesShown(view);
  renderDecision(view);
  document.dispatchEvent(new CustomEvent("unokit:table-drawn")); // the coach and the hints follow the table
  if (!firstDrawn && view.top_card) {
    firstDrawn = true;
    performance.mark("unokit:table-drawn");
  }
}

/** @param {View} view */
function renderCentre(view) {
  const top = $("#top-card");
  morphChildren(top, view.top_card ? [cardNode(view.top_card, { extraClass: "top" })] : []);
  $("#discard-pile").classList.toggle("empty", view.discard_pile_size <= 1);
  // stacking (a house rule): the penalty that adds up and passes on
  const pending = Number(view.state?.stack_total) || 0;
  const stackTotal = $("#stack-total");
  stackTotal.textContent = pending ? t("table.stack", { count: pending }) : "";
  stackTotal.title = pending ? t("table.stack.title") : "";
  show(stackTotal, pending > 0);
  const stack = $("#draw-pile .stack");
  const backs = view.draw_pile_size > 2 ? 3 : view.draw_pile_size;
  morphChildren(stack, Array.from({ length: backs }, () => backNode()));
  $("#draw-count").textContent = t("table.pile.draw", { count: view.draw_pile_size });
  $("#draw-pile").setAttribute("aria-label", t("table.pile.draw.label", { count: view.draw_pile_size }));
  $("#discard-count").textContent = t("table.pile.discarded", { count: view.discard_pile_size });
  const draw = state.legal.find((entry) => entry.type === "draw");
  const drawPile = $("#draw-pile");
  drawPile.toggleAttribute("disabled", !draw || state.busy || !HAND_PHASES.has(view.phase));
  drawPile.onclick = draw ? () => act(draw.action) : null;
  renderColour(view);
  const direction = $("#direction");
  const forward = view.direction >= 0;
  direction.classList.toggle("ccw", !forward);
  morphChildren(direction, [
    el("span", { class: "spin", "aria-hidden": "true", text: forward ? "↻" : "↺" }),
    new Text(forward ? t("table.direction.cw") : t("table.direction.ccw")),
  ]);
  const how = midSentence(state.options?.rules?.scoring?.choice_labels?.[view.scoring] ?? "");
  const round = view.round;
  const count = view.target_score;
  const single = view.scoring === "single-round" || view.scoring === "knockout";
  $("#round-info").textContent = single
    ? how ? t("table.round.how", { round, how }) : t("table.round", { round })
    : how ? t("table.round.target.how", { round, count, how }) : t("table.round.target", { round, count });
}

/**
 * The colour chip: the colour in force, or "choosing…" while a wild's colour is being chosen.
 * @param {View} view
 */
function renderColour(view) {
  const chip = $("#current-colour");
  const choosing = view.phase === "colour";
  const colour = choosing ? "" : COLOUR_NAMES[view.colour ?? ""];
  // eslint-disable-next-line no-restricted-syntax -- class names
  chip.className = `colour-chip ${choosing ? "choosing" : colour ? `c-${colour}` : "c-none"}`;
  morphChildren(chip, [
    el("span", { class: "chip-label", text: choosing || colour ? t("table.colour.label") : "" }),
    new Text(choosing || colour ? " " : ""),
    new Text(choosing ? t("table.colour.choosing") : colour ? colourWord(colour) : t("table.colour.none")),
  ]);
  const you = view.actor === state.seat;
  chip.title = choosing ? (you ? t("table.colour.chooser.you") : t("table.colour.chooser.other", { name: seatName(view.actor) })) : "";
}

/** @param {View} view */
function renderStatus(view) {
  const status = $("#status");
  if (state.staleUntil > state.shownVersion) return; // dropStaleDecision said whose turn it is now
  const mine = myDecisions().length > 0;
  const jump = myJumps().length > 0;
  const winner = view.winner >= 0 ? seatName(view.winner) : null;
  if (view.phase === "over" || state.finished) {
    if (!winner) status.textContent = t("table.status.over");
    else status.textContent = view.winner === state.seat ? t("table.status.over.you") : t("table.status.over.other", { name: winner });
  } else if (state.reading?.waiting.some((seat) => seat !== state.seat || !state.continued)) {
    const waiting = state.reading.waiting.filter((seat) => seat !== state.seat || !state.continued);
    const others = waiting.filter((seat) => seat !== state.seat);
    const names = andList(others.map(seatName));
    const withYou = waiting.length > others.length;
    if (!others.length) status.textContent = t("table.status.reading.you");
    else status.textContent = withYou ? t("table.status.reading.others_you", { names }) : t("table.status.reading.others", { names });
  } else if (!mine && jump) {
    status.textContent = t("table.status.jump", { name: seatName(view.actor) });
  } else {
    status.textContent = statusWords(view.actor, mine, state.asks);
  }
  status.classList.toggle("mine", mine || jump);
  $("#hand-area").classList.toggle("my-turn", mine || jump);
}

/**
 * Whose move it is, in words: "Your move: play a card." or "Bot 1 to play a card." (the server's `asks`).
 * @param {number} actor
 * @param {boolean} mine
 * @param {string} asks
 */
export function statusWords(actor, mine, asks) {
  return mine ? t("table.status.mine", { asks }) : t("table.status.other", { name: seatName(actor), asks });
}

/** @param {LegalEntry} entry */
function actionButton(entry, extraClass = "") {
  return el("button", {
    // eslint-disable-next-line no-restricted-syntax -- class names
    class: `act ${extraClass}`.trim(),
    text: entry.label || entry.action,
    dataset: { action: entry.action },
    disabled: state.busy,
    onclick: () => act(entry.action),
  });
}

/** @param {View} view */
function renderActions(view) {
  const box = $("#actions");
  const buttons = [];
  const handPhase = HAND_PHASES.has(view.phase);
  for (const entry of state.legal) {
    if (entry.card) continue; // cards are played from the hand
    if (entry.type === "call_uno") continue; // the big UNO button below
    if (entry.type === "catch") buttons.push(actionButton(entry, "catch"));
    else if (handPhase) buttons.push(actionButton(entry, entry.type === "draw" ? "primary" : ""));
  }
  // while the dialog asks (a drawn card), the race button is in the dialog
  const inDialog = phaseDialog(view) && unoWithCard();
  const uno = inDialog ? null : unoButton();
  if (uno) buttons.push(el("div", { class: "uno-wrap" }, uno));
  morphChildren(box, buttons);
  box.classList.toggle("has-uno", Boolean(uno));
}

// the page widens for the table
document.addEventListener("unokit:screen", (event) => {
  document.body.classList.toggle("at-table", /** @type {CustomEvent} */ (event).detail === "table");
});

/** @param {View} view */
function renderScores(view) {
  const single = view.scoring === "single-round" || view.scoring === "knockout";
  const teams = view.teams ?? [];
  const rows = view.hand_sizes.map((size, seat) =>
    el(
      "tr",
      { class: seat === state.seat ? "me" : "" },
      el("td", { text: teams.length ? t("table.scores.team", { name: seatName(seat), team: ["A", "B"][teams[seat]] }) : seatName(seat) }),
      el("td", { class: "num", text: single ? t("table.cards", { count: size }) : view.scores[seat] }),
    ),
  );
  morphChildren($("#scoreboard tbody"), rows);
}

/** @param {View} view */
function renderRulesShown(view) {
  const info = view.public ?? {};
  const shown = info.rule_cards_shown;
  show($("#rules-shown-panel"), Boolean(shown));
  if (!shown) return;
  $("#dispenser").textContent = t("table.dispenser", { left: info.rule_cards_in_dispenser ?? 0, count: info.rule_cards_used ?? 0 });
  const items = shown.map(([, text, reading]) =>
    el(
      "li",
      { class: String(reading).startsWith("enforced") ? "enforced" : "honour" },
      el("span", { class: "rule-text", text: t("table.rule.quoted", { text }) }),
      el("span", { class: "rule-reading", text: String(reading) }),
    ),
  );
  morphChildren($("#rules-shown"), items);
}
