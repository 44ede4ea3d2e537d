// @ts-check
// The pupil's seat page of the class tables service (seat_page.py): the `seat` widget's own
// component (widgets/js/seat.js, served as one module at ./seat.js) drawn with a model that
// talks to the service instead of a kernel. It carries the pupil's clicks (the component's
// `request`: join, move) to the service's JSON API and the service's views back; it follows the
// table by WebSocket, or by long-poll where a proxy refuses WebSockets; when the service goes
// away (a restart, the network) it says "Reconnecting…" and connects again by itself, the
// seat's view coming back as it is now. It decides nothing: the service's referee (the
// engine) does.
// (the component is the service's ./seat.js, next to this script: loaded by its address)
const COMPONENT = "./seat.js";
/** @type {{ default: { render(props: import("../../widgets/js/types").RenderProps<import("../../widgets/js/types").SeatTraits>): void } }} */
const seatModule = await import(COMPONENT);
const seat = seatModule.default;

/** @typedef {Record<string, any>} View */

const root = /** @type {HTMLElement} */ (document.getElementById("seat"));
const xsrfMeta = document.querySelector('meta[name="loo-xsrf"]');
const xsrf = xsrfMeta ? xsrfMeta.getAttribute("content") || "" : "";
/** @type {Record<string, unknown>} */
const traits = { data: { table: "", view: null, status: "" }, request: {} };
/** @type {Map<string, Set<() => void>>} */
const listeners = new Map();
/** @type {View | null} */
let view = null;
let following = "";
/** What the page says while it reconnects ("" once connected). */
let status = "";
/** The longest wait between two tries to connect again (ms). */
const RETRY_MOST = 10000;

/** @param {Record<string, unknown>} data */
function show(data) {
  traits.data = data;
  for (const cb of listeners.get("change:data") || []) cb();
}

/**
 * The seat's view drawn, with what the page says while it reconnects (`status`).
 * @param {View | null} v
 * @param {string} [refused]
 */
function draw(v, refused) {
  /** @type {Record<string, unknown>} */
  const data = { table: v ? v.table : "", view: v, status };
  if (refused) data.refused = refused;
  show(data);
}

/** @param {string} text what the page says while it reconnects ("" once connected) */
function say(text) {
  if (text === status) return;
  status = text;
  draw(view);
}

/** @param {number} tries */
function backoff(tries) {
  return Math.min(1000 * 2 ** tries, RETRY_MOST);
}

/** @param {View} v */
function take(v) {
  if (!view || v.table !== view.table || v.version >= view.version) view = v;
  return view;
}

/**
 * The service's JSON answer, or its one line.
 * @param {string} path
 * @param {Record<string, unknown> | null} body
 * @returns {Promise<{ok: true, view: View} | {ok: false, line: string, status: number}>}
 */
async function ask(path, body) {
  try {
    const r = await fetch(path, {
      method: body ? "POST" : "GET",
      headers: { "X-XSRFToken": xsrf, "Content-Type": "application/json" },
      body: body ? JSON.stringify(body) : null,
      credentials: "same-origin",
      cache: "no-store",
    });
    const type = r.headers.get("Content-Type") || "";
    if (!type.startsWith("application/json")) return { ok: false, line: "the class tables service did not answer", status: r.status };
    const got = await r.json();
    return r.ok ? { ok: true, view: got } : { ok: false, line: String(got.error || r.status), status: r.status };
  } catch (e) {
    return { ok: false, line: "the class tables service did not answer (the network?)", status: 0 };
  }
}

/** @param {string} code */
async function join(code) {
  const got = await ask("api/join", { table: code });
  if (!got.ok) {
    draw(view, got.line);
    return;
  }
  draw(take(got.view));
  const url = new URL(window.location.href);
  url.searchParams.set("table", got.view.table);
  window.history.replaceState(null, "", url.toString()); // a reload sits the pupil here again
  follow(got.view.table);
}

/** @param {string} key */
async function move(key) {
  if (!view) return;
  const got = await ask("api/move", { table: view.table, seat: view.seat, move: key, number: view.number });
  if (got.ok) {
    draw(take(got.view));
    return;
  }
  // refused: the seat's view holds the refusal (with the law, for a move against the rules)
  const again = await ask(`api/view?table=${encodeURIComponent(view.table)}`, null);
  draw(again.ok ? take(again.view) : view, got.line);
}

/** @param {number} ms */
function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Long-poll the table (where a WebSocket is refused). @param {string} code */
async function poll(code) {
  let tries = 0;
  while (following === code && view && !view.over) {
    const got = await ask(`api/wait?table=${encodeURIComponent(code)}&after=${view.version}`, null);
    if (got.ok) {
      tries = 0;
      say("");
      draw(take(got.view));
    } else {
      // too many pages open (429): say the service's line; else it is away for a moment
      say(got.status === 429 ? `${got.line}. Reconnecting…` : "Reconnecting…");
      await pause(backoff(tries));
      tries += 1;
    }
  }
}

/** Follow the table by WebSocket: again and again if it closes (the service restarted), the
 * long-poll if a WebSocket never opens (a proxy that refuses them). @param {string} code */
function follow(code) {
  if (following === code) return;
  following = code;
  connect(code, 0, false);
}

/**
 * @param {string} code
 * @param {number} tries the tries since the last open socket
 * @param {boolean} ever whether a socket to this table has opened before
 */
function connect(code, tries, ever) {
  const ws = new WebSocket(new URL(`api/ws?table=${encodeURIComponent(code)}`, window.location.href).toString().replace(/^http/, "ws"));
  let opened = false;
  ws.onopen = () => {
    opened = true;
    say("");
  };
  ws.onmessage = (ev) => {
    try {
      draw(take(JSON.parse(String(ev.data))));
    } catch (e) {
      // not a view: ignored
    }
  };
  ws.onclose = () => {
    if (following !== code) return;
    if (!opened && !ever) {
      document.documentElement.dataset.looFallback = "long-poll";
      poll(code);
      return;
    }
    if (view && view.over && opened) return; // the table is over: nothing more will come
    say("Reconnecting…");
    const next = opened ? 0 : tries + 1;
    setTimeout(() => connect(code, next, true), backoff(next));
  };
}

/** @type {import("../../widgets/js/types").Model<import("../../widgets/js/types").SeatTraits>} */
const model = {
  get: (/** @type {string} */ k) => /** @type {any} */ (traits[k]),
  set: (/** @type {string} */ k, /** @type {unknown} */ v) => {
    traits[k] = v;
  },
  save_changes: () => {
    const r = /** @type {{type?: string, table?: string, key?: string}} */ (traits.request || {});
    if (r.type === "join" && r.table) join(r.table);
    else if (r.type === "move" && r.key) move(r.key);
  },
  on: (/** @type {string} */ name, /** @type {() => void} */ cb) => {
    if (!listeners.has(name)) listeners.set(name, new Set());
    listeners.get(name)?.add(cb);
  },
  off: () => {},
};

seat.render({ model, el: root });
const start = new URL(window.location.href).searchParams.get("table");
if (start) join(start);
export {}; // an ES module (it is loaded as one)
