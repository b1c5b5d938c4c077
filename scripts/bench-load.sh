#!/usr/bin/env bash
# Load figures for the service: one-step Run throughput, and 10,000 Connect
# streams held open waiting on tool calls, with the fake model answering at
# 0 ms and at 200 ms. Everything runs on loopback and stops by itself.
#
#   scripts/bench-load.sh [DURATION]      (default 20s per run)
#
# BENCH_SESSIONS picks the session store (default memory://); on a private
# Redis Cluster:
#   scripts/with-redis-cluster.sh bash -c 'BENCH_SESSIONS=$AGENTSVC_TEST_REDIS_CLUSTER scripts/bench-load.sh'
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-20s}
dir=.bench
mkdir -p "$dir"
go build -o "$dir/agentsvc" ./cmd/agentsvc
go build -o "$dir/fakegemini" ./integration/fakegemini/cmd/fakegemini
go build -o "$dir/agentbench" ./cmd/agentbench
rm -rf "$dir/agents"
"$dir/agentbench" --write-app "$dir/agents"

fake=127.0.0.1:8091
grpc=127.0.0.1:50061
# shellcheck source=scripts/bench-procs.sh
source scripts/bench-procs.sh

for latency in 0ms 200ms; do
	"$dir/fakegemini" --addr "$fake" --latency "$latency" >"$dir/fake.log" 2>&1 &
	pids+=($!)
	env -u GOOGLE_API_KEY -u GEMINI_API_KEY -u GOOGLE_GENAI_USE_VERTEXAI \
		"$dir/agentsvc" serve --agents "$dir/agents" --gemini-base-url "http://$fake" \
		--grpc-addr "$grpc" --http-addr 127.0.0.1:8081 --sessions "${BENCH_SESSIONS:-memory://}" "${one_user_load[@]}" >"$dir/agentsvc.log" 2>&1 &
	server=$!
	pids+=("$server")
	ready "$fake"
	ready "$grpc"

	concurrency=64
	[[ $latency == 0ms ]] || concurrency=1000
	echo "== Run, model latency $latency, $concurrency in flight"
	"$dir/agentbench" --addr "$grpc" --server-pid "$server" --mode run --concurrency "$concurrency" --duration "$duration"
	echo "== Connect, model latency $latency, 10,000 streams held waiting on a tool call"
	"$dir/agentbench" --addr "$grpc" --server-pid "$server" --mode connect --concurrency 10000 --count 10000 \
		--conns 8 --connect-hold "$duration" --turns 1 --fake-url "http://$fake"
	stop
done
