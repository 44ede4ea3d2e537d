// @ts-check
// Card drawing helpers shared by every loo-lessons component, and the `cards` component
// (a row of cards). Plain ES module, no dependencies: the Python side (bundle.py) inlines
// this file into each component that imports from it. Components use only
// model.get / model.set / model.save_changes / model.on.
//
// Cards are SVG: rank and suit symbol in two corners, a large rank and suit in the middle,
// red for hearts and diamonds, near-black for clubs and spades (the symbol is always drawn,
// so colour is never the only cue). Suit symbols are SVG paths, not font glyphs, so they
// look the same on every machine. Every card has a spoken label ("queen of hearts");
// clickable cards are <button>s (keyboard focus, Enter and Space for free).

/** @typedef {import("./types").Kid} Kid */
/** @typedef {import("./types").Attrs} Attrs */
/** @typedef {import("./types").CardOpts} CardOpts */
/** @typedef {import("./types").ButtonOpts} ButtonOpts */
/** @typedef {import("./types").ProseRun} ProseRun */
/** @typedef {import("./types").Model} ComponentModel  any component's model */

/** @type {Record<string, string>} */
export const SUIT_PATHS = {
  H: "M50 94 C46 87 30 73 18 61 C6 49 0 39 0 28 C0 13 11 3 25 3 C36 3 45 10 50 20 C55 10 64 3 75 3 C89 3 100 13 100 28 C100 39 94 49 82 61 C70 73 54 87 50 94 Z",
  D: "M50 0 L88 50 L50 100 L12 50 Z",
  S: "M50 2 C44 14 30 26 17 37 C6 46 0 54 0 64 C0 77 10 86 23 86 C33 86 41 81 46 73 C45 84 40 92 30 98 L70 98 C60 92 55 84 54 73 C59 81 67 86 77 86 C90 86 100 77 100 64 C100 54 94 46 83 37 C70 26 56 14 50 2 Z",
  C: "M28 27 A22 22 0 1 1 72 27 A22 22 0 1 1 28 27 Z M2 62 A22 22 0 1 1 46 62 A22 22 0 1 1 2 62 Z M54 62 A22 22 0 1 1 98 62 A22 22 0 1 1 54 62 Z M38 44 L62 44 L62 66 L38 66 Z M46 58 C45 80 40 90 30 98 L70 98 C60 90 55 80 54 58 Z",
};
/** @type {Record<string, string>} */
export const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
/** @type {Record<string, string>} */
export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
/** @type {Record<string, string>} */
export const RANK_WORDS = {
  A: "ace", K: "king", Q: "queen", J: "jack", "10": "ten",
  "9": "9", "8": "8", "7": "7", "6": "6", "5": "5", "4": "4", "3": "3", "2": "2",
};
/** @type {Record<string, string>} */
export const DECLARATION_WORDS = {
  play: "stands",
  take_miss: "took the miss",
  pass: "threw up",
  play_miss_for_pool: "plays the miss for the pool",
};
const SVG_NS = "http://www.w3.org/2000/svg";
const CARD_FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
/** @type {Record<string, number>} */
export const CARD_WIDTHS = { small: 58, medium: 78, large: 108 };

/**
 * A card's code ("QH", "10S", "TS") as its rank and suit, or null.
 * @param {unknown} code
 * @returns {{ rank: string, suit: string } | null}
 */
export function parseCode(code) {
  if (typeof code !== "string") return null;
  const m = /^(10|[2-9AKQJ])([CDHS])$/.exec(code.trim().toUpperCase().replace(/^T/, "10"));
  return m ? { rank: m[1], suit: m[2] } : null;
}

/** @param {unknown} code */
export function cardName(code) {
  const c = parseCode(code);
  return c ? `${RANK_WORDS[c.rank]} of ${SUIT_WORDS[c.suit]}` : "face-down card";
}

/** @param {unknown} code */
export function cardLabel(code) {
  const c = parseCode(code);
  return c ? `${c.rank}${SUIT_SYMBOLS[c.suit]}` : "?";
}

/** @param {string | undefined} suit */
export function suitWord(suit) {
  return (suit && SUIT_WORDS[suit]) || "";
}

/**
 * An HTML element: its attributes (see Attrs) and its children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Kid} kids
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = /** @type {string} */ (v);
    else if (k === "text") e.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of /** @type {unknown[]} */ (kids).flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

/**
 * The law behind a verdict, as every table shows it: its rule id and plain reason, the book's
 * words, the book's name (explain/: rule_id, reason, quote, words, book).
 * @param {import("./types").Verdict} v
 * @returns {Kid[]}
 */
export function lawLines(v) {
  return [
    v.rule_id || v.reason
      ? h("p", {}, v.rule_id ? h("span", { class: "loo-rule", text: v.rule_id }) : null, " ", v.reason || "")
      : null,
    v.quote ? h("blockquote", { class: "loo-quote", text: `\u201C${v.words || v.quote}\u201D` }) : null,
    v.quote ? h("div", { class: "loo-cite", text: `\u2014 ${v.book || ""}` }) : null,
  ];
}

/**
 * The lesson's words shown once the learner has acted (`after=`, views/prose.py): paragraphs of
 * [text, style] runs, style "", "b", "i" or "code", drawn with text nodes only (never as HTML).
 * @param {ProseRun[][] | null | undefined} paragraphs
 * @param {string} [cls]
 * @returns {HTMLElement | null}
 */
export function proseEl(paragraphs, cls = "loo-after") {
  if (!Array.isArray(paragraphs) || !paragraphs.length) return null;
  /** @type {Record<string, "strong" | "em" | "code">} */
  const TAGS = { b: "strong", i: "em", code: "code" };
  return h(
    "div",
    { class: cls, role: "note" },
    paragraphs.map((runs) =>
      h("p", {}, (Array.isArray(runs) ? runs : []).map(([words, style]) => (TAGS[style] ? h(TAGS[style], { text: words }) : String(words)))),
    ),
  );
}

/**
 * Replace the children of `el` (null, undefined and false are skipped; arrays flattened).
 * @template {Element} E
 * @param {E} el
 * @param {...Kid} kids
 * @returns {E}
 */
export function fill(el, ...kids) {
  el.replaceChildren(
    .../** @type {(Node | string)[]} */ (/** @type {unknown[]} */ (kids).flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false)),
  );
  return el;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string | number | null | undefined>} attrs
 * @param {...(Node | null)} kids
 * @returns {SVGElement}
 */
function s(tag, attrs, ...kids) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  }
  for (const kid of kids) if (kid) e.append(kid);
  return e;
}

/**
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} colour
 */
function suitShape(suit, x, y, size, colour) {
  const k = size / 100;
  return s("path", {
    d: SUIT_PATHS[suit],
    fill: colour,
    transform: `translate(${x} ${y}) scale(${k})`,
  });
}

/**
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @param {string} colour
 * @param {string} str
 * @param {Record<string, string>} [extra]
 */
function text(x, y, size, colour, str, extra) {
  const t = s("text", {
    x, y, fill: colour,
    "font-size": size,
    "font-family": CARD_FONT,
    "font-weight": "700",
    "text-anchor": "middle",
    ...(extra || {}),
  });
  t.textContent = str;
  return t;
}

/**
 * The SVG picture of one card (code like "QH"), or of a face-down card (code null).
 * @param {string | null | undefined} code
 */
export function cardSvg(code) {
  const c = parseCode(code);
  const svg = s("svg", {
    viewBox: "0 0 100 140",
    class: "loo-card-svg",
    "aria-hidden": "true",
    focusable: "false",
  });
  if (!c) {
    svg.append(
      s("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#27408b", stroke: "#0f1c45", "stroke-width": 2 }),
      s("rect", { x: 9, y: 9, width: 82, height: 122, rx: 5, fill: "none", stroke: "#c9d3f5", "stroke-width": 2.5 }),
      s("path", { d: "M50 30 L74 70 L50 110 L26 70 Z", fill: "none", stroke: "#c9d3f5", "stroke-width": 2.5 }),
      s("path", { d: "M50 48 L63 70 L50 92 L37 70 Z", fill: "#c9d3f5" }),
    );
    return svg;
  }
  const red = c.suit === "H" || c.suit === "D";
  const ink = red ? "#c1121f" : "#111111";
  const court = c.rank === "K" || c.rank === "Q" || c.rank === "J";
  svg.append(s("rect", { x: 1.5, y: 1.5, width: 97, height: 137, rx: 9, fill: "#fffdf8", stroke: "#2b2b2b", "stroke-width": 2 }));
  if (court) {
    svg.append(s("rect", { x: 24, y: 24, width: 52, height: 92, rx: 4, fill: red ? "#fdeaea" : "#ececec", stroke: ink, "stroke-width": 1.5 }));
  }
  const ten = c.rank === "10";
  const corner = (/** @type {boolean} */ flip) => {
    const g = s("g", flip ? { transform: "rotate(180 50 70)" } : {});
    g.append(text(ten ? 13 : 12, 25, ten ? 19 : 23, ink, c.rank, ten ? { "letter-spacing": "-1.5" } : {}));
    g.append(suitShape(c.suit, 4.5, 30, 15, ink));
    return g;
  };
  svg.append(corner(false), corner(true));
  svg.append(text(50, 72, ten ? 38 : 44, ink, c.rank, ten ? { "letter-spacing": "-3" } : {}));
  svg.append(suitShape(c.suit, 31, 80, 38, ink));
  return svg;
}

// One card as a DOM element. Options: size ("small" | "medium" | "large"), onClick (makes
// it a button), focusId (kept across redraws), pressed (aria-pressed), badge (text under
// the card, e.g. "✓ legal"), state ("right" | "wrong" | "picked" | "missed" | null),
// caption (small text above the badge, e.g. "seat 3").
/**
 * @param {string | null | undefined} code
 * @param {CardOpts} [opts]
 */
export function cardEl(code, opts) {
  const o = opts || {};
  const size = o.size || "medium";
  const name = cardName(code);
  const cls = `loo-card loo-${size}` + (o.state ? ` loo-${o.state}` : "");
  /** @type {Element[]} */
  const kids = [cardSvg(code)];
  if (o.caption) kids.push(h("span", { class: "loo-caption", text: o.caption }));
  if (o.badge) kids.push(h("span", { class: "loo-badge", text: o.badge }));
  const label = o.ariaLabel || name + (o.badge ? ` (${o.badge.replace(/^[✓✗•] */, "")})` : "");
  if (o.onClick) {
    return h(
      "button",
      {
        type: "button",
        class: cls + " loo-clickable",
        "aria-label": label,
        "aria-pressed": o.pressed === undefined ? null : String(Boolean(o.pressed)),
        "data-key": o.key || code,
        "data-focus": o.focusId || `card-${code}`,
        onclick: (/** @type {Event} */ ev) => {
          ev.preventDefault();
          o.onClick?.(code);
        },
      },
      kids,
    );
  }
  return h("span", { class: cls, role: "img", "aria-label": label, "data-key": code || "" }, kids);
}

/**
 * A row of cards.
 * @param {readonly (string | null)[] | null | undefined} codes
 * @param {CardOpts} [opts]
 */
export function cardRow(codes, opts) {
  const o = opts || {};
  return h(
    "div",
    { class: "loo-row", role: o.role || "group", "aria-label": o.label || null },
    (codes || []).map((code) => cardEl(code, o)),
  );
}

/**
 * A text button (declarations, seats, numbers, options, controls).
 * @param {Kid} label
 * @param {() => void} onClick
 * @param {ButtonOpts} [opts]
 */
export function button(label, onClick, opts) {
  const o = opts || {};
  return h(
    "button",
    {
      type: "button",
      class: "loo-btn" + (o.kind ? ` loo-btn-${o.kind}` : "") + (o.state ? ` loo-${o.state}` : ""),
      "data-focus": o.focusId || `btn-${label}`,
      "data-key": o.key || null,
      "data-action": o.action || null,
      "aria-pressed": o.pressed === undefined ? null : String(Boolean(o.pressed)),
      "aria-label": o.ariaLabel || null,
      disabled: o.disabled ? true : null,
      "aria-disabled": o.ariaDisabled ? "true" : null,
      onclick: (/** @type {Event} */ ev) => {
        ev.preventDefault();
        onClick();
      },
    },
    label,
  );
}

export const STYLE = `
.loo {
  --loo-fg: var(--jp-content-font-color1, #1a1a1a);
  --loo-muted: var(--jp-content-font-color2, #4a4f57);
  --loo-bg: var(--jp-layout-color0, #ffffff);
  --loo-panel: var(--jp-layout-color1, #f2f4f7);
  --loo-border: var(--jp-border-color1, #b9bfc8);
  --loo-accent: #0b57d0;
  --loo-felt: #1e6a44;
  --loo-felt-fg: #ffffff;
  --loo-right-fg: #14532d; --loo-right-bg: #e3f4e8; --loo-right-bd: #2f8a4d;
  --loo-wrong-fg: #8a1116; --loo-wrong-bg: #fde8e8; --loo-wrong-bd: #c1121f;
  --loo-quote-bg: #f6f1e4; --loo-quote-fg: #3b3426;
  --loo-star: #9a6b00;
  color: var(--loo-fg);
  background: var(--loo-bg);
  font-family: system-ui, "DejaVu Sans", "Liberation Sans", Arial, sans-serif;
  font-size: 17px;
  line-height: 1.45;
  padding: 10px;
  border-radius: 10px;
  max-width: 1100px;
  box-sizing: border-box;
}
@media (prefers-color-scheme: dark) {
  .loo {
    --loo-fg: var(--jp-content-font-color1, #eceef2);
    --loo-muted: var(--jp-content-font-color2, #b9bec8);
    --loo-bg: var(--jp-layout-color0, #15171c);
    --loo-panel: var(--jp-layout-color1, #23272f);
    --loo-border: var(--jp-border-color1, #50576a);
    --loo-accent: #8ab4f8;
    --loo-felt: #1b5237;
    --loo-right-fg: #a7e9b8; --loo-right-bg: #173322; --loo-right-bd: #4fbf73;
    --loo-wrong-fg: #ffb8b0; --loo-wrong-bg: #3d1b1b; --loo-wrong-bd: #ff7b72;
    --loo-quote-bg: #2b2820; --loo-quote-fg: #efe6cf;
    --loo-star: #f2c230;
  }
}
/* an explicit theme wins over the system setting: the book's theme switch (html[data-theme])
   and JupyterLab's (body[data-jp-theme-light]; its --jp-* colours already give fg and bg) */
html[data-theme="dark"] .loo, body[data-jp-theme-light="false"] .loo {
  --loo-accent: #8ab4f8; --loo-felt: #1b5237; --loo-star: #f2c230;
  --loo-right-fg: #a7e9b8; --loo-right-bg: #173322; --loo-right-bd: #4fbf73;
  --loo-wrong-fg: #ffb8b0; --loo-wrong-bg: #3d1b1b; --loo-wrong-bd: #ff7b72;
  --loo-quote-bg: #2b2820; --loo-quote-fg: #efe6cf;
}
html[data-theme="light"] .loo, body[data-jp-theme-light="true"] .loo {
  --loo-accent: #0b57d0; --loo-felt: #1e6a44; --loo-star: #9a6b00;
  --loo-right-fg: #14532d; --loo-right-bg: #e3f4e8; --loo-right-bd: #2f8a4d;
  --loo-wrong-fg: #8a1116; --loo-wrong-bg: #fde8e8; --loo-wrong-bd: #c1121f;
  --loo-quote-bg: #f6f1e4; --loo-quote-fg: #3b3426;
}
html[data-theme="dark"] .loo { --loo-fg: #eceef2; --loo-muted: #b9bec8; --loo-bg: #15171c; --loo-panel: #23272f; --loo-border: #50576a; }
html[data-theme="light"] .loo { --loo-fg: #1a1a1a; --loo-muted: #4a4f57; --loo-bg: #ffffff; --loo-panel: #f2f4f7; --loo-border: #b9bfc8; }
.loo *, .loo *::before, .loo *::after { box-sizing: border-box; }
.loo h3 { font-size: 1.2em; margin: 0.2em 0 0.5em; }
.loo p { margin: 0.35em 0; }
.loo .loo-prompt { font-size: 1.15em; font-weight: 600; margin: 0.5em 0; }
.loo .loo-muted { color: var(--loo-muted); }
.loo .loo-row { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
.loo .loo-card { display: inline-flex; flex-direction: column; align-items: center; gap: 3px;
  padding: 0; margin: 0; border: 0; background: none; color: inherit; font: inherit; }
.loo .loo-card-svg { display: block; width: 100%; height: auto; filter: drop-shadow(0 1px 2px rgba(0,0,0,.35)); }
.loo .loo-small { width: ${CARD_WIDTHS.small}px; }
.loo .loo-medium { width: ${CARD_WIDTHS.medium}px; }
.loo .loo-large { width: ${CARD_WIDTHS.large}px; }
.loo .loo-clickable { cursor: pointer; border-radius: 11px; padding: 4px; border: 3px solid transparent;
  transition: transform .08s ease-out; }
.loo .loo-clickable.loo-large { width: ${CARD_WIDTHS.large + 14}px; }
.loo .loo-clickable:hover .loo-card-svg { transform: translateY(-4px); }
.loo .loo-clickable:focus-visible, .loo .loo-btn:focus-visible { outline: 4px solid var(--loo-accent); outline-offset: 2px; }
.loo .loo-clickable[aria-pressed="true"] { border-color: var(--loo-accent); }
.loo .loo-caption { font-size: .8em; color: var(--loo-muted); }
.loo .loo-after { border-left: 6px solid var(--loo-accent); background: var(--loo-panel); padding: 4px 12px; margin: 8px 0; border-radius: 0 8px 8px 0; }
.loo .loo-badge { font-size: .85em; font-weight: 700; padding: 0 6px; border-radius: 6px; text-align: center; line-height: 1.25; }
.loo .loo-right { border-color: var(--loo-right-bd); }
.loo .loo-right .loo-badge, .loo .loo-btn.loo-right { color: var(--loo-right-fg); background: var(--loo-right-bg); }
.loo .loo-wrong { border-color: var(--loo-wrong-bd); }
.loo .loo-wrong .loo-badge, .loo .loo-btn.loo-wrong { color: var(--loo-wrong-fg); background: var(--loo-wrong-bg); }
.loo .loo-missed { border-color: var(--loo-right-bd); border-style: dashed; }
.loo .loo-missed .loo-badge { color: var(--loo-right-fg); background: var(--loo-right-bg); }
.loo .loo-btn { font: inherit; font-size: .95em; color: var(--loo-fg); background: var(--loo-panel);
  border: 2px solid var(--loo-border); border-radius: 8px; padding: 6px 14px; cursor: pointer; min-height: 44px; min-width: 44px; }
.loo .loo-btn:hover:not([disabled]):not([aria-disabled="true"]) { border-color: var(--loo-accent); }
.loo .loo-btn[disabled], .loo .loo-btn[aria-disabled="true"] { opacity: .55; cursor: default; }
.loo .loo-btn[aria-pressed="true"] { border-color: var(--loo-accent); box-shadow: inset 0 0 0 2px var(--loo-accent); }
.loo .loo-btn-primary { border-color: var(--loo-accent); font-weight: 700; }
.loo .loo-controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 10px 0; }
.loo .loo-verdict { border-left: 6px solid var(--loo-border); background: var(--loo-panel); padding: 8px 12px;
  border-radius: 6px; margin: 8px 0; }
.loo .loo-verdict.loo-right { border-left-color: var(--loo-right-bd); }
.loo .loo-verdict.loo-wrong { border-left-color: var(--loo-wrong-bd); }
.loo .loo-verdict-head { font-weight: 700; }
.loo .loo-verdict.loo-right .loo-verdict-head { color: var(--loo-right-fg); }
.loo .loo-verdict.loo-wrong .loo-verdict-head { color: var(--loo-wrong-fg); }
.loo a.loo-rule { color: inherit; text-decoration: underline; text-underline-offset: 2px; }
.loo .loo-rule { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-weight: 700;
  padding: 0 5px; border-radius: 4px; border: 1px solid var(--loo-border); background: var(--loo-bg); }
.loo blockquote.loo-quote { margin: 6px 0 2px; padding: 6px 10px; background: var(--loo-quote-bg); color: var(--loo-quote-fg);
  border-left: 3px solid var(--loo-border); font-family: Georgia, "DejaVu Serif", "Liberation Serif", serif; font-style: italic; }
.loo .loo-cite { font-size: .85em; color: var(--loo-muted); }
.loo .loo-table { display: flex; flex-direction: column; gap: 10px; }
.loo .loo-seats { display: flex; flex-wrap: wrap; gap: 10px; justify-content: center; }
.loo .loo-seat { background: var(--loo-panel); border: 2px solid var(--loo-border); border-radius: 10px;
  padding: 6px 8px; min-width: 150px; display: flex; flex-direction: column; gap: 4px; }
.loo .loo-seat.loo-to-act { border: 3px solid var(--loo-accent); }
.loo .loo-seat.loo-out { border-style: dashed; }
.loo .loo-seat-head { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; font-weight: 700; }
.loo .loo-tag { font-size: .75em; font-weight: 700; border: 1px solid var(--loo-border); border-radius: 10px; padding: 0 7px; background: var(--loo-bg); }
.loo .loo-tag-act { border-color: var(--loo-accent); color: var(--loo-accent); }
.loo .loo-seat-status { font-size: .9em; }
.loo .loo-felt { background: var(--loo-felt); color: var(--loo-felt-fg); border-radius: 60px / 40px; padding: 14px 28px;
  display: flex; flex-wrap: wrap; gap: 18px 30px; align-items: flex-start; justify-content: center; min-height: 150px; }
.loo .loo-felt .loo-caption, .loo .loo-felt .loo-muted { color: #e6f2ea; }
.loo .loo-spot { display: flex; flex-direction: column; align-items: center; gap: 4px; text-align: center; }
.loo .loo-spot-title { font-weight: 700; font-size: .9em; letter-spacing: .02em; }
.loo .loo-felt .loo-badge { color: #10311f; background: #f3e7a1; }
.loo .loo-history { font-size: .9em; }
.loo .loo-history li { margin: 2px 0; }
.loo .loo-score { font-weight: 700; }
.loo .loo-task-score { font-weight: 400; }
.loo .loo-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.loo table.loo-grid { border-collapse: collapse; margin: 6px 0; }
.loo table.loo-grid th, .loo table.loo-grid td { border: 1px solid var(--loo-border); padding: 4px 10px; text-align: left; }
.loo input.loo-num { font: inherit; width: 5.5em; padding: 4px 6px; color: var(--loo-fg); background: var(--loo-bg);
  border: 2px solid var(--loo-border); border-radius: 6px; }
.loo input.loo-num:focus-visible { outline: 3px solid var(--loo-accent); }
/* a finger's tap target (44 px) for every control, on a phone as at a desk */
.loo input, .loo select, .loo textarea { min-height: 44px; box-sizing: border-box; }
.loo input[type="checkbox"], .loo input[type="radio"] { min-height: 0; width: 22px; height: 22px; margin: 11px; }
.loo .loo-grid-wrap, .loo table.loo-grid { max-width: 100%; }
.loo table.loo-grid { display: block; overflow-x: auto; }
.loo .loo-mark { font-weight: 700; margin-left: 6px; }
.loo .loo-mark.loo-right { color: var(--loo-right-fg); }
.loo .loo-mark.loo-wrong { color: var(--loo-wrong-fg); }
.loo ol.loo-working li, .loo ul.loo-working li { margin: 3px 0; }
/* the compact table (table.js compactTable): one question, one screen, on a phone as at a desk */
.loo .loo-table.loo-compact { gap: 6px; }
.loo .loo-seat-lines { display: flex; flex-direction: column; gap: 3px; }
.loo .loo-seat.loo-seat-line { flex-direction: row; flex-wrap: wrap; align-items: center; gap: 1px 8px; min-width: 0;
  padding: 1px 8px; border-width: 1px; border-radius: 8px; font-size: .92em; margin: 0; }
.loo .loo-seat.loo-seat-line.loo-to-act { border-width: 2px; }
.loo .loo-seat-name { font-weight: 700; }
.loo .loo-seat-own { min-width: 0; }
.loo .loo-seat-own .loo-seat-head .loo-seat-status { font-weight: 400; }
.loo .loo-cardtext { font-weight: 700; white-space: nowrap; color: #111111; background: #fffdf8; border: 1px solid #8a8f98;
  border-radius: 4px; padding: 0 3px; }
.loo .loo-cardtext.loo-red { color: #c1121f; }
.loo .loo-cardtext.loo-back { color: #27408b; }
.loo .loo-line-cards { display: inline-flex; gap: 2px; align-items: center; }
.loo .loo-mini-back { display: inline-block; width: 10px; height: 15px; border-radius: 2px; background: #27408b; border: 1px solid #0f1c45; }
.loo .loo-line-won { color: var(--loo-accent); letter-spacing: 2px; }
.loo .loo-felt.loo-felt-compact { border-radius: 28px / 22px; padding: 6px 14px; gap: 4px 20px; min-height: 0; }
.loo .loo-felt-compact .loo-spot { gap: 2px; }
.loo .loo-felt-compact .loo-spot-title { font-size: .85em; }
.loo .loo-num-felt { font-size: 1.7em; font-weight: 800; line-height: 1.1; }
.loo .loo-miss-row .loo-small { width: 40px; }
.loo .loo-compact .loo-choices { gap: 8px; }
.loo .loo-compact details.loo-history { margin: 0; }
.loo details.loo-fold > summary, .loo details.loo-history > summary { cursor: pointer; min-height: 44px; display: list-item; padding: 10px 0 0; }
.loo .loo-stars { font-size: 2.6em; line-height: 1; letter-spacing: .08em; color: var(--loo-star); margin: 4px 0; }
.loo .loo-stars .loo-star-off { color: var(--loo-muted); }
.loo .loo-result-line { font-size: 1.05em; }
.loo .loo-felt-compact .loo-caption { line-height: 1.25; }
.loo .loo-task-asks { font-size: .92em; margin: 0 0 .3em; }
/* a quiz's prompt says the whole position in words: read as text, the table beside it */
.loo .loo-quiz-screen .loo-prompt { font-size: 1em; font-weight: 500; }
.loo .loo-line-played { white-space: nowrap; }
.loo .loo-quiz-head p.loo-score, .loo .loo-quiz-tags { font-size: .88em; margin: 0 0 2px; }
@media (max-width: 520px) {
  .loo { padding: 2px; line-height: 1.35; }
  .loo .loo-table.loo-compact { gap: 4px; }
  .loo h3 { font-size: 1.1em; margin: 0 0 .3em; }
  .loo .loo-prompt { font-size: 1.05em; margin: .3em 0; }
  .loo .loo-seat.loo-seat-line { padding: 0 6px; gap: 0 6px; font-size: .88em; }
  .loo .loo-seat-line .loo-tag { padding: 0 5px; }
  /* the card a seat played stays in its line; the word is for screen readers (the trick shows it) */
  .loo .loo-played-word { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .loo .loo-quiz-screen .loo-prompt { font-size: .9em; line-height: 1.3; }
  /* declarations two to a row, their words wrapping inside the button */
  .loo .loo-compact .loo-own .loo-choices > .loo-btn { flex: 1 1 40%; }
  .loo .loo-compact .loo-tag { font-size: .7em; padding: 0 5px; }
  .loo .loo-compact .loo-own .loo-btn { padding: 4px 10px; font-size: .9em; }
  .loo .loo-seat-own { padding: 2px 6px 4px; gap: 2px; }
  .loo .loo-compact .loo-small { width: 46px; }
  .loo .loo-compact .loo-miss-row .loo-small { width: 40px; }
  .loo .loo-compact .loo-medium { width: 64px; }
  .loo .loo-compact .loo-clickable.loo-medium, .loo .loo-compact .loo-clickable.loo-large { width: 68px; }
  .loo .loo-compact .loo-felt .loo-row { gap: 6px; }
  .loo .loo-felt.loo-felt-compact { padding: 4px 10px; gap: 4px 10px; }
}
.loo .loo-progress { height: 8px; background: var(--loo-panel); border: 1px solid var(--loo-border); border-radius: 4px; overflow: hidden; }
.loo .loo-progress > div { height: 100%; background: var(--loo-accent); }
`;

// Build the component's root inside `el` and redraw it whenever one of `keys` changes.
// `draw(body, say)` fills `body`; `say(text)` updates a screen-reader live region that is
// created once and never replaced (a region re-created on every draw is often not read).
// Redraws are coalesced, and keyboard focus stays on the element with the same data-focus;
// when that control is gone (a card just played), on the one `draw` returns the data-focus
// id of, else on the widget's first control: focus never drops to the page (issue 12).
/**
 * @param {HTMLElement} el
 * @param {ComponentModel} model
 * @param {string[]} keys
 * @param {(body: HTMLElement, say: (text: string) => void) => string | null | undefined | void} draw
 * @returns {() => void}
 */
export function mount(el, model, keys, draw) {
  const body = h("div", { class: "loo-body" });
  const live = h("div", { class: "loo-sr loo-live", "aria-live": "polite", role: "status" });
  const root = h("div", { class: "loo" }, body, live);
  const style = h("style", {});
  style.textContent = STYLE;
  el.replaceChildren(style, root);
  // Keys typed in a form control stay in the widget (as ipywidgets does): JupyterLab listens
  // for keydown on the notebook, where an arrow would move to another cell and `m` turn this
  // cell into Markdown, erasing the widget. Escape still goes up (it leaves full screen).
  root.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (ev.key !== "Escape" && t instanceof Element && /^(SELECT|INPUT|TEXTAREA)$/.test(t.tagName)) ev.stopPropagation();
  });
  const say = (/** @type {string} */ message) => {
    if (live.textContent !== message) live.textContent = message;
  };
  let queued = false;
  const redraw = () => {
    queued = false;
    const active = root.ownerDocument.activeElement;
    const focusId = active && root.contains(active) ? active.getAttribute("data-focus") : null;
    const fallback = draw(body, say);
    linkRules(body);
    // a message the controller refused (an out-of-range value, an unknown event): said in
    // the widget, never lost in a log
    const refused = /** @type {{ refused?: unknown }} */ (model.get("data") || {}).refused;
    if (refused) body.append(h("p", { class: "loo-verdict loo-wrong loo-refused", role: "alert", text: String(refused) }));
    if (focusId) {
      const targets = [...body.querySelectorAll("[data-focus]")].filter((t) => !(/** @type {HTMLButtonElement} */ (t).disabled));
      const same = targets.find((t) => t.getAttribute("data-focus") === focusId);
      const next = same || targets.find((t) => t.getAttribute("data-focus") === fallback) || targets[0];
      if (next) /** @type {HTMLElement} */ (next).focus();
    }
  };
  const schedule = () => {
    if (!queued) {
      queued = true;
      queueMicrotask(redraw);
    }
  };
  for (const k of keys) model.on(`change:${k}`, schedule);
  redraw();
  return schedule;
}

// Rule ids in a widget (verdicts, steps, explanations) link to the words they come from, on
// the book's sources page: in the book only, where Sphinx marks the way from the page to the
// book's root (data-content_root); in JupyterLab they stay as they are.
const RULE_ID = /\bR(?:0[1-9]|[1-5]\d|6[0-3])\b/g;
const RULE_ONLY = new RegExp(`^${RULE_ID.source}$`);
const RULE_ANY = new RegExp(RULE_ID.source);

/** @param {HTMLElement} root */
export function linkRules(root) {
  const base = root.ownerDocument.documentElement.dataset.content_root;
  if (base === undefined) return;
  const link = (/** @type {string} */ id, /** @type {string} */ cls) => h("a", { class: cls, href: `${base}book/generated/sources.html#rule-${id.toLowerCase()}`, title: `${id}: the words of the book`, text: id });
  const free = (/** @type {Node} */ node) => !node.parentElement?.closest("a, button, summary, select, option");
  for (const el of root.querySelectorAll("span.loo-rule")) {
    const id = (el.textContent || "").trim();
    if (free(el) && RULE_ONLY.test(id)) el.replaceWith(link(id, el.className));
  }
  for (const box of root.querySelectorAll(".loo-explain")) {
    const walk = box.ownerDocument.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    /** @type {Text[]} */
    const texts = [];
    for (let t = /** @type {Text | null} */ (walk.nextNode()); t; t = /** @type {Text | null} */ (walk.nextNode())) if (RULE_ANY.test(t.data) && free(t)) texts.push(t);
    for (const t of texts) {
      /** @type {(string | Node)[]} */
      const parts = [];
      let last = 0;
      for (const m of t.data.matchAll(RULE_ID)) {
        parts.push(t.data.slice(last, m.index), link(m[0], "loo-rule-ref"));
        last = (m.index ?? 0) + m[0].length;
      }
      parts.push(t.data.slice(last));
      t.replaceWith(...parts.filter((p) => p !== ""));
    }
  }
}

/**
 * Set several traits at once and send them to the kernel (when there is one).
 * @param {ComponentModel} model
 * @param {Record<string, unknown>} changes
 */
export function commit(model, changes) {
  for (const [k, v] of Object.entries(changes)) model.set(k, v);
  model.save_changes();
}

// "Deal another": a seed, the number of players and the rules, sent as a `deal` event to the
// Python controller (which deals and explains the new deal). Only where the model has
// `dispatch` (the book's engine); in JupyterLab the notebook's own controls do this.
/**
 * @param {ComponentModel} model
 * @param {import("./types").DealData} d
 * @param {string} [label]
 */
export function dealForm(model, d, label) {
  if (typeof model.dispatch !== "function") return null;
  const seed = h("input", { type: "number", min: "0", step: "1", class: "loo-num", "aria-label": "seed", "data-focus": "deal-seed", "data-key": "deal-seed", style: "width: 7em" });
  seed.value = String(Number.isInteger(d.seed) ? d.seed : 1); // the seed of the deal shown
  const players = h("input", { type: "number", min: "2", max: "10", step: "1", class: "loo-num", "aria-label": "players", "data-focus": "deal-players", "data-key": "deal-players", style: "width: 4.5em" });
  players.value = String(Number.isInteger(d.players) ? d.players : 5);
  const rules = h("select", { "aria-label": "rules", "data-focus": "deal-rules", "data-key": "deal-rules" });
  for (const r of d.presets || ["hoffmann", "peel"]) {
    const o = h("option", { value: r, text: `${r.charAt(0).toUpperCase()}${r.slice(1)}'s rules` });
    if (r === d.rules) o.selected = true;
    rules.append(o);
  }
  const go = () => model.dispatch?.({ type: "deal", seed: Number(seed.value), players: Number(players.value), rules: rules.value });
  return h(
    "div",
    { class: "loo-row loo-deal-form", role: "group", "aria-label": label || "deal another hand" },
    h("label", {}, "Seed ", seed),
    h("label", {}, "Players ", players),
    rules,
    button(label || "Deal another", go, { action: "deal", focusId: "deal-go" }),
  );
}

// One event from a component. With the book's engine (a model with `dispatch`) the Python
// controller answers it in the page's worker; otherwise the component's own reducer gives the
// next state (JupyterLab: the kernel's controller checks what is synced; static: no kernel).
/**
 * @param {ComponentModel} model
 * @param {LooEvent} ev
 * @param {() => Record<string, unknown>} local
 */
export function act(model, ev, local) {
  if (typeof model.dispatch === "function") model.dispatch(ev);
  else commit(model, local());
}

export default {
  /** @param {import("./types").RenderProps<import("./types").CardsTraits>} props */
  render({ model, el }) {
    mount(el, model, ["data"], (body) => {
      const d = model.get("data") || {};
      fill(
        body,
        d.title ? h("h3", { text: d.title }) : null,
        cardRow(d.cards || [], { size: d.size || "medium", label: d.label || "cards" }),
        d.caption ? h("p", { class: "loo-muted", text: d.caption }) : null,
      );
    });
  },
};
