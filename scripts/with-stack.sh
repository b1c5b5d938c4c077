#!/usr/bin/env bash
# Runs a command against a live stack: the fake Gemini server and agentsvc
# (sessions in the Redis of AGENTSVC_TEST_REDIS when set, else in memory),
# both on free loopback ports, stopped when the command ends.
#
#   scripts/with-stack.sh [--agents DIR] CMD ARGS...
#
# The command sees AGENTSVC_ADDR (gRPC host:port), AGENTSVC_HTTP
# (http://host:port) and FAKEGEMINI_URL (http://host:port, whose control API
# is described in integration/fakegemini/doc.go). Apps default to
# integration/testdata/apps. Run it under scripts/with-redis.sh for Redis.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

agents="$root/integration/testdata/apps"
if [[ ${1:-} == --agents ]]; then
	agents=$(cd "$2" && pwd)
	shift 2
fi
if [[ $# -eq 0 ]]; then
	echo "usage: $0 [--agents DIR] CMD ARGS..." >&2
	exit 2
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/with-stack.XXXXXX")
pids=()
cleanup() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

(cd "$root" && go build -o "$dir/agentsvc" ./cmd/agentsvc && go build -o "$dir/fakegemini" ./integration/fakegemini/cmd/fakegemini)

# wait_for FILE REGEX: prints the first match of REGEX in FILE within 60s.
wait_for() {
	local line
	for _ in $(seq 600); do
		if line=$(grep -oE "$2" "$1" 2>/dev/null | head -n 1) && [[ -n $line ]]; then
			echo "$line"
			return 0
		fi
		sleep 0.1
	done
	echo "with-stack: timed out waiting for $2 in $1:" >&2
	cat "$1" >&2
	return 1
}

"$dir/fakegemini" --addr 127.0.0.1:0 >"$dir/fake.log" 2>&1 &
pids+=($!)
fake=$(wait_for "$dir/fake.log" 'http://127\.0\.0\.1:[0-9]+')

sessions=${AGENTSVC_TEST_REDIS:-memory://}
env -u GOOGLE_API_KEY -u GEMINI_API_KEY -u GOOGLE_GENAI_USE_VERTEXAI \
	"$dir/agentsvc" serve --agents "$agents" --grpc-addr 127.0.0.1:0 --http-addr 127.0.0.1:0 \
	--sessions "$sessions" --gemini-base-url "$fake" >"$dir/agentsvc.log" 2>&1 &
pids+=($!)
line=$(wait_for "$dir/agentsvc.log" 'grpc=[0-9.:]+ http=[0-9.:]+')
grpc=${line#grpc=}
grpc=${grpc%% *}
http=${line##*http=}

export AGENTSVC_ADDR=$grpc AGENTSVC_HTTP=http://$http FAKEGEMINI_URL=$fake
echo "with-stack: agentsvc grpc=$AGENTSVC_ADDR http=$AGENTSVC_HTTP, fake Gemini $FAKEGEMINI_URL, sessions $sessions" >&2
status=0
"$@" || status=$?
if [[ $status -ne 0 ]]; then
	echo "with-stack: agentsvc log:" >&2
	tail -n 50 "$dir/agentsvc.log" >&2
fi
exit $status
