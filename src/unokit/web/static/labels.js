// The words the page shows for the server's ids (scoring, lever outcomes, choices), so that no raw id
// such as `winner-collects` reaches a player.

/** The words of an option's choices. */
/** @type {Record<string, Record<string, string>>} */
export const CHOICE_LABELS = {
  scoring: {
    "winner-collects": "Winner collects the others' points",
    "running-tally": "Running tally: the lowest total wins",
    "single-round": "One round: the first out wins",
    edition: "As the edition's sheet says (All Wild: one round; the others: winner collects)",
    knockout: "Knockout: the most cards leaves the match each round",
  },
  forced_swap_final_card: {
    wins: "It wins at once",
    swaps: "The hands are swapped first",
  },
  stacking: {
    off: "Off",
    "draw-two": "Draw Two on Draw Two",
    same: "Same card on same card (+2 on +2, +4 on +4)",
    cross: "Any draw card on any (+4 on +2, +2 of the colour on +4)",
    up: "Equal or higher (+2 or +4 on +2, +4 on +4)",
  },
  stack_deflect: {
    off: "Off",
    reverse: "A Reverse sends it back",
    skip: "A Skip passes it on",
    both: "A Reverse or a Skip",
  },
  multi_play: {
    off: "Off",
    identical: "Identical cards (same colour and number)",
    number: "Same number, any colour",
  },
};

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
