#!/usr/bin/env bash
# Regenerates src/gen from proto/agentsvc/v1 with the protoc-gen-es pinned in
# package-lock.json, driven by buf (.tools/bin/buf, from `make tools`).
#
# Besides the agentsvc protos, the output holds the google/api protos they
# import and google/rpc/error_details.proto (for ErrorInfo). Both come from
# the googleapis-common-protos wheel that `make protodeps` downloads into
# .tools/wheels; google/rpc is unpacked here into .tools/protodeps-ts.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
buf=${BUF:-$root/.tools/bin/buf}

"$here/scripts/deps.sh"

rpc="$root/.tools/protodeps-ts"
rm -rf "$rpc"
python3 "$root/scripts/unpack_wheels.py" "$root/.tools/wheels" "$rpc" google/rpc/error_details.proto .proto

cd "$root"
"$buf" generate --template clients/ts/buf.gen.yaml
