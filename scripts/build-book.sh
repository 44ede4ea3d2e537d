#!/usr/bin/env bash
# Writes the generated pages (python -m tools.book_pages), builds the Jupyter Book (JB1) into
# book/_build/html, warnings as errors, then puts the
# in-page engine into it (scripts/vendor_engine.py: Pyodide pinned in package-lock.json, the
# package as a zip, PyYAML's pure-Python part), makes the pages light and the book offline
# after one visit (scripts/light_pages.py), and prints the time and the site's size.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
# Node: npm installs the in-page engine (Pyodide, from package-lock.json) and node precompiles
# the package for it (without node the page compiles it, slower)
[[ -d node_modules/pyodide ]] || command -v npm >/dev/null || {
  echo "make book needs Node.js 20+ with npm: the in-page engine (Pyodide) comes from npm" >&2
  exit 2
}
start=$(date +%s%N)
"$BIN/python" -m tools.book_pages  # book/generated/: sources, variants, disagreements, cli, api
"$BIN/jupyter-book" build . --config book/_config.yml --toc book/_toc.yml --path-output book \
  --all -W -n --keep-going --quiet "$@"  # --all: every page again (the widgets may have changed)
"$BIN/python" scripts/vendor_engine.py book/_build/html
"$BIN/python" scripts/light_pages.py book/_build/html  # shared scripts, no icon font, offline
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
size=$(du -sh book/_build/html | cut -f1)
echo "book built in $((ms / 1000)).$(( (ms % 1000) / 100 )) s (goal < 90 s), site $size: serve it with"
echo "  python -m http.server --bind 127.0.0.1 --directory book/_build/html 8000   (or: make serve-book)"
echo "and open http://127.0.0.1:8000/ (from file:// the pages open, but the engine cannot start)"
