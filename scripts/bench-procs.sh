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
