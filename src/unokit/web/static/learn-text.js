// Every word the how-to-play pages, the guided first game and the hints show, in one table of
// messages: whole sentences with named blanks ({colour}, {number}...), never words put together.
// Loaded on demand with howto.js, coach.js and hints.js.

/** @type {Record<string, string>} */
export const TEXT = {
  // the how-to-play page
  "howto.title": "How to play {edition}",
  "howto.general.title": "How to play UNO",
  "howto.general.intro": "Every edition plays the same way at heart: match the card on the pile, play your special cards at the right moment, call UNO when one card is left, and be first to empty your hand. Pick an edition to see its cards.",
  "howto.goal.title": "The goal",
  "howto.cards.title": "The cards",
  "howto.turn.title": "Your turn",
  "howto.uno.title": "Calling UNO",
  "howto.score.title": "Scoring",
  "howto.more.title": "Other editions",
  "howto.learn": "Learn to play: a guided first game",
  "howto.back": "Back to the start page",
  "howto.close": "Close",
  "howto.unknown": "There is no edition by that name: here are the ones there are.",
  "howto.count": "× {count}",
  "howto.deck": "{count} cards.",
  "howto.table": "How to play",

  "goal.coloured": "Be the first to get rid of every card in your hand. When you go out, you score points for the cards the others still hold.",
  "goal.all-wild": "Be the first to get rid of every card in your hand.",

  "turn.match": "On your turn, play one card that matches the card on top of the discard pile by colour, by number or by symbol, or play a wild card. Example: on a red 7 you may play any red card or any 7.",
  "turn.all-wild": "Every card is wild: on your turn just play any one card. If it is a Wild Action card, its action happens at once.",
  "turn.draw": "If you cannot play, or would rather not, draw a card from the draw pile. If that card can be played you may play it at once; otherwise play passes to the next player.",
  "turn.all-wild.draw": "You may draw a card instead of playing one, for instance when the next player is about to go out. Then play the card you drew or pass.",

  "uno.say": "When you play your next-to-last card, press UNO before you play it: you are down to one card.",
  "uno.catch": "If you forget and another player catches you before the next player begins their turn, you draw 2 cards. Catch others the same way with the Catch button on their seat.",

  "score.classic": "The first player out scores the cards left in the others' hands: number cards at face value, Skip, Reverse and Draw Two 20 points, Wild and Wild Draw Four 50. The first to 500 points wins the match.",
  "score.space-jam": "The first player out scores the cards left in the others' hands: number cards at face value, Skip, Reverse and Draw Two 20 points, Wild, Wild Draw Four and Wild Welcome to the Jam 50. The first to 500 points wins the match.",
  "score.all-wild": "Playing your last card wins the round, and that is the game. If you keep score instead, a Wild counts 20 points and every Wild Action card 50, up to 500.",
  "score.wild-jackpot": "The first player out scores the cards left in the others' hands: number cards at face value, Skip, Reverse and Draw Two 20 points, Jackpot 40, Wild, Wild Draw Four and Wild Jackpot 50. The first to 500 points wins the match.",

  // the cards
  "card.numbers": "Number cards",
  "card.numbers.classic": "0 to 9 in red, yellow, green and blue: one 0 and two of each other number per colour. Match them by colour or number.",
  "card.numbers.space-jam": "0 to 9 in red, yellow, orange and blue (orange replaces green): one 0 and two of each other number per colour.",
  "card.numbers.wild-jackpot": "0 to 9 in red, yellow, green and blue: 15 number cards per colour.",
  "card.S": "Skip",
  "card.S.does": "The next player loses their turn. It goes on its colour or on another Skip.",
  "card.R": "Reverse",
  "card.R.does": "Play changes direction. With two players it acts like a Skip. It goes on its colour or on another Reverse.",
  "card.+2": "Draw Two",
  "card.+2.does": "The next player draws 2 cards and loses their turn. It goes on its colour or on another Draw Two.",
  "card.W": "Wild",
  "card.W.does": "Goes on any card, even when you hold another card you could play. You choose the colour that play goes on with.",
  "card.W+4": "Wild Draw Four",
  "card.W+4.does": "You choose the colour, and the next player draws 4 cards and loses their turn. You may only play it when you hold no card of the colour in play. The next player may challenge it: if you held that colour you draw the 4 instead; if you did not, the challenger draws 6.",
  "card.WJ": "Wild Welcome to the Jam",
  "card.WJ.does": "A wild card that is dropped on the table: Slam side up, you discard two cards of your choice; UNO side up, you draw 2. Then you choose the colour.",
  "card.$": "Jackpot",
  "card.$.does": "Pull the Wild Jackpot lever: it stops on one of six outcomes at random. It goes on its colour or on another Jackpot.",
  "card.W$": "Wild Jackpot",
  "card.W$.does": "Goes on any card, on any turn: pull the lever, then choose the colour.",
  "card.W.all-wild.does": "No action: it simply goes on any card and ends your turn.",
  "card.WR": "Wild Reverse",
  "card.WR.does": "Play changes direction (with two players it acts like a Skip).",
  "card.WS": "Wild Skip",
  "card.WS.does": "The next player loses their turn.",
  "card.WS2": "Wild Skip Two",
  "card.WS2.does": "The next two players lose their turns.",
  "card.W+2": "Wild Draw Two",
  "card.W+2.does": "The next player draws 2 cards and loses their turn.",
  "card.W+4.all-wild.does": "The next player draws 4 cards and loses their turn. Every card is wild, so there is nothing to challenge.",
  "card.WT2": "Wild Targeted Draw Two",
  "card.WT2.does": "A player of your choice draws 2 cards. They do not lose their turn.",
  "card.WX": "Wild Forced Swap",
  "card.WX.does": "You must choose another player and swap hands with them. Whoever ends up with one card must call UNO.",

  // Wild Jackpot
  "lever.title": "The Wild Jackpot lever",
  "lever.intro": "A Jackpot or Wild Jackpot card pulls the lever. It stops at random on one of six symbols:",
  "lever.1": "Choose any player, even yourself: they perform a rule card from the dispenser.",
  "lever.2": "The player on your right performs a rule card.",
  "lever.3": "The player on your left performs a rule card.",
  "lever.4": "Every player is dealt a rule card and performs it, starting with you.",
  "lever.5": "Discard up to one card of each colour from your hand, in any order. Action cards among them act on the next player.",
  "lever.6": "Draw 4 cards.",
  "lever.after": "Then play goes on with the next player in the current direction.",
  "rules.title": "Rule cards",
  "rules.text": "Before the match every player writes rules on their rule cards (or takes the suggestions, such as \"Draw until you have 7 cards\"). They are shuffled into the dispenser. A rule the game can read is enforced; anything else, like \"Make chicken noises until your next turn\", is an honour task that everyone sees and the performer confirms.",

  "jam.title": "Dropping the Jam card",
  "jam.text": "The Wild Welcome to the Jam card is dropped for you: Slam side up or UNO side up, about half the time each. Turned up at the start of a round it is not dropped: the player left of the dealer just chooses the colour.",
  "allwild.title": "Eight kinds of wild card",
  "allwild.text": "There is no colour to match and no colour to choose: what matters is when you play each action.",

  // the guided first game
  "coach.title": "Coach",
  "coach.hide": "Stop the coach",
  "coach.ok": "Got it",
  "coach.welcome": "Welcome to your first game! You sit at the bottom; the bots play slowly so you can follow. Your cards are at the bottom of the screen.",
  "coach.wait": "The others are playing. Watch the pile in the middle: the top card is what you must match.",
  "coach.turn": "Your turn. The glowing cards can be played: they match the colour {colour} or the {symbol}. Click one, or draw a card.",
  "coach.turn.wild": "Your turn. The glowing cards can be played: the colour chosen is {colour}. Click one, or draw a card.",
  "coach.turn.any": "Your turn. Every card can be played: pick one and click it.",
  "coach.turn.none": "Your turn. None of your cards matches the colour {colour} or the {symbol}: draw a card from the glowing draw pile.",
  "coach.turn.none.wild": "Your turn. None of your cards matches {colour}: draw a card from the glowing draw pile.",
  "coach.drawn": "You drew a card. If it can be played, play it now; otherwise pass, and play goes on.",
  "coach.colour": "Choose the colour that play goes on with. The colour you hold most of is usually best.",
  "coach.challenge": "A Wild Draw Four was played on you. Challenge it if you think they held a card of the colour in play: if they did, they draw 4; if not, you draw 6. Or accept and draw 4.",
  "coach.target": "Choose a player for your card.",
  "coach.move": "Your move: {asks}.",
  "coach.uno": "Two cards left! Press the UNO button before you play your next card, or you can be caught and draw 2.",
  "coach.catch": "A player has one card and did not call UNO: press Catch on their seat before the next player moves, and they draw 2.",
  "coach.refused": "You cannot play the {card} now: it must match the colour {colour} or the {symbol}.",
  "coach.refused.wild": "You cannot play the {card} now: it must be {colour}, the colour chosen with the wild card.",
  "coach.refused.drawn": "You cannot play the {card} now: after drawing, only the card you drew can be played, or you pass.",
  "coach.refused.notyours": "You cannot play the {card} now: wait for your turn.",
  "coach.refused.other": "You cannot play the {card} now: the game asks you to {asks}.",
  "coach.symbol.number": "number {number}",
  "coach.symbol.kind": "{kind} symbol",
  "coach.new": "New card: {card}. {does}",
  "coach.end.won": "You won the round! You have learned the basics: match by colour, number or symbol, use your special cards and call UNO.",
  "coach.end.lost": "{winner} went out first this time. You have learned the basics: match by colour, number or symbol, use your special cards and call UNO.",
  "coach.end.seen": "Cards you met: {cards}.",
  "coach.end.again": "Play another guided game",
  "coach.end.rooms": "Play with friends",

  // hints
  "hint.button": "Hint",
  "hint.asking": "Asking the bot…",
  "hint.says": "The bot would: {move}. {why}",
};

/**
 * A message with its blanks filled.
 * @param {string} key
 * @param {Record<string, string | number>} [values]
 */
export function say(key, values = {}) {
  const text = TEXT[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}
