#!/usr/bin/env bash
# The dev UI in a real browser: headless Chromium (Debian's package, installed
# when missing and this runs as root with apt) driven by Playwright (pinned,
# in .tools/browser-venv) through ADK's web UI served by the built agentsvc
# with --dev-ui, the model answered by the fake Gemini server. Screenshots
# of each step go to .test-out/browser/. Without Chromium, it says so and
# skips.
set -euo pipefail
PLAYWRIGHT_VERSION=1.49.1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
source scripts/bench-procs.sh

chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$chromium" && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
	echo "browser test: installing Debian's chromium" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
	chromium=$(command -v chromium || true)
fi
if [[ -z "$chromium" ]]; then
	echo "browser test: SKIPPED: Chromium is not installed and cannot be installed here (Debian/Ubuntu: sudo apt-get install chromium)" >&2
	exit 0
fi
venv=.tools/browser-venv
if [[ ! -f "$venv/.v$PLAYWRIGHT_VERSION" ]]; then
	rm -rf "$venv"
	python3 -m venv "$venv"
	"$venv/bin/pip" install --quiet "playwright==$PLAYWRIGHT_VERSION"
	touch "$venv/.v$PLAYWRIGHT_VERSION"
fi
make --no-print-directory dev-ui build >/dev/null

fake=${BROWSER_FAKE_ADDR:-127.0.0.1:8095}
http=${BROWSER_HTTP_ADDR:-127.0.0.1:8085}
out=.test-out/browser
rm -rf "$out"
mkdir -p "$out"
# The example apps and the test's own (an ADK 2.x profile app).
agents="$out/agents"
mkdir -p "$agents"
cp -r examples/*/ integration/browser/apps/*/ "$agents/"
bin/fakegemini --addr "$fake" >"$out/fakegemini.log" 2>&1 &
pids+=($!)
env -u GOOGLE_API_KEY -u GEMINI_API_KEY bin/agentsvc serve --agents "$agents" --dev-ui .tools/dev-ui --trace-buffer 10000 --gemini-base-url "http://$fake" \
	--http-addr "$http" --grpc-addr 127.0.0.1:0 >"$out/agentsvc.log" 2>&1 &
pids+=($!)
ready "$fake"
ready "$http"
if ! "$venv/bin/python" "$here/dev_ui.py" "http://$http" "http://$fake" "$out" "$chromium"; then
	echo "--- agentsvc log" >&2
	tail -n 40 "$out/agentsvc.log" >&2
	exit 1
fi
echo "browser test: screenshots in $out/"
