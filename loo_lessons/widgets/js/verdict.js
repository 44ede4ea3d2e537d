// @ts-check
// Helpers shared by `pick` and `quiz`: the clickable choices of a question, and a verdict
// (rule id, plain reason, the book's words). Verdicts come precomputed from the engine.
import { h, cardEl, cardLabel, button, lawLines } from "./cards.js";
import { compactTable } from "./table.js";

/** @typedef {import("./types").Question} Question */
/** @typedef {import("./types").Verdict} Verdict */
/** @typedef {string[]} YesNo  the words for right and wrong: [yes, no] */

/**
 * @param {Question} q
 * @param {string} key
 * @returns {string}
 */
export function choiceLabel(q, key) {
  for (const c of q.choices || []) if (c.key === key) return c.label || key;
  return q.kind === "pick_card" ? cardLabel(key) : key;
}

// marks: {key: "right" | "wrong" | "missed"}; badges: {key: text}; pressed: array of keys
// (multi-select drafts) or null.
/**
 * @param {Question} q
 * @param {import("./types").ChoiceOpts} opts
 */
export function drawChoices(q, opts) {
  const o = /** @type {import("./types").ChoiceOpts} */ (opts || {});
  const marks = o.marks || {};
  const badges = o.badges || {};
  const cards = q.kind === "pick_card";
  const items = (q.choices || []).map((c) => {
    const pressed = o.pressed ? o.pressed.includes(c.key) : undefined;
    if (cards) {
      return cardEl(c.key, {
        size: o.size || "large",
        onClick: () => o.onPick(c.key),
        key: c.key,
        focusId: `choice-${c.key}`,
        pressed,
        state: marks[c.key] || null,
        badge: badges[c.key] || null,
      });
    }
    const badge = badges[c.key] ? ` ${badges[c.key]}` : "";
    return button(`${c.label || c.key}${badge}`, () => o.onPick(c.key), {
      key: c.key,
      focusId: `choice-${c.key}`,
      pressed,
      state: marks[c.key] || null,
    });
  });
  return h(
    "div",
    { class: "loo-row loo-choices", role: "group", "aria-label": o.label || "choices" },
    items,
  );
}

// A question's table and its choices, one question on one screen (table.js compactTable): the
// seat to act is drawn whole; when the choices are its cards they are its cards (drawn once,
// as the buttons), when they are its declarations they sit in it under its cards; any other
// choices (cards of the trick, numbers) come under the table. The cards stay large (a class
// projects them); on a phone the compact table draws them smaller. Returns [table, choices
// left to draw under it, or null].
/**
 * @param {import("./types").ShownQuestion} q
 * @param {(size: import("./types").Size) => HTMLElement} choices the choices drawn at a size
 * @returns {[HTMLElement | null, HTMLElement | null]}
 */
export function questionTable(q, choices) {
  const view = q.view;
  if (!view) return [null, choices("large")];
  const me = (view.seats || []).find((s) => s.seat === view.to_act);
  const keys = (q.choices || []).map((c) => c.key);
  const held = me && Array.isArray(me.cards) ? me.cards : null;
  const hand = q.kind === "pick_card" && held !== null && keys.length > 0 && keys.every((k) => held.includes(k));
  if (!me || (q.kind === "pick_card" && !hand)) return [compactTable(view, me ? { seat: me.seat, node: null } : null), choices("large")];
  const node = h(
    "div",
    { class: "loo-own", "data-own-seat": me.seat },
    hand ? null : held && held.length ? h("div", { class: "loo-row", role: "group", "aria-label": `seat ${me.seat}'s cards` }, held.map((c) => cardEl(c, { size: "small" }))) : null,
    choices("large"),
  );
  return [compactTable(view, { seat: me.seat, node }), null];
}

// One verdict. `words` = [yes, no], e.g. ["allowed", "not allowed"] or ["right", "wrong"].
/**
 * @param {Question} q
 * @param {string} key
 * @param {Verdict | null | undefined} v
 * @param {YesNo} [words]
 */
export function drawVerdict(q, key, v, words) {
  const [yes, no] = words || ["right", "wrong"];
  const label = choiceLabel(q, key);
  if (!v) {
    return h("div", { class: "loo-verdict" }, h("div", { class: "loo-verdict-head", text: label }));
  }
  const ok = Boolean(v.correct);
  return h(
    "div",
    { class: "loo-verdict " + (ok ? "loo-right" : "loo-wrong"), "data-verdict": key },
    h("div", { class: "loo-verdict-head", text: `${ok ? "\u2713" : "\u2717"} ${label}: ${ok ? yes : no}` }),
    lawLines(v),
  );
}

/**
 * @param {Question} q
 * @param {string} key
 * @param {Verdict | null | undefined} v
 * @param {YesNo} [words]
 */
export function speakVerdict(q, key, v, words) {
  const [yes, no] = words || ["right", "wrong"];
  if (!v) return choiceLabel(q, key);
  return `${choiceLabel(q, key)}: ${v.correct ? yes : no}. ${v.rule_id || ""} ${v.reason || ""}`.trim();
}

/** @param {Question} q */
export function answerText(q) {
  const keys = q.answer || [];
  return keys.map((k) => choiceLabel(q, k)).join(", ");
}

// Marks after a several-answer question is checked: each right choice picked is "right",
// each right choice not picked is "missed" (never a plain button), each wrong choice picked
// is "wrong"; a wrong choice left alone keeps no mark but says so. `picked` is the selection.
/**
 * @param {Question} q
 * @param {string[]} picked
 * @param {YesNo} [words]
 * @returns {import("./types").Marks}
 */
export function choiceMarks(q, picked, words) {
  const [yes, no] = words || ["right", "wrong"];
  const answer = q.answer || [];
  /** @type {Record<string, string>} */
  const marks = {};
  /** @type {Record<string, string>} */
  const badges = {};
  for (const c of q.choices || []) {
    const ok = answer.includes(c.key);
    const mine = picked.includes(c.key);
    if (!picked.length) {
      // "Show the answer" before any pick: nothing was missed, the answer is shown
      if (ok) marks[c.key] = "right";
      badges[c.key] = ok ? `\u2713 ${yes}` : `\u2717 ${no}`;
    } else if (ok && mine) {
      marks[c.key] = "right";
      badges[c.key] = `\u2713 ${yes} \u00B7 your pick`;
    } else if (ok) {
      marks[c.key] = "missed";
      badges[c.key] = `\u2713 ${yes} \u00B7 you missed it`;
    } else if (mine) {
      marks[c.key] = "wrong";
      badges[c.key] = `\u2717 ${no} \u00B7 your pick`;
    } else {
      badges[c.key] = `\u2717 ${no}`;
    }
  }
  return { marks, badges };
}

// What `pick` and `quiz` add to the shared style: a missed text choice looks missed (not
// plain), and on paper the controls go while the cards and positions stay.
export const CHOICE_STYLE = `
.loo .loo-btn.loo-missed { color: var(--loo-right-fg); background: var(--loo-right-bg); border-style: dashed; border-width: 2px; }
.loo .loo-print { display: none; }
.loo .loo-class { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 4px 0 10px; }
.loo .loo-class label { display: inline-flex; gap: 6px; align-items: center; }
.loo .loo-class input { font: inherit; padding: 4px 6px; border: 1px solid var(--loo-border); border-radius: 4px; min-width: 9em; }
.loo .loo-sendback textarea { width: 100%; font-family: monospace; font-size: .9em; }
.loo .loo-print-q { break-inside: avoid; page-break-inside: avoid; margin: 0 0 8px; padding-bottom: 6px; border-bottom: 1px solid var(--loo-border); }
.loo .loo-print-q h4 { margin: 0 0 4px; break-after: avoid; }
.loo .loo-print-body { display: flex; gap: 14px; align-items: flex-start; }
.loo .loo-print-table { flex: 0 0 auto; zoom: .5; }
.loo .loo-print-ask { flex: 1 1 0; min-width: 0; }
.loo .loo-print-ask .loo-prompt { margin: 0 0 4px; font-size: 1em; font-weight: 400; }
.loo .loo-print-key { break-before: page; page-break-before: always; }
.loo .loo-print ol.loo-print-choices { margin: 4px 0 0 1.6em; padding: 0; }
.loo .loo-print ol.loo-print-choices > li { margin: 2px 0; }
.loo .loo-print ol.loo-print-cards { display: flex; flex-wrap: wrap; gap: 4px 22px; margin-left: 0; list-style-position: inside; }
.loo .loo-print ol.loo-print-cards > li { display: flex; align-items: center; gap: 4px; }
.loo .loo-print .loo-tick { font-size: 1.25em; line-height: 1; }
@media print {
  .loo .loo-controls, .loo .loo-class, .loo .loo-sendback, .loo .loo-progress { display: none !important; }
  .loo .loo-quiz-screen { display: none !important; }
  .loo .loo-print { display: block !important; font-size: 10.5pt; }
  .loo .loo-btn { border: 1px solid #888; background: none; color: inherit; }
  /* the table on paper: ink for the cards, not for the felt */
  .loo .loo-print .loo-felt { background: none; color: inherit; border: 2px solid #555; }
  .loo .loo-print .loo-felt .loo-caption, .loo .loo-print .loo-felt .loo-muted { color: inherit; }
}
`;

/** @param {HTMLElement} el */
export function addStyle(el) {
  const s = document.createElement("style");
  s.textContent = CHOICE_STYLE;
  el.append(s);
}
