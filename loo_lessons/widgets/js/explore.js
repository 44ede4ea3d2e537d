// @ts-check
// The `explore` component: one position under rules the reader chooses. Change the preset or
// an option and the engine loads the position again under those rules: the verdict (what
// may be played, and for every other choice the rule that forbids it) or the settlement
// changes with its reasons. Every verdict comes from Python (controllers.ExploreController);
// here a choice only says what changed. Data: {title, preset, presets, options: [{key,
// values, value, meaning}], kind: "pick" | "pool" | "refused", question, pool,
// verdict_refused, live}. A change is sent as a `request` trait ({n, type: "preset", preset}
// or {n, type: "option", key, value}), which the kernel or the book's engine answers.
// With `mode: "declarations"` (controllers.DeclarationsController) the selects are what
// the players before declared ({declarations: [{seat, values, value}]}, sent as {n, type:
// "declare", seat, value}) and the verdict may be `kind: "explained"` (nobody is left to
// declare: the engine's explanation, `explained`).
import { h, fill, mount, commit } from "./cards.js";
import { drawTable } from "./table.js";
import { drawVerdict, answerText } from "./verdict.js";

// An option's name or value as a reader says it: "lone stander rule", "enquire within" (the
// values sent back are the keys themselves).
const spoken = (/** @type {unknown} */ v) => String(v).replace(/_/g, " ");

/**
 * @param {string} label
 * @param {unknown[]} values
 * @param {unknown} value
 * @param {(v: unknown) => void} onChange
 * @param {string} focusId
 * @param {boolean} enabled
 */
function exploreSelect(label, values, value, onChange, focusId, enabled) {
  label = spoken(label);
  const sel = h("select", { class: "loo-explore-select", "data-focus": focusId, "data-key": focusId, "aria-label": label });
  values.forEach((v, i) => {
    const o = h("option", { value: String(i), text: spoken(v) });
    if (v === value) o.selected = true;
    sel.append(o);
  });
  if (!values.includes(value)) {
    const o = h("option", { value: "", text: value === null || value === undefined ? "custom" : spoken(value) });
    o.selected = true;
    sel.prepend(o);
  }
  sel.disabled = !enabled;
  sel.addEventListener("change", () => {
    if (sel.value !== "") onChange(values[Number(sel.value)]);
  });
  return h("label", { class: "loo-explore-option" }, h("span", { class: "loo-muted", text: `${label} ` }), sel);
}

/** @param {import("./types").ExploreData} d */
function exploreVerdict(d) {
  if (d.kind === "explained") {
    return h(
      "div",
      { class: "loo-explore-verdict", "data-kind": "explained" },
      h("p", {}, h("strong", { text: "Nobody is left to declare." }), " What happens instead:"),
      h("pre", { class: "loo-explain", style: "white-space:pre-wrap;word-break:normal;overflow-wrap:normal", text: d.explained || "" }),
    );
  }
  if (d.kind === "refused" && d.mode === "declarations") {
    return h("p", { class: "loo-verdict loo-wrong loo-explore-verdict", "data-kind": "refused", text: `The rules refuse this position: ${d.verdict_refused}` });
  }
  if (d.kind === "refused") {
    return h("p", { class: "loo-verdict loo-wrong loo-explore-verdict", "data-kind": "refused", text: `Refused under these rules: ${d.verdict_refused}` });
  }
  if (d.kind === "pool") {
    const p = d.pool || {};
    return h(
      "div",
      { class: "loo-explore-verdict", "data-kind": "pool" },
      (p.facts || []).map((f) => h("p", { class: "loo-muted", text: f })),
      h("ol", { class: "loo-working" }, (p.working || []).map((w) => h("li", {}, w.rule_id ? h("span", { class: "loo-rule", text: w.rule_id }) : null, w.rule_id ? " " : "", w.text))),
    );
  }
  const q = d.question || {};
  const verdicts = q.verdicts || {};
  const answer = q.answer || [];
  return h(
    "div",
    { class: "loo-explore-verdict", "data-kind": "pick", "data-answer": answer.join(" ") },
    q.view ? drawTable(q.view) : null,
    h("p", { class: "loo-prompt", text: q.prompt || "" }),
    (q.choices || [])
      .slice()
      .sort((a, b) => Number(answer.includes(b.key)) - Number(answer.includes(a.key)))
      .map((c) => drawVerdict(q, c.key, verdicts[c.key], ["allowed", "not allowed"])),
  );
}

// What the reader may change (the preset and options, or the declarations), as one string:
// once it differs from what the widget first showed, the scenario's title no longer names the
// position on show.
/** @param {import("./types").ExploreData} d */
function exploreChoices(d) {
  const decl = (d.declarations || []).map((x) => `${x.seat}:${x.value}`);
  const opts = (d.options || []).map((o) => `${o.key}:${o.value}`);
  return JSON.stringify([d.mode === "declarations" ? null : d.preset ?? null, decl, opts]);
}

export default {
  /** @param {import("./types").RenderProps<import("./types").ExploreTraits>} props */
  render({ model, el }) {
    const first = exploreChoices(model.get("data") || {});
    mount(el, model, ["data"], (body, say) => {
      const d = model.get("data") || {};
      const changed = exploreChoices(d) !== first;
      const live = d.live === true;
      /** @param {ExploreEvent} ev what the controller's EVENTS accept */
      const send = (ev) => {
        if (!live) return;
        const prevN = model.get("request")?.n;
        commit(model, { request: { ...ev, n: (typeof prevN === "number" && Number.isInteger(prevN) ? prevN : 0) + 1 } });
      };
      const q = d.question || {};
      const declaring = d.mode === "declarations";
      const controls = declaring
        ? h(
            "div",
            { class: "loo-row loo-explore-controls", role: "group", "aria-label": "what the players before declared" },
            (d.declarations || []).map((x) =>
              exploreSelect(`Seat ${x.seat}`, x.values || [], x.value, (v) => send({ type: "declare", seat: x.seat, value: v }), `explore-seat-${x.seat}`, live),
            ),
          )
        : h(
            "div",
            { class: "loo-row loo-explore-controls", role: "group", "aria-label": "the rules" },
            exploreSelect("Preset", d.presets || [], d.preset, (v) => send({ type: "preset", preset: v }), "explore-preset", live),
            (d.options || []).map((o) =>
              exploreSelect(o.key, o.values || [], o.value, (v) => send({ type: "option", key: o.key, value: v }), `explore-${o.key}`, live),
            ),
          );
      fill(
        body,
        d.title ? h("h3", { class: "loo-explore-title", "data-changed": changed ? "true" : "false", text: changed ? `Changed from \u201C${d.title}\u201D` : d.title }) : null,
        controls,
        live ? null : h("p", { class: "loo-muted", text: declaring ? "The declarations can be changed once the engine has loaded in this page." : "The rules can be changed once the engine has loaded in this page." }),
        exploreVerdict(d),
      );
      say(d.kind === "explained" ? "Nobody is left to declare" : d.kind === "pick" ? `Allowed: ${answerText(q)}` : d.kind === "refused" ? `Refused: ${d.verdict_refused}` : "");
    });
  },
};
