#!/usr/bin/env bash
# Serves the example apps on the default addresses. Without Gemini
# credentials it starts the bundled local model server (which answers
# "Echo: <your message>") and points agentsvc at it, so the whole path runs
# offline. Extra arguments go to `agentsvc serve`.
set -euo pipefail
cd "$(dirname "$0")/.."

args=("$@")
vertex=${GOOGLE_GENAI_USE_VERTEXAI:-}
if [[ -z "${GOOGLE_API_KEY:-}${GEMINI_API_KEY:-}${GOOGLE_GEMINI_BASE_URL:-}${AGENTSVC_GEMINI_BASE_URL:-}" \
      && "$vertex" != 1 && "${vertex,,}" != true ]]; then
  addr=${FAKEGEMINI_ADDR:-127.0.0.1:8090}
  echo "No Gemini credentials (GOOGLE_API_KEY, GEMINI_API_KEY or GOOGLE_GENAI_USE_VERTEXAI): using the bundled local model server at http://$addr" >&2
  bin/fakegemini --addr "$addr" &
  fake=$!
  trap 'kill "$fake" 2>/dev/null || true' EXIT
  args+=(--gemini-base-url "http://$addr")
fi
bin/agentsvc serve "${args[@]}"
