// The picker of the player's avatar and colour in the start page's and the join page's forms
// (loaded with those pages): remembered on the device (prefs.js), sent with create and join, and
// to the seat of a room the player is in.

import { $, $$, el } from "./dom.js";
import { AVATARS, COLOURS, prefs, setPref } from "./prefs.js";
import { COLOUR_VALUES, GLYPHS, avatarNode, sendLook } from "./social.js";
import { t } from "./i18n.js";

/** Fill every picker of the page (once). */
export function buildPickers() {
  for (const host of $$("[data-look-picker]")) if (!host.firstChild) buildPicker(host);
}

/**
 * The picker of the player's avatar and colour, in a form (a disclosure: closed, it shows the choice).
 * Its words are marked (`data-i18n`): a change of language translates them where they stand.
 * @param {HTMLElement} host
 */
function buildPicker(host) {
  const summaryAvatar = el("span", { class: "look-current" });
  const avatars = AVATARS.map((name) =>
    choice(
      // eslint-disable-next-line no-restricted-syntax -- a message id, not words
      `social.avatar.${name}`,
      // eslint-disable-next-line no-restricted-syntax -- a field's name, not words
      el("input", { type: "radio", name: `${host.id}-avatar`, value: name, onchange: () => choose("avatar", name) }),
      el("span", { class: "look-glyph", "aria-hidden": "true", text: GLYPHS[name] }),
    ),
  );
  const colours = COLOURS.map((name) => {
    const swatch = el("span", { class: "look-swatch", "aria-hidden": "true" });
    swatch.style.setProperty("--seat-colour", COLOUR_VALUES[name]);
    return choice(
      // eslint-disable-next-line no-restricted-syntax -- a message id, not words
      `social.colour.${name}`,
      // eslint-disable-next-line no-restricted-syntax -- a field's name, not words
      el("input", { type: "radio", name: `${host.id}-colour`, value: name, onchange: () => choose("colour", name) }),
      swatch,
    );
  });
  host.replaceChildren(
    el(
      "details",
      { class: "look-picker" },
      el("summary", {}, summaryAvatar, says("span", { class: "look-label" }, "social.look.summary")),
      el("fieldset", { class: "look-avatars" }, says("legend", {}, "social.look.avatar"), avatars),
      el("fieldset", { class: "look-colours" }, says("legend", {}, "social.look.colour"), colours),
    ),
  );
  syncPicker(host);
}

/**
 * An element saying the message `id`, marked for a change of language.
 * @param {string} tag
 * @param {Record<string, any>} props
 * @param {string} id
 */
function says(tag, props, id) {
  return el(tag, { ...props, text: t(id), "data-i18n": id });
}

/**
 * One choice of the picker: its control, its picture, and its name (read by screen readers, shown as its tooltip).
 * @param {string} id the name's message
 * @param {HTMLElement} input
 * @param {HTMLElement} picture
 */
function choice(id, input, picture) {
  return el(
    "label",
    // eslint-disable-next-line no-restricted-syntax -- an attribute and a message id, not words
    { class: "look-choice", title: t(id), "data-i18n-attr": `title:${id}` },
    input,
    picture,
    says("span", { class: "visually-hidden" }, id),
  );
}

/**
 * @param {"avatar" | "colour"} name
 * @param {string} value
 */
function choose(name, value) {
  setPref(name, value);
  for (const host of $$("[data-look-picker]")) syncPicker(host);
  sendLook();
}

/** @param {HTMLElement} host */
function syncPicker(host) {
  for (const input of $$("input", host)) {
    const radio = /** @type {HTMLInputElement} */ (input);
    radio.checked = radio.value === (radio.name.endsWith("-avatar") ? prefs.avatar : prefs.colour);
  }
  const current = $(".look-current", host);
  if (current) current.replaceChildren(avatarNode(prefs, "?", 0, "mini"));
}

