#!/usr/bin/env bash
# The headline figures against the baseline committed in bench/baseline.txt:
# every benchmark named BenchmarkHeadline* (the engine's turns, the REST
# invocation) and BenchmarkTurnRedis on a fresh and on a 10,000-event
# session (run it under scripts/with-redis.sh) run BENCH_COUNT times (6), and
# benchstat prints each beside its baseline with the change and its
# p-value ("~" where the runs cannot tell them apart). Figures of one
# machine: record a baseline on the machine that compares against it.
#
#   scripts/with-redis.sh scripts/bench.sh            compare with the baseline
#   scripts/with-redis.sh scripts/bench.sh --update   record a new baseline
#   BENCH_COUNT=1 BENCH_TIME=1x scripts/bench.sh       check that it runs (CI)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${BENCH_COUNT:-6}
benchtime=${BENCH_TIME:-1s}
baseline=bench/baseline.txt
mkdir -p .bench
mapfile -t pkgs < <(grep -rl --include='*_test.go' '^func BenchmarkHeadline' internal cmd | xargs -n1 dirname | sort -u | sed 's|^|./|')
go test -run '^$' -bench '^BenchmarkHeadline' -benchmem -count "$count" -benchtime "$benchtime" "${pkgs[@]}" >.bench/headline.txt
# A turn on Redis, on a fresh session and on one of 10,000 events.
go test -run '^$' -bench '^BenchmarkTurnRedis$/^session=(fresh,create=untimed|long,compaction=none)$' -benchmem \
	-count "$count" -benchtime "$benchtime" ./internal/runtime/llmagent/ >>.bench/headline.txt
if [[ ${1:-} == --update ]]; then
	cp .bench/headline.txt "$baseline"
	echo "wrote $baseline"
fi
benchstat "$baseline" .bench/headline.txt
