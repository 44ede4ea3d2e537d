// Helpers shared by `pick` and `quiz`: the clickable choices of a question, and a verdict
// (rule id, plain reason, the book's words). Verdicts come precomputed from the engine.
import { h, cardEl, cardLabel, button } from "./cards.js";

export function choiceLabel(q, key) {
  for (const c of q.choices || []) if (c.key === key) return c.label || key;
  return q.kind === "pick_card" ? cardLabel(key) : key;
}

// marks: {key: "right" | "wrong" | "missed"}; badges: {key: text}; pressed: array of keys
// (multi-select drafts) or null.
export function drawChoices(q, opts) {
  const o = opts || {};
  const marks = o.marks || {};
  const badges = o.badges || {};
  const cards = q.kind === "pick_card";
  const items = (q.choices || []).map((c) => {
    const pressed = o.pressed ? o.pressed.includes(c.key) : undefined;
    if (cards) {
      return cardEl(c.key, {
        size: "large",
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

// One verdict. `words` = [yes, no], e.g. ["allowed", "not allowed"] or ["right", "wrong"].
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
    v.rule_id || v.reason
      ? h(
          "p",
          {},
          v.rule_id ? h("span", { class: "loo-rule", text: v.rule_id }) : null,
          v.rule ? ` ${v.rule}: ` : " ",
          v.reason || "",
        )
      : null,
    v.quote ? h("blockquote", { class: "loo-quote", text: `\u201C${v.words || v.quote}\u201D` }) : null,
    v.quote ? h("div", { class: "loo-cite", text: `\u2014 ${v.book || ""}` }) : null,
  );
}

export function speakVerdict(q, key, v, words) {
  const [yes, no] = words || ["right", "wrong"];
  if (!v) return choiceLabel(q, key);
  return `${choiceLabel(q, key)}: ${v.correct ? yes : no}. ${v.rule_id || ""} ${v.reason || ""}`.trim();
}

export function answerText(q) {
  const keys = q.answer || [];
  return keys.map((k) => choiceLabel(q, k)).join(", ");
}
