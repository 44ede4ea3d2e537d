"""Make a built book light and offline: `python scripts/light_pages.py SITE` (after
scripts/vendor_engine.py; scripts/build-book.sh runs both).

- Shared files, not copies: every component's code (widgets/static.component_module) and the
  engine client are inline module scripts in the executed notebooks, once per widget (lesson
  12 had 29 of them, 0.87 MB). Each distinct one becomes one file,
  `_static/loo-js/<hash>.js` (a classic `defer` script: it runs in the same order as the
  module did, and also from file://, where module files are refused), loaded once per page
  and cached once for the whole book.
- No unused state: the notebooks' ipywidgets state (`application/vnd.jupyter.widget-state+json`,
  0.84 MB in lesson 12) is read by nothing in the book, so it goes.
- No second icon set: the theme's `fontawesome.js` (1.49 MB, every icon there is, turned
  into SVG by script) goes; the theme's own stylesheet already draws the same icons from
  Font Awesome's solid web font (156 KB, fetched by the browser only for a page that shows
  an icon).
- Offline after one visit: `loo-sw.js` at the site's root (its scope: the whole book) caches
  the runtime, the engine and every page when it installs, under a cache named after the
  build (`loo-book-<id>`), and removes every other build's cache when it takes over; every
  page names its build (`<meta name="loo-build">`) and registers it (_static/loo-offline.js).

Prints the largest page, the number of shared scripts and what the service worker caches.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

#: An inline module script whose text has no import or export (static.component_module, the
#: engine client): what becomes a shared file.
MODULE_RE = re.compile(r'<script type="module">\n(.*?)</script>\n?', re.S)
IMPORT_EXPORT_RE = re.compile(r"^\s*(?:import|export)\b", re.M)
WIDGET_STATE_RE = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-state\+json">.*?</script>\n?', re.S
)
FONTAWESOME_RE = re.compile(
    r'<(?:script[^>]*src|link[^>]*href)="([^"]*)_static/scripts/fontawesome\.js[^"]*"[^>]*>'
    r"(?:</script>)?\n?"
)
BUILD_META_RE = re.compile(r'<meta name="loo-build" content="[0-9a-f]*">\n')
#: Files the service worker leaves out: sources for download, Sphinx's inventory, the icon
#: script no page loads any more, translations of the theme the book does not use, the
#: runtime's uncompressed wasm and JavaScript (the worker loads their .gz).
NOT_CACHED = re.compile(
    r"^(?:_sources/|\.buildinfo|objects\.inv|_static/scripts/fontawesome\.js|_static/locales/"
    r"|_static/loo-engine/pyodide/pyodide\.asm\.(?:wasm|js)$|loo-sw\.js$)|\.map$|\.LICENSE\.txt$|\.doctree$"
)


def shared_script(site: Path, body: str) -> str:
    """The shared file for this inline module's text; its path from the site's root."""
    text = f'(() => {{\n"use strict";\n{body}}})();\n'
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    rel = f"_static/loo-js/{digest}.js"
    out = site / rel
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    return rel


def lighten(site: Path, page: Path) -> str:
    """Rewrite one page (shared scripts, no widget state, no icon font); its new text."""
    text = page.read_text(encoding="utf-8")
    up = "../" * (len(page.relative_to(site).parts) - 1)
    text = WIDGET_STATE_RE.sub("", text)
    text = BUILD_META_RE.sub("", text)  # run again on a lightened site: one build id
    seen: set[str] = set()

    def share(m: re.Match[str]) -> str:
        body = m.group(1)
        if IMPORT_EXPORT_RE.search(body):
            return m.group(0)
        rel = shared_script(site, body)
        if rel in seen:
            return ""
        seen.add(rel)
        return f'<script defer src="{up}{rel}"></script>\n'

    text = MODULE_RE.sub(share, text)
    return FONTAWESOME_RE.sub("", text)


def build_id(site: Path, pages: dict[Path, str]) -> str:
    h = hashlib.sha256()
    for p in sorted(site.rglob("*")):
        if p.is_file() and p.suffix != ".html" and p.name != "loo-sw.js":
            h.update(p.relative_to(site).as_posix().encode() + b"\0" + p.read_bytes())
    for p, text in sorted(pages.items()):
        h.update(p.relative_to(site).as_posix().encode() + b"\0" + text.encode())
    return h.hexdigest()[:12]


SW = """\
// The book's service worker (scripts/light_pages.py writes it at each build): on its first
// visit the reader's browser keeps the runtime, the engine and every page of this build, so
// that afterwards the whole book opens and answers with no network. Only this site's own
// files; nothing from another host. A new build has a new cache name: it installs beside the
// old one, takes over, and the old cache is deleted.
const CACHE = "loo-book-@ID@";
const FILES = @FILES@;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "no-cache" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("loo-book-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // the pages ask for "x.css?v=…" or "x.js?digest=…": one file of this build either way
    let hit = await cache.match(req, { ignoreSearch: true });
    if (!hit && url.pathname.endsWith("/")) hit = await cache.match(url.pathname + "index.html");
    if (hit) return hit;
    try {
      return await fetch(req);
    } catch (e) {
      return new Response("This page is not in the book kept for offline reading.", {
        status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
  })());
});
"""


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: light_pages.py SITE", file=sys.stderr)
        return 2
    site = Path(argv[0])
    if not (site / "_static" / "loo-engine" / "engine.json").exists():
        print(f"error: site: {site} has no engine (run scripts/vendor_engine.py first)", file=sys.stderr)
        return 2
    pages = {p: lighten(site, p) for p in sorted(site.rglob("*.html"))}
    bid = build_id(site, pages)
    meta = f'<meta name="loo-build" content="{bid}">\n'
    for p, text in pages.items():
        if "<head>" in text:
            text = text.replace("<head>", "<head>\n" + meta, 1)
        p.write_text(text, encoding="utf-8")
    referenced = {m for text in pages.values() for m in re.findall(r"_static/loo-js/[0-9a-f]{16}\.js", text)}
    for old in (site / "_static" / "loo-js").glob("*.js"):  # an earlier build's
        if f"_static/loo-js/{old.name}" not in referenced:
            old.unlink()
    files = sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*")
        if p.is_file() and not NOT_CACHED.search(p.relative_to(site).as_posix())
    )
    sw = SW.replace("@ID@", bid).replace("@FILES@", json.dumps(["./" + f for f in files], indent=0))
    (site / "loo-sw.js").write_text(sw, encoding="utf-8")
    cached = sum((site / f).stat().st_size for f in files)
    biggest = max(pages, key=lambda p: len(pages[p].encode()))
    shared = len(list((site / "_static" / "loo-js").glob("*.js")))
    print(
        f"pages: the largest {biggest.relative_to(site)} {len(pages[biggest].encode()) / 1e3:.0f} KB; "
        f"{shared} shared scripts; build {bid}; "
        f"offline: loo-sw.js keeps {len(files)} files ({cached / 1e6:.1f} MB)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
