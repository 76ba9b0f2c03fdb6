// The decision dialog (the phase's choices, or the ways of playing a card) and the round and match
// results.  The dialog never covers the hand: it docks at the top on a phone, and the page scrolls
// the hand clear of it.  The results turn and count each hand card by card, then the scores, as the
// room's scoring says (winner-collects, running-tally or single-round, which has no points), and
// celebrate the winner with confetti (none with reduced motion).

import { $, $$, badge, el, show, sleep } from "./dom.js";
import { COLOUR_NAMES, cardNode, colourWord, kindWord, sortedHand } from "./cards.js";
import { state, seatName, myDecisions, ruleText, HAND_PHASES } from "./state.js";
import { act } from "./connection.js";
import { motionMs, reducedMotion } from "./prefs.js";
import { andList, capitalize } from "./labels.js";
import { language, t } from "./i18n.js";
import { unoButton, unoWithCard, withUnoCall } from "./uno.js";
import { shareLink } from "./links.js";

/** @typedef {{cells: HTMLElement[], points: number[] | null, total: HTMLElement}} HandRow a hand in the results */
/** @typedef {{seat: number, cell: HTMLElement, gain: HTMLElement}} ScoreRow */

/** @type {Record<string, string>} */
const DIALOG_TITLES = {
  drawn: "dialog.title.drawn",
  colour: "dialog.title.colour",
  challenge: "dialog.title.challenge",
  discard: "dialog.title.discard",
  target: "dialog.title.target",
  "lever-discard": "dialog.title.lever_discard",
  honour: "dialog.title.honour",
  give: "dialog.title.give",
};

/**
 * Whether the phase itself asks this player through the dialog (not the hand).
 * @param {View | null} view
 */
export function phaseDialog(view) {
  return Boolean(view && !HAND_PHASES.has(view.phase) && myDecisions().length && !state.spectator);
}

/**
 * The phase's choices without the card-with-UNO ones: UNO is called with the UNO button (or U)
 * before the card is played.
 * @param {LegalEntry[]} legal
 */
function withoutUnoPlays(legal) {
  const plain = { play_uno: "play", jump_uno: "jump" };
  return legal.filter((entry) => {
    const without = plain[/** @type {keyof typeof plain} */ (entry.type)];
    return !without || !legal.some((other) => other.type === without && other.card === entry.card);
  });
}

/**
 * A dialog of choices opened by the player (not by the phase).
 * @type {{title: string, detail: string, entries: LegalEntry[]} | null}
 */
let choiceOpen = null;

/**
 * Ask the player to choose among `entries` (legal actions).
 * @param {string} title
 * @param {string} detail
 * @param {LegalEntry[]} entries
 */
export function openChoice(title, detail, entries) {
  choiceOpen = { title, detail, entries };
  renderDecision(state.view);
}

export function choiceIsOpen() {
  return choiceOpen !== null;
}

/** Forget the player's open choice (the next render closes it). */
export function dropChoice() {
  choiceOpen = null;
}

export function cancelChoice() {
  choiceOpen = null;
  renderDecision(state.view);
}

/**
 * An update has just arrived (before its events are presented): if the dialog shown asks for a
 * decision the update no longer offers this player (the timer ran out and the bot chose, the game
 * moved on), the dialog closes now, and so do the table's moves, not once the events have played.
 * The status line says whose decision it is now; a dialog drawn later (the event queue behind) opens
 * only for what the last update offers.  Whether anything closed.
 * @param {Message} message
 */
export function dropStaleDecision(message) {
  const box = $("#decision");
  if (!Array.isArray(message.legal) || typeof message.version !== "number") return false;
  const offered = new Set(message.legal.map((/** @type {LegalEntry} */ entry) => entry.action));
  state.offered = offered;
  if (box.hidden) return false;
  const shown = $$("#decision-options button.option").map((button) => button.dataset.action ?? "");
  if (shown.some((action) => offered.has(action))) return false;
  choiceOpen = null;
  state.legal = [];
  state.staleUntil = message.version; // until the table shows that update
  const actor = message.view?.actor;
  const status = $("#status");
  status.textContent = typeof actor === "number" && typeof message.asks === "string" && message.asks
    ? actor === state.seat && message.legal.length
      ? t("table.status.mine", { asks: message.asks })
      : t("table.status.other", { name: seatName(actor), asks: message.asks })
    : "";
  status.classList.remove("mine");
  renderDecision(state.view);
  return true;
}

/** @param {View | null} view */
export function renderDecision(view) {
  const box = $("#decision");
  const mine = myDecisions();
  let title = "";
  let detail = "";
  /** @type {LegalEntry[]} */
  let entries = [];
  let cancel = false;
  if (view && phaseDialog(view)) {
    choiceOpen = null;
    const titleId = DIALOG_TITLES[view.phase];
    title = titleId ? t(titleId, { card: kindWord("W+4") }) : capitalize(state.asks);
    detail = decisionDetail(view);
    entries = withoutUnoPlays(state.legal); // with the UNO calls and catches open meanwhile
  } else if (choiceOpen && mine.length) {
    ({ title, detail, entries } = choiceOpen);
    const legalNow = new Set(state.legal.map((entry) => entry.action));
    entries = entries.filter((entry) => legalNow.has(entry.action));
    cancel = true;
    if (!entries.length) choiceOpen = null;
  } else {
    choiceOpen = null;
  }
  entries = entries.filter((entry) => state.offered.has(entry.action)); // not already taken away
  document.body.classList.toggle("has-decision", entries.length > 0);
  if (!entries.length) {
    show(box, false);
    box.dataset.key = "";
    return;
  }
  const hand = view?.hand ?? [];
  const key = JSON.stringify([title, detail, entries.map((entry) => entry.action), state.busy, hand]);
  if (!box.hidden && box.dataset.key === key) return;
  const opening = box.hidden || box.dataset.phase !== (view?.phase ?? "") || box.dataset.title !== title;
  box.dataset.key = key;
  box.dataset.phase = view?.phase ?? "";
  box.dataset.title = title;
  $("#decision-title").textContent = title;
  $("#decision-detail").textContent = detail;
  show($("#decision-detail"), Boolean(detail));
  const colours = entries.some((entry) => entry.colour);
  const handBox = $("#decision-hand");
  handBox.replaceChildren();
  if (colours && hand.length && !state.spectator) {
    handBox.append(
      el("span", { class: "decision-hand-label", text: t("dialog.hand") }),
      el("span", { class: "decision-hand-cards" }, sortedHand(hand).map((card) => cardNode(card, { small: true }))),
    );
  }
  show(handBox, handBox.childElementCount > 0);
  const options = $("#decision-options");
  options.replaceChildren();
  options.classList.toggle("colours", colours);
  entries.forEach((entry, index) => options.append(decisionButton(entry, index, hand)));
  const uno = !cancel && unoWithCard() ? unoButton() : null;
  if (uno) options.append(el("div", { class: "uno-wrap decision-uno" }, uno)); // the table's race button, here meanwhile
  if (cancel) {
    options.append(el("button", { class: "act cancel", text: t("dialog.cancel"), onclick: cancelChoice }));
  }
  show(box);
  if (opening) placeDecision();
  const firstButton = $("button:not([disabled])", options);
  if (firstButton && !document.activeElement?.matches?.("input, textarea, select")) firstButton.focus({ preventScroll: true });
}

/**
 * Dock the dialog where the hand stays in sight without the page scrolling itself: at the top of a
 * phone's screen (the page scrolls the hand clear of it there), else just above the hand.
 */
function placeDecision() {
  const box = $("#decision");
  const phone = window.matchMedia("(max-width: 600px), (max-height: 500px)").matches;
  box.classList.toggle("dock-top", phone);
  const panel = $(".decision-box", box);
  box.style.bottom = "";
  panel.style.maxHeight = "";
  const area = $("#hand-area");
  if (area.hidden || state.spectator) return;
  const hand = $("#hand");
  const target = hand.childElementCount ? hand : area;
  const cards = target.getBoundingClientRect();
  const dialog = panel.getBoundingClientRect();
  if (cards.left >= dialog.right || dialog.left >= cards.right || cards.top >= dialog.bottom || dialog.top >= cards.bottom) return; // apart
  const margin = 12;
  if (phone) {
    window.scrollBy({ top: cards.top - dialog.bottom - margin, behavior: "instant" });
    return;
  }
  const above = Math.max(0, cards.top - margin); // the room above the hand, in the window
  // eslint-disable-next-line no-restricted-syntax -- CSS
  box.style.bottom = `${Math.max(0, window.innerHeight - above)}px`;
  // eslint-disable-next-line no-restricted-syntax -- CSS
  panel.style.maxHeight = `${Math.max(160, above - margin)}px`;
}

/**
 * The words of a target choice, said to the player: "You" for their own seat (the server's English
 * label is turned to the second person; other languages keep the label, which names the player).
 * @param {LegalEntry} entry
 */
function targetWords(entry) {
  const seat = /** @type {number} */ (entry.seat);
  const label = entry.label || entry.action;
  const who = seatName(seat);
  if (seat !== state.seat || language() !== "en") return { who, what: label };
  const name = state.seats.find((s) => s.seat === seat)?.name ?? "";
  let what = label;
  if (name && label.startsWith(`${name} `)) {
    what = [who, label.slice(name.length + 1).replace(/^performs\b/, "perform")].join(" ");
  } else if (name) {
    what = label.split(name).join(t("seat.you.mid"));
  }
  return { who, what };
}

/**
 * @param {LegalEntry} entry
 * @param {number} index
 * @param {string[]} hand
 */
function decisionButton(entry, index, hand) {
  const action = entry.action;
  const number = index < 9 ? `${index + 1}` : "";
  const label = entry.label || action;
  const props = {
    class: "act option",
    dataset: { action, key: number },
    disabled: state.busy,
    onclick: () => {
      choiceOpen = null;
      act(withUnoCall(entry));
    },
  };
  const key = el("span", { class: "key", text: number });
  if (entry.colour) {
    const colour = COLOUR_NAMES[entry.colour] ?? "";
    const count = hand.filter((card) => card[0] === entry.colour).length; // wild cards start with W
    // eslint-disable-next-line no-restricted-syntax -- class names
    props.class += ` colour-option c-${colour}`;
    return el(
      "button",
      props,
      key,
      el("span", { class: "cb-mark", "aria-hidden": "true" }),
      el("span", { class: "colour-name", text: capitalize(colourWord(colour)) }),
      hand.length ? el("span", { class: "colour-count", text: t("dialog.colour.count", { count }) }) : null,
    );
  }
  if (entry.card) {
    return el("button", props, key, cardNode(entry.card, { small: true }), label);
  }
  if (entry.type === "target" && typeof entry.seat === "number") {
    const { who, what } = targetWords(entry);
    // eslint-disable-next-line no-restricted-syntax -- class names
    props.class += ` target-option${entry.seat === state.seat ? " me" : ""}`;
    const count = state.view?.hand_sizes?.[entry.seat];
    return el(
      "button",
      { ...props, dataset: { ...props.dataset, seat: entry.seat } },
      key,
      el("span", { class: "target-who" }, el("strong", { text: who }), typeof count === "number" ? el("span", { class: "muted", text: t("dialog.target.cards", { count }) }) : null),
      el("span", { class: "target-what", text: what }),
    );
  }
  // eslint-disable-next-line no-restricted-syntax -- a class name, not words
  if (entry.type === "call_uno") props.class += " uno-button";
  // eslint-disable-next-line no-restricted-syntax -- a class name, not words
  if (entry.type === "catch") props.class += " catch";
  return el("button", props, key, label);
}

/**
 * "Rule card: “its text” (its reading)" for the rule card shown with this id, else "".
 * @param {number} id
 */
function ruleWords(id) {
  const rule = id >= 0 ? ruleText(id) : null;
  return rule ? t("dialog.rule", { text: rule.text, reading: rule.reading }) : "";
}

/** @param {View} view */
function decisionDetail(view) {
  const decision = view.decision ?? {};
  const ruleShown = view.phase === "honour" || (view.phase === "target" && decision.target_rule >= 0);
  return ruleShown ? phaseDetail(view) : [phaseDetail(view), ruleWords(decision.rule)].filter(Boolean).join(" ");
}

/** @param {View} view */
function phaseDetail(view) {
  const decision = view.decision ?? {};
  switch (view.phase) {
    case "challenge":
      return decision.bluffer >= 0 ? t("dialog.challenge.by", { name: seatName(decision.bluffer) }) : "";
    case "discard":
      return decision.discards_left ? t("dialog.discard.left", { count: decision.discards_left }) : "";
    case "give":
      return decision.give_to >= 0 ? t("dialog.give.left", { name: seatName(decision.give_to), count: decision.give_left }) : "";
    case "target":
    case "honour":
      return ruleWords(view.phase === "honour" ? decision.rule : decision.target_rule);
    default:
      return "";
  }
}

// --- round and match results

/**
 * Each card's points, in the order of `cards`, from the server's `hand` event (null if it has none).
 * @param {GameEvent} hand
 * @param {string[]} cards the hand's cards as shown
 */
function handPoints(hand, cards) {
  const sent = hand.points;
  if (!Array.isArray(sent) || !Array.isArray(hand.cards) || sent.length !== hand.cards.length) return null;
  /** @type {Map<string, number>} */
  const byCard = new Map(hand.cards.map((card, index) => [card, sent[index]]));
  return cards.map((card) => byCard.get(card) ?? 0);
}

/** Counting generations: a result closed (or replaced) stops its counting. */
let counting = 0;

/**
 * Count `node`'s number from `from` to `to` over `ms` milliseconds.
 * @param {HTMLElement} node
 * @param {number} from
 * @param {number} to
 * @param {number} ms
 * @param {number} generation
 */
function countUp(node, from, to, ms, generation) {
  if (ms <= 0 || from === to) {
    node.textContent = String(to);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const start = performance.now();
    /** @param {number} now */
    const step = (now) => {
      if (generation !== counting) return resolve(undefined);
      const t = Math.min(1, (now - start) / ms);
      node.textContent = String(Math.round(from + (to - from) * (1 - (1 - t) ** 3)));
      if (t < 1) requestAnimationFrame(step);
      else resolve(undefined);
    };
    requestAnimationFrame(step);
  });
}

/**
 * The words of a round's result, for its scoring.
 * @param {GameEvent} roundEvent
 * @param {string} scoring
 * @param {number} round
 * @param {boolean} named whether the title already says who won the round
 */
function roundWords(roundEvent, scoring, round, named) {
  const you = roundEvent.seat === state.seat;
  const name = seatName(roundEvent.seat);
  const team = teamOf(roundEvent.seat);
  const count = roundEvent.value;
  if (team >= 0) {
    const words = { name, team: teamName(team), count };
    const went = you ? t("results.team.out.you", words) : t("results.team.out.other", words);
    if (scoring === "single-round") return went;
    if (scoring === "running-tally") return [went, t("results.team.tally")].join(" ");
    return [went, t("results.team.collect", words)].join(" ");
  }
  if (scoring === "single-round" || scoring === "knockout") return you ? t("results.out.you") : t("results.out.other", { name });
  const lines = [];
  if (!named) lines.push(you ? t("results.round.you", { round }) : t("results.round.other", { name, round }));
  if (scoring === "running-tally") lines.push(t("results.tally"));
  else lines.push(you ? t("results.collect.you", { count }) : t("results.collect.other", { name, count }));
  return lines.join(" ");
}

/**
 * The words of a blocked round's result: nobody could play or draw, the lowest hand won it (and,
 * winner-collects, what the winner collects).
 * @param {GameEvent} roundEvent
 * @param {string} scoring
 */
function blockedWords(roundEvent, scoring) {
  const you = roundEvent.seat === state.seat;
  const name = seatName(roundEvent.seat);
  const lines = [you ? t("results.blocked.you") : t("results.blocked.other", { name })];
  if (scoring === "winner-collects" && teamOf(roundEvent.seat) < 0) {
    const count = roundEvent.value;
    lines.push(you ? t("results.collect.you", { count }) : t("results.collect.other", { name, count }));
  }
  return lines.join(" ");
}

/**
 * A seat's team (house rule team play), or -1 without teams.
 * @param {number} seat
 */
function teamOf(seat) {
  const teams = state.view?.teams ?? [];
  return teams.length ? teams[seat] ?? -1 : -1;
}

/**
 * A team in words: "your team", or "team A (Bot 1 and Bot 3)".
 * @param {number} team
 */
function teamName(team) {
  if (state.seat !== null && !state.spectator && teamOf(state.seat) === team) return t("results.team.yours");
  const teams = state.view?.teams ?? [];
  const members = andList(teams.flatMap((of, seat) => (of === team ? [seatName(seat)] : [])));
  return t("results.team.named", { team: ["A", "B"][team] ?? String(team + 1), members });
}

/** The ids of the results' titles: who won (you, another player, a team) what (the match, a round, the game). */
const WIN_TITLES = {
  match: { you: "results.title.match.you", other: "results.title.match.other", team: "results.title.match.team" },
  round: { you: "results.title.round.you", other: "results.title.round.other", team: "results.title.round.team" },
  game: { you: "results.title.you", other: "results.title.other", team: "results.title.team" },
};

/**
 * The title of a result won by `seat`: "You win…", "Your team wins…", "Bot 2 wins…".
 * @param {number} seat
 * @param {keyof typeof WIN_TITLES} what
 * @param {number} [round]
 */
function winTitle(seat, what, round = 0) {
  const team = teamOf(seat);
  const ids = WIN_TITLES[what];
  if (team >= 0) return t(ids.team, { team: capitalize(teamName(team)), round });
  return seat === state.seat ? t(ids.you, { round }) : t(ids.other, { name: seatName(seat), round });
}

/**
 * What decides the match, for the scoring.
 * @param {string} scoring
 * @param {number} target
 */
function scoringNote(scoring, target) {
  if (scoring === "single-round") return t("results.note.single");
  if (scoring === "knockout") return t("results.note.knockout");
  if (scoring === "running-tally") return t("results.note.tally", { count: target });
  return t("results.note.target", { count: target });
}

/** Show the next queued result, unless one is shown. */
export function showNextResult() {
  const overlay = $("#results");
  if (!overlay.hidden || !state.resultsQueue.length) return;
  const result = /** @type {import("./state.js").Result} */ (state.resultsQueue.shift());
  const view = state.view;
  const scoring = view?.scoring ?? "winner-collects";
  const target = view?.target_score ?? 0;
  const match = result.kind === "match";
  const roundEvent = match ? result.roundEvent : result.event;
  const round = match ? result.event.value : result.round ?? 0;
  const winner = result.event.seat;
  const youWin = winner === state.seat;
  const winnerName = seatName(winner);
  const single = scoring === "single-round" || scoring === "knockout"; // no points counted

  if (match) {
    $("#results-title").textContent = winTitle(winner, single ? "game" : "match");
  } else {
    $("#results-title").textContent = winTitle(/** @type {GameEvent} */ (roundEvent).seat, "round", round);
  }
  const lines = [];
  const blocked = Boolean(result.blocked);
  if (roundEvent && blocked) lines.push(blockedWords(roundEvent, scoring));
  else if (roundEvent) lines.push(roundWords(roundEvent, scoring, round, !match));
  if (match && !single) {
    const mine = (result.event.scores ?? [])[winner];
    const words = { name: winnerName, score: mine, count: mine };
    if (scoring === "running-tally") lines.push(youWin ? t("results.lowest.you", words) : t("results.lowest.other", words));
    else lines.push(youWin ? t("results.reach.you", words) : t("results.reach.other", words));
    lines.push(t("results.rounds", { count: round }));
  }
  $("#results-sub").textContent = lines.join(" ");
  $("#results-note").textContent = scoringNote(scoring, target);
  Object.assign(overlay.dataset, { kind: result.kind, scoring, counted: "false" });
  overlay.classList.toggle("you-win", youWin || (teamOf(winner) >= 0 && teamOf(winner) === teamOf(state.seat ?? -1)));

  // the hands, their cards face down until counted
  const body = $("#results-hands tbody");
  body.replaceChildren();
  /** @type {HandRow[]} */
  const rows = [];
  for (const hand of result.hands) {
    const cards = Array.isArray(hand.cards) ? sortedHand(hand.cards) : [];
    const points = single ? null : handPoints(hand, cards);
    const cells = cards.map((card, index) =>
      el(
        "span",
        { class: "result-card pending" },
        cardNode(card, { small: true }),
        points ? el("span", { class: "card-points", text: String(points[index]) }) : null,
      ),
    );
    const out = cards.length === 0;
    const isWinner = roundEvent ? hand.seat === roundEvent.seat : false;
    let totalText = t("results.points", { count: hand.value });
    if (single) totalText = out ? "" : t("table.cards", { count: cards.length });
    else if (scoring === "running-tally") totalText = `+${hand.value}`;
    else if (isWinner && roundEvent) totalText = `+${roundEvent.value}`; // what the winner collects
    const startText = single || out ? "" : scoring === "running-tally" ? "+0" : t("results.points", { count: 0 });
    // eslint-disable-next-line no-restricted-syntax -- class names
    const total = el("td", { class: `num hand-total${isWinner && !single ? " collected" : ""}`, text: startText });
    body.append(
      el(
        "tr",
        { class: isWinner ? "round-winner" : "", dataset: { seat: hand.seat } },
        el(
          "th",
          {},
          el("span", { class: "who", text: seatName(hand.seat) }),
          isWinner ? (blocked ? badge("lowest", t("results.lowest_hand")) : badge("out", t("results.out"))) : null,
        ),
        el(
          "td",
          { class: "result-cards" },
          out
            ? el("span", { class: "muted", text: hand.seat === state.seat ? t("results.empty.you") : t("results.empty") })
            : el("div", { class: "result-card-row" }, cells),
        ),
        total,
      ),
    );
    rows.push({ cells, points, total });
    total.dataset.final = totalText;
  }
  show($("#results-hands"), result.hands.length > 0);

  // the scores: before the round, then counted up to after it
  const scores = result.event.scores ?? roundEvent?.scores ?? view?.scores ?? [];
  const gains = scores.map((_, seat) => {
    if (scoring === "running-tally") return result.hands.find((hand) => hand.seat === seat)?.value ?? 0;
    if (scoring === "winner-collects" && roundEvent && seat === roundEvent.seat) return roundEvent.value;
    return 0;
  });
  const scoreBody = $("#results-scores tbody");
  scoreBody.replaceChildren();
  /** @type {ScoreRow[]} */
  const scoreCells = [];
  scores.forEach((score, seat) => {
    const cell = el("td", { class: "num score", text: score - gains[seat] });
    const gain = el("td", { class: "num gain muted", text: "" });
    scoreBody.append(
      el(
        "tr",
        { class: [seat === winner ? "winner" : "", seat === state.seat ? "me" : ""].join(" ").trim(), dataset: { seat } },
        el("td", {}, seatName(seat), seat === winner && match ? el("span", { class: "trophy", text: " 🏆", "aria-label": t("results.winner") }) : null),
        gain,
        cell,
      ),
    );
    scoreCells.push({ seat, cell, gain });
  });
  show($("#results-scores-title"), !single);
  show($("#results-scores"), !single);

  const replay = $("#results-replay");
  // eslint-disable-next-line no-restricted-syntax -- a URL
  replay.setAttribute("href", shareLink(`/r/${state.code}?replay`));
  show(replay, match);
  show($("#results-new"), match);
  $("#results-close").textContent = match ? t("results.close") : t("results.continue");
  show(overlay);
  $(".overlay-box", overlay).scrollTop = 0;
  $("#results-close").focus({ preventScroll: true });
  counting += 1;
  countResult(counting, rows, scoreCells, scores, gains, winner, match).catch(() => {});
}

/**
 * Turn the cards and count the hands, then the scores, then celebrate the winner.
 * @param {number} generation
 * @param {HandRow[]} rows
 * @param {ScoreRow[]} scoreCells
 * @param {number[]} scores
 * @param {number[]} gains
 * @param {number} winner
 * @param {boolean} match
 */
async function countResult(generation, rows, scoreCells, scores, gains, winner, match) {
  const overlay = $("#results");
  const cards = rows.reduce((sum, row) => sum + row.cells.length, 0);
  const perCard = motionMs(Math.max(70, Math.min(180, 2400 / Math.max(1, cards))));
  const scoring = overlay.dataset.scoring;
  for (const row of rows) {
    if (!row.cells.length) continue; // the winner's: shown once the others are counted
    let sum = 0;
    for (const [index, cell] of row.cells.entries()) {
      if (generation !== counting) return;
      cell.classList.remove("pending");
      if (perCard) {
        cell.animate(
          [
            { transform: "translateY(-10px) rotateY(90deg)", opacity: 0 },
            { transform: "none", opacity: 1 },
          ],
          { duration: perCard * 1.6, easing: "cubic-bezier(0.2, 0.9, 0.3, 1.2)" },
        );
      }
      if (row.points && scoring !== "single-round") {
        sum += row.points[index];
        row.total.textContent = scoring === "running-tally" ? `+${sum}` : t("results.points", { count: sum });
      }
      if (perCard) await sleep(perCard);
    }
    row.total.textContent = row.total.dataset.final ?? "";
    if (perCard) {
      row.total.animate([{ transform: "scale(1.35)" }, { transform: "none" }], { duration: motionMs(260) });
      await sleep(motionMs(160));
    }
  }
  if (generation !== counting) return;
  for (const row of rows) {
    if (row.cells.length || !row.total.dataset.final) continue;
    row.total.textContent = row.total.dataset.final;
    if (perCard) row.total.animate([{ transform: "scale(1.6)" }, { transform: "none" }], { duration: motionMs(360) });
  }
  if (scoring !== "single-round") {
    const ms = motionMs(700);
    await Promise.all(
      scoreCells.map(({ seat, cell, gain }) => {
        if (gains[seat]) gain.textContent = `+${gains[seat]}`;
        return countUp(cell, scores[seat] - gains[seat], scores[seat], ms, generation);
      }),
    );
  }
  if (generation !== counting) return;
  overlay.dataset.counted = "true";
  celebrate(winner, match);
}

const CONFETTI_COLOURS = ["#d7263d", "#f5c518", "#15803d", "#1f6fd1", "#f07d18", "#ffffff"];

/**
 * Confetti for the winner (more for a match); nothing with reduced motion.
 * @param {number} winner
 * @param {boolean} match
 */
function celebrate(winner, match) {
  const layer = $("#confetti");
  layer.replaceChildren();
  if (reducedMotion() || !("animate" in Element.prototype)) return;
  const count = match ? 110 : winner === state.seat ? 60 : 30;
  const width = window.innerWidth;
  const height = window.innerHeight;
  for (let i = 0; i < count; i += 1) {
    // eslint-disable-next-line no-restricted-syntax -- class names
    const piece = el("span", { class: `confetti${i % 3 === 0 ? " round" : ""}` });
    piece.style.setProperty("background", CONFETTI_COLOURS[i % CONFETTI_COLOURS.length]);
    piece.style.setProperty("left", `${50 + (Math.random() - 0.5) * 20}%`);
    layer.append(piece);
    const dx = (Math.random() - 0.5) * width * 0.9;
    const up = height * (0.45 + Math.random() * 0.4);
    const spin = (Math.random() - 0.5) * 1440;
    const duration = motionMs(1700 + Math.random() * 1300);
    const animation = piece.animate(
      [
        { transform: "translate(0, 0) rotate(0deg)", opacity: 1 },
        // eslint-disable-next-line no-restricted-syntax -- CSS
        { transform: `translate(${dx * 0.6}px, ${-up}px) rotate(${spin * 0.5}deg)`, opacity: 1, offset: 0.4 },
        // eslint-disable-next-line no-restricted-syntax -- CSS
        { transform: `translate(${dx}px, ${height * 0.1}px) rotate(${spin}deg)`, opacity: 0 },
      ],
      { duration, delay: Math.random() * motionMs(250), easing: "cubic-bezier(0.2, 0.7, 0.4, 1)", fill: "forwards" },
    );
    animation.finished.then(() => piece.remove()).catch(() => {});
  }
}

/** Close the results shown; show the next, or give the focus back to the table. */
export function closeResults() {
  counting += 1;
  $("#confetti").replaceChildren();
  show($("#results"), false);
  showNextResult();
  if ($("#results").hidden) {
    const first = $("#decision:not([hidden]) button") ?? $("#hand .card.playable") ?? $("#actions button");
    first?.focus({ preventScroll: true });
  }
}
