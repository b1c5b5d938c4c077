"""Unit tests of tools declared from Python functions."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any, Literal

import pytest
from google.protobuf import json_format

import agentsvc
from agentsvc.tools import ToolContext


def _context(**state: Any) -> ToolContext:
    return ToolContext(call_id="adk-1", invocation_id="e-1", agent_name="a", function_name="f", state=state)


@dataclasses.dataclass
class Place:
    city: str
    country: str = "FR"


def test_bare_decorator_derives_name_description_and_schema() -> None:
    @agentsvc.tool
    async def get_weather(city: str, unit: Literal["C", "F"] = "C") -> dict[str, Any]:
        """Returns the current weather in a city.

        More details that the model does not need.
        """
        return {"city": city, "unit": unit}

    assert get_weather.name == "get_weather"
    assert get_weather.description == "Returns the current weather in a city."
    decl = json_format.MessageToDict(get_weather.declaration())
    assert decl == {
        "name": "get_weather",
        "description": "Returns the current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["C", "F"]}},
            "required": ["city"],
        },
    }


def test_options_pass_through_to_the_declaration() -> None:
    @agentsvc.tool(
        name="ask_approval",
        description="Asks a human.",
        long_running=True,
        require_confirmation=True,
        response={"type": "object"},
    )
    def approve(amount: float) -> None:
        return None

    decl = approve.declaration()
    assert decl.name == "ask_approval"
    assert decl.description == "Asks a human."
    assert decl.long_running and decl.require_confirmation
    assert json_format.MessageToDict(decl.response) == {"type": "object"}


def test_explicit_parameters_replace_the_derived_schema() -> None:
    params = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    t = agentsvc.Tool(lambda **kw: kw, name="search", parameters=params)
    assert t.parameters == params


def test_lambda_needs_a_name() -> None:
    with pytest.raises(ValueError, match="name"):
        agentsvc.Tool(lambda: None)


def test_decorated_function_stays_callable() -> None:
    @agentsvc.tool
    def add(a: int, b: int) -> int:
        """Adds."""
        return a + b

    assert add(1, 2) == 3
    assert add.__name__ == "add"


def test_context_parameter_is_not_declared() -> None:
    @agentsvc.tool
    def by_annotation(city: str, ctx: ToolContext) -> str:
        return city

    @agentsvc.tool
    def by_name(city: str, tool_context) -> str:  # type: ignore[no-untyped-def]
        return city

    @agentsvc.tool
    def by_optional(city: str, ctx: ToolContext | None = None) -> str:
        return city

    for t in (by_annotation, by_name, by_optional):
        assert t.parameters == {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


async def test_async_tool_gets_coerced_arguments_and_drops_unknown_ones() -> None:
    seen: dict[str, Any] = {}

    @agentsvc.tool
    async def plan(days: int, place: Place, tags: list[str] | None = None) -> str:
        seen.update(days=days, place=place, tags=tags)
        return "ok"

    got = await plan.run({"days": 3.0, "place": {"city": "Oslo"}, "unexpected": 1}, _context())
    assert got == "ok"
    assert seen == {"days": 3, "place": Place("Oslo"), "tags": None}
    assert type(seen["days"]) is int


async def test_sync_tool_runs_in_a_worker_thread() -> None:
    main = threading.get_ident()

    @agentsvc.tool
    def where() -> int:
        return threading.get_ident()

    assert await where.run({}, _context()) != main


async def test_context_reaches_the_tool_and_collects_state() -> None:
    @agentsvc.tool
    def remember(city: str, tool_context: ToolContext) -> dict[str, Any]:
        tool_context.state_delta["last_city"] = city
        return {"user": tool_context.state["user"], "call": tool_context.call_id}

    ctx = _context(user="alice")
    assert await remember.run({"city": "Rome"}, ctx) == {"user": "alice", "call": "adk-1"}
    assert ctx.state_delta == {"last_city": "Rome"}


async def test_optional_context_reaches_the_tool() -> None:
    @agentsvc.tool
    def who(ctx: ToolContext | None = None) -> str:
        assert ctx is not None
        return ctx.agent_name

    assert await who.run({}, _context()) == "a"


async def test_kwargs_tool_receives_every_argument() -> None:
    @agentsvc.tool
    async def echo(**kwargs: Any) -> dict[str, Any]:
        return kwargs

    assert await echo.run({"a": 1, "b": "x"}, _context()) == {"a": 1, "b": "x"}


async def test_callable_object_with_async_call() -> None:
    class Lookup:
        __name__ = "lookup"

        async def __call__(self, key: str) -> str:
            return key.upper()

    t = agentsvc.Tool(Lookup())
    assert await t.run({"key": "a"}, _context()) == "A"
