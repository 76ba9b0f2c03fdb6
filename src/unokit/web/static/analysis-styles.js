// The styles of the replay's analysis board: loaded on demand with analysis.js and adopted by the
// document (a constructed style sheet), so the page pays nothing for them until someone opens the board.

// eslint-disable-next-line no-restricted-syntax -- a style sheet, not words
const CSS = `
.analysis-panel .error { color: #b00020; font-weight: 600; }
#analysis-graph svg { display: block; width: 100%; height: auto; cursor: pointer; font-size: 12px; fill: var(--muted); }
.analysis-panel label { white-space: nowrap; }
.analysis-caption { margin: 4px 0 0; font-size: 0.85rem; }
#analysis-graph .grid { stroke: var(--line); }
#analysis-graph .round { stroke: #b9b3a2; stroke-dasharray: 3 3; }
#analysis-graph .win { fill: none; stroke: var(--blue); stroke-width: 2; }
#analysis-graph .point { fill: var(--blue); }
#analysis-graph .mistake { fill: var(--red); stroke: #fff; }
#analysis-graph .now { stroke: var(--accent); stroke-width: 2; opacity: 0.8; }
.analysis-moves { max-height: 11em; overflow-y: auto; margin: 8px 0; padding-left: 0; list-style: none; border: 1px solid var(--line); border-radius: 8px; }
.analysis-moves li { padding: 2px 8px; }
.analysis-moves li.current { background: #fff3c4; }
.analysis-moves button { border: 0; background: none; padding: 2px 0; text-align: left; color: inherit; }
.analysis-mark { color: var(--red); font-weight: 700; margin-left: 6px; }
.analysis-position { width: 100%; font-family: monospace; }
.analysis-moment { border-collapse: collapse; margin-top: 8px; width: 100%; max-width: 560px; }
.analysis-moment caption { text-align: left; color: var(--muted); }
.analysis-moment td, .analysis-moment th { padding: 3px 6px; border-bottom: 1px solid var(--line); text-align: left; }
.analysis-moment th:last-child { width: 30%; }
.analysis-moment tr.best td { font-weight: 700; }
.analysis-moment .num { text-align: right; }
.analysis-moment .badge { margin-left: 6px; }
.analysis-moment .bar { width: 100%; min-width: 60px; height: 12px; fill: #9cbde9; }
.analysis-moment .bar .track { fill: #ebe7dc; }
.analysis-moment .bar line { stroke: var(--ink); stroke-width: 1.5; vector-effect: non-scaling-stroke; }
`;

let adopted = false;

/** Add these styles to the document (once). */
export function adoptAnalysisStyles() {
  if (adopted) return;
  adopted = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
