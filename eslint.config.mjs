// The JavaScript's lint (make jscheck): eslint's recommended rules and a few that catch what a
// reviewer would (loose equality, var, shadowed names, unused values). The components are ES
// modules; the book's own scripts are plain scripts; the engine's worker runs in a worker.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["loo_lessons/widgets/js/**/*.js", "loo_lessons/classroom/tables/seat_page.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["loo_lessons/widgets/js/worker.js"],
    languageOptions: { globals: { ...globals.worker, ...globals.sharedWorker, loadPyodide: "readonly" } },
  },
  {
    files: ["book/_static/**/*.js", "loo_lessons/classroom/tables/live.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser } },
  },
  {
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
      "no-shadow": "error",
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      "no-implicit-globals": "error",
    },
  },
];
