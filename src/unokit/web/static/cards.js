// Cards, presentation only: names, sort order, faces and backs.  A face is built from the card's
// notation (`R7`, `B+2`, `W+4`, `WJ`...): a field, two corner indices and a tilted oval with the
// symbol; cards.css draws it from the classes `c-<colour>` and `k-<kind>`.

import { el } from "./dom.js";
import { t, term } from "./i18n.js";

/** The colours' names in notation and CSS classes (`c-red`); their words are the server's `colour.*` terms. */
/** @type {Record<string, string>} */
export const COLOUR_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", O: "orange" };
const COLOUR_ORDER = "RYGBO";
/** @type {Record<string, string>} */
const COLOUR_TERMS = { red: "colour.red", yellow: "colour.yellow", green: "colour.green", blue: "colour.blue", orange: "colour.orange" };
/** The server's card terms of each kind (numbers are their digits). */
/** @type {Record<string, string>} */
const KIND_TERMS = {
  S: "kind.skip", R: "kind.reverse", "+2": "kind.draw_two", $: "kind.jackpot", W: "kind.wild", "W+4": "kind.wild_draw_four",
  WJ: "kind.wild_jam", W$: "kind.wild_jackpot", WR: "kind.wild_reverse", WS: "kind.wild_skip", WS2: "kind.wild_skip_two",
  "W+2": "kind.wild_draw_two", WT2: "kind.wild_targeted_draw_two", WX: "kind.wild_forced_swap",
};
/** The hand's order: the numbers, then the kinds as listed above. */
const KIND_ORDER = [..."0123456789", ...Object.keys(KIND_TERMS)];
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

/**
 * A colour's word in the page's language ("red", "rojo"), from its letter (`R`) or CSS name (`red`).
 * @param {string} colour
 */
export function colourWord(colour) {
  const id = COLOUR_TERMS[COLOUR_NAMES[colour] ?? colour];
  return id ? term(id) : colour;
}

/**
 * A kind's word ("Skip", "Salta"); a number is its digit.
 * @param {string} kind
 */
export function kindWord(kind) {
  const id = KIND_TERMS[kind];
  return id ? term(id) : kind;
}

/**
 * A card's name in the page's language, from the server's card terms ("red Skip", "Salta rojo", "Farbwahl").
 * @param {string} name
 */
export function cardLongName(name) {
  const { colour, kind } = parseCard(name);
  return colour ? term("card.coloured", { colour: colourWord(colour), kind: kindWord(kind) }) : kindWord(kind);
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
  // eslint-disable-next-line no-restricted-syntax -- a class name
  const kindClass = KIND_CLASSES[kind] ?? `n${kind.replace(/[^0-9a-z]/gi, "")}`;
  // eslint-disable-next-line no-restricted-syntax -- class names
  const classes = ["card", colour ? `c-${COLOUR_NAMES[colour]}` : "c-wild", `k-${kindClass}`, small ? "small" : "", extraClass];
  const long = cardLongName(name);
  const corner = KIND_CORNERS[kind] ?? kind;
  // what the face shows is part of its name ("Wild Draw Four, +4"), as a voice user would say it
  const symbol = KIND_SYMBOLS[kind] || corner;
  const label = long.toLowerCase().includes(symbol.toLowerCase()) ? long : t("table.card.face", { name: long, symbol });
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
    // eslint-disable-next-line no-restricted-syntax -- class names
    { class: `card back ${extraClass}`.trim(), "aria-hidden": "true" },
    el("span", { class: "oval" }),
    el("span", { class: "sym", text: "UNO" }), // the logo
  );
}
