# Helpers of the scripts that start private servers, sourced by them:
# ports, readiness, pidfiles, and the temporary directory of a run.

# free_port prints a free loopback port whose cluster bus port, 10000
# higher, is free too (so the port is at most 55535): the same helper serves
# Redis Cluster nodes and every other server.
free_port() {
	python3 - 2>/dev/null <<'PY' || echo $((20000 + RANDOM % 20000))
import random, socket
for _ in range(200):
    port = random.randint(20000, 45000)
    socks = []
    try:
        for p in (port, port + 10000):
            s = socket.socket()
            socks.append(s)
            s.bind(("127.0.0.1", p))
    except OSError:
        continue
    finally:
        for s in socks:
            s.close()
    print(port)
    break
else:
    raise SystemExit(1)
PY
}

# wait_port PORT waits up to ten seconds until something listens on the
# loopback PORT; it fails after that.
wait_port() {
	for _ in $(seq 100); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# stop_pidfile FILE COMM stops the process FILE names when its command
# starts with COMM (the one running now may be one a chaos run restarted),
# and waits up to ten seconds until it is gone: it is not this shell's
# child, and its files must be closed before they are removed.
stop_pidfile() {
	local pid state
	[[ -f $1 ]] || return 0
	pid=$(cat "$1")
	if [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$2"* ]]; then
		kill "$pid" 2>/dev/null || true
		for _ in $(seq 100); do
			# Gone, or a zombie whose parent has not reaped it yet.
			state=$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null) || return 0
			[[ $state == Z ]] && return 0
			sleep 0.1
		done
	fi
}

# keep_or_remove NAME STATUS DIR removes DIR, the run's logs and files, when
# the run passed (STATUS 0) unless SOAK_KEEP=1; else it says where they are.
keep_or_remove() {
	if [[ $2 -ne 0 || ${SOAK_KEEP:-} == 1 ]]; then
		echo "$1: logs in $3" >&2
	else
		rm -rf "$3"
	fi
}

# build_soak DIR builds agentsvc, the fake Gemini server and agentsoak into
# DIR, and writes the soak's app into DIR/agents.
build_soak() {
	go build -o "$1/agentsvc" ./cmd/agentsvc
	go build -o "$1/fakegemini" ./integration/fakegemini/cmd/fakegemini
	go build -o "$1/agentsoak" ./cmd/agentsoak
	"$1/agentsoak" --write-app "$1/agents" >/dev/null
}
