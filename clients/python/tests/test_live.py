"""Tests against a live agentsvc, Redis and fake Gemini server.

They need AGENTSVC_ADDR and FAKEGEMINI_URL, as set by the repository's
scripts/with-stack.sh, and the apps of integration/testdata/apps. Without
them the tests are skipped, except under CI, where they fail. The fake
model's queue is shared by every request, so these tests run serially and
reset it first.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import urllib.request
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from google.protobuf import json_format

import agentsvc
from agentsvc import Event

ADDR = os.environ.get("AGENTSVC_ADDR", "")
FAKE_URL = os.environ.get("FAKEGEMINI_URL", "")

if not (ADDR and FAKE_URL):
    if os.environ.get("CI"):
        raise RuntimeError("CI runs the live tests: start them under scripts/with-stack.sh")
    pytest.skip("no live stack (AGENTSVC_ADDR, FAKEGEMINI_URL)", allow_module_level=True)

pytestmark = pytest.mark.live


class FakeGemini:
    """The control API of the fake Gemini server."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read() or b"null")

    async def reset(self) -> None:
        await asyncio.to_thread(self._request, "POST", "/_fake/reset", {})

    async def script(self, *responses: dict[str, Any]) -> None:
        """Queues model answers, used once each, in order."""
        await asyncio.to_thread(self._request, "POST", "/_fake/script", {"responses": list(responses)})

    async def latency(self, duration: str) -> None:
        await asyncio.to_thread(self._request, "POST", "/_fake/faults", {"latency": duration})

    async def requests(self) -> list[dict[str, Any]]:
        got = await asyncio.to_thread(self._request, "GET", "/_fake/requests")
        return list(got or [])


def calls(*calls: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    """A model answer calling the given functions in one turn."""
    parts = [{"functionCall": {"name": name, "args": args}} for name, args in calls]
    return {"response": {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}}


def text(answer: str) -> dict[str, Any]:
    """A model answer with text."""
    parts = [{"text": answer}]
    return {"response": {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]}}


@pytest.fixture
async def model() -> FakeGemini:
    fake = FakeGemini(FAKE_URL)
    await fake.reset()
    return fake


@pytest.fixture
async def client() -> AsyncIterator[agentsvc.Client]:
    async with agentsvc.Client(ADDR, timeout=10) as c:
        yield c


def user_id() -> str:
    return f"py-{uuid.uuid4().hex[:8]}"


def final_texts(events: list[Event]) -> list[str]:
    return [agentsvc.event_text(e) for e in events if agentsvc.is_final_response(e) and agentsvc.event_text(e)]


async def bounded(coro: Any, seconds: float = 20.0) -> Any:
    return await asyncio.wait_for(coro, seconds)


@agentsvc.tool
async def get_weather(city: str) -> dict[str, Any]:
    """Returns the current weather in a city."""
    return {"city": city, "weather": "sunny", "temperature_c": 24}


async def test_apps(client: agentsvc.Client) -> None:
    assert {"echo", "weather"} <= set(await client.list_apps())
    app = await client.get_app("weather")
    assert app.root_agent.name == "weather_agent"
    remote = {t.name for t in app.root_agent.tools if t.remote}
    assert remote == {"get_weather", "get_forecast", "get_air_quality"}


async def test_plain_run(client: agentsvc.Client, model: FakeGemini) -> None:
    uid = user_id()
    session = await client.create_session("echo", uid, state={"visits": 1})
    inv = client.run("echo", uid, session.id, "hello there")
    events = await bounded(inv.collect())

    assert final_texts(events) == ["Echo: hello there"]
    assert inv.completed and inv.invocation_id.startswith("e-")
    stored = await client.get_session("echo", uid, session.id)
    assert [e.author for e in stored.events] == ["user", "echo_agent"]
    assert stored.state["visits"] == 1
    assert [s.id for s in await client.list_sessions("echo", uid)] == [session.id]

    updated = await client.update_session_state("echo", uid, session.id, {"visits": 2})
    assert updated.state["visits"] == 2
    assert updated.events[-1].author == "user" and updated.events[-1].invocation_id.startswith("p-")
    await client.delete_session("echo", uid, session.id)
    assert await client.list_sessions("echo", uid) == []


async def test_remote_tool_round_trip(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.script(calls(("get_weather", {"city": "Paris"})), text("It is sunny in Paris."))
    uid = user_id()
    session = await client.create_session("weather", uid)

    inv = client.connect("weather", uid, session.id, "What's the weather in Paris?", tools=[get_weather])
    events = await bounded(inv.collect())

    assert inv.completed
    call_event, response_event, answer = events
    (call,) = agentsvc.function_calls(call_event)
    assert call.name == "get_weather" and call.id.startswith("adk-")
    (response,) = agentsvc.function_responses(response_event)
    assert response.id == call.id
    assert dict(response.response) == {"city": "Paris", "weather": "sunny", "temperature_c": 24}
    assert final_texts([answer]) == ["It is sunny in Paris."]

    # The model saw the declaration derived from the function and, on its
    # second request, the tool's result.
    first, second = await model.requests()
    decls = [d for t in first["body"]["tools"] for d in t.get("functionDeclarations", [])]
    weather = next(d for d in decls if d["name"] == "get_weather")
    assert weather["description"] == "Returns the current weather in a city."
    assert json.dumps(weather).lower().count('"city"') >= 1
    sent = [p["functionResponse"] for c in second["body"]["contents"] for p in c["parts"] if "functionResponse" in p]
    assert sent[0]["response"] == {"city": "Paris", "weather": "sunny", "temperature_c": 24}

    stored = await client.get_session("weather", uid, session.id)
    assert len(stored.events) == 4


async def test_three_parallel_tools(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.script(
        calls(
            ("get_weather", {"city": "Paris"}),
            ("get_forecast", {"city": "Paris", "days": 3}),
            ("get_air_quality", {"city": "Paris"}),
        ),
        text("Sunny, then rain; the air is clean."),
    )
    in_flight = 0
    peak = 0
    finished: list[str] = []

    async def work(name: str, seconds: float, result: Any) -> Any:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(seconds)
        in_flight -= 1
        finished.append(name)
        return result

    @agentsvc.tool
    async def get_weather(city: str) -> dict[str, Any]:
        """Current weather."""
        return dict(await work("get_weather", 0.6, {"weather": "sunny"}))

    @agentsvc.tool
    async def get_forecast(city: str, days: int) -> list[str]:
        """Forecast for the next days."""
        return list(await work("get_forecast", 0.3, ["sun", "rain", "rain"][:days]))

    @agentsvc.tool
    def get_air_quality(city: str) -> int:
        """Air quality index (a sync tool, run in a thread)."""
        time.sleep(0.05)
        finished.append("get_air_quality")
        return 12

    uid = user_id()
    session = await client.create_session("weather", uid)
    began = time.monotonic()
    inv = client.connect("weather", uid, session.id, "Weather, forecast and air in Paris?",
                         tools=[get_weather, get_forecast, get_air_quality])
    events = await bounded(inv.collect())
    elapsed = time.monotonic() - began

    assert finished == ["get_air_quality", "get_forecast", "get_weather"], "results in completion order"
    assert peak == 2, "the async tools ran at once (the sync one in a thread)"
    assert elapsed < 10
    call_event, merged, answer = events
    call_ids = [c.id for c in agentsvc.function_calls(call_event)]
    responses = agentsvc.function_responses(merged)
    assert [r.id for r in responses] == call_ids, "one merged event, parts in call order"
    assert [r.name for r in responses] == ["get_weather", "get_forecast", "get_air_quality"]
    assert dict(responses[0].response) == {"weather": "sunny"}
    assert json_format.MessageToDict(responses[1].response) == {"result": ["sun", "rain", "rain"]}
    assert responses[2].response["result"] == 12
    assert final_texts([answer]) == ["Sunny, then rain; the air is clean."]


async def test_tool_error_reaches_the_model(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.script(calls(("get_weather", {"city": "Atlantis"})), text("I could not find Atlantis."))

    @agentsvc.tool
    def get_weather(city: str) -> dict[str, Any]:
        """Current weather."""
        raise LookupError(f"unknown city {city}")

    uid = user_id()
    session = await client.create_session("weather", uid)
    events = await bounded(client.connect("weather", uid, session.id, "Atlantis?", tools=[get_weather]).collect())
    (response,) = agentsvc.function_responses(events[1])
    assert dict(response.response) == {"error": "LookupError: unknown city Atlantis"}


async def test_errors_map_to_exceptions(client: agentsvc.Client, model: FakeGemini) -> None:
    uid = user_id()
    with pytest.raises(agentsvc.NotFoundError) as caught:
        await client.get_session("weather", uid, "no-such-session")
    assert caught.value.reason and caught.value.domain == "agentsvc"

    with pytest.raises(agentsvc.NotFoundError):
        await bounded(client.run("weather", uid, "no-such-session", "hi").collect())
    with pytest.raises(agentsvc.NotFoundError):
        await client.get_app("no_such_app")

    session = await client.create_session("weather", uid, "fixed-id")
    with pytest.raises(agentsvc.AlreadyExistsError):
        await client.create_session("weather", uid, "fixed-id")

    def get_humidity(city: str) -> int:
        return 40

    with pytest.raises(agentsvc.InvalidArgumentError) as invalid:
        await bounded(client.connect("weather", uid, session.id, "hi", tools=[get_humidity]).collect())
    assert "get_humidity" in invalid.value.message


async def test_cancel_while_a_tool_runs(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.script(calls(("get_weather", {"city": "Paris"})), text("never used"))
    started = asyncio.Event()
    tool_cancelled = asyncio.Event()

    @agentsvc.tool
    async def get_weather(city: str) -> dict[str, Any]:
        """Current weather (slow)."""
        started.set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            tool_cancelled.set()
            raise
        return {}

    uid = user_id()
    session = await client.create_session("weather", uid)
    events: list[Event] = []
    async with client.connect("weather", uid, session.id, "Paris?", tools=[get_weather]) as inv:
        async for event in inv:
            events.append(event)
            await bounded(started.wait())
            # The session is busy while the invocation runs.
            with pytest.raises(agentsvc.SessionBusyError):
                await bounded(client.run("weather", uid, session.id, "again").collect())
            await bounded(inv.cancel())
    assert inv.cancelled and not inv.completed
    await bounded(tool_cancelled.wait())
    assert len(events) == 1 and agentsvc.function_calls(events[0])

    # The cancelled call is closed with an error response, so that the
    # next model request holds no call without its response.
    stored = await client.get_session("weather", uid, session.id)
    assert [e.author for e in stored.events] == ["user", "weather_agent", "weather_agent"]
    assert not any(e.partial for e in stored.events)
    (call,) = agentsvc.function_calls(stored.events[1])
    (closed,) = agentsvc.function_responses(stored.events[2])
    assert closed.id == call.id and closed.name == "get_weather"
    assert "cancelled" in agentsvc.response_of(closed)["error"]
    assert len(await model.requests()) == 1

    # The session takes a new run.
    await model.reset()
    again = await bounded(client.run("weather", uid, session.id, "still there?").collect())
    assert final_texts(again) == ["Echo: still there?"]


async def test_cancel_a_slow_model_call(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.latency("1500ms")
    uid = user_id()
    session = await client.create_session("echo", uid)

    async def consume() -> list[Event]:
        return await client.run("echo", uid, session.id, "slow question").collect()

    task = asyncio.create_task(consume())
    deadline = time.monotonic() + 10
    while not await model.requests():
        assert time.monotonic() < deadline, "the model was never called"
        await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    # Past the model's latency, the stopped invocation has stored nothing more.
    await asyncio.sleep(2)
    stored = await client.get_session("echo", uid, session.id)
    assert [e.author for e in stored.events] == ["user"]

    await model.reset()
    again = await bounded(client.run("echo", uid, session.id, "quick").collect())
    assert final_texts(again) == ["Echo: quick"]


async def test_retry_with_the_same_request_id_stores_one_user_message(
    client: agentsvc.Client, model: FakeGemini
) -> None:
    uid = user_id()
    session = await client.create_session("echo", uid)
    request_id = agentsvc.new_request_id()

    first = client.run("echo", uid, session.id, "book it", request_id=request_id)
    answered = await bounded(first.collect())
    assert final_texts(answered) == ["Echo: book it"]

    # The first attempt finished: the retry answers its events again and
    # calls no model.
    again = first.retry()
    replayed = await bounded(again.collect())
    assert [e.id for e in replayed] == [e.id for e in answered]
    assert again.invocation_id == first.invocation_id
    assert len(await model.requests()) == 1

    stored = await client.get_session("echo", uid, session.id)
    assert [e.author for e in stored.events] == ["user", "echo_agent"]
    assert stored.events[0].request_id == request_id

    # Another logical run takes a new id and stores its message.
    await bounded(client.run("echo", uid, session.id, "book it", request_id=agentsvc.new_request_id()).collect())
    stored = await client.get_session("echo", uid, session.id)
    assert [e.author for e in stored.events] == ["user", "echo_agent"] * 2


async def test_retry_after_a_deadline_continues_the_invocation(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.latency("3s")
    uid = user_id()
    session = await client.create_session("echo", uid)
    inv = client.run("echo", uid, session.id, "slow question", request_id=agentsvc.new_request_id(), timeout=0.5)
    with pytest.raises(agentsvc.DeadlineExceededError):
        await bounded(inv.collect())
    await model.reset()

    # The documented pattern: retry with the same id, waiting while the
    # first attempt still holds the session.
    events: list[Event] = []
    for _ in range(50):
        inv = inv.retry()
        try:
            events = await bounded(inv.collect())
            break
        except agentsvc.SessionBusyError:
            await asyncio.sleep(0.1)
    assert final_texts(events) == ["Echo: slow question"]

    stored = await client.get_session("echo", uid, session.id)
    assert [e.author for e in stored.events] == ["user", "echo_agent"]
    assert {e.invocation_id for e in stored.events} == {inv.invocation_id}


async def test_request_id_is_bounded(client: agentsvc.Client, model: FakeGemini) -> None:
    uid = user_id()
    session = await client.create_session("echo", uid)
    with pytest.raises(agentsvc.InvalidArgumentError) as caught:
        await bounded(client.run("echo", uid, session.id, "hi", request_id="x" * 129).collect())
    assert "request_id" in caught.value.message
    assert not (await client.get_session("echo", uid, session.id)).events


async def test_paging_yields_every_event_once_in_order(client: agentsvc.Client, model: FakeGemini) -> None:
    uid = user_id()
    session = await client.create_session("echo", uid, state={"tier": "gold"})
    for i in range(3):
        await bounded(client.run("echo", uid, session.id, f"message {i}").collect())
    await client.update_session_state("echo", uid, session.id, {"tier": "silver"})
    whole = await client.get_session("echo", uid, session.id)
    ids = [e.id for e in whole.events]
    assert len(ids) == 7 and len(set(ids)) == 7

    events = [e async for e in client.session_events("echo", uid, session.id, page_size=1)]
    assert [e.id for e in events] == ids
    assert list(events) == list(whole.events)

    pages = [p async for p in client.session_pages("echo", uid, session.id, page_size=1)]
    assert [len(p.events) for p in pages] == [1] * 7
    assert [p.last for p in pages] == [False] * 6 + [True]
    assert all(p.session.id == session.id and p.session.state["tier"] == "silver" for p in pages)

    # By hand, with a page size that changes between pages.
    first = await client.get_session_page("echo", uid, session.id, page_size=4)
    rest = await client.get_session_page("echo", uid, session.id, page_size=10, page_token=first.next_page_token)
    assert [e.id for e in [*first.events, *rest.events]] == ids and rest.last

    # A selection keeps to its events, page after page.
    recent = [e async for e in client.session_events("echo", uid, session.id, page_size=2, num_recent_events=3)]
    assert [e.id for e in recent] == ids[-3:]

    with pytest.raises(agentsvc.InvalidArgumentError):
        await client.get_session_page("echo", uid, session.id, page_token="not-a-token")


async def test_model_error_keeps_the_model_status(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.script({"error": {"code": 400, "message": "the model rejects this request", "status": "INVALID_ARGUMENT"}})
    uid = user_id()
    session = await client.create_session("echo", uid)
    with pytest.raises(agentsvc.ModelError) as caught:
        await bounded(client.run("echo", uid, session.id, "hi").collect())
    err = caught.value
    assert isinstance(err, agentsvc.FailedPreconditionError)
    assert err.reason == "MODEL_ERROR" and err.http_status == 400
    assert err.model_status == "INVALID_ARGUMENT"
    assert "the model rejects this request" in err.message


async def test_a_session_larger_than_a_message_reads_in_pages(client: agentsvc.Client, model: FakeGemini) -> None:
    uid = user_id()
    session = await client.create_session("echo", uid)
    blob = 1_500_000
    # The update answers the whole session: write through a channel that
    # takes large messages.
    big = [("grpc.max_receive_message_length", 64 << 20)]
    async with agentsvc.Client(ADDR, timeout=10, options=big) as writer:
        for i in range(4):
            await writer.update_session_state("echo", uid, session.id, {"blob": str(i) * blob})

    # 6 MB of events: over gRPC's default 4 MiB receive limit of this channel.
    with pytest.raises(agentsvc.ResourceExhaustedError):
        await client.get_session("echo", uid, session.id)

    pages = [p async for p in client.session_pages("echo", uid, session.id)]
    assert len(pages) > 1, "pages end early rather than pass 4 MiB"
    events = [e for p in pages for e in p.events]
    assert [str(e.actions.state_delta["blob"])[0] for e in events] == ["0", "1", "2", "3"]
    assert len({e.id for e in events}) == 4
    assert pages[-1].session.state["blob"] == "3" * blob


@agentsvc.callback
def guard_input(ctx: agentsvc.CallbackContext, llm_request: agentsvc.LlmRequest) -> str | None:
    """Answers for the model when the user asks about something forbidden."""
    if "forbidden" in agentsvc.last_user_text(llm_request):
        ctx.state_delta["guarded"] = True
        return "Blocked."
    return None


@agentsvc.callback
async def redact_result(ctx: agentsvc.CallbackContext, args: dict[str, Any], tool_response: dict[str, Any]) -> dict[str, Any]:
    """Replaces every tool result."""
    assert ctx.kind == "after_tool" and ctx.tool_name == "get_weather" and args == {"city": "Paris"}
    assert tool_response["weather"] == "sunny"
    return {"forecast": "redacted"}


async def test_callback_answers_instead_of_the_model(client: agentsvc.Client, model: FakeGemini) -> None:
    uid = user_id()
    session = await client.create_session("guarded", uid)
    inv = client.connect("guarded", uid, session.id, "Tell me about a forbidden topic.",
                         tools=[get_weather], callbacks=[guard_input, redact_result])
    events = await bounded(inv.collect())

    assert final_texts(events) == ["Blocked."]
    assert await model.requests() == []
    stored = await client.get_session("guarded", uid, session.id)
    assert stored.state["guarded"] is True


async def test_after_tool_callback_replaces_the_result(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.script(calls(("get_weather", {"city": "Paris"})), text("Redacted, sorry."))
    uid = user_id()
    session = await client.create_session("guarded", uid)
    inv = client.connect("guarded", uid, session.id, "What's the weather in Paris?",
                         tools=[get_weather], callbacks=[guard_input, redact_result])
    events = await bounded(inv.collect())

    responses = [r for e in events for r in agentsvc.function_responses(e)]
    assert [dict(r.response) for r in responses] == [{"forecast": "redacted"}]
    assert final_texts(events) == ["Redacted, sorry."]


async def test_undeclared_callback_is_refused(client: agentsvc.Client, model: FakeGemini) -> None:
    uid = user_id()
    session = await client.create_session("guarded", uid)
    inv = client.connect("guarded", uid, session.id, "Hi", tools=[get_weather], callbacks=[redact_result])
    with pytest.raises(agentsvc.FailedPreconditionError, match="guard_input"):
        await bounded(inv.collect())
    stored = await client.get_session("guarded", uid, session.id)
    assert len(stored.events) == 0


async def test_tool_saves_an_artifact(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.script(calls(("get_weather", {"city": "Paris"})), text("The report is saved."))

    @agentsvc.tool
    def get_weather(city: str, tool_context: agentsvc.ToolContext) -> dict[str, Any]:
        """Returns the current weather in a city and saves a report."""
        tool_context.save_artifact("report.txt", f"Sunny in {city}.")
        tool_context.save_artifact("user:chart.png", b"\x89PNG\r\n", mime_type="image/png")
        return {"city": city, "weather": "sunny"}

    uid = user_id()
    session = await client.create_session("weather", uid)
    events = await bounded(client.connect("weather", uid, session.id, "Paris?", tools=[get_weather]).collect())

    call_event, response_event, answer = events
    assert agentsvc.function_responses(response_event)
    assert dict(response_event.actions.artifact_delta) == {"report.txt": 0, "user:chart.png": 0}
    assert not call_event.actions.artifact_delta and not answer.actions.artifact_delta
    stored = await client.get_session("weather", uid, session.id)
    assert dict(stored.events[2].actions.artifact_delta) == {"report.txt": 0, "user:chart.png": 0}

    assert await client.list_artifacts("weather", uid, session.id) == ["report.txt", "user:chart.png"]
    assert await client.load_artifact("weather", uid, session.id, "report.txt") == agentsvc.Part(text="Sunny in Paris.")
    chart = await client.load_artifact("weather", uid, session.id, "user:chart.png")
    assert chart is not None
    assert (chart.inline_data.mime_type, chart.inline_data.data) == ("image/png", b"\x89PNG\r\n")

    # A second call saves the next version.
    await model.script(calls(("get_weather", {"city": "Rome"})), text("Saved again."))
    events = await bounded(client.connect("weather", uid, session.id, "Rome?", tools=[get_weather]).collect())
    assert dict(events[1].actions.artifact_delta) == {"report.txt": 1, "user:chart.png": 1}
    assert await client.list_artifact_versions("weather", uid, session.id, "report.txt") == [0, 1]
    assert await client.load_artifact("weather", uid, session.id, "report.txt") == agentsvc.Part(text="Sunny in Rome.")


async def test_a_tool_error_keeps_the_files_saved_before(client: agentsvc.Client, model: FakeGemini) -> None:
    await model.script(calls(("get_weather", {"city": "Atlantis"})), text("No weather for Atlantis."))

    @agentsvc.tool
    def get_weather(city: str, tool_context: agentsvc.ToolContext) -> dict[str, Any]:
        """Current weather."""
        tool_context.save_artifact("attempt.txt", f"looked up {city}")
        raise LookupError(f"unknown city {city}")

    uid = user_id()
    session = await client.create_session("weather", uid)
    events = await bounded(client.connect("weather", uid, session.id, "Atlantis?", tools=[get_weather]).collect())
    (response,) = agentsvc.function_responses(events[1])
    assert agentsvc.response_of(response) == {"error": "LookupError: unknown city Atlantis"}
    assert dict(events[1].actions.artifact_delta) == {"attempt.txt": 0}
    assert await client.load_artifact("weather", uid, session.id, "attempt.txt") == agentsvc.Part(text="looked up Atlantis")


async def test_artifact_round_trip(client: agentsvc.Client, model: FakeGemini) -> None:
    uid = user_id()
    session = await client.create_session("echo", uid)
    sid = session.id

    v0 = await client.save_artifact("echo", uid, sid, "notes.txt", "first")
    assert v0.version == 0 and v0.mime_type == "text/plain"
    assert v0.canonical_uri and v0.create_time > time.time() - 300
    v1 = await client.save_artifact("echo", uid, sid, "notes.txt", b"%PDF-1.7", mime_type="application/pdf",
                                    custom_metadata={"pages": 3, "source": "scan"})
    assert v1.version == 1 and v1.mime_type == "application/pdf"
    assert json_format.MessageToDict(v1.custom_metadata) == {"pages": 3, "source": "scan"}
    v2 = await client.save_artifact("echo", uid, sid, "notes.txt",
                                    agentsvc.Part(inline_data={"mime_type": "text/csv", "data": b"a,b\n"}))
    assert v2.version == 2 and v2.mime_type == "text/csv"

    assert await client.list_artifacts("echo", uid, sid) == ["notes.txt"]
    latest = await client.load_artifact("echo", uid, sid, "notes.txt")
    assert latest is not None and latest.inline_data.data == b"a,b\n"
    assert await client.load_artifact("echo", uid, sid, "notes.txt", version=0) == agentsvc.Part(text="first")
    pdf = await client.load_artifact("echo", uid, sid, "notes.txt", version=1)
    assert pdf is not None and pdf.inline_data.data == b"%PDF-1.7"
    assert await client.list_artifact_versions("echo", uid, sid, "notes.txt") == [0, 1, 2]
    metadata = await client.list_artifact_versions_metadata("echo", uid, sid, "notes.txt")
    assert [(m.version, m.mime_type) for m in metadata] == [(0, "text/plain"), (1, "application/pdf"), (2, "text/csv")]
    got = await client.get_artifact_version("echo", uid, sid, "notes.txt", 1)
    assert got is not None and got.version == 1 and got.custom_metadata["source"] == "scan"
    assert got.canonical_uri == v1.canonical_uri

    # Missing artifacts and versions are None, as in ADK.
    assert await client.load_artifact("echo", uid, sid, "notes.txt", version=7) is None
    assert await client.load_artifact("echo", uid, sid, "nothing.txt") is None
    assert await client.get_artifact_version("echo", uid, sid, "notes.txt", 7) is None
    assert await client.list_artifact_versions("echo", uid, sid, "nothing.txt") == []

    await client.delete_artifact("echo", uid, sid, "notes.txt")
    assert await client.list_artifacts("echo", uid, sid) == []
    assert await client.load_artifact("echo", uid, sid, "notes.txt") is None
    await client.delete_artifact("echo", uid, sid, "notes.txt")

    # The service's refusals are errors.
    with pytest.raises(agentsvc.InvalidArgumentError) as invalid:
        await client.save_artifact("echo", uid, sid, "../escape.txt", "x")
    assert "parent traversal" in invalid.value.message
    with pytest.raises(agentsvc.InvalidArgumentError):
        await client.load_artifact("echo", uid, sid, "notes.txt", version=-1)
    with pytest.raises(agentsvc.NotFoundError):
        await client.load_artifact("no_such_app", uid, sid, "notes.txt")


async def test_user_artifacts_are_seen_from_other_sessions(client: agentsvc.Client, model: FakeGemini) -> None:
    uid = user_id()
    first = await client.create_session("echo", uid)
    second = await client.create_session("echo", uid)
    await client.save_artifact("echo", uid, first.id, "user:profile.json", b'{"unit": "C"}', mime_type="application/json")
    await client.save_artifact("echo", uid, first.id, "draft.txt", "only in the first session")

    assert await client.list_artifacts("echo", uid, first.id) == ["draft.txt", "user:profile.json"]
    assert await client.list_artifacts("echo", uid, second.id) == ["user:profile.json"]
    profile = await client.load_artifact("echo", uid, second.id, "user:profile.json")
    assert profile is not None and profile.inline_data.data == b'{"unit": "C"}'
    assert await client.load_artifact("echo", uid, second.id, "draft.txt") is None

    # Another user sees neither.
    assert await client.list_artifacts("echo", user_id(), second.id) == []


async def test_callback_saves_an_artifact(client: agentsvc.Client, model: FakeGemini) -> None:
    @agentsvc.callback
    def guard_input(ctx: agentsvc.CallbackContext, llm_request: agentsvc.LlmRequest) -> str | None:
        """Blocks every question and keeps a note of it."""
        ctx.save_artifact("blocked.txt", agentsvc.last_user_text(llm_request))
        return "Blocked."

    uid = user_id()
    session = await client.create_session("guarded", uid)
    inv = client.connect("guarded", uid, session.id, "A forbidden question.",
                         tools=[get_weather], callbacks=[guard_input, redact_result])
    events = await bounded(inv.collect())

    assert final_texts(events) == ["Blocked."]
    (answer,) = events
    assert dict(answer.actions.artifact_delta) == {"blocked.txt": 0}
    note = await client.load_artifact("guarded", uid, session.id, "blocked.txt")
    assert note == agentsvc.Part(text="A forbidden question.")
