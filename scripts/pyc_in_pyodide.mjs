// Byte-compiles the book engine's Python zips with Pyodide's own CPython (run by Node from
// node_modules/pyodide: no network), so that the page imports .pyc files instead of compiling
// every module on every page load. Usage:
//   node pyc_in_pyodide.mjs PYODIDE_DIR [--snapshot OUT --stdlib PART [--widgets JSON]] ZIP...
// Each zip is rewritten in place with its __pycache__ added (unchecked-hash pycs: they do
// not depend on file times; the sources stay, for tracebacks).
//
// --snapshot OUT --stdlib PART: then a Pyodide memory snapshot, taken once the zips are
// unpacked where the page unpacks them (/home/pyodide/site) and the engine and the components'
// controllers are imported: the page's worker starts from it (loadPyodide's `_loadSnapshot`)
// instead of starting Python and importing the package again, which is most of a bare
// Pyodide start. Made small for the network:
// - PART: the standard library the page still needs is only what the snapshot did not
//   import and the package may import later (found here by importing every module of the
//   package the page can run and PyYAML, then making every live widget of the book, the
//   JSON list [{kind, args}] of --widgets, and explaining a scenario); it is written as PART,
//   which the page mounts instead of the whole 2.4 MB zip
//   (loo_lessons.widgets.backends.stdlib; a module left out is fetched from the whole zip
//   the first time it is asked for);
// - the memory malloc holds free is zeroed before the snapshot (freed, it still held what
//   was there, and gzip had to keep it);
// - OUT is packed against the runtime's wasm (loo_lessons/widgets/js/snapshot.js).
// The snapshot is then restored here, as the page will, and must import every module of
// the package from PART alone.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const dir = argv.shift();
let snapshotOut = null;
let stdlibOut = null;
let widgets = "[]";
while (["--snapshot", "--stdlib", "--widgets"].includes(argv[0])) {
  const flag = argv.shift();
  const value = argv.shift();
  if (flag === "--snapshot") snapshotOut = value;
  else if (flag === "--stdlib") stdlibOut = value;
  else widgets = fs.readFileSync(value, "utf8");
}
if (!snapshotOut !== !stdlibOut) throw new Error("--snapshot and --stdlib go together");
const zips = argv;
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: dir + path.sep });
for (const [i, zip] of zips.entries()) {
  const src = `/tmp/in${i}.zip`;
  const out = `/tmp/out${i}.zip`;
  py.FS.writeFile(src, fs.readFileSync(zip));
  py.runPython(`
import compileall, os, py_compile, shutil, zipfile
root = "/tmp/tree${i}"
shutil.rmtree(root, ignore_errors=True)
with zipfile.ZipFile("${src}") as z:
    z.extractall(root)
ok = compileall.compile_dir(root, quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
assert ok, "compileall failed"
with zipfile.ZipFile("${out}", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    for base, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(base, f)
            info = zipfile.ZipInfo(os.path.relpath(p, root), (2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with open(p, "rb") as fh:
                z.writestr(info, fh.read())
`);
  fs.writeFileSync(zip, py.FS.readFile(out));
}
console.log(`byte-compiled ${zips.length} zip(s) with Python ${py.runPython("import sys; sys.version.split()[0]")}`);

// What every page imports at once (worker.js imports the same when there is no snapshot)
const FIRST = "import loo_lessons.widgets.backends.browser, loo_lessons.widgets.controllers.pick, loo_lessons.widgets.controllers.quiz";
// Every module of the package a page may run (not the command line, not the class hub's
// server side, whose modules need what Pyodide has not got), then PyYAML: the modules this
// imports are those the page may ask the standard library for.
const EVERYTHING = `
import importlib, pkgutil, sys, loo_lessons
for m in pkgutil.walk_packages(loo_lessons.__path__, "loo_lessons."):
    if m.name.startswith(("loo_lessons.cli", "loo_lessons.classroom")) or m.name.endswith("__main__"):
        continue
    try:
        importlib.import_module(m.name)
    except ImportError as e:  # anywidget, pandas: the kernel's side, never imported in the page
        if e.name and e.name.split(".")[0] in sys.stdlib_module_names:
            raise
import yaml
`;
// Every live widget of the book made once, and a scenario explained (the playground): what
// the page's Python runs first, with the imports it makes on the way (e.g. importlib.resources
// reading a seed's text)
const WIDGETS = `
import glob, json
from loo_lessons.widgets.backends import browser
for w in json.loads(${JSON.stringify(widgets)}):
    made = json.loads(browser.create(w["kind"], json.dumps(w["args"]), "{}"))
    if "id" in made:
        browser.drop(made["id"])
for path in sorted(glob.glob("/home/pyodide/site/loo_lessons/scenarios/*.yaml"))[:1]:
    with open(path, encoding="utf-8") as f:
        browser.run("explain", json.dumps({"text": f.read()}))
`;

function unpackTo(pyodide, prefix) {
  for (const [i, zip] of zips.entries()) pyodide.FS.writeFile(`/tmp/${prefix}${i}.zip`, fs.readFileSync(zip));
  // as worker.js does after loading (there with unpackArchive, here in Python: no JS object
  // may be held by a snapshot)
  pyodide.runPython(`
import sys, zipfile
for i in range(${zips.length}):
    with zipfile.ZipFile(f"/tmp/${prefix}{i}.zip") as z:
        z.extractall("/home/pyodide/site")
sys.path.insert(0, "/home/pyodide/site")
`);
}

if (snapshotOut) {
  // what a page may import, found in the compiling Python (which stays out of the snapshot)
  unpackTo(py, "all");
  py.runPython(FIRST + "\n" + EVERYTHING + "\n" + WIDGETS);
  const wanted = JSON.stringify(py.runPython("import json, sys; json.dumps(sorted(sys.modules))"));

  const snap = await loadPyodide({ indexURL: dir + path.sep, _makeSnapshot: true, packages: [] });
  unpackTo(snap, "snap");
  snap.runPython(`
${FIRST}
import json, sys, zipfile, zipimport
from loo_lessons.widgets.backends import stdlib
whole = next(p for p in sys.path if p.startswith("/lib/python") and p.endswith(".zip"))
with zipfile.ZipFile(whole) as z:
    names = stdlib.module_names(z.namelist())
later = set(json.loads(${wanted})) - set(sys.modules)
kept = stdlib.write_part(whole, later, "/tmp/part.zip")
# the page mounts the part where the whole was: the imports read its directory afresh
with open("/tmp/part.zip", "rb") as f, open(whole, "wb") as w:
    w.write(f.read())
zipimport._zip_directory_cache.clear()
stdlib.install(names)
del f, w, z, kept, later, names, whole
import gc
gc.collect()
`);
  const part = snap.FS.readFile(snap.runPython(
    "next(p for p in __import__('sys').path if p.startswith('/lib/python') and p.endswith('.zip'))"));
  zeroFreeMemory(snap._module);
  const raw = snap.makeMemorySnapshot();
  vm.runInThisContext(fs.readFileSync(path.join(here, "..", "loo_lessons", "widgets", "js", "snapshot.js"), "utf8"));
  const wasm = new Uint8Array(fs.readFileSync(path.join(dir, "pyodide.asm.wasm")));
  const packed = globalThis.looSnapshot.pack(raw, wasm);
  if (!packed) console.log("memory snapshot: not packed (the runtime's data is not where it was expected)");
  const bytes = packed || raw;
  fs.writeFileSync(snapshotOut, bytes);
  fs.writeFileSync(stdlibOut, part);
  console.log(`memory snapshot: ${(raw.length / 1e6).toFixed(1)} MB; the standard library it needs later: `
    + `${(part.length / 1e3).toFixed(0)} KB`);

  // as the page does: restored from the packed snapshot with the part, every module imports
  // from the part alone (the whole zip is never fetched)
  const again = await loadPyodide({
    indexURL: dir + path.sep,
    packages: [],
    stdLibURL: stdlibOut,
    _loadSnapshot: globalThis.looSnapshot.unpack(new Uint8Array(bytes), wasm),
  });
  unpackTo(again, "again");
  again.runPython(`${EVERYTHING}
${WIDGETS}
import json
from loo_lessons.widgets.backends import browser, stdlib
assert not stdlib.finder().mounted, "a module the page imports is not in the part"
assert json.loads(browser.run("hands", '{"hands": 3}'))["hands"] == 3
`);
  console.log("memory snapshot: restored here, every module imported and every widget made from the part");
}

/** Zero the memory malloc holds free, without growing it: what was freed stays free, only
 * its old contents go. (Python's own free blocks inside the pools it keeps are few: zeroing
 * them too gained nothing measurable.) */
function zeroFreeMemory(m) {
  const before = m.HEAP8.length;
  m._malloc_set_footprint_limit(m._malloc_footprint()); // no growth: malloc says no instead
  const held = [];
  for (let size = 1 << 24; size >= 8; size >>= 1) {
    for (let p = m._PyMem_RawMalloc(size); p; p = m._PyMem_RawMalloc(size)) {
      m.HEAPU8.fill(0, p, p + size);
      held.push(p);
    }
  }
  for (const p of held) m._PyMem_RawFree(p);
  m._malloc_set_footprint_limit(-1 >>> 0); // no limit again
  if (m.HEAP8.length !== before) throw new Error("zeroing the free memory grew it");
}
