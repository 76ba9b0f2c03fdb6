// The styles of the how-to-play pages and dialog, the coach and the hints: loaded on demand with
// learn.js and adopted by the document (a constructed style sheet), so the page pays nothing for
// them until a newcomer asks.

// eslint-disable-next-line no-restricted-syntax -- a style sheet, not words
const CSS = `
.howto-page { max-width: 900px; margin: 0 auto; }
.howto h1 { margin: 0 0 6px; font-size: 1.6rem; }
.howto h2 { font-size: 1.15rem; margin: 18px 0 6px; }
.howto p { line-height: 1.45; margin: 6px 0; }
.howto-summary { font-size: 1.05rem; }
.howto-nav { display: flex; flex-wrap: wrap; gap: 6px; margin: 10px 0; }
.howto-nav a { padding: 4px 12px; border-radius: 999px; border: 1px solid #9aa; text-decoration: none; color: inherit; }
.howto-nav a.current { background: var(--accent); border-color: var(--accent); color: #1b1b1b; font-weight: 700; }
.howto-deck { list-style: none; padding: 0; margin: 8px 0; display: grid; gap: 10px;
  grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); }
.howto-card { display: flex; gap: 12px; align-items: flex-start; }
.howto-faces { display: flex; flex: none; gap: 2px; min-width: 60px; }
.howto-faces .card + .card { margin-left: -26px; }
.howto-words { display: flex; flex-wrap: wrap; gap: 2px 8px; align-items: baseline; }
.howto-does { flex-basis: 100%; font-size: 0.92rem; line-height: 1.35; }
.howto-example { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; margin: 8px 0; }
.howto-arrow { font-size: 1.4rem; }
.howto-yes, .howto-no { position: relative; }
.howto-yes::after, .howto-no::after { position: absolute; right: -6px; bottom: -6px; width: 20px; height: 20px;
  border-radius: 50%; display: grid; place-items: center; font-weight: 800; font-size: 0.8rem; color: #fff; }
.howto-yes::after { content: "✓"; background: #1f7a3f; }
.howto-no::after { content: "✗"; background: #a12b2b; }
.howto-no { opacity: 0.75; }
.howto-lever { padding-left: 1.4em; line-height: 1.4; }
.howto-footer { margin-top: 16px; }
.howto-dialog { width: min(880px, calc(100vw - 16px)); max-height: calc(100dvh - 16px); padding: 0;
  border: none; border-radius: 12px; background: var(--panel); color: inherit; }
.howto-dialog::backdrop { background: rgb(0 0 0 / 55%); }
.howto-dialog-head { position: sticky; top: 0; height: 0; display: flex; justify-content: flex-end; align-items: flex-start; z-index: 1; }
.howto-dialog-head button { margin: 10px 12px 0 0; box-shadow: 0 2px 8px rgb(0 0 0 / 25%); }
.howto-dialog-body { padding: 14px 18px 18px; }
.howto-dialog-body .howto h1 { padding-right: 90px; font-size: 1.3rem; }

.coach { border-radius: 12px; padding: 10px 12px; margin-bottom: 10px; background: #fff8d6; color: #1d1d1f;
  box-shadow: 0 0 0 3px var(--accent), 0 4px 14px rgb(0 0 0 / 30%); }
.coach h2 { margin: 0; font-size: 1rem; }
.coach h2::before { content: "🎓 "; }
.coach-text { margin: 6px 0; line-height: 1.4; }
.decision-box .coach { margin: 0 0 8px; }
.decision.dock-top .decision-box:has(> .coach) { max-height: 60vh; } /* room for the coach over the choices */
.coach[data-topic="refused"] .coach-text { color: #8a1c1c; font-weight: 600; }
.coach-buttons { gap: 6px; }
.coach-stop { margin-left: auto; font-size: 0.8rem; padding: 2px 8px; }
.coach .hint-text { margin: 0 0 6px; }
body.coaching .log-panel .log { max-height: 120px; }
body.coaching #chat { display: none !important; } /* a guided game is played against bots: no one to chat with */
body.coach-cards .hand-area.my-turn .card.playable { outline: 4px solid #ffe066; outline-offset: 2px;
  animation: coach-glow 1.2s ease-in-out infinite alternate; }
body.coach-draw .draw-pile:not([disabled]) { outline: 4px solid #ffe066; outline-offset: 3px;
  animation: coach-glow 1.2s ease-in-out infinite alternate; }
.hinted { outline: 4px dashed #5ce1ff !important; outline-offset: 2px; }
@keyframes coach-glow { from { box-shadow: 0 0 0 0 rgb(255 224 102 / 90%); } to { box-shadow: 0 0 14px 6px rgb(255 224 102 / 70%); } }
.hint-text { margin: 4px 0 0; padding: 4px 10px; border-radius: 8px; background: rgb(255 224 102 / 20%);
  font-size: 0.88rem; line-height: 1.35; }
@media (max-width: 899px) {
  .coach { padding: 6px 10px; margin-bottom: 2px; }
  .coach h2 { display: none; }
  .coach-text { margin: 0 0 4px; font-size: 0.84rem; line-height: 1.3; }
  .coach-text::before { content: "🎓 "; }
  .coach-buttons button, .coach-buttons .button { padding: 2px 10px; font-size: 0.82rem; }
  .coach .hint-text { font-size: 0.8rem; }
  body.coaching .felt { height: clamp(270px, calc(100vh - 397px), 420px); }
  body.coaching #status { display: none; } /* the coach says it */
}
@media (max-width: 600px) {
  .howto-deck { grid-template-columns: 1fr; }
  .howto h1 { font-size: 1.3rem; }
}
@media (prefers-reduced-motion: reduce) {
  .card.hinted, body.coach-cards .hand-area.my-turn .card.playable, body.coach-draw .draw-pile:not([disabled]) { animation: none; }
}
`;

let adopted = false;

/** Add these styles to the document (once). */
export function adoptLearnStyles() {
  if (adopted) return;
  adopted = true;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
