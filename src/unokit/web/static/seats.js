// The seats around the felt, this seat (or seat 0 for a spectator) at the bottom: name, a fan of
// backs with the count, score, badges, the Catch button and the turn timer as a ring round the
// avatar; the arrows show the way of play.  Seat k from the bottom sits at 90° + k·360°/n, so play
// going up the seat numbers goes clockwise.

import { $, $$, badge, el, morphChildren, show } from "./dom.js";
import { backNode } from "./cards.js";
import { state, seatName, unoState } from "./state.js";
import { act } from "./connection.js";
import { t } from "./i18n.js";
import { avatarNode, voiceBadge } from "./social.js";

const MAX_FAN = 9;
const BACK = backNode();

/** The seat shown at the bottom: this browser's seat, or seat 0 for a spectator. */
function bottomSeat() {
  return state.seat ?? 0;
}

/**
 * Where a seat sits: its place from the bottom in playing order, and its angle in radians.
 * @param {number} seat
 * @param {number} players
 */
export function seatAngle(seat, players) {
  const k = (seat - bottomSeat() + players) % players;
  return { k, angle: Math.PI / 2 + (k * 2 * Math.PI) / players };
}

/**
 * The seat element of `seat` on the table (this seat's own at the bottom), if drawn.
 * @param {number} seat
 * @returns {HTMLElement | null}
 */
export function seatElement(seat) {
  // eslint-disable-next-line no-restricted-syntax -- a CSS selector
  return document.querySelector(`#felt .seat[data-seat="${seat}"]`);
}

/**
 * A small fanned stack of `count` backs.
 * @param {number} count
 */
function fan(count) {
  const shown = Math.min(count, MAX_FAN);
  const spread = shown > 1 ? Math.min(12, 60 / (shown - 1)) : 0;
  const backs = [];
  for (let i = 0; i < shown; i += 1) {
    const back = /** @type {HTMLElement} */ (BACK.cloneNode(true)); // a copy: cheaper than making each anew
    // eslint-disable-next-line no-restricted-syntax -- CSS
    back.style.setProperty("--r", `${(i - (shown - 1) / 2) * spread}deg`);
    backs.push(back);
  }
  return el("div", { class: "fan", "aria-hidden": "true" }, backs);
}

/** The teams' names as seats show them (team play: seats alternate between two teams). */
const TEAM_NAMES = ["A", "B"];

/**
 * The seats out of the match (knockout scoring) or of the round (mercy), as the view says.
 * @param {View} view
 * @returns {Set<number>}
 */
function outSeats(view) {
  return new Set([...(view.state?.knocked ?? []), ...(view.state?.out ?? [])]);
}

/**
 * The seat after the actor in the direction of play, past seats that are out.
 * @param {View} view
 * @param {Set<number>} out
 */
function nextSeat(view, out) {
  const step = view.direction >= 0 ? 1 : -1;
  let seat = view.actor;
  for (let k = 0; k < view.players; k += 1) {
    seat = (seat + step + view.players) % view.players;
    if (!out.has(seat)) return seat;
  }
  return -1;
}

/**
 * @param {View} view
 * @param {number} seat
 * @param {Map<number | undefined, LegalEntry>} catchable
 */
function seatNode(view, seat, catchable) {
  const info = /** @type {Partial<SeatInfo>} */ (state.seats.find((s) => s.seat === seat) ?? {});
  const count = view.hand_sizes[seat];
  const playing = view.phase !== "over" && !state.finished;
  const acting = playing && view.actor === seat;
  const out = outSeats(view);
  const next = playing && !acting && nextSeat(view, out) === seat; // skips aside
  const mine = seat === state.seat;
  const teams = view.teams ?? [];
  const team = teams.length ? teams[seat] : undefined;
  const partner = team !== undefined && !mine && state.seat !== null && !state.spectator && teams[state.seat] === team;
  const classes = [
    "seat",
    mine ? "me" : "",
    info.kind === "bot" ? "bot" : "",
    acting ? "acting" : "",
    next ? "next" : "",
    info.away ? "away" : "",
    info.auto ? "auto" : "",
    out.has(seat) ? "out" : "",
    // eslint-disable-next-line no-restricted-syntax -- class names
    team !== undefined ? `team-${team}` : "",
  ];
  const badges = [];
  if ((view.state?.knocked ?? []).includes(seat)) badges.push(badge("out", t("seat.badge.knocked"), t("seat.badge.knocked.title")));
  else if (out.has(seat)) badges.push(badge("out", t("seat.badge.out"), t("seat.badge.out.title")));
  const teamName = TEAM_NAMES[team ?? 0] ?? String((team ?? 0) + 1);
  // eslint-disable-next-line no-restricted-syntax -- class names
  if (team !== undefined) badges.push(badge(`team team-${team}`, partner ? t("seat.badge.partner") : t("seat.badge.team", { team: teamName })));
  if (acting) badges.push(badge("turn", mine ? t("seat.badge.turn.you") : t("seat.badge.turn")));
  if (next) badges.push(badge("next", t("seat.badge.next")));
  if (seat === view.dealer) badges.push(badge("dealer", t("seat.badge.dealer")));
  if (info.kind === "bot") badges.push(badge("kind-bot", t("seat.badge.bot")));
  if (info.away) badges.push(badge("away", t("seat.badge.away")));
  if (info.auto) badges.push(badge("auto", t("seat.badge.auto"), t("seat.badge.auto.title")));
  if (info.voice) badges.push(voiceBadge());
  const uno = unoState(view, seat);
  if (uno === "called") badges.push(badge("uno", "UNO!"));
  if (uno === "uncalled") badges.push(badge("no-uno", t("seat.badge.no_uno")));
  const name = seatName(seat);
  const avatar = avatarNode(info, info.name ?? name, seat); // the player's symbol and colour, or an initial on the seat's hue
  const scored = view.scoring !== "single-round" && view.scoring !== "knockout";
  const score = scored ? t("seat.points", { count: view.scores[seat] }) : "";
  const node = el(
    "div",
    {
      class: classes.filter(Boolean).join(" "),
      dataset: { seat, count },
      "aria-label": scored ? t("seat.label.points", { name, count, points: view.scores[seat] }) : t("seat.label", { name, count }),
    },
    avatar,
    el("div", { class: "seat-head" }, el("span", { class: "seat-name", text: name }), el("span", { class: "seat-score", text: score })),
    el("div", { class: "seat-line" }, mine ? null : fan(count), el("span", { class: "count", text: count })),
    el("span", { class: "badges" }, badges),
  );
  const { angle } = seatAngle(seat, view.players);
  node.style.setProperty("--cx", Math.cos(angle).toFixed(4));
  node.style.setProperty("--cy", Math.sin(angle).toFixed(4));
  const catchEntry = catchable.get(seat);
  if (catchEntry) {
    node.append(
      el("button", {
        class: "catch",
        text: t("seat.catch"),
        title: t("seat.catch.title", { action: catchEntry.label ?? t("seat.catch") }),
        dataset: { action: catchEntry.action },
        disabled: state.busy,
        onclick: () => act(catchEntry.action),
      }),
    );
  }
  return node;
}

/**
 * Draw every seat: the others round the felt (`#opponents`), this one at the bottom (`#my-seat`).
 * @param {View} view
 */
export function renderSeats(view) {
  const catchable = new Map(state.legal.filter((entry) => entry.type === "catch").map((entry) => [entry.seat, entry]));
  const others = [];
  for (let k = 0; k < view.players; k += 1) {
    const seat = (bottomSeat() + k) % view.players;
    if (seat !== state.seat) others.push(seatNode(view, seat, catchable));
  }
  morphChildren($("#opponents"), others);
  const mine = $("#my-seat");
  if (state.seat !== null && !state.spectator) {
    morphChildren(mine, [seatNode(view, state.seat, catchable)]);
    show(mine);
  } else {
    mine.replaceChildren();
    show(mine, false);
  }
  $("#felt").classList.toggle("many", view.players >= 7);
  renderArrows(view);
  tickTimer();
}

/** The felt's size as last laid out (kept by a ResizeObserver, so drawing never forces a layout). */
const felt = { w: 0, h: 0 };

/**
 * The arrows between the seats, on the dashed ring, pointing the way of play.
 * @param {View} view
 */
function renderArrows(view) {
  const ratio = felt.w ? felt.h / felt.w : 0.45;
  const n = view.players;
  const forward = view.direction >= 0;
  const playing = view.phase !== "over" && !state.finished;
  const hotK = playing ? (seatAngle(view.actor, n).k + (forward ? 0 : -1) + n) % n : -1;
  const arrows = [];
  for (let k = 0; k < n; k += 1) {
    const angle = Math.PI / 2 + ((k + 0.5) * 2 * Math.PI) / n;
    let rot = (Math.atan2(ratio * Math.cos(angle), -Math.sin(angle)) * 180) / Math.PI;
    if (!forward) rot += 180;
    // eslint-disable-next-line no-restricted-syntax -- class names
    const arrow = el("span", { class: `arrow${k === hotK ? " hot" : ""}` });
    arrow.style.setProperty("--ax", (28 * Math.cos(angle)).toFixed(2));
    arrow.style.setProperty("--ay", (28 * Math.sin(angle)).toFixed(2));
    // eslint-disable-next-line no-restricted-syntax -- CSS
    arrow.style.setProperty("--rot", `${rot.toFixed(1)}deg`);
    arrows.push(arrow);
  }
  morphChildren($("#arrows"), arrows);
}

if (typeof ResizeObserver !== "undefined") {
  new ResizeObserver((entries) => {
    const rect = entries[0]?.contentRect;
    if (!rect) return;
    const turned = Math.abs(rect.height / (rect.width || 1) - felt.h / (felt.w || 1)) > 0.02;
    felt.w = rect.width;
    felt.h = rect.height;
    if (turned && state.view) renderArrows(state.view);
  }).observe($("#felt"));
}

// --- the turn timer

let timerTick = 0;

/** Show the turn timer on the timed seat, counting down from the update's receipt. */
function tickTimer() {
  const timer = state.turnTimer;
  for (const node of $$("#felt .seat.timed")) {
    if (!timer || Number(node.dataset.seat) !== timer.seat) {
      node.classList.remove("timed", "hurry");
      node.querySelector(".timer-left")?.remove();
    }
  }
  const left = timer ? Math.max(0, timer.remaining - (performance.now() - timer.at) / 1000) : 0;
  const node = timer && seatElement(timer.seat);
  if (timer && node) {
    node.classList.add("timed");
    node.classList.toggle("hurry", left < 5);
    const avatar = $(".avatar", node);
    avatar.style.setProperty("--p", (timer.total > 0 ? left / timer.total : 0).toFixed(3));
    let label = $(".timer-left", node);
    if (!label) {
      label = el("span", { class: "timer-left" });
      avatar.append(label);
    }
    label.textContent = t("seat.timer", { count: Math.ceil(left) });
  }
  if (left <= 0) {
    clearInterval(timerTick);
    timerTick = 0;
  } else if (!timerTick) {
    timerTick = setInterval(tickTimer, 200);
  }
}
