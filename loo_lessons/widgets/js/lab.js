// @ts-check
// The `lab` component: the strategy lab's small simulations. The reader sets the hands,
// players, seed, rules, bots and what to group by; "Run" asks Python (the kernel, or the
// book's engine in the page) to play those seeded hands, with a progress bar while it runs.
// Then the headline rates and, by the kind of hand played, how often it took a trick and
// was looed: a table and SVG bars, drawn from plain numbers (no pandas, no matplotlib).
// Data: {settings: {hands, players, seed, rules, bots, by}, limits, presets, bots,
// by_options, result: {overview, rates: [{label, hands, took_trick, looed, tricks, net}],
// by, seconds} | null, runs (how many runs so far), live}. State: request ({n, type: "run", ...settings}), progress.
import { h, fill, button, mount, commit } from "./cards.js";

const LAB_SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {...(Node | null)} kids
 * @returns {SVGElement}
 */
function labSvg(tag, attrs, ...kids) {
  const el = document.createElementNS(LAB_SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const k of kids) if (k) el.append(k);
  return el;
}

// Two bars per group (took a trick: solid; looed: hatched), shares from 0 to 1.
/** @param {import("./types").LabRate[]} rates */
function labBars(rates) {
  const w = 120;
  const height = 220;
  const top = 24;
  const base = height - 40;
  const width = Math.max(360, rates.length * w + 60);
  const y = (/** @type {number} */ v) => base - v * (base - top);
  const root = labSvg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "loo-lab-plot",
    "aria-label": "share of hands played that took a trick and that were looed, by kind of hand" });
  const defs = labSvg("defs", {}, labSvg("pattern", { id: "loo-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    labSvg("rect", { width: 6, height: 6, fill: "#c1121f" }), labSvg("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#ffffff", "stroke-width": 2 })));
  root.append(defs);
  for (const v of [0, 0.5, 1]) {
    root.append(labSvg("line", { x1: 40, x2: width - 10, y1: y(v), y2: y(v), stroke: "#999", "stroke-dasharray": v ? "3 3" : "", "stroke-width": 1 }));
    const t = labSvg("text", { x: 34, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "currentColor" });
    t.textContent = String(v);
    root.append(t);
  }
  rates.forEach((r, i) => {
    const x = 50 + i * w;
    /**
     * @param {number} v
     * @param {number} dx
     * @param {string} colour
     * @param {string} name
     */
    const bar = (v, dx, colour, name) => {
      const rect = labSvg("rect", { x: x + dx, y: y(v), width: 40, height: base - y(v), fill: colour, "data-share": v, "data-bar": name });
      const title = labSvg("title", {});
      title.textContent = `${r.label}: ${name} ${v}`;
      rect.append(title);
      return rect;
    };
    root.append(bar(r.took_trick, 0, "#1e6a44", "took a trick"), bar(r.looed, 44, "url(#loo-hatch)", "looed"));
    const label = labSvg("text", { x: x + 42, y: base + 16, "text-anchor": "middle", "font-size": 12, fill: "currentColor" });
    label.textContent = r.label;
    const n = labSvg("text", { x: x + 42, y: base + 30, "text-anchor": "middle", "font-size": 10, fill: "currentColor" });
    n.textContent = `${r.hands} hands`;
    root.append(label, n);
  });
  const key = labSvg("text", { x: 50, y: 14, "font-size": 12, fill: "currentColor" });
  key.textContent = "solid: took a trick \u00B7 hatched: looed (share of hands played)";
  root.append(key);
  return root;
}

/** @param {import("./types").LabRate[]} rates */
function labTable(rates) {
  const head = ["hand played", "hands", "took a trick", "looed", "tricks (mean)", "net counters (mean)"];
  return h(
    "table",
    { class: "loo-lab-table" },
    h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col", text: t })))),
    h("tbody", {}, rates.map((r) => h("tr", {}, h("th", { scope: "row", text: r.label }), [r.hands, r.took_trick, r.looed, r.tricks, r.net].map((v) => h("td", { text: String(v) }))))),
  );
}

/**
 * @param {string} label
 * @param {number | undefined} value
 * @param {number} min
 * @param {number} max
 * @param {string} key
 * @returns {[HTMLLabelElement, HTMLInputElement]}
 */
function labNumber(label, value, min, max, key) {
  const input = h("input", { type: "number", class: "loo-num", min: String(min), max: String(max), step: "1", "aria-label": label, "data-key": key, "data-focus": `lab-${key}`, style: "width: 6.5em" });
  input.value = String(value);
  return [h("label", {}, `${label} `, input), input];
}

/**
 * @param {string} label
 * @param {string[]} values
 * @param {string | undefined} value
 * @param {string} key
 * @returns {[HTMLLabelElement, HTMLSelectElement]}
 */
function labSelect(label, values, value, key) {
  const sel = h("select", { "aria-label": label, "data-key": key, "data-focus": `lab-${key}` });
  for (const v of values) {
    const o = h("option", { value: v, text: v });
    if (v === value) o.selected = true;
    sel.append(o);
  }
  return [h("label", {}, `${label} `, sel), sel];
}

export default {
  /** @param {import("./types").RenderProps<import("./types").LabTraits>} props */
  render({ model, el }) {
    mount(el, model, ["data", "progress"], (body, say) => {
      const d = model.get("data") || {};
      const s = d.settings || {};
      const lim = d.limits || { hands: 5000, players: [2, 10] };
      const live = d.live === true;
      const prog = model.get("progress") || {};
      // (done may be missing: undefined < total is false, as it always was)
      const running = Boolean(model.get("request")?.n && prog.total && /** @type {number} */ (prog.done) < prog.total);
      const [handsL, hands] = labNumber("Hands", s.hands, 1, lim.hands, "hands");
      const [playersL, players] = labNumber("Players", s.players, lim.players[0], lim.players[1], "players");
      const [seedL, seed] = labNumber("Seed", s.seed, 0, 2147483647, "seed");
      const [rulesL, rules] = labSelect("Rules", d.presets || [], s.rules, "rules");
      const [botsL, bots] = labSelect("Bots", d.bots || [], s.bots, "bots");
      const [byL, by] = labSelect("By", d.by_options || [], s.by, "by");
      for (const c of [hands, players, seed, rules, bots, by]) c.disabled = !live;
      const run = () => {
        if (!live) return;
        const prevN = model.get("request")?.n;
        commit(model, {
          request: { type: "run", hands: Number(hands.value), players: Number(players.value), seed: Number(seed.value), rules: rules.value, bots: bots.value, by: by.value, n: (typeof prevN === "number" && Number.isInteger(prevN) ? prevN : 0) + 1 },
          progress: { done: 0, total: Number(hands.value) },
        });
      };
      const r = d.result;
      const pct = prog.total ? Math.round((100 * (prog.done || 0)) / prog.total) : 0;
      fill(
        body,
        h("div", { class: "loo-row loo-lab-controls", role: "group", "aria-label": "the simulation" }, handsL, playersL, seedL, rulesL, botsL, byL,
          button("Run", run, { action: "run", focusId: "lab-run", kind: "primary", ariaDisabled: !live })),
        live ? null : h("p", { class: "loo-muted", text: "The lab runs once the engine has loaded in this page." }),
        prog.total
          ? h("div", { class: "loo-lab-progress", "data-done": prog.done || 0, "data-total": prog.total },
              h("div", { class: "loo-progress", role: "progressbar", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(pct), "aria-label": "hands played" },
                h("div", { style: `width: ${pct}%` })),
              h("p", { class: "loo-muted", text: `${prog.done || 0} of ${prog.total} hands${running ? "\u2026" : ""}` }))
          : null,
        r
          ? h(
              "div",
              { class: "loo-lab-result", "data-hands": r.overview.hands },
              h("p", {}, `${r.overview.hands} hands: the pool taken without play in ${r.overview.awarded_rate}, `,
                `${r.overview.mean_in_play} players in a hand played (mean), `,
                `${r.overview.loo_rate_of_players} of those who played were looed; singles ${r.overview.single_rate}.`),
              h("p", { class: "loo-muted loo-lab-run", "data-runs": d.runs || 1, text: `Run ${d.runs || 1}: played in ${r.seconds} s.` }),
              labTable(r.rates || []),
              labBars(r.rates || []),
            )
          : null,
      );
      say(r ? `${r.overview.hands} hands simulated.` : "");
    });
  },
};
