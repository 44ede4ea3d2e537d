// @ts-check
// The book's engine: the very Python controllers of loo_lessons.widgets.controllers, run by
// Pyodide in a Web Worker, behind the same components as in JupyterLab. This module is
// inlined after every live widget of a page (the book's build makes the copies one shared
// file, scripts/light_pages.py); the first copy to run installs `window.looEngine` and the
// others find it. Nothing here decides a rule: a component's
// events and synced traits go to Python, and Python's answer (the changed traits) comes
// back to the component's model.
//
// The engine is fetched only when the page has a live widget, from the book's own folder
// (`_static/loo-engine/`: Pyodide, the standard library, the package as a zip), never from
// another host. The page stays usable while it loads: every widget shows its static version
// first (it grades in the browser), then a small "engine ready" line.
//
// One engine per visit: the worker is a SharedWorker with `extendedLifetime` (looConnect), so
// it outlives the page that started it; the next page of the book, and every other tab of
// it, connect to the Python already running (measured by `loo-lessons bench --browser`:
// the next page's first live answer is a small part of a bare Pyodide start). A page that
// goes away drops its controllers from that engine. Without SharedWorker (some mobile
// browsers) each page has its own dedicated Worker, as before.
//
// For others (the playground): `looEngine.ready` (a Promise), `looEngine.run(name, args)`
// (one of backends.browser.FUNCTIONS, e.g. "explain" with {text}), `looEngine.create(kind,
// args, state)` and `looEngine.model(id, state)`.

/** @typedef {import("./types").Engine} Engine */
/** @typedef {import("./types").WorkerReply} WorkerReply */

/** @returns {string | null} */
function looEngineBase() {
  if (window.LOO_ENGINE_BASE) return new URL(window.LOO_ENGINE_BASE, location.href).href;
  const meta = document.querySelector('meta[name="loo-engine"]');
  if (meta) return new URL(meta.getAttribute("content") ?? "", location.href).href;
  for (const n of document.querySelectorAll('link[href*="_static/"], script[src*="_static/"]')) {
    const u = n instanceof HTMLLinkElement ? n.href : /** @type {HTMLScriptElement} */ (n).src;
    const i = u.indexOf("/_static/");
    if (i >= 0) return u.slice(0, i) + "/_static/loo-engine/";
  }
  return null; // not the built book (e.g. JupyterLab showing the HTML): no engine here
}

/** The build's id (a page meta the build writes): one engine per build, never an older one. */
function looBuildId() {
  const meta = document.querySelector('meta[name="loo-build"]');
  return meta ? meta.getAttribute("content") : "dev";
}

/** The engine's worker at `url`: {port, owner} (port: postMessage/onmessage, owner: onerror).
 * A SharedWorker that outlives the page when the browser has one, else a dedicated Worker. */
/**
 * @param {string} url
 * @returns {import("./types").WorkerConnection}
 */
function looConnect(url) {
  if (typeof SharedWorker === "function") {
    try {
      const owner = new SharedWorker(url, { name: `loo-engine ${looBuildId()}`, extendedLifetime: true });
      return { port: owner.port, owner, shared: true };
    } catch (e) {
      // a browser that refuses it here (e.g. a sandboxed frame): the dedicated worker below
    }
  }
  const w = new Worker(url);
  return { port: w, owner: w, shared: false };
}

// Every deferred script of the page has run (the components may be shared files after this
// one): DOMContentLoaded, or `load` for a copy that runs after it.
/** @type {Promise<Event | void>} */
const looDomLoaded = new Promise((res) => {
  if (document.readyState === "complete") res();
  document.addEventListener("DOMContentLoaded", res, { once: true });
  addEventListener("load", res, { once: true });
});

function looDomReady() {
  return looDomLoaded;
}

/**
 * @param {HTMLElement} host
 * @param {string} text
 * @param {string} kind
 */
function looEngineStatus(host, text, kind) {
  // one small line per live widget: inside a live container, first; after a component
  /** @type {HTMLElement | null} */
  let p = host.classList.contains("loo-live-widget")
    ? host.querySelector(":scope > .loo-engine-status")
    : host.nextElementSibling && host.nextElementSibling.classList.contains("loo-engine-status")
      ? /** @type {HTMLElement} */ (host.nextElementSibling)
      : null;
  if (!p) {
    p = document.createElement("p");
    p.className = "loo-engine-status";
    p.setAttribute("role", "status");
    p.style.cssText = "font-size:.85em;margin:.2em 0;opacity:.8";
    if (host.classList.contains("loo-live-widget")) host.prepend(p);
    else host.after(p);
  }
  p.dataset.state = kind;
  p.textContent = text;
}

/** @returns {Engine} */
function looMakeEngine() {
  /** @type {Map<number, { resolve: (result: string | undefined) => void, reject: (e: Error) => void }>} */
  const pending = new Map();
  /** @type {((m: WorkerReply) => void)[]} */
  const listeners = [];
  let seq = 0;
  /** @type {MessagePort | Worker | null} */
  let worker = null; // the port: postMessage / onmessage
  /** @type {(api: Engine) => void} */
  let readyResolve = () => {};
  /** @type {(e: unknown) => void} */
  let readyReject = () => {};
  // (its methods are set below)
  const api = /** @type {Engine} */ ({
    state: "idle",
    base: looEngineBase(),
    loadMs: null,
    ready: new Promise((res, rej) => {
      readyResolve = res;
      readyReject = rej;
    }),
  });
  api.ready.catch(() => {});
  /**
   * @param {import("./types").WorkerRequest["op"]} op
   * @param {(string | number)[]} args
   * @returns {Promise<string | undefined>}
   */
  const request = (op, args) =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { resolve, reject });
      worker?.postMessage({ id, op, args });
    });
  api.start = () => {
    if (worker || api.state !== "idle") return api.ready;
    const base = api.base;
    if (!base) {
      api.state = "failed";
      readyReject(new Error("no engine next to this page"));
      return api.ready;
    }
    if (location.protocol === "file:") {
      api.state = "file";
      readyReject(new Error("the engine needs the book served by a web server"));
      return api.ready;
    }
    api.state = "loading";
    // started already by the first live widget while the page was read (static.EARLY_START)
    const early = window.looEngineWorker;
    const t0 = early ? early.t0 : performance.now();
    /** @type {SharedWorker | Worker} */
    let owner;
    /** @type {MessagePort | Worker} */
    let port;
    try {
      const c = early || looConnect(base + "worker.js");
      worker = port = c.port;
      owner = c.owner;
      api.shared = !!c.shared;
    } catch (e) {
      api.state = "failed";
      readyReject(e);
      return api.ready;
    }
    /** @param {MessageEvent} e */
    const onMessage = (e) => {
      /** @type {WorkerReply} */
      let m;
      try {
        m = typeof e.data === "string" ? JSON.parse(e.data) : e.data || {};
      } catch {
        return; // not ours
      }
      if (m.type === "ready") {
        if (api.state === "ready") return;
        api.state = "ready";
        api.loadMs = performance.now() - t0;
        api.workerMs = m.ms;
        api.pyodideMs = m.pyodideMs;
        api.importMs = m.importMs;
        // Python was running already: its worker started before this page was opened
        api.warm = typeof m.since === "number" && m.since < performance.timeOrigin;
        api.snapshot = !!m.snapshot;
        readyResolve(api);
      } else if (m.type === "failed") {
        api.state = "failed";
        readyReject(new Error(m.error));
      } else if (m.type === "progress") {
        for (const f of listeners) f(m);
      } else if (m.id !== undefined && pending.has(m.id)) {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (!p) return;
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.result);
      }
    };
    port.onmessage = onMessage;
    if (early) for (const e of early.early.splice(0)) onMessage(e);
    if (early && early.failed) {
      api.state = "failed";
      readyReject(new Error(early.failed));
    }
    owner.onerror = (/** @type {ErrorEvent} */ e) => {
      if (e && e.preventDefault) e.preventDefault();
      api.state = "failed";
      readyReject(new Error(e.message || "the engine's worker failed to start"));
    };
    return api.ready;
  };
  /**
   * @param {import("./types").WorkerRequest["op"]} op
   * @param {(string | number)[]} args
   */
  const call = async (op, args) => {
    await api.ready;
    const out = await request(op, args);
    return JSON.parse(/** @type {string} */ (out));
  };
  api.run = (name, args) => call("run", [name, JSON.stringify(args || {})]);
  api.create = (kind, args, state) => call("create", [kind, JSON.stringify(args || {}), JSON.stringify(state || {})]);
  api.send = (id, message) => call("send", [id, JSON.stringify(message)]);
  api.drop = (id) => call("drop", [id]).catch(() => null);
  api.onProgress = (f) => listeners.push(f);
  // The engine outlives this page: the page's controllers go when the page goes. A page
  // brought back from the back/forward cache has lost them, so it is read again.
  let dropped = false;
  addEventListener("pagehide", () => {
    if (!worker || api.state !== "ready") return;
    for (const w of window.looLive || []) worker.postMessage({ id: ++seq, op: "drop", args: [w.id] });
    dropped = (window.looLive || []).length > 0;
  });
  addEventListener("pageshow", (e) => {
    if (e.persisted && dropped) location.reload();
  });
  // progress lines from Python (the lab) go to the widget's model as its `progress`
  listeners.push((m) => {
    const w = (window.looLive || []).find((x) => x.id === m.id);
    if (w) w.model.progress({ done: m.done, total: m.total });
  });
  // The model a component gets in the book: get/set/save_changes/on as anywidget's, with
  // Python in the worker where the kernel would be. `dispatch(event)` sends an event.
  api.model = (id, state, onError) => {
    /** @type {Record<string, ((...args: never[]) => void)[]>} */
    const handlers = {};
    /** @type {Set<string>} */
    const dirty = new Set();
    /** @type {Promise<unknown>} */
    let chain = Promise.resolve();
    /**
     * @param {string} k
     * @param {unknown} v
     * @param {import("./types").EngineModel} model
     */
    const fire = (k, v, model) => {
      for (const f of handlers[`change:${k}`] || []) /** @type {(m: unknown, v: unknown) => void} */ (f)(model, v);
    };
    /** @type {import("./types").EngineModel} */
    const model = {
      get: (k) => state[k],
      set(k, v) {
        const old = state[k];
        state[k] = v;
        dirty.add(k);
        if (old !== v) fire(k, v, model);
      },
      save_changes() {
        if (!dirty.size) return;
        /** @type {Record<string, unknown>} */
        const sync = {};
        for (const k of dirty) sync[k] = state[k];
        dirty.clear();
        post({ sync });
      },
      dispatch(ev) {
        post({ event: ev });
      },
      on(events, f) {
        for (const e of String(events).split(/\s+/)) (handlers[e] = handlers[e] || []).push(f);
      },
      off(events, f) {
        for (const e of String(events).split(/\s+/)) handlers[e] = (handlers[e] || []).filter((g) => g !== f);
      },
      send() {},
      snapshot: () => JSON.parse(JSON.stringify(state)),
      progress(p) {
        state.progress = p;
        fire("progress", p, model);
      },
    };
    /** @param {{ sync?: Record<string, unknown>, event?: unknown }} message */
    const post = (message) => {
      chain = chain
        .then(() => api.send(id, message))
        .then((r) => {
          if (r.error) return onError(r.error);
          const changes = r.changes || {};
          for (const [k, v] of Object.entries(changes)) {
            state[k] = v;
            fire(k, v, model);
          }
          const dl = changes.data && changes.data.download;
          if (dl && dl.name) looDownload(dl.name, dl.text || "");
          api.answered = (api.answered || 0) + 1;
        })
        .catch((e) => onError(String(e && e.message ? e.message : e)));
    };
    return model;
  };
  return api;
}

/**
 * @param {string} name
 * @param {string} text
 */
function looDownload(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.style.display = "none";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A controller made from what the page's static widget `el` shows (all it was given:
 * answers, a code dealt, a selection), with what the component keeps beside its model
 * (`component.handover(el, state)`, e.g. the quiz's seconds). Python works while the page
 * still takes clicks: if the static state changed while it made one, that one is dropped and
 * another is made from the newer state, so nothing done before the engine is live is lost
 * (the last check and the swap of the element run in one turn of the page, with no click
 * between them). */
/**
 * @param {Engine} engine
 * @param {import("./types").LiveSpec} spec
 * @param {HTMLElement | null} el
 * @param {LooComponent | undefined} component
 * @returns {Promise<{ id: number, state: Record<string, unknown>, error?: string } | { error: string, id?: undefined, state?: undefined }>}
 */
async function looHandOver(engine, spec, el, component) {
  const rec = el ? (window.looLessons || []).find((r) => r.el === el) : null;
  const snap = () => JSON.stringify(rec && rec.model.snapshot ? rec.model.snapshot() : {});
  for (let tries = 0; ; tries += 1) {
    const sent = snap();
    const state = el && component && component.handover ? component.handover(el, JSON.parse(sent)) : JSON.parse(sent);
    /** @type {import("./types").Made | { error: string, id?: undefined }} */
    const made = await engine.create(spec.kind, spec.args, state).catch((e) => ({ error: String(e.message || e) }));
    if (made.error || made.id === undefined || snap() === sent || tries >= 20) return made;
    engine.drop(made.id);
  }
}

/**
 * A live widget's spec, as the page carries it: its JSON with each letter and digit turned
 * (widgets/static.py `encode_state`), so the words a task says at its end are not in the
 * page's text.
 * @param {string} text
 * @returns {import("./types").LiveSpec}
 */
function looDecodeSpec(text) {
  return JSON.parse(text.replace(/[A-Za-z0-9]/g, (c) => {
    const x = c.charCodeAt(0), b = x < 58 ? 48 : x < 91 ? 65 : 97, n = x < 58 ? 10 : 26;
    return String.fromCharCode(((x - b + n / 2) % n) + b);
  }));
}

/**
 * @param {Engine} engine
 * @param {HTMLElement} host
 */
async function looUpgrade(engine, host) {
  if (host.dataset.looEngine) return;
  host.dataset.looEngine = "waiting";
  /** @type {import("./types").LiveSpec} */
  const spec = looDecodeSpec(host.getAttribute("data-loo-live") ?? "");
  let target = host; // the element that carries the widget (replaced below, once)
  const say = (/** @type {string} */ text, /** @type {string} */ kind) => looEngineStatus(target, text, kind);
  if (engine.state === "file") {
    say("These controls come alive when the book is opened through a web server: make serve-book", "file");
    host.dataset.looEngine = "file";
    return;
  }
  say("Loading the engine\u2026 (the answers below already work)", "loading");
  try {
    await engine.ready;
  } catch (e) {
    host.dataset.looEngine = engine.state;
    say(
      /** @type {Engine["state"]} */ (engine.state) === "file" // (it changes while the page waits)
        ? "These controls come alive when the book is opened through a web server: make serve-book"
        : `The engine could not start here (${/** @type {{ message?: unknown }} */ (e).message}); the static answers still work.`,
      engine.state,
    );
    return;
  }
  await looDomReady(); // every component's module has run (they may be shared files)
  const component = (window.looComponents || {})[spec.component];
  let el = host.classList.contains("loo-static") ? host : null;
  const made = await looHandOver(engine, spec, el, component);
  if (made.error || made.id === undefined || !component) {
    host.dataset.looEngine = "error";
    say(`The engine could not run this widget: ${made.error || "no component " + spec.component}`, "error");
    return;
  }
  if (el) {
    // a fresh element (same attributes, no listeners): the static component's keys and
    // clicks must not act on the static model any more
    const fresh = /** @type {HTMLElement} */ (el.cloneNode(false));
    el.replaceWith(fresh);
    el = fresh;
    target = fresh;
  } else {
    el = document.createElement("div");
    el.className = "loo-static";
    el.setAttribute("data-loo-component", spec.component);
    const body = host.querySelector(".loo-live-body");
    if (!body) throw new Error("a live widget without its .loo-live-body");
    body.replaceChildren(el);
  }
  const model = engine.model(made.id, made.state, (err) => say(`The engine refused: ${err}`, "error"));
  component.render({ model, el });
  window.looLive = window.looLive || [];
  window.looLive.push({ kind: spec.kind, el, model, id: made.id });
  target.dataset.looEngine = "live";
  if (engine.firstLiveMs === undefined) engine.firstLiveMs = performance.now(); // since the page opened
  say("\u25CF Live: the engine is running in this page.", "ready");
}

function looScan() {
  const engine = window.looEngine;
  const hosts = document.querySelectorAll("[data-loo-live]:not([data-loo-engine])");
  if (!hosts.length) return;
  engine.start();
  for (const host of hosts) looUpgrade(engine, /** @type {HTMLElement} */ (host));
}

if (!window.looEngine) {
  window.looEngine = looMakeEngine();
}
// every copy scans once its own widget is in the page (module scripts run in order)
queueMicrotask(looScan);

export default { engine: () => window.looEngine };
