#!/usr/bin/env bash
# Runs a command with a Python virtual environment holding google-adk 1.39.1,
# LiteLLM and the Anthropic SDK (with its Vertex AI extra), pinned by
# integration/testdata/litellm/requirements.lock, in .tools/litellm-venv (or
# $AGENTSVC_LITELLM_VENV), made again only when the lock changes. The
# environment's bin comes first on PATH, so python3 is its python.
#
#   scripts/with-litellm-venv.sh CMD ARGS...
#   scripts/with-litellm-venv.sh python3 integration/testdata/litellm/gen.py
#
# Exports AGENTSVC_TEST_LITELLM_PYTHON (the environment's python).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ $# -eq 0 ]]; then
	echo "usage: $0 CMD ARGS..." >&2
	exit 2
fi

dest="${AGENTSVC_LITELLM_VENV:-$root/.tools/litellm-venv}"
lock="$root/integration/testdata/litellm/requirements.lock"
if ! cmp -s "$lock" "$dest/requirements.lock" || [[ ! -x $dest/bin/python ]]; then
	rm -rf "$dest"
	python3 -m venv "$dest"
	"$dest/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$lock"
	cp "$lock" "$dest/requirements.lock"
fi
export AGENTSVC_TEST_LITELLM_PYTHON="$dest/bin/python"
export PATH="$dest/bin:$PATH"
exec "$@"
