// @ts-check
// The `practice` component: a session of new positions for the rules due or missed, one item
// a screen. Select, then Check (or Show the answer): each choice is marked and its verdict
// (the rule, the reason, the book's words) shown; Next deals the next item. Every question,
// grade and schedule is Python's (controllers.PracticeController, progress/); a click only
// sends a `request` ({n, type, key?}).
import { h, fill, button, mount, commit } from "./cards.js";
import { drawTable } from "./table.js";
import { drawChoices, drawVerdict, speakVerdict, answerText, choiceMarks, addStyle } from "./verdict.js";

const WORDS = ["allowed", "not allowed"];

/** Room for the table beside the question (not a phone held upright). */
const wide = () => typeof window.matchMedia !== "function" || window.matchMedia("(min-width: 600px)").matches;

const PRACTICE_STYLE = `
.loo .loo-practice-head { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; margin: 0 0 6px; }
.loo .loo-practice-head h3 { margin: 0; font-size: 1.1em; }
.loo .loo-practice-rule { font-size: .9em; }
.loo .loo-practice-comeback { font-style: italic; }
.loo .loo-practice-rules { border-collapse: collapse; margin: 6px 0; }
.loo .loo-practice-rules th, .loo .loo-practice-rules td { text-align: left; padding: 2px 8px 2px 0; vertical-align: top; }
.loo .loo-practice-table > summary { cursor: pointer; margin: 2px 0 6px; }
@media (max-width: 600px) {
  .loo .loo-practice-head { margin: 0; font-size: .9em; }
  .loo .loo-practice-head h3 { font-size: 1.05em; }
  .loo .loo-practice-table > summary { margin: 0 0 2px; }
  .loo .loo-practice-item .loo-prompt { font-size: 1em; margin: 2px 0 6px; line-height: 1.35; }
  .loo .loo-practice-item .loo-choices { gap: 5px; }
  .loo .loo-practice-item .loo-choices .loo-btn { padding: 3px 8px; line-height: 1.3; }
  .loo .loo-practice-item .loo-table { zoom: .7; }
  /* a hand of three cards on one row */
  .loo .loo-practice-item .loo-choices .loo-clickable.loo-large { width: calc((100% - 20px) / 3); max-width: 122px; }
}
`;

/**
 * @param {import("./types").MasteryRow[]} rows
 */
function masteryTable(rows) {
  if (!rows.length) return null;
  return h(
    "table",
    { class: "loo-practice-rules" },
    h("thead", {}, h("tr", {}, ["rule", "how sure", "next", "mistakes"].map((t) => h("th", { scope: "col", text: t })))),
    h("tbody", {}, rows.map((r) => h(
      "tr",
      { "data-rule": r.rule, "data-sure": String(r.sure) },
      h("th", { scope: "row" }, h("span", { class: "loo-rule", text: r.rule }), " ", r.words),
      h("td", { text: `${r.sure}%` }),
      h("td", { text: r.due ? "due now" : `due ${r.due_at.slice(0, 10)}` }),
      h("td", { text: r.wrong ? String(r.wrong) : "none" }),
    ))),
  );
}

export default {
  /** @param {import("./types").RenderProps<import("./types").PracticeTraits>} props */
  render({ model, el }) {
    let tableOpen = wide(); // the learner's choice, kept from one item to the next
    mount(el, model, ["data"], (body, say) => {
      const d = model.get("data") || {};
      const live = d.live === true;
      /** @param {PracticeEvent} ev what the controller's EVENTS accept */
      const send = (ev) => {
        if (!live) return;
        const prevN = model.get("request")?.n;
        commit(model, { request: { ...ev, n: (typeof prevN === "number" && Number.isInteger(prevN) ? prevN : 0) + 1 } });
      };
      const score = d.score || { right: 0, answered: 0 };
      const head = h(
        "div",
        { class: "loo-practice-head" },
        h("h3", { text: d.title || "Practice" }),
        d.done ? null : h("span", { class: "loo-muted", "data-n": String(d.n || 0), text: `${d.n || 0} of ${d.of || 0}` }),
        h("span", { class: "loo-muted", text: `${score.right} right of ${score.answered}` }),
      );
      const error = d.error ? h("p", { class: "loo-verdict loo-wrong", role: "alert", text: d.error }) : null;
      if (!live && !d.item) {
        fill(body, head, h("p", { class: "loo-muted", text: "Practice deals new positions with the engine: it starts once the engine has loaded in this page." }));
        return;
      }
      if (d.done || !d.item) {
        const rows = d.mastery || [];
        fill(
          body,
          head,
          error,
          h("p", { class: "loo-score", text: score.answered ? `Done: ${score.right} right of ${score.answered}.` : "Nothing to practise here." }),
          typeof d.due === "number" ? h("p", { text: d.due ? `Still due: ${d.due} rule${d.due === 1 ? "" : "s"}.` : "Nothing else is due: come back tomorrow." }) : null,
          masteryTable(rows),
          h("div", { class: "loo-controls" }, button("Practise again", () => send({ type: "start" }), { action: "start", focusId: "practice-again", kind: "primary", ariaDisabled: !live })),
        );
        say(score.answered ? `Done: ${score.right} right of ${score.answered}.` : "");
        return "practice-again";
      }
      const item = d.item;
      const q = item.question;
      const picked = d.picked || [];
      const result = d.result || null;
      /** @type {Record<string, string>} */
      let marks = {};
      /** @type {Record<string, string>} */
      let badges = {};
      if (result) ({ marks, badges } = choiceMarks(q, result.picked, WORDS));
      const verdicts = q.verdicts || {};
      const shown = result ? (d.current || result.picked.find((k) => !(q.answer || []).includes(k)) || (q.answer || [])[0] || null) : null;
      fill(
        body,
        head,
        error,
        h(
          "div",
          { class: "loo-practice-item", "data-rule": item.rule, "data-back": item.back },
          // the prompt says the position in words; the picture of the table is one click away
          // on a phone (one item, one screen), open where there is room
          q.view
            ? h("details", { class: "loo-practice-table", open: tableOpen, ontoggle: (/** @type {Event} */ e) => { tableOpen = /** @type {HTMLDetailsElement} */ (e.currentTarget).open; } },
                h("summary", { text: "The table" }), drawTable(q.view))
            : null,
          h("p", { class: "loo-prompt", text: q.prompt || "" }),
          drawChoices(q, {
            onPick: (key) => send({ type: "choice", key }),
            marks,
            badges,
            pressed: result ? undefined : picked,
            label: "choices: select all that apply",
          }),
        ),
        result
          ? h(
              "div",
              { class: "loo-answer", "data-correct": String(result.correct) },
              h("p", { class: "loo-score", text: result.correct ? "\u2713 Right." : "\u2717 Not right." }),
              result.correct ? null : h("p", {}, h("strong", { text: "The answer: " }), answerText(q)),
              shown !== null ? drawVerdict(q, shown, verdicts[shown], WORDS) : null,
              result.comeback ? h("p", { class: "loo-practice-comeback", text: `It comes back in a moment, on a new position: ${result.missed.join("; ")}` }) : null,
              h("p", { class: "loo-muted loo-screen-only", text: "Click any choice to see why it is, or is not, allowed." }),
            )
          : null,
        h(
          "div",
          { class: "loo-controls" },
          result
            ? button(d.n && d.of && d.n >= d.of ? "Finish" : "Next", () => send({ type: "next" }), { action: "next", focusId: "practice-next", kind: "primary" })
            : [
                button("Check", () => send({ type: "check" }), { action: "check", focusId: "practice-check", kind: "primary", ariaDisabled: !picked.length }),
                button("Show the answer", () => send({ type: "show" }), { action: "show", focusId: "practice-show" }),
              ],
        ),
      );
      if (result) say(`${result.correct ? "Right" : "Not right"}. ${shown !== null ? speakVerdict(q, shown, verdicts[shown], WORDS) : ""}`);
      else say(picked.length ? `Selected: ${picked.length}` : "");
      return result ? "practice-next" : null;
    });
    const style = document.createElement("style");
    style.textContent = PRACTICE_STYLE;
    el.append(style);
    addStyle(el);
  },
};
