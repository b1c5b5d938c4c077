#!/usr/bin/env bash
# Type-checks the package and runs its tests with the pinned tools of
# requirements.lock (installed into .venv when needed). The live tests need
# AGENTSVC_ADDR and FAKEGEMINI_URL, which the repository's
# scripts/with-stack.sh sets; extra arguments go to pytest.
#
#   scripts/with-redis.sh scripts/with-stack.sh clients/python/scripts/test.sh
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/venv.sh"
cd "$here"
.venv/bin/python -m mypy
exec .venv/bin/python -m pytest -p no:cacheprovider "$@"
