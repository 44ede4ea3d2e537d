// @ts-check
// The `stepper` component: steps through one deal (the deal, each declaration, each card,
// each trick's winner, the settlement), forwards and back, with the engine's explanation of
// each step: the rule that allowed the move, what was not allowed and why, the book's words.
// Data: {title, steps: [{kind, title, text, laws: [law], forbidden: [{key, law}],
// working: [{text, rule_id}], view}]}. State: step. Keys: ← → Home End.
// loo_lessons/widgets/controllers/steps.py mirrors stepReduce exactly.
import { h, fill, button, mount, act, dealForm } from "./cards.js";
import { drawTable } from "./table.js";

/**
 * The next step after one event (the static page's; steps.py mirrors it).
 * @param {number} count
 * @param {{ step?: unknown }} st
 * @param {StepperEvent | { type: "none", step?: undefined }} ev
 * @returns {{ step: number }}
 */
export function stepReduce(count, st, ev) {
  const last = Math.max(0, count - 1);
  let step = typeof st.step === "number" && Number.isInteger(st.step) ? Math.min(Math.max(st.step, 0), last) : 0;
  if (ev.type === "next") step = Math.min(step + 1, last);
  else if (ev.type === "prev") step = Math.max(step - 1, 0);
  else if (ev.type === "first") step = 0;
  else if (ev.type === "last") step = last;
  else if (ev.type === "goto" && typeof ev.step === "number" && Number.isInteger(ev.step)) step = Math.min(Math.max(ev.step, 0), last);
  return { step };
}

/** @param {import("./types").Law} law */
function drawLaw(law) {
  return h(
    "div",
    { class: "loo-verdict", "data-rule": law.rule_id || "" },
    h("p", {}, h("span", { class: "loo-rule", text: law.rule_id || "" }), law.rule ? ` ${law.rule}: ` : " ", law.reason || ""),
    law.quote ? h("blockquote", { class: "loo-quote", text: `\u201C${law.words || law.quote}\u201D` }) : null,
    law.quote ? h("div", { class: "loo-cite", text: `\u2014 ${law.book || ""}` }) : null,
  );
}

export default {
  /** @param {import("./types").RenderProps<import("./types").StepperTraits>} props */
  render({ model, el }) {
    const steps = () => ((model.get("data") || {}).steps || []);
    /** @param {StepperEvent} ev what the controller's EVENTS accept */
    const send = (ev) => act(model, ev, () => stepReduce(steps().length, { step: model.get("step") }, ev));
    el.addEventListener("keydown", (ev) => {
      if (ev.target instanceof Element && ev.target.tagName === "INPUT") return;
      /** @type {Record<string, StepperEvent["type"]>} */
      const map = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" };
      if (map[ev.key]) {
        ev.preventDefault();
        ev.stopPropagation();
        send({ type: map[ev.key] });
      }
    });
    mount(el, model, ["data", "step"], (body, say) => {
      const d = model.get("data") || {};
      const all = d.steps || [];
      const { step } = stepReduce(all.length, { step: model.get("step") }, { type: "none" });
      /** @type {import("./types").Step} */
      const s = all[step] || { title: "No steps", text: "" };
      const forbidden = s.forbidden || [];
      fill(body,
        d.title ? h("h3", { text: d.title }) : null,
        dealForm(model, d, "New deal"),
        h(
          "div",
          { class: "loo-controls", role: "group", "aria-label": "step through the deal" },
          button([h("span", { "aria-hidden": "true", text: "\u00AB " }), "First"], () => send({ type: "first" }), { action: "first", focusId: "first", ariaDisabled: step === 0, ariaLabel: "First step" }),
          button([h("span", { "aria-hidden": "true", text: "\u25C0 " }), "Back"], () => send({ type: "prev" }), { action: "prev", focusId: "prev", ariaDisabled: step === 0, ariaLabel: "Back to the previous step" }),
          h("span", { class: "loo-score", "data-step": step, text: `Step ${step + 1} of ${all.length}` }),
          button(["Forward", h("span", { "aria-hidden": "true", text: " \u25B6" })], () => send({ type: "next" }), { action: "next", focusId: "next", kind: "primary", ariaDisabled: step >= all.length - 1, ariaLabel: "Forward to the next step" }),
          button(["Last", h("span", { "aria-hidden": "true", text: " \u00BB" })], () => send({ type: "last" }), { action: "last", focusId: "last", ariaDisabled: step >= all.length - 1, ariaLabel: "Last step" }),
        ),
        h("p", { class: "loo-prompt", text: s.title || "" }),
        s.view ? drawTable(s.view) : null,
        s.text ? h("p", { class: "loo-step-text", text: s.text }) : null,
        (s.laws || []).map(drawLaw),
        forbidden.length
          ? h(
              "div",
              {},
              h("p", { class: "loo-muted", text: "Not allowed here:" }),
              h("ul", {}, forbidden.map((f) => h("li", {}, h("strong", { text: f.label || f.key }), ": ", h("span", { class: "loo-rule", text: f.law.rule_id || "" }), ` ${f.law.reason || ""}`))),
            )
          : null,
        (s.working || []).length
          ? h("ol", { class: "loo-working" }, (s.working || []).map((w) => h("li", {}, w.rule_id ? h("span", { class: "loo-rule", text: w.rule_id }) : null, w.rule_id ? " " : "", w.text)))
          : null,
      );
      say(`Step ${step + 1} of ${all.length}: ${s.title || ""}. ${s.text || ""}`);
    });
  },
};
