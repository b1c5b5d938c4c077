"""Helpers to read :class:`~agentsvc.Event` messages the way ADK code does."""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format

from agentsvc._values import from_struct
from agentsvc.v1 import content_pb2, event_pb2

__all__ = ["args_of", "event_text", "function_calls", "function_responses", "is_final_response", "response_of", "to_dict"]


def event_text(event: event_pb2.Event) -> str:
    """Returns the concatenated text parts of the event, thoughts excluded."""
    return "".join(p.text for p in event.content.parts if p.text and not p.thought)


def function_calls(event: event_pb2.Event) -> list[content_pb2.FunctionCall]:
    """Returns the function calls of the event, in order."""
    return [p.function_call for p in event.content.parts if p.HasField("function_call")]


def function_responses(event: event_pb2.Event) -> list[content_pb2.FunctionResponse]:
    """Returns the function responses of the event, in order."""
    return [p.function_response for p in event.content.parts if p.HasField("function_response")]


def is_final_response(event: event_pb2.Event) -> bool:
    """Reports whether the event is an agent's final answer of its turn, as
    ADK's ``Event.is_final_response()``: no function calls or responses, not
    partial, not ending in a code execution result; or a response that skips
    summarization, or one with long-running calls."""
    if event.actions.skip_summarization or event.long_running_tool_ids:
        return True
    parts = event.content.parts
    return (
        not function_calls(event)
        and not function_responses(event)
        and not event.partial
        and not (parts and parts[-1].HasField("code_execution_result"))
    )


def args_of(call: content_pb2.FunctionCall) -> dict[str, Any]:
    """Returns a function call's arguments as plain Python values."""
    return from_struct(call.args)


def response_of(response: content_pb2.FunctionResponse) -> dict[str, Any]:
    """Returns a function response's result object as plain Python values."""
    return from_struct(response.response)


def to_dict(event: event_pb2.Event) -> dict[str, Any]:
    """Returns the event as ADK's API server serialises it (camelCase JSON)."""
    return json_format.MessageToDict(event)
