// What the engine's worker (js/worker.js) finds in its global scope: typed here once for `tsc`
// (make jscheck, jsconfig.worker.json: a worker's scope, not a page's).

/** Pyodide's loader (pyodide/pyodide.js, importScripts). */
declare var loadPyodide: typeof import("pyodide").loadPyodide;
/** The snapshot's unpacker (snapshot.js, importScripts). */
declare var looSnapshot: import("./types").LooSnapshot;
/** Pyodide's whole standard library, for the package's stdlib finder (set by worker.js). */
declare var looWholeStdlib: () => Uint8Array;
/** A progress line from Python, to the page whose request it is running (set by worker.js). */
declare var looProgress: (text: unknown) => void;
