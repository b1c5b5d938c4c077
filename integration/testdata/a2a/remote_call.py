"""Calls an A2A agent through adk-python's RemoteA2aAgent.

usage: remote_call.py AGENT_CARD_URL QUESTION

Prints one JSON line per event the remote agent yields: its author, text
(thoughts left out) and the "a2a:" keys of its custom metadata, and its
partial flag and parts (text and thought) as /run_sse writes them. With A2A_TOKEN set, every
request carries it as a bearer token.
"""

import asyncio
import json
import os
import sys

from google.adk.agents.remote_a2a_agent import RemoteA2aAgent
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types
import httpx


async def main(card_url: str, question: str) -> None:
  token = os.environ.get("A2A_TOKEN")
  client = None
  if token:
    client = httpx.AsyncClient(
        headers={"Authorization": f"Bearer {token}"}, timeout=60
    )
  agent = RemoteA2aAgent(name="remote", agent_card=card_url, httpx_client=client)
  runner = Runner(
      app_name="caller", agent=agent, session_service=InMemorySessionService()
  )
  session = await runner.session_service.create_session(
      app_name="caller", user_id="u"
  )
  message = types.Content(role="user", parts=[types.Part(text=question)])
  async for event in runner.run_async(
      user_id="u", session_id=session.id, new_message=message
  ):
    parts = (event.content.parts if event.content else None) or []
    print(
        json.dumps({
            "author": event.author,
            "text": "".join(p.text or "" for p in parts if not p.thought),
            "error": event.error_message,
            "metadata": sorted((event.custom_metadata or {}).keys()),
            "partial": event.partial,
            "content": {
                "parts": [
                    {"text": p.text or "", "thought": bool(p.thought)}
                    for p in parts
                ]
            },
        }),
        flush=True,
    )
  await agent.cleanup()
  if client is not None:
    await client.aclose()


if __name__ == "__main__":
  asyncio.run(main(sys.argv[1], sys.argv[2]))
