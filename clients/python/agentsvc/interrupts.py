"""Reading a workflow's requests for user input from its events, and
answering them, as ADK's ``google.adk.workflow.utils._workflow_hitl_utils``.

A paused workflow's event carries an ``adk_request_input`` function call per
:class:`~agentsvc.RequestInput` (its id and its ``interruptId`` argument are
the interrupt id), or an ``adk_request_credential`` call when a node needs
credentials. The next run on the session resumes it with a user message
holding the answers::

    ids = agentsvc.get_request_input_interrupt_ids(event)
    message = agentsvc.request_input_message(ids[0], {"approved": True})
    async for event in client.connect(app, user, session_id, message, nodes=[...]):
        ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentsvc._values import to_struct
from agentsvc.v1 import content_pb2, event_pb2

__all__ = [
    "REQUEST_CREDENTIAL_FUNCTION_CALL_NAME",
    "REQUEST_INPUT_FUNCTION_CALL_NAME",
    "create_request_input_response",
    "get_request_input_interrupt_ids",
    "has_auth_request_function_call",
    "has_request_input_function_call",
    "request_input_message",
]

#: The function call name of a workflow node's request for user input.
REQUEST_INPUT_FUNCTION_CALL_NAME = "adk_request_input"
#: The function call name of a workflow node's request for credentials.
REQUEST_CREDENTIAL_FUNCTION_CALL_NAME = "adk_request_credential"

# The argument of an adk_request_input call that holds its interrupt id.
_INTERRUPT_ID_ARG = "interruptId"


def _calls_named(event: event_pb2.Event, name: str) -> list[content_pb2.FunctionCall]:
    return [p.function_call for p in event.content.parts if p.HasField("function_call") and p.function_call.name == name]


def has_request_input_function_call(event: event_pb2.Event) -> bool:
    """Reports whether the event asks the user for input
    (an ``adk_request_input`` function call)."""
    return bool(_calls_named(event, REQUEST_INPUT_FUNCTION_CALL_NAME))


def has_auth_request_function_call(event: event_pb2.Event) -> bool:
    """Reports whether the event asks the user for credentials
    (an ``adk_request_credential`` function call)."""
    return bool(_calls_named(event, REQUEST_CREDENTIAL_FUNCTION_CALL_NAME))


def get_request_input_interrupt_ids(event: event_pb2.Event) -> list[str]:
    """Returns the interrupt ids of the event's ``adk_request_input`` calls,
    in order: each call's ``interruptId`` argument, or else its id."""
    ids: list[str] = []
    for call in _calls_named(event, REQUEST_INPUT_FUNCTION_CALL_NAME):
        arg = call.args.fields.get(_INTERRUPT_ID_ARG)
        interrupt_id = arg.string_value if arg is not None and arg.WhichOneof("kind") == "string_value" else ""
        interrupt_id = interrupt_id or call.id
        if interrupt_id:
            ids.append(interrupt_id)
    return ids


def create_request_input_response(interrupt_id: str, response: Mapping[str, Any]) -> content_pb2.Part:
    """Returns the part that answers the request ``interrupt_id``: an
    ``adk_request_input`` function response holding ``response`` (a JSON
    object; wrap other values in one)."""
    return content_pb2.Part(
        function_response=content_pb2.FunctionResponse(
            id=interrupt_id, name=REQUEST_INPUT_FUNCTION_CALL_NAME, response=to_struct(response)
        )
    )


def request_input_message(interrupt_id: str, response: Mapping[str, Any]) -> content_pb2.Content:
    """Returns the user message that resumes a paused workflow by answering
    the request ``interrupt_id`` with ``response``."""
    return content_pb2.Content(role="user", parts=[create_request_input_response(interrupt_id, response)])
