// @ts-check
// The `search` component: the edge-case search and the preset comparison. "Find" asks
// Python for the first seeded deal at which a named search holds, and shows the position
// (every choice with its rule) and the scenario file that gives it; "Compare" replays one
// seeded deal under both books and lists the steps where the same position gets a
// different verdict, with the rule, and each seat's money. Every answer is Python's
// (controllers.SearchController); a click only sends a `request` ({n, type, ...}).
import { h, fill, button, mount, commit, cardLabel } from "./cards.js";
import { drawTable } from "./table.js";
import { drawVerdict } from "./verdict.js";

/**
 * @param {string} label
 * @param {number | undefined} value
 * @param {string} key
 * @param {{ min?: number, max?: number }} [opts]
 * @returns {[HTMLLabelElement, HTMLInputElement]}
 */
function searchInput(label, value, key, opts) {
  const o = opts || {};
  const input = h("input", { type: "number", class: "loo-num", min: String(o.min ?? 0), max: String(o.max ?? 2147483647), step: "1", "aria-label": label, "data-key": key, "data-focus": `search-${key}`, style: "width: 6.5em" });
  input.value = String(value);
  return [h("label", {}, `${label} `, input), input];
}

/**
 * @param {string} label
 * @param {(string | { value: string, text: string })[]} values
 * @param {string | undefined} value
 * @param {string} key
 * @returns {[HTMLLabelElement, HTMLSelectElement]}
 */
function searchSelect(label, values, value, key) {
  const sel = h("select", { "aria-label": label, "data-key": key, "data-focus": `search-${key}` });
  for (const v of values) {
    const [val, txt] = typeof v === "string" ? [v, v] : [v.value ?? v, v.text ?? v];
    const o = h("option", { value: val, text: txt });
    if (val === value) o.selected = true;
    sel.append(o);
  }
  return [h("label", {}, `${label} `, sel), sel];
}

/** @param {NonNullable<import("./types").SearchData["found"]>} f */
function searchFound(f) {
  const q = f.question;
  return h(
    "div",
    { class: "loo-search-found", "data-seed": f.seed },
    h("p", {}, h("strong", { text: f.title || "" }), ` \u2014 ${f.description || ""}`),
    q ? drawTable(q.view || {}) : null,
    q ? h("p", { class: "loo-prompt", text: q.prompt || "" }) : null,
    q ? (q.choices || []).map((c) => drawVerdict(q, c.key, (q.verdicts || {})[c.key], ["allowed", "not allowed"])) : null,
    f.pool ? h("ol", { class: "loo-working" }, (f.pool.working || []).map((w) => h("li", {}, w.rule_id ? h("span", { class: "loo-rule", text: w.rule_id }) : null, " ", w.text))) : null,
    h("details", {}, h("summary", { text: "As a scenario file (loo-lessons explain FILE reads it)" }), h("pre", { class: "loo-yaml", style: "white-space: pre-wrap", text: f.yaml || "" })),
  );
}

// A card's label (7♥) or a declaration in words (take miss): never the contract's key.
const keyWords = (/** @type {string} */ k) => (/^(?:[2-9]|10|[JQKA])[CDHS]$/.test(k) ? cardLabel(k) : k.replace(/_/g, " "));

/** @param {NonNullable<import("./types").SearchData["comparison"]>} c */
function searchComparison(c) {
  const labs = c.labels || [];
  return h(
    "div",
    { class: "loo-search-compare", "data-seed": c.seed, "data-differ": (c.steps || []).length },
    h("p", { text: (c.steps || []).length
      ? `Seed ${c.seed}: the same position gets a different verdict at ${(c.steps || []).length} step${(c.steps || []).length === 1 ? "" : "s"}.`
      : `Seed ${c.seed}: both books give the same verdict at every step of this deal.` }),
    (c.steps || []).length
      ? h("table", { class: "loo-lab-table" },
          h("thead", {}, h("tr", {}, ["step", "seat", ...labs.map((l) => `${l} allows`), "why"].map((t) => h("th", { scope: "col", text: t })))),
          h("tbody", {}, (c.steps || []).map((s) => h("tr", {}, h("td", { text: String(s.step) }), h("td", { text: String(s.seat) }), labs.map((l) => h("td", { text: (s.legal[l] || []).map(keyWords).join(" ") })), h("td", { text: s.why })))))
      : null,
    h("p", { class: "loo-muted", text: c.parted_at === null ? "The same moves all the way." : `The lines part at step ${c.parted_at}.` }),
    h("table", { class: "loo-lab-table" },
      h("thead", {}, h("tr", {}, ["seat", ...labs.map((l) => `${l}: net`)].map((t) => h("th", { scope: "col", text: t })))),
      h("tbody", {}, (c.money || []).map((m) => h("tr", {}, h("th", { scope: "row", text: `seat ${m.seat}` }), labs.map((l) => h("td", { text: String(m[l]) })))))),
  );
}

export default {
  /** @param {import("./types").RenderProps<import("./types").SearchTraits>} props */
  render({ model, el }) {
    mount(el, model, ["data"], (body, say) => {
      const d = model.get("data") || {};
      const live = d.live === true;
      const f = d.find || {};
      const c = d.compare || {};
      /** @param {SearchEvent} ev what the controller's EVENTS accept */
      const send = (ev) => {
        if (!live) return;
        const prevN = model.get("request")?.n;
        commit(model, { request: { ...ev, n: (typeof prevN === "number" && Number.isInteger(prevN) ? prevN : 0) + 1 } });
      };
      const [nameL, name] = searchSelect("Search", (d.searches || []).map((s) => ({ value: s.name, text: s.name })), f.name, "name");
      const [rulesL, rules] = searchSelect("Rules", d.presets || [], f.rules, "rules");
      const [playersL, players] = searchInput("Players", f.players, "players", { min: 2, max: 10 });
      const [startL, start] = searchInput("From seed", f.start, "start");
      const [countL, count] = searchInput("Seeds", f.count, "count", { min: 1, max: 5000 });
      const [seedL, seed] = searchInput("Seed", c.seed, "compare-seed");
      const [cplL, cpl] = searchInput("Players", c.players, "compare-players", { min: 2, max: 10 });
      for (const x of [name, rules, players, start, count, seed, cpl]) x.disabled = !live;
      const words = ((d.searches || []).find((s) => s.name === f.name) || {}).words || "";
      fill(
        body,
        h("h4", { text: "Find a deal" }),
        h("div", { class: "loo-row", role: "group", "aria-label": "find a deal" }, nameL, rulesL, playersL, startL, countL,
          button("Find", () => send({ type: "find", name: name.value, rules: rules.value, players: Number(players.value), start: Number(start.value), count: Number(count.value) }), { action: "find", focusId: "search-find", kind: "primary", ariaDisabled: !live })),
        h("p", { class: "loo-muted", text: words }),
        live ? null : h("p", { class: "loo-muted", text: "The search runs once the engine has loaded in this page." }),
        d.not_found ? h("p", { class: "loo-verdict loo-wrong", text: d.not_found }) : null,
        d.found ? searchFound(d.found) : null,
        h("h4", { text: "Compare a deal under both books" }),
        h("div", { class: "loo-row", role: "group", "aria-label": "compare a deal" }, seedL, cplL,
          button("Compare", () => send({ type: "compare", seed: Number(seed.value), players: Number(cpl.value) }), { action: "compare", focusId: "search-compare", ariaDisabled: !live })),
        d.comparison ? searchComparison(d.comparison) : null,
      );
      say(d.found ? String(d.found.title || "") : d.not_found || "");
    });
  },
};
