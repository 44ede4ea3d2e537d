// @ts-check
// The `table` component: seats around a table (dealer, elder hand, in/out, cards, tricks won)
// and the felt in the middle (turn-up and trumps, the pool, the miss, the trick so far).
// `drawTable(view)` is shared by pick, quiz and stepper. The view is computed in Python
// (loo_lessons.explain.table.table_view, or a quiz question's "view"): nothing here decides
// a rule, it only draws.
import { h, fill, cardEl, cardLabel, cardRow, mount, suitWord, SUIT_SYMBOLS, DECLARATION_WORDS } from "./cards.js";

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
// projection size (huge cards, the miss fanned); `faces: "hidden"` turns the miss face down.
/**
 * @param {TableView} view
 * @param {{ size?: Size, faces?: string, big?: boolean }} [opts]
 */
export function felt(view, { size = "medium", faces = "up", big = false } = {}) {
  const bigNum = (/** @type {string} */ text) =>
    h("span", big ? { class: "loo-bignum", text } : { style: "font-size:2.2em;font-weight:800;line-height:1.1", text });
  const note = (/** @type {string} */ text) => h("span", { class: big ? "loo-felt-text" : "loo-muted", text });
  /** @type {HTMLElement[]} */
  const spots = [];
  if (view.turn_up) {
    spots.push(
      spot(
        "Turn-up",
        cardEl(view.turn_up, { size }),
        h("span", { class: "loo-caption", text: `Trumps: ${SUIT_SYMBOLS[view.trumps ?? ""] || ""} ${suitWord(view.trumps)}` }),
      ),
    );
  } else if (view.trumps) {
    spots.push(spot("Trumps", bigNum(SUIT_SYMBOLS[view.trumps] || ""), h("span", { text: suitWord(view.trumps) })));
  }
  if (view.pool !== undefined && view.pool !== null) {
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
          : cardRow(codes, { size: "small", label: "the miss" }),
      ),
    );
  } else if (view.miss === "taken") {
    const who = view.miss_holder !== undefined && view.miss_holder !== null ? ` by seat ${view.miss_holder}` : "";
    spots.push(spot("Miss", note(`taken${who}`)));
  } else if (view.must) {
    spots.push(spot("Miss", note("none: a must")));
  }
  const done = (view.tricks || []).length;
  const plays = trickPlays(view.trick);
  const winner = view.trick_winner !== undefined && view.trick_winner !== null ? view.trick_winner : trickWinner(view.trick);
  if (plays.length || (view.to_act !== null && view.to_act !== undefined && view.phase === "play")) {
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
  return h("div", { class: "loo-felt", role: "group", "aria-label": "the table" }, spots);
}

/** @param {TableView} view */
function history(view) {
  const tricks = view.tricks || [];
  if (!tricks.length) return null;
  return h(
    "details",
    { class: "loo-history", open: true },
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
