// @ts-check
// The `passplay` component: an evening of Loo passed round one device (issue 27, deliver 4).
// Python (loo_lessons.widgets.controllers.pass_play) decides everything, the screen too:
// - data.screen === "pass": "Pass to seat 3 (Ann)" and one big button, "I am Ann: show my
//   cards"; the table as everyone sees it (no card of any hand is in the data), the moves
//   made since that person's last, in the open (the bots' too), and, the deal over, the
//   settlement and the evening (js/evening.js: Next deal, the plot, the ledger). Above it the
//   set-up form: names (an empty seat is a bot's), 3 to 8 seats, the bots, preset, stake, loo; below it
//   "Save the evening" and "Load a saved evening".
// - data.screen === "play": the play table from that seat alone (js/play.js, the same data).
// Names are the players' own text: drawn as text, never as HTML.
import { h, fill, button, mount } from "./cards.js";
import { drawTable } from "./table.js";
import { playComponent, playRequest } from "./play.js";
import { eveningSection } from "./evening.js";

// The data's two shapes, the set-up form, the people and the requests: js/types.d.ts.
/** @typedef {import("./types").Model<import("./types").PassplayTraits>} PnpModel */
/** @typedef {import("./types").PassplaySetup} PnpSetup */
/** @typedef {import("./types").PassplayPassData} PnpPassData */

// Tap targets of 44 px, a pass screen that fills a phone's width (360 px and up).
const PNP_STYLE = `
.loo-pnp .loo-btn, .loo-pnp input, .loo-pnp select { min-height: 44px; min-width: 44px; font-size: 1rem; }
.loo-pnp-pass { border: 3px solid var(--loo-fg, #1a1a1a); border-radius: 12px; padding: 1.2em 1em; margin: .6em 0;
  text-align: center; max-width: 100%; box-sizing: border-box; }
.loo-pnp-pass h3 { font-size: 1.6rem; margin: 0 0 .6em; overflow-wrap: anywhere; }
.loo-pnp-show.loo-btn { font-size: 1.25rem; padding: .7em 1.2em; width: 100%; max-width: 24em; overflow-wrap: anywhere; white-space: normal; }
.loo-pnp-setup label { display: inline-block; margin: .25em .8em .25em 0; }
.loo-pnp-setup input[type=text] { width: 12em; max-width: 100%; }
.loo-pnp-setup input[type=number] { width: 5em; }
.loo-pnp .loo-table { overflow-x: auto; max-width: 100%; }
.loo-pnp-files label { display: block; }
.loo-pnp-files input[type=file] { width: 100%; max-width: 100%; box-sizing: border-box; }
`;

/**
 * The set-up form: what the next evening is (a `start` request when pressed).
 * @param {PnpModel} model @param {PnpSetup} s @param {boolean} open @param {boolean} live
 * @returns {HTMLElement}
 */
function pnpSetupForm(model, s, open, live) {
  /** @type {HTMLSelectElement} */
  const count = h("select", { "aria-label": "players at the table", "data-focus": "pnp-players" });
  for (let n = s.min; n <= s.max; n += 1) {
    const o = h("option", { value: String(n), text: String(n) });
    if (n === s.names.length) o.selected = true;
    count.append(o);
  }
  /** @type {HTMLInputElement[]} */
  const names = [];
  /** @type {HTMLElement[]} */
  const rows = [];
  for (let seat = 0; seat < s.max; seat += 1) {
    /** @type {HTMLInputElement} */
    const box = h("input", { type: "text", maxlength: String(s.max_name), placeholder: "a bot", "data-focus": `pnp-name-${seat}`, "aria-label": `seat ${seat}: a player's name, or empty for a bot` });
    box.value = s.names[seat] || "";
    names.push(box);
    rows.push(h("label", { "data-seat": seat }, `Seat ${seat} `, box));
  }
  const shown = () => rows.forEach((r, i) => (r.hidden = i >= Number(count.value)));
  count.addEventListener("change", shown);
  shown();
  /** @type {HTMLSelectElement} */
  const preset = h("select", { "aria-label": "rules", "data-focus": "pnp-preset" });
  for (const p of ["hoffmann", "peel"]) {
    const o = h("option", { value: p, text: `${p.charAt(0).toUpperCase()}${p.slice(1)}'s rules` });
    if (p === s.preset) o.selected = true;
    preset.append(o);
  }
  /** @type {HTMLSelectElement} */
  const bots = h("select", { "aria-label": "the bots in the empty seats", "data-focus": "pnp-bots" });
  for (const b of s.bot_names) {
    const o = h("option", { value: b, text: b });
    if (b === s.bots) o.selected = true;
    bots.append(o);
  }
  /** @type {HTMLInputElement} */
  const stake = h("input", { type: "number", min: "1", step: "1", "aria-label": "stake", "data-focus": "pnp-stake" });
  stake.value = String(s.stake);
  /** @type {HTMLSelectElement} */
  const loo = h("select", { "aria-label": "loo", "data-focus": "pnp-loo" });
  for (const [v, t] of [["limited", "Limited loo (a fixed loo)"], ["unlimited", "Unlimited loo (the pool)"]]) {
    const o = h("option", { value: v, text: t });
    if (v === s.loo) o.selected = true;
    loo.append(o);
  }
  /** @type {HTMLInputElement} */
  const cap = h("input", { type: "number", min: "1", step: "1", placeholder: "none", "aria-label": "the cap of unlimited loo (empty: none)", "data-focus": "pnp-cap" });
  cap.value = s.cap === null ? "" : String(s.cap);
  const start = () => {
    if (!live) return;
    const n = Number(count.value);
    const unlimited = loo.value === "unlimited";
    playRequest(model, {
      type: "start",
      names: names.slice(0, n).map((b) => b.value),
      preset: preset.value,
      bots: bots.value,
      stake: Number(stake.value),
      loo: loo.value,
      cap: unlimited && cap.value.trim() !== "" ? Number(cap.value) : null,
    });
  };
  const form = h(
    "details",
    { class: "loo-pnp-setup" },
    h("summary", { text: "Set up the table: names, players, rules and stakes" }),
    h("p", { class: "loo-muted", text: "Type a name at each seat a person plays; a seat left empty is played by a bot." }),
    h("p", {}, h("label", {}, "Players ", count), h("label", {}, "Rules ", preset), h("label", {}, "Stake ", stake)),
    h("div", {}, rows),
    h("p", {}, h("label", {}, "Bots in the empty seats ", bots)),
    h("p", {}, h("label", {}, "Loo ", loo), h("label", {}, "Cap (unlimited loo) ", cap)),
    button("Start the evening", start, { action: "start", focusId: "pnp-start", kind: "primary" }),
  );
  form.open = open;
  return form;
}

/**
 * The pass screen: the device between people. Nothing here is a card of any hand.
 * @param {PnpModel} model @param {PnpPassData} d @returns {import("./types").Kid[]}
 */
function pnpPassScreen(model, d) {
  const live = d.live !== false;
  const ev = d.evening || {};
  const turn = d.turn;
  const banner =
    turn === null || turn === undefined
      ? h("div", { class: "loo-pnp-pass", "data-turn": "" }, h("h3", { text: d.prompt || "" }))
      : h(
          "div",
          { class: "loo-pnp-pass", "data-turn": turn, role: "region", "aria-label": "pass the device" },
          h("h3", { text: `Pass to seat ${turn} (${d.name})` }),
          h("p", { class: "loo-muted", text: "Only that player looks: the cards show once the button is pressed." }),
          button(`I am ${d.name}: show my cards`, () => (live ? playRequest(model, { type: "show" }) : null), {
            action: "show",
            focusId: "pnp-show",
            kind: "primary",
            ariaLabel: `I am ${d.name}: show my cards`,
          }),
        );
  const since = d.since || [];
  const s = d.settlement;
  return [
    h("style", { text: PNP_STYLE }),
    d.setup ? pnpSetupForm(model, d.setup, Boolean(d.fresh), live) : null,
    d.title ? h("h3", { class: "loo-pnp-title", text: d.title }) : null,
    h("p", { class: "loo-muted loo-pnp-people", text: `At the table: ${(d.people || []).map((p) => `seat ${p.seat} ${p.name}`).join(", ")}; the other seats are bots.` }),
    d.message ? h("p", { class: "loo-message", role: "status", text: d.message }) : null,
    d.error ? h("p", { class: "loo-verdict loo-wrong loo-error", role: "alert", text: d.error }) : null,
    banner,
    since.length
      ? h("div", { class: "loo-since" }, h("p", { class: "loo-muted", text: turn === null || turn === undefined ? "The last moves:" : `Since ${d.name}'s last move:` }), h("ul", { class: "loo-history" }, since.map((t) => h("li", { text: t }))))
      : null,
    drawTable(d.view || {}),
    s
      ? h(
          "div",
          { class: "loo-settlement", role: "region", "aria-label": "the settlement" },
          h("p", { class: "loo-prompt", text: "The settlement" }),
          h("ol", { class: "loo-working" }, s.working.map((w) => h("li", {}, w.rule_id ? h("span", { class: "loo-rule", text: w.rule_id }) : null, w.rule_id ? " " : "", w.text))),
        )
      : null,
    eveningSection(model, ev, live),
    pnpFiles(model, live),
  ];
}

/**
 * "Save the evening" (the page downloads it; JupyterLab writes the file) and "Load a saved
 * evening" (its text to Python, which reads it through the guarded reader).
 * @param {PnpModel} model @param {boolean} live @returns {HTMLElement}
 */
function pnpFiles(model, live) {
  /** @type {HTMLInputElement} */
  const pick = h("input", { type: "file", accept: ".json,application/json", "data-focus": "pnp-load", "aria-label": "load a saved evening (a .json file)" });
  pick.addEventListener("change", () => {
    const file = pick.files && pick.files[0];
    if (!file || !live) return;
    file.text().then((text) => playRequest(model, { type: "load", text, name: file.name }));
  });
  return h(
    "div",
    { class: "loo-pnp-files", role: "group", "aria-label": "save or load the evening" },
    h("div", { class: "loo-controls" }, button("Save the evening", () => (live ? playRequest(model, { type: "save", path: "" }) : null), { action: "save", focusId: "pnp-save" })),
    h("p", {}, h("label", {}, "Load a saved evening ", pick)),
  );
}

export default {
  /** @param {import("./types").RenderProps<import("./types").PassplayTraits>} props */
  render({ model, el }) {
    const doc = el.ownerDocument || document;
    el.classList.add("loo-pnp");
    const pass = doc.createElement("div");
    const play = doc.createElement("div");
    pass.className = "loo-pnp-screen";
    play.className = "loo-pnp-play";
    el.replaceChildren(pass, play);
    let was = "";
    mount(pass, model, ["data"], (body, say) => {
      const d = model.get("data") || {};
      const screen = d.screen === "play" ? "play" : "pass";
      // the play table (drawn from the same data) only while that seat's cards are shown
      play.hidden = screen !== "play";
      pass.hidden = screen === "play";
      el.setAttribute("data-screen", screen);
      if (d.screen === "play") {
        fill(body);
        if (was !== "play") {
          // after the play table has drawn (its redraw is queued before this one ends): the
          // person's own choices in view, on a phone too, and the focus on the first
          queueMicrotask(() => {
            const first = /** @type {HTMLElement | null} */ (play.querySelector(".loo-choices [data-focus]"));
            if (first) {
              first.scrollIntoView({ block: "center" });
              first.focus();
            }
          });
        }
        was = screen;
        return null;
      }
      fill(body, pnpPassScreen(model, d));
      if (was !== "pass") {
        say(d.turn === null || d.turn === undefined ? d.prompt || "" : `Pass to seat ${d.turn}, ${d.name}.`);
        // the cards just hidden: the next person's button takes the focus
        const show = /** @type {HTMLElement | null} */ (body.querySelector('[data-focus="pnp-show"]'));
        if (was === "play" && show)
          queueMicrotask(() => {
            show.scrollIntoView({ block: "center" });
            show.focus();
          });
      }
      was = screen;
      return d.turn === null || d.turn === undefined ? "evening-next" : "pnp-show";
    });
    // the play table draws the same model on both screens (hidden on the pass screen, whose
    // data is the pass screen's: the table as everyone sees it, the play table's fields empty)
    playComponent.render({ model: /** @type {import("./types").Model<import("./types").PlayTraits>} */ (model), el: play });
  },
};
