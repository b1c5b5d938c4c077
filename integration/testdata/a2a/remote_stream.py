"""Calls an A2A agent through adk-python's RemoteA2aAgent and prints the
shape of each event it yields.

usage: remote_stream.py AGENT_CARD_URL QUESTION

Prints one JSON line per event: its author, partial flag and parts (text
and thought), as /run_sse writes them.
"""

import asyncio
import json
import sys

from google.adk.agents.remote_a2a_agent import RemoteA2aAgent
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types


async def main(card_url: str, question: str) -> None:
  agent = RemoteA2aAgent(name="forecast", agent_card=card_url)
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


if __name__ == "__main__":
  asyncio.run(main(sys.argv[1], sys.argv[2]))
