// Byte-compiles the book engine's Python zips with Pyodide's own CPython (run by Node from
// node_modules/pyodide: no network), so that the page imports .pyc files instead of compiling
// every module on every page load. Usage:
//   node pyc_in_pyodide.mjs PYODIDE_DIR [--snapshot OUT] ZIP...
// Each zip is rewritten in place with its __pycache__ added (unchecked-hash pycs: they do
// not depend on file times; the sources stay, for tracebacks).
//
// --snapshot OUT: then a Pyodide memory snapshot, taken once the zips are unpacked where the
// page unpacks them (/home/pyodide/site) and the engine and the components' controllers are
// imported: the page's worker starts from it (loadPyodide's `_loadSnapshot`) instead of
// starting Python and importing the package again, which is most of a bare Pyodide start.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const argv = process.argv.slice(2);
const dir = argv.shift();
let snapshotOut = null;
if (argv[0] === "--snapshot") {
  argv.shift();
  snapshotOut = argv.shift();
}
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

if (snapshotOut) {
  const snap = await loadPyodide({ indexURL: dir + path.sep, _makeSnapshot: true, packages: [] });
  for (const [i, zip] of zips.entries()) snap.FS.writeFile(`/tmp/snap${i}.zip`, fs.readFileSync(zip));
  // as worker.js does after loading (there with unpackArchive, here in Python: no JS object
  // may be held by a snapshot), then the imports every page needs
  snap.runPython(`
import sys, zipfile
for i in range(${zips.length}):
    with zipfile.ZipFile(f"/tmp/snap{i}.zip") as z:
        z.extractall("/home/pyodide/site")
sys.path.insert(0, "/home/pyodide/site")
import loo_lessons.widgets.backends.browser, loo_lessons.widgets.controllers.pick, loo_lessons.widgets.controllers.quiz
`);
  const bytes = snap.makeMemorySnapshot();
  fs.writeFileSync(snapshotOut, bytes);
  console.log(`memory snapshot: ${(bytes.length / 1e6).toFixed(1)} MB`);
}
