#!/usr/bin/env bash
# A bounded chaos run over Redis Cluster (not part of CI): two agentsvc
# replicas over a private cluster of three primaries and three replicas and
# the fake Gemini server, under concurrent Run and Connect load spread over
# both replicas, while a cluster primary is killed (Redis promotes its
# replica; the node restarts later and rejoins as a replica) and an agentsvc
# replica is killed in the middle of invocations and restarted; then every
# session is checked, and the longest unavailability per session reported
# (see cmd/agentsoak). Everything listens on loopback and stops by itself.
#
#   SOAK_DURATION=3m scripts/soak-cluster.sh [AGENTSOAK FLAGS...]
#
# SOAK_DURATION is the load's duration (default 10m); the checks add about
# a minute. SOAK_NODE_TIMEOUT is the cluster's cluster-node-timeout in
# milliseconds (default 1500). Later flags override the ones this script
# passes, e.g. --max-unavailable 10s to fail past that. Logs and the Redis
# files are kept in a temporary directory, whose path is printed, when the
# run fails or SOAK_KEEP=1.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${SOAK_DURATION:-10m}
node_timeout=${SOAK_NODE_TIMEOUT:-1500}

for bin in redis-server redis-cli; do
	if ! command -v "$bin" >/dev/null 2>&1; then
		echo "soak-cluster: $bin is not installed (Debian/Ubuntu: sudo apt-get install redis-server redis-tools)" >&2
		exit 1
	fi
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/agentsoak-cluster.XXXXXX")
# shellcheck source=scripts/servers.sh
source scripts/servers.sh
build_soak "$dir"

pids=()
pidfiles=()
cleanup() {
	local status=$?
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for f in "${pidfiles[@]}"; do
		case $f in
		*replica*) stop_pidfile "$f" agentsvc ;;
		*) stop_pidfile "$f" redis-server ;;
		esac
	done
	for pid in "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	keep_or_remove soak-cluster "$status" "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ready() {
	wait_port "$1" && return 0
	echo "soak-cluster: nothing listens on port $1; logs in $dir" >&2
	return 1
}

# Each node persists every write before it answers (appendfsync always),
# and agentsvc waits for one replica to hold a write before it acknowledges
# it (wait_replicas, 1 by default on a cluster), so an acknowledged write
# survives the SIGKILL of its primary. cluster-require-full-coverage no:
# the shards that are up keep serving while one fails over.
# cluster-replica-validity-factor 0: a replica takes over however long its
# link was down. agentsoak restarts a killed node from its redis.conf.
confs=()
addrs=()
for i in 1 2 3 4 5 6; do
	port=$(free_port)
	ndir="$dir/node$i"
	mkdir -p "$ndir"
	cat >"$ndir/redis.conf" <<CONF
port $port
bind 127.0.0.1
dir $ndir
save ""
appendonly yes
appendfsync always
cluster-enabled yes
cluster-config-file nodes.conf
cluster-node-timeout $node_timeout
cluster-require-full-coverage no
cluster-replica-validity-factor 0
daemonize no
pidfile $ndir/redis.pid
logfile $ndir/redis.log
CONF
	redis-server "$ndir/redis.conf" &
	disown
	pidfiles+=("$ndir/redis.pid")
	confs+=("$ndir/redis.conf")
	addrs+=("127.0.0.1:$port")
done
for addr in "${addrs[@]}"; do
	ready "${addr#*:}"
done
if ! redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1; then
	echo "soak-cluster: redis-cli --cluster create failed:" >&2
	cat "$dir/create.log" >&2
	exit 1
fi

# Every node must agree on the slot map before agentsvc starts.
for _ in $(seq 300); do
	ok=1
	for addr in "${addrs[@]}"; do
		redis-cli -h 127.0.0.1 -p "${addr#*:}" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || ok=""
	done
	[[ -n $ok ]] && break
	sleep 0.1
done
if [[ -z $ok ]]; then
	echo "soak-cluster: the cluster did not reach cluster_state:ok" >&2
	exit 1
fi

fake_port=$(free_port)
"$dir/fakegemini" --addr "127.0.0.1:$fake_port" >"$dir/fakegemini.log" 2>&1 &
pids+=($!)
ready "$fake_port"

# Each replica has a start script that agentsoak runs again after killing
# it: it writes its pid to the pidfile, then execs agentsvc. Limits that
# other flags may not know yet are given as AGENTSVC_* variables, which a
# binary without them ignores.
sessions="redis+cluster://$(IFS=,; echo "${addrs[*]}")"
grpc_addrs=()
for r in 1 2; do
	grpc_port=$(free_port)
	http_port=$(free_port)
	debug_port=$(free_port)
	cat >"$dir/replica$r.sh" <<SH
#!/usr/bin/env bash
echo \$\$ >"$dir/replica$r.pid"
exec env -u GOOGLE_API_KEY -u GEMINI_API_KEY -u GOOGLE_GENAI_USE_VERTEXAI \\
	AGENTSVC_MODEL_TIMEOUT=30s AGENTSVC_MAX_INVOCATION_TIME=60s \\
	"$dir/agentsvc" serve --agents "$dir/agents" --sessions "$sessions" \\
	--gemini-base-url "http://127.0.0.1:$fake_port" --grpc-addr "127.0.0.1:$grpc_port" \\
	--http-addr "127.0.0.1:$http_port" --debug-addr "127.0.0.1:$debug_port" --tool-timeout 3s \\
	>>"$dir/replica$r.log" 2>&1
SH
	chmod +x "$dir/replica$r.sh"
	"$dir/replica$r.sh" &
	disown
	pidfiles+=("$dir/replica$r.pid")
	grpc_addrs+=("127.0.0.1:$grpc_port")
	ready "$grpc_port"
	ready "$debug_port"
	[[ $r == 1 ]] && debug1=$debug_port
done

# The model's own faults are off: the unavailability figures are then the
# kills'. Flags after the script's name override these.
"$dir/agentsoak" --addr "$(IFS=,; echo "${grpc_addrs[*]}")" --debug-url "http://127.0.0.1:$debug1" \
	--fake-url "http://127.0.0.1:$fake_port" --server-pid "$(cat "$dir/replica1.pid")" \
	--cluster-confs "$(IFS=,; echo "${confs[*]}")" \
	--primary-kill-every 2m --primary-down 20s \
	--replica-kill-every 2m --replica-down 5s \
	--replica-start "$dir/replica2.sh" --replica-pidfile "$dir/replica2.pid" \
	--hang-every 0 --fail-every 0 --stream-every 0 \
	--tool-timeout 3s --duration "$duration" "$@"
