// @ts-check
// The `play` component: one deal against bots, from the learner's seat. The table shows his
// cards face up and everyone else's face down, the trick so far, the tricks won and the
// pool; his options are cards (or declaration buttons). A click on a legal option is sent to
// Python, which makes the move and lets the bots answer; a click on a forbidden one shows at
// once why not (the rule id, the reason, the book's words). "What may I play and why?"
// shows the whole verdict; Undo, Start again and Save transcript are sent to Python too.
// Data (all computed in Python, loo_lessons.widgets.play): {title, live, seat, players,
// view, phase, my_turn, over, prompt, cards, kind, choices: [{key, label, legal}],
// hint: {legal, why, allowed, forbidden, explanation} | null, log, since, can_undo,
// settlement: {working, result, receives, pays, next_pool, looed} | null, message, error,
// coach, review (js/coaching.js: "Ask the coach", and the review once the deal is over),
// task: {id, asks, asked, stand_in, refused, score: {result, baseline, decisions, coach_choice,
// mistakes, given_up, text, ...} | null} (the text says it all: drawn as Python wrote it) |
// null}. A task draws the learner's cards (and his declaration) in his own seat on the table,
// and sends a forbidden click to Python too, which refuses it with the engine's law.
// State: request ({n, type, key?, path?}: a click for Python), show_hint, tried (the
// forbidden option last clicked), save_name (the file name typed).
import { h, fill, button, cardEl, cardRow, mount, commit, proseEl, lawLines } from "./cards.js";
import { compactTable, tricksPlayed } from "./table.js";
import { coachPanel, reviewPanel } from "./coaching.js";

// A click for Python: a fresh request object (its counter changes, so the same click twice
// is two requests). T: the model's traits; `ev` is one of the requests its `request` trait
// takes (the play table's, the evening's, pass-and-play's: types.d.ts).
/**
 * @template {{ request?: import("./types").Requested<object> }} T
 * @param {import("./types").Model<T>} model
 * @param {import("./types").RequestIn<T["request"]>} ev
 */
export function playRequest(model, ev) {
  const prevN = model.get("request")?.n;
  const n = (typeof prevN === "number" && Number.isInteger(prevN) ? prevN : 0) + 1;
  commit(model, { request: { ...ev, n } });
}

/** @param {import("./types").Forbidden} f */
function playForbidden(f) {
  return h(
    "div",
    { class: "loo-verdict loo-wrong", "data-verdict": f.key },
    h("div", { class: "loo-verdict-head", text: `\u2717 ${f.label}: not allowed` }),
    lawLines(f),
  );
}

/** @param {NonNullable<import("./types").PlayData["hint"]>} hint */
function playHintPanel(hint) {
  const allowed = (hint.allowed || []).map((a) => a.label).join(", ");
  return h(
    "div",
    { class: "loo-hint", role: "region", "aria-label": "what you may play and why" },
    h("p", { class: "loo-prompt", text: "What may I play and why?" }),
    h(
      "div",
      { class: "loo-verdict loo-right", "data-verdict": "allowed" },
      h("div", { class: "loo-verdict-head", text: `\u2713 You may: ${allowed}` }),
      hint.why ? lawLines(hint.why) : null,
    ),
    (hint.forbidden || []).map(playForbidden),
    hint.explanation ? h("p", { class: "loo-muted", text: hint.explanation }) : null,
  );
}

/**
 * @param {import("./types").PlayData} d
 * @param {string | null | undefined} tried
 * @param {(c: import("./types").PlayChoice) => void} onPick
 * @param {import("./types").Size} [size]
 */
function playChoices(d, tried, onPick, size = "large") {
  const choices = d.choices || [];
  const cards = d.kind === "card";
  const items = choices.map((c) => {
    const wrong = tried === c.key && !c.legal;
    if (cards) {
      return cardEl(c.key, {
        size,
        onClick: () => onPick(c),
        key: c.key,
        focusId: `play-${c.key}`,
        state: wrong ? "wrong" : null,
        badge: wrong ? "\u2717 not allowed" : null,
        ariaLabel: `play ${c.label}`,
      });
    }
    return button(c.label, () => onPick(c), {
      key: c.key,
      focusId: `play-${c.key}`,
      kind: "primary",
      state: wrong ? "wrong" : null,
    });
  });
  return h(
    "div",
    { class: "loo-row loo-choices", role: "group", "aria-label": cards ? "your cards: click one to play it" : "your declaration: click one" },
    items,
  );
}

/** @param {NonNullable<import("./types").PlayData["settlement"]>} s */
function playSettlement(s) {
  const sign = s.result > 0 ? `+${s.result}` : String(s.result);
  return h(
    "div",
    { class: "loo-settlement", role: "region", "aria-label": "the settlement" },
    h("p", { class: "loo-prompt", text: "The settlement" }),
    h(
      "ol",
      { class: "loo-working" },
      (s.working || []).map((w) =>
        h("li", {}, w.rule_id ? h("span", { class: "loo-rule", text: w.rule_id }) : null, w.rule_id ? " " : "", w.text),
      ),
    ),
    h("p", { class: "loo-score", "data-result": s.result, text: `Your result this deal: ${sign} (you receive ${s.receives}, you pay ${s.pays}).` }),
  );
}

// The learner's seat on the table: when it is his turn, his cards are the buttons (or, to
// declare, his cards and the declarations he may make as controls on the seat), and the
// refusal of a forbidden click sits beside them; else his cards, drawn by the table.
/**
 * @param {import("./types").PlayData} d
 * @param {string | null} tried
 * @param {(c: import("./types").PlayChoice) => void} pick
 * @param {import("./types").Forbidden | null | undefined} triedVerdict
 * @returns {import("./types").OwnSeat}
 */
function ownSeat(d, tried, pick, triedVerdict) {
  if (!d.my_turn) return { seat: d.seat, node: null };
  const node = h(
    "div",
    { class: "loo-own", "data-own-seat": d.seat },
    d.kind === "declaration" ? cardRow(d.cards || [], { size: "small", label: "your cards" }) : null,
    playChoices(d, tried, pick, "medium"),
    triedVerdict ? playForbidden(triedVerdict) : null,
  );
  return { seat: d.seat, node };
}

// The end of a task, a short visual moment: the stars drawn as stars (one for each of
// `score.stars`, filled when earned; read out as Python words them), one short line (Python's
// `headline`, else its first sentence group), and the whole account folded below, as Python
// wrote it (its sentences one span each, joined by spaces as in `score.text`).
/**
 * @param {import("./types").TaskScore} sc
 * @param {Fold} fold
 */
function taskResult(sc, fold) {
  const parts = sc.parts || [{ kind: "all", text: sc.text }];
  // earned first, as a row of stars is read (which is which is in the words)
  const earned = Object.values(sc.stars || {}).sort((a, b) => Number(b) - Number(a));
  const said = parts.find((p) => p.kind === "stars");
  const line = sc.headline || (parts.find((p) => p.kind === "deal") || parts.find((p) => p.kind !== "stars") || parts[0]).text;
  return h(
    "div",
    {
      class: "loo-score loo-task-score",
      "data-result": sc.result,
      "data-baseline": sc.baseline,
      "data-refused": sc.refused,
      "data-decisions": sc.decisions,
      "data-coach-choice": sc.coach_choice,
      "data-mistakes": sc.mistakes,
      "data-stars": earned.filter(Boolean).length,
    },
    earned.length
      ? h(
          "p",
          { class: "loo-stars", role: "img", "aria-label": said ? said.text : sc.text },
          earned.map((on) => h("span", { class: on ? "loo-star-on" : "loo-star-off", "aria-hidden": "true", text: on ? "\u2605" : "\u2606" })),
        )
      : null,
    h("p", { class: "loo-result-line" }, h("strong", { text: "Task done. " }), line),
    fold(
      "account",
      "How you did, decision by decision",
      h(
        "p",
        {},
        parts.map((p, i) => [
          i ? " " : "",
          h("span", { class: p.kind === "note" || p.kind === "terms" ? "loo-muted" : null, "data-part": p.kind, text: p.text }),
        ]),
      ),
    ),
  );
}

/** @typedef {(key: string, summary: string, ...kids: import("./types").Kid[]) => HTMLDetailsElement} Fold */

// A folded block that stays as the reader left it (open or shut) when the table is redrawn.
/** @returns {Fold} */
function folds() {
  /** @type {Set<string>} */
  const opened = new Set();
  return (key, summary, ...kids) =>
    h(
      "details",
      {
        class: `loo-fold loo-fold-${key}`,
        open: opened.has(key),
        ontoggle: (/** @type {Event} */ ev) => {
          if (/** @type {HTMLDetailsElement} */ (ev.target).open) opened.add(key);
          else opened.delete(key);
        },
      },
      h("summary", { text: summary }),
      kids,
    );
}

// The task: its result above the table once the deal is over; while it goes on, what it asks
// (who makes which decisions) under the controls, the title and the prompt saying what to do.
/**
 * @param {import("./types").PlayData["task"]} task
 * @param {Fold} fold
 */
function taskPanel(task, fold) {
  if (!task) return null;
  const sc = task.score;
  return h(
    "div",
    { class: "loo-task", role: "region", "aria-label": "the task", "data-task": task.id },
    sc ? taskResult(sc, fold) : h("p", { class: "loo-muted loo-task-asks" }, h("strong", { text: "Task. " }), task.asked || ""),
  );
}

export const playComponent = {
  /** @param {import("./types").RenderProps<import("./types").PlayTraits>} props */
  render({ model, el }) {
    const live = () => (model.get("data") || {}).live !== false;
    const fold = folds();
    mount(el, model, ["data", "show_hint", "tried"], (body, say) => {
      const d = model.get("data") || {};
      const tried = model.get("tried") ?? null;
      const showHint = Boolean(model.get("show_hint")) && Boolean(d.my_turn) && Boolean(d.hint);
      const hint = d.hint || {};
      const triedVerdict = d.my_turn && tried !== null ? (hint.forbidden || []).find((f) => f.key === tried) : null;
      const pick = (/** @type {import("./types").PlayChoice} */ c) => {
        if (!c.legal) {
          // a task asks Python, which refuses it with the law (and counts it); else at once
          if (d.task && live()) playRequest(model, { type: "choose", key: c.key });
          else commit(model, { tried: c.key });
          return;
        }
        if (live()) playRequest(model, { type: "choose", key: c.key });
      };
      const nameBox = h("input", {
        type: "text",
        class: "loo-num loo-save-name",
        style: "width: 16em",
        "aria-label": "file name for the transcript",
        placeholder: "my-hand.json",
        "data-focus": "play-save-name",
      });
      nameBox.value = model.get("save_name") || "";
      nameBox.addEventListener("input", () => commit(model, { save_name: nameBox.value }));
      const log = d.log || [];
      const since = d.since || [];
      // one question, one screen: the title, the task, the prompt, the table (the other seats
      // a line each, the felt, his own seat with his cards as the buttons), the controls; the
      // rest (what happened since, the moves, the hint, the coach, the settlement) below or folded
      fill(
        body,
        d.title ? h("h3", { text: d.title }) : null,
        live() ? null : h("p", { class: "loo-muted", text: "The buttons work once the engine has loaded in this page." }),
        d.task && d.task.score ? taskPanel(d.task, fold) : null,
        d.over ? proseEl(d.after) : null,
        h("p", { class: "loo-prompt loo-play-prompt", "data-phase": d.phase || "", "data-moves": log.length, text: d.prompt || "" }),
        compactTable(d.view || {}, ownSeat(d, tried, pick, triedVerdict)),
        d.error && !(d.task && triedVerdict) ? h("p", { class: "loo-verdict loo-wrong loo-error", role: "alert", text: d.error }) : null,
        h(
          "div",
          { class: "loo-controls", role: "group", "aria-label": "hint, undo and save" },
          button(showHint ? "Hide the hint" : "What may I play and why?", () => commit(model, { show_hint: !model.get("show_hint") }), {
            action: "hint",
            focusId: "play-hint",
            ariaDisabled: !d.my_turn,
            pressed: showHint,
          }),
          d.my_turn
            ? button("Ask the coach", () => (live() ? playRequest(model, { type: "coach" }) : null), { action: "coach", focusId: "play-coach" })
            : null,
          // at a shared device (pass-and-play) a move made is made and the evening is saved on
          // the pass screen: none of the one-player controls
          d.shared ? null : button("\u21B6 Undo", () => (d.can_undo && live() ? playRequest(model, { type: "undo" }) : null), {
            action: "undo",
            focusId: "play-undo",
            ariaDisabled: !d.can_undo,
            ariaLabel: "undo: back to your previous decision",
          }),
          d.shared ? null : button("Start again", () => (d.can_undo && live() ? playRequest(model, { type: "restart" }) : null), {
            action: "restart",
            focusId: "play-restart",
            ariaDisabled: !d.can_undo,
          }),
          d.over && !d.shared
            ? button("Review my decisions", () => (live() ? playRequest(model, { type: "review" }) : null), { action: "review", focusId: "play-review" })
            : null,
        ),
        tricksPlayed(d.view),
        d.task && !d.task.score ? taskPanel(d.task, fold) : null,
        d.coach ? coachPanel(d.coach) : null,
        d.review ? reviewPanel(d.review) : null,
        showHint ? playHintPanel(hint) : null,
        d.settlement ? playSettlement(d.settlement) : null,
        d.message ? h("p", { class: "loo-message", role: "status", text: d.message }) : null,
        since.length ? fold("since", `Since your last decision (${since.length})`, h("ul", { class: "loo-history" }, since.map((t) => h("li", { text: t })))) : null,
        log.length ? fold("log", `All moves (${log.length})`, h("ol", { class: "loo-history" }, log.map((t) => h("li", { text: t })))) : null,
        d.shared
          ? null
          : fold(
              "save",
              "Save the transcript",
              h(
                "div",
                { class: "loo-controls" },
                nameBox,
                button("Save transcript", () => (live() ? playRequest(model, { type: "save", path: model.get("save_name") || "" }) : null), {
                  action: "save",
                  focusId: "play-save",
                }),
              ),
            ),
      );
      const spoken = [...(d.since || []), d.prompt || ""];
      if (triedVerdict) spoken.push(`${triedVerdict.label}: not allowed. ${triedVerdict.rule_id} ${triedVerdict.reason}`);
      if (d.error && !(d.task && triedVerdict)) spoken.push(d.error);
      if (d.task && d.task.score) spoken.push(d.task.score.text);
      say(spoken.join(" "));
      // after a move the card pressed is gone: the next decision's first option, or (the
      // deal over) Start again, takes the focus
      const first = d.my_turn ? (d.choices || [])[0] : null;
      return first ? `play-${first.key}` : "play-restart";
    });
  },
};

export default playComponent;
