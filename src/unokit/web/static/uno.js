// Calling UNO is a race: the UNO button (or U), pressed while you may play your next-to-last card,
// goes with the card you then play (its `!` form), or makes the late call before you are caught.

import { $, el, toast } from "./dom.js";
import { state } from "./state.js";
import { act } from "./connection.js";
import { t } from "./i18n.js";

/** Whether this player has pressed UNO for the card they are about to play. */
let armed = false;

/** Whether the player may play their next-to-last card now (with the UNO call). */
export function unoWithCard() {
  return state.legal.some((entry) => entry.type === "play_uno" || entry.type === "jump_uno");
}

/** Press UNO: the late call if it is open, else the call for the card about to be played. */
export function pressUno() {
  const late = state.legal.find((entry) => entry.type === "call_uno");
  if (late) {
    act(late.action);
    return;
  }
  if (!unoWithCard()) return;
  armed = !armed;
  const button = $("#uno-button");
  if (button) {
    button.classList.toggle("armed", armed);
    button.setAttribute("aria-pressed", String(armed));
    button.textContent = armed ? "UNO!" : "UNO";
  }
  if (armed) toast(t("uno.armed"));
}

/**
 * The action that plays `entry`'s card: its `!` form (the UNO call) if UNO was pressed and the call
 * may go with that card, else `entry`'s own; the decision dialog plays cards through it too.
 * @param {LegalEntry} entry
 */
export function withUnoCall(entry) {
  if (!entry.card) return entry.action;
  const wasArmed = armed;
  armed = false;
  const callType = entry.type === "play" ? "play_uno" : entry.type === "jump" ? "jump_uno" : null;
  if (!wasArmed || !callType) return entry.action;
  const calls = state.legal.filter((item) => item.type === callType && item.card === entry.card);
  const call = calls.find((item) => item.action === `${entry.action}!`) ?? (calls.length === 1 ? calls[0] : null);
  return call ? call.action : entry.action;
}

/** The big UNO button, when UNO may be called now (null otherwise). */
export function unoButton() {
  const late = state.legal.find((entry) => entry.type === "call_uno");
  if (!late && !unoWithCard()) {
    armed = false;
    return null;
  }
  return el("button", {
    id: "uno-button",
    class: armed && !late ? "uno-button armed" : "uno-button",
    text: late || armed ? "UNO!" : "UNO",
    title: late ? t("uno.late.title", { action: late.label ?? t("uno.call") }) : t("uno.title"),
    "aria-pressed": late ? null : String(armed),
    dataset: late ? { action: late.action } : { uno: "arm" },
    disabled: state.busy,
    onclick: pressUno,
  });
}

export function unoArmed() {
  return armed;
}

/** Forget a press of UNO (its card was played, or the chance went). */
export function disarmUno() {
  armed = false;
}
