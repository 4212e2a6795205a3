#!/usr/bin/env bash
# Make a Chromium available to Playwright, in this order (the first one already there ends the search):
#   1. $HALO_CHROMIUM, if it points at an executable (any Chromium build you choose);
#   2. Playwright's own Chromium, installed already, else downloaded (`playwright install chromium`);
#   3. Debian's chromium + chromium-headless-shell, installed already, else through apt-get (root or sudo).
# halo.env.browser looks in the same order at run time (HALO_CHROMIUM, Playwright's, Debian's headless shell, then
# Debian's full chromium).
set -uo pipefail
PY=${1:-.venv/bin/python}

if [ -n "${HALO_CHROMIUM:-}" ]; then
  if [ -x "$HALO_CHROMIUM" ]; then echo "browser: using HALO_CHROMIUM=$HALO_CHROMIUM"; exit 0; fi
  echo "browser: HALO_CHROMIUM=$HALO_CHROMIUM is not an executable file; unset it or fix the path" >&2; exit 1
fi
if "$PY" - <<'PYEOF' 2>/dev/null; then
import os, sys
from playwright.sync_api import sync_playwright
with sync_playwright() as p:
    sys.exit(0 if os.path.exists(p.chromium.executable_path) else 1)
PYEOF
  echo "browser: Playwright's Chromium already installed"; exit 0
fi
if [ -x /usr/lib/chromium/chromium ] || [ -x /usr/lib/chromium/chrome-headless-shell ] || [ -x /usr/bin/chromium ]; then
  echo "browser: Debian chromium already installed"; exit 0
fi
if timeout 600 "$PY" -m playwright install chromium >/tmp/halo-playwright-install.log 2>&1; then
  echo "browser: installed Playwright's Chromium"; exit 0
fi
echo "browser: Playwright could not download its Chromium (see /tmp/halo-playwright-install.log); trying Debian's"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if command -v apt-get >/dev/null; then
  $SUDO apt-get update -qq >/dev/null 2>&1 || true
  if DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell fonts-liberation >/tmp/halo-apt.log 2>&1; then
    echo "browser: installed Debian chromium"; exit 0
  fi
  echo "browser: apt-get install chromium failed (see /tmp/halo-apt.log)" >&2
fi
echo "browser: no Chromium available. Install one and set HALO_CHROMIUM=/path/to/chromium" >&2
exit 1
