// Words: lists of names, capitals and sentences, in the page's language.

import { language, t } from "./i18n.js";

/**
 * "1 point", "2 points": English only, for the modules whose words are not in the catalogs yet.
 * @deprecated use a plural message of the catalogs (a `{count}` chooses its form)
 * @param {number} count
 * @param {string} word
 */
export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * A message as a sentence: a capital first, a full stop last ("no room has that code" → "No room has that code.").
 * @param {string} text
 */
export function sentence(text) {
  const trimmed = text.trim();
  return trimmed ? capitalize(/[.!?…]$/.test(trimmed) ? trimmed : trimmed.concat(".")) : trimmed;
}

/** @param {string} text */
export function capitalize(text) {
  return text.charAt(0).toLocaleUpperCase(language()) + text.slice(1);
}

/**
 * A label (a capital first) put mid-sentence: its first letter small, but in German, whose nouns
 * keep their capitals ("Winner collects…" → "winner collects…").
 * @param {string} text
 */
export function midSentence(text) {
  return language() === "de" ? text : text.charAt(0).toLocaleLowerCase(language()) + text.slice(1);
}

/**
 * Names joined as the language says them: "Ann", "Ann and Bob", "Ann, Bob and Cy" ("Ann, Bob y Cy").
 * @param {string[]} names
 */
export function andList(names) {
  return new Intl.ListFormat(language(), { style: "long", type: "conjunction" }).format(names);
}

/**
 * The seats named mid-sentence, "you" last: "Ann and you".
 * @param {number[]} seats
 * @param {number | null} you
 * @param {(seat: number) => string} nameOf
 */
export function seatList(seats, you, nameOf) {
  const others = seats.filter((seat) => seat !== you).map(nameOf);
  return andList(seats.includes(/** @type {number} */ (you)) ? [...others, t("seat.you.mid")] : others);
}
