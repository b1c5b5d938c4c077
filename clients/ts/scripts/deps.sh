#!/usr/bin/env bash
# Installs node_modules with `npm ci` from package-lock.json, unless the
# installed tree already matches the lock file.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
stamp=node_modules/.agentsvc-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then
	exit 0
fi
npm ci --no-audit --no-fund --loglevel=error
echo "$want" >"$stamp"
