"""The ADK 2.x seed's workflow examples (spec 002 §3, §5, §6, §8) as YAML
apps whose ``@node`` functions run here, end to end over gRPC.

They need a live stack serving integration/testdata/workflows/apps
(``make test-python`` starts one and sets AGENTSVC_WORKFLOW_SEEDS).
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.struct_pb2 import Struct
from pydantic import BaseModel

import agentsvc
from agentsvc import Event, NodeContext, RequestInput
from tests.test_live import ADDR, FAKE_URL, FakeGemini, bounded, calls as model_calls, final_texts, text, user_id

if not (ADDR and FAKE_URL and os.environ.get("AGENTSVC_WORKFLOW_SEEDS")):
    pytest.skip("no live stack serving the seed workflows (AGENTSVC_WORKFLOW_SEEDS)", allow_module_level=True)

pytestmark = pytest.mark.live


def output_of(event: Event) -> Any:
    return json_format.MessageToDict(event.output) if event.HasField("output") else None


def paths(events: list[Event]) -> list[str]:
    return [e.node_info.path for e in events]


async def run(client: agentsvc.Client, app: str, uid: str, sid: str, message: Any, nodes: list[Any]) -> list[Event]:
    return list(await bounded(client.connect(app, uid, sid, message, nodes=nodes).collect(), 30))


# §3 Example 1 — single_turn LlmAgent node with typed output.

@agentsvc.node
def format_output(node_input: Any, ctx: NodeContext) -> None:
    result = ctx.state.get("sentiment_result", {})
    ctx.actions.state_delta["report"] = (
        f"Sentiment: {result.get('sentiment')} (confidence {result.get('confidence', 0):.0%})"
    )


async def test_sentiment_pipeline() -> None:
    model = FakeGemini(FAKE_URL)
    await model.reset()
    await model.script(text('{"sentiment": "positive", "confidence": 0.97, "reason": "love"}'))
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("sentiment_pipeline", uid)
        events = await run(client, "sentiment_pipeline", uid, session.id, "I absolutely love this product!",
                           [format_output])
        assert paths(events) == ["sentiment_pipeline@1/sentiment@1", "sentiment_pipeline@1/format_output@1"]
        assert events[0].author == "sentiment"
        assert output_of(events[0]) == {"sentiment": "positive", "confidence": 0.97, "reason": "love"}
        assert list(events[0].node_info.output_for) == ["sentiment_pipeline@1/sentiment@1"]
        assert events[1].author == "sentiment_pipeline"
        stored = await client.get_session("sentiment_pipeline", uid, session.id)
        assert stored.state["report"] == "Sentiment: positive (confidence 97%)"
        # The single-turn node sees only its input, under its instruction.
        body = (await model.requests())[0]["body"]
        assert body["contents"] == [{"role": "user", "parts": [{"text": "I absolutely love this product!"}]}]
        assert body["systemInstruction"]["parts"][0]["text"] == (
            "Classify the sentiment of the text you receive. Return only JSON matching the schema.")
        assert body["generationConfig"]["responseMimeType"] == "application/json"


# §3 Example 2 — task mode with FinishTaskTool retry (the task agent
# wrapped in a node of its own, as the seed's entity_node).

@agentsvc.node
def summarise(node_input: Any, ctx: NodeContext) -> None:
    entities = node_input or {}
    ctx.actions.state_delta["summary"] = (
        f"Found {len(entities.get('people', []))} people, "
        f"{len(entities.get('organisations', []))} orgs, "
        f"{len(entities.get('locations', []))} locations."
    )


async def test_task_mode_retries_on_validation_error() -> None:
    model = FakeGemini(FAKE_URL)
    await model.reset()
    await model.script(
        model_calls(("finish_task", {"people": "Steve Jobs, Tim Cook", "organisations": ["Apple Inc."]})),
        model_calls(("finish_task", {"people": ["Steve Jobs", "Tim Cook"], "organisations": ["Apple Inc."],
                                     "locations": ["Cupertino"]})),
    )
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("ner_pipeline", uid)
        events = await run(client, "ner_pipeline", uid, session.id,
                           "Apple Inc. was founded by Steve Jobs in Cupertino. Tim Cook now leads the company.",
                           [summarise])
        responses = [agentsvc.response_of(r) for e in events for r in agentsvc.function_responses(e)]
        assert responses[0]["error"].startswith("Invoking `finish_task()` failed due to validation errors:\n")
        assert responses[0]["error"].endswith(
            "You could retry calling this tool, but it is IMPORTANT for you to provide all the mandatory parameters "
            "with correct types.")
        assert responses[1] == {"result": "Task completed."}
        assert output_of(events[-2]) == {"people": ["Steve Jobs", "Tim Cook"], "organisations": ["Apple Inc."],
                                         "locations": ["Cupertino"]}
        stored = await client.get_session("ner_pipeline", uid, session.id)
        assert stored.state["summary"] == "Found 2 people, 1 orgs, 1 locations."
        requests = await model.requests()
        tools = requests[0]["body"]["tools"][0]["functionDeclarations"]
        assert [t["name"] for t in tools] == ["finish_task"]
        # The model saw the validation error and was asked again.
        assert len(requests) == 2


# §3 Example 3 — chat-mode coordinator with sequential task delegation.

async def test_chat_mode_delegates_tasks() -> None:
    model = FakeGemini(FAKE_URL)
    await model.reset()
    await model.script(
        model_calls(("researcher", {"request": "Gather the history of quantum computing."})),
        model_calls(("finish_task", {"result": "Feynman proposed quantum computers in 1982."})),
        model_calls(("writer", {"request": "Write an article from: Feynman proposed quantum computers in 1982."})),
        model_calls(("finish_task", {"result": "Quantum computing: a short history."})),
        text("The researcher gathered the history and the writer produced the article."),
    )
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("research_write", uid)
        events = await run(client, "research_write", uid, session.id,
                           "Write a short article about the history of quantum computing.", [])
        assert final_texts(events)[-1] == "The researcher gathered the history and the writer produced the article."
        authors = [e.author for e in events]
        assert authors[:4] == ["coordinator", "researcher", "researcher", "user"]
        delegated = [e for e in events if e.author == "researcher"]
        assert all(e.isolation_scope and e.branch.startswith("researcher@") for e in delegated)
        assert delegated[0].node_info.path.startswith("research_write@1/coordinator@1/researcher@")
        stored = await client.get_session("research_write", uid, session.id)
        assert stored.state["article"] == {"result": "Quantum computing: a short history."}
        requests = await model.requests()
        coordinator_tools = [t["name"] for t in requests[0]["body"]["tools"][0]["functionDeclarations"]]
        assert coordinator_tools == ["researcher", "writer"]
        # The researcher's first turn is the delegation's arguments.
        assert requests[1]["body"]["contents"][0]["parts"][0]["text"] == (
            '{"request": "Gather the history of quantum computing."}')


# §5 Example 1 — basic user-input gate; §6 Examples 1 and 2 — scanning for
# pending interrupts and building the resume message.

class ApprovalResponse(BaseModel):
    approved: bool
    comment: str = ""


calls: list[str] = []


@agentsvc.node
async def approval_gate(node_input: Any, ctx: NodeContext) -> Any:
    calls.append("approval_gate")
    yield RequestInput(
        message="Please approve or reject this action.",
        response_schema=ApprovalResponse,
        payload={"action": node_input},
    )


@agentsvc.node
def process_if_approved(node_input: Any, ctx: NodeContext) -> None:
    calls.append("process_if_approved")
    if not isinstance(node_input, dict) or not node_input.get("approved"):
        ctx.actions.state_delta["status"] = "rejected"
        return
    ctx.actions.state_delta["status"] = "approved"
    ctx.actions.state_delta["comment"] = node_input.get("comment", "")


def summarise_pending_interrupts(events: list[Event]) -> list[str]:
    lines = []
    for i, event in enumerate(events):
        if agentsvc.has_request_input_function_call(event):
            lines.append(f"Event {i}: input interrupt(s) {agentsvc.get_request_input_interrupt_ids(event)}")
        if agentsvc.has_auth_request_function_call(event):
            lines.append(f"Event {i}: auth credential interrupt")
    return lines


@pytest.mark.parametrize("approved,status", [(True, "approved"), (False, "rejected")])
async def test_approval_gate(approved: bool, status: str) -> None:
    calls.clear()
    uid = user_id()
    nodes = [approval_gate, process_if_approved]
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("approval_wf", uid)
        events = await run(client, "approval_wf", uid, session.id, "Process order #42", nodes)
        interrupted = [e for e in events if agentsvc.get_request_input_interrupt_ids(e)]
        assert len(interrupted) == 1 and calls == ["approval_gate"]
        interrupt_id = agentsvc.get_request_input_interrupt_ids(interrupted[0])[0]
        call = agentsvc.function_calls(interrupted[0])[0]
        args = agentsvc.args_of(call)
        assert call.name == "adk_request_input" and call.id == interrupt_id
        assert list(interrupted[0].long_running_tool_ids) == [interrupt_id]
        assert args["message"] == "Please approve or reject this action."
        assert args["payload"]["action"]["parts"] == [{"text": "Process order #42"}]
        assert args["response_schema"]["properties"]["approved"] == {"title": "Approved", "type": "boolean"}

        stored = await client.get_session("approval_wf", uid, session.id)
        assert summarise_pending_interrupts(list(stored.events)) == [f"Event 1: input interrupt(s) ['{interrupt_id}']"]

        resume = agentsvc.request_input_message(interrupt_id, {"approved": approved, "comment": "Looks good!"})
        events = await run(client, "approval_wf", uid, session.id, resume, nodes)
        assert calls == ["approval_gate", "process_if_approved"]
        assert paths(events) == ["approval_wf@1/process_if_approved@1"]
        assert events[0].invocation_id == interrupted[0].invocation_id
        stored = await client.get_session("approval_wf", uid, session.id)
        assert stored.state["status"] == status


# §5 Example 2 — typed list response schema.

saved: list[Any] = []


@agentsvc.node
async def collect_tags(node_input: Any, ctx: NodeContext) -> Any:
    yield RequestInput(
        message="Please provide tags for this item (list of strings).",
        response_schema=list[str],
        interrupt_id="collect-tags-001",
    )


@agentsvc.node
def save_tags(node_input: Any, ctx: NodeContext) -> None:
    tags = node_input if isinstance(node_input, list) else []
    ctx.actions.state_delta["tags"] = tags
    saved.append(tags)


async def test_list_response() -> None:
    uid = user_id()
    nodes = [collect_tags, save_tags]
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("tags_wf", uid)
        events = await run(client, "tags_wf", uid, session.id, "Tag this", nodes)
        assert agentsvc.get_request_input_interrupt_ids(events[0]) == ["collect-tags-001"]
        schema = agentsvc.args_of(agentsvc.function_calls(events[0])[0])["response_schema"]
        assert schema == {"items": {"type": "string"}, "type": "array"}
        # A list travels wrapped as {"result": [...]}, unwrapped by the server.
        resume = agentsvc.request_input_message("collect-tags-001", {"result": ["python", "async", "google-adk"]})
        await run(client, "tags_wf", uid, session.id, resume, nodes)
        assert saved[-1] == ["python", "async", "google-adk"]
        stored = await client.get_session("tags_wf", uid, session.id)
        assert stored.state["tags"] == ["python", "async", "google-adk"]


# §5 Example 3 — interrupt_id reuse for rejection/retry cycles.

REVIEW_INTERRUPT_ID = "document-review-v1"
reviews: list[str] = []


@agentsvc.node
async def request_document_review(node_input: Any, ctx: NodeContext) -> Any:
    reviews.append(ctx.node_path)
    draft = ctx.state.get("draft", "")
    yield RequestInput(
        interrupt_id=REVIEW_INTERRUPT_ID,
        message=f"Please review this draft: {draft[:200]}...",
        payload={"draft_length": len(draft)},
        response_schema=dict,
    )


@agentsvc.node
def decide(node_input: Any, ctx: NodeContext) -> Any:
    ctx.route = "publish" if node_input.get("approved") else "revise"
    return node_input


@agentsvc.node
def publish(node_input: Any, ctx: NodeContext) -> str:
    ctx.state["published"] = True
    return "published"


async def test_interrupt_id_reuse() -> None:
    reviews.clear()
    uid = user_id()
    nodes = [request_document_review, decide, publish]
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("review_wf", uid, state={"draft": "A first draft."})
        await run(client, "review_wf", uid, session.id, "Review it", nodes)
        for approved in (False, False, True):
            resume = agentsvc.request_input_message(REVIEW_INTERRUPT_ID, {"approved": approved})
            events = await run(client, "review_wf", uid, session.id, resume, nodes)
        assert reviews == [f"review_wf@1/request_document_review@{i}" for i in (1, 2, 3)]
        assert output_of(events[-1]) == "published"
        stored = await client.get_session("review_wf", uid, session.id)
        assert stored.state["published"] is True


# §6 Example 3 — process_auth_resume for three response formats.

credentials: list[Any] = []


@agentsvc.node
def call_api(node_input: Any, ctx: NodeContext) -> dict[str, Any]:
    credential = ctx.state.get("temp:weather_api_key")
    credentials.append(credential)
    return {"has_credential": credential is not None}


@pytest.mark.parametrize("app,response,credential", [
    ("auth_wf", {"auth_scheme": {"type": "apiKey", "name": "x-api-key", "in": "header"},
      "exchanged_auth_credential": {"auth_type": "apiKey", "api_key": "sk-test-123"}},
     {"auth_type": "apiKey", "api_key": "sk-test-123"}),
    ("auth_wf", {"result": "sk-test-456"}, {"auth_type": "apiKey", "api_key": "sk-test-456"}),
    ("oauth_wf", {"auth_type": "oauth2", "oauth2": {"access_token": "tok-abc"}},
     {"auth_type": "oauth2", "oauth2": {"access_token": "tok-abc"}}),
])
async def test_node_auth(app: str, response: dict[str, Any], credential: dict[str, Any]) -> None:
    credentials.clear()
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session(app, uid)
        events = await run(client, app, uid, session.id, "call it", [call_api])
        assert credentials == [] and agentsvc.has_auth_request_function_call(events[0])
        call = agentsvc.function_calls(events[0])[0]
        assert call.id == f"wf_auth:{app}@1/call_api@1"
        assert agentsvc.args_of(call)["message"] == (
            "Please provide your API key for x-api-key." if app == "auth_wf" else "Please complete the authentication flow.")
        answer = agentsvc.Content(role="user", parts=[agentsvc.Part(function_response=agentsvc.FunctionResponse(
            id=call.id, name="adk_request_credential", response=json_format.ParseDict(response, Struct())))])
        events = await run(client, app, uid, session.id, answer, [call_api])
        assert credentials == [credential]
        assert output_of(events[-1]) == {"has_credential": True}
        stored = await client.get_session(app, uid, session.id)
        assert "temp:weather_api_key" not in stored.state


# §8 Example 1 — RetryConfig with an exception filter.

class TimeoutException(Exception):
    pass


attempts: list[tuple[int, float]] = []


@agentsvc.node
async def fetch_data(node_input: Any, ctx: NodeContext) -> None:
    attempts.append((ctx.attempt, time.monotonic()))
    if ctx.attempt == 1:
        raise TimeoutException("slow upstream")
    if node_input["parts"][0]["text"] == "crash" and ctx.attempt == 2:
        raise RuntimeError("crash")
    ctx.actions.state_delta["data"] = {"ok": True}


async def test_retry_filter() -> None:
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        attempts.clear()
        session = await client.create_session("fetcher", uid)
        events = await run(client, "fetcher", uid, session.id, "fetch", [fetch_data])
        assert [a for a, _ in attempts] == [1, 2]
        # The first wait is initial_delay ± jitter: 0.2 s ± 50 %.
        assert 0.09 <= attempts[1][1] - attempts[0][1] <= 2.0
        assert [(e.error_code, e.error_message) for e in events if e.error_code] == [("TimeoutException", "slow upstream")]
        stored = await client.get_session("fetcher", uid, session.id)
        assert stored.state["data"] == {"ok": True}

        # A RuntimeError is not in the filter: the run fails at once.
        attempts.clear()
        with pytest.raises(agentsvc.AgentsvcError) as failed:
            await run(client, "fetcher", uid, session.id, "crash", [fetch_data])
        assert "node fetch_data failed: RuntimeError: crash" in str(failed.value)
        assert [a for a, _ in attempts] == [1, 2]
