#!/usr/bin/env python3
"""Records what adk-python sends to OpenAI and Anthropic for each scenario.

For every scenario directory beside this file (or those named on the command
line) it starts a fake provider on 127.0.0.1 that answers from the scenario's
provider.json in order, loads app/root_agent.yaml with ADK's Agent Config
loader (the one `adk web` and `adk api_server` use), runs the user turns of
turns.json with a Runner over an InMemorySessionService and writes:

  requests.json  what reached the fake provider, in order
  session.json   the final session as `adk api_server` serves it
  error.json     the error of a failed turn (only when one failed)
  stream.json    with streaming "sse" only: the events the runner yielded,
                 partial ones included, as `adk api_server`'s /run_sse
                 sends them

with the ids and timestamps normalised as README.md describes, so that two
runs write the same files.

Run it with the pinned environment:

  scripts/with-litellm-venv.sh python3 integration/testdata/litellm/gen.py [SCENARIO...]

Credentials are dummies: OPENAI_API_KEY and ANTHROPIC_API_KEY are set to fixed
strings. ADK's Claude class builds an AnthropicVertex client, which has no
api_base argument: ANTHROPIC_VERTEX_BASE_URL points it at the fake (its URL
and /v1, as Vertex AI's base URL ends), and google.auth.default is replaced by
one that returns credentials with a fixed token (so nothing asks Google for
one); GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION name the project and
region that appear in the recorded paths.
"""

import asyncio
import json
import os
import re
import shutil
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.dont_write_bytecode = True  # no __pycache__ beside the recordings
HERE = os.path.dirname(os.path.abspath(__file__))
PLACEHOLDER = "http://FAKE_PROVIDER"
APP_NAME = "app"
PROJECT = "fake-project"
LOCATION = "us-east5"

# Set before LiteLLM and ADK are imported: no network for LiteLLM's model cost
# map, dummy credentials, the Vertex project of ADK's Claude class.
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["LITELLM_LOCAL_ANTHROPIC_BETA_HEADERS"] = "True"
os.environ["OPENAI_API_KEY"] = "sk-fake-openai-key"
os.environ["ANTHROPIC_API_KEY"] = "sk-ant-fake-anthropic-key"
os.environ["GOOGLE_CLOUD_PROJECT"] = PROJECT
os.environ["GOOGLE_CLOUD_LOCATION"] = LOCATION
for name in ("OPENAI_API_BASE", "OPENAI_BASE_URL", "ANTHROPIC_API_BASE",
             "ANTHROPIC_BASE_URL", "LITELLM_LOG"):
  os.environ.pop(name, None)

import google.auth  # noqa: E402
import google.auth.credentials  # noqa: E402
import yaml  # noqa: E402

# The shared tools (tools.py) and output schemas (schemas.py) are imported by
# the apps as tools.<func> and schemas.<Model>.
sys.path.insert(0, HERE)

import schemas  # noqa: E402


class _FixedToken(google.auth.credentials.Credentials):
  """Google credentials whose token is a fixed string."""

  def refresh(self, request):
    self.token = "fake-google-token"


def _default_credentials(scopes=None, **kwargs):
  creds = _FixedToken()
  creds.token = "fake-google-token"
  return creds, PROJECT


google.auth.default = _default_credentials

from google.adk.agents import config_agent_utils  # noqa: E402
from google.adk.agents.run_config import RunConfig, StreamingMode  # noqa: E402
from google.adk.runners import Runner  # noqa: E402
from google.adk.sessions import InMemorySessionService  # noqa: E402
from google.genai import types  # noqa: E402


class FakeProvider:
  """An HTTP server that answers with canned responses and records requests."""

  def __init__(self):
    self.responses = []
    self.requests = []
    self.overrun = 0
    self.lock = threading.Lock()
    provider = self

    class Handler(BaseHTTPRequestHandler):
      """Records one request and sends the next canned response."""

      def log_message(self, *args):
        pass

      def do_POST(self):
        provider.serve(self)

      def do_GET(self):
        provider.serve(self)

    self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
    self.thread = threading.Thread(target=self.server.serve_forever,
                                   daemon=True)
    self.thread.start()

  def reset(self, responses):
    with self.lock:
      self.responses = list(responses)
      self.requests = []
      self.overrun = 0

  def close(self):
    self.server.shutdown()
    self.server.server_close()

  def serve(self, h):
    size = int(h.headers.get("Content-Length") or 0)
    raw = h.rfile.read(size) if size else b""
    try:
      body = json.loads(raw) if raw else None
    except ValueError:
      body = raw.decode("utf-8", "replace")
    with self.lock:
      self.requests.append({
          "method": h.command,
          "path": h.path,
          "headers": {"content-type": h.headers.get("Content-Type")},
          "body": body,
      })
      if self.responses:
        r = self.responses.pop(0)
      else:
        self.overrun += 1
        r = {"status": 599, "json": {"error": "no canned response left"}}
    if "sse" in r:
      h.send_response(r["status"])
      h.send_header("Content-Type", "text/event-stream")
      h.send_header("Cache-Control", "no-cache")
      h.end_headers()
      for item in r["sse"]:
        if isinstance(item, str):
          chunk = "data: %s\n\n" % item
        else:
          chunk = "event: %s\ndata: %s\n\n" % (item["event"],
                                               json.dumps(item["data"]))
        h.wfile.write(chunk.encode())
        h.wfile.flush()
    else:
      data = json.dumps(r.get("json", {})).encode()
      h.send_response(r["status"])
      h.send_header("Content-Type", "application/json")
      h.send_header("Content-Length", str(len(data)))
      h.end_headers()
      h.wfile.write(data)


def copy_app(src, url):
  """Copies an app to a temp dir with the fake's URL and ADK's output_schema.

  The YAML declares output_schema as a JSON schema (agentsvc's form); ADK's
  Agent Config wants a code reference, so the copy names the pydantic model of
  schemas.py whose JSON schema is exactly the declared one.
  """
  tmp = tempfile.mkdtemp(prefix="litellm-gen-")
  dst = os.path.join(tmp, APP_NAME)
  os.mkdir(dst)
  for name in sorted(os.listdir(src)):
    with open(os.path.join(src, name)) as f:
      text = f.read().replace(PLACEHOLDER, url)
    if name.endswith(".yaml"):
      doc = yaml.safe_load(text)
      schema = doc.get("output_schema")
      if isinstance(schema, dict) and "type" in schema:
        doc["output_schema"] = {"name": "schemas." + schema_model(schema)}
        text = yaml.safe_dump(doc, sort_keys=False)
    with open(os.path.join(dst, name), "w") as f:
      f.write(text)
  return tmp, dst


def schema_model(schema):
  """Names the model of schemas.py whose JSON schema equals schema."""
  name = schema.get("title", "")
  model = getattr(schemas, name, None)
  if model is None or model.model_json_schema() != schema:
    raise SystemExit("output_schema %r is not schemas.%s's JSON schema" %
                     (schema, name))
  return name


async def run_turns(app_dir, turns):
  """Runs the user turns (stopping at one that raised); returns the session,
  the error of a failed turn and the events the runner yielded."""
  agent = config_agent_utils.from_config(
      os.path.join(app_dir, "root_agent.yaml"))
  sessions = InMemorySessionService()
  runner = Runner(app_name=APP_NAME, agent=agent, session_service=sessions)
  user, sid = turns.get("user_id", "u"), turns.get("session_id", "s")
  await sessions.create_session(app_name=APP_NAME, user_id=user,
                                session_id=sid,
                                state=turns.get("state") or {})
  mode = {"none": StreamingMode.NONE,
          "sse": StreamingMode.SSE}[turns.get("streaming", "none")]
  error = None
  yielded = []
  for text in turns["turns"]:
    message = types.Content(role="user", parts=[types.Part(text=text)])
    try:
      async for event in runner.run_async(
          user_id=user, session_id=sid, new_message=message,
          run_config=RunConfig(streaming_mode=mode)):
        yielded.append(event.model_dump(mode="json", by_alias=True,
                                        exclude_none=True))
        if event.error_code and error is None:
          error = {"type": event.error_code, "message": event.error_message}
    except Exception as e:  # pylint: disable=broad-except
      error = {"type": type(e).__name__, "message": str(e)}
      break
  session = await sessions.get_session(app_name=APP_NAME, user_id=user,
                                       session_id=sid)
  await runner.close()
  return session, error, yielded


# Ids that vary between runs and that normalise_events does not know: ADK's
# function-call ids (adk-<uuid>) and any <kind>-<uuid> or <kind>_<uuid> a
# library makes up; a bare uuid counts as kind "id".
UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
ID_RE = re.compile(r"\b(?:([A-Za-z]+)[-_])?(" + UUID + r")\b")


class Normaliser:
  """Replaces run-dependent ids by <kind>-ID-<n>, numbered per kind in order
  of first appearance in the file's text."""

  def __init__(self):
    self.seen = {}
    self.count = {}

  def sub(self, m):
    kind = m.group(1) or "id"
    key = m.group(0)
    if key not in self.seen:
      self.count[kind] = self.count.get(kind, 0) + 1
      self.seen[key] = "%s-ID-%d" % (kind, self.count[kind])
    return self.seen[key]

  def text(self, text):
    return ID_RE.sub(self.sub, text)


def session_json(session):
  """The session as api_server's GET .../sessions/{id} serves it (FastAPI's
  response model Session with response_model_exclude_none), event ids,
  invocation ids and timestamps normalised."""
  doc = session.model_dump(mode="json", by_alias=True, exclude_none=True)
  doc["lastUpdateTime"] = 0
  normalise_events(doc.get("events", []))
  return doc


def normalise_events(events):
  """Numbers event ids (event-ID-<n>) and invocation ids (e-ID-<n>) in order
  of first appearance and zeroes the timestamps."""
  ids = {}
  invocations = {}
  for ev in events:
    ev["timestamp"] = 0
    ev["id"] = ids.setdefault(ev["id"], "event-ID-%d" % (len(ids) + 1))
    if "invocationId" in ev:
      ev["invocationId"] = invocations.setdefault(
          ev["invocationId"], "e-ID-%d" % (len(invocations) + 1))
  return events


def dump(doc):
  return Normaliser().text(
      json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False)) + "\n"


def write(path, text):
  with open(path, "w") as f:
    f.write(text)


def record(fake, scenario):
  """Runs one scenario and writes its recordings."""
  src = os.path.join(HERE, scenario)
  with open(os.path.join(src, "turns.json")) as f:
    turns = json.load(f)
  with open(os.path.join(src, "provider.json")) as f:
    provider = json.load(f)
  fake.reset(provider["responses"])
  tmp, app_dir = copy_app(os.path.join(src, "app"), fake.url)
  try:
    session, error, yielded = asyncio.run(run_turns(app_dir, turns))
  finally:
    shutil.rmtree(tmp)
  requests = fake.requests
  stream = None
  if turns.get("streaming") == "sse":
    stream = normalise_events(yielded)
  files = {"requests.json": requests, "session.json": session_json(session),
           "error.json": error, "stream.json": stream}
  for name, doc in files.items():
    path = os.path.join(src, name)
    if doc is not None:
      write(path, dump(doc).replace(fake.url, PLACEHOLDER))
    elif os.path.exists(path):
      os.remove(path)
  left = len(fake.responses)
  status = "ok"
  if fake.overrun:
    status = "%d request(s) beyond provider.json" % fake.overrun
  elif left:
    status = "%d canned response(s) unused" % left
  print("%-32s %d request(s), %s%s" % (scenario, len(requests), status,
                                       ", error" if error else ""))
  return not fake.overrun and not left


def main(argv):
  names = argv or sorted(
      d for d in os.listdir(HERE)
      if os.path.isfile(os.path.join(HERE, d, "turns.json")))
  fake = FakeProvider()
  os.environ["ANTHROPIC_VERTEX_BASE_URL"] = fake.url + "/v1"
  ok = True
  try:
    for name in names:
      ok = record(fake, name) and ok
  finally:
    fake.close()
  return 0 if ok else 1


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
