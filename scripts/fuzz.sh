#!/usr/bin/env bash
# Runs every fuzz target for FUZZTIME each (default 5s), one after another.
# A target that fails leaves its input under the package's testdata/fuzz/,
# where `go test` then replays it: commit it with the fix as a regression
# seed. Arguments, when given, select targets by name (e.g. FuzzInject).
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${FUZZTIME:-5s}

# Package and target, grouped by package: each package's instrumented test
# binary is built once for all its targets.
targets=(
  "internal/server FuzzRESTBody"
  "internal/server FuzzRunRequest"
  "internal/server FuzzConnectRequest"
  "internal/server FuzzDecodePageToken"
  "internal/server FuzzDecodeListToken"
  "internal/config FuzzLoadAll"
  "internal/runtime/instructions FuzzInject"
  "internal/models/gemini FuzzGenerateContent"
  "internal/models/gemini FuzzKeyOrder"
  "internal/models/gemini FuzzConvertRequest"
  "internal/models/gemini FuzzRequestBodyMatchesSDK"
  "internal/models/gemini FuzzResponseMatchesSDK"
  "internal/runtime/contents FuzzBuildMatchesReference"
  "internal/runtime/tools FuzzClientResult"
  "internal/runtime/pyfmt FuzzFormatValue"
  "internal/runtime/pyfmt FuzzFormatScalar"
  "internal/runtime/pyfmt FuzzReprJSON"
  "internal/runtime/pyfmt FuzzAppendYAML"
  "internal/artifacts/blobstore FuzzSegment"
)

# A target missing from the list would never run here.
declared=$(grep -rhoE '^func Fuzz[A-Za-z0-9_]+\(' --include='*_test.go' internal cmd integration |
  sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort)
listed=$(printf '%s\n' "${targets[@]}" | awk '{print $2}' | sort)
if [[ "$declared" != "$listed" ]]; then
  echo "scripts/fuzz.sh: the target list differs from the Fuzz functions of the code:" >&2
  diff <(echo "$listed") <(echo "$declared") >&2 || true
  exit 1
fi

bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
# go test keeps what each target found interesting here; so does this script.
cache="$(go env GOCACHE)/fuzz"

built=""
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  if (($#)) && [[ " $* " != *" $name "* ]]; then
    continue
  fi
  bin="$bindir/${pkg//\//_}.test"
  if [[ "$built" != "$pkg" ]]; then
    go test -c -fuzz . -o "$bin" "./$pkg"
    built=$pkg
  fi
  echo "== $name ($pkg, $fuzztime)"
  # The binary runs in its package's directory, as go test runs it, so that
  # it reads and writes testdata/fuzz there.
  status=0
  (cd "$pkg" && "$bin" -test.run '^$' -test.fuzz "^$name\$" -test.fuzztime "$fuzztime" \
    -test.fuzzcachedir "$cache/$(go list -f '{{.ImportPath}}' .)" -test.timeout 10m) 2>&1 |
    tee "$bindir/out" || status=$?
  if ((status)); then
    # Go before 1.27 may fail a run whose time is up with a bare "context
    # deadline exceeded" and no failing input (go.dev/issue/75804): not a
    # finding of the target.
    if ! grep -q '^ *Failing input written' "$bindir/out" && grep -qx ' *context deadline exceeded' "$bindir/out"; then
      echo "== $name: the fuzzing engine's end-of-time race (go.dev/issue/75804), not a failure" >&2
      continue
    fi
    exit "$status"
  fi
done
