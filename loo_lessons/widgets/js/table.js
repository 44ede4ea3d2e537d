// @ts-check
// The `table` component: seats around a table (dealer, elder hand, in/out, cards, tricks won)
// and the felt in the middle (turn-up and trumps, the pool, the miss, the trick so far).
// `drawTable(view)` is shared by pick, quiz and stepper. The view is computed in Python
// (loo_lessons.explain.table.table_view, or a quiz question's "view"): nothing here decides
// a rule, it only draws.
import { h, fill, cardEl, cardLabel, cardName, cardRow, mount, parseCode, suitWord, SUIT_SYMBOLS, DECLARATION_WORDS } from "./cards.js";

/** @typedef {import("./types").TableView} TableView */
/** @typedef {import("./types").Seat} Seat */
/** @typedef {import("./types").Trick} Trick */
/** @typedef {import("./types").OwnSeat} OwnSeat */
/** @typedef {import("./types").Size} Size */

/**
 * @param {Trick | null | undefined} t
 * @returns {import("./types").Play[]}
 */
function trickPlays(t) {
  if (!t) return [];
  if (Array.isArray(t)) return t;
  return t.plays || [];
}

/**
 * @param {Trick | null | undefined} t
 * @returns {number | null}
 */
function trickWinner(t) {
  return t && !Array.isArray(t) && t.winner !== undefined ? t.winner : null;
}

// Three tricks won in all: the deal has been played out (drawing only, no rule decided).
/** @param {TableView} view */
export function playedOut(view) {
  return (view.seats || []).reduce((n, s) => n + (s.tricks_won || 0), 0) >= 3;
}

/**
 * @param {TableView} view
 * @param {Seat} seat
 */
function seatCardCount(view, seat) {
  if (typeof seat.n_cards === "number") return seat.n_cards;
  if (seat.status === "out" || playedOut(view)) return 0;
  let played = 0;
  for (const t of [...(view.tricks || []), view.trick || []]) {
    for (const p of trickPlays(t)) if (p[0] === seat.seat) played += 1;
  }
  return Math.max(0, 3 - played);
}

// A seat's line under its name: in or out, and what it declared.
/** @param {Seat} seat */
export function statusText(seat) {
  const d = seat.declaration ? DECLARATION_WORDS[seat.declaration] || seat.declaration : null;
  if (seat.status === "in") return d ? `In: ${d}` : "In";
  if (seat.status === "out") return d ? `Out: ${d}` : "Out";
  if (seat.status === "to_declare") return "Still to declare";
  return d || "";
}

// `own`: {seat, node} — what the learner's seat shows in place of its cards (a task's
// clickable hand and declaration controls, js/play.js), or null.
/**
 * @param {TableView} view
 * @param {Seat} seat
 * @param {Size} size
 * @param {OwnSeat | null} [own]
 */
function seatPanel(view, seat, size, own = null) {
  /** @type {HTMLElement[]} */
  const tags = [];
  const words = [`Seat ${seat.seat}`];
  if (seat.seat === view.dealer || seat.role === "dealer") {
    tags.push(h("span", { class: "loo-tag", text: "Dealer" }));
    words.push("dealer");
  }
  if (seat.seat === view.elder || seat.role === "elder") {
    tags.push(h("span", { class: "loo-tag", text: "Elder hand" }));
    words.push("elder hand");
  }
  if (view.miss_holder === seat.seat) {
    tags.push(h("span", { class: "loo-tag", text: "Holds the miss" }));
    words.push("holds the miss");
  }
  const toAct = view.to_act === seat.seat && !playedOut(view);
  if (toAct) {
    tags.push(h("span", { class: "loo-tag loo-tag-act", text: "\u25B6 To act" }));
    words.push("to act");
  }
  const status = statusText(seat);
  if (status) words.push(status);
  /** @type {Node} */
  let cards;
  if (own && own.seat === seat.seat && own.node) {
    cards = own.node;
  } else if (Array.isArray(seat.cards)) {
    cards = seat.cards.length
      ? cardRow(seat.cards, { size, label: `seat ${seat.seat}'s cards` })
      : h("span", { class: "loo-muted", text: seat.status === "out" ? "no cards" : "no cards left" });
  } else {
    const n = seatCardCount(view, seat);
    cards = n
      ? cardRow(Array(n).fill(null), { size, label: `seat ${seat.seat}'s cards, face down` })
      : h("span", { class: "loo-muted", text: seat.status === "out" ? "no cards" : "no cards left" });
  }
  const won = seat.tricks_won || 0;
  words.push(`${won} trick${won === 1 ? "" : "s"} won`);
  return h(
    "div",
    {
      class: "loo-seat" + (toAct ? " loo-to-act" : "") + (seat.status === "out" ? " loo-out" : ""),
      role: "group",
      "aria-label": words.join(", "),
      "data-seat": seat.seat,
    },
    h("div", { class: "loo-seat-head" }, h("span", { text: `Seat ${seat.seat}` }), tags),
    status ? h("div", { class: "loo-seat-status", text: status }) : null,
    cards,
    h("div", { class: "loo-seat-status" }, `Tricks won: ${won} `, h("span", { "aria-hidden": "true", text: "\u25CF".repeat(won) })),
  );
}

/**
 * @param {string} title
 * @param {...import("./types").Kid} kids
 */
export function spot(title, ...kids) {
  return h("div", { class: "loo-spot" }, h("div", { class: "loo-spot-title", text: title }), kids);
}

// The middle of the table: turn-up, pool, miss, the trick so far. `big` is the presenter's
// projection size (huge cards, the miss fanned); `faces: "hidden"` turns the miss face down;
// `compact` (compactTable) draws it low: the miss small, the numbers smaller, and the
// turn-up beside a trick in play a card's label.
/**
 * @param {TableView} view
 * @param {{ size?: Size, faces?: string, big?: boolean, compact?: boolean }} [opts]
 */
export function felt(view, { size = "medium", faces = "up", big = false, compact = false } = {}) {
  const bigNum = (/** @type {string} */ text) =>
    h("span", big ? { class: "loo-bignum", text } : { class: compact ? "loo-num-felt" : null, style: compact ? null : "font-size:2.2em;font-weight:800;line-height:1.1", text });
  const plays = trickPlays(view.trick);
  const inPlay = plays.length > 0 || (view.to_act !== null && view.to_act !== undefined && view.phase === "play");
  const note = (/** @type {string} */ text) => h("span", { class: big ? "loo-felt-text" : "loo-muted", text });
  /** @type {HTMLElement[]} */
  const spots = [];
  const hasPool = view.pool !== undefined && view.pool !== null;
  const missBy = view.miss_holder !== undefined && view.miss_holder !== null ? ` by seat ${view.miss_holder}` : "";
  const missText = view.miss === "taken" ? `taken${missBy}` : !Array.isArray(view.miss) && view.must ? "none: a must" : null;
  // beside a trick in play (or the tricks played out), the trumps, the card turned up, the pool
  // and the miss in words, in one column
  const info = compact && (inPlay || playedOut(view));
  if (info) {
    spots.push(
      h(
        "div",
        { class: "loo-spot loo-spot-info" },
        view.trumps
          ? h(
              "div",
              { class: "loo-spot-title" },
              "Trumps ",
              h("span", { class: "loo-num-felt", role: "img", "aria-label": suitWord(view.trumps), text: SUIT_SYMBOLS[view.trumps] || "" }),
            )
          : null,
        view.turn_up ? h("span", { class: "loo-caption" }, "turn-up ", cardText(view.turn_up)) : null,
        hasPool
          ? h("div", { class: "loo-spot-title" }, "Pool ", h("span", { class: "loo-num-felt", role: "img", "aria-label": `${view.pool} counter${view.pool === 1 ? "" : "s"}`, text: String(view.pool) }))
          : null,
        missText ? h("span", { class: "loo-caption", text: `Miss: ${missText}` }) : null,
      ),
    );
  } else if (view.turn_up) {
    spots.push(
      spot(
        "Turn-up",
        cardEl(view.turn_up, { size }),
        h("span", { class: "loo-caption", text: compact ? `${suitWord(view.trumps)} trumps` : `Trumps: ${SUIT_SYMBOLS[view.trumps ?? ""] || ""} ${suitWord(view.trumps)}` }),
      ),
    );
  } else if (view.trumps) {
    spots.push(spot("Trumps", bigNum(SUIT_SYMBOLS[view.trumps] || ""), h("span", { text: suitWord(view.trumps) })));
  }
  if (hasPool && !info) {
    spots.push(spot("Pool", bigNum(String(view.pool)), h("span", { class: "loo-caption", text: view.pool === 1 ? "counter" : "counters" })));
  }
  if (Array.isArray(view.miss)) {
    const shown = view.miss.length ? view.miss : [null, null, null];
    const codes = faces === "up" ? shown : shown.map(() => null);
    spots.push(
      spot(
        "Miss",
        big
          ? h("div", { class: "loo-fan", role: "group", "aria-label": "the miss" }, codes.map((c) => cardEl(c, { size })))
          : h("div", { class: compact ? "loo-miss-row" : null }, cardRow(codes, { size: "small", label: "the miss" })),
      ),
    );
  } else if (missText && !info) {
    spots.push(spot("Miss", note(missText)));
  }
  const done = (view.tricks || []).length;
  const winner = view.trick_winner !== undefined && view.trick_winner !== null ? view.trick_winner : trickWinner(view.trick);
  if (inPlay) {
    const n = view.trick_number || Math.min(3, done + 1);
    spots.push(
      spot(
        `Trick ${n} of 3`,
        plays.length
          ? h(
              "div",
              { class: big ? "loo-trick" : "loo-row", role: "group", "aria-label": `trick ${n}` },
              plays.map(([seat, code]) =>
                cardEl(code, { size, caption: `seat ${seat}`, badge: winner === seat ? (big ? "wins the trick" : "wins") : null }),
              ),
            )
          : note("no card led yet"),
      ),
    );
  }
  return h("div", { class: "loo-felt" + (compact ? " loo-felt-compact" : ""), role: "group", "aria-label": "the table" }, spots);
}

// The tricks played so far: open under the full table, folded under the compact one.
/**
 * @param {TableView} view
 * @param {boolean} [open]
 */
function history(view, open = true) {
  const tricks = view.tricks || [];
  if (!tricks.length) return null;
  return h(
    "details",
    { class: "loo-history", open },
    h("summary", { text: `Tricks played (${tricks.length})` }),
    h(
      "ol",
      {},
      tricks.map((t) => {
        const w = trickWinner(t);
        const ps = trickPlays(t).map(([seat, code]) => `seat ${seat} ${cardLabel(code)}`).join(", ");
        return h("li", { text: ps + (w !== null ? ` \u2192 won by seat ${w}` : "") });
      }),
    ),
  );
}

// `own` (optional): {seat, node}, the learner's own controls drawn in his seat (see seatPanel).
/**
 * @param {TableView | null | undefined} view
 * @param {OwnSeat | null} [own]
 */
export function drawTable(view, own = null) {
  /** @type {TableView} */
  const v = view || {};
  const seats = [...(v.seats || [])].sort((a, b) => a.seat - b.seat);
  const size = seats.length > 6 ? "small" : "medium";
  const half = Math.ceil(seats.length / 2);
  // clockwise around the table: the top row left to right, then the bottom row right to left
  const top = seats.slice(0, half);
  const bottom = seats.slice(half).reverse();
  return h(
    "div",
    { class: "loo-table" },
    h("div", { class: "loo-seats" }, top.map((s) => seatPanel(v, s, size, own))),
    felt(v),
    bottom.length ? h("div", { class: "loo-seats" }, bottom.map((s) => seatPanel(v, s, size, own))) : null,
    history(v),
  );
}

// One question, one screen (issue 34): the table as a question or a deal in play shows it, so
// that the prompt, the trick or the turn-up, the learner's own hand and the buttons fit a
// phone's screen (360×740) and a laptop's (1280×800) together. Every other seat takes one
// line (its name and tags, what it declared, its cards as a count or as labels, the card it
// played to this trick, its tricks won); the felt draws its cards small; the seat the
// question is seen from (`own.seat`) is drawn whole, with `own.node` (the learner's cards as
// the buttons, or his declarations) in place of its cards, or its cards when there is none.

/**
 * @param {TableView} view
 * @param {Seat} seat
 * @returns {HTMLElement | null} what the seat played to the trick on the felt, if anything
 */
function playedNow(view, seat) {
  const mine = trickPlays(view.trick).find((p) => p[0] === seat.seat);
  return mine ? h("span", { class: "loo-line-played" }, h("span", { class: "loo-played-word", text: "played " }), cardText(mine[1])) : null;
}

// A card as a short label (10♥), its suit symbol always drawn and red suits in red, so that
// colour is never the only cue; read out by its name.
/** @param {string | null | undefined} code */
export function cardText(code) {
  const c = parseCode(code);
  if (!c) return h("span", { class: "loo-cardtext loo-back", role: "img", "aria-label": cardName(code), text: "\u25AE" });
  return h("span", {
    class: "loo-cardtext" + (c.suit === "H" || c.suit === "D" ? " loo-red" : ""),
    role: "img",
    "aria-label": cardName(code),
    text: cardLabel(code),
  });
}

/**
 * The tags of a seat (dealer, elder hand, holds the miss, to act) and their words.
 * @param {TableView} view
 * @param {Seat} seat
 * @returns {{ tags: HTMLElement[], words: string[], toAct: boolean }}
 */
function seatTags(view, seat) {
  /** @type {HTMLElement[]} */
  const tags = [];
  /** @type {string[]} */
  const words = [];
  const tag = (/** @type {string} */ text, /** @type {string} */ said, cls = "loo-tag") => {
    tags.push(h("span", { class: cls, text }));
    words.push(said);
  };
  if (seat.seat === view.dealer || seat.role === "dealer") tag("Dealer", "dealer");
  if (seat.seat === view.elder || seat.role === "elder") tag("Elder hand", "elder hand");
  if (view.miss_holder === seat.seat) tag("Holds the miss", "holds the miss");
  const toAct = view.to_act === seat.seat && !playedOut(view);
  if (toAct) tag("\u25B6 To act", "to act", "loo-tag loo-tag-act");
  return { tags, words, toAct };
}

/**
 * One other seat as one line.
 * @param {TableView} view
 * @param {Seat} seat
 */
function seatLine(view, seat) {
  const { tags, words, toAct } = seatTags(view, seat);
  const status = statusText(seat);
  if (status) words.push(status);
  /** @type {import("./types").Kid} */
  let cards;
  if (Array.isArray(seat.cards)) {
    cards = seat.cards.length
      ? h("span", { class: "loo-line-cards", role: "group", "aria-label": `seat ${seat.seat}'s cards` }, seat.cards.map((c) => [cardText(c), " "]))
      : null;
  } else {
    const n = seatCardCount(view, seat);
    cards = n
      ? h(
          "span",
          { class: "loo-line-cards", role: "img", "aria-label": `${n} card${n === 1 ? "" : "s"} face down` },
          Array(n).fill(null).map(() => h("span", { class: "loo-mini-back" })),
        )
      : null;
  }
  const won = seat.tricks_won || 0;
  words.push(`${won} trick${won === 1 ? "" : "s"} won`);
  return h(
    "div",
    {
      class: "loo-seat loo-seat-line" + (toAct ? " loo-to-act" : "") + (seat.status === "out" ? " loo-out" : ""),
      role: "group",
      "aria-label": [`Seat ${seat.seat}`, ...words].join(", "),
      "data-seat": seat.seat,
    },
    h("span", { class: "loo-seat-name", text: `Seat ${seat.seat}` }),
    tags,
    status ? h("span", { class: "loo-seat-status", text: status }) : null,
    cards,
    playedNow(view, seat),
    won ? h("span", { class: "loo-line-won", "aria-hidden": "true", text: "\u25CF".repeat(won) }) : null,
  );
}

/**
 * The seat the question is seen from, whole: its head line, and `node` in place of its cards.
 * @param {TableView} view
 * @param {Seat} seat
 * @param {Node | null} node
 */
function ownPanel(view, seat, node) {
  const { tags, words, toAct } = seatTags(view, seat);
  const status = statusText(seat);
  if (status) words.push(status);
  const won = seat.tricks_won || 0;
  words.push(`${won} trick${won === 1 ? "" : "s"} won`);
  /** @type {import("./types").Kid} */
  let cards = node;
  if (!cards) {
    const n = Array.isArray(seat.cards) ? seat.cards.length : seatCardCount(view, seat);
    cards = n
      ? cardRow(Array.isArray(seat.cards) ? seat.cards : Array(n).fill(null), { size: "small", label: `seat ${seat.seat}'s cards` })
      : h("span", { class: "loo-muted", text: seat.status === "out" ? "no cards" : "no cards left" });
  }
  return h(
    "div",
    {
      class: "loo-seat loo-seat-own" + (toAct ? " loo-to-act" : "") + (seat.status === "out" ? " loo-out" : ""),
      role: "group",
      "aria-label": [`Seat ${seat.seat}`, ...words].join(", "),
      "data-seat": seat.seat,
    },
    h(
      "div",
      { class: "loo-seat-head" },
      h("span", { text: `Seat ${seat.seat}` }),
      tags,
      // "still to declare" beside "to act" says it twice (the words stay in the seat's label)
      status && !(toAct && seat.status === "to_declare") ? h("span", { class: "loo-seat-status", text: status }) : null,
      won ? h("span", { class: "loo-line-won", "aria-hidden": "true", text: "\u25CF".repeat(won) }) : null,
    ),
    cards,
  );
}

/**
 * The table of a question or a deal in play, compact (see above). `own`: the seat it is seen
 * from and what that seat shows in place of its cards, or null (every seat a line).
 * @param {TableView | null | undefined} view
 * @param {OwnSeat | null} [own]
 */
export function compactTable(view, own = null) {
  /** @type {TableView} */
  const v = view || {};
  const seats = [...(v.seats || [])].sort((a, b) => a.seat - b.seat);
  const mine = own ? seats.find((s) => s.seat === own.seat) || null : null;
  const others = seats.filter((s) => s !== mine);
  return h(
    "div",
    { class: "loo-table loo-compact" },
    others.length ? h("div", { class: "loo-seat-lines", role: "group", "aria-label": "the other seats" }, others.map((s) => seatLine(v, s))) : null,
    felt(v, { size: "small", compact: true }),
    mine ? ownPanel(v, mine, own ? own.node : null) : null,
  );
}

// The tricks played so far under a compact table, folded: drawn by the caller under its
// controls, so that nothing comes between the learner's hand and its buttons.
/** @param {TableView | null | undefined} view */
export function tricksPlayed(view) {
  return history(view || {}, false);
}

export default {
  /** @param {import("./types").RenderProps<import("./types").TableTraits>} props */
  render({ model, el }) {
    mount(el, model, ["data"], (body) => {
      const d = model.get("data") || {};
      fill(body,
        d.title ? h("h3", { text: d.title }) : null,
        d.caption ? h("p", { text: d.caption }) : null,
        drawTable(d.view || {}),
      );
    });
  },
};
