"""Unit tests of request ids and retries against the in-process fake
server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from google.protobuf import json_format

import agentsvc
from agentsvc.v1 import content_pb2, event_pb2, runner_service_pb2
from tests.fakeserver import FakeServer


def _answer(text: str) -> event_pb2.Event:
    return event_pb2.Event(
        invocation_id="e-1",
        author="echo_agent",
        content=content_pb2.Content(role="model", parts=[content_pb2.Part(text=text)]),
    )


async def test_run_sends_its_request_id(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    seen: list[runner_service_pb2.RunRequest] = []

    async def run(req: runner_service_pb2.RunRequest, context: Any) -> AsyncIterator[runner_service_pb2.RunResponse]:
        seen.append(req)
        yield runner_service_pb2.RunResponse(event=_answer("Echo: hi"))

    fake.run = run
    inv = fake_client.run("echo", "alice", "s1", "hi", request_id="order-42")
    assert inv.request_id == "order-42"
    await asyncio.wait_for(inv.collect(), 10)
    await asyncio.wait_for(fake_client.run("echo", "alice", "s1", "hi").collect(), 10)
    assert [r.request_id for r in seen] == ["order-42", ""]


async def test_retry_after_a_deadline_sends_the_same_request(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    seen: list[runner_service_pb2.RunRequest] = []

    async def run(req: runner_service_pb2.RunRequest, context: Any) -> AsyncIterator[runner_service_pb2.RunResponse]:
        seen.append(req)
        if len(seen) == 1:
            await asyncio.sleep(30)  # the first attempt outlives its deadline
        yield runner_service_pb2.RunResponse(event=_answer("Echo: hi"))

    fake.run = run
    request_id = agentsvc.new_request_id()
    first = fake_client.run(
        "echo", "alice", "s1", "hi", request_id=request_id, state_delta={"n": 1}, max_llm_calls=3,
        streaming=True, timeout=0.3,
    )
    with pytest.raises(agentsvc.DeadlineExceededError):
        await asyncio.wait_for(first.collect(), 10)

    second = first.retry()
    assert second is not first and second.request_id == request_id
    events = await asyncio.wait_for(second.collect(), 10)
    assert [agentsvc.event_text(e) for e in events] == ["Echo: hi"]
    assert second.completed and second.invocation_id == "e-1"
    assert seen[1] == seen[0], "the retry sends the request unchanged"
    assert seen[1].request_id == request_id
    assert json_format.MessageToDict(seen[1].state_delta) == {"n": 1}


async def test_connect_retry_sends_the_request_id_and_keeps_the_tools(
    fake: FakeServer, fake_client: agentsvc.Client
) -> None:
    starts: list[runner_service_pb2.StartRun] = []
    results: list[runner_service_pb2.ToolResult] = []

    async def connect(
        requests: AsyncIterator[runner_service_pb2.ConnectRequest], context: Any
    ) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        starts.append((await anext(requests)).start)
        call = runner_service_pb2.ToolCall(
            call_id="adk-1", invocation_id="e-1", function_call=content_pb2.FunctionCall(id="adk-1", name="get_weather")
        )
        call.function_call.args.update({"city": "Paris"})
        yield runner_service_pb2.ConnectResponse(tool_call=call)
        results.append((await anext(requests)).tool_result)
        yield runner_service_pb2.ConnectResponse(event=_answer("Sunny."))
        yield runner_service_pb2.ConnectResponse(done=runner_service_pb2.RunDone(invocation_id="e-1"))

    @agentsvc.tool
    def get_weather(city: str) -> dict[str, str]:
        """Current weather."""
        return {"city": city, "weather": "sunny"}

    fake.connect = connect
    first = fake_client.connect("weather", "alice", "s1", "Paris?", tools=[get_weather], request_id="trip-7")
    await asyncio.wait_for(first.collect(), 10)
    second = first.retry()
    assert second.connect
    await asyncio.wait_for(second.collect(), 10)

    assert [s.run.request_id for s in starts] == ["trip-7", "trip-7"]
    assert starts[1] == starts[0], "same request and tool declarations"
    assert [json_format.MessageToDict(r.response) for r in results] == [{"city": "Paris", "weather": "sunny"}] * 2


def test_retry_needs_a_request_id(fake_client: agentsvc.Client) -> None:
    inv = fake_client.run("echo", "alice", "s1", "hi")
    assert inv.request_id == ""
    with pytest.raises(ValueError, match="request_id"):
        inv.retry()
    with pytest.raises(ValueError, match="request_id"):
        fake_client.connect("weather", "alice", "s1", "hi").retry()


def test_new_request_id() -> None:
    ids = {agentsvc.new_request_id() for _ in range(100)}
    assert len(ids) == 100
    for request_id in ids:
        assert 0 < len(request_id.encode()) <= 128
        assert request_id.isprintable()
