// Words: plurals and capitals.

/**
 * "1 point", "2 points", "1 card", "0 cards".
 * @param {number} count
 * @param {string} word
 */
export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** @param {string} text */
export function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
