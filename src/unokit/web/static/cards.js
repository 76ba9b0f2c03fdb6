// Cards, presentation only: names, sort order and card faces.  The page knows no rules.

import { el } from "./dom.js";

/** @type {Record<string, string>} */
export const COLOUR_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue", O: "orange" };
const COLOUR_ORDER = "RYGBO";
const KIND_ORDER = [
  "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2", "$",
  "W", "W+4", "WJ", "W$", "WR", "WS", "WS2", "W+2", "WT2", "WX",
];
/** @type {Record<string, string>} */
const KIND_NAMES = {
  S: "Skip", R: "Reverse", "+2": "Draw Two", $: "Jackpot", W: "Wild", "W+4": "Wild Draw Four",
  WJ: "Wild Welcome to the Jam", W$: "Wild Jackpot", WR: "Wild Reverse", WS: "Wild Skip", WS2: "Wild Skip Two",
  "W+2": "Wild Draw Two", WT2: "Wild Targeted Draw Two", WX: "Wild Forced Swap",
};
/** @type {Record<string, string>} */
const KIND_FACES = {
  S: "⊘", R: "⇄", "+2": "+2", $: "$", W: "W", "W+4": "+4", WJ: "JAM", W$: "$", WR: "⇄", WS: "⊘",
  WS2: "⊘2", "W+2": "+2", WT2: "→2", WX: "⇆",
};

/**
 * @param {string} name a card's short name, such as "R7" or "W+4"
 * @returns {{colour: string | null, kind: string}}
 */
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

/**
 * @param {string[]} cards
 * @returns {string[]}
 */
export function sortedHand(cards) {
  return [...cards].sort((a, b) => cardSortKey(a) - cardSortKey(b));
}

/**
 * A card face: a <button> when `onclick` is given, else a <div>.
 * @param {string} name
 * @param {{small?: boolean, onclick?: ((event: MouseEvent) => void) | null, extraClass?: string}} [options]
 * @returns {HTMLElement}
 */
export function cardNode(name, { small = false, onclick = null, extraClass = "" } = {}) {
  const { colour, kind } = parseCard(name);
  const classes = ["card", colour ? `c-${COLOUR_NAMES[colour]}` : "c-wild", small ? "small" : "", extraClass];
  const props = { class: classes.filter(Boolean).join(" "), title: cardLongName(name), dataset: { card: name } };
  const face = el("span", { class: "face", text: KIND_FACES[kind] ?? kind });
  const corner = el("span", { class: "corner", text: name });
  if (onclick) {
    return el("button", { ...props, type: "button", "aria-label": cardLongName(name), onclick }, face, corner);
  }
  return el("div", props, face, corner);
}
