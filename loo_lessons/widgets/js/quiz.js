// @ts-check
// The `quiz` component: a bank of precomputed questions (loo_lessons.quiz schema), one at a
// time. It grades in the browser (a choice is right iff it is in `answer`; a multi question
// is right iff the set picked equals `answer`), explains every choice with its verdict, keeps
// a score per topic, and offers "Show the answer" and "Next question". With a kernel
// (data.live), "New questions" asks Python for a fresh bank by bumping `new_request`.
// State: index (0..n, n = the summary), responses (one per question: null or
// {picked, correct, revealed}), selected (draft for multi questions), inspect (the choice
// whose verdict is shown). loo_lessons/widgets/controllers/quiz.py mirrors quizReduce exactly.
// A several-answer question is graded only on "Check"; a one-answer question on its click.
// The seconds a pupil spent on each question (shown until first answered) are kept on the
// page, outside the state, for the results export.
//
// For a class (data.banks, pre-generated at build time: {"<topic>-<seed>": [questions]}):
// a class code TOPIC-COUNT-SEED (e.g. lead-10-42, typed or in the URL as #class=lead-10-42)
// deals the first COUNT questions of that bank, the same on every pupil's page; a pupil's
// answers are exported as CSV and as a short result code (loo-lessons quiz results merges
// them). On paper (@media print) every question is printed with a tick box before each
// choice, and the answer key on pages of its own only when data.print_key is true (a
// lesson printed from the book leaves it out).
import { h, fill, button, mount, commit, cardEl, act } from "./cards.js";
import { drawTable, tricksPlayed } from "./table.js";
import { drawChoices, drawVerdict, speakVerdict, answerText, choiceLabel, choiceMarks, addStyle, questionTable } from "./verdict.js";

/** @typedef {import("./types").QuizQuestion} QuizQuestion */
/** @typedef {import("./types").QuizResponse} QuizResponse */

/**
 * @param {unknown} x
 * @returns {x is Record<string, unknown>}
 */
function isObject(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

/**
 * The next state after one event (the static page's; quiz.py mirrors it).
 * @param {QuizQuestion[]} questions
 * @param {{ index?: unknown, responses?: unknown, selected?: unknown, inspect?: unknown }} st
 * @param {QuizEvent | { type: "none", key?: undefined }} ev
 * @returns {import("./types").QuizState}
 */
export function quizReduce(questions, st, ev) {
  const n = questions.length;
  let index = typeof st.index === "number" && Number.isInteger(st.index) ? Math.min(Math.max(st.index, 0), n) : 0;
  /** @type {unknown[]} */
  const given = Array.isArray(st.responses) ? st.responses : [];
  // (a response is kept as given: the drawing reads each field with care)
  /** @type {(QuizResponse | null)[]} */
  let responses = Array.from({ length: n }, (_, i) => (isObject(given[i]) ? /** @type {QuizResponse} */ (/** @type {unknown} */ (given[i])) : null));
  const q = index < n ? questions[index] : null;
  const keys = q ? (q.choices || []).map((c) => c.key) : [];
  /** @type {string[]} */
  let selected = Array.isArray(st.selected) ? st.selected.filter((k) => keys.includes(k)) : [];
  let inspect = typeof st.inspect === "string" && keys.includes(st.inspect) ? st.inspect : null;
  const resp = q ? responses[index] : null;
  const put = (/** @type {QuizResponse} */ r) => {
    responses = responses.map((x, i) => (i === index ? r : x));
  };
  switch (ev.type) {
    case "choice":
      if (q && typeof ev.key === "string" && keys.includes(ev.key)) {
        const key = ev.key;
        if (resp !== null) {
          inspect = key;
        } else if (q.multi) {
          selected = selected.includes(key)
            ? selected.filter((k) => k !== key)
            : [...selected, key];
        } else {
          put({ picked: [key], correct: gradeKeys(q, [key]), revealed: false });
          inspect = key;
        }
      }
      break;
    case "check":
      if (q && q.multi && resp === null && selected.length) {
        const picked = keys.filter((k) => selected.includes(k));
        put({ picked, correct: gradeKeys(q, picked), revealed: false });
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

/** @typedef {{ topic: string, questions: number, answered: number, right: number }} TopicScore */
/** @typedef {{ answered: number, right: number, total: number, topics: TopicScore[] }} Score */

/**
 * The score, in all and by topic.
 * @param {QuizQuestion[]} questions
 * @param {unknown[]} responses
 * @returns {Score}
 */
export function quizScore(questions, responses) {
  /** @type {TopicScore[]} */
  const topics = [];
  /** @type {Record<string, TopicScore>} */
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

/** @param {string | undefined} t */
function topicName(t) {
  return t ? t.charAt(0).toUpperCase() + t.slice(1) : "";
}

/** @param {Score} score */
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

// --- class codes, results, the printed handout -------------------------------------------------

// TOPIC-COUNT-SEED, e.g. "lead-10-42" (loo_lessons/quiz/class_code.py reads the same format).
/**
 * @param {unknown} text
 * @returns {{ topic: string, count: number, seed: number, code: string } | null}
 */
export function parseClassCode(text) {
  const m = /^\s*([a-z]+)-(\d{1,3})-(\d{1,6})\s*$/i.exec(String(text || ""));
  if (!m) return null;
  const count = Number(m[2]);
  if (count < 1) return null;
  return { topic: m[1].toLowerCase(), count, seed: Number(m[3]), code: `${m[1].toLowerCase()}-${count}-${Number(m[3])}` };
}

/**
 * The questions of a class code, or why there are none.
 * @param {Record<string, QuizQuestion[]> | null | undefined} banks
 * @param {unknown} text
 * @returns {{ error: string, code?: undefined, questions?: undefined } | { error?: undefined, code: string, questions: QuizQuestion[] }}
 */
export function classQuestions(banks, text) {
  const c = parseClassCode(text);
  if (!c) return { error: `"${String(text || "").trim()}" is not a class code: write it as topic-count-seed, e.g. lead-10-42.` };
  const bank = (banks || {})[`${c.topic}-${c.seed}`];
  if (!Array.isArray(bank) || bank.length < c.count) {
    const held = Object.entries(banks || {}).map(([k, b]) => {
      const i = k.lastIndexOf("-");
      return `${k.slice(0, i)}-1\u2026${b.length}-${k.slice(i + 1)}`;
    });
    return { error: `This page does not hold the questions of class code ${c.code}${held.length ? ` (it holds ${held.join(", ")})` : ""}.` };
  }
  return { code: c.code, questions: bank.slice(0, c.count) };
}

// The banks a page holds: data.banks, and the questions on screen as their own code's bank.
/**
 * @param {import("./types").QuizData} d
 * @param {QuizQuestion[]} qs
 * @returns {Record<string, QuizQuestion[]>}
 */
export function heldBanks(d, qs) {
  const held = { ...(d.banks || {}) };
  const own = parseClassCode(d.class_code);
  const key = own ? `${own.topic}-${own.seed}` : null;
  if (key && (!held[key] || held[key].length < qs.length)) held[key] = qs;
  return held;
}

/** @param {unknown} x */
function csvCell(x) {
  const s = x === null || x === undefined ? "" : String(x);
  return /[",\n\r]/.test(s) || /^[=+\-@\t]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

// What a pupil exports carries answers, never marks that count: per attempt, the choice KEYS given
// to each question (null: not answered) and the seconds taken. `loo-lessons quiz results`
// (loo_lessons/quiz/classroom.py) grades every answer again from the class code; the shapes
// here are loo_lessons/quiz/results.py's (Submission.to_json, EXPORT_COLUMNS).
export const EXPORT_COLUMNS = ["name", "class_code", "attempt", "question", "question_id", "answer_given", "seconds", "correct", "topic", "rule_ids"];

/**
 * @param {QuizQuestion[]} questions
 * @param {unknown[] | null | undefined} responses
 * @param {Record<number, number> | null | undefined} seconds
 * @param {number} number
 * @returns {import("./types").Attempt}
 */
export function attemptOf(questions, responses, seconds, number) {
  const k = questions.map((q, i) => {
    const given = (responses || [])[i];
    const r = isObject(given) ? given : null;
    const picked = r && Array.isArray(r.picked) ? r.picked : [];
    return picked.length ? picked.join(";") : null;
  });
  const secs = seconds || {};
  const s = k.map((x, i) => (x !== null && typeof secs[i] === "number" ? secs[i] : null));
  return { a: number, k, s };
}

/**
 * @param {QuizQuestion[]} questions
 * @param {import("./types").Attempt[]} attempts
 * @param {string} name
 * @param {string} code
 * @returns {import("./types").Submission}
 */
export function submission(questions, attempts, name, code) {
  return { n: String(name || "").split(/\s+/).filter(Boolean).join(" "), c: code || "", q: questions.map((q) => q.id || ""), t: attempts };
}

// Right or wrong, as the Python Question.grade does: one key for a single answer, the set for multi.
/**
 * @param {QuizQuestion} q
 * @param {string[]} keys
 */
function gradeKeys(q, keys) {
  const answer = q.answer || [];
  if (q.multi) return keys.length === new Set(answer).size && new Set(keys).size === keys.length && keys.every((k) => answer.includes(k));
  return keys.length === 1 && answer.includes(keys[0]);
}

// One row per question and attempt; `correct` is the page's own mark, for a reader of the file.
/**
 * @param {QuizQuestion[]} questions
 * @param {import("./types").Submission} sub
 * @returns {Record<string, string | number>[]}
 */
export function resultRows(questions, sub) {
  /** @type {Record<string, string | number>[]} */
  const rows = [];
  for (const t of sub.t) {
    questions.forEach((q, i) => {
      const given = t.k[i];
      rows.push({
        name: sub.n,
        class_code: sub.c,
        attempt: t.a,
        question: i + 1,
        question_id: q.id || "",
        answer_given: given === null ? "" : given,
        seconds: t.s[i] === null ? "" : t.s[i],
        correct: given === null ? "" : gradeKeys(q, given.split(";")) ? "yes" : "no",
        topic: q.topic || "",
        rule_ids: (q.rule_ids || []).join(";"),
      });
    });
  }
  return rows;
}

/** @param {Record<string, string | number>[]} rows */
export function resultCsv(rows) {
  const lines = [EXPORT_COLUMNS.join(",")];
  for (const row of rows) lines.push(EXPORT_COLUMNS.map((c) => csvCell(row[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}

// The short result code a pupil pastes: "loo2." + base64url of the submission's JSON.
/** @param {import("./types").Submission} sub */
export function resultCode(sub) {
  const bytes = new TextEncoder().encode(JSON.stringify(sub));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return "loo2." + btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// The class code of an address's fragment (#class=lead-10-42): {text} or {error} (a stray
// "%" makes decodeURIComponent throw: refused in one line, the quiz keeps working).
/**
 * @param {unknown} hash
 * @returns {{ text: string, error?: undefined } | { error: string, text?: undefined } | null}
 */
export function hashCode(hash) {
  const m = /(?:^#|&)class=([^&]*)/.exec(String(hash || ""));
  if (!m) return null;
  try {
    return { text: decodeURIComponent(m[1]) };
  } catch (e) {
    return { error: `The address's class code (#class=${m[1].slice(0, 40)}) cannot be read: type the code in the box.` };
  }
}

// A tick box (\u2610) before every choice: a card, or its words.
/** @param {QuizQuestion} q */
function choiceText(q) {
  const cards = q.kind === "pick_card";
  return h(
    "ol",
    { class: "loo-print-choices" + (cards ? " loo-print-cards" : ""), type: "A" },
    (q.choices || []).map((c) =>
      h("li", {}, h("span", { class: "loo-tick", "aria-hidden": "true", text: "\u2610" }), " ", cards ? cardEl(c.key, { size: "small" }) : c.label || c.key),
    ),
  );
}

// Every question on paper, and the key at the end (when `key`).
/**
 * @param {QuizQuestion[]} qs
 * @param {boolean} key
 * @param {string} code
 */
function printSheet(qs, key, code) {
  return h(
    "div",
    { class: "loo-print", "data-print": "quiz" },
    code ? h("p", { class: "loo-muted", text: `Class code ${code} \u00B7 Name: ______________________` }) : null,
    qs.map((q, i) =>
      h(
        "section",
        { class: "loo-print-q", "data-print-question": i + 1 },
        h("h4", { text: `Question ${i + 1}${q.multi ? " (tick every one that applies)" : " (tick one)"}` }),
        h(
          "div",
          { class: "loo-print-body" },
          q.view ? h("div", { class: "loo-print-table" }, drawTable(q.view)) : null,
          h("div", { class: "loo-print-ask" }, h("p", { class: "loo-prompt", text: q.prompt || "" }), choiceText(q)),
        ),
      ),
    ),
    key
      ? h(
          "section",
          { class: "loo-print-key", "data-print-key": "" },
          h("h3", { text: "Answer key" }),
          h("ol", {}, qs.map((q) => h("li", {}, h("strong", { text: answerText(q) }), q.explanation ? ` \u2014 ${q.explanation}` : "", (q.rule_ids || []).length ? ` (${(q.rule_ids || []).join(", ")})` : ""))),
        )
      : null,
  );
}

/**
 * @param {string} name
 * @param {string} text
 */
function download(name, text) {
  const a = h("a", { href: "data:text/csv;charset=utf-8," + encodeURIComponent(text), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

// What the page keeps beside the model (see render), from `el`'s attribute.
/**
 * @param {Element} el
 * @returns {Record<string, unknown>}
 */
function pageState(el) {
  try {
    const saved = JSON.parse(el.getAttribute("data-loo-quiz-page") || "{}");
    return isObject(saved) ? saved : {};
  } catch (e) {
    return {};
  }
}

export default {
  // What the page hands the book's engine when it comes (engine.js): the model's state, each
  // answer given before with the seconds the page timed, for Python's record of it.
  /**
   * @param {Element} el
   * @param {Record<string, unknown>} state
   * @returns {Record<string, unknown>}
   */
  handover(el, state) {
    const { secondsTo } = pageState(el);
    const secs = isObject(secondsTo) ? secondsTo : {};
    const rs = Array.isArray(state.responses) ? state.responses : [];
    return { ...state, responses: rs.map((r, i) => (isObject(r) && typeof secs[i] === "number" ? { ...r, seconds: secs[i] } : r)) };
  },
  /** @param {import("./types").RenderProps<import("./types").QuizTraits>} props */
  render({ model, el }) {
    const questions = () => model.get("questions") || [];
    const state = () => ({
      index: model.get("index"),
      responses: model.get("responses"),
      selected: model.get("selected"),
      inspect: model.get("inspect"),
    });
    // What the page keeps beside the model: the pupil's name, when each question came on
    // screen and the seconds until it was answered, the attempts finished ("Start again"), a
    // class code waiting for the engine. Kept in an attribute of `el`, so it survives the
    // book's engine taking the widget over (engine.js clones the element, attributes too).
    const saved = pageState(el);
    const idsOf = (/** @type {QuizQuestion[]} */ qs) => qs.map((q) => q.id || "").join("\n");
    let pupil = typeof saved.pupil === "string" ? saved.pupil : "";
    // (the page's own record, written by keep below)
    /** @type {Record<number, number>} */
    let shownAt = isObject(saved.shownAt) ? /** @type {Record<number, number>} */ (/** @type {unknown} */ (saved.shownAt)) : {};
    /** @type {Record<number, number>} */
    let secondsTo = isObject(saved.secondsTo) ? /** @type {Record<number, number>} */ (/** @type {unknown} */ (saved.secondsTo)) : {};
    /** @type {import("./types").Attempt[]} */
    let history = Array.isArray(saved.history) ? saved.history : [];
    let historyOf = typeof saved.historyOf === "string" ? saved.historyOf : idsOf(questions());
    let pending = typeof saved.pending === "string" ? saved.pending : null;
    /** @type {Record<number, number>} */
    let clickAt = {};
    let codeText = typeof saved.codeText === "string" ? saved.codeText : null; // typed, while refused or waiting
    let codeError = typeof saved.codeError === "string" ? saved.codeError : "";
    let exported = "";
    let codeNote = "";
    let hashSeen = saved.hashSeen === true; // the address's code is read once, by the first render
    // the class code last dealt on this page (by a link, a typed code or Python): the engine,
    // taking the widget over, starts from the lesson's own questions and is asked for it again
    let applied = typeof saved.applied === "string" ? saved.applied : null;
    const keep = () => el.setAttribute("data-loo-quiz-page", JSON.stringify({ pupil, shownAt, secondsTo, history, historyOf, pending, hashSeen, codeError, codeText, applied }));
    const live = () => typeof model.dispatch === "function";
    // the book's engine is on its way: this widget will be live (and deal any code) soon. An
    // engine already "ready" (another tab's, shared) is still on its way to this widget until
    // it has taken it over: a code is kept for it then too, never refused as early (issue 24).
    const engineComing = () => {
      if (live() || !el.hasAttribute("data-loo-live") || typeof location === "undefined" || location.protocol === "file:") return false;
      if (el.getAttribute("data-loo-engine") === "error") return false;
      const eng = window.looEngine;
      return !eng || eng.state === "idle" || eng.state === "loading" || eng.state === "ready";
    };
    // seconds: from the question's first showing to the click that answered it, noted when the
    // answer is in the model (with the engine, the worker answers after `send` returns)
    const noteSeconds = () => {
      const rs = model.get("responses") || [];
      rs.forEach((r, i) => {
        if (isObject(r) && secondsTo[i] === undefined && typeof shownAt[i] === "number") {
          const t = typeof clickAt[i] === "number" ? clickAt[i] : Date.now();
          secondsTo[i] = Math.max(0, Math.round((t - shownAt[i]) / 100) / 10);
        }
      });
      keep();
    };
    // a new bank (another code, new questions): its attempts start again from 1
    const bankChanged = () => {
      const ids = idsOf(questions());
      if (ids === historyOf) return;
      historyOf = ids;
      history = [];
      shownAt = {};
      secondsTo = {};
      clickAt = {};
      exported = "";
      keep();
    };
    /** @param {QuizEvent} ev what the controller's EVENTS accept */
    const send = (ev) => act(model, ev, () => quizReduce(questions(), state(), ev));
    const grade = (/** @type {QuizEvent} */ ev) => {
      const i = model.get("index") || 0;
      // the last click before the answer counts (a several-answer question: its Check)
      if (!isObject((model.get("responses") || [])[i])) clickAt[i] = Date.now();
      send(ev);
      noteSeconds();
    };
    // "Start again": the attempt is kept (it is exported with the next), the next one counts
    const restart = () => {
      const current = quizReduce(questions(), state(), { type: "none" }).responses;
      if (current.some((r) => isObject(r))) history = [...history, attemptOf(questions(), current, secondsTo, history.length + 1)];
      shownAt = {};
      secondsTo = {};
      clickAt = {};
      exported = "";
      keep();
      send({ type: "restart" });
    };
    // the control that keeps keyboard focus when it is pressed and replaced
    let lastControl = "primary";
    const press = (/** @type {string} */ focus, /** @type {() => void} */ f) => () => {
      lastControl = focus;
      f();
    };
    const askNew = () =>
      typeof model.dispatch === "function"
        ? model.dispatch({ type: "new" })
        : commit(model, { new_request: (model.get("new_request") || 0) + 1 });
    // the page's own bank stays dealable after another code was used
    const initialBanks = heldBanks(model.get("data") || {}, questions());
    let redraw = () => {};
    const useCode = (/** @type {string} */ text) => {
      const d = model.get("data") || {};
      const c = parseClassCode(text);
      codeNote = "";
      if (c && c.code === d.class_code) {
        // the questions on screen already: said, and nothing answered is lost
        codeError = "";
        codeText = null;
        pending = null;
        codeNote = `These are the questions of class code ${c.code}.`;
        keep();
        redraw();
        return;
      }
      const got = classQuestions({ ...initialBanks, ...heldBanks(d, questions()) }, text);
      // Python deals any code: the book's engine always (its controller holds the questions),
      // a kernel a code the page does not hold
      if (c && (live() || (got.error && d.live && !model.get("static_page")))) {
        codeError = "";
        codeText = null;
        pending = null;
        applied = c.code;
        keep();
        commit(model, { class_request: c.code });
        return;
      }
      if (got.error && c && engineComing()) {
        // kept, and dealt when the engine is live
        codeError = "";
        codeText = text;
        pending = c.code;
        keep();
        watchEngine();
        redraw();
        return;
      }
      if (got.error) {
        codeError = got.error;
        codeText = text; // kept in the box, to be corrected
        keep();
        redraw();
        return;
      }
      if (got.code === undefined) return; // (an error, told above: never here)
      codeError = "";
      codeText = null;
      pending = null;
      applied = got.code;
      keep();
      commit(model, {
        data: { ...d, class_code: got.code },
        questions: got.questions,
        index: 0,
        responses: got.questions.map(() => null),
        selected: [],
        inspect: null,
      });
      bankChanged();
    };
    // the engine failed to start: a waiting code is refused as a page without it would
    let watching = false;
    const watchEngine = () => {
      if (watching) return;
      const eng = window.looEngine;
      if (!eng) {
        setTimeout(watchEngine, 100);
        return;
      }
      watching = true;
      const refuse = () => {
        if (pending && !live()) {
          const got = classQuestions(initialBanks, pending);
          codeError = got.error || "";
          pending = null;
          keep();
          redraw();
        }
      };
      // the engine is up but could not take this widget over (engine.js marks it "error"): a
      // waiting code is then refused as without the engine, never left "loading" for ever
      const failedHere = () => {
        const seen = new MutationObserver(() => {
          if (el.getAttribute("data-loo-engine") !== "error") return;
          seen.disconnect();
          refuse();
        });
        seen.observe(el, { attributes: true, attributeFilter: ["data-loo-engine"] });
      };
      eng.ready.then(failedHere, refuse);
    };
    const attempts = () => [...history, attemptOf(questions(), quizReduce(questions(), state(), { type: "none" }).responses, secondsTo, history.length + 1)];
    const sub = () => submission(questions(), attempts(), pupil, (model.get("data") || {}).class_code || "");
    const classBar = (/** @type {import("./types").QuizData} */ d) => {
      if (!d.banks && !d.class_code) return null;
      const box = h("input", {
        type: "text",
        value: codeText ?? d.class_code ?? "",
        "aria-label": "class code",
        "data-focus": "class-code",
        "data-class-code": "",
        placeholder: "lead-10-42",
        spellcheck: "false",
        onkeydown: (/** @type {KeyboardEvent} */ e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            useCode(box.value);
          }
        },
      });
      const nameBox = h("input", {
        type: "text",
        value: pupil,
        "aria-label": "your name",
        "data-focus": "pupil-name",
        "data-pupil-name": "",
        autocomplete: "name",
        oninput: () => {
          pupil = nameBox.value;
          keep();
        },
      });
      return h(
        "div",
        { class: "loo-class" },
        h("label", {}, "Class code", box),
        button("Use this code", () => useCode(box.value), { action: "class-code", focusId: "use-code" }),
        h("label", {}, "Your name", nameBox),
        h("p", { class: "loo-muted", text: "A class code is topic-count-seed, e.g. lead-10-42 (ten lead questions, seed 42): the same code deals the same questions on every page." }),
        pending ? h("p", { class: "loo-muted loo-class-loading", role: "status", "data-class-loading": pending, text: `Loading the class's questions (${pending})\u2026 they are dealt as soon as the engine is ready.` }) : null,
        codeNote ? h("p", { class: "loo-muted", "data-class-note": "", text: codeNote }) : null,
        codeError ? h("p", { class: "loo-mark loo-wrong", role: "alert", text: codeError }) : null,
      );
    };
    const exportPanel = () =>
      h(
        "div",
        { class: "loo-sendback" },
        h("p", { class: "loo-muted", text: "Send your results to your teacher: download the CSV file, or copy the result code." }),
        h(
          "div",
          { class: "loo-controls" },
          button("Download results (CSV)", () => {
            const code = (model.get("data") || {}).class_code || "quiz";
            const who = (pupil || "pupil").replace(/[^A-Za-z0-9_-]+/g, "_");
            download(`loo-results-${code}-${who}.csv`, resultCsv(resultRows(questions(), sub())));
          }, { action: "export-csv", focusId: "export-csv" }),
          button("Show the result code", () => {
            exported = resultCode(sub());
            redraw();
          }, { action: "export-code", focusId: "export-code" }),
        ),
        exported ? h("textarea", { readonly: true, rows: 3, "aria-label": "result code", "data-result-code": "", text: exported }) : null,
      );
    /** @type {HTMLElement | null} */
    let sheet = null;
    /** @type {string | null} */
    let sheetCode = null;
    const drawSheet = () => {
      const d = model.get("data") || {};
      sheetCode = d.class_code || "";
      const next = h("div", { class: "loo" }, printSheet(questions(), d.print_key === true, d.class_code || ""));
      if (sheet) sheet.replaceWith(next);
      else el.append(next);
      sheet = next;
    };
    redraw = mount(el, model, ["data", "questions", "index", "responses", "selected", "inspect"], (body, say) => {
      const d = model.get("data") || {};
      const qs = questions();
      const st = quizReduce(qs, state(), { type: "none" });
      const score = quizScore(qs, st.responses);
      const n = qs.length;
      if (st.index < n && shownAt[st.index] === undefined) {
        shownAt[st.index] = Date.now();
        keep();
      }
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
      // the question first (one question, one screen), the class's code and name under it
      const screen = (/** @type {import("./types").Kid[]} */ ...kids) => fill(body, h("div", { class: "loo-quiz-screen" }, kids), classBar(d));
      if (!n) {
        screen(
          head,
          h("p", { text: "No questions in this bank." }),
          d.live ? h("div", { class: "loo-controls" }, button("New questions", askNew, { focusId: "new", action: "new" })) : null,
        );
        return;
      }
      if (st.index >= n) {
        screen(
          head,
          h("p", { class: "loo-prompt", text: `Finished: ${score.right} right out of ${n} questions.` }),
          scoreTable(score),
          d.banks || d.class_code ? exportPanel() : null,
          h(
            "div",
            { class: "loo-controls" },
            button("Back", () => send({ type: "prev" }), { action: "prev", focusId: "prev" }),
            button("Start again", press("primary", restart), { action: "restart", focusId: "primary", kind: "primary" }),
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
      /** @type {Record<string, string>} */
      let marks = {};
      /** @type {Record<string, string>} */
      let badges = {};
      if (resp && q.multi) {
        ({ marks, badges } = choiceMarks(q, resp.picked, ["right", "wrong"]));
      } else if (resp) {
        for (const c of q.choices || []) {
          const ok = answer.includes(c.key);
          const mine = resp.picked.includes(c.key);
          if (ok) {
            marks[c.key] = "right";
            badges[c.key] = mine ? "\u2713 your pick: right" : "\u2713 right";
          } else if (mine) {
            marks[c.key] = "wrong";
            badges[c.key] = "\u2717 your pick: wrong";
          }
        }
      }
      /** @type {HTMLElement | null} */
      let feedback = null;
      let spoken = "";
      if (resp) {
        const headline = resp.picked.length
          ? resp.correct
            ? "\u2713 Right!"
            : "\u2717 Not right."
          : "Answer shown.";
        const shown = st.inspect !== null ? st.inspect : !q.multi && resp.picked.length ? resp.picked[0] : null;
        const missed = q.multi ? answer.filter((k) => !resp.picked.includes(k)) : [];
        feedback = h(
          "div",
          { class: "loo-feedback" },
          h("p", { class: "loo-prompt " + (resp.correct ? "loo-mark loo-right" : resp.picked.length ? "loo-mark loo-wrong" : ""), text: headline }),
          resp.picked.length && missed.length ? h("p", { class: "loo-missed-note", text: `You missed: ${missed.map((k) => choiceLabel(q, k)).join(", ")}.` }) : null,
          shown !== null ? drawVerdict(q, shown, verdicts[shown], ["right", "wrong"]) : null,
          h("p", {}, h("strong", { text: answer.length === 1 ? "The answer: " : "The answers: " }), answerText(q)),
          q.explanation ? h("p", { class: "loo-explanation", text: q.explanation }) : null,
          (q.rule_ids || []).length ? h("p", { class: "loo-cite" }, "Rules: ", (q.rule_ids || []).map((r) => h("span", { class: "loo-rule", text: r })).flatMap((x) => [x, " "])) : null,
          h("p", { class: "loo-muted loo-screen-only", text: "Click any choice to see why it is right or wrong." }),
        );
        spoken = `${headline} ${shown !== null ? speakVerdict(q, shown, verdicts[shown], ["right", "wrong"]) : ""} The answer: ${answerText(q)}.`;
      } else if (q.multi) {
        spoken = st.selected.length ? `Selected: ${st.selected.map((k) => choiceLabel(q, k)).join(", ")}` : "";
      }
      const last = st.index === n - 1;
      // focus: Check and (once answered) Next share the "primary" slot; after "Show the
      // answer", Next takes the slot of the button that was pressed
      const nextFocus = resp ? (lastControl === "show" ? "show" : "primary") : q.multi ? "next" : "primary";
      screen(
        head,
        h("p", { class: "loo-muted loo-quiz-tags" }, h("span", { class: "loo-tag", text: topicName(q.topic) }), q.level ? ` level ${q.level}` : "", q.preset ? ` \u00B7 rules: ${q.preset}` : ""),
        // one question, one screen: the prompt, the table with the choices in the seat to act
        // (its cards are the buttons), the controls; the feedback comes under them
        h("p", { class: "loo-prompt", text: q.prompt || "" }),
        questionTable(q, (size) =>
          drawChoices(q, {
            onPick: (key) => grade({ type: "choice", key }),
            marks,
            badges,
            pressed: q.multi && !resp ? st.selected : undefined,
            label: q.multi ? "choices: select all that apply" : "choices: click one",
            size,
          }),
        ),
        h(
          "div",
          { class: "loo-controls" },
          q.multi && !resp ? button("Check", press("primary", () => grade({ type: "check" })), { action: "check", focusId: "primary", kind: "primary", ariaDisabled: !st.selected.length }) : null,
          resp ? null : button("Show the answer", press("show", () => send({ type: "show" })), { action: "show", focusId: "show" }),
          st.index > 0 ? button("Back", press("prev", () => send({ type: "prev" })), { action: "prev", focusId: "prev" }) : null,
          button(last ? "See your score" : "Next question", press("primary", () => send({ type: "next" })), { action: "next", focusId: nextFocus, kind: resp ? "primary" : null }),
          d.live ? button("New questions", askNew, { focusId: "new", action: "new" }) : null,
          q.multi && !resp ? h("span", { class: "loo-muted loo-screen-only loo-how", text: "Select every right choice, then press Check." }) : null,
        ),
        tricksPlayed(q.view),
        feedback,
      );
      say(spoken);
    });
    addStyle(el);
    drawSheet();
    model.on("change:questions", drawSheet);
    model.on("change:data", () => {
      if (((model.get("data") || {}).class_code || "") !== sheetCode) drawSheet();
    });
    model.on("change:responses", noteSeconds);
    model.on("change:questions", bankChanged);
    // a code typed before the engine came, else the address's (#class=lead-10-42), else the code
    // this page had dealt before the engine took the widget over
    const d0 = model.get("data") || {};
    if (d0.banks || d0.class_code) {
      const fromHash = hashSeen ? null : hashCode((typeof location !== "undefined" && location.hash) || "");
      hashSeen = true;
      keep();
      const again = live() && applied && applied !== d0.class_code ? applied : null;
      const wanted = pending || (fromHash && fromHash.text) || again;
      if (fromHash && fromHash.error && !pending) {
        codeError = fromHash.error;
        keep();
        redraw();
      } else if (wanted && parseClassCode(wanted)?.code !== d0.class_code) {
        useCode(wanted);
      } else if (wanted && !parseClassCode(wanted)) {
        useCode(wanted); // refused in one line, in the widget
      } else if (pending) {
        pending = null;
        keep();
      }
      // a link followed on the open page (#class=… typed or clicked): the code is used as a
      // typed one is. Each render listens; one whose element the engine replaced lets go.
      const onHash = () => {
        if (!el.isConnected) {
          window.removeEventListener("hashchange", onHash);
          return;
        }
        const got = hashCode(location.hash);
        if (!got) return;
        if (got.error) {
          codeError = got.error;
          keep();
          redraw();
        } else if (got.text !== undefined) {
          useCode(got.text);
        }
      };
      if (typeof window !== "undefined") window.addEventListener("hashchange", onHash);
    }
  },
};
