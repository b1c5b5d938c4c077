#!/usr/bin/env bash
# Runs a command against a private, throwaway S3-compatible server.
#
#   scripts/with-s3.sh CMD ARGS...
#
# Starts versitygw (the Versity S3 Gateway: an S3 server over a POSIX
# directory) on a free loopback port, serving a temporary directory that holds
# one bucket; waits until it accepts connections; exports
# AGENTSVC_TEST_S3=s3://BUCKET?endpoint=...&region=...&use_path_style=true and
# the throwaway credentials (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) that the
# tests' S3 clients use; runs the command; stops the server on exit; and exits
# with the command's status. The pinned versitygw is built into .tools/bin by
# `make s3-server` when missing. It composes with scripts/with-redis.sh.
set -euo pipefail

if [[ $# -eq 0 ]]; then
	echo "usage: $0 CMD ARGS..." >&2
	exit 2
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
# A no-op once the pinned version is installed.
make -s -C "$repo" s3-server >&2
gateway=$repo/.tools/bin/versitygw

bucket=agentsvc-test
region=us-east-1
access=agentsvc-test-access
secret=agentsvc-test-secret

dir=$(mktemp -d "${TMPDIR:-/tmp}/with-s3.XXXXXX")
mkdir -p "$dir/root/$bucket"
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

listening() {
	(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# A port picked as free can be taken before the server binds it: try a few.
started=""
for _ in 1 2 3 4 5; do
	port=$(free_port)
	"$gateway" --port "127.0.0.1:$port" --access "$access" --secret "$secret" \
		--region "$region" --quiet posix "$dir/root" >"$dir/versitygw.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 200); do
		if listening "$port"; then
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
	echo "with-s3: versitygw did not start; its log:" >&2
	cat "$dir/versitygw.log" >&2 2>/dev/null || true
	exit 1
fi

export AWS_ACCESS_KEY_ID=$access AWS_SECRET_ACCESS_KEY=$secret
export AGENTSVC_TEST_S3="s3://$bucket?endpoint=http://127.0.0.1:$port&region=$region&use_path_style=true"
echo "with-s3: versitygw $pid at $AGENTSVC_TEST_S3" >&2
status=0
"$@" || status=$?
exit "$status"
