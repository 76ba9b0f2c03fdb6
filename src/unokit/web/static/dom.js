// Small DOM helpers and the toast.  User-provided strings go on the page as text, never as HTML.

/**
 * The first element matching `selector` (the page's elements are known to exist).
 * @template {Element} [T=HTMLElement]
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {T}
 */
export const $ = (selector, root = document) => /** @type {T} */ (root.querySelector(selector));

/**
 * Every element matching `selector`.
 * @template {Element} [T=HTMLElement]
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {T[]}
 */
export const $$ = (selector, root = document) => /** @type {T[]} */ (Array.from(root.querySelectorAll(selector)));

/** @typedef {Node | string | number | null | undefined | false} Child */

/**
 * Create an element (a button is of type "button" unless `props` says otherwise); `props` sets
 * class, text, dataset, event handlers (on*) and attributes.
 * @param {string} tag
 * @param {Record<string, any>} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  if (tag === "button") node.setAttribute("type", "button");
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) /** @type {Record<string, any>} */ (node)[key] = value; // a property: morph() carries onclick over
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/**
 * Make `node` like `model` (attributes, text, children, click handler), changing only what differs, so
 * that a part of the page drawn again on every update is restyled and laid out only where it changed.
 * @param {ChildNode} node
 * @param {Node} model
 */
function morph(node, model) {
  if (node.nodeName !== model.nodeName) return node.replaceWith(model);
  if (!(node instanceof Element && model instanceof Element)) {
    if (node.nodeValue !== model.nodeValue) node.nodeValue = model.nodeValue;
    return;
  }
  for (const name of node.getAttributeNames()) if (!model.hasAttribute(name)) node.removeAttribute(name);
  for (const name of model.getAttributeNames()) {
    const value = /** @type {string} */ (model.getAttribute(name));
    // styles through the CSSOM: the page's Content-Security-Policy refuses style attributes
    if (node.getAttribute(name) !== value) name === "style" ? ((/** @type {HTMLElement} */ (node)).style.cssText = value) : node.setAttribute(name, value);
  }
  /** @type {HTMLElement} */ (node).onclick = /** @type {HTMLElement} */ (model).onclick;
  morphChildren(node, Array.from(model.childNodes));
}

/**
 * Make `parent`'s children like `models`, one by one in order (see morph()).
 * @param {ParentNode} parent
 * @param {Node[]} models
 */
export function morphChildren(parent, models) {
  const existing = Array.from(parent.childNodes);
  models.forEach((model, index) => (existing[index] ? morph(existing[index], model) : parent.append(model)));
  for (const old of existing.slice(models.length)) old.remove();
}

/**
 * A badge (`.badge.<kind>`), in the lobby, on the table and in the results.
 * @param {string} kind
 * @param {string} text
 * @param {string} [title]
 */
// eslint-disable-next-line no-restricted-syntax -- class names, not words
export const badge = (kind, text, title) => el("span", { class: `badge ${kind}`, text, title });

/** @param {HTMLElement} node */
export function show(node, visible = true) {
  node.hidden = !visible;
}

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let toastTimer = 0;

/** @param {string} message */
export function toast(message) {
  const box = $("#toast");
  box.textContent = message;
  show(box);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => show(box, false), 4500);
}

/** @type {Set<HTMLElement>} */
const scrollingToEnd = new Set();

/**
 * Scroll each of `nodes` to its end before the next frame is drawn, once however often asked:
 * reading a height as each line is added would lay the page out again for every line.
 * @param {...(HTMLElement | null)} nodes
 */
export function scrollToEnd(...nodes) {
  if (!scrollingToEnd.size) {
    requestAnimationFrame(() => {
      for (const node of scrollingToEnd) node.scrollTop = node.scrollHeight;
      scrollingToEnd.clear();
    });
  }
  for (const node of nodes) if (node) scrollingToEnd.add(node);
}

/** Stands for an element in a message's blank: `t("join.title", { code: MARK })` (see `textAround`). */
export const MARK = "\u0001";

/**
 * Make `node` say `text`, with the element `inner` where `text` holds MARK: a whole message around
 * an element (the room code in "Join room ABCD"), in the word order of the language.
 * @param {Element} node
 * @param {string} text
 * @param {Element} inner
 */
export function textAround(node, text, inner) {
  const [before, after = ""] = text.split(MARK);
  node.replaceChildren(before, inner, after);
}
