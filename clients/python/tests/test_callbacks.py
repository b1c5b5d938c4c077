"""Callbacks answer the service's callback calls by kind."""

from __future__ import annotations

from typing import Any

import pytest
from google.protobuf import struct_pb2

import agentsvc
from agentsvc.v1 import content_pb2, llm_pb2, runner_service_pb2 as rs


def call(kind: rs.CallbackKind, **fields: Any) -> rs.CallbackCall:
    c = rs.CallbackCall(call_id="cb-1", name="cb", kind=kind, invocation_id="e-1", agent_name="a", **fields)
    return c


def struct(d: dict[str, Any]) -> struct_pb2.Struct:
    s = struct_pb2.Struct()
    s.update(d)
    return s


async def test_none_is_no_override() -> None:
    cb = agentsvc.Callback(lambda ctx, req: None, name="noop")
    result = await cb.run(call(rs.CALLBACK_KIND_BEFORE_MODEL), {})
    assert result.call_id == "cb-1" and result.WhichOneof("override") is None and not result.error


async def test_text_answers_each_kind() -> None:
    def answer(*args: Any) -> str:
        return "Hi."
    cb = agentsvc.Callback(answer)
    for kind in (rs.CALLBACK_KIND_BEFORE_AGENT, rs.CALLBACK_KIND_AFTER_AGENT):
        result = await cb.run(call(kind), {})
        assert result.content.parts[0].text == "Hi." and result.content.role == "model"
    for kind in (rs.CALLBACK_KIND_BEFORE_MODEL, rs.CALLBACK_KIND_AFTER_MODEL, rs.CALLBACK_KIND_ON_MODEL_ERROR):
        result = await cb.run(call(kind), {})
        assert result.llm_response.content.parts[0].text == "Hi."


async def test_before_model_may_return_a_request() -> None:
    @agentsvc.callback
    async def edit(ctx: agentsvc.CallbackContext, req: llm_pb2.LlmRequest) -> llm_pb2.LlmRequest:
        req.config.system_instruction = "Be terse."
        return req
    result = await edit.run(call(rs.CALLBACK_KIND_BEFORE_MODEL, llm_request=llm_pb2.LlmRequest(model="m")), {})
    assert result.llm_request.config.system_instruction == "Be terse." and result.llm_request.model == "m"


async def test_tool_kinds_see_args_response_and_error() -> None:
    seen: list[Any] = []

    @agentsvc.callback(name="tools_cb")
    def record(ctx: agentsvc.CallbackContext, args: dict[str, Any], extra: Any = None) -> dict[str, Any]:
        seen.append((ctx.kind, ctx.tool_name, ctx.function_call_id, args, extra, dict(ctx.state)))
        ctx.state_delta["n"] = len(seen)
        return {"ok": True}
    fc = content_pb2.FunctionCall(id="adk-1", name="get_weather", args=struct({"city": "Paris"}))
    r1 = await record.run(call(rs.CALLBACK_KIND_BEFORE_TOOL, tool_call=fc), {"k": 1})
    r2 = await record.run(call(rs.CALLBACK_KIND_AFTER_TOOL, tool_call=fc, tool_response=struct({"sky": "blue"})), {})
    r3 = await record.run(call(rs.CALLBACK_KIND_ON_TOOL_ERROR, tool_call=fc, error="boom"), {})
    assert seen == [
        ("before_tool", "get_weather", "adk-1", {"city": "Paris"}, None, {"k": 1}),
        ("after_tool", "get_weather", "adk-1", {"city": "Paris"}, {"sky": "blue"}, {}),
        ("on_tool_error", "get_weather", "adk-1", {"city": "Paris"}, "boom", {}),
    ]
    assert [dict(r.tool_response) for r in (r1, r2, r3)] == [{"ok": True}] * 3
    assert [dict(r.state_delta) for r in (r1, r2, r3)] == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert record.name == "tools_cb"


async def test_exception_and_wrong_type_become_errors() -> None:
    def boom(ctx: agentsvc.CallbackContext) -> None:
        raise KeyError("city")
    result = await agentsvc.Callback(boom).run(call(rs.CALLBACK_KIND_BEFORE_AGENT), {})
    assert result.error == "KeyError: 'city'"
    wrong = agentsvc.Callback(lambda ctx, args: "text", name="wrong")
    result = await wrong.run(call(rs.CALLBACK_KIND_BEFORE_TOOL), {})
    assert result.error.startswith("TypeError: the before_tool callback wrong returned a str")
    assert "wrong" in result.error


def test_names_must_be_identifiers() -> None:
    with pytest.raises(ValueError):
        agentsvc.Callback(lambda ctx: None, name="my-callback")
