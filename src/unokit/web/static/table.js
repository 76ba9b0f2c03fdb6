// The table: opponents, the centre (piles, colour, direction), the status line, the action buttons,
// the scores, the rule cards shown and the log.  The hand and the decision dialog draw themselves.

import { $, el, show } from "./dom.js";
import { COLOUR_NAMES, cardNode } from "./cards.js";
import { state, seatName, myDecisions, unoState, HAND_PHASES } from "./state.js";
import { act } from "./connection.js";
import { renderHand } from "./hand.js";
import { renderDecision } from "./dialogs.js";

/** @typedef {import("./state.js").View} View */
/** @typedef {import("./state.js").LegalEntry} LegalEntry */

const MAX_LOG = 400;

/**
 * Add an event's words to the log.
 * @param {import("./state.js").GameEvent} event
 */
export function addLog(event) {
  const text = typeof event.text === "string" ? event.text : "";
  if (!text) return;
  const list = $("#log");
  const item = el("li", { class: `log-${event.kind}`, text });
  list.append(item);
  while (list.childElementCount > MAX_LOG) list.firstElementChild?.remove();
  const panel = list.parentElement;
  list.scrollTop = list.scrollHeight;
  if (panel) panel.scrollTop = panel.scrollHeight;
}

/** Draw the whole table from the state. */
export function renderTable() {
  const view = state.view;
  if (!view) return;
  renderOpponents(view);
  renderCentre(view);
  renderStatus(view);
  renderActions(view);
  renderHand(view);
  renderScores(view);
  renderRulesShown(view);
  renderDecision(view);
}

/**
 * The other seats, in playing order after this one.
 * @param {View} view
 */
function seatOrder(view) {
  const order = [];
  const start = state.seat ?? -1;
  for (let step = 1; step <= view.players; step += 1) {
    const seat = (start + step + view.players) % view.players;
    if (seat !== state.seat) order.push(seat);
  }
  return order;
}

/** @param {View} view */
function renderOpponents(view) {
  const box = $("#opponents");
  box.replaceChildren();
  const catchable = new Map(
    state.legal.filter((entry) => entry.type === "catch").map((entry) => [entry.seat, entry]),
  );
  for (const seat of seatOrder(view)) {
    const info = /** @type {Partial<import("./state.js").SeatInfo>} */ (state.seats.find((s) => s.seat === seat) ?? {});
    const count = view.hand_sizes[seat];
    const acting = view.phase !== "over" && view.actor === seat;
    const classes = ["seat", acting ? "acting" : "", info.away ? "away" : ""].filter(Boolean).join(" ");
    const backs = el("div", { class: "backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(count, 12); i += 1) backs.append(el("span", { class: "mini-back" }));
    const badges = [];
    if (info.kind === "bot") badges.push(el("span", { class: "badge kind-bot", text: "bot" }));
    if (info.away) badges.push(el("span", { class: "badge away", text: "away" }));
    if (seat === view.dealer) badges.push(el("span", { class: "badge", text: "dealer" }));
    const uno = unoState(view, seat);
    if (uno === "called") badges.push(el("span", { class: "badge uno", text: "UNO!" }));
    if (uno === "uncalled") badges.push(el("span", { class: "badge no-uno", text: "no UNO" }));
    const node = el(
      "div",
      { class: classes, dataset: { seat, count } },
      el("div", { class: "seat-head" }, el("span", { class: "seat-name", text: seatName(seat) }), el("span", { class: "badges" }, badges)),
      el(
        "div",
        { class: "seat-body" },
        backs,
        el("span", { class: "count", text: `${count} card${count === 1 ? "" : "s"}` }),
        el("span", { class: "seat-score muted", text: view.scoring === "single-round" ? "" : `${view.scores[seat]} pts` }),
      ),
    );
    const catchEntry = catchable.get(seat);
    if (catchEntry) {
      node.append(
        el("button", {
          type: "button",
          class: "catch",
          text: "Catch!",
          title: catchEntry.label,
          dataset: { action: catchEntry.action },
          disabled: state.busy,
          onclick: () => act(catchEntry.action),
        }),
      );
    }
    box.append(node);
  }
}

/** @param {View} view */
function renderCentre(view) {
  const top = $("#top-card");
  top.replaceChildren(cardNode(view.top_card, { extraClass: "top" }));
  $("#draw-count").textContent = `${view.draw_pile_size} to draw`;
  $("#discard-count").textContent = `${view.discard_pile_size} discarded`;
  const chip = $("#current-colour");
  const colour = COLOUR_NAMES[/** @type {string} */ (view.colour)];
  chip.className = `colour-chip ${colour ? `c-${colour}` : "c-none"}`;
  chip.textContent = colour ? `Colour: ${colour}` : "No colour";
  $("#direction").textContent = view.direction >= 0 ? "↻ clockwise" : "↺ counter-clockwise";
  const scoring = view.scoring === "single-round" ? "single round" : `to ${view.target_score} · ${view.scoring}`;
  $("#round-info").textContent = `Round ${view.round} · ${scoring}`;
}

/** @param {View} view */
function renderStatus(view) {
  const status = $("#status");
  const mine = myDecisions();
  if (view.phase === "over" || state.finished) {
    const winner = view.winner >= 0 ? seatName(view.winner) : null;
    status.textContent = winner ? `Match over: ${winner === "You" ? "you win" : `${winner} wins`}.` : "Match over.";
  } else if (mine.length) {
    status.textContent = `Your move: ${state.asks || view.phase}.`;
  } else {
    status.textContent = `${seatName(view.actor)} to ${state.asks || view.phase}.`;
  }
  status.classList.toggle("mine", mine.length > 0);
}

/**
 * @param {LegalEntry} entry
 * @param {string} [extraClass]
 */
function actionButton(entry, extraClass = "") {
  return el("button", {
    type: "button",
    class: `act ${extraClass}`.trim(),
    text: entry.label || entry.action,
    title: entry.action,
    dataset: { action: entry.action },
    disabled: state.busy,
    onclick: () => act(entry.action),
  });
}

/** @param {View} view */
function renderActions(view) {
  const box = $("#actions");
  box.replaceChildren();
  const handPhase = HAND_PHASES.has(view.phase);
  for (const entry of state.legal) {
    if (entry.card) continue; // cards are played from the hand
    if (entry.type === "call_uno") box.append(actionButton(entry, "uno-button"));
    else if (entry.type === "catch") box.append(actionButton(entry, "catch"));
    else if (handPhase) box.append(actionButton(entry, entry.type === "draw" ? "primary" : ""));
  }
}

/** @param {View} view */
function renderScores(view) {
  const body = $("#scoreboard tbody");
  body.replaceChildren();
  for (let seat = 0; seat < view.players; seat += 1) {
    const row = el(
      "tr",
      { class: seat === state.seat ? "me" : "" },
      el("td", { text: seatName(seat) }),
      el("td", {
        class: "num",
        text:
          view.scoring === "single-round"
            ? `${view.hand_sizes[seat]} card${view.hand_sizes[seat] === 1 ? "" : "s"}`
            : view.scores[seat],
      }),
    );
    body.append(row);
  }
}

/** @param {View} view */
function renderRulesShown(view) {
  const panel = $("#rules-shown-panel");
  const publicInfo = view.public ?? {};
  if (!("rule_cards_shown" in publicInfo)) {
    show(panel, false);
    return;
  }
  show(panel);
  $("#dispenser").textContent = `${publicInfo.rule_cards_in_dispenser ?? 0} in the dispenser, ${
    publicInfo.rule_cards_used ?? 0
  } used.`;
  const list = $("#rules-shown");
  list.replaceChildren();
  for (const [, text, reading] of /** @type {[number, string, string][]} */ (publicInfo.rule_cards_shown)) {
    const enforced = String(reading).startsWith("enforced");
    list.append(
      el(
        "li",
        { class: enforced ? "enforced" : "honour" },
        el("span", { class: "rule-text", text: `“${text}”` }),
        el("span", { class: "rule-reading", text: String(reading) }),
      ),
    );
  }
}
