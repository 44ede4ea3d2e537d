// @ts-check
// "Ask the coach" and the review after a deal, drawn for the play table and the evening.
// Every number comes from Python (loo_lessons.sim.coach, via widgets/controllers/coaching.py):
// advice = {best, forced, why, note, rollouts, seed, moves: [{action, label, counters, looed,
// trick, versus_best}]}, each estimate {mean, low, high}; review = {threshold, mistakes, note,
// decisions: [{played, best, cost, mistake, words}]}. Nothing here weighs a move.
import { h } from "./cards.js";

/** @param {number} x */
function coachSigned(x) {
  const v = Math.round(x * 100) / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

/** @param {number} x */
function coachPercent(x) {
  return `${Math.round(x * 100)}\u00A0%`;
}

/**
 * @param {import("./types").Estimate} e
 * @param {(x: number) => string} fmt
 */
function coachSpan(e, fmt) {
  return `${fmt(e.mean)} [${fmt(e.low)}, ${fmt(e.high)}]`;
}

/** @param {import("./types").Advice} advice */
export function coachPanel(advice) {
  const moves = advice.moves || [];
  return h(
    "div",
    { class: "loo-coach", role: "region", "aria-label": "the coach's advice" },
    h("p", { class: "loo-prompt", text: "The coach" }),
    h("p", { class: "loo-coach-why", text: advice.why || "" }),
    h(
      "table",
      { class: "loo-grid loo-coach-moves" },
      h(
        "thead",
        {},
        h("tr", {}, ["Rank", "Move", "Counters (95\u00A0% interval)", "Looed", "At least one trick"].map((x) => h("th", { scope: "col", text: x }))),
      ),
      h(
        "tbody",
        {},
        moves.map((m, i) =>
          h(
            "tr",
            { "data-move": m.action, class: i === 0 ? "loo-coach-best" : "" },
            h("td", { text: String(i + 1) }),
            h("th", { scope: "row", text: m.label }),
            h("td", { text: coachSpan(m.counters, coachSigned) }),
            h("td", { text: coachSpan(m.looed, coachPercent) }),
            h("td", { text: coachSpan(m.trick, coachPercent) }),
          ),
        ),
      ),
    ),
    h("p", { class: "loo-muted", text: `${advice.rollouts} deals of the cards you cannot see, seed ${advice.seed}.` }),
    h("p", { class: "loo-muted loo-coach-note", text: advice.note || "" }),
  );
}

/** @param {import("./types").Review} review */
export function reviewPanel(review) {
  const ds = review.decisions || [];
  const n = review.mistakes || 0;
  return h(
    "div",
    { class: "loo-review", role: "region", "aria-label": "the coach's review of your decisions" },
    h("p", { class: "loo-prompt", text: "The coach's review" }),
    h("p", {
      class: "loo-review-summary",
      "data-mistakes": n,
      text: ds.length
        ? `${ds.length} decision${ds.length === 1 ? "" : "s"} weighed; ${n} cost more than ${review.threshold} counters.`
        : "You had no choice to make in this deal.",
    }),
    h(
      "ol",
      {},
      ds.map((d) =>
        h(
          "li",
          { class: d.mistake ? "loo-verdict loo-wrong" : "", "data-mistake": d.mistake ? "yes" : "no" },
          d.mistake ? "\u2717 Mistake: " : "",
          d.words,
        ),
      ),
    ),
    review.note ? h("p", { class: "loo-muted loo-coach-note", text: review.note }) : null,
  );
}
