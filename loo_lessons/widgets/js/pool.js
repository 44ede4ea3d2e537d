// @ts-check
// The `pool` component: a pool calculator. The learner enters what each player in the deal
// receives and pays, what stays in the pool and the next pool; "Check" marks each entry
// against the values the engine computed, "Show the working" shows them with the rules
// (and, pressed again as "Hide the working", hides them).
// Data: {title, facts: [str], seats: [{seat, label, tricks}], fields: [{id, label, seat,
// kind}], expected: {id: int}, working: [{text, rule_id}]}. State: entries ({id: int|null};
// a blank counts as 0), checked, revealed. loo_lessons/widgets/controllers/pool.py mirrors poolReduce.
import { h, fill, button, mount, act } from "./cards.js";

/**
 * The next state after one event (the static page's; pool.py mirrors it).
 * @param {import("./types").PoolField[]} fields
 * @param {{ entries?: unknown, checked?: unknown, revealed?: unknown }} st
 * @param {PoolEvent | { type: "none", id?: undefined, value?: undefined }} ev
 * @returns {import("./types").PoolState}
 */
export function poolReduce(fields, st, ev) {
  const ids = fields.map((f) => f.id);
  /** @type {Record<string, number>} */
  const entries = {};
  const given = /** @type {Record<string, unknown>} */ (st.entries && typeof st.entries === "object" ? st.entries : {});
  for (const id of ids) {
    const v = given[id];
    if (typeof v === "number" && Number.isInteger(v)) entries[id] = v;
  }
  let checked = Boolean(st.checked);
  let revealed = Boolean(st.revealed);
  if (ev.type === "enter") {
    if (typeof ev.id === "string" && ids.includes(ev.id)) {
      if (typeof ev.value === "number" && Number.isInteger(ev.value)) entries[ev.id] = ev.value;
      else delete entries[ev.id];
      checked = false;
    }
  } else if (ev.type === "check") {
    checked = true;
  } else if (ev.type === "show") {
    revealed = true;
  } else if (ev.type === "hide") {
    revealed = false;
  } else if (ev.type === "reset") {
    for (const id of Object.keys(entries)) delete entries[id];
    checked = false;
    revealed = false;
  }
  return { entries, checked, revealed };
}

/**
 * Each field right or not, and how many are right.
 * @param {import("./types").PoolData} d
 * @param {Record<string, number>} entries
 */
export function poolResults(d, entries) {
  /** @type {Record<string, boolean>} */
  const out = {};
  let right = 0;
  for (const f of d.fields || []) {
    const given = Number.isInteger(entries[f.id]) ? entries[f.id] : 0;
    const ok = given === (d.expected || {})[f.id];
    out[f.id] = ok;
    if (ok) right += 1;
  }
  return { byField: out, right, total: (d.fields || []).length };
}

/** @param {string} text */
function parseEntry(text) {
  const t = String(text).trim();
  if (!/^-?\d+$/.test(t)) return null;
  return parseInt(t, 10);
}

let boxes = 0; // ids for aria-controls, unique on the page

/** @typedef {{ data: import("./types").PoolData, inputs: Record<string, HTMLInputElement>, marks: Record<string, HTMLSpanElement>, summary: HTMLParagraphElement, working: HTMLDivElement, show: HTMLButtonElement }} Built */

export default {
  /** @param {import("./types").RenderProps<import("./types").PoolTraits>} props */
  render({ model, el }) {
    /** @type {Built | null} */
    let built = null;
    const state = () => ({
      entries: model.get("entries") || {},
      checked: Boolean(model.get("checked")),
      revealed: Boolean(model.get("revealed")),
    });
    /** @param {PoolEvent} ev what the controller's EVENTS accept */
    const send = (ev) => {
      const d = model.get("data") || {};
      act(model, ev, () => poolReduce(d.fields || [], state(), ev));
    };
    /**
     * @param {HTMLElement} body
     * @param {import("./types").PoolData} d
     * @returns {Built}
     */
    const build = (body, d) => {
      /** @type {Record<string, HTMLInputElement>} */
      const inputs = {};
      /** @type {Record<string, HTMLSpanElement>} */
      const marks = {};
      const input = (/** @type {import("./types").PoolField} */ f) => {
        const inp = h("input", {
          class: "loo-num",
          type: "text",
          inputmode: "numeric",
          autocomplete: "off",
          placeholder: "0",
          "aria-label": f.label,
          "data-field": f.id,
          "data-focus": `field-${f.id}`,
          onchange: () => send({ type: "enter", id: f.id, value: parseEntry(inp.value) }),
        });
        inputs[f.id] = inp;
        marks[f.id] = h("span", { class: "loo-mark", "data-mark": f.id });
        return h("td", {}, inp, marks[f.id]);
      };
      const fieldFor = (/** @type {number} */ seat, /** @type {string} */ kind) => (d.fields || []).find((f) => f.seat === seat && f.kind === kind);
      const seatRows = (d.seats || []).map((s) => {
        const r = fieldFor(s.seat, "receives");
        const p = fieldFor(s.seat, "pays");
        return h("tr", {}, h("th", { scope: "row", text: s.label }), h("td", { text: s.tricks }), r ? input(r) : h("td", {}), p ? input(p) : h("td", {}));
      });
      const other = (d.fields || []).filter((f) => f.seat === null || f.seat === undefined);
      const otherRows = other.map((f) => h("tr", {}, h("th", { scope: "row", colspan: 2, text: f.label }), input(f), h("td", {})));
      const summary = h("p", { class: "loo-score", "data-summary": "" });
      const working = h("div", { class: "loo-working-box", id: `loo-working-${++boxes}` });
      // One button that shows and hides: a second press used to change nothing (issue 23).
      const show = button("Show the working", () => send({ type: show.dataset.action === "hide" ? "hide" : "show" }), { action: "show", focusId: "show" });
      show.setAttribute("aria-controls", working.id);
      const ctl = h(
        "div",
        { class: "loo-controls" },
        button("Check", () => send({ type: "check" }), { action: "check", focusId: "check", kind: "primary" }),
        show,
        button("Clear", () => send({ type: "reset" }), { action: "reset", focusId: "clear" }),
      );
      fill(body,
        d.title ? h("h3", { text: d.title }) : null,
        h("ul", {}, (d.facts || []).map((f) => h("li", { text: f }))),
        h("p", { class: "loo-prompt", text: d.prompt || "Who receives what, and who pays? Leave a box blank for nothing." }),
        h(
          "table",
          { class: "loo-grid" },
          h("thead", {}, h("tr", {}, ["Player", "Tricks won", "Receives", "Pays (looed)"].map((x) => h("th", { scope: "col", text: x })))),
          h("tbody", {}, seatRows, otherRows),
        ),
        ctl,
        summary,
        working,
      );
      return { data: d, inputs, marks, summary, working, show };
    };
    mount(el, model, ["data", "entries", "checked", "revealed"], (body, say) => {
      const d = model.get("data") || {};
      if (!built || built.data !== d) built = build(body, d);
      const st = poolReduce(d.fields || [], state(), { type: "none" });
      const res = poolResults(d, st.entries);
      const active = body.ownerDocument.activeElement;
      for (const f of d.fields || []) {
        const inp = built.inputs[f.id];
        const want = Number.isInteger(st.entries[f.id]) ? String(st.entries[f.id]) : "";
        if (inp !== active) inp.value = want;
        const m = built.marks[f.id];
        const exp = (d.expected || {})[f.id];
        if (st.checked || st.revealed) {
          const ok = res.byField[f.id];
          m.className = "loo-mark " + (ok ? "loo-right" : "loo-wrong");
          m.textContent = (ok ? "\u2713" : "\u2717") + (st.revealed ? ` ${exp}` : "");
          inp.setAttribute("aria-invalid", ok ? "false" : "true");
        } else {
          m.className = "loo-mark";
          m.textContent = "";
          inp.removeAttribute("aria-invalid");
        }
      }
      let message = "";
      if (st.checked) {
        message = res.right === res.total ? `All ${res.total} right!` : `${res.right} of ${res.total} right.`;
      } else if (st.revealed) {
        message = "The right values are shown beside each box.";
      }
      built.summary.textContent = message;
      built.show.textContent = st.revealed ? "Hide the working" : "Show the working";
      built.show.dataset.action = st.revealed ? "hide" : "show";
      built.show.setAttribute("aria-expanded", String(st.revealed));
      fill(built.working,
        st.revealed
          ? h(
              "div",
              { class: "loo-verdict" },
              h("div", { class: "loo-verdict-head", text: "The working" }),
              h("ol", { class: "loo-working" }, (d.working || []).map((w) => h("li", {}, w.rule_id ? h("span", { class: "loo-rule", text: w.rule_id }) : null, w.rule_id ? " " : "", w.text))),
            )
          : null,
      );
      say(message);
    });
  },
};
