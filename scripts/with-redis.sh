#!/usr/bin/env bash
# Runs a command against a private, throwaway redis-server.
#
#   scripts/with-redis.sh CMD ARGS...
#
# Starts redis-server on a free loopback port with no persistence in a
# temporary directory, waits until it answers PING, exports
# AGENTSVC_TEST_REDIS=redis://127.0.0.1:PORT/0, runs the command, stops the
# server on exit, and exits with the command's status. Installs Debian's
# redis-server package when the binary is missing and the script runs as root.
set -euo pipefail

if [[ $# -eq 0 ]]; then
	echo "usage: $0 CMD ARGS..." >&2
	exit 2
fi

if ! command -v redis-server >/dev/null 2>&1; then
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
		echo "with-redis: installing redis-server" >&2
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
	else
		echo "with-redis: redis-server is not installed; install it (Debian/Ubuntu: sudo apt-get install redis-server) and retry" >&2
		exit 1
	fi
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/with-redis.XXXXXX")
pid=""
cleanup() {
	if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' 2>/dev/null ||
		echo $((20000 + RANDOM % 20000))
}

ping() {
	if command -v redis-cli >/dev/null 2>&1; then
		[[ $(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null) == PONG ]]
	else
		exec 3<>"/dev/tcp/127.0.0.1/$1" 2>/dev/null || return 1
		printf 'PING\r\n' >&3
		local reply=""
		read -r -t 1 reply <&3 || true
		exec 3<&- 3>&-
		[[ $reply == +PONG* ]]
	fi
}

# A port picked as free can be taken before redis binds it: try a few.
started=""
for _ in 1 2 3 4 5; do
	port=$(free_port)
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
		--dir "$dir" --logfile "$dir/redis.log" --daemonize no &
	pid=$!
	for _ in $(seq 1 100); do
		if ping "$port"; then
			started=1
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	[[ -n $started ]] && break
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	pid=""
done
if [[ -z $started ]]; then
	echo "with-redis: redis-server did not start; its log:" >&2
	cat "$dir/redis.log" >&2 2>/dev/null || true
	exit 1
fi

export AGENTSVC_TEST_REDIS="redis://127.0.0.1:$port/0"
echo "with-redis: redis-server $pid at $AGENTSVC_TEST_REDIS" >&2
status=0
"$@" || status=$?
exit "$status"
