# Process helpers of the load scripts, sourced by them: the processes they
# start go in pids, stop ends them (and runs on exit), ready waits until an
# address accepts connections.
pids=()
stop() {
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	pids=()
}
trap stop EXIT

ready() {
	for _ in $(seq 100); do
		if (exec 3<>"/dev/tcp/${1%:*}/${1#*:}") 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	echo "$(basename "$0"): $1 did not come up" >&2
	return 1
}

# The load tools run every invocation as one user (agentbench's --user),
# far past the per-user limits that protect users from each other: the
# load scripts turn those off.
one_user_load=(--user-rate 0 --max-concurrent-invocations-per-user 0 --max-sessions-per-user 0)
