// Short celebrations (loaded when first needed): a burst over the seat of a round's or a match's
// winner or of an UNO call, and a banner across the top of the felt, for a second or two.  They
// lie over the page in a layer of the window's size (no layout shift, no scrolling), under the
// dialogs, above the felt: never over the hand.
// With reduced motion, the banner only, still; the motion-speed setting paces them.

import { el } from "./dom.js";
import { state } from "./state.js";
import { motionMs, reducedMotion } from "./prefs.js";
import { overlay, seatAnchor } from "./reactions.js";
import { t } from "./i18n.js";

const BURST_COLOURS = ["#ffd54a", "#ff6b6b", "#4fc3f7", "#81c784", "#ffffff", "#ff9f43"];
const BANNER_MS = 1800;

/** The words of each celebration: this player's, another's. */
const WORDS = {
  uno: ["social.celebrate.uno.you", "social.celebrate.uno.other"],
  round_end: ["social.celebrate.round.you", "social.celebrate.round.other"],
  match_end: ["social.celebrate.match.you", "social.celebrate.match.other"],
};

/**
 * Celebrate a game event: `round_end`, `match_end` (its winner) or an UNO call (its caller).
 * @param {GameEvent} event
 * @param {boolean} uno whether it is an UNO call (`uno`, or a card played with the call)
 */
export function celebrate(event, uno) {
  const seat = event.seat;
  if (!Number.isInteger(seat) || seat < 0) return;
  const you = seat === state.seat && !state.spectator;
  const name = state.seats.find((entry) => entry.seat === seat)?.name ?? t("social.seat", { seat });
  const [mine, other] = WORDS[uno ? "uno" : event.kind === "match_end" ? "match_end" : "round_end"];
  const text = you ? t(mine) : t(other, { name });
  const anchor = seatAnchor(seat);
  banner(text, uno ? "uno" : "win", anchor);
  burst(anchor, uno ? 16 : 28);
}

/**
 * A banner by the seat: above a seat in the felt's lower half (this player's: never over the hand),
 * below one in its upper half.
 * @param {string} text
 * @param {string} kind
 * @param {HTMLElement | null} anchor
 */
function banner(text, kind, anchor) {
  const felt = document.getElementById("felt");
  if (!felt || !anchor || state.screen !== "table") return;
  const layer = overlay();
  layer.querySelector(".celebration-banner")?.remove();
  const area = felt.getBoundingClientRect();
  const box = anchor.getBoundingClientRect();
  const above = box.top + box.height / 2 > area.top + area.height / 2;
  // eslint-disable-next-line no-restricted-syntax -- class names, not words
  const node = el("div", { class: `celebration-banner ${kind}${above ? " above" : ""}`, text });
  const x = Math.min(Math.max(box.left + box.width / 2, area.left + 90), area.right - 90);
  // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
  node.style.left = `${Math.round(x)}px`;
  // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
  node.style.top = `${Math.round(above ? box.top - 8 : box.bottom + 8)}px`;
  layer.append(node);
  const ms = reducedMotion() ? BANNER_MS : Math.max(motionMs(BANNER_MS), BANNER_MS * 0.6); // time to read it
  if (!reducedMotion() && "animate" in node) {
    node.animate(
      [
        { scale: "0.85", opacity: 0 },
        { scale: "1", opacity: 1, offset: 0.15 },
        { scale: "1", opacity: 1, offset: 0.85 },
        { scale: "1", opacity: 0 },
      ],
      { duration: ms, easing: "ease-out", fill: "forwards" },
    );
  }
  setTimeout(() => node.remove(), ms);
}

/**
 * Sparks bursting from the middle of a seat (nothing with reduced motion).
 * @param {HTMLElement | null} anchor
 * @param {number} count
 */
function burst(anchor, count) {
  if (!anchor || reducedMotion() || !("animate" in Element.prototype)) return;
  const ms = motionMs(1100);
  if (ms < 120) return;
  const box = anchor.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + Math.min(box.height / 2, 24);
  const layer = overlay();
  for (let i = 0; i < count; i += 1) {
    // eslint-disable-next-line no-restricted-syntax -- class names, not words
    const spark = el("span", { class: `spark${i % 4 === 0 ? " star" : ""}` });
    // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
    spark.style.left = `${Math.round(x)}px`;
    // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
    spark.style.top = `${Math.round(y)}px`;
    spark.style.setProperty("--spark", BURST_COLOURS[i % BURST_COLOURS.length]);
    layer.append(spark);
    const angle = (i / count) * 2 * Math.PI + Math.random() * 0.4;
    const reach = 50 + Math.random() * 45;
    const animation = spark.animate(
      [
        { transform: "translate(-50%, -50%) scale(0.4)", opacity: 1 },
        {
          // eslint-disable-next-line no-restricted-syntax -- a CSS value, not words
          transform: `translate(calc(-50% + ${(Math.cos(angle) * reach).toFixed(1)}px), calc(-50% + ${(Math.sin(angle) * reach).toFixed(1)}px)) scale(1)`,
          opacity: 0,
        },
      ],
      { duration: ms * (0.8 + Math.random() * 0.4), easing: "cubic-bezier(0.15, 0.8, 0.3, 1)", fill: "forwards" },
    );
    animation.finished.then(() => spark.remove()).catch(() => spark.remove());
  }
}
