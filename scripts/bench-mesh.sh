#!/usr/bin/env bash
# What authentication and tracing cost per invocation: the same Run load on
# the built binary with sessions in Redis and the model over HTTP (a fake
# Gemini server at 0 ms), first plain, then with --auth jwt (every call
# carries a token) and traces exported over OTLP/gRPC to a receiver that
# drops them, every trace sampled and then one in ten. Each setting runs
# BENCH_ROUNDS times (3), alternating, at BENCH_CONCURRENCY invocations in
# flight (8), and the server's CPU per invocation is printed for each run.
# Loopback only; it stops by itself.
#
#   scripts/with-redis.sh scripts/bench-mesh.sh [DURATION]   (default 15s per run)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-15s}
: "${AGENTSVC_TEST_REDIS:?run it under scripts/with-redis.sh}"
dir=.bench
mkdir -p "$dir"
go build -o "$dir/agentsvc" ./cmd/agentsvc
go build -o "$dir/fakegemini" ./integration/fakegemini/cmd/fakegemini
go build -o "$dir/agentbench" ./cmd/agentbench
rm -rf "$dir/agents" "$dir/jwt"
"$dir/agentbench" --write-app "$dir/agents" >/dev/null
"$dir/agentbench" --write-jwt "$dir/jwt" --user bench >/dev/null

fake=127.0.0.1:8092
grpc=127.0.0.1:50062
sink=127.0.0.1:4319
# shellcheck source=scripts/bench-procs.sh
source scripts/bench-procs.sh

"$dir/fakegemini" --addr "$fake" >"$dir/fake.log" 2>&1 &
pids+=($!)
"$dir/agentbench" --otlp-sink "$sink" >"$dir/sink.log" 2>&1 &
pids+=($!)
ready "$fake"
ready "$sink"

one() {
	local name=$1
	shift
	local server
	env -u GOOGLE_API_KEY -u GEMINI_API_KEY -u GOOGLE_GENAI_USE_VERTEXAI "${envs[@]}" \
		"$dir/agentsvc" serve --agents "$dir/agents" --gemini-base-url "http://$fake" \
		--sessions "$AGENTSVC_TEST_REDIS" --grpc-addr "$grpc" --http-addr 127.0.0.1:8082 "${one_user_load[@]}" "$@" >"$dir/agentsvc.log" 2>&1 &
	server=$!
	ready "$grpc"
	echo "== $name"
	"$dir/agentbench" --addr "$grpc" --server-pid "$server" --mode run --concurrency "${BENCH_CONCURRENCY:-8}" --duration "$duration" \
		"${bench_args[@]}" | grep -E 'invocations|server CPU'
	kill "$server"
	wait "$server" 2>/dev/null || true
}

for round in $(seq "${BENCH_ROUNDS:-3}"); do
	envs=(-u OTEL_EXPORTER_OTLP_ENDPOINT)
	bench_args=()
	one "plain (round $round)"
	bench_args=(--token-file "$dir/jwt/token")
	for sampler in always_on "parentbased_traceidratio 0.1"; do
		envs=(OTEL_EXPORTER_OTLP_ENDPOINT="http://$sink" OTEL_EXPORTER_OTLP_PROTOCOL=grpc
			OTEL_TRACES_SAMPLER="${sampler% *}" OTEL_TRACES_SAMPLER_ARG="${sampler#* }")
		one "auth jwt + metrics and traces over OTLP, sampler $sampler (round $round)" \
			--auth jwt --jwks-file "$dir/jwt/jwks.json" --jwt-issuer agentbench --jwt-audience agentsvc
	done
done
