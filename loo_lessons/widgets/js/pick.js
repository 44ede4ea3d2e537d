// The `pick` component: pick a card (or a declaration) in a position. A click shows at once
// whether that choice is allowed, the rule id, the plain reason and the book's words, and
// the whole answer; clicking other choices explains them too (illegal ones included).
// Data: {question: a question in the quiz schema, title?}. State: picked (keys, in the
// order first clicked), current (the key whose verdict is shown), revealed.
// loo_lessons/widgets/state.py mirrors pickReduce exactly (tests compare the two).
import { h, fill, button, mount, act } from "./cards.js";
import { drawTable } from "./table.js";
import { drawChoices, drawVerdict, speakVerdict, answerText } from "./verdict.js";

export function pickReduce(q, st, ev) {
  const keys = (q.choices || []).map((c) => c.key);
  let picked = Array.isArray(st.picked) ? st.picked.filter((k) => keys.includes(k)) : [];
  let current = keys.includes(st.current) ? st.current : null;
  let revealed = Boolean(st.revealed);
  if (ev.type === "choice") {
    if (keys.includes(ev.key)) {
      if (!picked.includes(ev.key)) picked = [...picked, ev.key];
      current = ev.key;
    }
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
  render({ model, el }) {
    const state = () => ({
      picked: model.get("picked") || [],
      current: model.get("current") ?? null,
      revealed: Boolean(model.get("revealed")),
    });
    const send = (ev) => {
      const q = (model.get("data") || {}).question || {};
      act(model, ev, () => pickReduce(q, state(), ev));
    };
    mount(el, model, ["data", "picked", "current", "revealed"], (body, say) => {
      const d = model.get("data") || {};
      const q = d.question || {};
      const st = pickReduce(q, state(), { type: "none" });
      const open = st.revealed || st.picked.length > 0;
      const answer = q.answer || [];
      const verdicts = q.verdicts || {};
      const marks = {};
      const badges = {};
      if (open) {
        for (const c of q.choices || []) {
          const ok = answer.includes(c.key);
          marks[c.key] = ok ? "right" : "wrong";
          badges[c.key] = ok ? "\u2713 allowed" : "\u2717 not allowed";
        }
      }
      const first = st.picked.length ? st.picked[0] : null;
      fill(body,
        d.title ? h("h3", { text: d.title }) : null,
        q.view ? drawTable(q.view) : null,
        h("p", { class: "loo-prompt", text: q.prompt || "" }),
        drawChoices(q, {
          onPick: (key) => send({ type: "choice", key }),
          marks,
          badges,
          label: "choices: click one",
        }),
        st.current !== null ? drawVerdict(q, st.current, verdicts[st.current], WORDS) : null,
        open
          ? h(
              "div",
              { class: "loo-answer" },
              first !== null
                ? h("p", {
                    class: "loo-score",
                    text: answer.includes(first)
                      ? "Your first choice was allowed."
                      : "Your first choice was not allowed.",
                  })
                : null,
              h("p", {}, h("strong", { text: answer.length === 1 ? "The answer: " : "Allowed: " }), answerText(q)),
              q.explanation ? h("p", { text: q.explanation }) : null,
              st.current !== null && st.picked.length < (q.choices || []).length
                ? h("p", { class: "loo-muted", text: "Click any other choice to see why it is, or is not, allowed." })
                : null,
            )
          : null,
        h(
          "div",
          { class: "loo-controls" },
          open ? null : button("Show the answer", () => send({ type: "show" }), { action: "show", focusId: "pick-ctl" }),
          open ? button("Start again", () => send({ type: "reset" }), { action: "reset", focusId: "pick-ctl" }) : null,
        ),
      );
      say(st.current !== null ? speakVerdict(q, st.current, verdicts[st.current], WORDS) : "");
    });
  },
};
