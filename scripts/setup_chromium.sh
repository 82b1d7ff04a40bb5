#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests of the HTML report
# (tests/extract/report_html_browser_test.ts), unless it is there. Needs
# root and apt-get; exits 1 with the reason when it cannot install it, and
# prints the version when Chromium is ready. .ci/run calls it.
#
#   bash scripts/setup_chromium.sh
set -uo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "chromium: $(chromium --version 2>/dev/null | head -1)"
  exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "Cannot install chromium: apt-get as root is needed" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq >/dev/null 2>&1 ||
  ! apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null 2>&1; then
  echo "Cannot install chromium: apt-get install chromium failed" >&2
  exit 1
fi
echo "chromium: $(chromium --version 2>/dev/null | head -1)"
