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
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
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
 * A badge (`.badge.<kind>`), in the lobby, on the table and in the results.
 * @param {string} kind
 * @param {string} text
 * @param {string} [title]
 */
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
