// Lint of the browser client: plain ES modules in the browser, no build step.
import js from "@eslint/js";
import globals from "globals";

/**
 * Words a player reads come from the message catalogs (static/locales), whole sentences with named
 * blanks: code builds no text from words.  Refused: a template literal whose literal parts hold
 * letters, and `+` / `+=` with a string literal holding letters.  A template of something that is
 * not words (a class name, a CSS value, an address, an id, a card's notation) is allowed where it
 * stands, with `// eslint-disable-next-line no-restricted-syntax -- why`.
 */
const NO_WORDS_BUILT_IN_CODE = [
  "error",
  {
    selector: "TemplateLiteral > TemplateElement[value.raw=/[A-Za-z\\u00C0-\\u024F]/]",
    message: "Words come from the catalogs: t(\"id\", {blanks}); a template of non-words needs a commented exception.",
  },
  {
    selector: "BinaryExpression[operator='+'] > Literal[value=/[A-Za-z\\u00C0-\\u024F]/]",
    message: "No text built with +: a whole message of the catalogs, t(\"id\", {blanks}).",
  },
  {
    selector: "AssignmentExpression[operator='+='] > Literal[value=/[A-Za-z\\u00C0-\\u024F]/]",
    message: "No text built with +=: a whole message of the catalogs, t(\"id\", {blanks}).",
  },
];


export default [
  js.configs.recommended,
  {
    files: ["src/unokit/web/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    files: ["src/unokit/web/static/**/*.js"],
    rules: { "no-restricted-syntax": NO_WORDS_BUILT_IN_CODE },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
