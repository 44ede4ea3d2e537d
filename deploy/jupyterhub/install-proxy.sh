#!/usr/bin/env bash
# Install configurable-http-proxy (JupyterHub's proxy) from the npm registry, exactly the
# versions in package-lock.json, into deploy/jupyterhub/node_modules. Needs node 20+ and npm.
# Does nothing when the installed copy already matches the lockfile.
set -euo pipefail
cd "$(dirname "$0")"
bin=node_modules/.bin/configurable-http-proxy
if [[ -x $bin && node_modules/.package-lock.json -nt package-lock.json ]]; then
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
