// The book engine's Web Worker: Pyodide (vendored next to this file, never fetched from
// another host), the standard library, PyYAML's pure-Python part and the loo_lessons
// package (zips built with the book), then loo_lessons.widgets.backends.browser.
// Messages: {id, op: "create" | "send" | "drop" | "run", args} -> {id, result} | {id, error}.
importScripts("pyodide/pyodide.js");

const here = new URL("./", self.location.href).href;
let api = null;

const ready = (async () => {
  const t0 = performance.now();
  const zipsP = Promise.all(
    ["loo_lessons.zip", "pyyaml.zip"].map(async (name) => {
      const r = await fetch(here + name);
      if (!r.ok) throw new Error(`${name}: ${r.status}`);
      return r.arrayBuffer();
    }),
  );
  const pyodide = await loadPyodide({ indexURL: here + "pyodide/", fullStdLib: false, packages: [] });
  const t1 = performance.now();
  const zips = await zipsP;
  for (const z of zips) pyodide.unpackArchive(z, "zip", { extractDir: "/home/pyodide/site" });
  pyodide.runPython(
    "import sys\nsys.path.insert(0, '/home/pyodide/site')\n"
      // what every page needs: the engine, and the controllers of the lessons' components
      + "import loo_lessons.widgets.backends.browser, loo_lessons.widgets.controllers.pick, loo_lessons.widgets.controllers.quiz",
  );
  api = pyodide.pyimport("loo_lessons.widgets.backends.browser");
  // the lab's progress: Python posts a JSON line to the page while it runs
  pyodide.runPython(
    "import js\nimport loo_lessons.widgets.backends.browser as b\nb.PROGRESS = lambda text: js.postMessage(text)",
  );
  const t2 = performance.now();
  self.postMessage({ type: "ready", ms: t2 - t0, pyodideMs: t1 - t0, importMs: t2 - t1 });
})().catch((e) => {
  self.postMessage({ type: "failed", error: String(e && e.message ? e.message : e) });
  throw e;
});

self.onmessage = async (e) => {
  const { id, op, args } = e.data || {};
  try {
    await ready;
    if (!["create", "send", "drop", "run"].includes(op)) throw new Error(`unknown op ${op}`);
    const result = api[op](...(args || []));
    self.postMessage({ id, result: String(result) });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
