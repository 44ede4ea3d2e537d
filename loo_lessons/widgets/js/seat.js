// @ts-check
// The `seat` component: a pupil's seat at a class table on the hub (issue 27). The tables
// service's referee (the engine) decides everything; widgets/controllers/seat.py carries the
// pupil's clicks to it and its answers back. This draws the seat's view as the service sent
// it: the pupil's own three cards, the turn-up and trumps, the declarations, the tricks so far,
// the seats (whose turn, who is away and played by a bot), the pool and counters, the legal
// moves as buttons, a refused move with its rule id and the book's words, and the ledger.
// Before joining, a box for the table's code. Names are the pupils' own text: drawn as text.
import { h, fill, button, cardEl, cardRow, mount, lawLines, cardLabel, suitWord, DECLARATION_WORDS } from "./cards.js";
import { playRequest } from "./play.js";

/** @typedef {import("./types").Model<import("./types").SeatTraits>} SeatModel */
/** @typedef {import("./types").SeatView} SeatView */

// Tap targets of 44 px; a view that fits a phone's width (360 px and up).
const SEAT_STYLE = `
.loo-seat .loo-btn, .loo-seat input { min-height: 44px; min-width: 44px; font-size: 1rem; }
.loo-seat-code { font-size: 1.2rem; letter-spacing: .15em; text-transform: uppercase; width: 8em; }
.loo-seat-seats { border-collapse: collapse; margin: .4em 0; }
.loo-seat-seats td, .loo-seat-seats th { border: 1px solid var(--loo-line, #999); padding: .2em .5em; }
.loo-seat-seats tr.loo-seat-turn { background: var(--loo-hi, #ffd); font-weight: bold; }
.loo-seat-moves { display: flex; flex-wrap: wrap; gap: .4em; margin: .4em 0; }
.loo-seat-status { font-style: italic; }
.loo-seat-scroll { max-width: 100%; overflow-x: auto; }
.loo-seat-yours { font-weight: bold; font-size: 1.15rem; }
`;

/**
 * A seat's name in words: the pupil's name, or the bot's.
 * @param {SeatView} v
 * @param {number} seat
 */
function seatName(v, seat) {
  const s = v.seats[seat];
  if (!s) return `seat ${seat}`;
  if (s.name && s.away) return `${s.name} (away: the ${s.bot} bot plays)`;
  return s.name || `${s.bot} bot`;
}

/**
 * The ledger's heading: the deals settled, and which of them the view holds (its last ones).
 * @param {SeatView} v
 */
function ledgerTitle(v) {
  const n = v.ledger_deals;
  const all = `The ledger (${n} deal${n === 1 ? "" : "s"} settled`;
  return v.ledger.length < n ? `${all}; the last ${v.ledger.length} here, every one on the teacher's page)` : `${all})`;
}

/**
 * The box for the table's code, before the pupil sits down.
 * @param {SeatModel} model
 */
function joinForm(model) {
  const code = h("input", { type: "text", class: "loo-seat-code", maxlength: "20", autocomplete: "off", "aria-label": "the table's code", "data-focus": "seat-code", placeholder: "K7QMRT" });
  const go = () => {
    if (code.value.trim()) playRequest(model, { type: "join", table: code.value.trim() });
  };
  code.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") go();
  });
  return h(
    "div",
    { class: "loo-row", role: "group", "aria-label": "join a table" },
    h("label", {}, "The table's code ", code),
    button("Sit down", go, { action: "join", focusId: "seat-join" }),
  );
}

/**
 * The table as the seat sees it.
 * @param {SeatModel} model
 * @param {SeatView} v
 * @param {(message: string) => void} say
 */
function seatView(model, v, say) {
  const p = v.public;
  const deals = v.deals ? `deal ${v.deal} of ${v.deals}` : `deal ${v.deal} (until the teacher stops the table)`;
  const seated = v.seats.filter((s) => s.name).length;
  const turn = v.over
    ? "The table is over."
    : v.waiting
      ? `Waiting for the teacher to start the table (${seated} of ${v.players} seats have a pupil).`
      : v.your_turn
      ? "Your turn."
      : v.to_act === null
        ? ""
        : `Waiting for ${seatName(v, v.to_act)} (seat ${v.to_act}).`;
  say(turn);
  const declared = new Map(p.declarations.map(([s, d]) => [s, DECLARATION_WORDS[/** @type {keyof typeof DECLARATION_WORDS} */ (d)] || d]));
  const rows = v.seats.map((s) =>
    h(
      "tr",
      { class: v.to_act === s.seat ? "loo-seat-turn" : null },
      h("td", { text: String(s.seat) + (s.seat === v.seat ? " (you)" : "") + (s.seat === p.dealer ? ", deals" : "") }),
      h("td", { text: seatName(v, s.seat) }),
      h("td", { text: declared.get(s.seat) || "" }),
      h("td", { text: String(v.balances[s.seat]) }),
    ),
  );
  const tricks = p.tricks.map((t, i) =>
    h("li", {}, `Trick ${i + 1}: `, t.map(([s, c]) => `seat ${s} ${cardLabel(c)}`).join(", "), p.winners[i] !== undefined ? ` — seat ${p.winners[i]} won it` : ""),
  );
  const refused = v.refused;
  return [
    h("h3", { class: "loo-seat-title", "data-number": String(v.number), text: `Table ${v.table}: ${deals}, you are seat ${v.seat}` }),
    h("p", { class: "loo-seat-turnline" + (v.your_turn ? " loo-seat-yours" : ""), role: "status", text: turn }),
    h(
      "p",
      {},
      `Pool ${v.pool}. `,
      p.turn_up ? `The turn-up: ${cardLabel(p.turn_up)}; trumps: ${suitWord(p.trumps || "")}.` : "Trumps are not turned yet.",
      p.must ? " A must: everyone plays." : "",
    ),
    p.turn_up ? h("div", { class: "loo-seat-turnup" }, cardEl(p.turn_up, { size: "small", caption: "turn-up" })) : null,
    h("div", { class: "loo-hand" }, h("strong", { text: "Your cards" }), v.hand.length ? cardRow(v.hand, { size: "medium", label: "your cards" }) : h("p", { class: "loo-muted", text: "none now" })),
    v.put_down.length ? h("p", { class: "loo-muted" }, "You put down: ", v.put_down.map((c) => cardLabel(c)).join(", ")) : null,
    v.legal.length ? h("strong", { text: v.public.phase === "play" ? "Play a card" : "Declare" }) : null,
    v.legal.length
      ? h(
          "div",
          { class: "loo-seat-moves", role: "group", "aria-label": "your moves" },
          v.legal.map((m) =>
            /^(10|[2-9JQKA])[CDHS]$/.test(m.key)
              ? cardEl(m.key, { size: "small", key: m.key, focusId: `move-${m.key}`, ariaLabel: `play ${cardLabel(m.key)}`, onClick: () => playRequest(model, { type: "move", key: m.key }) })
              : button(m.label, () => playRequest(model, { type: "move", key: m.key }), { key: m.key, focusId: `move-${m.key}`, action: "move" }),
          ),
        )
      : null,
    refused ? h("div", { class: "loo-verdict loo-wrong", role: "alert" }, h("p", { text: `Refused: ${refused.error}` }), refused.law ? lawLines(refused.law) : null) : null,
    tricks.length ? h("ol", { class: "loo-seat-tricks", "aria-label": "the tricks" }, tricks) : null,
    h(
      "div",
      { class: "loo-seat-scroll" },
      h(
        "table",
        { class: "loo-seat-seats" },
        h("tr", {}, h("th", { text: "seat" }), h("th", { text: "player" }), h("th", { text: "declared" }), h("th", { text: "counters" })),
        rows,
      ),
    ),
    v.ledger.length
      ? h(
          "details",
          { class: "loo-seat-ledger" },
          h("summary", { text: ledgerTitle(v) }),
          h(
            "ol",
            {},
            v.ledger.map((d) => h("li", {}, `Deal ${d.deal}, pool ${d.pool}`, h("ul", {}, d.lines.map((l) => h("li", { text: `${l.text} (${l.rule_id}; ${l.book})` }))))),
          ),
        )
      : null,
  ];
}

export default {
  /** @param {import("./types").RenderProps<import("./types").SeatTraits>} props */
  render({ model, el }) {
    el.classList.add("loo-seat");
    const style = h("style", {});
    style.textContent = SEAT_STYLE;
    mount(el, model, ["data"], (body, say) => {
      const d = model.get("data") || {};
      const v = d.view;
      fill(
        body,
        style,
        v ? seatView(model, v, say) : [h("h3", { text: "Sit at a class table" }), h("p", { class: "loo-muted", text: "Type the code your teacher wrote on the board." }), joinForm(model)],
        d.status ? h("p", { class: "loo-seat-status loo-muted", role: "status", text: d.status }) : null,
      );
      return v && v.legal.length ? `move-${v.legal[0].key}` : "seat-code";
    });
  },
};
