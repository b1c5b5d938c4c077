#!/usr/bin/env bash
# A bounded chaos run of the built binaries (not part of CI): agentsvc over a
# private Redis and the fake Gemini server, under concurrent Run and Connect
# load, while Redis is killed and restarted and the model hangs and fails;
# then every session is checked (see cmd/agentsoak). Everything listens on
# loopback and stops by itself.
#
#   SOAK_DURATION=2m scripts/soak.sh [AGENTSOAK FLAGS...]
#
# SOAK_DURATION is the load's duration (default 10m); the checks add about a
# minute. Logs and the Redis files are kept in a temporary directory, whose
# path is printed, when the run fails or SOAK_KEEP=1. SOAK_CLUSTER=1 runs
# scripts/soak-cluster.sh instead: Redis Cluster and two replicas.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${SOAK_CLUSTER:-} == 1 ]]; then
	exec scripts/soak-cluster.sh "$@"
fi
duration=${SOAK_DURATION:-10m}

if ! command -v redis-server >/dev/null 2>&1; then
	echo "soak: redis-server is not installed (Debian/Ubuntu: sudo apt-get install redis-server)" >&2
	exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/agentsoak.XXXXXX")
# shellcheck source=scripts/servers.sh
source scripts/servers.sh
build_soak "$dir"
redis_port=$(free_port)
fake_port=$(free_port)
grpc_port=$(free_port)
http_port=$(free_port)
debug_port=$(free_port)

# Redis persists every write before it answers (appendfsync always), so a
# write agentsvc acknowledged survives the SIGKILLs of the chaos; agentsoak
# restarts it from this same file: same port, directory and append-only file.
mkdir -p "$dir/redis"
cat >"$dir/redis.conf" <<CONF
port $redis_port
bind 127.0.0.1
dir $dir/redis
save ""
appendonly yes
appendfsync always
daemonize no
pidfile $dir/redis.pid
logfile $dir/redis.log
CONF

pids=()
cleanup() {
	local status=$?
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	# The Redis running now may be one agentsoak restarted: the pidfile names it.
	stop_pidfile "$dir/redis.pid" redis-server
	for pid in "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	keep_or_remove soak "$status" "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ready() {
	wait_port "$1" && return 0
	echo "soak: nothing listens on port $1; logs in $dir" >&2
	return 1
}

# Not in pids: agentsoak kills and restarts it, and cleanup stops the one
# the pidfile names.
redis-server "$dir/redis.conf" &
disown
"$dir/fakegemini" --addr "127.0.0.1:$fake_port" >"$dir/fakegemini.log" 2>&1 &
pids+=($!)
ready "$redis_port"
ready "$fake_port"

# Limits that other flags may not know yet are given as AGENTSVC_*
# variables, which a binary without them ignores.
env -u GOOGLE_API_KEY -u GEMINI_API_KEY -u GOOGLE_GENAI_USE_VERTEXAI \
	AGENTSVC_MODEL_TIMEOUT=30s AGENTSVC_MAX_INVOCATION_TIME=60s \
	"$dir/agentsvc" serve --agents "$dir/agents" --sessions "redis://127.0.0.1:$redis_port/0" \
	--gemini-base-url "http://127.0.0.1:$fake_port" --grpc-addr "127.0.0.1:$grpc_port" \
	--http-addr "127.0.0.1:$http_port" --debug-addr "127.0.0.1:$debug_port" --tool-timeout 3s \
	>"$dir/agentsvc.log" 2>&1 &
server=$!
pids+=("$server")
ready "$grpc_port"
ready "$debug_port"

"$dir/agentsoak" --addr "127.0.0.1:$grpc_port" --debug-url "http://127.0.0.1:$debug_port" \
	--fake-url "http://127.0.0.1:$fake_port" --server-pid "$server" \
	--redis-conf "$dir/redis.conf" --redis-pidfile "$dir/redis.pid" --redis-addr "127.0.0.1:$redis_port" \
	--tool-timeout 3s --duration "$duration" "$@"
