#!/usr/bin/env bash
# Builds the package and its tests, then runs them one file at a time with
# node's test runner: the unit tests, and the live tests, which need the
# stack of scripts/with-stack.sh (AGENTSVC_ADDR, FAKEGEMINI_URL).
#
#   scripts/test.sh            unit and live tests
#   scripts/test.sh unit       unit tests only
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
"$here/scripts/deps.sh"
rm -rf dist
npx --no-install tsc -p tsconfig.json
dirs=(dist/test/unit/)
if [[ ${1:-} != unit ]]; then
	dirs+=(dist/test/live/)
fi
exec node --test --test-concurrency=1 --test-timeout=60000 "${dirs[@]}"
