#!/usr/bin/env bash
# Records the conformance cases with adk-python itself: google-adk's API
# server runs the YAML apps under agents/ with ADK's recordings plugin, its
# model calls answered by the fake Gemini server from each case's
# model.json, and `adk conformance record` writes each case's
# generated-recordings[-sse].yaml and generated-session[-sse].yaml.
#
#   integration/conformance/record.sh ADK_VENV
#
# ADK_VENV holds the google-adk release the cases are recorded with (see
# ADK_VERSION in run.sh). Ports 8000 (ADK's client talks to it) and 8093
# must be free.
set -euo pipefail
venv=${1:?usage: record.sh ADK_VENV}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(mktemp -d)
source "$root/scripts/bench-procs.sh"

go build -o "$out/fakegemini" "$root/integration/fakegemini/cmd/fakegemini"
fake=127.0.0.1:8093
"$out/fakegemini" --addr "$fake" >"$out/fake.log" 2>&1 &
pids+=($!)
ready "$fake"

(cd "$here/agents" && exec env GOOGLE_GEMINI_BASE_URL="http://$fake" GOOGLE_API_KEY=fake-key GOOGLE_GENAI_USE_VERTEXAI=0 \
	"$venv/bin/adk" api_server --host 127.0.0.1 --port 8000 \
	--extra_plugins google.adk.cli.plugins.recordings_plugin.RecordingsPlugin . >"$out/adk.log" 2>&1) &
pids+=($!)
ready 127.0.0.1:8000

for mode in none sse; do
	for spec in "$here"/cases/*/*/spec.yaml; do
		dir=$(dirname "$spec")
		curl -fsS -X POST "http://$fake/_fake/reset" >/dev/null
		curl -fsS -X POST "http://$fake/_fake/script" --data-binary "@$dir/model.json" >/dev/null
		"$venv/bin/adk" conformance record "$dir" "$mode" 2>&1 | grep -E "Generated|Failed" || true
		test -s "$dir/generated-session$([ "$mode" = sse ] && echo -sse).yaml"
	done
done
