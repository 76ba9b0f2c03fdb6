// The effects shown over the table as live events arrive: the lever, the Jam card, a rule card.
// They run one after another from a short queue; an effect never stops the game.

import { $, el, show } from "./dom.js";
import { cardNode } from "./cards.js";
import { state, seatName, ruleText } from "./state.js";
import { LEVER_LABELS, LEVER_ORDER } from "./start.js";

/** @typedef {import("./state.js").GameEvent} GameEvent */
/** @typedef {(box: HTMLElement) => Promise<void>} Effect */

const fx = {
  /** @type {Effect[]} */
  queue: [],
  running: false,
};

/**
 * Queue an effect (at most three wait; the oldest is dropped).
 * @param {Effect} run
 */
export function queueFx(run) {
  if (fx.queue.length >= 3) fx.queue.shift();
  fx.queue.push(run);
  if (!fx.running) runFx();
}

async function runFx() {
  fx.running = true;
  const box = $("#fx");
  while (fx.queue.length) {
    const run = /** @type {Effect} */ (fx.queue.shift());
    try {
      await run(box);
    } catch {
      // an animation never stops the game
    }
  }
  show(box, false);
  box.replaceChildren();
  fx.running = false;
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/** @param {GameEvent} event a `lever` event */
export async function leverFx(event) {
  const box = $("#fx");
  const outcomes = state.view?.public?.lever_outcomes ?? LEVER_ORDER;
  const outcome = outcomes[event.value - 1] ?? "";
  const reel = el("div", { class: "reel" });
  box.replaceChildren(el("div", { class: "fx-card lever" }, el("div", { class: "fx-title", text: "The lever spins…" }), reel));
  box.dataset.kind = "lever";
  show(box);
  if (!reducedMotion()) {
    for (let i = 0; i < 12; i += 1) {
      reel.textContent = LEVER_LABELS[outcomes[i % outcomes.length]] ?? outcomes[i % outcomes.length];
      await sleep(60 + i * 8);
    }
  }
  reel.textContent = LEVER_LABELS[outcome] ?? outcome;
  reel.classList.add("settled");
  $(".fx-title", box).textContent = "The lever stops on";
  /** @type {Element} */ (box.firstElementChild).append(el("p", { class: "fx-text", text: event.text ?? "" }));
  await sleep(1300);
}

/** @param {GameEvent} event a `jam` event */
export async function jamFx(event) {
  const box = $("#fx");
  const slam = event.value === 1;
  const card = cardNode("WJ", { extraClass: `dropping ${slam ? "slam" : "uno-side"}` });
  box.replaceChildren(
    el(
      "div",
      { class: "fx-card jam" },
      el("div", { class: "fx-title", text: "The Jam card drops…" }),
      card,
      el("div", { class: "fx-side", text: slam ? "SLAM! Discard" : "UNO side up: draw" }),
      el("p", { class: "fx-text", text: event.text ?? "" }),
    ),
  );
  box.dataset.kind = "jam";
  show(box);
  await sleep(reducedMotion() ? 900 : 1600);
}

/** @param {GameEvent} event a `rule` event */
export async function ruleFx(event) {
  const box = $("#fx");
  const rule = ruleText(event.value);
  box.replaceChildren(
    el(
      "div",
      { class: `fx-card rule ${rule && String(rule.reading).startsWith("enforced") ? "enforced" : "honour"}` },
      el("div", { class: "fx-title", text: `${seatName(event.seat)} ${event.seat === state.seat ? "perform" : "performs"} a rule card` }),
      el("div", { class: "rule-text", text: rule ? `“${rule.text}”` : "" }),
      el("div", { class: "rule-reading", text: rule ? rule.reading : "" }),
    ),
  );
  box.dataset.kind = "rule";
  show(box);
  await sleep(1800);
}
