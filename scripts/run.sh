#!/usr/bin/env bash
# Serves the example apps on the default addresses. Without Gemini
# credentials it starts the bundled local model server (which answers
# "Echo: <your message>") and points agentsvc at it, so the whole path runs
# offline. ADK's web UI is served at /dev-ui/ when `make dev-ui` installed
# it. Extra arguments go to `agentsvc serve`.
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
if [[ -f .tools/dev-ui/index.html ]]; then
  echo "ADK's web UI: http://${AGENTSVC_HTTP_ADDR:-127.0.0.1:8080}/dev-ui/" >&2
  args=(--dev-ui .tools/dev-ui --trace-buffer 10000 "${args[@]}")
fi
bin/agentsvc serve "${args[@]}"
