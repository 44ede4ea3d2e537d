// The `quiz` component: a bank of precomputed questions (loo_lessons.quiz schema), one at a
// time. It grades in the browser (a choice is right iff it is in `answer`; a multi question
// is right iff the set picked equals `answer`), explains every choice with its verdict, keeps
// a score per topic, and offers "Show the answer" and "Next question". With a kernel
// (data.live), "New questions" asks Python for a fresh bank by bumping `new_request`.
// State: index (0..n, n = the summary), responses (one per question: null or
// {picked, correct, revealed}), selected (draft for multi questions), inspect (the choice
// whose verdict is shown). loo_lessons/widgets/state.py mirrors quizReduce exactly.
import { h, fill, button, mount, commit, act } from "./cards.js";
import { drawTable } from "./table.js";
import { drawChoices, drawVerdict, speakVerdict, answerText, choiceLabel } from "./verdict.js";

function isObject(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

export function quizReduce(questions, st, ev) {
  const n = questions.length;
  let index = Number.isInteger(st.index) ? Math.min(Math.max(st.index, 0), n) : 0;
  const given = Array.isArray(st.responses) ? st.responses : [];
  let responses = Array.from({ length: n }, (_, i) => (isObject(given[i]) ? given[i] : null));
  const q = index < n ? questions[index] : null;
  const keys = q ? (q.choices || []).map((c) => c.key) : [];
  let selected = Array.isArray(st.selected) ? st.selected.filter((k) => keys.includes(k)) : [];
  let inspect = keys.includes(st.inspect) ? st.inspect : null;
  const resp = q ? responses[index] : null;
  const answer = q ? q.answer || [] : [];
  const put = (r) => {
    responses = responses.map((x, i) => (i === index ? r : x));
  };
  switch (ev.type) {
    case "choice":
      if (q && keys.includes(ev.key)) {
        if (resp !== null) {
          inspect = ev.key;
        } else if (q.multi) {
          selected = selected.includes(ev.key)
            ? selected.filter((k) => k !== ev.key)
            : [...selected, ev.key];
        } else {
          put({ picked: [ev.key], correct: answer.includes(ev.key), revealed: false });
          inspect = ev.key;
        }
      }
      break;
    case "check":
      if (q && q.multi && resp === null && selected.length) {
        const picked = keys.filter((k) => selected.includes(k));
        const correct =
          picked.length === new Set(answer).size && picked.every((k) => answer.includes(k));
        put({ picked, correct, revealed: false });
        inspect = null;
      }
      break;
    case "show":
      if (q) put(resp !== null ? { ...resp, revealed: true } : { picked: [], correct: false, revealed: true });
      break;
    case "next":
      if (index < n) {
        index += 1;
        selected = [];
        inspect = null;
      }
      break;
    case "prev":
      if (index > 0) {
        index -= 1;
        selected = [];
        inspect = null;
      }
      break;
    case "restart":
      index = 0;
      responses = responses.map(() => null);
      selected = [];
      inspect = null;
      break;
    default:
      break;
  }
  return { index, responses, selected, inspect };
}

export function quizScore(questions, responses) {
  const topics = [];
  const by = {};
  let answered = 0;
  let right = 0;
  questions.forEach((q, i) => {
    const t = q.topic || "questions";
    if (!by[t]) {
      by[t] = { topic: t, questions: 0, answered: 0, right: 0 };
      topics.push(by[t]);
    }
    by[t].questions += 1;
    const r = responses[i];
    if (isObject(r)) {
      by[t].answered += 1;
      answered += 1;
      if (r.correct) {
        by[t].right += 1;
        right += 1;
      }
    }
  });
  return { answered, right, total: questions.length, topics };
}

function topicName(t) {
  return t ? t.charAt(0).toUpperCase() + t.slice(1) : "";
}

function scoreTable(score) {
  return h(
    "table",
    { class: "loo-grid", "aria-label": "score by topic" },
    h("thead", {}, h("tr", {}, ["Topic", "Right", "Answered", "Questions"].map((x) => h("th", { scope: "col", text: x })))),
    h(
      "tbody",
      {},
      score.topics.map((t) =>
        h("tr", { "data-topic": t.topic }, h("th", { scope: "row", text: topicName(t.topic) }), h("td", { text: t.right }), h("td", { text: t.answered }), h("td", { text: t.questions })),
      ),
    ),
  );
}

export default {
  render({ model, el }) {
    const questions = () => model.get("questions") || [];
    const state = () => ({
      index: model.get("index"),
      responses: model.get("responses"),
      selected: model.get("selected"),
      inspect: model.get("inspect"),
    });
    const send = (ev) => act(model, ev, () => quizReduce(questions(), state(), ev));
    const askNew = () =>
      typeof model.dispatch === "function"
        ? model.dispatch({ type: "new" })
        : commit(model, { new_request: (model.get("new_request") || 0) + 1 });
    mount(el, model, ["data", "questions", "index", "responses", "selected", "inspect"], (body, say) => {
      const d = model.get("data") || {};
      const qs = questions();
      const st = quizReduce(qs, state(), { type: "none" });
      const score = quizScore(qs, st.responses);
      const n = qs.length;
      const head = h(
        "div",
        { class: "loo-quiz-head" },
        d.title ? h("h3", { text: d.title }) : null,
        d.error ? h("p", { class: "loo-mark loo-wrong", role: "alert", text: d.error }) : null,
        h(
          "p",
          { class: "loo-score", "data-score": score.right, "data-answered": score.answered },
          st.index < n ? `Question ${st.index + 1} of ${n} \u00B7 ` : "",
          `Score: ${score.right} right out of ${score.answered} answered`,
        ),
        h("div", { class: "loo-progress", "aria-hidden": "true" }, h("div", { style: `width:${n ? (100 * score.answered) / n : 0}%` })),
      );
      if (!n) {
        fill(body,
          head,
          h("p", { text: "No questions in this bank." }),
          d.live ? h("div", { class: "loo-controls" }, button("New questions", askNew, { focusId: "new", action: "new" })) : null,
        );
        return;
      }
      if (st.index >= n) {
        fill(body,
          head,
          h("p", { class: "loo-prompt", text: `Finished: ${score.right} right out of ${n} questions.` }),
          scoreTable(score),
          h(
            "div",
            { class: "loo-controls" },
            button("Back", () => send({ type: "prev" }), { action: "prev", focusId: "prev" }),
            button("Start again", () => send({ type: "restart" }), { action: "restart", focusId: "next", kind: "primary" }),
            d.live ? button("New questions", askNew, { focusId: "new", action: "new" }) : null,
          ),
        );
        say(`Finished: ${score.right} right out of ${n}.`);
        return;
      }
      const q = qs[st.index];
      const raw = st.responses[st.index];
      const resp = raw
        ? { picked: Array.isArray(raw.picked) ? raw.picked : [], correct: Boolean(raw.correct), revealed: Boolean(raw.revealed) }
        : null;
      const answer = q.answer || [];
      const verdicts = q.verdicts || {};
      const marks = {};
      const badges = {};
      if (resp) {
        for (const c of q.choices || []) {
          const ok = answer.includes(c.key);
          const mine = resp.picked.includes(c.key);
          if (ok) {
            marks[c.key] = mine || !q.multi ? "right" : "missed";
            badges[c.key] = mine ? "\u2713 your pick: right" : "\u2713 right";
          } else if (mine) {
            marks[c.key] = "wrong";
            badges[c.key] = "\u2717 your pick: wrong";
          }
        }
      }
      let feedback = null;
      let spoken = "";
      if (resp) {
        const headline = resp.picked.length
          ? resp.correct
            ? "\u2713 Right!"
            : "\u2717 Not right."
          : "Answer shown.";
        const shown = st.inspect !== null ? st.inspect : !q.multi && resp.picked.length ? resp.picked[0] : null;
        feedback = h(
          "div",
          { class: "loo-feedback" },
          h("p", { class: "loo-prompt " + (resp.correct ? "loo-mark loo-right" : resp.picked.length ? "loo-mark loo-wrong" : ""), text: headline }),
          shown !== null ? drawVerdict(q, shown, verdicts[shown], ["right", "wrong"]) : null,
          h("p", {}, h("strong", { text: answer.length === 1 ? "The answer: " : "The answers: " }), answerText(q)),
          q.explanation ? h("p", { class: "loo-explanation", text: q.explanation }) : null,
          (q.rule_ids || []).length ? h("p", { class: "loo-cite" }, "Rules: ", q.rule_ids.map((r) => h("span", { class: "loo-rule", text: r })).flatMap((x) => [x, " "])) : null,
          h("p", { class: "loo-muted", text: "Click any choice to see why it is right or wrong." }),
        );
        spoken = `${headline} ${shown !== null ? speakVerdict(q, shown, verdicts[shown], ["right", "wrong"]) : ""} The answer: ${answerText(q)}.`;
      } else if (q.multi) {
        spoken = st.selected.length ? `Selected: ${st.selected.map((k) => choiceLabel(q, k)).join(", ")}` : "";
      }
      const last = st.index === n - 1;
      fill(body,
        head,
        h("p", { class: "loo-muted" }, h("span", { class: "loo-tag", text: topicName(q.topic) }), q.level ? ` level ${q.level}` : "", q.preset ? ` \u00B7 rules: ${q.preset}` : ""),
        q.view ? drawTable(q.view) : null,
        h("p", { class: "loo-prompt", text: q.prompt || "" }),
        q.multi && !resp ? h("p", { class: "loo-muted", text: "Select every right choice, then press Check." }) : null,
        drawChoices(q, {
          onPick: (key) => send({ type: "choice", key }),
          marks,
          badges,
          pressed: q.multi && !resp ? st.selected : undefined,
          label: q.multi ? "choices: select all that apply" : "choices: click one",
        }),
        feedback,
        h(
          "div",
          { class: "loo-controls" },
          q.multi && !resp ? button("Check", () => send({ type: "check" }), { action: "check", focusId: "check", kind: "primary", ariaDisabled: !st.selected.length }) : null,
          resp ? null : button("Show the answer", () => send({ type: "show" }), { action: "show", focusId: "show" }),
          st.index > 0 ? button("Back", () => send({ type: "prev" }), { action: "prev", focusId: "prev" }) : null,
          button(last ? "See your score" : "Next question", () => send({ type: "next" }), { action: "next", focusId: "next", kind: resp ? "primary" : null }),
          d.live ? button("New questions", askNew, { focusId: "new", action: "new" }) : null,
        ),
      );
      say(spoken);
    });
  },
};
