// The page's words in the player's language: message catalogs (static/locales/LANG/NAMESPACE.json)
// fetched for the chosen language only, and the card terms the server sends in /api/options.
//
// A message is a string with {named} blanks, or a plural object whose CLDR category (one, many, other...)
// is chosen by the number in {count}.  Sentences are whole messages: code never joins words.

/** The languages the page and the server speak, English first (the source). */
export const LANGUAGES = /** @type {const} */ (["en", "es", "fr", "de"]);

/** @typedef {typeof LANGUAGES[number]} Language */

/** Each language's name in itself, for the settings' choice (never translated). */
export const LANGUAGE_NAMES = { en: "English", es: "Español", fr: "Français", de: "Deutsch" };

/** The catalogs every page loads; others (the guided game's "learn") are loaded when wanted. */
export const START_NAMESPACES = ["page", "table", "social"];

/** @typedef {string | Record<string, string>} Message */

/** @type {Language} */
let current = "en";
/** @type {Map<string, Message>} */
const messages = new Map();
/** @type {Map<string, Message>} */
const terms = new Map();
/** @type {Set<string>} */
const loaded = new Set();
/** @type {Intl.PluralRules} */
let plurals = new Intl.PluralRules("en");
/** @type {Intl.NumberFormat} */
let numbers = new Intl.NumberFormat("en");

/**
 * Whether `value` is a shipped language.
 * @param {unknown} value
 * @returns {value is Language}
 */
export function isLanguage(value) {
  return typeof value === "string" && /** @type {readonly string[]} */ (LANGUAGES).includes(value);
}

/**
 * The language to speak: `chosen` when it is one we ship, else the first of the browser's languages
 * whose primary subtag we ship ("es-MX" → "es"), else English.
 * @param {string | null | undefined} chosen
 * @param {readonly string[]} [preferred]
 * @returns {Language}
 */
export function resolveLanguage(chosen, preferred = navigator.languages ?? [navigator.language]) {
  if (isLanguage(chosen)) return chosen;
  for (const tag of preferred) {
    const primary = String(tag).toLowerCase().split("-")[0];
    if (isLanguage(primary)) return primary;
  }
  return "en";
}

/** The language the page speaks now. */
export function language() {
  return current;
}

/**
 * Fetch one namespace's catalog of the current language (once).
 * @param {string} namespace
 */
export async function loadNamespace(namespace) {
  const key = `${current}/${namespace}`;
  if (loaded.has(key)) return;
  // beside this module: under the page's version, so kept for good like the code
  // eslint-disable-next-line no-restricted-syntax -- a file's address, not words
  const response = await fetch(new URL(`locales/${key}.json`, import.meta.url));
  // eslint-disable-next-line no-restricted-syntax -- for developers, in the console, not words
  if (!response.ok) throw new Error(`no catalog ${key}: ${response.status}`);
  /** @type {Record<string, Message>} */
  const catalog = await response.json();
  for (const [id, message] of Object.entries(catalog)) messages.set(id, message);
  loaded.add(key);
}

/**
 * Speak `lang`: its start catalogs (and the namespaces already loaded in another language) are
 * fetched, `<html lang>` is set and the marked elements of the page are translated.
 * @param {Language} lang
 */
export async function useLanguage(lang) {
  const namespaces = new Set([...START_NAMESPACES, ...[...loaded].map((key) => key.split("/")[1])]);
  current = lang;
  plurals = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang);
  await Promise.all([...namespaces].map(loadNamespace));
  document.documentElement.lang = lang;
  translatePage(document);
}

/**
 * Fill a message's blanks: {name} with `params.name` (numbers formatted for the language), `{{` and `}}`
 * as braces; a plural object is first narrowed by `params.count`.
 * @param {Message} message
 * @param {Record<string, string | number>} params
 */
function format(message, params) {
  let text;
  if (typeof message === "string") {
    text = message;
  } else {
    const count = Number(params.count ?? 0);
    text = message[plurals.select(count)] ?? message.other ?? "";
  }
  return text.replace(/\{\{|\}\}|\{(\w+)\}/g, (whole, name) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? numbers.format(value) : value;
  });
}

/**
 * The message `id` of the page's catalogs in the current language, its blanks filled from `params`.
 * A missing id (which the tests forbid) shows itself rather than a wrong text.
 * @param {string} id
 * @param {Record<string, string | number>} [params]
 */
export function t(id, params = {}) {
  const message = messages.get(id);
  if (message === undefined) {
    // eslint-disable-next-line no-restricted-syntax -- for developers, in the console, not words
    console.error(`no message ${id} in ${current}`);
    return id;
  }
  return format(message, params);
}

/**
 * Keep the server's card terms (`terms` of /api/options: colour.*, kind.*, card.*) for `term`.
 * @param {Record<string, Message> | undefined} given
 */
export function setTerms(given) {
  terms.clear();
  for (const [id, message] of Object.entries(given ?? {})) terms.set(id, message);
}

/**
 * A card term of the server's catalog in the current language (`colour.red`, `kind.skip`, `card.coloured`);
 * the id itself until the terms have come.
 * @param {string} id
 * @param {Record<string, string | number>} [params]
 */
export function term(id, params = {}) {
  const message = terms.get(id);
  return message === undefined ? id : format(message, params);
}

/**
 * Translate the marked elements under `root`: `data-i18n="id"` sets the text, `data-i18n-attr="attr:id; attr:id"`
 * sets attributes (aria-label, title, placeholder...).
 * @param {ParentNode} root
 */
export function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(/** @type {string} */ (node.getAttribute("data-i18n")));
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of (node.getAttribute("data-i18n-attr") ?? "").split(";")) {
      const [attribute, id] = pair.split(":").map((part) => part.trim());
      if (attribute && id) node.setAttribute(attribute, t(id));
    }
  }
}
