// Motion on the table (Web Animations API): cards fly between the piles and the seats, markers pop on
// the player hit, the arrows turn on a Reverse, the lever spins, the Jam card drops, a rule card goes
// to its performer.  Effects stay inside the dashed ring, off the seats.  Each takes `pace` (1 normal,
// smaller faster, 0 none) and resolves when done; cards landed on the pile stay until `clearLanded`.

import { $, $$, el, sleep } from "./dom.js";
import { COLOUR_NAMES, backNode, cardNode, colourWord } from "./cards.js";
import { t } from "./i18n.js";
import { state, seatName } from "./state.js";
import { seatElement, seatAngle } from "./seats.js";

/** @typedef {{x: number, y: number, w: number, h: number}} Box a place on the screen (centre and size) */

const EASE = "cubic-bezier(0.2, 0.7, 0.3, 1)";
const MIN_MS = 40; // motion shorter than this is not played

const layer = () => $("#fx");

/**
 * The centre box of an element on the screen.
 * @param {Element | null} node
 */
function boxOf(node) {
  if (!node) return null;
  const rect = node.getBoundingClientRect();
  if (!rect.width && !rect.height) return null;
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2, w: rect.width, h: rect.height };
}

const pileBox = () => boxOf($("#draw-pile .stack"));
const topBox = () => boxOf($("#top-card"));

/**
 * Where a seat's cards come from and go to: this seat's hand, else the seat on the felt.
 * @param {number} seat
 */
function handBox(seat) {
  return (seat === state.seat && !state.spectator && boxOf($("#hand"))) || boxOf(seatElement(seat));
}

/** The area effects may use: the dashed ring in the middle of the felt. */
const effectArea = () => boxOf($("#ring"));

/**
 * Run animations and resolve when they are over (or a little after their time, whatever happens).
 * @param {Animation[]} animations
 * @param {number} ms
 */
async function done(animations, ms) {
  await Promise.race([Promise.all(animations.map((a) => a.finished.catch(() => undefined))), sleep(ms + 250)]);
}

/**
 * Fly `node` from one box to another; it keeps the size of the card pile (`--card-w` there).
 * @param {HTMLElement} node
 * @param {Box} from
 * @param {Box} to
 * @param {number} ms
 * @param {{delay?: number, keep?: boolean, spin?: number, fromScale?: number, toScale?: number, size?: Box | null}} [options]
 */
function fly(node, from, to, ms, { delay = 0, keep = false, spin = 0, fromScale = 0.7, toScale = 1, size = null } = {}) {
  node.classList.add("flying");
  layer().append(node);
  const w = size ? size.w : node.offsetWidth; // many cards of one size: measured once, not once each
  const h = size ? size.h : node.offsetHeight;
  const at = (/** @type {Box} */ box, /** @type {number} */ scale, /** @type {number} */ turn) =>
    // eslint-disable-next-line no-restricted-syntax -- CSS
    `translate(${(box.x - w / 2).toFixed(1)}px, ${(box.y - h / 2).toFixed(1)}px) scale(${scale}) rotate(${turn}deg)`;
  const animation = node.animate(
    [
      { transform: at(from, fromScale, spin), opacity: 0.85 },
      { transform: at(to, toScale, 0), opacity: 1 },
    ],
    { duration: ms, delay, easing: EASE, fill: "both" },
  );
  if (keep) node.classList.add("landed");
  else animation.finished.then(() => node.remove()).catch(() => node.remove());
  return animation;
}

/**
 * A card as it flies: its face when known, else a back; the size of the cards on the piles.
 * @param {string | undefined} name
 */
function flyingCard(name) {
  const node = name ? cardNode(name) : backNode();
  const size = getComputedStyle($("#discard-pile"));
  node.style.setProperty("--card-w", size.getPropertyValue("--card-w"));
  node.style.setProperty("--card-h", size.getPropertyValue("--card-h"));
  return node;
}

/**
 * The size of a card like `node` once on the motion layer.
 * @param {HTMLElement} node
 */
function cardSize(node) {
  node.classList.add("flying");
  layer().append(node);
  const size = { x: 0, y: 0, w: node.offsetWidth, h: node.offsetHeight };
  node.remove();
  return size;
}

/** Remove the cards that landed on the pile (the table now draws them itself). */
export function clearLanded() {
  for (const node of $$("#fx .landed")) node.remove();
  // the arrows' turns end where the table, now drawn, points them (`--rot`)
  for (const arrow of $$("#arrows .arrow")) for (const animation of arrow.getAnimations()) animation.cancel();
  arrowsTurned = 0;
}

/** How far the arrows have turned (Reverses presented since the table was last drawn), in degrees. */
let arrowsTurned = 0;

/** Remove every motion at once (the table is drawn anew). */
export function clearMotion() {
  for (const node of Array.from(layer().children)) {
    for (const animation of node.getAnimations()) animation.cancel();
    node.remove();
  }
}

/**
 * A marker popping on a place: "⊘" on a skipped player, "+2" on the player hit, "UNO!"...
 * @param {Box | null} box
 * @param {string} text
 * @param {string} kind
 * @param {number} ms
 */
async function marker(box, text, kind, ms) {
  if (!box || ms < MIN_MS) return;
  // eslint-disable-next-line no-restricted-syntax -- class names
  const node = el("div", { class: `marker ${kind}`, text });
  // eslint-disable-next-line no-restricted-syntax -- CSS
  node.style.left = `${box.x}px`;
  // eslint-disable-next-line no-restricted-syntax -- CSS
  node.style.top = `${box.y}px`;
  layer().append(node);
  const animation = node.animate(
    [
      { transform: "translate(-50%, -50%) scale(0.4)", opacity: 0 },
      { transform: "translate(-50%, -50%) scale(1.15)", opacity: 1, offset: 0.25 },
      { transform: "translate(-50%, -50%) scale(1)", opacity: 1, offset: 0.75 },
      { transform: "translate(-50%, -90%) scale(0.9)", opacity: 0 },
    ],
    { duration: ms, easing: "ease-out", fill: "both" },
  );
  await done([animation], ms);
  node.remove();
}

/**
 * Cards from the pile to a seat (a draw), their faces if this seat sees them.
 * @param {GameEvent} event
 * @param {number} pace
 */
async function drawFx(event, pace) {
  const from = pileBox();
  const to = handBox(event.seat);
  const count = Math.max(1, event.value);
  const ms = 380 * pace;
  if (!from || !to || ms < MIN_MS) return;
  const faces = Array.isArray(event.cards) ? event.cards : [];
  const shown = Math.min(count, 6);
  const gap = 90 * pace;
  const animations = [];
  for (let i = 0; i < shown; i += 1) {
    animations.push(fly(flyingCard(faces[i]), from, to, ms, { delay: i * gap, toScale: 0.6, spin: 8 }));
  }
  const hit = count >= 2 ? marker(boxOf(seatElement(event.seat)), `+${count}`, "hit", 700 * pace) : Promise.resolve();
  await Promise.all([done(animations, ms + shown * gap), hit]);
}

/**
 * A card from a seat (this seat: from the hand) to the pile, where it stays until the update is drawn.
 * @param {GameEvent} event
 * @param {number} pace
 */
async function playFx(event, pace) {
  const card = Array.isArray(event.cards) ? event.cards[0] : undefined;
  const to = topBox();
  const ms = 420 * pace;
  if (!to || ms < MIN_MS) return;
  /** @type {Box | null} */
  let from = null;
  if (event.seat === state.seat && card) {
    // eslint-disable-next-line no-restricted-syntax -- a CSS selector
    const source = $(`#hand .card[data-card="${CSS.escape(card)}"]`);
    from = boxOf(source);
    if (source) source.style.visibility = "hidden";
  }
  from = from ?? handBox(event.seat);
  if (!from) return;
  const { angle } = seatAngle(event.seat, state.view?.players ?? 2);
  const animation = fly(flyingCard(card), from, to, ms, { keep: true, spin: Math.cos(angle) * 40 + 15 });
  await done([animation], ms);
}

/**
 * The start card: from the draw pile to the discard pile, face up.
 * @param {GameEvent} event
 * @param {number} pace
 */
async function flipFx(event, pace) {
  const from = pileBox();
  const to = topBox();
  const ms = 380 * pace;
  if (!from || !to || ms < MIN_MS) return;
  await done([fly(flyingCard(event.cards?.[0]), from, to, ms, { keep: true, fromScale: 1 })], ms);
}

/**
 * Hands or cards moving between two seats: both ways for a swap, one way for a gift or a take.
 * @param {number} fromSeat
 * @param {number} toSeat
 * @param {boolean} both
 * @param {number} pace
 */
async function passFx(fromSeat, toSeat, both, pace) {
  const a = handBox(fromSeat);
  const b = handBox(toSeat);
  const ms = 650 * pace;
  if (!a || !b || ms < MIN_MS) return;
  const animations = [];
  const size = cardSize(backNode());
  for (let i = 0; i < 3; i += 1) {
    animations.push(fly(backNode(), a, b, ms, { delay: i * 70 * pace, fromScale: 0.5, toScale: 0.5, spin: 20, size }));
    if (both) animations.push(fly(backNode(), b, a, ms, { delay: i * 70 * pace, fromScale: 0.5, toScale: 0.5, spin: -20, size }));
  }
  await done(animations, ms + 210 * pace);
}

/**
 * Every hand moves on one seat in the direction of play (Seven-O's 0): a few backs fly from each
 * seat still in the match to the next one, all at once.
 * @param {number} step +1 or -1, the direction the hands moved
 * @param {View | null} view
 * @param {number} pace
 */
async function rotateFx(step, view, pace) {
  const ms = 650 * pace;
  if (!view || ms < MIN_MS) return;
  const out = new Set([...(view.state?.knocked ?? []), ...(view.state?.out ?? [])]);
  const seats = view.hand_sizes.map((_, seat) => seat).filter((seat) => !out.has(seat));
  if (step < 0) seats.reverse();
  const size = cardSize(backNode());
  /** @type {Animation[]} */
  const animations = [];
  seats.forEach((seat, index) => {
    const from = handBox(seat);
    const to = handBox(seats[(index + 1) % seats.length]);
    if (!from || !to) return;
    for (let i = 0; i < 2; i += 1) {
      animations.push(fly(backNode(), from, to, ms, { delay: i * 90 * pace, fromScale: 0.5, toScale: 0.5, spin: 20 * step, size }));
    }
  });
  await done(animations, ms + 90 * pace);
}

/**
 * The deal: cards fly from the pile to every seat in turn.
 * @param {GameEvent[]} deals consecutive `deal` events
 * @param {number} pace
 */
export async function dealFx(deals, pace) {
  const from = pileBox();
  const ms = 320 * pace;
  if (!from || ms < MIN_MS || !deals.length) return;
  const perSeat = deals.map((event) => ({ event, left: Math.min(Math.max(event.value, 0), 8), box: handBox(event.seat) }));
  const order = [];
  for (let round = 0; perSeat.some((seat) => seat.left > 0); round += 1) {
    for (const seat of perSeat) {
      if (seat.left > 0 && seat.box) order.push(seat);
      seat.left -= 1;
    }
  }
  const total = Math.min(1600, 260 + order.length * 28) * pace;
  const gap = order.length > 1 ? (total - ms) / (order.length - 1) : 0;
  const back = backNode();
  const size = cardSize(back);
  const options = { fromScale: 0.9, toScale: 0.5, spin: -25, size };
  // each card (a copy of one back) is made as it leaves the pile: the work spreads over the frames
  const flights = order.map(
    (seat, i) =>
      new Promise((resolve) => {
        setTimeout(() => {
          const card = /** @type {HTMLElement} */ (back.cloneNode(true));
          fly(card, from, /** @type {Box} */ (seat.box), ms, options).finished.then(resolve, resolve);
        }, i * gap);
      }),
  );
  await Promise.race([Promise.all(flights), sleep(total + 400)]);
}

/**
 * The arrows turn round on a Reverse.
 * @param {number} pace
 */
async function reverseFx(pace) {
  const ms = 550 * pace;
  if (ms < MIN_MS) return;
  const from = arrowsTurned;
  arrowsTurned += 180;
  // the turn holds until the table is drawn with the new direction (clearLanded cancels it then)
  const animations = $$("#arrows .arrow").map((arrow) => {
    for (const old of arrow.getAnimations()) old.cancel();
    return arrow.animate(
      [
        // eslint-disable-next-line no-restricted-syntax -- CSS
        { transform: `rotate(${from}deg) scale(1)` },
        // eslint-disable-next-line no-restricted-syntax -- CSS
        { transform: `rotate(${from + 90}deg) scale(1.6)` },
        // eslint-disable-next-line no-restricted-syntax -- CSS
        { transform: `rotate(${from + 180}deg) scale(1)` },
      ],
      { duration: ms, easing: "ease-in-out", fill: "forwards" },
    );
  });
  animations.push(
    $("#direction").animate([{ transform: "scale(1)" }, { transform: "scale(1.35)" }, { transform: "scale(1)" }], { duration: ms }),
  );
  await Promise.all([done(animations, ms), marker(topBox(), "⇄", "skip", ms)]);
}

/**
 * A box in the middle of the felt for an effect; it never leaves the dashed ring.
 * @param {string} kind
 * @param {...HTMLElement} children
 */
function effectBox(kind, ...children) {
  const area = effectArea();
  // eslint-disable-next-line no-restricted-syntax -- class names
  const node = el("div", { class: `effect ${kind}` }, children);
  if (area) {
    // eslint-disable-next-line no-restricted-syntax -- CSS
    node.style.left = `${area.x}px`;
    // eslint-disable-next-line no-restricted-syntax -- CSS
    node.style.top = `${area.y}px`;
    // eslint-disable-next-line no-restricted-syntax -- CSS
    node.style.setProperty("--effect-w", `${Math.max(160, area.w)}px`);
    // eslint-disable-next-line no-restricted-syntax -- CSS
    node.style.maxHeight = `${Math.max(120, area.h)}px`;
  }
  layer().append(node);
  return node;
}

/**
 * Fade an effect in, hold, fade out.
 * @param {HTMLElement} node
 * @param {number} ms
 */
function showEffect(node, ms) {
  return node.animate(
    [
      { opacity: 0, transform: "translate(-50%, -50%) scale(0.85)" },
      { opacity: 1, transform: "translate(-50%, -50%) scale(1)", offset: 0.12 },
      { opacity: 1, transform: "translate(-50%, -50%) scale(1)", offset: 0.9 },
      { opacity: 0, transform: "translate(-50%, -50%) scale(0.95)" },
    ],
    { duration: ms, fill: "both" },
  );
}

/**
 * The lever spins and stops on its outcome.
 * @param {GameEvent} event
 * @param {View | null} view the view of the update this event belongs to
 * @param {number} pace
 */
async function leverFx(event, view, pace) {
  const ms = 1500 * pace;
  if (ms < MIN_MS) return;
  const outcomes = view?.public?.lever_outcomes ?? [];
  const words = state.options?.rules?.lever_weights?.choice_labels ?? {};
  const outcome = outcomes[event.value - 1] ?? "";
  const reel = el("div", { class: "reel" });
  const pulls = event.seat === state.seat ? t("table.fx.lever.you") : t("table.fx.lever.other", { name: seatName(event.seat) });
  const title = el("div", { class: "effect-title", text: pulls });
  const node = effectBox("lever", title, reel);
  const animation = showEffect(node, ms);
  const spins = 10;
  let elapsed = 0;
  for (let i = 0; i < spins; i += 1) {
    const label = outcomes[(event.value + i + 1) % outcomes.length];
    reel.textContent = words[label] ?? label;
    const step = (ms * 0.5 * (i + 1)) / ((spins * (spins + 1)) / 2);
    elapsed += step;
    reel.animate([{ transform: "translateY(-40%)", opacity: 0.3 }, { transform: "none", opacity: 1 }], { duration: step });
    await sleep(step);
  }
  reel.textContent = words[outcome] ?? outcome;
  reel.classList.add("settled");
  reel.animate([{ transform: "scale(1.25)" }, { transform: "scale(1)" }], { duration: 240 * pace });
  await done([animation], ms - elapsed);
  node.remove();
}

/**
 * The Jam card drops from above and lands in the middle, Slam side up or not.
 * @param {GameEvent} event
 * @param {number} pace
 */
async function jamFx(event, pace) {
  const ms = 1400 * pace;
  if (ms < MIN_MS) return;
  const slam = event.value === 1;
  const card = cardNode("WJ");
  const node = effectBox(
    // eslint-disable-next-line no-restricted-syntax -- class names
    `jam ${slam ? "slam" : "back"}`,
    el("div", { class: "effect-title", text: t("table.fx.jam") }),
    card,
    el("div", { class: "jam-side", text: slam ? t("table.fx.jam.slam") : t("table.fx.jam.uno") }),
  );
  const shown = showEffect(node, ms);
  const fall = card.animate(
    [
      { transform: "translateY(-160px) rotate(-50deg) scale(1.3)", opacity: 0 },
      { transform: "translateY(0) rotate(8deg) scale(1)", opacity: 1, offset: 0.7 },
      { transform: "translateY(-10px) rotate(-3deg)", offset: 0.85 },
      { transform: slam ? "rotateY(360deg)" : "none" },
    ],
    { duration: ms * 0.5, easing: "ease-in", fill: "both" },
  );
  await done([shown, fall], ms);
  node.remove();
}

/**
 * A rule card, dispensed to its performer: it flies from the dispenser (the middle) to the seat.
 * @param {GameEvent} event
 * @param {number} pace
 */
async function dispenseFx(event, pace) {
  const from = effectArea();
  const to = handBox(event.seat);
  const ms = 520 * pace;
  if (!from || !to || ms < MIN_MS || event.value < 0) return;
  const node = el("div", { class: "card rule-card" }, el("span", { class: "sym", text: "?" }));
  await done([fly(node, from, to, ms, { fromScale: 1, toScale: 0.5, spin: 30 })], ms);
}

/**
 * A rule card performed: its text in the middle of the felt.
 * @param {GameEvent} event
 * @param {View | null} view
 * @param {number} pace
 */
async function ruleFx(event, view, pace) {
  const ms = 1600 * pace;
  if (ms < MIN_MS) return;
  const shown = view?.public?.rule_cards_shown ?? [];
  const entry = shown.find((item) => item[0] === event.value);
  const reading = entry ? String(entry[2]) : "";
  const node = effectBox(
    // eslint-disable-next-line no-restricted-syntax -- class names
    `rule ${reading.startsWith("enforced") ? "enforced" : "honour"}`,
    el("div", { class: "effect-title", text: event.seat === state.seat ? t("table.fx.rule.you") : t("table.fx.rule.other", { name: seatName(event.seat) }) }),
    el("div", { class: "rule-text", text: entry ? t("table.rule.quoted", { text: entry[1] }) : "" }),
    el("div", { class: "rule-reading", text: reading }),
  );
  await done([showEffect(node, ms)], ms);
  node.remove();
}

/**
 * @param {GameEvent} event
 * @param {View | null} view the view of the update the event belongs to (for the words of rule cards, lever outcomes)
 * @param {number} pace
 */
export async function eventFx(event, view, pace) {
  const seatBox = () => boxOf(seatElement(event.seat));
  switch (event.kind) {
    case "play":
    case "discard":
      return playFx(event, pace);
    case "flip":
      return flipFx(event, pace);
    case "draw":
      return drawFx(event, pace);
    case "skip":
      return marker(seatBox(), "⊘", "skip", 650 * pace);
    case "lose_turn":
      return marker(seatBox(), t("table.fx.lose_turn"), "skip", 650 * pace);
    case "reverse":
      return reverseFx(pace);
    case "swap":
      return passFx(event.seat, event.value, true, pace);
    case "pass_hands":
      return rotateFx(event.value, view, pace);
    case "stack":
      return marker(topBox(), `+${event.value}`, "hit", 600 * pace);
    case "deflect":
      return marker(seatBox(), t("table.fx.deflect"), "skip", 600 * pace);
    case "jump":
      return marker(seatBox(), t("table.fx.jump"), "uno", 600 * pace);
    case "bomb":
      return marker(topBox(), t("table.fx.bomb"), "hit", 650 * pace);
    case "blocked":
      return marker(topBox(), t("table.fx.blocked"), "skip", 900 * pace);
    case "mercy":
      return marker(seatBox(), t("table.fx.mercy"), "caught", 700 * pace);
    case "knockout":
      return marker(seatBox(), t("table.fx.knockout"), "caught", 800 * pace);
    case "take":
      return passFx(event.value, event.seat, false, pace);
    case "give":
      return passFx(event.seat, event.value, false, pace);
    case "uno":
      return marker(seatBox(), "UNO!", "uno", 650 * pace);
    case "catch":
      return marker(boxOf(seatElement(event.value)), t("table.fx.catch"), "caught", 650 * pace);
    case "colour": {
      const word = Object.values(COLOUR_NAMES)[event.value] ?? ""; // the colours in the engine's order
      // eslint-disable-next-line no-restricted-syntax -- class names
      return marker(topBox(), colourWord(word), `colour c-${word}`, 550 * pace);
    }
    case "challenge":
      return marker(seatBox(), t("table.fx.challenge"), "caught", 600 * pace);
    case "verdict":
      return marker(seatBox(), event.value ? t("table.fx.guilty") : t("table.fx.innocent"), event.value ? "caught" : "good", 650 * pace);
    case "lever":
      return leverFx(event, view, pace);
    case "jam":
      return jamFx(event, pace);
    case "dispense":
      return dispenseFx(event, pace);
    case "rule":
      return ruleFx(event, view, pace);
    default:
      return undefined;
  }
}
