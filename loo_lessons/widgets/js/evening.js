// @ts-check
// The `evening` component: deal after deal at one table. The deal itself is the play table
// (js/play.js, the same model); below it the evening: the deal's number, dealer and pool,
// "Next deal" once it is over, a plot of every player's balance over the evening (an SVG
// drawn from the numbers Python gives) and the ledger, each deal with its settlement lines
// (rule id and the book's words). Nothing here decides a rule or a sum: every number is in
// data.evening, computed by loo_lessons.widgets.controllers.evening over engine/table.py:
// {deal, dealer, must, pool, loo, seat, names, bank, balances, total, series: [[int]],
// ledger: [{deal, dealer, must, pool, loo, balances, change, next_pool, next_must, lines:
// [{text, rule_id, quote, book}]}], can_next}.
import { h, fill, button, mount } from "./cards.js";
import { playComponent, playRequest } from "./play.js";

const EVENING_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

/** @param {import("./types").Evening} ev */
function eveningPlot(ev) {
  const series = ev.series || [];
  const players = (ev.names || []).length;
  if (series.length < 2 || !players) return null;
  const doc = document;
  const ns = "http://www.w3.org/2000/svg";
  const svgEl = (/** @type {string} */ tag, /** @type {Record<string, string | number>} */ attrs) => {
    const e = doc.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };
  const W = 480;
  const H = 220;
  const pad = 36;
  const all = series.flat();
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const span = hi - lo || 1;
  const x = (/** @type {number} */ i) => pad + ((W - 2 * pad) * i) / (series.length - 1);
  const y = (/** @type {number} */ v) => H - pad - ((H - 2 * pad) * (v - lo)) / span;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", class: "loo-evening-plot", "aria-label": "every player's counters after each deal" });
  svg.append(svgEl("line", { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, stroke: "#999" }));
  svg.append(svgEl("line", { x1: pad, y1: pad, x2: pad, y2: H - pad, stroke: "#999" }));
  for (const [v, label] of [[hi, hi], [lo, lo]]) {
    const t = svgEl("text", { x: pad - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 11 });
    t.textContent = String(label);
    svg.append(t);
  }
  for (let i = 0; i < series.length; i += 1) {
    const t = svgEl("text", { x: x(i), y: H - pad + 14, "text-anchor": "middle", "font-size": 11 });
    t.textContent = i === 0 ? "start" : String(i);
    svg.append(t);
  }
  for (let s = 0; s < players; s += 1) {
    const colour = EVENING_COLOURS[s % EVENING_COLOURS.length];
    const pts = series.map((row, i) => `${x(i)},${y(row[s])}`).join(" ");
    svg.append(svgEl("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": s === ev.seat ? 3 : 1.5, "data-seat": s }));
  }
  const key = h(
    "p",
    { class: "loo-muted loo-evening-key" },
    (ev.names || []).map((n, s) =>
      h("span", { style: `color:${EVENING_COLOURS[s % EVENING_COLOURS.length]};margin-right:1em`, text: `\u2014 ${n}` }),
    ),
  );
  return h("figure", { class: "loo-evening-figure" }, svg, key);
}

/** @param {import("./types").Evening} ev */
function eveningLedger(ev) {
  const names = ev.names || [];
  return h(
    "table",
    { class: "loo-grid loo-ledger" },
    h(
      "thead",
      {},
      h("tr", {}, ["Deal", "Pool", ...names].map((x) => h("th", { scope: "col", text: x }))),
    ),
    h(
      "tbody",
      {},
      (ev.ledger || []).map((r) =>
        h(
          "tr",
          { "data-deal": r.deal, "data-must": r.must ? "yes" : "no" },
          h("th", { scope: "row", text: `${r.deal}${r.must ? " (must)" : ""}` }),
          h("td", { text: String(r.pool) }),
          r.balances.map((b, s) => h("td", { text: `${b} (${r.change[s] > 0 ? "+" : ""}${r.change[s]})` })),
        ),
      ),
    ),
  );
}

/** @param {import("./types").Evening} ev */
function eveningLines(ev) {
  return (ev.ledger || []).map((r) =>
    h(
      "details",
      { class: "loo-evening-deal", "data-deal": r.deal },
      h("summary", { text: `Deal ${r.deal}: dealer seat ${r.dealer}, pool ${r.pool}${r.must ? ", a must" : ""}; next pool ${r.next_pool}${r.next_must ? ", the next deal a must" : ""}` }),
      h(
        "ol",
        { class: "loo-working" },
        (r.lines || []).map((w) =>
          h(
            "li",
            {},
            w.rule_id ? h("span", { class: "loo-rule", text: w.rule_id }) : null,
            w.rule_id ? " " : "",
            w.text,
            w.quote ? h("blockquote", { class: "loo-quote", text: `\u201C${w.quote}\u201D` }) : null,
            w.quote && w.book ? h("div", { class: "loo-cite", text: `\u2014 ${w.book}` }) : null,
          ),
        ),
      ),
    ),
  );
}

// The evening below a deal: the deal's number, dealer and pool, "Next deal", the plot, the
// ledger and each deal's lines (the pass-and-play table draws them too: js/passplay.js).
/**
 * @param {import("./types").Model<Pick<import("./types").PassplayTraits, "request">>} model the
 *   evening's or the pass-and-play table's (its requests the evening's and more)
 * @param {import("./types").Evening} ev
 * @param {boolean} live
 * @returns {import("./types").Kid[]}
 */
export function eveningSection(model, ev, live) {
  return [
    h(
      "p",
      { class: "loo-evening-now", "data-deal": ev.deal, "data-must": ev.must ? "yes" : "no" },
      `Deal ${ev.deal}: dealer seat ${ev.dealer}; the pool holds ${ev.pool}${ev.must ? "; a must: everybody plays" : ""}. Counters on the table: ${ev.total}.`,
    ),
    h(
      "div",
      { class: "loo-controls", role: "group", "aria-label": "the evening" },
      button("Next deal", () => (ev.can_next && live ? playRequest(model, { type: "next" }) : null), {
        action: "next",
        focusId: "evening-next",
        kind: "primary",
        ariaDisabled: !ev.can_next,
      }),
    ),
    eveningPlot(ev),
    (ev.ledger || []).length ? eveningLedger(ev) : h("p", { class: "loo-muted", text: "The ledger fills in as each deal is settled." }),
    eveningLines(ev),
  ];
}

export default {
  /** @param {import("./types").RenderProps<import("./types").EveningTraits>} props */
  render({ model, el }) {
    const doc = el.ownerDocument || document;
    el.classList.add("loo-evening"); // (the play table inside it is the evening's)
    const deal = doc.createElement("div");
    const below = doc.createElement("div");
    el.replaceChildren(deal, below);
    playComponent.render({ model, el: deal });
    mount(below, model, ["data"], (body, say) => {
      const d = model.get("data") || {};
      const ev = d.evening || {};
      fill(body, eveningSection(model, ev, d.live !== false));
      if (ev.can_next) say(`Deal ${ev.deal} is over. Next deal when you are ready.`);
      return ev.can_next ? "evening-next" : null;
    });
  },
};
