#!/usr/bin/env bash
# Creates clients/python/.venv with the exact versions of requirements.lock
# and the agentsvc package installed in editable mode. Does nothing when the
# lock file and pyproject.toml have not changed since the last install.
#
#   scripts/venv.sh        (PYTHON selects the interpreter, default python3)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
venv="$here/.venv"
stamp="$venv/.agentsvc-installed"

want=$(cat "$here/requirements.lock" "$here/pyproject.toml" | sha256sum | cut -d' ' -f1)
if [[ -f $stamp && $(cat "$stamp") == "$want" && -x $venv/bin/python ]]; then
	exit 0
fi

rm -rf "$venv"
"${PYTHON:-python3}" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.lock"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e "$here"
echo "$want" >"$stamp"
