// @ts-check
// Loo Lessons book: the reader's progress (kept in this browser only), and the one-line note
// that live controls need a web server when the book is opened from file://.
//
// window.looProgress — the small shared API (quiz/pick components may call it directly):
//   looProgress.record(lesson, questionId, correct, detail?)  an answer (correct: true/false)
//   looProgress.task(lesson, taskId, score, title)   a play-this-deal task played to the end
//   looProgress.stopped(lesson, anchor, title)                where the reader stopped
//   looProgress.save(lesson, componentId, state)              a component's state, to restore
//   looProgress.restore(lesson, componentId) -> state | null
//   looProgress.lesson()      this page's lesson key ("notebooks/05-leading"), or null
//   looProgress.all()         {lesson: record} for every lesson with progress
//   looProgress.reset(lesson?) forget one lesson, or everything
//   looProgress.onchange(f)   f() after any change (the progress page redraws)
//   looProgress.kept()        the loo-progress/1 record (progress/record.py), or null
//   looProgress.keep(record)  keep a loo-progress/1 record Python made (the practice's)
//   looProgress.answer(a)     add one graded answer to that record (its rules as Python gave them)
// Storage: localStorage["loo-progress:" + lesson] = JSON {title, url, updated, answers:
// {questionId: {correct, at}}, tasks: {taskId: {title, best, last}} (each attempt {result,
// baseline, tricks, looed, refused, undone, decisions, coach_choice, mistakes, given_up, forced,
// forced_found, stars, star_count, coach_summary, text, at}: the score as Python made it; its
// coach's part is the learner's decisions weighed against the coach's best; the best attempt
// has more stars, then more decisions that earned their mark (decided_well), never counters),
// components: {id: state}, stopped: {anchor, title}, asked: the page's graded items}; and
// localStorage["loo-progress/1"] =
// the record by rule (book/guides/progress-format.md), which the Practice page's Python keeps
// and the progress page downloads, loads and shows rule by rule; every graded answer of a
// lesson (a pick, a pool form, a quiz question, a task's decisions) is added to it here. Nothing
// is ever sent anywhere. The quiz, pick and pool components on a page are hooked here from
// outside, through the model they share with their renderer (window.looLessons): their
// answers are recorded and their state comes back on reload.
(function () {
  "use strict";
  const PREFIX = "loo-progress:";
  // the record by rule (loo-progress/1): one key, apart from the lessons' (PREFIX + lesson)
  const RECORD_KEY = "loo-progress/1";
  const MAX_ANSWERS = 20000; // the format's limit (progress/record.py)
  /** @type {(() => void)[]} */
  const listeners = [];

  function storage() {
    try {
      const s = window.localStorage;
      const probe = PREFIX + "probe";
      s.setItem(probe, "1");
      s.removeItem(probe);
      return s;
    } catch (e) {
      return null; // storage off (private mode, policy): progress is simply not kept
    }
  }

  function rootUrl() {
    // the book's root, from this script's own address (…/_static/loo-book.js)
    const me = /** @type {HTMLScriptElement | null} */ (document.querySelector('script[src*="loo-book.js"]'));
    if (!me) return null;
    return new URL("..", me.src);
  }

  function lesson() {
    const root = rootUrl();
    if (!root) return null;
    const here = new URL(window.location.href);
    here.hash = "";
    here.search = "";
    let rel = decodeURIComponent(here.pathname).slice(decodeURIComponent(root.pathname).length);
    rel = rel.replace(/\.html$/, "");
    return rel.startsWith("notebooks/") ? rel : null;
  }

  /**
   * @param {string | null} key
   * @returns {LooLessonRecord | null}
   */
  function read(key) {
    const s = storage();
    if (!s || !key) return null;
    try {
      const v = JSON.parse(s.getItem(PREFIX + key) || "null");
      return v && typeof v === "object" ? v : null;
    } catch (e) {
      return null;
    }
  }

  /**
   * @param {string} key
   * @param {LooLessonRecord} rec
   */
  function write(key, rec) {
    const s = storage();
    if (!s || !key) return;
    rec.updated = new Date().toISOString();
    try {
      s.setItem(PREFIX + key, JSON.stringify(rec));
    } catch (e) {
      return; // quota: keep going without saving
    }
    for (const f of listeners) f();
  }

  /**
   * @param {string} key
   * @returns {LooLessonRecord}
   */
  function record_(key) {
    const rec = read(key) || { answers: {}, components: {}, stopped: null, tasks: {} };
    rec.answers = rec.answers || {};
    rec.tasks = rec.tasks || {};
    rec.components = rec.components || {};
    if (key === lesson()) {
      const h1 = document.querySelector("main h1, article h1, h1");
      rec.title = h1 ? (h1.textContent || "").replace(/[#¶]\s*$/, "").trim() : key;
      rec.url = key + ".html";
    }
    return rec;
  }

  const TASK_FIELDS = ["result", "baseline", "tricks", "looed", "refused", "undone", "decisions",
    "coach_choice", "mistakes", "given_up", "forced", "forced_found", "stars", "star_count",
    "coach_summary", "text", "decided_well", "law_decisions", "law_found", "strategy_decisions",
    "strategy_choice"];

  /** @param {LooKeptScore | null | undefined} score */
  function stars(score) {
    return (score && typeof score.star_count === "number") ? score.star_count : 0;
  }

  /**
   * @param {unknown} raw
   * @returns {LooTaskRecord}
   */
  function taskRecord(raw) {
    // {title, best, last}; a record kept before best and last were (one score) is both
    if (!raw || typeof raw !== "object") return { title: null, best: null, last: null };
    const t = /** @type {Partial<LooTaskRecord>} */ (raw);
    if ("last" in t || "best" in t) return { title: t.title || null, best: t.best || null, last: t.last || null };
    return { title: null, best: /** @type {LooKeptScore} */ (raw), last: /** @type {LooKeptScore} */ (raw) };
  }

  /** @param {number} n */
  function starMarks(n) {
    return "★".repeat(n) + "☆".repeat(Math.max(0, 3 - n));
  }

  /** @type {LooProgress} */
  const api = {
    lesson,
    record(key, questionId, correct, detail) {
      const rec = record_(key);
      rec.answers[String(questionId)] = Object.assign({ correct: Boolean(correct), at: new Date().toISOString() }, detail || {});
      write(key, rec);
    },
    task(key, taskId, score, title) {
      // the best attempt (more stars, then more decisions well made: the learner, not the cards)
      // and the last, each as Python scored it
      const rec = record_(key);
      /** @type {LooKeptScore} */
      const keep = {};
      const given = /** @type {Record<string, unknown>} */ (score);
      for (const k of TASK_FIELDS) if (k in given) keep[k] = given[k];
      keep.at = new Date().toISOString();
      const old = taskRecord(rec.tasks[String(taskId)]);
      const oldBest = old.best;
      const better = !oldBest || stars(keep) > stars(oldBest) ||
        (stars(keep) === stars(oldBest) && (keep.decided_well ?? 0) > (oldBest.decided_well ?? 0));
      rec.tasks[String(taskId)] = { title: title || old.title || null, best: better ? keep : old.best, last: keep };
      write(key, rec);
    },
    forget(key, questionId) {
      const rec = read(key);
      if (!rec || !rec.answers || !(String(questionId) in rec.answers)) return;
      delete rec.answers[String(questionId)];
      write(key, rec);
    },
    stopped(key, anchor, title) {
      const rec = record_(key);
      if (rec.stopped && rec.stopped.anchor === anchor) return;
      rec.stopped = { anchor, title };
      write(key, rec);
    },
    save(key, id, state) {
      const rec = record_(key);
      rec.components[id] = state;
      write(key, rec);
    },
    restore(key, id) {
      const rec = read(key);
      return rec && rec.components && rec.components[id] ? rec.components[id] : null;
    },
    all() {
      const s = storage();
      /** @type {Record<string, LooLessonRecord>} */
      const out = {};
      if (!s) return out;
      for (let i = 0; i < s.length; i++) {
        const k = s.key(i);
        if (k && k.startsWith(PREFIX) && k !== PREFIX + "probe") {
          const v = read(k.slice(PREFIX.length));
          if (v) out[k.slice(PREFIX.length)] = v;
        }
      }
      return out;
    },
    reset(key) {
      const s = storage();
      if (!s) return;
      const keys = key ? [PREFIX + key] : [...Object.keys(api.all()).map((k) => PREFIX + k), RECORD_KEY];
      for (const k of keys) s.removeItem(k);
      for (const f of listeners) f();
    },
    onchange(f) {
      listeners.push(f);
    },
    kept() {
      const s = storage();
      if (!s) return null;
      try {
        const v = JSON.parse(s.getItem(RECORD_KEY) || "null");
        return v && typeof v === "object" && !Array.isArray(v) ? v : null;
      } catch (e) {
        return null; // damaged: Python says so when it reads it
      }
    },
    keep(record) {
      const s = storage();
      if (!s) return;
      try {
        s.setItem(RECORD_KEY, JSON.stringify(record));
      } catch (e) {
        return; // quota: the session goes on, unsaved
      }
      for (const f of listeners) f();
    },
    answer(item) {
      // one graded answer into the record by rule: appended as the format writes it (the
      // rules' state is Python's to derive again on its next read; the page computes none)
      const rec = api.kept() || { format: RECORD_KEY, answers: [], rules: {} };
      if (rec.format !== RECORD_KEY || !Array.isArray(rec.answers)) return; // damaged: kept as it is, Python says why
      const answers = /** @type {LooAnswer[]} */ (rec.answers);
      if (answers.some((a) => a && a.id === item.id && a.at === item.at)) return;
      answers.push(item);
      if (answers.length > MAX_ANSWERS) answers.splice(0, answers.length - MAX_ANSWERS);
      api.keep(rec);
    },
    available() {
      return storage() !== null;
    },
  };
  window.looProgress = api;

  // --- hooking the components ------------------------------------------------------------

  /** @typedef {{ name: string, el: HTMLElement | null, model: import("../../loo_lessons/widgets/js/types").Model }} Hooked */

  /** @type {Record<string, string[]>} */
  const KEPT = {
    quiz: ["index", "responses"],
    pick: ["picked", "current", "revealed"],
    pool: ["entries", "checked", "revealed"],
  };

  /** @param {Hooked} c */
  function signature(c) {
    // the same questions (a "New questions" deal is another quiz): restore only onto them
    const d = /** @type {Record<string, unknown> & { question?: Record<string, unknown> }} */ (c.model.get("data") || {});
    /** @type {{ id?: unknown, prompt?: unknown, answer?: unknown }[]} */
    const qs = c.name === "quiz" ? /** @type {Record<string, unknown>[]} */ (c.model.get("questions") || []) : [d.question || d];
    return JSON.stringify(qs.map((q) => [q.id || "", q.prompt || "", q.answer || ""])).slice(0, 4000);
  }

  const hooked = new WeakSet();

  /** Rule ids as Python gave them (a question's rule_ids, a verdict's rule), the format's way. */
  function ruleIds(/** @type {unknown} */ x) {
    return Array.isArray(x) ? [...new Set(x.filter((r) => typeof r === "string" && /^R\d\d$/.test(r)))].slice(0, 12) : [];
  }

  /**
   * One graded answer for the record by rule: its id scoped by the lesson (as the upgrade of
   * the lessons' older answers scopes it, so the two are one answer), its rules, right or
   * wrong, when, how long since `since` (ms), and a way back.
   * @param {{ key: string, id: string, kind: string, rules: unknown, correct: boolean, at: string, since: number | null, back: string, missed?: unknown }} a
   * @returns {LooAnswer}
   */
  function entry(a) {
    const secs = a.since === null ? null : Math.round(Math.min(86400, Math.max(0, (Date.parse(a.at) - a.since) / 1000)) * 10) / 10;
    const rules = ruleIds(a.rules);
    const missed = ruleIds(a.missed).filter((r) => rules.includes(r));
    /** @type {LooAnswer} */
    const out = { id: `${a.key}#${a.id}`.slice(0, 200), kind: a.kind, rules, correct: a.correct, at: a.at, seconds: secs,
      where: { page: a.key, back: a.back.slice(0, 200) } };
    if (!a.correct && missed.length) out.missed = missed;
    return out;
  }

  /**
   * The answers a component's change gave (a quiz question answered or shown, a pick or a form
   * checked), recorded in the lesson's record and in the record by rule; `before`, what was
   * graded already (restored, or recorded a moment ago), so each answer is recorded once.
   * @param {string} key
   * @param {Hooked} c
   * @param {string} id
   * @param {Set<string>} before
   * @param {{ since: number }} clock
   * @param {boolean} lessonToo
   */
  function gradeNew(key, c, id, before, clock, lessonToo) {
    const at = new Date().toISOString();
    /** @param {string} qid @param {string} kind @param {boolean} correct @param {unknown} rules @param {string} back @param {Record<string, unknown>} detail */
    const give = (qid, kind, correct, rules, back, detail) => {
      if (before.has(qid)) return;
      before.add(qid);
      if (lessonToo) api.record(key, qid, correct, Object.assign({ kind, at }, detail));
      api.answer(entry({ key, id: qid, kind, rules, correct, at, since: clock.since, back }));
      clock.since = Date.now();
    };
    if (c.name === "quiz") {
      const qs = /** @type {{ id?: string, rule_ids?: string[] }[]} */ (c.model.get("questions") || []);
      const rs = /** @type {({ picked?: unknown, correct?: unknown, revealed?: unknown } | null)[]} */ (c.model.get("responses") || []);
      qs.forEach((q, i) => {
        const r = rs[i];
        const qid = `${id}:${q.id || i}`;
        if (r && Array.isArray(r.picked) && r.picked.length) give(qid, "quiz", Boolean(r.correct), q.rule_ids, String(q.id || ""), {});
        else if (r && r.revealed) give(qid, "quiz", false, q.rule_ids, String(q.id || ""), { revealed: true });
      });
    } else if (c.name === "pick") {
      const q = /** @type {{ question?: { answer?: string[], rule_ids?: string[], id?: string } }} */ (c.model.get("data") || {}).question || {};
      const picked = /** @type {string[]} */ (c.model.get("picked") || []);
      const answer = q.answer || [];
      // every pick, one right answer or several, is graded on Check only (the selection
      // before it is a draft: widgets/controllers/pick.py)
      if (!c.model.get("revealed")) return;
      const same = picked.length === answer.length && picked.every((k) => answer.includes(k));
      // a pick made from a position has the id "pick" alone: the component's id is its way back
      give(id, "pick", picked.length > 0 && same, q.rule_ids, q.id && q.id !== "pick" ? q.id : id, picked.length ? {} : { revealed: true });
    } else if (c.name === "pool") {
      if (!c.model.get("checked") && !c.model.get("revealed")) return;
      const d = /** @type {{ fields?: { id: string }[], expected?: Record<string, unknown>, rule_ids?: string[] }} */ (c.model.get("data") || {});
      const entries = /** @type {Record<string, unknown>} */ (c.model.get("entries") || {});
      // the engine's settlement is in `expected`: a blank box counts as 0 (pool_results)
      const right = (d.fields || []).every((f) => (typeof entries[f.id] === "number" ? entries[f.id] : 0) === (d.expected || {})[f.id]);
      give(id, "pool", Boolean(c.model.get("checked")) && !c.model.get("revealed") ? right : false, d.rule_ids, id, {});
    }
  }

  /**
   * What a component's state has graded already (restored on reload: never recorded again).
   * @param {Hooked} c
   * @param {string} id
   * @returns {Set<string>}
   */
  function gradedIn(c, id) {
    const out = new Set();
    if (c.name === "quiz") {
      const qs = /** @type {{ id?: string }[]} */ (c.model.get("questions") || []);
      const rs = /** @type {({ picked?: unknown, revealed?: unknown } | null)[]} */ (c.model.get("responses") || []);
      qs.forEach((q, i) => {
        const r = rs[i];
        if (r && ((Array.isArray(r.picked) && r.picked.length) || r.revealed)) out.add(`${id}:${q.id || i}`);
      });
    } else if (c.name === "pick" ? c.model.get("revealed") : (c.model.get("checked") || c.model.get("revealed"))) out.add(id);
    return out;
  }

  // --- the Practice page: its Python keeps the record, the page keeps it in this browser ---

  /** The lessons' older answers, {lesson: {answers}} (Python upgrades them into the record). */
  function lessonAnswers() {
    /** @type {Record<string, { answers: LooLessonRecord["answers"] }>} */
    const out = {};
    for (const [k, r] of Object.entries(api.all())) if (r.answers && Object.keys(r.answers).length) out[k] = { answers: r.answers };
    return out;
  }

  /** The rules a class link names (`#practice=R24,R32`), as typed: Python checks them. */
  function linkRules() {
    const m = /(?:^#|&)practice=([^&]*)/.exec(window.location.hash);
    if (!m) return null;
    /** @type {string} */
    let text;
    try {
      text = decodeURIComponent(m[1]);
    } catch (e) {
      return null; // a link mangled on the way: practise what is due
    }
    const ids = text.split(/[,\s]+/).filter(Boolean).map((r) => r.slice(0, 4));
    return ids.length ? ids.slice(0, 63) : null;
  }

  /** A mistake to look at again (`#back=quiz:lead:2:1234`, the progress page's link), as typed. */
  function linkBack() {
    const m = /(?:^#|&)back=([^&]{1,40})/.exec(window.location.hash);
    return m ? m[1].replace(/%3A/gi, ":") : null;
  }

  /** @param {{ el: HTMLElement | null, model: import("../../loo_lessons/widgets/js/types").Model }} c */
  function hookPractice(c) {
    if (!c.model || typeof c.model.on !== "function" || hooked.has(c.model)) return;
    hooked.add(c.model);
    const model = /** @type {import("../../loo_lessons/widgets/js/types").Model<import("../../loo_lessons/widgets/js/types").PracticeTraits>} */ (
      /** @type {unknown} */ (c.model));
    let loaded = false;
    const load = () => {
      const prev = model.get("request");
      const n = prev && typeof prev.n === "number" ? prev.n : 0;
      loaded = true;
      model.set("request", { type: "load", record: api.kept(), lessons: lessonAnswers(), rules: linkRules(), back: linkBack(), n: n + 1 });
      model.save_changes();
    };
    const count = (/** @type {unknown} */ r) => {
      const a = r && typeof r === "object" ? /** @type {{ answers?: unknown }} */ (r).answers : null;
      return Array.isArray(a) ? a.length : 0;
    };
    model.on("change:data", () => {
      const d = model.get("data") || {};
      // Python's record holds what was kept and more (a merge never loses an answer): kept only
      // once the page's own record was handed over, and never one with fewer answers
      if (loaded && d.record && count(d.record) >= count(api.kept())) api.keep(d.record);
    });
    window.addEventListener("hashchange", load);
    load();
  }

  // A play-this-deal task (a play component whose data has a task): its score, once the deal
  // is over, is kept under the task's name (the score is computed in Python, not here).
  /**
   * @param {string} key
   * @param {Hooked} c
   */
  function hookTask(key, c) {
    // a score seen already (the one the page opened with, or noted a moment ago): its
    // decisions are in the record once
    let seen = "";
    const note = () => {
      const d = /** @type {import("../../loo_lessons/widgets/js/types").PlayData} */ (c.model.get("data") || {});
      const t = d.task || null;
      if (!t || !t.id || !t.score) {
        seen = ""; // a deal begun again: its next score is another attempt
        return;
      }
      api.task(key, t.id, t.score, d.title || null);
      const asked = /** @type {{ move?: number, law?: boolean, rules?: string[], correct?: boolean, found?: boolean, choice?: boolean }[]} */ (
        /** @type {{ asked?: unknown }} */ (t.score).asked || []);
      const mark = JSON.stringify(asked);
      if (mark === seen) return;
      seen = mark;
      const at = new Date().toISOString();
      // each decision she was asked, with the rules of the engine's verdicts and Python's mark
      // (the law's move found first time, the coach's choice): one answer each; how long each
      // took is not measured (the deal's pace is the table's, not the decision's)
      for (const a of Array.isArray(asked) ? asked : []) {
        const correct = typeof a.correct === "boolean" ? a.correct : Boolean((a.found ?? true) && (a.choice ?? true));
        api.answer(entry({ key, id: `${t.id}:${a.move ?? 0}`, kind: "task-decision", rules: a.rules, correct, at,
          since: null, back: t.id }));
      }
    };
    c.model.on("change:data", note);
    note();
  }

  /**
   * @param {string} key
   * @param {{ name?: string, kind?: string, el: HTMLElement | null, model: import("../../loo_lessons/widgets/js/types").Model }} item
   * @param {number} n
   */
  function hook(key, item, n) {
    // window.looLessons holds {name, el, model} (the static components), window.looLive
    // {kind, el, model} (the same elements once the engine drives them)
    /** @type {Hooked} */
    const c = { name: item.name || item.kind || "", el: item.el, model: item.model };
    if (c.name === "play" && c.model && typeof c.model.on === "function" && !hooked.has(c.model)) {
      hooked.add(c.model);
      hookTask(key, c);
      return;
    }
    const keep = KEPT[c.name];
    if (!keep || !c.model || typeof c.model.on !== "function" || hooked.has(c.model)) return;
    hooked.add(c.model);
    if (c.el) c.el.setAttribute("data-loo-progress", "");
    const id = (c.el && c.el.getAttribute("data-loo-id")) || `${c.name}-${n}`;
    const sig = signature(c);
    const saved = api.restore(key, id);
    if (saved && saved.signature === sig) {
      for (const k of keep) if (k in saved.state) c.model.set(k, saved.state[k]);
    }
    // what was graded before (restored): recorded once already; the clock of the next answer
    let graded = gradedIn(c, id);
    let dealt = sig;
    const clock = { since: Date.now() };
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        /** @type {Record<string, unknown>} */
        const state = {};
        for (const k of keep) state[k] = c.model.get(k);
        const now = signature(c);
        if (now !== dealt) { // "New questions": another quiz, graded afresh from here
          dealt = now;
          graded = gradedIn(c, id);
          clock.since = Date.now();
        }
        // a pick tried again (reset): its next Check is another answer, the earlier one kept
        if (c.name !== "quiz" && !gradedIn(c, id).size) graded.delete(id);
        if (now === sig) api.save(key, id, { signature: sig, name: c.name, state });
        usedHere(key, c.el);
        // the questions dealt anew are not the lesson's (its record keeps the page's own), but
        // every answer to them is in the record by rule
        gradeNew(key, c, id, graded, clock, now === sig);
      }, 30);
    };
    for (const k of keep) c.model.on(`change:${k}`, changed);
  }

  /**
   * The widget she used last is where she stopped: its section, by its heading.
   * @param {string} key
   * @param {HTMLElement | null} at
   */
  function usedHere(key, at) {
    const section = at ? at.closest("section[id]") : null;
    const head = section ? section.querySelector("h1, h2, h3") : null;
    if (!section || !head) return;
    api.stopped(key, section.id, (head.textContent || "").replace(/[#¶]\s*$/, "").trim());
  }

  /** A lesson opened again: "Continue where you stopped", a link to that section. */
  function offerContinue() {
    const key = lesson();
    const rec = key ? read(key) : null;
    const stop = rec && rec.stopped;
    if (!stop || !stop.anchor || window.location.hash) return;
    const target = document.getElementById(stop.anchor);
    const h1 = document.querySelector("main h1, article h1");
    if (!target || !h1 || document.querySelector(".loo-continue")) return;
    h1.after(el("p", { class: "loo-continue", "data-anchor": stop.anchor },
      el("a", { href: "#" + stop.anchor, class: "loo-continue-link" }, `Continue where you stopped: ${stop.title || stop.anchor}`)));
  }

  /** How many graded items the lesson's page holds (its questions, picks and forms): the
   * progress page says which lessons are not yet finished. */
  function countAsked() {
    const key = lesson();
    if (!key || !api.available()) return;
    let n = 0;
    for (const c of window.looLessons || []) {
      if (c.name === "quiz") n += (/** @type {unknown[]} */ (c.model.get("questions") || [])).length;
      else if (c.name === "pick" || c.name === "pool") n += 1;
    }
    const rec = record_(key);
    if (rec.asked !== n) {
      rec.asked = n;
      write(key, rec);
    }
  }

  function hookAll() {
    const key = lesson();
    if (!key || !api.available()) return;
    (window.looLessons || []).forEach((c, n) => hook(key, c, n));
    (window.looLive || []).forEach((c, n) => hook(key, c, n));
  }

  function trackPlace() {
    const key = lesson();
    if (!key || !api.available()) return;
    const heads = () => Array.from(document.querySelectorAll("main section[id] > h2, main section[id] > h3, article section[id] > h2"));
    let pending = false;
    const note = () => {
      pending = false;
      /** @type {Element | null} */
      let best = null;
      for (const hd of heads()) if (hd.getBoundingClientRect().top < 120) best = hd;
      if (!best || !best.parentElement) return;
      const title = (best.textContent || "").replace(/[#¶]\s*$/, "").trim();
      api.stopped(key, best.parentElement.id, title);
    };
    // only the reader's own scrolling says where he stopped: not the browser restoring the
    // place on a reload, nor the page moving as its widgets come alive
    let touched = 0;
    for (const kind of ["wheel", "touchmove", "keydown", "pointerdown"]) {
      window.addEventListener(kind, () => { touched = Date.now(); }, { passive: true, capture: true });
    }
    window.addEventListener("scroll", () => {
      if (!pending && Date.now() - touched < 2000) {
        pending = true;
        setTimeout(note, 400);
      }
    }, { passive: true });
    if (!read(key)) write(key, record_(key)); // the page was opened: it shows on the progress page
  }

  // --- file:// : live controls need a server ---------------------------------------------

  const SERVE_NOTE = "Live controls need the book opened through a web server: run make serve-book and open http://127.0.0.1:8000/";

  function fileNote() {
    if (window.location.protocol !== "file:") return;
    document.documentElement.classList.add("loo-from-file");
    // live widgets say it themselves (js/engine.js); the older notes and the playground here
    for (const node of document.querySelectorAll(".loo-live-note, [data-loo-playground]")) {
      if (node.closest("[data-loo-live]")) continue;
      if (node.previousElementSibling && node.previousElementSibling.classList.contains("loo-serve-note")) continue;
      const p = document.createElement("p");
      p.className = "loo-serve-note";
      p.setAttribute("role", "note");
      p.append("Live controls need the book opened through a web server: run ");
      const code = document.createElement("code");
      code.textContent = "make serve-book";
      p.append(code, " and open http://127.0.0.1:8000/");
      node.parentNode?.insertBefore(p, node);
    }
  }
  api.serveNote = SERVE_NOTE;

  // --- the "my progress" page -------------------------------------------------------------

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag
   * @param {Record<string, string>} attrs
   * @param {...(Node | string | null | undefined)} kids
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }

  /**
   * The book's lessons not yet finished (not opened, or a question on it not answered yet), in
   * the book's order (its table of contents), each a link to where she stopped.
   * @param {Record<string, LooLessonRecord>} all
   */
  function unfinished(all) {
    const root = rootUrl();
    /** @type {Map<string, string>} */
    const lessons = new Map();
    for (const a of Array.from(document.querySelectorAll(".bd-sidenav a[href]"))) {
      const url = new URL(/** @type {HTMLAnchorElement} */ (a).href);
      const rel = root ? decodeURIComponent(url.pathname).slice(decodeURIComponent(root.pathname).length).replace(/\.html$/, "") : "";
      if (rel.startsWith("notebooks/") && !lessons.has(rel)) lessons.set(rel, (a.textContent || rel).trim());
    }
    const items = [];
    for (const [k, title] of lessons) {
      const r = all[k];
      const done = r ? Object.keys(r.answers || {}).length : 0;
      const asked = r && typeof r.asked === "number" ? r.asked : null;
      if (r && asked !== null && done >= asked) continue;
      const href = (root ? new URL(k + ".html", root).href : k + ".html") + (r && r.stopped && r.stopped.anchor ? "#" + r.stopped.anchor : "");
      const said = !r ? "not opened yet" : asked === null ? "opened" : `${done} of ${asked} answered`;
      items.push(el("li", { "data-lesson": k }, el("a", { href }, title), ` (${said})`));
    }
    return el("div", { class: "loo-progress-unfinished", "data-unfinished": String(items.length) },
      el("h3", {}, "Lessons not yet finished"),
      items.length ? el("ul", {}, ...items) : el("p", {}, "Every lesson is finished: practise what is due."));
  }

  function progressPage() {
    const box = document.getElementById("loo-progress-table");
    if (!box) return;
    const root = rootUrl();
    const draw = () => {
      const all = api.all();
      const keys = Object.keys(all).sort();
      box.replaceChildren();
      if (!api.available()) {
        box.append(el("p", { class: "loo-progress-none" }, "This browser keeps no local storage here, so progress cannot be kept."));
        return;
      }
      if (!keys.length) {
        box.append(el("p", { class: "loo-progress-none" }, "Nothing yet: open a lesson and answer a question, and it shows here."));
        return;
      }
      let right = 0;
      let answered = 0;
      let played = 0;
      const rows = keys.map((k) => {
        const r = all[k];
        const answers = Object.values(r.answers || {});
        const ok = answers.filter((a) => a.correct).length;
        const tasks = Object.entries(r.tasks || {});
        right += ok;
        answered += answers.length;
        played += tasks.length;
        // each task by its title (never its id): the last attempt, and the best when it differs
        const signed = (/** @type {number | undefined} */ n) => `${n !== undefined && n > 0 ? "+" : ""}${n}`;
        const said = (/** @type {LooKeptScore} */ t) => `${starMarks(stars(t))} ${signed(t.result)}` +
          (t.coach_summary ? `, ${t.coach_summary}` : "");
        let best = 0;
        const taskCell = tasks.length
          ? tasks.map(([, raw], i) => {
              const t = taskRecord(raw);
              best = Math.max(best, stars(t.best));
              const name = t.title || `task ${i + 1}`;
              const last = t.last ? `last ${said(t.last)}` : "";
              return t.best && t.best !== t.last && JSON.stringify(t.best) !== JSON.stringify(t.last)
                ? `${name}: ${last}; best ${said(t.best)}`
                : `${name}: ${last}`;
            }).join("; ")
          : "—";
        const href = root ? new URL(r.url || k + ".html", root).href : k + ".html";
        const stop = r.stopped && r.stopped.anchor
          ? el("a", { href: href + "#" + r.stopped.anchor }, r.stopped.title || r.stopped.anchor)
          : "—";
        return el("tr", { "data-lesson": k },
          el("th", { scope: "row" }, el("a", { href }, r.title || k)),
          el("td", { "data-right": String(ok) }, String(ok)),
          el("td", { "data-answered": String(answers.length) }, String(answers.length)),
          el("td", { "data-tasks": String(tasks.length) }, taskCell),
          el("td", { "data-stars": String(tasks.length ? best : 0), "aria-label": `${tasks.length ? best : 0} of 3 stars` }, tasks.length ? starMarks(best) : "—"),
          el("td", {}, stop),
          el("td", {}, r.updated ? r.updated.slice(0, 16).replace("T", " ") : ""));
      });
      box.append(
        el("p", { class: "loo-progress-total", "data-right": String(right), "data-answered": String(answered), "data-played": String(played) },
          `${right} right out of ${answered} answered, ${played} deal${played === 1 ? "" : "s"} played in tasks, in ${keys.length} lesson${keys.length === 1 ? "" : "s"}.`),
        el("table", { class: "loo-progress-grid" },
          el("thead", {}, el("tr", {}, ...["Lesson", "Right", "Answered", "Tasks played (the stars, your result; your decisions)", "Stars (the best task)", "Where you stopped", "Last change (UTC)"].map((t) => el("th", { scope: "col" }, t)))),
          el("tbody", {}, ...rows)),
        unfinished(all));
    };
    draw();
    api.onchange(draw);
    window.addEventListener("storage", draw);
    const reset = document.getElementById("loo-progress-reset");
    const status = document.getElementById("loo-progress-status");
    if (reset) reset.addEventListener("click", () => {
      api.reset();
      if (status) status.textContent = "Your progress is forgotten.";
    });
  }

  // --- the progress page's record by rule: download, load, and how sure of each rule -------

  /** What this browser keeps as one file: the record, and the lessons' older answers when
   * there are any (Python reads both: book/guides/progress-format.md). */
  function progressFile() {
    const rec = api.kept();
    const old = lessonAnswers();
    if (!Object.keys(old).length) return rec || { format: "loo-progress/1", answers: [], rules: {} };
    return rec ? null : old; // both: the engine makes them one record first (ruleTable)
  }

  /**
   * @param {string} name
   * @param {string} text
   */
  function download(name, text) {
    const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const a = el("a", { href: url, download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /**
   * The engine's answer to one of the progress page's questions (backends/browser.py
   * progress_merge, progress_summary), or the line saying why there is none.
   * @param {string} name
   * @param {Record<string, unknown>} args
   * @returns {Promise<Record<string, any>>}
   */
  async function askEngine(name, args) {
    const engine = window.looEngine;
    if (!engine) return { ok: false, error: "the engine is not on this page" };
    try {
      await engine.start();
      const out = /** @type {Record<string, any>} */ (await engine.run(name, args));
      return out && typeof out === "object" ? out : { ok: false, error: "no answer" };
    } catch (e) {
      return { ok: false, error: engine.state === "file" ? (api.serveNote || "the engine needs a web server") : String(/** @type {Error} */ (e).message || e) };
    }
  }

  /** @param {Record<string, any>} row one rule of progress/mastery.py's summary */
  function ruleRow(row) {
    const root = rootUrl();
    const practice = root ? new URL(`book/practice.html#practice=${row.rule}`, root).href : `practice.html#practice=${row.rule}`;
    /** @type {Record<string, any>[]} */
    const mistakes = Array.isArray(row.mistakes) ? row.mistakes : [];
    const back = mistakes.slice(0, 3).map((m) => {
      const page = String(m.page || "");
      const again = String(m.back || "").startsWith("quiz:") ? practice.replace(/#.*$/, `#back=${m.back}`) : practice;
      const href = page.startsWith("notebooks/") && root ? new URL(page + ".html", root).href : again;
      return el("li", {}, el("a", { href }, page === "practice" || !page ? "a practice position" : page.replace(/^notebooks\//, "lesson ")),
        ` ${String(m.at || "").slice(0, 16).replace("T", " ")}`);
    });
    return el("tr", { "data-rule": String(row.rule), "data-sure": String(row.sure), "data-due": String(Boolean(row.due)) },
      el("th", { scope: "row" }, el("span", { class: "loo-rule" }, String(row.rule)), ` ${row.words || ""}`),
      el("td", {}, `${row.sure}%`),
      el("td", {}, row.due ? "due now" : `due ${String(row.due_at || "").slice(0, 10)}`),
      el("td", {}, `${row.right} right, ${row.wrong} wrong`),
      el("td", {}, mistakes.length ? el("ul", { class: "loo-progress-mistakes" }, ...back) : "none"),
      el("td", {}, el("a", { href: practice }, "practise")));
  }

  async function ruleTable() {
    const box = document.getElementById("loo-progress-rules");
    if (!box || !api.available()) return;
    const rec = api.kept();
    const lessons = lessonAnswers();
    if (!rec && !Object.keys(lessons).length) {
      box.replaceChildren(el("p", {}, "No rule yet: answer a question, or practise, and each rule you meet shows here."));
      return;
    }
    box.replaceChildren(el("p", { class: "loo-muted" }, "Working out how sure you are of each rule\u2026"));
    const out = await askEngine("progress_summary", { record: rec, lessons });
    if (!out.ok) {
      box.replaceChildren(el("p", { class: "loo-progress-none" }, `The table by rule needs the engine: ${out.error}`));
      return;
    }
    /** @type {Record<string, any>[]} */
    const rows = out.rows || [];
    const due = Array.isArray(out.due) ? out.due : [];
    const root = rootUrl();
    const practice = root ? new URL("book/practice.html", root).href : "practice.html";
    box.replaceChildren(
      el("p", { class: "loo-progress-due", "data-due": String(due.length) },
        due.length ? `Due today: ${due.join(", ")}. ` : "Nothing is due today. ",
        el("a", { href: practice }, due.length ? "Practise them" : "Practise ahead")),
      el("div", { class: "loo-progress-wide" }, el("table", { class: "loo-progress-grid loo-progress-by-rule" },
        el("thead", {}, el("tr", {}, ...["Rule", "How sure", "Next", "Answers", "Mistakes", ""].map((t) => el("th", { scope: "col" }, t)))),
        el("tbody", {}, ...rows.map(ruleRow)))));
  }

  function recordButtons() {
    const down = document.getElementById("loo-progress-download");
    const load = /** @type {HTMLInputElement | null} */ (document.getElementById("loo-progress-load"));
    const status = document.getElementById("loo-progress-file-status");
    const say = (/** @type {string} */ text) => { if (status) status.textContent = text; };
    if (down) down.addEventListener("click", async () => {
      let file = progressFile();
      if (file === null) { // the record and older answers: one record, made by Python
        const out = await askEngine("progress_summary", { record: api.kept(), lessons: lessonAnswers() });
        if (!out.ok) return say(`Could not make the file: ${out.error}`);
        file = out.record;
      }
      download("loo-progress.json", JSON.stringify(file, null, 1) + "\n");
      say("Downloaded loo-progress.json: load it in JupyterLab (L.merge_progress) or in another browser's progress page.");
    });
    if (load) load.addEventListener("change", async () => {
      const f = load.files && load.files[0];
      if (!f) return;
      if (f.size > 8_000_000) return say(`${f.name}: larger than 8 MB, not loaded.`);
      const text = await f.text();
      say(`Reading ${f.name}\u2026`);
      const out = await askEngine("progress_merge", { record: api.kept(), lessons: lessonAnswers(), text });
      load.value = "";
      if (!out.ok) return say(`${f.name} was not loaded: ${out.error}`);
      api.keep(out.record);
      say(`${f.name} loaded: ${out.added} answer${out.added === 1 ? "" : "s"} added, ${out.answers} in all.`);
      ruleTable();
    });
  }

  // The theme's own controls named as they read (WCAG 2.5.3, "label in name"): a button or a
  // toggle whose aria-label leaves out its visible words ("Search" over "Search Ctrl+K",
  // "Toggle hidden content" over "Show code") is named by those words; an icon's tooltip
  // title inside a labelled button is not read as part of its name.
  function nameAsShown() {
    for (const node of document.querySelectorAll("button[aria-label], summary[aria-label]")) {
      if (node.closest(".loo")) continue; // the lessons' own components name themselves
      for (const icon of node.querySelectorAll("i[title], span.fa-solid, i.fa-solid")) icon.setAttribute("aria-hidden", "true");
      const shown = (/** @type {HTMLElement} */ (node).innerText || "").replace(/\s+/g, " ").trim();
      const label = (node.getAttribute("aria-label") || "").toLowerCase();
      if (shown && !label.includes(shown.toLowerCase())) node.removeAttribute("aria-label");
    }
  }

  function start() {
    nameAsShown();
    window.addEventListener("load", () => setTimeout(nameAsShown, 0));
    fileNote();
    progressPage();
    if (document.getElementById("loo-progress-rules")) {
      ruleTable();
      recordButtons();
    }
    hookAll();
    countAsked();
    offerContinue();
    trackPlace();
    // components mounted later (the live engine's, window.looLive) hook themselves when
    // they are pushed
    window.looLessons = window.looLessons || [];
    window.looLive = window.looLive || [];
    for (const looList of [window.looLessons, window.looLive]) {
      /** @type {{ name?: string, kind?: string, el: HTMLElement, model: import("../../loo_lessons/widgets/js/types").Model }[]} */
      const list = looList;
      const push = list.push.bind(list);
      list.push = (...items) => {
        const r = push(...items);
        for (const c of items) if (c.name === "practice" || c.kind === "practice") hookPractice(c);
        const key = lesson();
        if (key && api.available()) items.forEach((c) => hook(key, c, list.indexOf(c)));
        return r;
      };
    }
    document.dispatchEvent(new CustomEvent("loo-progress-ready"));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
