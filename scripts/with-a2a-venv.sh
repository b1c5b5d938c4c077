#!/usr/bin/env bash
# Runs a command with two Python virtual environments holding
# google-adk[a2a]: ADK 1.39.1 with a2a-sdk 0.3 (A2A 0.3), pinned by
# integration/testdata/a2a/requirements.lock, in .tools/a2a-venv (or
# $AGENTSVC_A2A_VENV), and ADK 2.13 with a2a-sdk 1.x (A2A 1.0), pinned by
# integration/testdata/a2a2/requirements.lock, in .tools/a2a2-venv (or
# $AGENTSVC_A2A2_VENV). Each is made again only when its lock changes.
#
#   scripts/with-a2a-venv.sh CMD ARGS...
#
# Exports AGENTSVC_TEST_A2A_PYTHON and AGENTSVC_TEST_A2A2_PYTHON (the
# environments' pythons).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ $# -eq 0 ]]; then
	echo "usage: $0 CMD ARGS..." >&2
	exit 2
fi

# venv DEST LOCK: makes DEST from LOCK unless it was made from the same one.
venv() {
	local dest=$1 lock=$2
	if ! cmp -s "$lock" "$dest/requirements.lock" || [[ ! -x $dest/bin/python ]]; then
		rm -rf "$dest"
		python3 -m venv "$dest"
		"$dest/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$lock"
		cp "$lock" "$dest/requirements.lock"
	fi
}

dest="${AGENTSVC_A2A_VENV:-$root/.tools/a2a-venv}"
venv "$dest" "$root/integration/testdata/a2a/requirements.lock"
export AGENTSVC_TEST_A2A_PYTHON="$dest/bin/python"
dest2="${AGENTSVC_A2A2_VENV:-$root/.tools/a2a2-venv}"
venv "$dest2" "$root/integration/testdata/a2a2/requirements.lock"
export AGENTSVC_TEST_A2A2_PYTHON="$dest2/bin/python"
exec "$@"
