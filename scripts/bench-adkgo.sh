#!/usr/bin/env bash
# agentsvc side by side with adk-go (Google's ADK for Go, bench/adkgo) on
# one machine:
#
# 1. The same REST load on both servers: agentbench --mode rest, one-step
#    /run invocations (the fake Gemini server answering at once), against
#    `agentsvc serve` with memory sessions and against adk-go's REST server
#    (cmd/adkgoserver, as adk-go's launcher serves it), in BENCH_ROUNDS
#    alternating rounds (3; the first server of a round alternates too),
#    each server started afresh for its run. Prints, per round and as the
#    median, each server's CPU per invocation and throughput and the ratio
#    agentsvc/adk-go (CPU: lower is better; throughput: higher is better).
# 2. The in-process headline benchmarks of both (go test -bench Headline,
#    BENCH_COUNT runs each, 6), compared with benchstat.
#
# Loopback only; it stops by itself. Outputs go to .bench/adkgo/.
#
#   scripts/bench-adkgo.sh [DURATION]     (default 10s per run)
#   BENCH_ROUNDS=3 BENCH_CONCURRENCY=64 BENCH_COUNT=6 scripts/bench-adkgo.sh 10s
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-${DURATION:-10s}}
rounds=${BENCH_ROUNDS:-3}
concurrency=${BENCH_CONCURRENCY:-64}
count=${BENCH_COUNT:-6}
dir=.bench
out=$dir/adkgo
mkdir -p "$out"
go build -o "$dir/agentsvc" ./cmd/agentsvc
go build -o "$dir/fakegemini" ./integration/fakegemini/cmd/fakegemini
go build -o "$dir/agentbench" ./cmd/agentbench
(cd bench/adkgo && go build -o "../../$dir/adkgoserver" ./cmd/adkgoserver)
rm -rf "$out/agents"
"$dir/agentbench" --write-app "$out/agents" >/dev/null

fake=127.0.0.1:8097
grpc=127.0.0.1:50067
rest=127.0.0.1:8087
adkgo=127.0.0.1:8098
# shellcheck source=scripts/bench-procs.sh
source scripts/bench-procs.sh

for addr in "$fake" "$grpc" "$rest" "$adkgo"; do
	if (exec 3<>"/dev/tcp/${addr%:*}/${addr#*:}") 2>/dev/null; then
		echo "$(basename "$0"): $addr is in use" >&2
		exit 1
	fi
done

# Neither server exports telemetry or reaches a real model.
quiet=(env -u GOOGLE_API_KEY -u GEMINI_API_KEY -u GOOGLE_GENAI_USE_VERTEXAI -u GOOGLE_CLOUD_PROJECT
	-u OTEL_EXPORTER_OTLP_ENDPOINT -u OTEL_EXPORTER_OTLP_TRACES_ENDPOINT -u OTEL_EXPORTER_OTLP_LOGS_ENDPOINT
	-u OTEL_EXPORTER_OTLP_METRICS_ENDPOINT)

"$dir/fakegemini" --addr "$fake" --latency 0 >"$out/fake.log" 2>&1 &
pids+=($!)
ready "$fake"

# one NAME ROUND starts server NAME, puts the load on it, stops it and
# keeps agentbench's report in $out/NAME-ROUND.txt.
one() {
	local name=$1 round=$2 server target
	if [[ $name == agentsvc ]]; then
		"${quiet[@]}" "$dir/agentsvc" serve --agents "$out/agents" --gemini-base-url "http://$fake" \
			--grpc-addr "$grpc" --http-addr "$rest" --sessions memory:// "${one_user_load[@]}" >"$out/agentsvc.log" 2>&1 &
		server=$!
		target=(--rest-url "http://$rest" --app bench)
		ready "$rest"
	else
		"${quiet[@]}" "$dir/adkgoserver" --addr "$adkgo" --gemini-base-url "http://$fake" >"$out/adkgo.log" 2>&1 &
		server=$!
		target=(--rest-url "http://$adkgo" --rest-prefix /api --app bench_agent)
		ready "$adkgo"
	fi
	"$dir/agentbench" --mode rest "${target[@]}" --server-pid "$server" --concurrency "$concurrency" \
		--duration "$duration" >"$out/$name-$round.txt"
	kill "$server"
	wait "$server" 2>/dev/null || true
}

# figures FILE prints "CPU-per-invocation-in-µs throughput p50 p99 peak-RSS
# failed" from an agentbench report.
figures() {
	awk '
	function us(d) {
		if (d ~ /ms$/) return d * 1000
		if (d ~ /(µs|us)$/) return d + 0
		if (d ~ /ns$/) return d / 1000
		if (d ~ /s$/) return d * 1000000
		return d
	}
	/^invocations/ { failed = $4 }
	/^throughput/ { thr = $2 }
	/^latency/ { p50 = $3; p99 = $5 }
	/^server RSS/ { rss = $5 " " $6; sub(/,$/, "", rss) }
	/^server CPU/ { cpu = us($(NF - 2)) }
	END { printf "%.0f %s %s %s %s %s\n", cpu, thr, p50, p99, rss, failed }
	' "$1"
}

echo "== REST /run, one step, fake model at 0 ms, $concurrency in flight, $duration per run, $rounds rounds"
printf '%-6s %-9s %12s %12s %10s %10s %10s %7s\n' round server "CPU/inv" "inv/s" p50 p99 "peak RSS" failed
: >"$out/rounds.txt"
for round in $(seq "$rounds"); do
	order=(agentsvc adkgo)
	((round % 2)) || order=(adkgo agentsvc)
	for name in "${order[@]}"; do
		one "$name" "$round"
	done
	read -r ac at ap50 ap99 arss aunit afail <<<"$(figures "$out/agentsvc-$round.txt")"
	read -r gc gt gp50 gp99 grss gunit gfail <<<"$(figures "$out/adkgo-$round.txt")"
	printf '%-6s %-9s %10sµs %12s %10s %10s %6s %3s %7s\n' "$round" agentsvc "$ac" "$at" "$ap50" "$ap99" "$arss" "$aunit" "$afail"
	printf '%-6s %-9s %10sµs %12s %10s %10s %6s %3s %7s\n' "$round" adk-go "$gc" "$gt" "$gp50" "$gp99" "$grss" "$gunit" "$gfail"
	awk -v ac="$ac" -v at="$at" -v gc="$gc" -v gt="$gt" -v r="$round" 'BEGIN {
		printf "%-6s %-9s CPU/inv %.2f  inv/s %.2f\n", r, "ratio", ac / gc, at / gt
	}'
	echo "$ac $at $gc $gt" >>"$out/rounds.txt"
done
awk '
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ n++; ac[n] = $1; at[n] = $2; gc[n] = $3; gt[n] = $4; rc[n] = $1 / $3; rt[n] = $2 / $4 }
END {
	printf "median agentsvc  CPU/inv %.0fµs  %.0f inv/s\n", median(ac, n), median(at, n)
	printf "median adk-go    CPU/inv %.0fµs  %.0f inv/s\n", median(gc, n), median(gt, n)
	printf "median ratio agentsvc/adk-go  CPU/inv %.2f  inv/s %.2f\n", median(rc, n), median(rt, n)
}' "$out/rounds.txt"
stop

echo
echo "== in-process headline benchmarks, -count $count"
(cd bench/adkgo && nice go test -run '^$' -bench Headline -benchmem -count "$count" .) >"$out/adkgo.txt"
nice go test -run '^$' -bench Headline -benchmem -count "$count" ./internal/runtime/llmagent/ >"$out/agentsvc.txt"
cd "$out"
if grep -q '^BenchmarkHeadline' agentsvc.txt; then
	../../.tools/bin/benchstat -ignore pkg adkgo.txt agentsvc.txt
else
	echo "(agentsvc has no Headline benchmarks in ./internal/runtime/llmagent/ yet: adk-go's alone)"
	../../.tools/bin/benchstat adkgo.txt
fi
