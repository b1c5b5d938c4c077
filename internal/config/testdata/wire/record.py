"""Records the tool declarations google-adk sends to the model.

Runs each YAML app under APPS_DIR with a model that answers every request
with text and keeps the LlmRequest it receives, and writes, per app, the
function declarations of each agent's first request as the model API sees
them (JSON, camelCase, unset fields dropped) to
OUT_DIR/adk-<google-adk version>/<app>.json.

An output_schema written as a JSON schema (agentsvc's form) is handed to
ADK as the equivalent pydantic model (ADK's form).

Usage, in a virtualenv holding the google-adk release to record:
  python record.py apps golden
"""

import asyncio
import json
import os
import shutil
import sys
import tempfile
import types as pytypes
from typing import AsyncGenerator

import pydantic
import yaml

from google.adk.agents import config_agent_utils
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.models.registry import LLMRegistry
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

REQUESTS: list[LlmRequest] = []


class Recorder(BaseLlm):
  """Answers every request with text and records it."""

  @classmethod
  def supported_models(cls) -> list[str]:
    return [r"recorded-model"]

  async def generate_content_async(
      self, llm_request: LlmRequest, stream: bool = False
  ) -> AsyncGenerator[LlmResponse, None]:
    REQUESTS.append(llm_request.model_copy(deep=True))
    yield LlmResponse(
        content=types.Content(role="model", parts=[types.Part(text="ok")])
    )


LLMRegistry.register(Recorder)


def declarations(req: LlmRequest) -> list:
  out = []
  for tool in (req.config.tools or []) if req.config else []:
    for decl in tool.function_declarations or []:
      out.append(decl.model_dump(mode="json", exclude_none=True, by_alias=True))
  return out


SCHEMAS = pytypes.ModuleType("wire_schemas")
sys.modules["wire_schemas"] = SCHEMAS
PY_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool}


def python_schemas(app_dir: str) -> str:
  """Copies the app, replacing each JSON-schema output_schema (agentsvc's
  form) by a reference to an equivalent pydantic model (ADK's form)."""
  tmp = tempfile.mkdtemp()
  for name in os.listdir(app_dir):
    src, dst = os.path.join(app_dir, name), os.path.join(tmp, name)
    with open(src) as f:
      doc = yaml.safe_load(f)
    schema = doc.get("output_schema")
    if isinstance(schema, dict) and "type" in schema:
      required = set(schema.get("required", []))
      fields = {
          k: (PY_TYPES[v["type"]], ... if k in required else None)
          for k, v in schema["properties"].items()
      }
      model = pydantic.create_model(doc["name"], **fields)
      setattr(SCHEMAS, doc["name"], model)
      doc["output_schema"] = {"name": "wire_schemas." + doc["name"]}
    with open(dst, "w") as f:
      yaml.safe_dump(doc, f, sort_keys=False)
  return tmp


async def record(app_dir: str) -> dict:
  REQUESTS.clear()
  tmp = python_schemas(app_dir)
  try:
    root = config_agent_utils.from_config(os.path.join(tmp, "root_agent.yaml"))
  finally:
    shutil.rmtree(tmp)
  sessions = InMemorySessionService()
  runner = Runner(app_name="app", agent=root, session_service=sessions)
  session = await sessions.create_session(app_name="app", user_id="u")
  msg = types.Content(role="user", parts=[types.Part(text="hello")])
  async for _ in runner.run_async(
      user_id="u", session_id=session.id, new_message=msg
  ):
    pass
  out = {}
  for req in REQUESTS:
    name = req.config.labels.get("adk_agent_name", "")
    if name not in out:
      out[name] = declarations(req)
  return out


def main() -> None:
  from google.adk import version

  apps = sys.argv[1]
  dest = os.path.join(sys.argv[2], "adk-" + version.__version__)
  os.makedirs(dest, exist_ok=True)
  for app in sorted(os.listdir(apps)):
    got = asyncio.run(record(os.path.join(apps, app)))
    with open(os.path.join(dest, app + ".json"), "w") as f:
      json.dump(got, f, indent=2, sort_keys=True)
      f.write("\n")


if __name__ == "__main__":
  main()
