// The analysis board of a finished match's replay, loaded on demand: one seat's win chance at each of
// its decisions drawn over the match (GET /api/rooms/CODE/analysis/SEAT), its mistakes marked on the
// graph and in its list of moves, one moment's moves rated (/analyse/STEP?seat=S) and the position there,
// as that seat knew it, to copy (/position/STEP?seat=S).

import { adoptAnalysisStyles } from "./analysis-styles.js";
import { $, el, show } from "./dom.js";
import { language, loadNamespace, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const H = 170; // the graph's height, in pixels (its width is its box's)
const LEFT = 40;
const TOP = 8;
const BOTTOM = 18;

const board = {
  /** @type {BoardOptions | null} */
  opts: null,
  seat: 0,
  step: 0,
  /** @type {MatchAnalysis | null} */
  data: null,
  asked: 0, // the number of the last request: an older answer is dropped
  resizing: false, // whether the graph follows the window's width
};

/**
 * `x` (0..1) as a percentage in the page's language.
 * @param {number} x
 */
const pct = (x) => new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(x);

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {...Node} children
 */
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/**
 * GET `path` of this match's API in the page's language; an error carries the server's words and status.
 * @param {string} path
 */
async function get(path) {
  // eslint-disable-next-line no-restricted-syntax -- a URL
  const url = `/api/rooms/${encodeURIComponent(board.opts?.code ?? "")}/${path}${path.includes("?") ? "&" : "?"}lang=${language()}`;
  const response = await fetch(url);
  const data = await response.json().catch(() => ({}));
  // eslint-disable-next-line no-restricted-syntax -- a protocol's notation, shown only when the server says nothing
  if (!response.ok) throw Object.assign(new Error(data.error || `HTTP ${response.status}`), { status: response.status });
  return data;
}

/**
 * An error said in words: a refusal for the rate apart.
 * @param {unknown} error
 */
function failure(error) {
  const { message, status } = /** @type {Error & {status?: number}} */ (error);
  return t(status === 429 || status === 503 ? "analysis.error.rate" : "analysis.error", { message });
}

/** Whether the board is open. */
export function isOpen() {
  return Boolean(board.opts && document.getElementById("analysis"));
}

/** Take the board away (another replay opens). */
export function closeBoard() {
  for (const id of ["analysis", "analysis-here"]) document.getElementById(id)?.remove();
  board.opts = null;
  board.data = null;
}

/**
 * Open the board under the replay's panel.
 * @param {BoardOptions} opts
 */
export async function openBoard(opts) {
  await loadNamespace("analysis");
  if (!board.resizing) addEventListener("resize", () => isOpen() && drawGraph());
  board.resizing = true;
  adoptAnalysisStyles();
  closeBoard();
  Object.assign(board, { opts, step: opts.step, seat: 0 });
  const choose = /** @type {HTMLSelectElement} */ (el(
    "select",
    { id: "analysis-seat", onchange: () => (board.seat = Number(choose.value)) },
    opts.names.map((name, seat) => el("option", { value: seat, text: name })),
  ));
  const panel = el(
    "section",
    { id: "analysis", class: "panel analysis-panel", "aria-labelledby": "analysis-title" },
    el("h3", { id: "analysis-title", "data-i18n": "analysis.title", text: t("analysis.title") }),
    el(
      "div",
      { class: "row" },
      el("label", { class: "inline" }, el("span", { "data-i18n": "analysis.seat", text: t("analysis.seat") }), choose),
      el("button", { id: "analysis-start", class: "primary", "data-i18n": "analysis.start", text: t("analysis.start"), onclick: rateMatch }),
    ),
    el("p", { id: "analysis-status", class: "muted", "aria-live": "polite" }),
    el("div", { id: "analysis-graph" }),
    el("ol", { id: "analysis-moves", class: "analysis-moves" }),
    el(
      "div",
      { class: "row" },
      el("button", { id: "analysis-moment", "data-i18n": "analysis.moment", text: t("analysis.moment"), onclick: rateMoment }),
      el("button", { id: "analysis-copy", "data-i18n": "analysis.copy", text: t("analysis.copy"), onclick: copyPosition }),
      el("span", { id: "analysis-copied", class: "muted", "aria-live": "polite" }),
    ),
    el("input", { id: "analysis-position", class: "analysis-position", readonly: true, hidden: true }),
    el("div", { id: "analysis-table", "aria-live": "polite" }),
  );
  $("#replay .replay-panel").after(panel);
  choose.focus();
}

/**
 * The replay shows step `step`: mark it on the graph and in the list; a moment's table is for its step only.
 * @param {number} step
 */
export function boardStep(step) {
  if (!isOpen()) return;
  board.step = step;
  $("#analysis-table").replaceChildren();
  show($("#analysis-position"), false);
  $("#analysis-copied").textContent = "";
  drawGraph();
  // the move this step tells, when it was the analysed seat's mistake: marked beside it
  const told = board.data?.decisions.find((decision) => decision.step === step - 1 && decision.mistake);
  document.getElementById("analysis-here")?.remove();
  if (told) $("#replay-action").append(el("span", { id: "analysis-here", class: "analysis-mark", text: mistakeWords(told) }));
  for (const item of document.querySelectorAll("#analysis-moves li")) {
    const here = Number(/** @type {HTMLElement} */ (item).dataset.step) === step;
    item.classList.toggle("current", here);
    if (here) item.scrollIntoView({ block: "nearest" });
  }
}

/** Rate every decision of the chosen seat, then draw them. */
async function rateMatch() {
  const asked = ++board.asked;
  const seat = board.seat;
  const name = board.opts?.names[seat] ?? "";
  const status = $("#analysis-status");
  status.textContent = t("analysis.loading", { name });
  status.classList.remove("error");
  board.data = null; // another seat's graph, and its moment's table, are not left beside this one's answer
  $("#analysis-table").replaceChildren();
  renderMoves();
  drawGraph();
  try {
    // eslint-disable-next-line no-restricted-syntax -- a URL
    const data = /** @type {MatchAnalysis} */ (await get(`analysis/${seat}`));
    if (asked !== board.asked) return;
    board.data = data;
    status.textContent = data.decisions.length
      ? t("analysis.summary", { name, decisions: data.decisions.length, count: data.mistakes })
      : t("analysis.none", { name });
    renderMoves();
    boardStep(board.step);
  } catch (error) {
    if (asked !== board.asked) return;
    status.textContent = failure(error);
    status.classList.add("error");
  }
}

/**
 * The words of a mistake.
 * @param {AnalysedDecision} decision
 */
const mistakeWords = (decision) => t("analysis.mistake", { loss: pct(decision.loss), better: decision.best.label });

/** The seat's decisions, each a button to its step, the mistakes marked. */
function renderMoves() {
  const decisions = board.data?.decisions ?? [];
  $("#analysis-moves").replaceChildren(
    ...decisions.map((decision) =>
      el(
        "li",
        { class: decision.mistake ? "mistake" : "", dataset: { step: decision.step } },
        el("button", {
          text: t("analysis.decision", { step: decision.step, move: decision.played.label, win: pct(decision.win) }),
          onclick: () => board.opts?.go(decision.step),
        }),
        decision.mistake && el("span", { class: "analysis-mark", text: mistakeWords(decision) }),
      ),
    ),
  );
}

/** The win-chance graph: a line per round, a dot per decision (mistakes larger, red), this step marked. */
function drawGraph() {
  const box = $("#analysis-graph");
  const data = board.data;
  if (!data || !data.decisions.length) return box.replaceChildren();
  const W = Math.max(280, Math.round(box.clientWidth || 600));
  const x = (/** @type {number} */ step) => LEFT + ((W - LEFT - 8) * step) / Math.max(1, data.steps);
  const y = (/** @type {number} */ win) => TOP + (H - TOP - BOTTOM) * (1 - win);
  const name = board.opts?.names[data.seat] ?? "";
  const parts = [];
  for (const win of [0, 0.5, 1]) {
    parts.push(svg("line", { class: "grid", x1: LEFT, x2: W - 8, y1: y(win), y2: y(win) }));
    parts.push(svg("text", { x: LEFT - 4, y: y(win) + 4, "text-anchor": "end" }, document.createTextNode(pct(win))));
  }
  /** @type {AnalysedDecision[][]} */
  const rounds = [];
  for (const decision of data.decisions) {
    const last = rounds.at(-1);
    if (last && last[0].round === decision.round) last.push(decision);
    else rounds.push([decision]);
  }
  rounds.forEach((round, index) => {
    const start = x(round[0].step) - 3;
    const end = index + 1 < rounds.length ? x(rounds[index + 1][0].step) - 3 : W;
    parts.push(svg("line", { class: "round", x1: start, x2: start, y1: TOP, y2: H - BOTTOM }));
    const label = document.createTextNode(t("analysis.round", { round: round[0].round }));
    if (end - start > 24) parts.push(svg("text", { x: start + 3, y: H - 4 }, label));
    const points = round.map((decision) => [x(decision.step), y(decision.win)].join(",")).join(" ");
    parts.push(svg("polyline", { class: "win", points }));
  });
  for (const decision of data.decisions) {
    const tip = t("analysis.decision", { step: decision.step, move: decision.played.label, win: pct(decision.win) });
    const title = svg("title", {}, document.createTextNode(decision.mistake ? [tip, mistakeWords(decision)].join(" ") : tip));
    const attrs = { cx: x(decision.step), cy: y(decision.win), r: decision.mistake ? 5 : 2.5, "data-step": decision.step };
    parts.push(svg("circle", { ...attrs, class: decision.mistake ? "mistake" : "point" }, title));
  }
  parts.push(svg("line", { class: "now", x1: x(board.step), x2: x(board.step), y1: TOP, y2: H - BOTTOM }));
  const graph = svg("svg", { viewBox: [0, 0, W, H].join(" "), width: W, height: H, role: "img", "aria-label": t("analysis.graph", { name }) }, ...parts);
  // a click goes to the decision nearest to it (easier than hitting a dot on a phone)
  graph.addEventListener("click", (event) => {
    const rect = graph.getBoundingClientRect();
    const at = ((event.clientX - rect.left) / rect.width) * W;
    const nearest = data.decisions.reduce((a, b) => (Math.abs(x(b.step) - at) < Math.abs(x(a.step) - at) ? b : a));
    board.opts?.go(nearest.step);
  });
  box.replaceChildren(el("p", { class: "muted analysis-caption", text: t("analysis.graph", { name }) }), graph);
}

/** Rate the chosen seat's moves at this step, in a table. */
async function rateMoment() {
  const step = board.step;
  const name = board.opts?.names[board.seat] ?? "";
  const table = $("#analysis-table");
  table.replaceChildren(el("p", { class: "muted", text: t("analysis.moment.loading") }));
  let data;
  try {
    // eslint-disable-next-line no-restricted-syntax -- a URL
    data = /** @type {MomentAnalysis} */ (await get(`analyse/${step}?seat=${board.seat}`));
  } catch (error) {
    if (board.step === step) table.replaceChildren(el("p", { class: "error", text: failure(error) }));
    return;
  }
  if (board.step !== step) return;
  const analysis = data.analysis;
  if (!analysis) return table.replaceChildren(el("p", { class: "muted", text: t("analysis.moment.other", { name }) }));
  const caption = analysis.exact ? t("analysis.moment.exact", { name }) : t("analysis.moment.caption", { name, count: analysis.rollouts });
  const rows = analysis.moves.map((move) =>
    el(
      "tr",
      { class: move.best ? "best" : "" },
      el("td", {}, move.label, move.best && el("span", { class: "badge", text: t("analysis.best") }), move.played && el("span", { class: "badge", text: t("analysis.played") })),
      el("td", { class: "num", text: pct(move.win) }),
      el(
        "td",
        {},
        svg(
          "svg",
          { class: "bar", viewBox: "0 0 100 10", preserveAspectRatio: "none", "aria-hidden": "true" },
          svg("rect", { class: "track", x: 0, y: 2, width: 100, height: 6 }),
          svg("rect", { x: 0, y: 2, width: move.win * 100, height: 6 }),
          svg("line", { x1: move.low * 100, x2: move.high * 100, y1: 5, y2: 5 }),
          svg("line", { x1: move.low * 100, x2: move.low * 100, y1: 1, y2: 9 }),
          svg("line", { x1: move.high * 100, x2: move.high * 100, y1: 1, y2: 9 }),
        ),
      ),
    ),
  );
  const head = el("tr", {}, el("th", { text: t("analysis.move") }), el("th", { class: "num", text: t("analysis.win") }), el("th", { text: t("analysis.interval") }));
  table.replaceChildren(el("table", { class: "analysis-moment" }, el("caption", { text: caption }), el("thead", {}, head), el("tbody", {}, rows)));
}

/** Copy the position of this step as the chosen seat knew it: the clipboard, or a selected field to copy by hand. */
async function copyPosition() {
  const said = $("#analysis-copied");
  const field = /** @type {HTMLInputElement} */ ($("#analysis-position"));
  said.textContent = "";
  let text;
  try {
    // eslint-disable-next-line no-restricted-syntax -- a URL
    text = /** @type {{position: string}} */ (await get(`position/${board.step}?seat=${board.seat}`)).position;
  } catch (error) {
    said.textContent = failure(error);
    return;
  }
  field.value = text;
  try {
    await navigator.clipboard.writeText(text);
    said.textContent = t("analysis.copied");
  } catch {
    show(field);
    field.setAttribute("aria-label", t("analysis.copy.manual"));
    field.focus();
    field.select();
    said.textContent = t("analysis.copy.manual");
  }
}
