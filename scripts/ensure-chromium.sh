#!/usr/bin/env bash
# Makes sure a Chromium is there for `npm run test:browser`: Debian's `chromium` package, installed only when neither
# $CHROME_PATH nor /usr/bin/chromium exists. Playwright's own browser download is not used (playwright-core only).
set -euo pipefail

if [[ -n "${CHROME_PATH:-}" && -x "${CHROME_PATH}" ]]; then
  exit 0
fi
if [[ -x /usr/bin/chromium ]]; then
  exit 0
fi

SUDO=""
if [[ "$(id -u)" -ne 0 ]]; then
  SUDO="sudo"
fi
echo "ensure-chromium: installing Debian's chromium" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version >&2
