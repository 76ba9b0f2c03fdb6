// The table: the seats (seats.js), the centre (piles, colour, direction), the ticker, status, actions
// and UNO button, the scores, the rule cards shown and the log; the hand and the dialog draw
// themselves.  It draws the update the event queue shows, its version on `#table[data-version]`.

import { $, el, morphChildren, scrollToEnd, show } from "./dom.js";
import { COLOUR_NAMES, backNode, cardNode } from "./cards.js";
import { state, seatName, myDecisions, myJumps, editionTitle, HAND_PHASES } from "./state.js";
import { act } from "./connection.js";
import { renderHand } from "./hand.js";
import { unoButton, unoWithCard } from "./uno.js";
import { renderSeats } from "./seats.js";
import { renderDecision, phaseDialog } from "./dialogs.js";
import { plural, seatList } from "./labels.js";

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
  $("#table-title").textContent = `${editionTitle(view.edition)} table${state.code ? `, room ${state.code}` : ""}`;
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
  stackTotal.textContent = pending ? `+${pending} to draw` : "";
  stackTotal.title = pending ? "Stacked draw cards: the first player who cannot or will not add one draws them all" : "";
  show(stackTotal, pending > 0);
  const stack = $("#draw-pile .stack");
  const backs = view.draw_pile_size > 2 ? 3 : view.draw_pile_size;
  morphChildren(stack, Array.from({ length: backs }, () => backNode()));
  $("#draw-count").textContent = `${view.draw_pile_size} to draw`;
  $("#draw-pile").setAttribute("aria-label", `Draw pile, ${view.draw_pile_size} to draw`);
  $("#discard-count").textContent = `${view.discard_pile_size} discarded`;
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
    new Text(forward ? "clockwise" : "counter-clockwise"),
  ]);
  const how = state.options?.rules?.scoring?.choice_labels?.[view.scoring]?.toLowerCase() ?? "";
  const scoring = view.scoring === "single-round" || view.scoring === "knockout" ? how : `to ${plural(view.target_score, "point")}${how ? ` · ${how}` : ""}`;
  $("#round-info").textContent = `Round ${view.round} · ${scoring}`;
}

/**
 * The colour chip: the colour in force, or "choosing…" while a wild's colour is being chosen.
 * @param {View} view
 */
function renderColour(view) {
  const chip = $("#current-colour");
  const choosing = view.phase === "colour";
  const colour = choosing ? "" : COLOUR_NAMES[view.colour ?? ""];
  chip.className = `colour-chip ${choosing ? "choosing" : colour ? `c-${colour}` : "c-none"}`;
  morphChildren(chip, [
    el("span", { class: "chip-label", text: choosing || colour ? "Colour: " : "" }),
    new Text(choosing ? "choosing…" : colour || "No colour"),
  ]);
  chip.title = choosing ? `${seatName(view.actor)} ${view.actor === state.seat ? "choose" : "chooses"} the colour` : "";
}

/** @param {View} view */
function renderStatus(view) {
  const status = $("#status");
  if (state.staleUntil > state.shownVersion) return; // dropStaleDecision said whose turn it is now
  const mine = myDecisions().length > 0;
  const jump = myJumps().length > 0;
  const winner = view.winner >= 0 ? seatName(view.winner) : null;
  if (view.phase === "over" || state.finished) {
    status.textContent = winner ? `Match over: ${winner === "You" ? "you win" : `${winner} wins`}.` : "Match over.";
  } else if (state.reading?.waiting.some((seat) => seat !== state.seat || !state.continued)) {
    const waiting = state.reading.waiting.filter((seat) => seat !== state.seat || !state.continued);
    const who = seatList(waiting, state.seat, seatName);
    status.textContent = `Waiting for ${who} to read the results: the next round begins then.`;
  } else if (!mine && jump) {
    status.textContent = `Jump in! You hold the same card: play it before ${seatName(view.actor)} moves.`;
  } else {
    status.textContent = mine ? `Your move: ${state.asks}.` : `${seatName(view.actor)} to ${state.asks}.`;
  }
  status.classList.toggle("mine", mine || jump);
  $("#hand-area").classList.toggle("my-turn", mine || jump);
}

/** @param {LegalEntry} entry */
function actionButton(entry, extraClass = "") {
  return el("button", {
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
      el("td", { text: teams.length ? `${seatName(seat)} · team ${["A", "B"][teams[seat]]}` : seatName(seat) }),
      el("td", { class: "num", text: single ? plural(size, "card") : view.scores[seat] }),
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
  $("#dispenser").textContent = `${info.rule_cards_in_dispenser ?? 0} in the dispenser, ${info.rule_cards_used ?? 0} used.`;
  const items = shown.map(([, text, reading]) =>
    el(
      "li",
      { class: String(reading).startsWith("enforced") ? "enforced" : "honour" },
      el("span", { class: "rule-text", text: `“${text}”` }),
      el("span", { class: "rule-reading", text: String(reading) }),
    ),
  );
  morphChildren($("#rules-shown"), items);
}
