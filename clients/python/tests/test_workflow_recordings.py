"""The request-input helpers and RequestInput schemas checked against the
events google-adk 2.13 recorded (integration/testdata/workflows/adk213)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pydantic
import pytest
from google.protobuf import json_format

import agentsvc
from agentsvc.v1 import content_pb2, event_pb2

RECORDINGS = Path(__file__).resolve().parents[3] / "integration" / "testdata" / "workflows" / "adk213"


def recordings() -> list[dict[str, Any]]:
    if not RECORDINGS.is_dir():
        pytest.skip("no ADK workflow recordings in this checkout")
    out = []
    for path in sorted(RECORDINGS.glob("*.json")):
        data = json.loads(path.read_text())
        if isinstance(data, dict) and "turns" in data:
            out.append(data)
    return out


def content_of(data: dict[str, Any]) -> content_pb2.Content:
    return json_format.ParseDict(data, content_pb2.Content(), ignore_unknown_fields=True)


def calls_named(event: dict[str, Any], name: str) -> list[dict[str, Any]]:
    parts = (event.get("content") or {}).get("parts") or []
    return [p["functionCall"] for p in parts if p.get("functionCall", {}).get("name") == name]


def test_behavior_interrupt_ids_of_recorded_events() -> None:
    seen = 0
    for rec in recordings():
        for turn in rec["turns"]:
            for recorded in turn["events"]:
                event = event_pb2.Event()
                if recorded.get("content"):
                    event.content.CopyFrom(content_of(recorded["content"]))
                inputs = calls_named(recorded, "adk_request_input")
                credentials = calls_named(recorded, "adk_request_credential")
                seen += len(inputs) + len(credentials)
                assert agentsvc.get_request_input_interrupt_ids(event) == [c["id"] for c in inputs], rec["scenario"]
                assert agentsvc.has_request_input_function_call(event) == bool(inputs)
                assert agentsvc.has_auth_request_function_call(event) == bool(credentials)
    assert seen >= 20


def test_behavior_recorded_resume_messages() -> None:
    seen = 0
    for rec in recordings():
        for turn in rec["turns"]:
            parts = turn["new_message"].get("parts") or []
            if len(parts) != 1 or parts[0].get("functionResponse", {}).get("name") != "adk_request_input":
                continue
            response = parts[0]["functionResponse"]
            built = agentsvc.request_input_message(response["id"], response["response"])
            assert built == content_of(turn["new_message"]), rec["scenario"]
            seen += 1
    assert seen >= 5


class ApprovalResponse(pydantic.BaseModel):
    approved: bool
    comment: str = ""


@pytest.mark.parametrize(
    ("scenario", "response_schema"),
    [("s5e1_approve", ApprovalResponse), ("s5e2_bare_dict", list[str]), ("s5e3_interrupt_id_reuse", dict)],
)
def test_behavior_recorded_response_schemas(scenario: str, response_schema: Any) -> None:
    [rec] = [r for r in recordings() if r["scenario"] == scenario]
    recorded = next(c for t in rec["turns"] for e in t["events"] for c in calls_named(e, "adk_request_input"))
    sent = agentsvc.RequestInput(response_schema=response_schema).to_proto()
    assert json_format.MessageToDict(sent.response_schema) == recorded["args"]["response_schema"]
