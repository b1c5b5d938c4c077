#!/usr/bin/env bash
# Runs ADK's own conformance suite against agentsvc, with google-adk
# (ADK_VERSION, installed into .tools/adk-venv on first use) talking to the
# built agentsvc over REST on 127.0.0.1:8000 (ADK's client needs that
# address free):
#  1. replay: `adk conformance test` in both streaming modes, each case's
#     model and tool calls answered from the recordings adk-python made (see
#     record.sh), the stored session compared with adk-python's;
#  2. record: `adk conformance record` in both modes against agentsvc, the
#     model being the fake Gemini server scripted from each case's
#     model.json, and agentsvc's recordings and sessions compared with
#     adk-python's (compare_recordings.py).
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
go build -o "$out/fakegemini" "$root/integration/fakegemini/cmd/fakegemini"
fake=127.0.0.1:8096
"$out/fakegemini" --addr "$fake" >"$out/fakegemini.log" 2>&1 &
pids+=($!)
ready "$fake"

# serve DIR starts agentsvc on the conformance cases under DIR.
server=
serve() {
	env -u GOOGLE_API_KEY -u GEMINI_API_KEY "$out/agentsvc" serve --agents "$here/agents" --conformance-dir "$1" \
		--gemini-base-url "http://$fake" --http-addr 127.0.0.1:8000 --grpc-addr 127.0.0.1:0 >"$out/agentsvc.log" 2>&1 &
	server=$!
	pids+=("$server")
	ready 127.0.0.1:8000
}
adk() { (cd "$out" && "$venv/bin/adk" "$@" 2>&1 | grep -v -i warning); }
fail() {
	echo "conformance: $1" >&2
	tail -n 50 "$out/agentsvc.log" >&2
	exit 1
}

serve "$here/cases"
for mode in none sse; do
	adk conformance test "$here/cases" --streaming-mode "$mode" || fail "replay ($mode) failed"
done
kill "$server"
wait "$server" 2>/dev/null || true

rec=$out/recorded
for spec in "$here"/cases/*/*/spec.yaml; do
	dir=$rec/$(basename "$(dirname "$(dirname "$spec")")")/$(basename "$(dirname "$spec")")
	mkdir -p "$dir"
	cp "$spec" "$(dirname "$spec")/model.json" "$dir/"
done
serve "$rec"
for mode in none sse; do
	for spec in "$rec"/*/*/spec.yaml; do
		dir=$(dirname "$spec")
		curl -fsS -X POST "http://$fake/_fake/reset" >/dev/null
		curl -fsS -X POST "http://$fake/_fake/script" --data-binary "@$dir/model.json" >/dev/null
		adk conformance record "$dir" "$mode" | grep -q "Generated conformance test files" || fail "record ($mode) of $dir failed"
	done
done
"$venv/bin/python" "$here/compare_recordings.py" "$here/cases" "$rec" || fail "agentsvc's recordings differ from adk-python's"
