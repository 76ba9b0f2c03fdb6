// How to play, per edition: the goal, the deck drawn with the table's own card faces, what each
// special card does, a turn, calling UNO and scoring, and each edition's own parts (the Jam card,
// All Wild's eight wild cards, the Wild Jackpot lever and rule cards).  Shown as the page
// /how-to-play/EDITION and, from the table and the lobby, in a dialog over the game.
// Loaded on demand (learn.js); its words are the catalog "learn" (locales/LANG/learn.json), the
// cards named with the server's card terms.

import { el } from "./dom.js";
import { cardLongName, cardNode, colourWord, kindWord } from "./cards.js";
import { editionTitle } from "./state.js";
import { t } from "./i18n.js";

/** The card terms the learn messages name cards with: {skip}, {wild_draw_four}, {red}, {red_7}... */
function cardTerms() {
  return {
    skip: kindWord("S"), reverse: kindWord("R"), draw_two: kindWord("+2"), jackpot: kindWord("$"), wild: kindWord("W"),
    wild_draw_four: kindWord("W+4"), wild_jam: kindWord("WJ"), wild_jackpot: kindWord("W$"),
    red: colourWord("R"), yellow: colourWord("Y"), green: colourWord("G"), blue: colourWord("B"), orange: colourWord("O"),
    red_7: cardLongName("R7"),
  };
}

/**
 * A message of the catalog "learn", its card terms and `params` filled in.
 * @param {string} id
 * @param {Record<string, string | number>} [params]
 */
export function say(id, params = {}) {
  return t(id, { ...cardTerms(), ...params });
}

export const EDITIONS = ["classic", "space-jam", "all-wild", "wild-jackpot"];

/**
 * One kind of card in a deck: the faces drawn, how many there are, its kind ("" for the numbers)
 * and the id of what it does.
 * @typedef {{faces: string[], count: number, kind: string, does: string}} DeckEntry
 */

/**
 * @param {string} kind the card's kind in notation ("S", "W+4"...)
 * @param {string[]} faces
 * @param {number} count
 * @param {string} [does] the key of what it does, when the edition's differs
 * @returns {DeckEntry}
 */
// eslint-disable-next-line no-restricted-syntax -- a message id from the card's notation
const entry = (kind, faces, count, does) => ({ faces, count, kind, does: does ?? `card.${kind}.does` });

/** Each edition's deck, as its rule sheet lists it. */
/** @type {Record<string, {size: number, cards: DeckEntry[]}>} */
const DECKS = {
  classic: {
    size: 108,
    cards: [
      { faces: ["R7", "Y3", "G0", "B9"], count: 76, kind: "", does: "card.numbers.classic" },
      entry("S", ["BS"], 8),
      entry("R", ["YR"], 8),
      entry("+2", ["G+2"], 8),
      entry("W", ["W"], 4),
      entry("W+4", ["W+4"], 4),
    ],
  },
  "space-jam": {
    size: 112,
    cards: [
      { faces: ["O7", "R3", "Y0", "B9"], count: 76, kind: "", does: "card.numbers.space-jam" },
      entry("S", ["OS"], 8),
      entry("R", ["BR"], 8),
      entry("+2", ["Y+2"], 8),
      entry("W", ["W"], 4),
      entry("W+4", ["W+4"], 4),
      entry("WJ", ["WJ"], 4),
    ],
  },
  "all-wild": {
    size: 112,
    cards: [
      entry("W", ["W"], 28, "card.W.all-wild.does"),
      entry("WR", ["WR"], 12),
      entry("WS", ["WS"], 12),
      entry("WS2", ["WS2"], 12),
      entry("W+2", ["W+2"], 12),
      entry("W+4", ["W+4"], 12, "card.W+4.all-wild.does"),
      entry("WT2", ["WT2"], 12),
      entry("WX", ["WX"], 12),
    ],
  },
  "wild-jackpot": {
    size: 108,
    cards: [
      { faces: ["G7", "R3", "Y0", "B9"], count: 60, kind: "", does: "card.numbers.wild-jackpot" },
      entry("S", ["RS"], 8),
      entry("R", ["GR"], 8),
      entry("+2", ["B+2"], 8),
      entry("$", ["Y$"], 16),
      entry("W", ["W"], 2),
      entry("W+4", ["W+4"], 4),
      entry("W$", ["W$"], 2),
    ],
  },
};

/** A turn drawn: on this top card these may go, that one not. */
/** @type {Record<string, {top: string, yes: string[], no: string}>} */
const EXAMPLES = {
  classic: { top: "R7", yes: ["R2", "B7", "W"], no: "G3" },
  "space-jam": { top: "R7", yes: ["R2", "O7", "WJ"], no: "B3" },
  "wild-jackpot": { top: "R7", yes: ["R2", "Y7", "W$"], no: "G3" },
  "all-wild": { top: "WS", yes: ["W", "WX", "W+2"], no: "" },
};

/**
 * What an edition's special cards do, by kind, for the coach (the same sentences as the page).
 * @param {string} edition
 * @returns {Record<string, {name: string, does: string}>}
 */
export function cardMeanings(edition) {
  /** @type {Record<string, {name: string, does: string}>} */
  const meanings = {};
  for (const item of (DECKS[edition] ?? DECKS.classic).cards) {
    if (!item.kind) continue;
    meanings[item.kind] = { name: kindWord(item.kind), does: say(item.does) };
  }
  return meanings;
}

/**
 * @param {string} title
 * @param {...(Node | string | null)} children
 */
const section = (title, ...children) => el("section", { class: "howto-part" }, el("h2", { text: title }), ...children);

/** @param {string} key */
const para = (key) => el("p", { text: say(key) });

/** @param {DeckEntry} item */
function deckRow(item) {
  return el(
    "li",
    { class: "howto-card" },
    el("span", { class: "howto-faces" }, item.faces.map((face) => cardNode(face, { small: true }))),
    el(
      "span",
      { class: "howto-words" },
      el("strong", { text: item.kind ? kindWord(item.kind) : say("card.numbers") }),
      el("span", { class: "howto-count muted", text: say("howto.count", { count: item.count }) }),
      el("span", { class: "howto-does", text: say(item.does) }),
    ),
  );
}

/** @param {string} edition */
function example(edition) {
  const shown = EXAMPLES[edition];
  return el(
    "div",
    { class: "howto-example", "aria-hidden": "true" },
    el("span", { class: "howto-top" }, cardNode(shown.top, { small: true })),
    el("span", { class: "howto-arrow", text: "←" }),
    ...shown.yes.map((card) => el("span", { class: "howto-yes" }, cardNode(card, { small: true }))),
    shown.no ? el("span", { class: "howto-no" }, cardNode(shown.no, { small: true })) : null,
  );
}

/** The edition's own parts. @param {string} edition */
function editionParts(edition) {
  if (edition === "wild-jackpot") {
    const outcomes = ["lever.1", "lever.2", "lever.3", "lever.4", "lever.5", "lever.6"].map((id) => el("li", { text: say(id) }));
    return [
      section(say("lever.title"), para("lever.intro"), el("ol", { class: "howto-lever" }, outcomes), para("lever.after")),
      section(say("rules.title"), para("rules.text")),
    ];
  }
  if (edition === "space-jam") return [section(say("jam.title"), para("jam.text"))];
  if (edition === "all-wild") return [section(say("allwild.title"), para("allwild.text"))];
  return [];
}

/**
 * A link to another page of the client, opened in place.
 * @param {string} href
 * @param {string} text
 * @param {string} [cls]
 */
const link = (href, text, cls = "") => el("a", { href, text, class: cls || null, dataset: { howto: "link" } });

/**
 * The how-to-play of `edition` (or of UNO in general for ""), as one article.
 * @param {string} edition
 * @param {{summary?: string, unknown?: boolean, titleId?: string}} [extra] `titleId`: the id of its title
 */
export function howtoArticle(edition, { summary = "", unknown = false, titleId = "howto-title" } = {}) {
  const nav = el(
    "nav",
    { class: "howto-nav", "aria-label": say("howto.more.title") },
    EDITIONS.map((name) =>
      // eslint-disable-next-line no-restricted-syntax -- a URL
      link(`/how-to-play/${name}`, editionTitle(name), name === edition ? "current" : ""),
    ),
  );
  nav.querySelector(".current")?.setAttribute("aria-current", "page");
  if (!DECKS[edition]) {
    return el(
      "article",
      { class: "howto", dataset: { edition: "" } },
      el("h1", { id: titleId, text: say("howto.general.title") }),
      unknown ? el("p", { class: "error", text: say("howto.unknown") }) : null,
      para("howto.general.intro"),
      nav,
      section(say("howto.turn.title"), para("turn.match"), example("classic"), para("turn.draw")),
      section(say("howto.uno.title"), para("uno.say"), para("uno.catch")),
    );
  }
  const deck = DECKS[edition];
  const allWild = edition === "all-wild";
  return el(
    "article",
    { class: "howto", dataset: { edition } },
    el("h1", { id: titleId, text: say("howto.title", { edition: editionTitle(edition) }) }),
    summary ? el("p", { class: "howto-summary", text: summary }) : null,
    nav,
    section(say("howto.goal.title"), para(allWild ? "goal.all-wild" : "goal.coloured")),
    section(
      say("howto.cards.title"),
      el("p", { class: "muted", text: say("howto.deck", { count: deck.size }) }),
      el("ul", { class: "howto-deck" }, deck.cards.map(deckRow)),
    ),
    section(say("howto.turn.title"), para(allWild ? "turn.all-wild" : "turn.match"), example(edition), para(allWild ? "turn.all-wild.draw" : "turn.draw")),
    ...editionParts(edition),
    section(say("howto.uno.title"), para("uno.say"), para("uno.catch")),
    // eslint-disable-next-line no-restricted-syntax -- a message id from the edition's id
    section(say("howto.score.title"), para(`score.${edition}`)),
  );
}
