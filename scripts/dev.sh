#!/usr/bin/env bash
# Runs a deno task with the project's pinned Deno and Bun, installing both
# from the npm registry into .tools/ on first use. Needs only Node and npm.
#
#   bash scripts/dev.sh test          # the test suite
#   bash scripts/dev.sh start         # the reference application
#   bash scripts/dev.sh <task> [args] # any task from deno.json
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
DENO_VERSION=2.9.6
BUN_VERSION=1.4.5
if [ ! -x "$tools/node_modules/.bin/deno" ] || [ ! -x "$tools/node_modules/.bin/bun" ] ||
  ! "$tools/node_modules/.bin/deno" --version 2>/dev/null | grep -q "deno $DENO_VERSION" ||
  [ "$("$tools/node_modules/.bin/bun" --version 2>/dev/null)" != "$BUN_VERSION" ]; then
  mkdir -p "$tools"
  [ -f "$tools/package.json" ] || echo '{"private":true}' >"$tools/package.json"
  npm install --prefix "$tools" --no-audit --no-fund --loglevel=error \
    "deno@$DENO_VERSION" "bun@$BUN_VERSION" >&2
fi
export PATH="$tools/node_modules/.bin:$PATH"
# a task's paths (scan ./dir) are resolved from where this was run
export INIT_CWD="$PWD"
cd "$root"
if [ "$#" -eq 0 ]; then
  exec deno task
fi
exec deno task "$@"
