// Words: plurals, capitals and lists of names.

/**
 * "1 point", "2 points", "1 card", "0 cards".
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
  return trimmed ? capitalize(/[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`) : trimmed;
}

/** @param {string} text */
export function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Names joined as a sentence says them: "Ann", "Ann and you", "Ann, Bob and you".
 * @param {string[]} names
 */
export function andList(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * The seats named mid-sentence, "you" last: "Ann and you".
 * @param {number[]} seats
 * @param {number | null} you
 * @param {(seat: number) => string} nameOf
 */
export function seatList(seats, you, nameOf) {
  const others = seats.filter((seat) => seat !== you).map(nameOf);
  return andList(seats.includes(/** @type {number} */ (you)) ? [...others, "you"] : others);
}
