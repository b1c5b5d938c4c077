#!/usr/bin/env bash
# Runs a command against a private, throwaway Redis Cluster.
#
#   scripts/with-redis-cluster.sh CMD ARGS...
#
# Starts six redis-servers with --cluster-enabled yes on free loopback ports,
# with no persistence, in a temporary directory, with the shards independent
# (cluster-require-full-coverage no, as agentsvc recommends); joins them with
# `redis-cli --cluster create --cluster-replicas 1` (three masters, each with
# one replica); waits until every node reports cluster_state:ok; exports
# AGENTSVC_TEST_REDIS_CLUSTER=redis+cluster://127.0.0.1:P1,...,127.0.0.1:P6;
# runs the command; stops the servers on exit; and exits with the command's
# status. It composes with scripts/with-redis.sh.
set -euo pipefail

if [[ $# -eq 0 ]]; then
	echo "usage: $0 CMD ARGS..." >&2
	exit 2
fi

for bin in redis-server redis-cli; do
	if ! command -v "$bin" >/dev/null 2>&1; then
		echo "with-redis-cluster: $bin is not installed; install it (Debian/Ubuntu: sudo apt-get install redis-server redis-tools) and retry" >&2
		exit 1
	fi
done

nodes=6
dir=$(mktemp -d "${TMPDIR:-/tmp}/with-redis-cluster.XXXXXX")
pids=()
cleanup() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# shellcheck source=scripts/servers.sh
source "$(dirname "${BASH_SOURCE[0]}")/servers.sh"

# start_node PORT DIR starts one cluster node and waits until it answers.
start_node() {
	local port=$1 ndir=$2 pid
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
		--cluster-enabled yes --cluster-config-file "$ndir/nodes.conf" --cluster-node-timeout 5000 \
		--cluster-require-full-coverage no \
		--dir "$ndir" --logfile "$ndir/redis.log" --daemonize no &
	pid=$!
	for _ in $(seq 1 100); do
		if [[ $(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null) == PONG ]]; then
			pids+=("$pid")
			return 0
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	return 1
}

ports=()
for i in $(seq 1 "$nodes"); do
	ndir="$dir/node$i"
	mkdir -p "$ndir"
	started=""
	# A port picked as free can be taken before redis binds it: try a few.
	for _ in 1 2 3 4 5; do
		port=$(free_port)
		if start_node "$port" "$ndir"; then
			started=1
			break
		fi
	done
	if [[ -z $started ]]; then
		echo "with-redis-cluster: node $i did not start; its log:" >&2
		cat "$ndir/redis.log" >&2 2>/dev/null || true
		exit 1
	fi
	ports+=("$port")
done

addrs=()
for port in "${ports[@]}"; do
	addrs+=("127.0.0.1:$port")
done
if ! redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1; then
	echo "with-redis-cluster: redis-cli --cluster create failed:" >&2
	cat "$dir/create.log" >&2
	exit 1
fi

# Every node must agree before the first command: a node that has not yet
# learnt the slot map answers CLUSTERDOWN, and a master whose replica has not
# yet synchronised makes writes that wait for a replica time out.
ready() {
	local port=$1 info
	redis-cli -h 127.0.0.1 -p "$port" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
	[[ $(redis-cli -h 127.0.0.1 -p "$port" cluster nodes 2>/dev/null | grep -c slave) -eq $((nodes / 2)) ]] || return 1
	info=$(redis-cli -h 127.0.0.1 -p "$port" info replication 2>/dev/null | tr -d '\r')
	grep -q '^connected_slaves:1' <<<"$info" || grep -q '^master_link_status:up' <<<"$info"
}
ok=""
for _ in $(seq 1 300); do
	ok=1
	for port in "${ports[@]}"; do
		if ! ready "$port"; then
			ok=""
			break
		fi
	done
	[[ -n $ok ]] && break
	sleep 0.1
done
if [[ -z $ok ]]; then
	echo "with-redis-cluster: the cluster did not reach cluster_state:ok" >&2
	redis-cli -h 127.0.0.1 -p "${ports[0]}" cluster nodes >&2 || true
	exit 1
fi

export AGENTSVC_TEST_REDIS_CLUSTER="redis+cluster://$(IFS=,; echo "${addrs[*]}")"
echo "with-redis-cluster: 3 masters + 3 replicas at $AGENTSVC_TEST_REDIS_CLUSTER" >&2
status=0
"$@" || status=$?
exit "$status"
