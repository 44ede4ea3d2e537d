// @ts-check
// The `pick` component: pick a card (or a declaration) in a position, then see whether that
// choice is allowed, the rule id, the plain reason and the book's words, and the whole
// answer; clicking other choices explains them too (illegal ones included).
// Every question, whatever the number of right answers, is graded only on "Check": clicks
// select and deselect, and after Check each choice is marked right, wrong or missed.
// Data: {question: a question in the quiz schema, title?}. State: picked (keys: for one
// answer, in the order first clicked; for several, the selection), current (the key whose
// verdict is shown), revealed (checked, or "Show the answer").
// loo_lessons/widgets/controllers/pick.py mirrors pickReduce exactly (tests compare the two).
import { h, fill, button, mount, act, proseEl } from "./cards.js";
import { tricksPlayed } from "./table.js";
import { drawChoices, drawVerdict, speakVerdict, answerText, choiceMarks, addStyle, questionTable } from "./verdict.js";

/**
 * The next state after one event (the static page's; pick.py mirrors it).
 * @param {import("./types").Question} q
 * @param {{ picked?: unknown, current?: unknown, revealed?: unknown }} st
 * @param {PickEvent | { type: "none", key?: undefined }} ev
 * @returns {import("./types").PickState}
 */
export function pickReduce(q, st, ev) {
  const keys = (q.choices || []).map((c) => c.key);
  /** @type {string[]} */
  let picked = Array.isArray(st.picked) ? st.picked.filter((k) => keys.includes(k)) : [];
  let current = typeof st.current === "string" && keys.includes(st.current) ? st.current : null;
  let revealed = Boolean(st.revealed);
  const multi = true; // every pick is select-then-Check: neither the buttons nor a first click give the answer away
  if (ev.type === "choice") {
    if (typeof ev.key === "string" && keys.includes(ev.key)) {
      const key = ev.key;
      if (multi && !revealed) {
        picked = picked.includes(key) ? picked.filter((k) => k !== key) : [...picked, key];
        current = null;
      } else if (multi) {
        current = key;
      } else {
        if (!picked.includes(key)) picked = [...picked, key];
        current = key;
      }
    }
  } else if (ev.type === "check") {
    if (multi && picked.length) revealed = true;
  } else if (ev.type === "show") {
    revealed = true;
  } else if (ev.type === "reset") {
    picked = [];
    current = null;
    revealed = false;
  }
  return { picked, current, revealed };
}

const WORDS = ["allowed", "not allowed"];

export default {
  /** @param {import("./types").RenderProps<import("./types").PickTraits>} props */
  render({ model, el }) {
    const state = () => ({
      picked: model.get("picked") || [],
      current: model.get("current") ?? null,
      revealed: Boolean(model.get("revealed")),
    });
    // the control that keeps keyboard focus after it is pressed and replaced
    let lastControl = "pick-ctl";
    /** @param {PickEvent} ev what the controller's EVENTS accept */
    const send = (ev) => {
      const q = (model.get("data") || {}).question || {};
      act(model, ev, () => pickReduce(q, state(), ev));
    };
    const press = (/** @type {string} */ focus, /** @type {PickEvent} */ ev) => () => {
      lastControl = focus;
      send(ev);
    };
    mount(el, model, ["data", "picked", "current", "revealed"], (body, say) => {
      const d = model.get("data") || {};
      const q = d.question || {};
      const st = pickReduce(q, state(), { type: "none" });
      const multi = true; // every pick is select-then-Check: neither the buttons nor a first click give the answer away
      const open = multi ? st.revealed : st.revealed || st.picked.length > 0;
      const answer = q.answer || [];
      const verdicts = q.verdicts || {};
      /** @type {Record<string, string>} */
      let marks = {};
      /** @type {Record<string, string>} */
      let badges = {};
      if (open && multi) {
        ({ marks, badges } = choiceMarks(q, st.picked, WORDS));
      } else if (open) {
        for (const c of q.choices || []) {
          const ok = answer.includes(c.key);
          marks[c.key] = ok ? "right" : "wrong";
          badges[c.key] = ok ? "\u2713 allowed" : "\u2717 not allowed";
        }
      }
      const first = st.picked.length ? st.picked[0] : null;
      // Python's answer, compared as the pick is graded (widgets/controllers/pick.py)
      const gotRight = first !== null && st.picked.length === new Set(answer).size && st.picked.every((k) => answer.includes(k));
      /** @type {string | null} */
      let verdictLine = null;
      if (open && first !== null) {
        if (multi) {
          const right = st.picked.length === new Set(answer).size && st.picked.every((k) => answer.includes(k));
          verdictLine = right ? "\u2713 Right: you selected every allowed choice and nothing else." : "\u2717 Not right: see the marks below each choice.";
        } else {
          verdictLine = answer.includes(first) ? "Your first choice was allowed." : "Your first choice was not allowed.";
        }
      }
      // one question, one screen: the prompt, then the table with the choices in the seat to
      // act (its cards are the buttons), then Check; what is said after it comes below
      const [table, outside] = questionTable(q, (size) =>
        drawChoices(q, {
          onPick: (key) => send({ type: "choice", key }),
          marks,
          badges,
          pressed: multi && !open ? st.picked : undefined,
          label: multi ? "choices: select all that apply" : "choices: click one",
          size,
        }),
      );
      fill(body,
        d.title ? h("h3", { text: d.title }) : null,
        h("p", { class: "loo-prompt", text: q.prompt || "" }),
        table,
        outside,
        h(
          "div",
          { class: "loo-controls" },
          multi && !open
            ? button("Check", press("pick-ctl", { type: "check" }), { action: "check", focusId: "pick-ctl", kind: "primary", ariaDisabled: !st.picked.length })
            : null,
          open ? null : button("Show the answer", press(multi ? "pick-show" : "pick-ctl", { type: "show" }), { action: "show", focusId: multi ? "pick-show" : "pick-ctl" }),
          // a wrong answer (or one shown) can be tried again: the wrong one stays in her record
          open ? button(gotRight ? "Start again" : "Try again", press("pick-ctl", { type: "reset" }), { action: "reset", focusId: lastControl }) : null,
          multi && !open ? h("span", { class: "loo-muted loo-screen-only loo-how", text: "Select every choice that is allowed, then press Check." }) : null,
        ),
        st.current !== null ? drawVerdict(q, st.current, verdicts[st.current], WORDS) : null,
        tricksPlayed(q.view),
        open
          ? h(
              "div",
              { class: "loo-answer" },
              verdictLine !== null ? h("p", { class: "loo-score", text: verdictLine }) : null,
              h("p", {}, h("strong", { text: answer.length === 1 ? "The answer: " : "Allowed: " }), answerText(q)),
              q.explanation ? h("p", { text: q.explanation }) : null,
              proseEl(d.after),
              h("p", { class: "loo-muted loo-screen-only", text: "Click any choice to see why it is, or is not, allowed." }),
            )
          : null,
      );
      let spoken = st.current !== null ? speakVerdict(q, st.current, verdicts[st.current], WORDS) : "";
      if (multi && !open) spoken = st.picked.length ? `Selected: ${st.picked.length}` : "";
      else if (open && verdictLine && st.current === null) spoken = `${verdictLine} Allowed: ${answerText(q)}.`;
      say(spoken);
    });
    addStyle(el);
  },
};
