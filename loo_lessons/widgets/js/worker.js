// @ts-check
// The book engine's worker: Pyodide (vendored next to this file, never fetched from another
// host), its standard library, PyYAML's pure-Python part and the loo_lessons package (zips
// built with the book), then loo_lessons.widgets.backends.browser.
//
// One engine for the whole visit. engine.js starts this file as a SharedWorker with
// `extendedLifetime`: it outlives the page it was started from, so the next page of the book
// (and every other tab of it) connects to the Python that is already running instead of
// starting Pyodide again; where SharedWorker is missing it runs as a dedicated Worker, one
// per page, and speaks the same messages.
//
// Messages: {id, op: "create" | "send" | "drop" | "run", args: [string | number, ...]} ->
// {id, result: "<JSON text>"} | {id, error: "<one line>"}; and, once per connection,
// {type: "ready", ms, pyodideMs, importMs, snapshot, since} or {type: "failed", error}. The answer is
// always an object with a JSON `result` or an `error`: a crafted message (not an object, an
// unknown op, deep nesting, a huge argument) is refused in one line, and if Python itself
// breaks (a fatal error), the engine is started again for the next message.
importScripts("pyodide/pyodide.js", "snapshot.js");

/** @typedef {import("./types").WorkerReply} WorkerReply */
/** The browser backend's functions (loo_lessons.widgets.backends.browser): each answers JSON
 * text (a str, or a proxy of one).
 * @typedef {Record<string, (...args: (string | number)[]) => unknown>} Backend */
/** Where an answer goes: a SharedWorker's port, or the dedicated worker itself.
 * @typedef {{ postMessage(message: unknown): void }} Port */

const here = new URL("./", self.location.href).href;

/** The body of `url` (a .gz file), unpacked as it streams in.
 * @param {string} url @returns {Promise<ArrayBuffer>} */
async function gunzipped(url) {
  const r = await fetch(url);
  if (!r.ok || !r.body) throw new Error(`${url.slice(here.length)}: ${r.status}`);
  return new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}

// The runtime's wasm is 8.6 MB, 2.8 MB gzipped: fetched as pyodide.asm.wasm.gz (written by
// scripts/vendor_engine.py) and unpacked as it streams in, whatever the server does about
// compression, once: the same bytes unpack the memory snapshot (snapshot.js) and are given to
// Pyodide's loader when it asks `fetch` for pyodide.asm.wasm (every other request goes
// through as is). Its JavaScript (1.07 MB, 0.22 MB gzipped) likewise: run from the unpacked
// text before loadPyodide, which then finds it loaded.
/** @type {Promise<ArrayBuffer> | null} */
let wasmBytes = null; // while the engine starts
function wasm() {
  if (!wasmBytes) {
    wasmBytes = gunzipped(here + "pyodide/pyodide.asm.wasm.gz");
    wasmBytes.catch(() => {});
  }
  return wasmBytes;
}
const asmJs = typeof DecompressionStream === "function"
  ? fetch(here + "pyodide/pyodide.asm.js.gz")
    .then((r) => (r.ok && r.body ? new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).blob() : null))
    .then((b) => b && importScripts(URL.createObjectURL(new Blob([b], { type: "text/javascript" }))))
    .catch(() => null) // Pyodide then loads pyodide.asm.js itself
  : Promise.resolve(null);
if (typeof DecompressionStream === "function") {
  wasm();
  const plainFetch = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    const url = String(typeof Request === "function" && input instanceof Request ? input.url : input);
    if (url.endsWith("/pyodide.asm.wasm")) {
      const bytes = await wasm().catch(() => null);
      if (bytes) return new Response(bytes, { status: 200, headers: { "Content-Type": "application/wasm" } });
    }
    return plainFetch(input, init);
  };
}
/** The operations a page may ask for (the page's side: engine.js `request`).
 * @type {readonly import("./types").WorkerRequest["op"][]} */
const OPS = ["create", "send", "drop", "run"];
/** Deeper nesting than this, in an argument or in a text inside it, is refused unread. */
const MAX_DEPTH = 100;
/** A longer argument is refused unread (a scenario typed in the page is a few KB). */
const MAX_CHARS = 2_000_000;

/** @type {Backend | null} */
let api = null;
/** @type {import("pyodide").PyodideAPI | null} */
let pyodide = null;
/** @type {Port | null} */
let current = null; // the port (or self) whose request Python is answering now

// Python starts from the memory snapshot the build took (scripts/pyc_in_pyodide.mjs: the
// package unpacked and its engine and controllers imported), not from scratch: most of a
// bare Pyodide start is Python starting and importing, and the snapshot has done both. It
// comes packed against the runtime's wasm (snapshot.js), with the small part of the standard
// library it may still import (stdlib.zip) and a lock file of no packages. If the snapshot
// is missing or refused, Pyodide starts the ordinary way, with the whole standard library.
const LOCK = { lockFileURL: here + "pyodide-lock.json" };

async function loadPython() {
  if (typeof DecompressionStream === "function") {
    const snapshot = Promise.all([gunzipped(here + "snapshot.bin.gz"), wasm()])
      .then(([packed, w]) => self.looSnapshot.unpack(new Uint8Array(packed), new Uint8Array(w)));
    snapshot.catch(() => {});
    try {
      const py = await loadPyodide({
        indexURL: here + "pyodide/", packages: [], stdLibURL: here + "stdlib.zip", _loadSnapshot: snapshot, ...LOCK,
      });
      return { py, snapshot: true };
    } catch (e) {
      // no snapshot here (an older build, no Node when it was built): the ordinary start
    }
  }
  return { py: await loadPyodide({ indexURL: here + "pyodide/", fullStdLib: false, packages: [], ...LOCK }), snapshot: false };
}

/** Pyodide's whole standard library, fetched now (a module stdlib.zip left out is asked for:
 * loo_lessons.widgets.backends.stdlib). Synchronous: Python's import waits for it. */
self.looWholeStdlib = () => {
  const x = new XMLHttpRequest();
  x.open("GET", here + "pyodide/python_stdlib.zip", false);
  x.responseType = "arraybuffer";
  x.send();
  if (x.status !== 200) throw new Error(`python_stdlib.zip: ${x.status}`);
  return new Uint8Array(x.response);
};

/** @returns {Promise<WorkerReply>} */
function start() {
  api = null;
  return (async () => {
    const t0 = performance.now();
    const zipsP = Promise.all(
      ["loo_lessons.zip", "pyyaml.zip"].map(async (name) => {
        const r = await fetch(here + name);
        if (!r.ok) throw new Error(`${name}: ${r.status}`);
        return r.arrayBuffer();
      }),
    );
    await asmJs;
    const loaded = await loadPython();
    const py = (pyodide = loaded.py);
    const t1 = performance.now();
    const zips = await zipsP;
    if (loaded.snapshot) {
      // Imported already. What is imported later comes from the zips themselves (written as
      // files; zipimport): the snapshot's packages look there too.
      const names = ["loo_lessons.zip", "pyyaml.zip"];
      // the package's data (the seeds' texts, the shipped scenarios) is read where the
      // snapshot's package lives: put the package's files there too
      py.unpackArchive(zips[0], "zip", { extractDir: "/home/pyodide/site" });
      py.FS.mkdirTree("/home/pyodide/zips");
      names.forEach((n, i) => py.FS.writeFile(`/home/pyodide/zips/${n}`, new Uint8Array(zips[i])));
      py.runPython(
        "import sys\nzips = ['/home/pyodide/zips/loo_lessons.zip', '/home/pyodide/zips/pyyaml.zip']\n"
          + "sys.path[1:1] = zips\n"
          + "for name, m in list(sys.modules.items()):\n"
          + "    if name.split('.')[0] in ('loo_lessons', 'yaml') and hasattr(m, '__path__'):\n"
          + "        z = zips[0] if name.startswith('loo_lessons') else zips[1]\n"
          + "        m.__path__.append(z + '/' + name.replace('.', '/'))\n"
          + "import js\nfrom loo_lessons.widgets.backends import stdlib\n"
          + "if stdlib.finder(): stdlib.finder().fetch = lambda: js.looWholeStdlib().to_bytes()\n",
      );
    } else {
      for (const z of zips) py.unpackArchive(z, "zip", { extractDir: "/home/pyodide/site" });
      py.runPython(
        "import sys\nsys.path.insert(0, '/home/pyodide/site')\n"
          // what every page needs: the engine, and the controllers of the lessons' components
          + "import loo_lessons.widgets.backends.browser, loo_lessons.widgets.controllers.pick, loo_lessons.widgets.controllers.quiz",
      );
    }
    api = /** @type {Backend} */ (py.pyimport("loo_lessons.widgets.backends.browser"));
    // the lab's progress: Python posts a JSON line to the page whose request it is running
    self.looProgress = (text) => {
      if (current) current.postMessage(String(text));
    };
    py.runPython(
      "import js\nimport loo_lessons.widgets.backends.browser as b\nb.PROGRESS = lambda text: js.looProgress(text)",
    );
    const t2 = performance.now();
    wasmBytes = null; // its 8.6 MB are not kept (fetched again if Python must start again)
    return { type: /** @type {const} */ ("ready"), ms: t2 - t0, pyodideMs: t1 - t0, importMs: t2 - t1, snapshot: loaded.snapshot };
  })();
}

let ready = start();
ready.catch(() => {});

/** The deepest nesting of brackets in `text` (JSON's and YAML's flow style alike).
 * @param {string} text */
function depth(text) {
  let d = 0;
  let most = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) {
      d += 1;
      if (d > most) most = d;
    } else if ((c === 93 || c === 125) && d > 0) d -= 1;
  }
  return most;
}

/** Why these args cannot be passed to Python, or "" when they can.
 * @param {unknown} op @param {unknown} args */
function refusal(op, args) {
  if (typeof op !== "string" || !/** @type {readonly string[]} */ (OPS).includes(op)) return `unknown op ${JSON.stringify(String(op)).slice(0, 40)} (known: ${OPS.join(", ")})`;
  if (!Array.isArray(args) || args.length > 3) return "args must be a list of at most 3 values";
  for (const a of args) {
    if (typeof a === "number" ? !Number.isSafeInteger(a) : typeof a !== "string") {
      return "each argument must be a text or a whole number";
    }
    if (typeof a === "string") {
      if (a.length > MAX_CHARS) return `an argument is too long (${a.length} characters; at most ${MAX_CHARS})`;
      if (depth(a) > MAX_DEPTH) return `an argument is nested too deeply (more than ${MAX_DEPTH} levels)`;
    }
  }
  return "";
}

/** @param {unknown} err */
function oneLine(err) {
  const e = /** @type {{ message?: unknown } | null | undefined} */ (err);
  const text = String(e && e.message ? e.message : err);
  const lines = text.trim().split("\n").filter((l) => l.trim());
  return (lines[lines.length - 1] || "the engine failed").slice(0, 300);
}

/**
 * One message from a page: checked, then answered by Python.
 * @param {Port} port
 * @param {unknown} message
 */
async function handle(port, message) {
  const data = /** @type {{ id?: unknown, op?: unknown, args?: unknown } | null} */ (message);
  const id = data && typeof data === "object" && Number.isSafeInteger(data.id) ? /** @type {number} */ (data.id) : null;
  const answer = (/** @type {{ error: string } | { result: string }} */ m) => port.postMessage({ id, ...m });
  try {
    if (!data || typeof data !== "object" || Array.isArray(data)) {
      return answer({ error: "a message must be an object {id, op, args}" });
    }
    if (id === null) return answer({ error: "a message needs a whole-number id" });
    const why = refusal(data.op, data.args === undefined ? [] : data.args);
    if (why) return answer({ error: why });
    await ready;
    // (refusal has checked both: a known op, a list of texts and whole numbers)
    const op = /** @type {string} */ (data.op);
    const args = /** @type {(string | number)[] | undefined} */ (data.args);
    /** @type {unknown} */
    let out;
    current = port;
    try {
      if (!api) throw new Error("the engine is not started"); // (ready: never)
      out = api[op](...(args || []));
    } finally {
      current = null;
    }
    const text = typeof out === "string" ? out : String(out);
    const proxy = /** @type {{ destroy?: unknown } | null} */ (out);
    if (proxy && typeof proxy.destroy === "function") proxy.destroy();
    try {
      JSON.parse(text);
    } catch {
      return answer({ error: "the engine's answer was not JSON" });
    }
    return answer({ result: text });
  } catch (err) {
    // (Pyodide's private flag: not in its types)
    const internal = /** @type {{ _api?: { fatal_error_occurred?: boolean } } | null} */ (/** @type {unknown} */ (pyodide));
    const fatal = !!(internal && internal._api && internal._api.fatal_error_occurred)
      || /fatal error/i.test(String(err && /** @type {{ message?: unknown }} */ (err).message));
    if (fatal) {
      // Python cannot be trusted after a fatal error: a new one for the next message
      ready = start();
      ready.catch(() => {});
      return answer({ error: `the engine stopped (${oneLine(err)}); it is starting again` });
    }
    return answer({ error: oneLine(err) });
  }
}

/** @param {Port} port */
function connect(port) {
  // `since`: when this worker started (ms since the epoch); a page opened after that found
  // the visit's engine running (a later page, another tab)
  ready.then(
    (info) => port.postMessage({ ...info, since: performance.timeOrigin }),
    (err) => port.postMessage({ type: "failed", error: oneLine(err) }),
  );
}

if (typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope) {
  self.onconnect = (/** @type {MessageEvent} */ e) => {
    const port = e.ports[0];
    port.onmessage = (/** @type {MessageEvent} */ m) => handle(port, m.data);
    connect(port);
  };
} else {
  self.onmessage = (m) => handle(self, m.data);
  connect(self);
}
