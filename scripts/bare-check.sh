#!/usr/bin/env bash
# Run each command a class can use with only the base install (PyYAML the only dependency)
# and check its exit code, with no traceback on stderr. `make bare` runs it in .venv-bare;
# LOO may name another way to run the command line (tests/test_cli_bad.py uses it).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LOO="${LOO:-$ROOT/.venv-bare/bin/loo-lessons}"
PYBIN="${PYBIN:-$ROOT/.venv-bare/bin/python}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"  # away from the source tree: the installed package is the one that runs
SCENARIO="$ROOT/loo_lessons/scenarios/deal-must-no-miss.yaml"
fail=0

check() {  # check EXPECTED_CODE INPUT_FILE ARGS...
    local want="$1" input="$2"
    shift 2
    local code=0
    $LOO "$@" <"$input" >"$TMP/out" 2>"$TMP/err" || code=$?
    if [[ "$code" != "$want" ]] || grep -q "Traceback" "$TMP/err"; then
        echo "FAIL (exit $code, wanted $want): loo-lessons $*" >&2
        head -c 2000 "$TMP/err" >&2
        fail=1
    else
        echo "ok   loo-lessons $*"
    fi
}

if $PYBIN -c "import pandas" 2>/dev/null || $PYBIN -c "import anywidget" 2>/dev/null; then
    echo "FAIL: an extra is installed, this is not a bare install" >&2
    exit 1
fi
printf '1\n1\n1\n1\n1\n1\n1\n1\n1\n\n' >"$TMP/moves"
check 0 /dev/null rules
check 0 /dev/null rules --json
check 0 /dev/null explain "$SCENARIO"
check 0 /dev/null explain --json "$SCENARIO"
check 0 /dev/null deal --players 5 --seed 1
check 0 /dev/null deal --json --seed 2
check 0 /dev/null quiz --topic follow --count 3 --json
check 0 /dev/null quiz --topic deal --count 3 --html "$TMP/quiz.html"
check 0 /dev/null simulate --hands 2000 --json --quiet
check 0 /dev/null simulate --hands 300 --players 4 --csv
check 0 /dev/null simulate --hands 5000 --players 4 --workers 2 --quiet
check 2 /dev/null simulate --hands 10 --dask local:2
grep -q "pip install 'loo-lessons\[cluster\]'" "$TMP/err" || { echo "FAIL: --dask did not name the cluster extra" >&2; fail=1; }
check 0 /dev/null coach "$SCENARIO" --rollouts 20 --json
check 0 "$TMP/moves" play --seed 3 --players 4
check 0 /dev/null bench --seconds 0.05 --no-simulation
grep -q "pip install 'loo-lessons\[lessons\]'" "$TMP/out" || { echo "FAIL: bench did not name the extra it skipped" >&2; fail=1; }
check 2 /dev/null deal --players 0
# the doors of a release without the extras: a version, scenarios by name, the lessons laid out
# (JupyterLab named as missing, in one line), the book named as not installed
check 0 /dev/null --version
check 0 /dev/null scenarios
check 0 /dev/null explain lead-king-when-ace-turned
check 2 /dev/null explain no-such-scenario
check 0 /dev/null lessons "$TMP/lessons" --print-only
check 2 /dev/null lessons "$TMP/lessons" --no-browser
grep -q "pip install 'loo-lessons\[lessons\]'" "$TMP/err" || { echo "FAIL: lessons did not name the extra it needs" >&2; fail=1; }
check 2 /dev/null book --no-browser
exit "$fail"
