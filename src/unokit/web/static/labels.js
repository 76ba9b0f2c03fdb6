// The words the page shows for the server's ids (scoring, lever outcomes), so that no raw id
// such as `winner-collects` reaches a player.

/** The scoring methods in a few words, for the table's round line. */
/** @type {Record<string, string>} */
export const SCORING_SHORT = {
  "winner-collects": "winner collects the points",
  "running-tally": "lowest total wins",
  "single-round": "one round, first out wins",
  knockout: "knockout: the most cards leaves each round",
};

/** @type {Record<string, string>} */
export const LEVER_LABELS = {
  "choose-player": "A player of your choice",
  right: "The player on your right",
  left: "The player on your left",
  everyone: "Everyone",
  "discard-colours": "Discard one of each colour",
  "draw-four": "Draw four",
};
/** The lever's outcomes in the engine's order (as listed above). */
export const LEVER_ORDER = Object.keys(LEVER_LABELS);

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
