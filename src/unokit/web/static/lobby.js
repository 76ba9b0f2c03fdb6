// The lobby: seats (the host's crown, removing a player), host controls, the room's rules and options,
// leaving, the invite link and its QR code, the rule-card editor, and "Play now"'s bots and start.

import { $, MARK, badge, el, show, textAround, toast } from "./dom.js";
import { state, editionTitle, setScreen } from "./state.js";
import { conn } from "./connection.js";
import { botLabel, optionsInWords, rulesInWords } from "./start.js";
import { t } from "./i18n.js";
import { loadSite, shareLink, site } from "./links.js";
import { avatarNode, voiceBadge } from "./social.js";

const READ_DELAY_MS = 300;

/** @param {Message} message a `lobby` message */
export function onLobby(message) {
  state.lobby = /** @type {Lobby} */ (message);
  if (message.code) state.code = message.code;
  state.seats = message.seats ?? [];
  if (typeof message.you === "number") state.seat = message.you;
  if (state.seat !== null) state.host = message.host === state.seat;
  if (state.view) return; // the match has begun: the table has the seats
  setScreen("lobby");
  renderLobby();
  if (state.quickPlay) quickPlay();
}

/** "Play now against bots": fill the open seats with bots, then start. */
function quickPlay() {
  const lobby = state.lobby;
  if (!lobby || !state.host) return;
  const open = lobby.seats.filter((seat) => seat.kind === "open");
  if (open.length) {
    if (!quickFilled) fillBots();
    quickFilled = true;
    return;
  }
  state.quickPlay = false;
  quickFilled = false;
  conn.send({ type: "start" });
}
let quickFilled = false;

/** @type {Record<string, string>} */
const KIND_WORDS = { human: "lobby.seat.human", bot: "lobby.seat.bot", open: "lobby.seat.open" };

export function renderLobby() {
  const lobby = state.lobby;
  if (!lobby) return;
  $("#lobby-code").textContent = state.code;
  textAround($("#lobby-title"), t("lobby.title", { code: MARK }), $("#lobby-code"));
  renderInvite();
  const changed = rulesInWords(changedRules(lobby.rules ?? {}, lobby.edition));
  const seats = t("lobby.seats", { count: lobby.players ?? lobby.seats.length });
  $("#lobby-rules").textContent = [editionTitle(lobby.edition), seats, botLabel(lobby.bot, true), ...changed].join(" · ");
  $("#lobby-options").replaceChildren(...optionsInWords(lobby.options).map((text) => el("li", { text })));
  const list = $("#lobby-seats");
  list.replaceChildren();
  let open = 0;
  for (const seat of lobby.seats) {
    if (seat.kind === "open") open += 1;
    const isMe = seat.seat === state.seat;
    const isHost = seat.seat === lobby.host;
    // eslint-disable-next-line no-restricted-syntax -- a class name, not words
    const badges = [badge(`kind-${seat.kind}`, KIND_WORDS[seat.kind] ? t(KIND_WORDS[seat.kind]) : seat.kind)];
    if (isHost) badges.push(badge("host", t("lobby.seat.host")));
    if (seat.away) badges.push(badge("away", t("lobby.seat.away")));
    if (seat.voice) badges.push(voiceBadge());
    if (lobby.rule_cards && seat.kind === "human") {
      badges.push(badge(seat.ready ? "ready" : "", t(seat.ready ? "lobby.seat.ready" : "lobby.seat.writing")));
    }
    let control = null;
    if (state.host && !isMe) {
      const free = seat.kind === "open";
      if (free || seat.kind === "bot") {
        control = el("button", { text: t(free ? "lobby.add_bot" : "lobby.remove_bot"), dataset: { seat: seat.seat }, onclick: () => setBot(seat.seat, free) });
      } else if (seat.kind === "human") {
        control = el("button", {
          class: "kick",
          text: t("lobby.kick"),
          title: t("lobby.kick.title", { name: seat.name }),
          dataset: { seat: seat.seat },
          onclick: () => conn.send({ type: "kick", seat: seat.seat }),
        });
      }
    }
    const name = isMe ? t("page.you") : seat.kind === "open" ? t("lobby.seat.open_name", { number: seat.seat }) : seat.name;
    list.append(
      el(
        "li",
        // eslint-disable-next-line no-restricted-syntax -- class names, not words
        { class: `seat-row${isMe ? " me" : ""}${isHost ? " host" : ""}`, dataset: { seat: seat.seat, kind: seat.kind } },
        isHost ? el("span", { class: "crown", title: t("lobby.host"), "aria-label": t("lobby.host"), text: "👑" }) : null, // read as "Host" too
        seat.kind === "open" ? null : avatarNode(seat, seat.name, seat.seat, "mini"),
        el("span", { class: "seat-name", text: name, title: isMe ? seat.name : null }),
        el("span", { class: "badges" }, badges),
        el("span", { class: "controls" }, control),
      ),
    );
  }
  show($("#host-controls"), state.host);
  const wait = $("#lobby-wait");
  show(wait, !state.host);
  const hostName = lobby.seats.find((seat) => seat.seat === lobby.host)?.name;
  wait.textContent =
    state.seat === null
      ? t("lobby.wait.watching")
      : hostName
        ? t("lobby.wait.host", { name: hostName })
        : t("lobby.wait.no_host");
  show($("#leave-room"), state.seat !== null);
  $("#fill-bots").toggleAttribute("disabled", open === 0);
  $("#start-game").toggleAttribute("disabled", open > 0);
  renderRuleEditor();
}

/** The invite link (on the address friends reach), a word on who can open it, its QR code. */
function renderInvite() {
  if (!state.code) return;
  // eslint-disable-next-line no-restricted-syntax -- an address, not words
  /** @type {HTMLInputElement} */ ($("#invite-link")).value = shareLink(state.invite || `/r/${state.code}`);
  const note = $("#invite-note");
  note.textContent = site.localOnly
    ? t("lobby.invite.local_only")
    : site.network ? t("lobby.invite.network") : "";
  show(note, Boolean(note.textContent));
  show($("#invite-qr-box"), !site.localOnly);
  const qr = $("#invite-qr");
  // eslint-disable-next-line no-restricted-syntax -- an address, not words
  const source = `/api/rooms/${state.code}/qr.svg`;
  if (qr.getAttribute("src") !== source) qr.setAttribute("src", source);
}

/**
 * The rule options that differ from the defaults (all of them while the defaults are unknown), for `edition`.
 * @param {Record<string, any>} rules
 * @param {string} edition
 */
function changedRules(rules, edition) {
  const specs = state.options?.rules;
  /** @type {Record<string, any>} */
  const out = {};
  for (const [name, value] of Object.entries(rules)) {
    if (value === null || value === undefined) continue;
    const spec = specs?.[name];
    if (specs && !spec) continue;
    if (spec && JSON.stringify(spec.default) === JSON.stringify(value)) continue;
    if (spec?.editions && !spec.editions.includes(edition)) continue; // it does not matter in this edition
    out[name] = value;
  }
  return out;
}

/**
 * @param {number} seat
 * @param {boolean} bot
 */
function setBot(seat, bot) {
  conn.send({ type: "seat", seat, bot });
}

function fillBots() {
  for (const seat of state.lobby?.seats ?? []) if (seat.kind === "open") setBot(seat.seat, true);
}

/** @param {number} index */
// eslint-disable-next-line no-restricted-syntax -- a CSS selector, not words
const ruleInput = (index) => /** @type {HTMLInputElement} */ ($(`#rule-inputs [name=rule-${index}]`));

function renderRuleEditor() {
  const form = $("#rule-cards");
  const cards = state.lobby?.rule_cards;
  if (!cards || state.seat === null) {
    show(form, false);
    state.ruleEditorCount = -1;
    return;
  }
  show(form);
  const mine = cards.mine ?? [];
  if (state.ruleEditorCount !== cards.count) {
    state.ruleEditorCount = cards.count;
    const box = $("#rule-inputs");
    box.replaceChildren();
    const placeholders = (cards.suggestions ?? []).filter((text) => typeof text === "string"); // the rule sheet's
    for (let index = 0; index < cards.count; index += 1) {
      const input = /** @type {HTMLInputElement} */ (
        el("input", {
          type: "text",
          maxlength: 120,
          // eslint-disable-next-line no-restricted-syntax -- a field's name, not words
          name: `rule-${index}`,
          placeholder: placeholders[index % placeholders.length],
        })
      );
      input.value = mine[index]?.text ?? "";
      input.addEventListener("input", () => scheduleReading(index));
      const reading = el("p", { class: "reading muted", dataset: { index }, "aria-live": "polite" });
      box.append(el("div", { class: "rule-input" }, el("label", {}, el("span", { class: "rule-card-name" }), " ", input), reading));
      if (mine[index]) showReading(index, mine[index].text, mine[index].reading, mine[index].enforced);
    }
  }
  for (let index = 0; index < cards.count; index += 1) {
    // named each time: the words follow the page's language
    ruleInput(index).setAttribute("aria-label", t("lobby.rules.card_label", { number: index + 1 }));
    // eslint-disable-next-line no-restricted-syntax -- a CSS selector, not words
    $(`#rule-inputs .rule-input:nth-child(${index + 1}) .rule-card-name`).textContent = t("lobby.rules.card", { number: index + 1 });
  }
  const status = $("#rule-status");
  if (mine.length) status.textContent = t("lobby.rules.submitted", { count: mine.length });
}

/** @type {Map<number, number>} */
const readTimers = new Map();

/** @param {number} index */
function scheduleReading(index) {
  clearTimeout(readTimers.get(index));
  readTimers.set(
    index,
    setTimeout(() => {
      const input = ruleInput(index);
      const text = input.value;
      if (!text.trim()) return showReading(index, "", "", null);
      if (conn.send({ type: "read_rule", text }, true)) state.expect.push({ kind: "read", index, text });
      return undefined;
    }, READ_DELAY_MS),
  );
}

/**
 * Take the first reply expected of this kind off the list.
 * @param {"read" | "submit"} kind
 */
function takeExpected(kind) {
  const position = state.expect.findIndex((entry) => entry.kind === kind);
  return position >= 0 ? state.expect.splice(position, 1)[0] : null;
}

/** @param {Message} message a `reading` message */
export function onReading(message) {
  const expected = takeExpected("read");
  if (expected?.kind === "read") showReading(expected.index, expected.text, message.reading, message.enforced);
}

/**
 * Show how a rule card is read; `enforced` null means an error message or nothing.
 * @param {number} index
 * @param {string} text
 * @param {string} reading
 * @param {boolean | null} enforced
 */
export function showReading(index, text, reading, enforced) {
  const input = ruleInput(index);
  // eslint-disable-next-line no-restricted-syntax -- a CSS selector, not words
  const node = $(`#rule-inputs .reading[data-index="${index}"]`);
  if (!input || !node) return;
  if (text && input.value !== text && input.value.trim() !== text.trim()) return; // outdated reply
  const [kind, head] =
    enforced === true
      ? ["enforced", t("lobby.rules.enforced")]
      : enforced === false
        ? ["honour", t("lobby.rules.honour")]
        : [text ? "bad" : "muted", t("lobby.rules.unreadable")];
  // eslint-disable-next-line no-restricted-syntax -- class names, not words
  node.className = `reading ${kind}`;
  node.replaceChildren();
  // the reading without its leading "enforced:" / "honour task:", shown as a heading instead
  if (text) node.append(el("strong", { text: t("lobby.rules.head", { head }) }), " ", String(reading ?? "").replace(/^(enforced|honour task):\s*/i, ""));
}

/** @param {SubmitEvent} event */
function onSubmitRules(event) {
  event.preventDefault();
  const count = state.lobby?.rule_cards?.count ?? 0;
  const texts = [];
  for (let index = 0; index < count; index += 1) {
    const input = ruleInput(index);
    const text = input.value.trim() || input.placeholder;
    input.value = text;
    texts.push(text);
  }
  if (!conn.send({ type: "rule_cards", texts })) return;
  state.expect.push({ kind: "submit" });
  $("#rule-status").textContent = t("lobby.rules.submitting");
  setTimeout(() => takeExpected("submit"), 3000); // the lobby message that follows confirms
}

function shareInvite() {
  navigator.share({ title: "unokit", url: /** @type {HTMLInputElement} */ ($("#invite-link")).value }).catch(() => {});
}

async function copyInvite() {
  const input = /** @type {HTMLInputElement} */ ($("#invite-link"));
  let copied = true;
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    // no clipboard API (plain http to another machine): copy the selection
    input.focus();
    input.select();
    copied = document.execCommand?.("copy");
  }
  toast(t(copied ? "toast.copied" : "toast.copy_failed"));
}

export function bindLobby() {
  $("#copy-invite").addEventListener("click", copyInvite);
  show($("#share-invite"), Boolean(navigator.share)); // phones: the system's share sheet
  $("#share-invite").addEventListener("click", shareInvite);
  loadSite().then(() => state.screen === "lobby" && renderInvite());
  $("#fill-bots").addEventListener("click", fillBots);
  $("#start-game").addEventListener("click", () => conn.send({ type: "start" }));
  $("#leave-room").addEventListener("click", () => conn.send({ type: "leave" }));
  $("#rule-cards").addEventListener("submit", onSubmitRules);
}
