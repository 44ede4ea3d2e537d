#!/usr/bin/env bash
# Builds the Jupyter Book (JB1) into book/_build/html, warnings as errors, and prints the time.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
start=$(date +%s%N)
"$BIN/jupyter-book" build . --config book/_config.yml --toc book/_toc.yml --path-output book \
  -W -n --keep-going --quiet "$@"
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
echo "book built in $((ms / 1000)).$(( (ms % 1000) / 100 )) s (goal < 90 s): open book/_build/html/index.html"
