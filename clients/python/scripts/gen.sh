#!/usr/bin/env bash
# Regenerates agentsvc/v1/*_pb2*.py[i] from proto/agentsvc/v1 with the pinned
# grpcio-tools. The google/api protos come from the pinned
# googleapis-common-protos package, which ships them.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
"$here/scripts/venv.sh"
py="$here/.venv/bin/python"

site=$("$py" -c 'import pathlib, google.api; print(pathlib.Path(google.api.__path__[0]).parent.parent)')
out="$here/agentsvc/v1"
rm -f "$out"/*_pb2.py "$out"/*_pb2.pyi "$out"/*_pb2_grpc.py
cd "$root/proto"
"$py" -m grpc_tools.protoc -I. -I"$site" \
	--python_out="$here" --pyi_out="$here" --grpc_python_out="$here" \
	agentsvc/v1/*.proto
