#!/usr/bin/env bash
# Runs ADK's own conformance suite against agentsvc: `adk conformance test`
# from google-adk (ADK_VERSION, installed into .tools/adk-venv on first use)
# drives the built agentsvc over REST in replay mode, each case's model and
# tool calls answered from the recordings adk-python made (see record.sh),
# in both streaming modes. ADK's client talks to 127.0.0.1:8000, which must
# be free.
set -euo pipefail
ADK_VERSION=1.39.1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=$root/.tools/adk-venv
source "$root/scripts/bench-procs.sh"

if [ ! -f "$venv/.v$ADK_VERSION" ]; then
	rm -rf "$venv"
	python3 -m venv "$venv"
	"$venv/bin/pip" install --quiet "google-adk==$ADK_VERSION"
	touch "$venv/.v$ADK_VERSION"
fi
if (exec 3<>/dev/tcp/127.0.0.1/8000) 2>/dev/null; then
	echo "conformance: 127.0.0.1:8000 is in use; ADK's client needs it" >&2
	exit 1
fi

out=$(mktemp -d)
go build -o "$out/agentsvc" "$root/cmd/agentsvc"
# The model endpoint is never called: every model call is replayed.
env -u GOOGLE_API_KEY -u GEMINI_API_KEY "$out/agentsvc" serve --agents "$here/agents" --conformance-dir "$here/cases" \
	--gemini-base-url http://127.0.0.1:9 --http-addr 127.0.0.1:8000 --grpc-addr 127.0.0.1:0 >"$out/agentsvc.log" 2>&1 &
pids+=($!)
ready 127.0.0.1:8000

status=0
for mode in none sse; do
	if ! (cd "$out" && "$venv/bin/adk" conformance test "$here/cases" --streaming-mode "$mode" 2>&1 | grep -v -i warning); then
		status=1
	fi
done
if [ "$status" -ne 0 ]; then
	echo "--- agentsvc log" >&2
	tail -n 50 "$out/agentsvc.log" >&2
fi
exit "$status"
