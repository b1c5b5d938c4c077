"""Records what google-adk sends to Gemini with context caching on.

Runs one LlmAgent (a 5000-word instruction and one tool) in an App with
ContextCacheConfig(cache_intervals=2, ttl_seconds=600) for five
invocations against a running fakegemini server, over the real genai SDK.
Before the fifth, the server's clock and ADK's time.time() move 601 seconds
on, so the cache has expired. Writes the HTTP requests the server recorded
(generateContent and cachedContents calls, in order) and the cache metadata
of the agent's events, with times, the instruction text and fingerprints
replaced by placeholders, to OUT (JSON).

Usage, in a virtualenv holding the google-adk release to record:
  fakegemini -addr 127.0.0.1:18931 &
  python record.py http://127.0.0.1:18931 adk-1.39.1.json
"""

import asyncio
import json
import os
import re
import sys
import time
import urllib.request

BASE, OUT = sys.argv[1], sys.argv[2]
os.environ["GOOGLE_GEMINI_BASE_URL"] = BASE
os.environ["GOOGLE_API_KEY"] = "x"
os.environ["GOOGLE_GENAI_USE_VERTEXAI"] = "0"

from google.adk.agents import LlmAgent  # noqa: E402
from google.adk.agents.context_cache_config import ContextCacheConfig  # noqa: E402
from google.adk.apps.app import App  # noqa: E402
from google.adk.runners import Runner  # noqa: E402
from google.adk.sessions import InMemorySessionService  # noqa: E402
from google.genai import types  # noqa: E402


def lookup(q: str) -> str:
  """Looks up."""
  return q


def control(path, body=None):
  data = None if body is None else json.dumps(body).encode()
  req = urllib.request.Request(BASE + path, data=data, method="GET" if body is None else "POST")
  with urllib.request.urlopen(req) as resp:
    return json.load(resp)


async def main():
  agent = LlmAgent(name="a", model="gemini-2.5-flash", instruction="rule " * 5000, tools=[lookup])
  app = App(name="probe", root_agent=agent,
            context_cache_config=ContextCacheConfig(cache_intervals=2, ttl_seconds=600))
  control("/_fake/reset", {})
  sessions = InMemorySessionService()
  runner = Runner(app=app, session_service=sessions)
  session = await sessions.create_session(app_name="probe", user_id="u")
  for text in ["one", "two", "three", "four", "five"]:
    if text == "five":
      control("/_fake/clock", {"advanceSeconds": 601})
      real = time.time
      time.time = lambda: real() + 601
    message = types.Content(role="user", parts=[types.Part(text=text)])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
      pass
  session = await sessions.get_session(app_name="probe", user_id="u", session_id=session.id)
  requests = []
  for r in control("/_fake/requests"):
    body = r["body"]
    if "systemInstruction" in body:
      body["systemInstruction"]["parts"] = [{"text": "<system instruction>"}]
    if "displayName" in body:
      body["displayName"] = re.sub(r"adk-cache-\d+-", "adk-cache-<time>-", body["displayName"])
    requests.append({"method": r["method"], "path": r["path"], "body": body})
  metadata = []
  for event in session.events:
    if event.author == "user":
      continue
    m = json.loads(event.cache_metadata.model_dump_json(exclude_none=True))
    for k in ("expire_time", "created_at"):
      if k in m:
        m[k] = "<time>"
    m["fingerprint"] = "<fingerprint>"
    metadata.append(m)
  with open(OUT, "w") as f:
    json.dump({"requests": requests, "cacheMetadata": metadata}, f, indent=1, sort_keys=True)


asyncio.run(main())
