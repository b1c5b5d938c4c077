#!/usr/bin/env bash
# Runs a command with a Python virtual environment holding google-adk[a2a],
# pinned by integration/testdata/a2a/requirements.lock, in .tools/a2a-venv
# (or $AGENTSVC_A2A_VENV).
#
#   scripts/with-a2a-venv.sh CMD ARGS...
#
# Exports AGENTSVC_TEST_A2A_PYTHON (the environment's python).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ $# -eq 0 ]]; then
	echo "usage: $0 CMD ARGS..." >&2
	exit 2
fi

dest="${AGENTSVC_A2A_VENV:-$root/.tools/a2a-venv}"
lock="$root/integration/testdata/a2a/requirements.lock"
if ! cmp -s "$lock" "$dest/requirements.lock" || [[ ! -x $dest/bin/python ]]; then
	rm -rf "$dest"
	python3 -m venv "$dest"
	"$dest/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$lock"
	cp "$lock" "$dest/requirements.lock"
fi
export AGENTSVC_TEST_A2A_PYTHON="$dest/bin/python"
exec "$@"
