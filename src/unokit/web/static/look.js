// The picker of the player's avatar and colour in the start page's and the join page's forms
// (loaded with those pages): remembered on the device (prefs.js), sent with create and join, and
// to the seat of a room the player is in.

import { $, $$, el } from "./dom.js";
import { AVATARS, COLOURS, prefs, setPref } from "./prefs.js";
import { COLOUR_VALUES, GLYPHS, avatarNode, sendLook } from "./social.js";

const COLOUR_NAMES = /** @type {Record<string, string>} */ ({ amber: "gold", slate: "grey" });

/** Fill every picker of the page (once). */
export function buildPickers() {
  for (const host of $$("[data-look-picker]")) if (!host.firstChild) buildPicker(host);
}

/**
 * The picker of the player's avatar and colour, in a form (a disclosure: closed, it shows the choice).
 * @param {HTMLElement} host
 */
function buildPicker(host) {
  const summaryAvatar = el("span", { class: "look-current" });
  const avatars = AVATARS.map((name) =>
    el(
      "label",
      { class: "look-choice", title: name },
      el("input", { type: "radio", name: `${host.id}-avatar`, value: name, onchange: () => choose("avatar", name) }),
      el("span", { class: "look-glyph", "aria-hidden": "true", text: GLYPHS[name] }),
      el("span", { class: "visually-hidden", text: name }),
    ),
  );
  const colours = COLOURS.map((name) => {
    const swatch = el("span", { class: "look-swatch", "aria-hidden": "true" });
    swatch.style.setProperty("--seat-colour", COLOUR_VALUES[name]);
    return el(
      "label",
      { class: "look-choice", title: COLOUR_NAMES[name] ?? name },
      el("input", { type: "radio", name: `${host.id}-colour`, value: name, onchange: () => choose("colour", name) }),
      swatch,
      el("span", { class: "visually-hidden", text: COLOUR_NAMES[name] ?? name }),
    );
  });
  host.replaceChildren(
    el(
      "details",
      { class: "look-picker" },
      el("summary", {}, summaryAvatar, el("span", { class: "look-label", text: "Your avatar and colour" })),
      el("fieldset", { class: "look-avatars" }, el("legend", { text: "Avatar" }), avatars),
      el("fieldset", { class: "look-colours" }, el("legend", { text: "Colour" }), colours),
    ),
  );
  syncPicker(host);
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

