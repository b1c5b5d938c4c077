"""Unit tests of workflow function nodes answered on Connect, RequestInput
and the request-input helpers."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pydantic
import pytest
from google.protobuf import json_format, struct_pb2

import agentsvc
from agentsvc._values import from_struct, from_value, to_struct, to_value
from agentsvc.v1 import content_pb2, event_pb2, runner_service_pb2
from tests.fakeserver import FakeServer

USER_INPUT = {"parts": [{"text": "Order #42"}], "role": "user"}


def node_call(name: str, node_input: Any = None, *, call_id: str = "n-1", state: dict[str, Any] | None = None,
              attempt: int = 1, resume_inputs: dict[str, Any] | None = None) -> runner_service_pb2.NodeCall:
    call = runner_service_pb2.NodeCall(
        call_id=call_id, name=name, invocation_id="e-1", workflow="approvals", node_name=name,
        node_path=f"approvals@1/{name}@1", attempt=attempt,
        state=to_struct(state or {}), resume_inputs=to_struct(resume_inputs or {}))
    if node_input is not None:
        call.node_input.CopyFrom(to_value(node_input))
    return call


async def answer(fake: FakeServer, client: agentsvc.Client, nodes: list[Any],
                 *calls: runner_service_pb2.NodeCall) -> tuple[runner_service_pb2.StartRun,
                                                                dict[str, runner_service_pb2.NodeResult]]:
    """Runs a Connect stream that sends ``calls`` one by one and returns the
    start message and the results by call id."""
    starts: list[runner_service_pb2.StartRun] = []
    results: dict[str, runner_service_pb2.NodeResult] = {}

    async def connect(requests: AsyncIterator[runner_service_pb2.ConnectRequest],
                      context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        starts.append((await anext(requests)).start)
        for call in calls:
            yield runner_service_pb2.ConnectResponse(node_call=call)
            msg = await anext(requests)
            assert msg.WhichOneof("kind") == "node_result"
            results[msg.node_result.call_id] = msg.node_result
        yield runner_service_pb2.ConnectResponse(done=runner_service_pb2.RunDone(invocation_id="e-1"))

    fake.connect = connect
    inv = client.connect("approvals", "u", "s", "Order #42", nodes=nodes)
    assert await inv.collect() == []
    assert inv.completed
    return starts[0], results


async def test_node_output_state_delta_and_route(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    seen: dict[str, Any] = {}

    @agentsvc.node
    def prepare(node_input: dict[str, Any], ctx: agentsvc.NodeContext) -> dict[str, Any]:
        ctx.state["prepared"] = True
        ctx.actions.state_delta["count"] = ctx.state["count"] + 1
        seen.update(path=ctx.node_path, workflow=ctx.workflow, name=ctx.node_name, invocation=ctx.invocation_id,
                    attempt=ctx.attempt, prepared=ctx.state["prepared"], count=ctx.state.get("count"),
                    keys=sorted(ctx.state))
        ctx.route = "big"
        return {"order": node_input["parts"][0]["text"]}

    @agentsvc.node(name="route_many")
    async def routes(node_input: Any, ctx: agentsvc.NodeContext) -> None:
        ctx.route = [True, 2, "x"]

    start, results = await answer(fake, fake_client, [prepare, routes],
                                  node_call("prepare", USER_INPUT, state={"count": 1}),
                                  node_call("route_many", call_id="n-2"))
    assert [n.name for n in start.nodes] == ["prepare", "route_many"]
    r = results["n-1"]
    assert not r.HasField("error")
    assert from_value(r.output) == {"order": "Order #42"}
    assert from_struct(r.state_delta) == {"prepared": True, "count": 2}
    assert from_value(r.route) == "big"
    assert seen == {"path": "approvals@1/prepare@1", "workflow": "approvals", "name": "prepare",
                    "invocation": "e-1", "attempt": 1, "prepared": True, "count": 2,
                    "keys": ["count", "prepared"]}
    r2 = results["n-2"]
    assert not r2.HasField("output") and not r2.HasField("error") and not r2.state_delta.fields
    assert from_value(r2.route) == [True, 2, "x"]


class Approval(pydantic.BaseModel):
    approved: bool
    comment: str = ""


@dataclasses.dataclass
class Order:
    id: int
    items: list[str]


async def test_request_inputs_and_schema_conversions(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    schema = {"type": "object", "properties": {"approved": {"type": "boolean"}}, "required": ["approved"]}

    @agentsvc.node
    def gate(node_input: Any) -> agentsvc.RequestInput:
        return agentsvc.RequestInput(message="Approve the order?", payload=node_input, response_schema=schema,
                                     interrupt_id="gate-1")

    @agentsvc.node
    async def typed(node_input: Any) -> list[agentsvc.RequestInput]:
        return [agentsvc.RequestInput(response_schema=Approval, interrupt_id="a"),
                agentsvc.RequestInput(response_schema=list[str], interrupt_id="b")]

    @agentsvc.node
    def gen(node_input: Any, ctx: agentsvc.NodeContext) -> Iterator[Any]:
        ctx.state["asked"] = True
        yield {"partial": 1}
        yield agentsvc.RequestInput(message="More?")
        yield None
        yield {"final": 2}

    @agentsvc.node
    async def agen(node_input: Any) -> AsyncIterator[Any]:
        yield agentsvc.RequestInput(interrupt_id="c", response_schema=Order)
        yield agentsvc.RequestInput(interrupt_id="d")

    _, results = await answer(fake, fake_client, [gate, typed, gen, agen],
                              node_call("gate", {"order": "Order #42"}),
                              node_call("typed", call_id="n-2"), node_call("gen", call_id="n-3"),
                              node_call("agen", call_id="n-4"))
    r = results["n-1"]
    assert not r.HasField("output") and not r.HasField("error")
    [req] = r.request_inputs
    assert req.interrupt_id == "gate-1" and req.message == "Approve the order?"
    assert from_value(req.payload) == {"order": "Order #42"}
    assert from_value(req.response_schema) == schema

    a, b = results["n-2"].request_inputs
    assert from_value(a.response_schema) == pydantic.TypeAdapter(Approval).json_schema()
    assert from_value(a.response_schema)["required"] == ["approved"]
    assert from_value(b.response_schema) == {"type": "array", "items": {"type": "string"}}
    assert not a.HasField("payload") and a.message == ""

    r3 = results["n-3"]
    assert from_value(r3.output) == {"final": 2}
    [more] = r3.request_inputs
    assert more.message == "More?" and len(more.interrupt_id) == 36  # a uuid4
    assert from_struct(r3.state_delta) == {"asked": True}

    c, d = results["n-4"].request_inputs
    assert (c.interrupt_id, d.interrupt_id) == ("c", "d")
    assert from_value(c.response_schema)["properties"]["items"] == {
        "items": {"type": "string"}, "title": "Items", "type": "array"}
    assert not d.HasField("response_schema")


def test_schema_without_pydantic_uses_type_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_pydantic(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pydantic":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pydantic)
    msg = agentsvc.RequestInput(response_schema=list[str], interrupt_id="x").to_proto()
    assert from_value(msg.response_schema) == {"type": "array", "items": {"type": "string"}}


class FlakyError(Exception):
    pass


async def test_exceptions_become_node_errors(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    @agentsvc.node
    def flaky(node_input: Any, ctx: agentsvc.NodeContext) -> Any:
        ctx.state["tried"] = ctx.attempt
        if ctx.attempt == 1:
            raise ValueError("first attempt fails")
        return node_input

    @agentsvc.node
    async def custom(node_input: Any) -> None:
        raise FlakyError()

    @agentsvc.node
    def not_json(node_input: Any) -> Any:
        return object()

    @agentsvc.node
    def mixed(node_input: Any) -> Any:
        return [agentsvc.RequestInput(), {"a": 1}]

    @agentsvc.node
    def needs_state(node_input: Any, missing: int) -> None:
        pass

    _, results = await answer(fake, fake_client, [flaky, custom, not_json, mixed, needs_state],
                              node_call("flaky", {"order": "x"}),
                              node_call("flaky", {"order": "x"}, call_id="n-2", attempt=2),
                              node_call("custom", call_id="n-3"), node_call("not_json", call_id="n-4"),
                              node_call("mixed", call_id="n-5"), node_call("needs_state", call_id="n-6"))
    r = results["n-1"]
    assert (r.error.type, r.error.message) == ("ValueError", "first attempt fails")
    assert not r.HasField("output")
    assert from_struct(r.state_delta) == {"tried": 1}
    r2 = results["n-2"]
    assert not r2.HasField("error") and from_value(r2.output) == {"order": "x"}
    assert (results["n-3"].error.type, results["n-3"].error.message) == ("FlakyError", "")
    assert results["n-4"].error.type == "TypeError"
    assert results["n-5"].error.type == "TypeError"
    assert results["n-6"].error.type == "WorkflowDataError"
    assert '"missing"' in results["n-6"].error.message


async def test_unknown_node_is_answered_with_an_error(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    _, results = await answer(fake, fake_client, [], node_call("unknown"))
    assert results["n-1"].error.type == "LookupError"
    assert results["n-1"].error.message == "Node 'unknown' is not declared by this client."


async def test_parameters_bound_by_name(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    @agentsvc.node
    def text(node_input: str, tier: str, limit: int = 3, *, context: Any = None) -> str:
        return f"{node_input}|{tier}|{limit}|{context}"

    @agentsvc.node
    def model(node_input: Approval, ctx: agentsvc.NodeContext) -> Approval:
        assert ctx.resume_inputs == {"gate-1": {"approved": True}}
        return node_input.model_copy(update={"comment": "ok"})

    @agentsvc.node
    def nothing() -> None:
        return None

    @agentsvc.node
    def optional_text(node_input: str | None) -> str | None:
        return node_input

    _, results = await answer(fake, fake_client, [text, model, nothing, optional_text],
                              node_call("text", USER_INPUT, state={"tier": "gold"}),
                              node_call("model", {"approved": True}, call_id="n-2",
                                        resume_inputs={"gate-1": {"approved": True}}),
                              node_call("nothing", call_id="n-3"),
                              node_call("optional_text", {"role": "user", "parts": [
                                  {"text": "a"}, {"text": "hidden", "thought": True}, {"text": "b"}]}, call_id="n-4"))
    assert from_value(results["n-1"].output) == "Order #42|gold|3|None"
    assert from_value(results["n-2"].output) == {"approved": True, "comment": "ok"}
    r3 = results["n-3"]
    assert not r3.HasField("output") and not r3.HasField("error") and not r3.request_inputs
    assert from_value(results["n-4"].output) == "ab"


def test_node_decorator_and_names() -> None:
    @agentsvc.node
    def a(node_input: Any) -> int:
        return 1

    @agentsvc.node(name="bee")
    def b(node_input: Any) -> int:
        return 2

    assert (a.name, b.name, a(None), b(None)) == ("a", "bee", 1, 2)
    assert b.declaration() == runner_service_pb2.NodeDeclaration(name="bee")
    with pytest.raises(ValueError, match="needs a name"):
        agentsvc.Node(lambda node_input: None)


def test_duplicate_node_names_are_rejected(fake_client: agentsvc.Client) -> None:
    def f(node_input: Any) -> None:
        pass

    with pytest.raises(ValueError, match="node names must be unique"):
        fake_client.connect("a", "u", "s", "hi", nodes=[f, agentsvc.node(name="f")(f)])


def _interrupt_event() -> event_pb2.Event:
    event = event_pb2.Event(author="approvals", long_running_tool_ids=["i-1", "i-2"])
    json_format.ParseDict({"role": "model", "parts": [
        {"text": "ignored"},
        {"functionCall": {"id": "i-1", "name": "adk_request_input",
                          "args": {"interruptId": "i-1", "message": "Approve?"}}},
        {"functionCall": {"id": "i-2", "name": "adk_request_input", "args": {"message": "no id arg"}}},
        {"functionCall": {"id": "t-1", "name": "get_weather", "args": {}}},
    ]}, event.content)
    return event


def test_request_input_helpers() -> None:
    assert agentsvc.REQUEST_INPUT_FUNCTION_CALL_NAME == "adk_request_input"
    assert agentsvc.REQUEST_CREDENTIAL_FUNCTION_CALL_NAME == "adk_request_credential"
    event = _interrupt_event()
    assert agentsvc.has_request_input_function_call(event)
    assert not agentsvc.has_auth_request_function_call(event)
    assert agentsvc.get_request_input_interrupt_ids(event) == ["i-1", "i-2"]

    auth = event_pb2.Event()
    auth.content.parts.add().function_call.CopyFrom(content_pb2.FunctionCall(id="c", name="adk_request_credential"))
    assert agentsvc.has_auth_request_function_call(auth)
    assert not agentsvc.has_request_input_function_call(auth)
    assert agentsvc.get_request_input_interrupt_ids(auth) == []
    assert agentsvc.get_request_input_interrupt_ids(event_pb2.Event()) == []

    part = agentsvc.create_request_input_response("i-1", {"approved": True})
    assert part.function_response.id == "i-1" and part.function_response.name == "adk_request_input"
    assert from_struct(part.function_response.response) == {"approved": True}
    message = agentsvc.request_input_message("i-1", {"approved": True})
    assert message.role == "user" and list(message.parts) == [part]


def test_node_state_view() -> None:
    delta: dict[str, Any] = {}
    state = agentsvc.NodeState({"a": 1, "b": 2}, delta)
    state["b"] = 3
    state.update({"c": 4})
    assert dict(state) == {"a": 1, "b": 3, "c": 4} and len(state) == 3
    assert delta == {"b": 3, "c": 4}
    assert "c" in state and state.get("z") is None


def test_value_kinds_of_unset_fields() -> None:
    # An unset output means "returned nothing", distinct from JSON null.
    r = runner_service_pb2.NodeResult(output=struct_pb2.Value(null_value=struct_pb2.NULL_VALUE))
    assert r.HasField("output") and not runner_service_pb2.NodeResult().HasField("output")


async def test_run_node_request_and_errors(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    """run_node sends a RunNodeRequest for the call and returns the
    answer's output; a child's failure raises DynamicNodeFailError and a
    refusal the named builtin exception."""
    requests: list[runner_service_pb2.RunNodeRequest] = []
    seen: dict[str, Any] = {}

    @agentsvc.node(dynamic=True)
    def double(node_input: int) -> int:
        return node_input * 2

    @agentsvc.node(session_events=True)
    async def plan(ctx: agentsvc.NodeContext) -> Any:
        seen["value"] = await ctx.run_node(double, node_input=3, use_as_output=True, run_id="r")
        seen["none"] = await ctx.run_node("shout")
        for _ in range(2):
            try:
                await ctx.run_node(double)
            except Exception as exc:  # noqa: BLE001 - the test records the class
                seen.setdefault("errors", []).append(exc)
        seen["session"] = (ctx.session.id, ctx.session.user_id, [e.id for e in ctx.session.events],
                           dict(ctx.session.state))
        return "done"

    answers = [
        runner_service_pb2.RunNodeResponse(node_path="p/double@r", output=to_value(6)),
        runner_service_pb2.RunNodeResponse(node_path="p/shout@1"),
        runner_service_pb2.RunNodeResponse(
            node_path="p/double@2", error=runner_service_pb2.NodeError(type="DynamicNodeFailError", message="Dynamic node double failed"),
            cause=runner_service_pb2.NodeError(type="KeyError", message="'nope'")),
        runner_service_pb2.RunNodeResponse(error=runner_service_pb2.NodeError(type="ValueError", message="A node must have rerun_on_resume=True.")),
    ]
    result: list[runner_service_pb2.NodeResult] = []

    async def connect(reqs: AsyncIterator[runner_service_pb2.ConnectRequest],
                      context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        await anext(reqs)
        call = node_call("plan", state={"k": 1})
        call.session_id, call.user_id = "s", "u"
        call.session_events.add(id="ev-1")
        yield runner_service_pb2.ConnectResponse(node_call=call)
        for a in answers:
            msg = await anext(reqs)
            assert msg.WhichOneof("kind") == "run_node"
            requests.append(msg.run_node)
            a.call_id, a.request_id = msg.run_node.call_id, msg.run_node.request_id
            yield runner_service_pb2.ConnectResponse(run_node_result=a)
        result.append((await anext(reqs)).node_result)
        yield runner_service_pb2.ConnectResponse(done=runner_service_pb2.RunDone(invocation_id="e-1"))

    fake.connect = connect
    inv = fake_client.connect("approvals", "u", "s", "go", nodes=[plan, double])
    assert await inv.collect() == []
    assert [(r.call_id, r.request_id, r.WhichOneof("target"), r.use_as_output, r.run_id) for r in requests] == [
        ("n-1", "1", "function", True, "r"), ("n-1", "2", "node", False, ""),
        ("n-1", "3", "function", False, ""), ("n-1", "4", "function", False, "")]
    assert from_value(requests[0].node_input) == 3 and requests[1].node == "shout"
    assert seen["value"] == 6 and seen["none"] is None
    fail, refused = seen["errors"]
    assert isinstance(fail, agentsvc.DynamicNodeFailError) and str(fail) == "Dynamic node double failed"
    assert fail.error is not None and (fail.error.type, fail.error.message, fail.error_node_path) == ("KeyError", "'nope'", "p/double@2")
    assert type(refused) is ValueError and str(refused) == "A node must have rerun_on_resume=True."
    assert seen["session"] == ("s", "u", ["ev-1"], {"k": 1})
    assert from_value(result[0].output) == "done"


def test_dynamic_and_session_events_declarations() -> None:
    @agentsvc.node(dynamic=True, session_events=True)
    def helper() -> None:
        return None

    assert helper.declaration() == runner_service_pb2.NodeDeclaration(name="helper", dynamic=True, session_events=True)
    assert agentsvc.node(helper.fn).declaration() == runner_service_pb2.NodeDeclaration(name="helper")
