// The top bar's mute button and settings menu (sound, motion speed, colour-blind marks, turn
// notifications, hints, language), made of native controls so that the keyboard works; Escape closes it.

import { $, $$, el, show } from "./dom.js";
import { prefs, setPref } from "./prefs.js";
import { LANGUAGES, LANGUAGE_NAMES, isLanguage, t } from "./i18n.js";
import { askNotificationPermission } from "./attention.js";
import { playSound } from "./sound.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * A speaker, with waves or crossed out.
 * @param {boolean} muted
 */
function speakerIcon(muted) {
  const svg = document.createElementNS(SVG_NS, "svg");
  for (const [name, value] of Object.entries({
    viewBox: "0 0 24 24",
    width: "20",
    height: "20",
    fill: "none",
    stroke: "currentColor",
    "stroke-width": "2",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    "aria-hidden": "true",
  })) {
    svg.setAttribute(name, value);
  }
  const waves = muted ? ["M16 9l6 6", "M22 9l-6 6"] : ["M15.5 8.5a5 5 0 0 1 0 7", "M18.5 5.5a9 9 0 0 1 0 13"];
  for (const d of ["M3 9.5h4l5-4.5v14l-5-4.5H3z", ...waves]) {
    const path = document.createElementNS(SVG_NS, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  svg.firstElementChild?.setAttribute("fill", "currentColor"); // the speaker's body
  return svg;
}

function menu() {
  return $("#settings-menu");
}

/** @param {string} selector */
const input = (selector) => /** @type {HTMLInputElement} */ ($(selector));
const languageSelect = () => /** @type {HTMLSelectElement} */ ($("#pref-language"));
const speeds = () => /** @type {HTMLInputElement[]} */ ($$('#settings-menu input[name="pref-speed"]'));

function openMenu(open = true) {
  const button = $("#settings-button");
  show(menu(), open);
  button.setAttribute("aria-expanded", String(open));
  if (open) {
    syncControls();
    $("input", menu()).focus();
  }
}

/** Close the menu and give the focus back to its button. */
function closeMenu() {
  if (menu().hidden) return;
  openMenu(false);
  $("#settings-button").focus();
}

/** Show the preferences in force on the controls. */
function syncControls() {
  const mute = $("#mute-toggle");
  mute.setAttribute("aria-pressed", String(prefs.muted));
  if (mute.dataset.muted !== String(prefs.muted)) {
    mute.replaceChildren(speakerIcon(prefs.muted));
    mute.dataset.muted = String(prefs.muted);
  }
  const label = t(prefs.muted ? "settings.sound_off" : "settings.sound_on");
  mute.title = label;
  mute.setAttribute("aria-label", label);
  input("#pref-muted").checked = prefs.muted;
  for (const radio of speeds()) radio.checked = radio.value === prefs.speed;
  input("#pref-colour-blind").checked = prefs.colourBlind;
  input("#pref-hints").checked = prefs.hints;
  const allowed = "Notification" in window && Notification.permission === "granted";
  input("#pref-notify").checked = prefs.notify && allowed;
  languageSelect().value = prefs.language;
}

/** The language choice: Automatic (the browser's languages), then each language in its own name. */
function buildLanguageChoice() {
  const choices = [el("option", { value: "auto", text: t("settings.language.auto") })];
  for (const lang of LANGUAGES) choices.push(el("option", { value: lang, lang, text: LANGUAGE_NAMES[lang] }));
  languageSelect().replaceChildren(...choices);
  languageSelect().value = prefs.language;
}

/** @param {string} text */
function notifyNote(text) {
  const note = $("#pref-notify-note");
  note.textContent = text;
  show(note, Boolean(text));
}

/** @param {Event} event */
async function onNotifyChange(event) {
  const box = /** @type {HTMLInputElement} */ (event.target);
  if (!box.checked) {
    setPref("notify", false);
    notifyNote("");
    return;
  }
  if (!("Notification" in window)) {
    box.checked = false;
    notifyNote(t("settings.notify.unsupported"));
    return;
  }
  const allowed = await askNotificationPermission();
  box.checked = allowed;
  setPref("notify", allowed);
  notifyNote(allowed ? "" : t("settings.notify.blocked"));
}

export function bindSettings() {
  const button = $("#settings-button");
  button.addEventListener("click", () => (menu().hidden ? openMenu() : closeMenu()));
  $("#mute-toggle").addEventListener("click", () => {
    setPref("muted", !prefs.muted);
    playSound("play"); // heard when the sound is back on
  });
  const muted = input("#pref-muted");
  muted.addEventListener("change", () => {
    setPref("muted", muted.checked);
    playSound("play");
  });
  for (const radio of speeds()) {
    radio.addEventListener("change", () => {
      if (radio.checked) setPref("speed", /** @type {import("./prefs.js").Speed} */ (radio.value));
    });
  }
  const colourBlind = input("#pref-colour-blind");
  colourBlind.addEventListener("change", () => setPref("colourBlind", colourBlind.checked));
  $("#pref-notify").addEventListener("change", onNotifyChange);
  const hints = input("#pref-hints");
  hints.addEventListener("change", () => setPref("hints", hints.checked));
  buildLanguageChoice();
  const languages = languageSelect();
  languages.addEventListener("change", () => {
    const value = languages.value;
    setPref("language", isLanguage(value) ? value : "auto");
  });
  document.addEventListener("unokit:language", () => {
    buildLanguageChoice(); // "Automatic" in the new language
    syncControls();
  });
  $("#settings-close").addEventListener("click", closeMenu);
  menu().addEventListener("keydown", (event) => {
    event.stopPropagation(); // the table's keys do not act from the menu
    if (event.key === "Escape") {
      event.preventDefault();
      closeMenu();
    }
  });
  document.addEventListener("pointerdown", (event) => {
    const target = /** @type {Node} */ (event.target);
    if (!menu().hidden && !menu().contains(target) && !button.contains(target)) openMenu(false);
  });
  document.addEventListener("unokit:prefs", syncControls);
  syncControls();
}
