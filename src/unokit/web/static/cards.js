// Cards, presentation only: names, sort order, faces and backs.  A face is built from the card's
// notation (`R7`, `B+2`, `W+4`, `WJ`...): a field, two corner indices and a tilted oval with the
// symbol; cards.css draws it from the classes `c-<colour>` and `k-<kind>`.

import { el } from "./dom.js";

/** @type {Record<string, string>} */
export const COLOUR_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", O: "orange" };
const COLOUR_ORDER = "RYGBO";
/** @type {Record<string, string>} */
const KIND_NAMES = {
  S: "Skip", R: "Reverse", "+2": "Draw Two", $: "Jackpot", W: "Wild", "W+4": "Wild Draw Four",
  WJ: "Wild Welcome to the Jam", W$: "Wild Jackpot", WR: "Wild Reverse", WS: "Wild Skip", WS2: "Wild Skip Two",
  "W+2": "Wild Draw Two", WT2: "Wild Targeted Draw Two", WX: "Wild Forced Swap",
};
/** The hand's order: the numbers, then the kinds as listed above. */
const KIND_ORDER = [..."0123456789", ...Object.keys(KIND_NAMES)];
/** The symbol in the oval (the kind itself when not here). */
/** @type {Record<string, string>} */
const KIND_SYMBOLS = {
  S: "⊘", R: "⇄", W: "", "W+4": "+4", WJ: "JAM", W$: "$", WR: "⇄", WS: "⊘", WS2: "⊘⊘", "W+2": "+2", WT2: "◎2", WX: "⇆",
};
/** The index in the corners: the symbol, but for these. */
/** @type {Record<string, string>} */
const KIND_CORNERS = { ...KIND_SYMBOLS, W: "W", WJ: "J", W$: "W$", WS2: "⊘2" };
/** CSS-safe kind names for the `k-` class. */
/** @type {Record<string, string>} */
const KIND_CLASSES = {
  S: "skip", R: "reverse", "+2": "draw2", $: "jackpot", W: "wild", "W+4": "wild4", WJ: "jam", W$: "wildjackpot",
  WR: "wreverse", WS: "wskip", WS2: "wskip2", "W+2": "wdraw2", WT2: "wtarget2", WX: "wswap",
};

/** @param {string} name a card's short name, such as "R7" or "W+4" */
function parseCard(name) {
  if (name.startsWith("W")) return { colour: null, kind: name };
  return { colour: name[0], kind: name.slice(1) };
}

/** @param {string} name */
export function cardLongName(name) {
  const { colour, kind } = parseCard(name);
  const kindName = KIND_NAMES[kind] ?? kind;
  return colour ? `${COLOUR_NAMES[colour] ?? colour} ${kindName}` : kindName;
}

/** @param {string} name */
function cardSortKey(name) {
  const { colour, kind } = parseCard(name);
  const c = colour ? COLOUR_ORDER.indexOf(colour) : 9;
  const k = KIND_ORDER.indexOf(kind);
  return c * 100 + (k < 0 ? 99 : k);
}

/** @param {string[]} cards */
export function sortedHand(cards) {
  return [...cards].sort((a, b) => cardSortKey(a) - cardSortKey(b));
}

/**
 * A card face: a <button> when `onclick` is given, else a <div>.
 * @param {string} name
 * @param {{small?: boolean, onclick?: ((event: MouseEvent) => void) | null, extraClass?: string}} [options]
 */
export function cardNode(name, { small = false, onclick = null, extraClass = "" } = {}) {
  const { colour, kind } = parseCard(name);
  const kindClass = KIND_CLASSES[kind] ?? `n${kind.replace(/[^0-9a-z]/gi, "")}`;
  const classes = ["card", colour ? `c-${COLOUR_NAMES[colour]}` : "c-wild", `k-${kindClass}`, small ? "small" : "", extraClass];
  const long = cardLongName(name);
  const corner = KIND_CORNERS[kind] ?? kind;
  // what the face shows is part of its name ("Wild Draw Four, +4"), as a voice user would say it
  const symbol = KIND_SYMBOLS[kind] || corner;
  const label = long.toLowerCase().includes(symbol.toLowerCase()) ? long : `${long}, ${symbol}`;
  const part = (/** @type {string} */ cls, text = "") => el("span", { class: cls, "aria-hidden": "true", text });
  return el(
    onclick ? "button" : "div",
    { class: classes.filter(Boolean).join(" "), title: long, "aria-label": label, role: onclick ? null : "img", dataset: { card: name }, onclick },
    [part("oval"), part("sym", KIND_SYMBOLS[kind] ?? kind), part("idx tl", corner), part("idx br", corner), part("cb")],
  );
}

/** A card's back. */
export function backNode(extraClass = "") {
  return el(
    "div",
    { class: `card back ${extraClass}`.trim(), "aria-hidden": "true" },
    el("span", { class: "oval" }),
    el("span", { class: "sym", text: "UNO" }),
  );
}
