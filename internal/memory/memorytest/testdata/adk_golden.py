"""Records what google-adk's InMemoryMemoryService answers, for the contract suite.

Run with google-adk 1.39.1 installed:

    TZ=UTC python adk_golden.py > adk_golden.json

It adds seeded, random sessions (re-adding some, some of them empty, across two
apps and two users) and records each search's answer in order, timestamps as
ADK formats them in UTC.
"""

import asyncio
import json
import random

from google.adk.events.event import Event
from google.adk.memory.in_memory_memory_service import InMemoryMemoryService
from google.adk.sessions.session import Session
from google.genai import types

WORDS = [
    "Sunny", "sunny", "SUNNY", "rain", "Rain!", "weather", "café", "naïve",
    "über", "hello-world", "it's", "don't", "x", "a", "I", "42", "3.14",
    "snake_case", "camelCase", "e-mail", "Ωmega", "straße", "tokyo東京",
    "(paren)", "end.", "new\nline", "tab\there", "", "  ", "...", "q",
]
SCOPES = [("app", "u1"), ("app", "u2"), ("other", "u1")]


def random_text(rng):
  return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 4)))


def random_event(rng, ts):
  kind = rng.random()
  author = rng.choice(["user", "agent", "helper"])
  spec = {"author": author, "timestamp": ts}
  if kind < 0.08:
    spec["content"] = None
    return spec
  if kind < 0.12:
    spec["content"] = {"role": "model", "parts": []}
    return spec
  parts = []
  for _ in range(rng.randint(1, 3)):
    if rng.random() < 0.15:
      parts.append({"function_call": rng.choice(["sunny", "lookup"])})
    else:
      parts.append({"text": random_text(rng)})
  spec["content"] = {"role": "user" if author == "user" else "model", "parts": parts}
  return spec


def to_event(spec):
  content = None
  if spec["content"] is not None:
    parts = []
    for p in spec["content"]["parts"]:
      if "text" in p:
        parts.append(types.Part(text=p["text"]))
      else:
        parts.append(types.Part(function_call=types.FunctionCall(name=p["function_call"], args={})))
    content = types.Content(role=spec["content"]["role"], parts=parts)
  return Event(author=spec["author"], invocation_id="e-golden", timestamp=spec["timestamp"], content=content)


async def main():
  rng = random.Random(20240611)
  svc = InMemoryMemoryService()
  steps = []
  ts = 1700000000.0
  for _ in range(200):
    if rng.random() < 0.45:
      app, user = rng.choice(SCOPES)
      session_id = rng.choice(["s1", "s2", "s3", "s4", "s5"])
      events = []
      for _ in range(rng.randint(0, 6)):
        ts += rng.choice([0.5, 1.0, 1.25, 0.000001])
        events.append(random_event(rng, ts))
      await svc.add_session_to_memory(Session(
          id=session_id, app_name=app, user_id=user,
          events=[to_event(e) for e in events]))
      steps.append({"add": {"app": app, "user": user, "session": session_id, "events": events}})
    else:
      app, user = rng.choice(SCOPES + [("app", "nobody")])
      query = random_text(rng)
      res = await svc.search_memory(app_name=app, user_id=user, query=query)
      found = []
      for m in res.memories:
        parts = []
        for p in m.content.parts:
          if p.function_call:
            parts.append({"function_call": p.function_call.name})
          else:
            parts.append({"text": p.text})
        found.append({"author": m.author, "role": m.content.role, "parts": parts, "timestamp": m.timestamp})
      steps.append({"search": {"app": app, "user": user, "query": query, "found": found}})
  # One step a line, for readable diffs.
  print('{"adk": "1.39.1", "steps": [')
  print(",\n".join(json.dumps(step, ensure_ascii=False) for step in steps))
  print("]}")


asyncio.run(main())
