"""Reads an agent card as a2a-sdk's client reads it (0.3 or 1.x).

usage: card.py AGENT_CARD_URL

Fetches the card without credentials through the SDK's A2ACardResolver and
prints one JSON object: the JSON-RPC URL and protocol version the SDK's
client would call, the skills (id and description) and the security scheme
names with the schemes each requirement asks for.
"""

import asyncio
import json
import sys
from urllib.parse import urlparse

from a2a.client.card_resolver import A2ACardResolver
import httpx


def summary(card) -> dict:
  """Reads the fields of a parsed card, of either SDK generation."""
  if hasattr(card, "supported_interfaces"):  # a2a-sdk 1.x (protobuf)
    iface = next(
        i for i in card.supported_interfaces if i.protocol_binding == "JSONRPC"
    )
    url, version = iface.url, iface.protocol_version
    schemes = {
        name: s.WhichOneof("scheme") for name, s in card.security_schemes.items()
    }
    requirements = [sorted(r.schemes.keys()) for r in card.security_requirements]
  else:  # a2a-sdk 0.3 (pydantic)
    url, version = card.url, card.protocol_version
    schemes = {
        name: s.root.type for name, s in (card.security_schemes or {}).items()
    }
    requirements = [sorted(r.keys()) for r in card.security or []]
  return {
      "url": url,
      "protocol_version": version,
      "skills": [{"id": s.id, "description": s.description} for s in card.skills],
      "security_schemes": schemes,
      "security": requirements,
  }


async def main(card_url: str) -> None:
  parsed = urlparse(card_url)
  async with httpx.AsyncClient() as client:
    resolver = A2ACardResolver(
        httpx_client=client, base_url=f"{parsed.scheme}://{parsed.netloc}"
    )
    card = await resolver.get_agent_card(relative_card_path=parsed.path)
  print(json.dumps(summary(card)), flush=True)


if __name__ == "__main__":
  asyncio.run(main(sys.argv[1]))
