"""Put the book's in-page engine into a built site: `python scripts/vendor_engine.py SITE`.

- Pyodide from node_modules/pyodide (installed from the npm registry at the version pinned
  in package.json / package-lock.json by `npm ci`, which this script runs when the installed
  copy is missing or another version): only the files the page needs (the runtime, the
  standard library, the lock file; no source maps, no consoles, no packages);
- the loo_lessons package's pure-Python sources and data as loo_lessons.zip;
- PyYAML's pure-Python part (the `yaml` package of the PyYAML installed here, without its C
  extension) as pyyaml.zip, so scenarios typed in the page are read by the same safe loader;
- the worker (loo_lessons/widgets/js/worker.js) and the snapshot's unpacker (snapshot.js);
- the runtime's wasm and its JavaScript gzipped too (the worker fetches those: 3.0 MB moved
  instead of 9.7 MB);
- the lock file of the packages the page loads, which are none (pyodide-lock.json: Pyodide
  reads one at every start; its own lists 379 packages, 122 KB).

Both zips are byte-compiled by Pyodide's own Python, run by Node (scripts/pyc_in_pyodide.mjs),
which then takes a memory snapshot of Pyodide with the package imported (snapshot.bin.gz,
packed against the runtime's wasm) and writes the part of the standard library the page may
still import (stdlib.zip; the whole python_stdlib.zip stays, for a module it left out and for
a start without the snapshot): the page's worker starts Python from them, below a bare
Pyodide start. The page's zips then keep only the sources (what the snapshot did not import
is imported from them by zipimport, which has no use for __pycache__).

All of it goes to SITE/_static/loo-engine/, and the page loads it from there only. The
zips are reproducible (fixed timestamps, sorted names). Prints what it wrote and its size.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
STAMP = (2026, 1, 1, 0, 0, 0)
#: A live widget's spec in a built page (widgets/static.live_html): JSON, HTML-escaped.
#: A live spec's letters and digits as the page turns them (widgets/static.py `_TURN`).
_PLAIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
TURN = str.maketrans(_PLAIN, "NOPQRSTUVWXYZABCDEFGHIJKLMnopqrstuvwxyzabcdefghijklm5678901234")
LIVE_RE = re.compile(r'data-loo-live="([^"]*)"')


def pinned_version() -> str:
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    return str(lock["packages"]["node_modules/pyodide"]["version"])


def ensure_pyodide() -> Path:
    """node_modules/pyodide at the pinned version (`npm ci` from the lockfile if not)."""
    want = pinned_version()
    here = ROOT / "node_modules" / "pyodide"
    have = None
    if (here / "package.json").exists():
        have = json.loads((here / "package.json").read_text(encoding="utf-8")).get("version")
    if have != want:
        print(f"vendoring: npm ci (pyodide {want}, from package-lock.json)", flush=True)
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=ROOT, check=True
        )
    return here


def _zip(out: Path, files: list[tuple[Path, str]]) -> None:
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for src, name in sorted(files, key=lambda f: f[1]):
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, src.read_bytes())


def package_files() -> list[tuple[Path, str]]:
    pkg = ROOT / "loo_lessons"
    out = []
    for p in pkg.rglob("*"):
        rel = p.relative_to(ROOT)
        if not p.is_file() or "__pycache__" in rel.parts or p.suffix == ".pyc":
            continue
        if rel.parts[:3] == ("loo_lessons", "widgets", "js"):
            continue  # the components are inlined in the pages already
        out.append((p, rel.as_posix()))
    return out


def pyyaml_files() -> tuple[str, list[tuple[Path, str]]]:
    dist = metadata.distribution("PyYAML")
    out = []
    for f in dist.files or []:
        parts = Path(str(f)).parts
        if parts and parts[0] == "yaml" and str(f).endswith(".py"):
            out.append((Path(str(dist.locate_file(f))), Path(str(f)).as_posix()))
    if not any(name == "yaml/__init__.py" for _, name in out):
        raise SystemExit("error: PyYAML: its pure-Python package yaml/ was not found")
    return dist.version, out


def byte_compile(
    pyodide: Path, zips: list[Path], snapshot: Path, stdlib: Path, widgets: list[dict[str, object]]
) -> None:
    """Add .pyc files made by Pyodide's own Python (in Node) to the zips: the page then
    imports without compiling; and take the memory snapshot the page's worker starts from
    (gzipped as SNAPSHOT) with the part of the standard library it needs (STDLIB: what the
    package imports, and what making each of the book's live WIDGETS imports). Without
    Node the zips stay source-only and there is neither (slower, still works: the worker then
    starts Pyodide the ordinary way)."""
    node = shutil.which("node")
    if node is None:
        print("vendoring: no node: the zips hold sources only (imports compile in the page)")
        return
    raw = snapshot.with_suffix("")
    with tempfile.TemporaryDirectory() as tmp:
        listed = Path(tmp) / "widgets.json"
        listed.write_text(json.dumps(widgets), encoding="utf-8")
        subprocess.run(
            [node, str(ROOT / "scripts" / "pyc_in_pyodide.mjs"), str(pyodide), "--snapshot", str(raw),
             "--stdlib", str(stdlib), "--widgets", str(listed), *map(str, zips)],
            check=True,
            timeout=600,
        )
    gzip_copy(raw)
    raw.unlink()
    for z in zips:  # the page's zips: only what is imported later, by zipimport (no __pycache__)
        drop_pycache(z)


def live_widgets(site: Path) -> list[dict[str, object]]:
    """Every live widget of the built book's pages, once each: {kind, args} (what a page's
    engine makes; the snapshot's build makes each one to see what it imports)."""
    found: dict[str, dict[str, object]] = {}
    for page in sorted(site.rglob("*.html")):
        for attr in LIVE_RE.findall(page.read_text(encoding="utf-8")):
            # the page carries the spec turned (widgets/static.py encode_state)
            spec = json.loads(html.unescape(attr).translate(TURN))
            if isinstance(spec, dict) and isinstance(spec.get("kind"), str):
                w = {"kind": spec["kind"], "args": spec.get("args") or {}}
                found.setdefault(json.dumps(w, sort_keys=True), w)
    return list(found.values())


def drop_pycache(path: Path) -> None:
    with zipfile.ZipFile(path) as z:
        keep = [(i, z.read(i)) for i in z.infolist() if "__pycache__/" not in i.filename]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info, data in keep:
            out.writestr(info, data)


def gzip_copy(path: Path) -> None:
    """PATH.gz beside PATH (reproducible: no name, no time). The worker fetches the runtime's
    8.6 MB wasm as this 2.8 MB file and unpacks it as it streams in (DecompressionStream),
    whatever the server; PATH stays for browsers without DecompressionStream and for the
    bare-Pyodide floor of `loo-lessons bench --browser`."""
    import gzip

    with (
        path.open("rb") as f,
        (path.parent / (path.name + ".gz")).open("wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as z,
    ):
        shutil.copyfileobj(f, z)


def favicon() -> bytes:
    """A 1x1 transparent icon: browsers ask every server for /favicon.ico, and a 404 there
    is a console error on every page."""
    import struct

    pixel = struct.pack("<IiiHHIIiiII", 40, 1, 2, 1, 32, 0, 8, 0, 0, 0, 0) + b"\0" * 4 + b"\0" * 4
    return struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", 1, 1, 0, 0, 1, 32, len(pixel), 22) + pixel


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: vendor_engine.py SITE", file=sys.stderr)
        return 2
    site = Path(argv[0])
    if not (site / "_static").is_dir():
        print(f"error: site: {site} has no _static folder (build the book first)", file=sys.stderr)
        return 2
    dest = site / "_static" / "loo-engine"
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "pyodide").mkdir(parents=True)
    src = ensure_pyodide()
    for name in PYODIDE_FILES:
        shutil.copy2(src / name, dest / "pyodide" / name)
    gzip_copy(dest / "pyodide" / "pyodide.asm.wasm")
    gzip_copy(dest / "pyodide" / "pyodide.asm.js")
    _zip(dest / "loo_lessons.zip", package_files())
    yaml_version, yaml_files = pyyaml_files()
    _zip(dest / "pyyaml.zip", yaml_files)
    zips = [dest / "loo_lessons.zip", dest / "pyyaml.zip"]
    byte_compile(src, zips, dest / "snapshot.bin.gz", dest / "stdlib.zip", live_widgets(site))
    lock = json.loads((src / "pyodide-lock.json").read_text(encoding="utf-8"))
    (dest / "pyodide-lock.json").write_text(json.dumps({"info": lock["info"], "packages": {}}) + "\n", encoding="utf-8")
    for name in ("worker.js", "snapshot.js"):
        shutil.copy2(ROOT / "loo_lessons" / "widgets" / "js" / name, dest / name)
    manifest = {
        "pyodide": pinned_version(),
        "pyyaml": yaml_version,
        "files": sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()),
    }
    (dest / "engine.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    if not (site / "favicon.ico").exists():
        (site / "favicon.ico").write_bytes(favicon())
    engine = sum(p.stat().st_size for p in dest.rglob("*") if p.is_file())
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    print(
        f"engine: pyodide {manifest['pyodide']}, PyYAML {yaml_version} (pure), "
        f"{engine / 1e6:.1f} MB in {dest.relative_to(site)}; site: {total / 1e6:.1f} MB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
