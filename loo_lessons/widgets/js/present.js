// @ts-check
// The `present` component: a teacher's view of one seeded deal, big enough to project.
// Very large cards (150 px wide), every hand face up or hidden (a toggle), the deal stepped
// forwards and back (buttons, or the arrow keys once the view has focus), the rule of each
// step said plainly with its rule id and the book's words, and the seed and the rules shown
// big so that a class can deal the very same cards.
// Data: {seed, players, rules, book, call, title, steps: [step of stepper_steps]}.
// State: step (0 .. steps - 1), faces ("up" | "hidden").
// Keys: ← → (or PageUp / PageDown, as a presentation clicker sends; Space) step, Home / End,
// F hides or shows the hands, P (or the "Full screen" button) fills the screen for a
// projector and Escape leaves it. Full screen, one line at the top holds the seed and the
// buttons; the step (its title, its rule and the book's words) fills the left half at 28 px
// on 1280×720 and 42 px on 1920×1080, and the table with the seats, laid out in the columns
// that make it biggest, is scaled to fill the right (nothing to scroll, for 3 to 8 players).
// loo_lessons/widgets/present.py mirrors presentReduce exactly.
import { h, fill, button, mount, act, dealForm, cardEl, cardLabel, parseCode } from "./cards.js";
import { felt, playedOut, statusText } from "./table.js";

export const PRESENT_CARD_WIDTH = 150;

/**
 * The next state after one event (the static page's; present.py mirrors it).
 * @param {number} count
 * @param {{ step?: unknown, faces?: unknown }} st
 * @param {PresentEvent | { type: "none", step?: undefined, faces?: undefined }} ev
 * @returns {import("./types").PresentState}
 */
export function presentReduce(count, st, ev) {
  const last = Math.max(0, count - 1);
  let step = typeof st.step === "number" && Number.isInteger(st.step) ? Math.min(Math.max(st.step, 0), last) : 0;
  /** @type {"up" | "hidden"} */
  let faces = st.faces === "hidden" ? "hidden" : "up";
  if (ev.type === "next") step = Math.min(step + 1, last);
  else if (ev.type === "prev") step = Math.max(step - 1, 0);
  else if (ev.type === "first") step = 0;
  else if (ev.type === "last") step = last;
  else if (ev.type === "goto" && typeof ev.step === "number" && Number.isInteger(ev.step)) step = Math.min(Math.max(ev.step, 0), last);
  else if (ev.type === "toggle") faces = faces === "up" ? "hidden" : "up";
  else if (ev.type === "faces" && (ev.faces === "up" || ev.faces === "hidden")) faces = ev.faces;
  return { step, faces };
}

const PRESENT_STYLE = `
.loo.loo-present { max-width: none; font-size: 20px; padding: 14px 18px; container-type: inline-size; }
.loo-present .loo-stage { display: block; }
.loo-present .loo-explain { min-width: 0; }
@container (min-width: 1400px) {
  .loo-present .loo-stage { display: grid; grid-template-columns: minmax(380px, 30%) minmax(0, 1fr); gap: 24px; align-items: start; }
  .loo-present .loo-stage .loo-felt { margin-top: 0; }
}
.loo-present .loo-huge { width: ${PRESENT_CARD_WIDTH}px; flex: none; }
.loo-present .loo-huge .loo-caption { font-size: .9em; font-weight: 700; color: inherit; }
.loo-present .loo-banner { display: flex; flex-wrap: wrap; align-items: baseline; gap: 6px 28px;
  border-bottom: 3px solid var(--loo-border); padding-bottom: 8px; }
.loo-present .loo-seed { font-size: 2.6em; font-weight: 800; line-height: 1.1; letter-spacing: .01em; }
.loo-present .loo-rules-name { font-size: 1.9em; font-weight: 800; line-height: 1.1; }
.loo-present .loo-players { font-size: 1.5em; font-weight: 700; }
.loo-present .loo-book { flex-basis: 100%; color: var(--loo-muted); font-size: .95em; }
.loo-present .loo-call { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em;
  background: var(--loo-panel); border: 1px solid var(--loo-border); border-radius: 6px; padding: 1px 8px; }
.loo-present .loo-controls { gap: 12px; margin: 12px 0; }
.loo-present .loo-btn { font-size: 1.1em; min-height: 54px; padding: 8px 20px; }
.loo-present .loo-stepno { font-size: 1.35em; font-weight: 800; min-width: 7.5em; text-align: center; }
.loo-present .loo-keys { color: var(--loo-muted); font-size: .85em; }
.loo-present .loo-step-title { font-size: 1.75em; font-weight: 800; line-height: 1.2; margin: .2em 0 .25em; }
.loo-present .loo-step-text { font-size: 1.3em; margin: .2em 0 .4em; }
.loo-present .loo-felt-text { font-size: 1.3em; }
.loo-present .loo-rule { font-size: 1em; }
.loo-present .loo-law { border-left: 8px solid var(--loo-accent); background: var(--loo-panel); padding: 8px 14px;
  border-radius: 8px; margin: 8px 0; }
.loo-present .loo-law-head { font-size: 1.15em; font-weight: 700; }
.loo-present .loo-law blockquote.loo-quote { font-size: 1.1em; }
.loo-present .loo-notallowed { font-size: 1.05em; }
.loo-present .loo-working { font-size: 1.25em; }
.loo-present .loo-history-big { font-size: 1.1em; }
.loo-present .loo-history-big ol { margin: 0 0 .4em; }
.loo-present .loo-felt { border-radius: 90px / 60px; padding: 18px 36px; gap: 20px 44px; margin: 14px 0; }
.loo-present .loo-spot-title { font-size: 1.1em; }
.loo-present .loo-bignum { font-size: 3.2em; font-weight: 800; line-height: 1; }
.loo-present .loo-trick { display: flex; gap: 14px; flex-wrap: wrap; justify-content: center; }
.loo-present .loo-seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 14px; align-items: start; }
.loo-present .loo-seat { min-width: 0; padding: 10px 12px; }
.loo-present .loo-seat-head { font-size: 1.25em; }
.loo-present .loo-seat-status { font-size: 1.05em; }
.loo-present .loo-tag { font-size: .8em; padding: 1px 9px; }
.loo-present .loo-fan { display: flex; align-items: flex-start; min-height: 60px; }
.loo-present .loo-fan > .loo-card + .loo-card { margin-left: -62px; }
.loo-present .loo-seat.loo-out .loo-fan { opacity: .55; }
.loo-present:focus-visible { outline: 4px solid var(--loo-accent); outline-offset: 2px; }
.loo.loo-present.loo-fullscreen { position: fixed; inset: 0; z-index: 2147483000; margin: 0; max-width: none;
  width: 100vw; height: 100vh; box-sizing: border-box; overflow: hidden; border-radius: 0;
  background: var(--loo-bg, Canvas); padding: 1vh 1.4vw; font-size: min(2.4vh, 1.35vw); }
/* one line at the top (the seed, the rules, the players, the buttons), the rest for the deal */
.loo-fullscreen > .loo-body { height: 100%; display: grid; grid-template-columns: auto minmax(0, 1fr);
  grid-template-rows: auto minmax(0, 1fr); column-gap: 1.2em; align-items: center; }
.loo-fullscreen .loo-banner { padding-bottom: 0; gap: 0 .8em; border-bottom: 0; flex-wrap: nowrap; white-space: nowrap; }
.loo-fullscreen .loo-seed { font-size: 1.6em; }
.loo-fullscreen .loo-rules-name, .loo-fullscreen .loo-players { font-size: 1.3em; }
.loo-fullscreen .loo-book, .loo-fullscreen .loo-keys { display: none; }
.loo-fullscreen .loo-controls { margin: .3em 0; gap: .5em; flex-wrap: nowrap; justify-content: flex-end; white-space: nowrap; }
.loo-fullscreen .loo-btn { min-height: 2.1em; padding: .1em .7em; font-size: 1em; }
.loo-fullscreen .loo-stepno { font-size: 1.25em; min-width: 6.5em; }
.loo-fullscreen .loo-fit { grid-column: 1 / -1; align-self: stretch; border-top: 2px solid var(--loo-border); padding-top: .5em; }
/* the rule on the left, big (28 px at 1280×720, 42 px at 1920×1080), the table on the right */
.loo-fullscreen .loo-fit { min-height: 0; overflow: hidden; }
.loo-fullscreen .loo-stage { display: grid; grid-template-columns: 50% minmax(0, 1fr); grid-template-rows: minmax(0, 1fr);
  gap: 1.6vw; height: 100%; align-items: stretch; }
.loo-fullscreen .loo-explain { font-size: min(3.9vh, 2.2vw); line-height: 1.15; overflow: hidden; min-height: 0; }
.loo-fullscreen .loo-explain .loo-step-title { font-size: 1.1em; margin: 0 0 .1em; }
.loo-fullscreen .loo-explain .loo-step-text, .loo-fullscreen .loo-explain .loo-law-head,
.loo-fullscreen .loo-explain .loo-law blockquote.loo-quote { font-size: 1em; margin: .15em 0; }
.loo-fullscreen .loo-explain .loo-law { padding: .15em .45em; margin: .2em 0; border-left-width: 6px; }
.loo-fullscreen .loo-explain .loo-law-head { font-weight: 400; }
.loo-fullscreen .loo-explain .loo-law-head .loo-rule { font-weight: 700; }
.loo-fullscreen .loo-explain .loo-cite { font-size: .6em; line-height: 1.1; margin: 0; }
.loo-fullscreen .loo-explain .loo-more { font-size: var(--loo-more, .7em); }
.loo-fullscreen .loo-explain .loo-more > * { font-size: 1em; }
/* the table and the seats, laid out in the columns that make them biggest, scaled to fill */
.loo-fullscreen .loo-board { position: relative; overflow: hidden; min-height: 0; }
.loo-fullscreen .loo-board-in { position: absolute; left: 0; top: 0; transform-origin: top left; width: max-content;
  display: grid; grid-template-columns: repeat(var(--loo-cols, 4), max-content); gap: 12px; align-items: start; }
.loo-fullscreen .loo-board-in > .loo-felt { grid-column: 1 / -1; margin: 0; justify-self: start; }
.loo-fullscreen .loo-board-in > .loo-seats { display: contents; }
/* On a projector every word of the table is read from the back of the room: the board is laid
   out at 20 px text with cards 2.9 times as wide, then scaled to fill (so nothing on it is smaller
   than 20 px at 1280×720, the cards at least 56 px wide), whatever the number of players. */
.loo-fullscreen .loo-board-in { font-size: 20px; line-height: 1.2; gap: 6px; }
.loo-fullscreen .loo-board .loo-huge { width: 56px; }
.loo-fullscreen .loo-board .loo-huge .loo-caption, .loo-fullscreen .loo-board .loo-caption,
.loo-fullscreen .loo-board .loo-spot-title, .loo-fullscreen .loo-board .loo-badge,
.loo-fullscreen .loo-board .loo-muted, .loo-fullscreen .loo-board .loo-felt-text { font-size: 1em; }
.loo-fullscreen .loo-board .loo-bignum { font-size: 2.2em; }
.loo-fullscreen .loo-board .loo-felt { padding: 4px 14px; border-radius: 30px / 20px; gap: 4px 14px; min-height: 0; }
.loo-fullscreen .loo-board .loo-spot { gap: 2px; }
.loo-fullscreen .loo-board .loo-spot + .loo-spot { max-width: 7.2em; }
.loo-fullscreen .loo-seat { padding: 2px 5px; width: 9.4em; }
/* (while the players declare nobody has a trick yet: the line comes when the play does, and a
   seat that threw up says so once) */
.loo-fullscreen .loo-board-in[data-phase="declare"] .loo-seat-tricks,
.loo-fullscreen .loo-seat.loo-out .loo-fan.loo-muted { display: none; }
.loo-fullscreen .loo-tight-1 .loo-felt .loo-spot:first-child .loo-caption { display: none; }
.loo-fullscreen .loo-tight-2 .loo-seat-tricks[data-won="0"] { display: none; }
.loo-fullscreen .loo-tight-3 .loo-spot + .loo-spot { max-width: 6em; }
.loo-fullscreen .loo-seat-head { font-size: 1.1em; font-weight: 800; display: flex; flex-wrap: wrap; gap: 0 .35em; align-items: baseline; }
.loo-fullscreen .loo-seat-head .loo-tag { font-size: .91em; padding: 0 4px; line-height: 1.15; }
.loo-fullscreen .loo-seat-status { font-size: 1em; }
.loo-fullscreen .loo-fan { margin: 2px 0 1px; }
.loo-fullscreen .loo-fan > .loo-card + .loo-card { margin-left: -29px; }
`;

// Full screen only: the rule's words keep their size (what else the step says shrinks until
// the left column holds it), and the table with the seats is laid out in the number of
// columns that lets it be biggest, then scaled to fill the right of the screen.
/** @param {HTMLElement} root */
function presentFit(root) {
  const board = /** @type {HTMLElement | null} */ (root.querySelector(".loo-board"));
  const inner = board && /** @type {HTMLElement | null} */ (board.querySelector(".loo-board-in"));
  if (!board || !inner) return;
  const explain = /** @type {HTMLElement | null} */ (root.querySelector(".loo-explain"));
  const more = explain && /** @type {HTMLElement | null} */ (explain.querySelector(".loo-more"));
  if (!root.classList.contains("loo-fullscreen")) {
    inner.style.transform = "";
    inner.style.left = "";
    inner.style.removeProperty("--loo-cols");
    if (more) {
      more.style.removeProperty("--loo-more");
      more.style.display = "";
    }
    if (explain) explain.style.fontSize = "";
    delete root.dataset.fit;
    return;
  }
  if (explain) {
    // 28 px at 1280×720, 42 px at 1920×1080: bigger while the column holds it, smaller
    // only when nothing else can give way
    const base = Math.min(0.039 * window.innerHeight, 0.022 * window.innerWidth);
    // (what was not allowed and the tricks played go first: smaller, then left to the page)
    const tries = [1.3, 1.2, 1.1, 1].map((f) => [f, 0.7])
      .concat([0.62, 0.55, 0.5, 0].map((m) => [1, m]))
      .concat([0.97, 0.94, 0.91, 0.88, 0.85, 0.8, 0.7, 0.6].map((f) => [f, 0]));
    for (const [f, m] of tries) {
      explain.style.fontSize = `${(base * f).toFixed(1)}px`;
      if (more) {
        more.style.setProperty("--loo-more", `${m || 0.5}em`);
        more.style.display = m ? "" : "none";
      }
      if (explain.scrollHeight <= explain.clientHeight + 1) break;
    }
  }
  const aw = board.clientWidth;
  const ah = board.clientHeight;
  const n = Math.max(1, inner.querySelectorAll(".loo-seat").length);
  // the board's text is 20 px before scaling: at least 20 px at 1280 wide means a scale of at
  // least innerWidth / 1280. Where the biggest layout falls short, the board gives way a step at
  // a time (the turn-up's caption, which its card and the step's words already say; lines that
  // say no trick is won yet; a felt wrapped narrower) before its words get smaller.
  const want = window.innerWidth / 1280;
  const TIGHT = ["", "loo-tight-1", "loo-tight-2", "loo-tight-3"];
  /** @typedef {{ c: number, k: number, w: number, level: string }} Layout */
  /** @type {Layout | null} */
  let best = null;
  for (const level of TIGHT) {
    for (const t of TIGHT) if (t) inner.classList.toggle(t, !!level && TIGHT.indexOf(t) <= TIGHT.indexOf(level));
    inner.style.transform = "";
    inner.style.left = "0px";
    /** @type {Layout | null} */
    let here = null;
    for (let c = 1; c <= n; c += 1) {
      inner.style.setProperty("--loo-cols", String(c));
      const w = Math.max(1, inner.offsetWidth);
      const hh = Math.max(1, inner.offsetHeight);
      const k = Math.min(aw / w, ah / hh, 2.5);
      if (!here || k > here.k + 0.001) here = { c, k, w, level };
    }
    if (!here) continue; // (n >= 1: never)
    if (!best || here.k > best.k + 0.001) best = here;
    if (here.k >= want) break;
  }
  if (!best) return; // (TIGHT is not empty: never)
  for (const t of TIGHT) if (t) inner.classList.toggle(t, !!best.level && TIGHT.indexOf(t) <= TIGHT.indexOf(best.level));
  inner.style.setProperty("--loo-cols", String(best.c));
  inner.style.left = `${Math.max(0, (aw - best.w * best.k) / 2)}px`;
  inner.style.transform = `scale(${best.k})`;
  root.dataset.fit = best.k.toFixed(3);
}

const ROLE_WORDS = { dealer: "Dealer", elder: "Elder hand" };

/** @param {import("./types").TableView} view */
function isOver(view) {
  return playedOut(view) || view.phase === "settled";
}

/**
 * @param {import("./types").TableView} view
 * @param {import("./types").Seat} seat
 * @param {string} faces
 */
function drawSeat(view, seat, faces) {
  /** @type {string[]} */
  const tags = [];
  if (seat.seat === view.dealer) tags.push(ROLE_WORDS.dealer);
  if (seat.seat === view.elder) tags.push(ROLE_WORDS.elder);
  const status = statusText(seat);
  // (the tag only where the seat's own line does not already say so: "In: took the miss")
  if (view.miss_holder === seat.seat && !/miss/.test(status)) tags.push("Holds the miss");
  const toAct = view.to_act === seat.seat && !isOver(view);
  const n = typeof seat.n_cards === "number" ? seat.n_cards : (seat.cards || []).length;
  const shown = faces === "up" && Array.isArray(seat.cards);
  /** @type {(string | null)[]} */
  const codes = shown && seat.cards ? seat.cards : Array(n).fill(null);
  const won = seat.tricks_won || 0;
  const words = [`Seat ${seat.seat}`, ...tags, toAct ? "to act" : null, status, `${won} trick${won === 1 ? "" : "s"} won`]
    .filter(Boolean)
    .join(", ");
  return h(
    "div",
    {
      class: "loo-seat" + (toAct ? " loo-to-act" : "") + (seat.status === "out" ? " loo-out" : ""),
      role: "group",
      "aria-label": words,
      "data-seat": seat.seat,
    },
    h(
      "div",
      { class: "loo-seat-head" },
      h("span", { text: `Seat ${seat.seat}` }),
      toAct ? h("span", { class: "loo-tag loo-tag-act", text: "\u25B6 To act" }) : null,
      tags.map((t) => h("span", { class: "loo-tag", text: t })),
    ),
    status ? h("div", { class: "loo-seat-status", text: status }) : null,
    codes.length
      ? h(
          "div",
          { class: "loo-fan", role: "group", "aria-label": shown ? `seat ${seat.seat}'s cards` : `seat ${seat.seat}'s cards, face down` },
          codes.map((c) => cardEl(c, { size: "huge" })),
        )
      : h("div", { class: "loo-fan loo-muted", text: seat.status === "out" ? "no cards (thrown up)" : "no cards left" }),
    h("div", { class: "loo-seat-status loo-seat-tricks", "data-won": String(won) }, `Tricks won: ${won} `, h("span", { "aria-hidden": "true", text: "\u25CF".repeat(won) })),
  );
}

// One rule: its id, its plain words (unless the step's text already says them), the book's words.
/**
 * @param {import("./types").Law} law
 * @param {string | undefined} said
 */
function drawLaw(law, said) {
  const slug = law.rule ? String(law.rule).replace(/-/g, " ") : "";
  const reason = law.reason && !String(said || "").includes(law.reason) ? law.reason : slug ? `(${slug})` : "";
  return h(
    "div",
    { class: "loo-law", "data-rule": law.rule_id || "" },
    h("div", { class: "loo-law-head" }, h("span", { class: "loo-rule", text: law.rule_id || "" }), reason ? ` ${reason}` : ""),
    law.quote ? h("blockquote", { class: "loo-quote", text: `\u201C${law.words || law.quote}\u201D` }) : null,
    law.quote ? h("div", { class: "loo-cite", text: `\u2014 ${law.book || ""}` }) : null,
  );
}

// What was not allowed. With the hands hidden, cards the player still held are not named.
/**
 * @param {NonNullable<import("./types").Step["forbidden"]>} forbidden
 * @param {string} faces
 */
function drawForbidden(forbidden, faces) {
  if (!forbidden.length) return null;
  const cards = forbidden.filter((f) => parseCode(f.key));
  const others = forbidden.filter((f) => !parseCode(f.key));
  /** @type {HTMLLIElement[]} */
  const items = [];
  if (faces === "up") {
    for (const f of cards) items.push(h("li", {}, h("strong", { text: cardLabel(f.key) }), ": ", h("span", { class: "loo-rule", text: f.law.rule_id || "" }), ` ${f.law.reason || ""}`));
  } else if (cards.length) {
    const ids = [...new Set(cards.map((f) => f.law.rule_id || ""))].filter(Boolean).join(", ");
    items.push(h("li", {}, h("strong", { text: `${cards.length} other card${cards.length === 1 ? "" : "s"} in his hand` }), ids ? ` (${ids})` : ""));
  }
  for (const f of others) items.push(h("li", {}, h("strong", { text: f.label || f.key }), ": ", h("span", { class: "loo-rule", text: f.law.rule_id || "" }), ` ${f.law.reason || ""}`));
  return h("div", { class: "loo-notallowed" }, h("p", { class: "loo-muted", text: "Not allowed here:" }), h("ul", {}, items));
}

// The tricks already complete, one line each (the cards are face up once played).
/** @param {import("./types").TableView} view */
function drawHistory(view) {
  const tricks = view.tricks || [];
  if (!tricks.length) return null;
  return h(
    "div",
    { class: "loo-history-big" },
    h("p", { class: "loo-muted", text: "Tricks played:" }),
    h(
      "ol",
      {},
      tricks.map((t) => {
        const plays = Array.isArray(t) ? t : t.plays || [];
        const who = !Array.isArray(t) && t.winner !== undefined && t.winner !== null ? ` \u2192 seat ${t.winner}` : "";
        return h("li", { text: plays.map(([seat, code]) => `seat ${seat} ${cardLabel(code)}`).join(", ") + who });
      }),
    ),
  );
}

/** @param {string | undefined} rules */
function rulesName(rules) {
  const r = String(rules || "");
  return r ? `${r.charAt(0).toUpperCase()}${r.slice(1)}'s rules` : "";
}

export default {
  /** @param {import("./types").RenderProps<import("./types").PresentTraits>} props */
  render({ model, el }) {
    const steps = () => ((model.get("data") || {}).steps || []);
    const state = () => ({ step: model.get("step"), faces: model.get("faces") });
    /** @param {PresentEvent} ev what the controller's EVENTS accept */
    const send = (ev) => act(model, ev, () => presentReduce(steps().length, state(), ev));
    /** @type {Record<string, PresentEvent["type"]>} */
    const keyMap = {
      ArrowRight: "next", PageDown: "next", " ": "next",
      ArrowLeft: "prev", PageUp: "prev",
      Home: "first", End: "last", f: "toggle", F: "toggle",
    };
    let full = false;
    /** @type {(() => void) | null} */
    let redraw = null;
    const setFull = (/** @type {boolean} */ on) => {
      full = on;
      const root = /** @type {HTMLElement | null} */ (el.querySelector(".loo"));
      if (!root) return;
      root.classList.toggle("loo-fullscreen", on);
      // fitted (or given back its own size) at once, not a frame later with the old scale
      presentFit(root);
      document.documentElement.style.overflow = on ? "hidden" : "";
      if (on) {
        root.focus();
        if (root.requestFullscreen && !document.fullscreenElement) root.requestFullscreen().catch(() => {});
      } else if (document.fullscreenElement && document.exitFullscreen) {
        document.exitFullscreen().catch(() => {});
      }
      if (redraw) redraw();
    };
    document.addEventListener("fullscreenchange", () => {
      if (!document.fullscreenElement && full && el.querySelector(".loo") && !el.querySelector(".loo")?.contains(document.activeElement)) setFull(false);
    });
    window.addEventListener("resize", () => {
      const root = /** @type {HTMLElement | null} */ (el.querySelector(".loo"));
      if (root && full) presentFit(root);
    });
    el.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && full) {
        ev.preventDefault();
        setFull(false);
        return;
      }
      if ((ev.key === "p" || ev.key === "P") && !ev.altKey && !ev.ctrlKey && !ev.metaKey) {
        ev.preventDefault();
        setFull(!full);
        return;
      }
      const target = ev.target instanceof Element ? ev.target : null;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const type = keyMap[ev.key];
      if (!type) return;
      if (ev.key === " " && target && target.tagName === "BUTTON") return; // Space presses the button
      ev.preventDefault();
      ev.stopPropagation();
      send({ type });
    });
    redraw = mount(el, model, ["data", "step", "faces"], (body, say) => {
      const d = model.get("data") || {};
      const all = d.steps || [];
      const { step, faces } = presentReduce(all.length, state(), { type: "none" });
      /** @type {import("./types").Step} */
      const s = all[step] || { title: "No steps", text: "" };
      const view = s.view || {};
      const seats = [...(view.seats || [])].sort((a, b) => a.seat - b.seat);
      const root = body.parentElement;
      if (root && !root.classList.contains("loo-present")) {
        root.classList.add("loo-present");
        root.setAttribute("tabindex", "0");
        root.setAttribute("role", "region");
        root.setAttribute("data-lm-suppress-shortcuts", "true"); // JupyterLab: the keys are ours
        root.setAttribute("aria-label", `Presenter: seed ${d.seed}, ${d.players} players, ${rulesName(d.rules)}`);
      }
      fill(
        body,
        h(
          "div",
          { class: "loo-banner" },
          h("span", { class: "loo-seed", "data-seed": d.seed, text: `Seed ${d.seed}` }),
          h("span", { class: "loo-rules-name", text: rulesName(d.rules) }),
          h("span", { class: "loo-players", text: `${d.players} players` }),
          h("span", { class: "loo-book" }, d.book ? `${d.book}. ` : "", "Same cards anywhere: ", h("code", { class: "loo-call", text: d.call || "" })),
        ),
        h(
          "div",
          { class: "loo-controls", role: "group", "aria-label": "step through the deal" },
          button([h("span", { "aria-hidden": "true", text: "\u25C0 " }), "Back"], () => send({ type: "prev" }), { action: "prev", focusId: "prev", ariaDisabled: step === 0, ariaLabel: "Back to the previous step" }),
          h("span", { class: "loo-stepno loo-score", "data-step": step, "data-steps": all.length, text: `Step ${step + 1} of ${all.length}` }),
          button(["Forward", h("span", { "aria-hidden": "true", text: " \u25B6" })], () => send({ type: "next" }), { action: "next", focusId: "next", kind: "primary", ariaDisabled: step >= all.length - 1, ariaLabel: "Forward to the next step" }),
          button(faces === "up" ? "Hide the hands" : "Show the hands", () => send({ type: "toggle" }), { action: "toggle", focusId: "toggle" }),
          button(full ? "Leave full screen" : "Full screen", () => setFull(!full), { action: "fullscreen", focusId: "fullscreen", pressed: full, ariaLabel: full ? "leave full screen (Escape)" : "full screen, for a projector (P)" }),
          h("span", { class: "loo-keys", text: "Keys: \u2190 \u2192 step, F hides or shows the hands, P full screen" }),
        ),
        full ? null : dealForm(model, d, "Deal this seed"),
        h(
          "div",
          { class: "loo-fit" },
          h(
          "div",
          { class: "loo-stage" },
          h(
            "div",
            { class: "loo-explain" },
            h("div", { class: "loo-step-title", "data-kind": s.kind || "", text: s.title || "" }),
            s.text ? h("p", { class: "loo-step-text", text: s.text }) : null,
            (s.laws || []).map((law) => drawLaw(law, s.text)),
            h(
              "div",
              { class: "loo-more" },
              drawForbidden(s.forbidden || [], faces),
              (s.working || []).length
                ? h("ol", { class: "loo-working" }, (s.working || []).map((w) => h("li", {}, w.rule_id ? h("span", { class: "loo-rule", text: w.rule_id }) : null, w.rule_id ? " " : "", w.text)))
                : null,
              drawHistory(view),
            ),
          ),
          h(
            "div",
            { class: "loo-board" },
            h(
              "div",
              { class: "loo-board-in", "data-phase": view.phase || "" },
              felt(view, { size: "huge", faces, big: true }),
              h("div", { class: "loo-seats", "data-faces": faces }, seats.map((seat) => drawSeat(view, seat, faces))),
            ),
          ),
        ),
        ),
      );
      const fitRoot = body.parentElement;
      if (fitRoot) requestAnimationFrame(() => presentFit(fitRoot));
      say(`Step ${step + 1} of ${all.length}: ${s.title || ""}. ${s.text || ""}${faces === "hidden" ? " Hands hidden." : ""}`);
    });
    const root = el.querySelector(".loo");
    if (root) root.prepend(h("style", { text: PRESENT_STYLE }));
  },
};
