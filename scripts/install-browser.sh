#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (Playwright drives /usr/bin/chromium).
# Never `playwright install`: it downloads its own browser builds, which cannot be fetched here.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then
  SUDO="sudo"
fi
echo "Installing Debian's chromium for the browser tests…"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
