"""Unit tests of invocations against the in-process fake server: event
streaming, concurrent tool calls, results, errors and cancellation."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

import agentsvc
from agentsvc.v1 import content_pb2, event_pb2, runner_service_pb2
from tests.fakeserver import FakeServer, abort_with_info


Requests = AsyncIterator[runner_service_pb2.ConnectRequest]


def _text_event(text: str, invocation_id: str = "e-1") -> event_pb2.Event:
    return event_pb2.Event(
        invocation_id=invocation_id,
        author="weather_agent",
        content=content_pb2.Content(role="model", parts=[content_pb2.Part(text=text)]),
    )


def _call_event(calls: list[tuple[str, str, dict[str, Any]]]) -> event_pb2.Event:
    parts = []
    for call_id, name, args in calls:
        fc = content_pb2.FunctionCall(id=call_id, name=name)
        fc.args.update(args)
        parts.append(content_pb2.Part(function_call=fc))
    return event_pb2.Event(
        invocation_id="e-1", author="weather_agent", content=content_pb2.Content(role="model", parts=parts)
    )


def _tool_call(call_id: str, name: str, args: dict[str, Any], **state: Any) -> runner_service_pb2.ConnectResponse:
    fc = content_pb2.FunctionCall(id=call_id, name=name)
    fc.args.update(args)
    tc = runner_service_pb2.ToolCall(call_id=call_id, invocation_id="e-1", agent_name="weather_agent", function_call=fc)
    tc.state.update(state)
    return runner_service_pb2.ConnectResponse(tool_call=tc)


def _event(ev: event_pb2.Event) -> runner_service_pb2.ConnectResponse:
    return runner_service_pb2.ConnectResponse(event=ev)


def _done() -> runner_service_pb2.ConnectResponse:
    return runner_service_pb2.ConnectResponse(done=runner_service_pb2.RunDone(invocation_id="e-1"))


async def _bounded(coro: Any, seconds: float = 10.0) -> Any:
    return await asyncio.wait_for(coro, seconds)


async def test_run_streams_events(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    seen: list[runner_service_pb2.RunRequest] = []

    async def run(req: runner_service_pb2.RunRequest, context: Any) -> AsyncIterator[runner_service_pb2.RunResponse]:
        seen.append(req)
        yield runner_service_pb2.RunResponse(event=_text_event("Echo: "))
        yield runner_service_pb2.RunResponse(event=_text_event("Echo: hi"))

    fake.run = run
    inv = fake_client.run("echo", "alice", "s1", "hi", state_delta={"k": 1}, max_llm_calls=3)
    events = await _bounded(inv.collect())
    assert [agentsvc.event_text(e) for e in events] == ["Echo: ", "Echo: hi"]
    assert inv.invocation_id == "e-1" and inv.completed and not inv.cancelled
    req = seen[0]
    assert (req.app_name, req.user_id, req.session_id) == ("echo", "alice", "s1")
    assert req.new_message.role == "user" and req.new_message.parts[0].text == "hi"
    assert json_format.MessageToDict(req.state_delta) == {"k": 1}
    assert req.run_config.max_llm_calls == 3
    assert req.run_config.streaming_mode == runner_service_pb2.STREAMING_MODE_NONE


async def test_connect_answers_parallel_calls_concurrently(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    start: list[runner_service_pb2.StartRun] = []
    arrivals: list[str] = []
    results: dict[str, runner_service_pb2.ToolResult] = {}

    async def connect(requests: Requests, context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        first = await anext(requests)
        start.append(first.start)
        calls: list[tuple[str, str, dict[str, Any]]] = [
            ("adk-1", "get_weather", {"city": "Paris"}),
            ("adk-2", "get_forecast", {"city": "Paris", "days": 2}),
            ("adk-3", "get_air_quality", {"city": "Paris"}),
        ]
        yield _event(_call_event(calls))
        for call_id, name, args in calls:
            yield _tool_call(call_id, name, args)
        for _ in calls:
            req = await anext(requests)
            arrivals.append(req.tool_result.call_id)
            results[req.tool_result.call_id] = req.tool_result
        merged = event_pb2.Event(invocation_id="e-1", author="weather_agent", content=content_pb2.Content(role="user"))
        for call_id, name, _ in calls:
            fr = content_pb2.FunctionResponse(id=call_id, name=name, response=results[call_id].response.struct_value)
            merged.content.parts.add(function_response=fr)
        yield _event(merged)
        yield _event(_text_event("Sunny, warm, clean air."))
        yield _done()

    fake.connect = connect
    in_flight = 0
    peak = 0

    async def slow(seconds: float, value: dict[str, Any]) -> dict[str, Any]:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(seconds)
        in_flight -= 1
        return value

    @agentsvc.tool
    async def get_weather(city: str) -> dict[str, Any]:
        """Current weather."""
        return await slow(0.4, {"weather": "sunny", "city": city})

    @agentsvc.tool
    async def get_forecast(city: str, days: int = 1) -> dict[str, Any]:
        """Forecast."""
        return await slow(0.05, {"days": days})

    @agentsvc.tool
    def get_air_quality(city: str) -> dict[str, Any]:
        """Air quality (sync, runs in a thread)."""
        time.sleep(0.2)
        return {"aqi": 12}

    began = time.monotonic()
    inv = fake_client.connect("weather", "alice", "s1", "Weather?", tools=[get_weather, get_forecast, get_air_quality])
    events = await _bounded(inv.collect())
    elapsed = time.monotonic() - began

    assert [t.name for t in start[0].tools] == ["get_weather", "get_forecast", "get_air_quality"]
    assert start[0].run.app_name == "weather"
    assert arrivals == ["adk-2", "adk-3", "adk-1"], "results go back as each tool finishes"
    assert peak == 2, "the async tools ran at once"
    assert elapsed < 5
    assert json_format.MessageToDict(results["adk-2"].response) == {"days": 2}
    assert len(events) == 3
    assert [r.id for r in agentsvc.function_responses(events[1])] == ["adk-1", "adk-2", "adk-3"]
    assert agentsvc.is_final_response(events[2]) and inv.completed


async def test_tool_results_errors_and_actions(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    results: dict[str, runner_service_pb2.ToolResult] = {}

    async def connect(requests: Requests, context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        await anext(requests)
        yield _tool_call("adk-1", "fails", {})
        yield _tool_call("adk-2", "nothing", {})
        yield _tool_call("adk-3", "scalar", {}, user="alice")
        yield _tool_call("adk-4", "unknown", {})
        for _ in range(4):
            req = await anext(requests)
            results[req.tool_result.call_id] = req.tool_result
        yield _done()

    fake.connect = connect

    def fails() -> None:
        raise ValueError("no such city")

    async def nothing() -> None:
        return None

    def scalar(tool_context: agentsvc.ToolContext) -> str:
        tool_context.state_delta["seen_by"] = tool_context.state["user"]
        tool_context.skip_summarization = True
        return "plain text"

    inv = fake_client.connect("weather", "alice", "s1", "go", tools=[fails, nothing, scalar])
    assert await _bounded(inv.collect()) == []
    assert results["adk-1"].error == "ValueError: no such city"
    assert not results["adk-1"].HasField("response")
    assert not results["adk-2"].HasField("response") and results["adk-2"].error == ""
    assert results["adk-3"].response.string_value == "plain text"
    assert json_format.MessageToDict(results["adk-3"].actions) == {
        "stateDelta": {"seen_by": "alice"},
        "skipSummarization": True,
    }
    assert results["adk-4"].error == "Tool 'unknown' is not declared by this client."


async def test_failed_run_raises_after_its_events(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    async def connect(requests: Requests, context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        await anext(requests)
        yield _event(_call_event([("adk-1", "missing_tool", {})]))
        await abort_with_info(
            context, grpc.StatusCode.FAILED_PRECONDITION, "Tool 'missing_tool' not found.", "TOOL_NOT_FOUND"
        )

    fake.connect = connect
    got: list[event_pb2.Event] = []
    with pytest.raises(agentsvc.FailedPreconditionError) as caught:
        async for event in fake_client.connect("weather", "alice", "s1", "go"):
            got.append(event)
    assert len(got) == 1 and agentsvc.function_calls(got[0])[0].name == "missing_tool"
    assert caught.value.reason == "TOOL_NOT_FOUND"
    assert "not found" in caught.value.message


async def test_cancel_sends_cancel_run_and_stops_tools(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    server_saw: list[str] = []
    tool_cancelled = asyncio.Event()
    tool_started = asyncio.Event()

    async def connect(requests: Requests, context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        await anext(requests)
        yield _event(_call_event([("adk-1", "block", {})]))
        yield _tool_call("adk-1", "block", {})
        req = await anext(requests)
        server_saw.append(req.WhichOneof("kind") or "")
        await context.abort(grpc.StatusCode.CANCELLED, "invocation cancelled")

    fake.connect = connect

    @agentsvc.tool
    async def block() -> str:
        tool_started.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            tool_cancelled.set()
            raise
        return "never"

    events = []
    async with fake_client.connect("weather", "alice", "s1", "go", tools=[block]) as inv:
        async for event in inv:
            events.append(event)
            await _bounded(tool_started.wait())
            await _bounded(inv.cancel())
    assert len(events) == 1
    assert server_saw == ["cancel"]
    assert inv.cancelled and not inv.completed
    await _bounded(tool_cancelled.wait())


async def test_cancelling_the_consuming_task_cancels_the_call(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    handler_cancelled = asyncio.Event()
    first = asyncio.Event()

    async def connect(requests: Requests, context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        await anext(requests)
        yield _event(_text_event("thinking"))
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            handler_cancelled.set()
            raise

    fake.connect = connect

    async def consume() -> None:
        async for _ in fake_client.connect("weather", "alice", "s1", "go"):
            first.set()

    task = asyncio.create_task(consume())
    await _bounded(first.wait())
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await _bounded(handler_cancelled.wait())


async def test_leaving_the_block_early_cancels_the_run(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    handler_cancelled = asyncio.Event()

    async def run(req: Any, context: Any) -> AsyncIterator[runner_service_pb2.RunResponse]:
        yield runner_service_pb2.RunResponse(event=_text_event("one"))
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            handler_cancelled.set()
            raise

    fake.run = run
    async with fake_client.run("echo", "alice", "s1", "hi") as inv:
        async for _ in inv:
            break
    assert inv.cancelled
    await _bounded(handler_cancelled.wait())


async def test_cancel_before_iterating_sends_nothing(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    inv = fake_client.connect("weather", "alice", "s1", "go")
    await inv.cancel()
    assert await inv.collect() == []


async def test_run_error_maps_to_exception(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    async def run(req: Any, context: Any) -> AsyncIterator[runner_service_pb2.RunResponse]:
        await abort_with_info(context, grpc.StatusCode.ABORTED, "session is busy", "SESSION_BUSY")
        yield runner_service_pb2.RunResponse()

    fake.run = run
    with pytest.raises(agentsvc.SessionBusyError):
        await fake_client.run("echo", "alice", "s1", "hi").collect()


def test_duplicate_tool_names_are_rejected(fake_client: agentsvc.Client) -> None:
    def f() -> None: ...

    with pytest.raises(ValueError, match="unique"):
        fake_client.connect("weather", "alice", "s1", "go", tools=[f, agentsvc.Tool(f)])


def test_user_message_forms() -> None:
    part = agentsvc.Part(text="x")
    assert agentsvc.user_message("hi") == agentsvc.Content(role="user", parts=[agentsvc.Part(text="hi")])
    assert agentsvc.user_message([part]).parts[0].text == "x"
    content = agentsvc.Content(role="user", parts=[part])
    assert agentsvc.user_message(content) is content
