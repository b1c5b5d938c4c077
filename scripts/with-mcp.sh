#!/usr/bin/env bash
# Runs a command with the third-party MCP servers the tests use installed:
# npm's @modelcontextprotocol/server-everything, pinned by
# integration/testdata/mcp/package-lock.json, into .tools/mcp.
#
#   scripts/with-mcp.sh CMD ARGS...
#
# Exports AGENTSVC_TEST_MCP_EVERYTHING (the server's entry point, run with
# node: "node $AGENTSVC_TEST_MCP_EVERYTHING stdio | streamableHttp | sse").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [[ $# -eq 0 ]]; then
	echo "usage: $0 CMD ARGS..." >&2
	exit 2
fi

dest="$root/.tools/mcp"
lock="$root/integration/testdata/mcp/package-lock.json"
if ! cmp -s "$lock" "$dest/package-lock.json" || [[ ! -d $dest/node_modules ]]; then
	mkdir -p "$dest"
	cp "$root/integration/testdata/mcp/package.json" "$lock" "$dest/"
	(cd "$dest" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
export AGENTSVC_TEST_MCP_EVERYTHING="$dest/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
exec "$@"
