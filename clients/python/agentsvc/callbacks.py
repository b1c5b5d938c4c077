"""Callbacks that live in the caller's process, bound by name to an agent's
``*_callbacks`` entries in its YAML.

Decorate a function, async or not, with :func:`callback`; its name is the
callback name (``my_library.callbacks.guard`` in the YAML binds to ``guard``).
It is called with a :class:`CallbackContext` and what its kind sees:

=================  ==========================================  =============================================
kind               called as                                   may return (``None``: no override)
=================  ==========================================  =============================================
before_agent       ``fn(ctx)``                                 ``Content`` or text: skips the agent
after_agent        ``fn(ctx)``                                 ``Content`` or text: an extra event
before_model       ``fn(ctx, llm_request)``                    ``LlmResponse`` or text: instead of the model;
                                                               ``LlmRequest``: the request to send instead
after_model        ``fn(ctx, llm_response)``                   ``LlmResponse`` or text: replaces the response
on_model_error     ``fn(ctx, llm_request, error)``             ``LlmResponse`` or text: recovers
before_tool        ``fn(ctx, args)``                           a dict: instead of the tool's run
after_tool         ``fn(ctx, args, tool_response)``            a dict: replaces the result
on_tool_error      ``fn(ctx, args, error)``                    a dict: recovers
=================  ==========================================  =============================================

For example::

    @agentsvc.callback
    def guard_input(ctx: agentsvc.CallbackContext, llm_request: agentsvc.LlmRequest) -> str | None:
        if "forbidden" in agentsvc.last_user_text(llm_request):
            ctx.state_delta["guarded"] = True
            return "Blocked."
        return None

Synchronous callbacks run in a worker thread so that several can run at once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import types
from collections.abc import Callable, Mapping
from typing import Any, overload

from agentsvc._values import from_struct, to_struct
from agentsvc.artifacts import ArtifactData, save_to
from agentsvc.v1 import content_pb2, llm_pb2, runner_service_pb2

__all__ = ["Callback", "CallbackContext", "callback", "last_user_text"]

# The kinds' names, by the API's enum value.
_KINDS = {
    runner_service_pb2.CALLBACK_KIND_BEFORE_AGENT: "before_agent",
    runner_service_pb2.CALLBACK_KIND_AFTER_AGENT: "after_agent",
    runner_service_pb2.CALLBACK_KIND_BEFORE_MODEL: "before_model",
    runner_service_pb2.CALLBACK_KIND_AFTER_MODEL: "after_model",
    runner_service_pb2.CALLBACK_KIND_ON_MODEL_ERROR: "on_model_error",
    runner_service_pb2.CALLBACK_KIND_BEFORE_TOOL: "before_tool",
    runner_service_pb2.CALLBACK_KIND_AFTER_TOOL: "after_tool",
    runner_service_pb2.CALLBACK_KIND_ON_TOOL_ERROR: "on_tool_error",
}


@dataclasses.dataclass
class CallbackContext:
    """What a callback knows about its invocation, and the state it may set.

    Attributes:
        kind: When the callback runs, e.g. ``"before_model"``.
        invocation_id: The invocation the callback runs in.
        agent_name: The agent the callback belongs to.
        state: The session state with the step's pending changes
            (read-only copy).
        state_delta: Keys set here are applied to the session state with
            the event that follows, as ``callback_context.state[...] = v``
            in ADK.
        tool_name: The tool's name (tool kinds), else ``""``.
        function_call_id: The call's id (tool kinds), else ``""``.
    """

    kind: str
    invocation_id: str
    agent_name: str
    state: Mapping[str, Any]
    state_delta: dict[str, Any] = dataclasses.field(default_factory=dict)
    tool_name: str = ""
    function_call_id: str = ""
    _artifacts: dict[str, content_pb2.Part] = dataclasses.field(default_factory=dict, init=False, repr=False)

    def save_artifact(self, filename: str, data: ArtifactData, *, mime_type: str | None = None) -> None:
        """Saves a file as an artifact of the session (of the user for a
        name starting ``user:``), as ADK's ``callback_context.save_artifact``.

        ``data`` is bytes, which need ``mime_type`` (stored as inline data);
        text (a text part); or a :class:`~agentsvc.Part` holding inline data
        or text. The file goes to the service with the callback's result,
        which stores it as the artifact's next version and records that
        version in the ``actions.artifact_delta`` of the event that follows
        the callback. So, unlike ADK's, which returns the version at once,
        this returns nothing: read the version from that event, or later
        with :meth:`Client.list_artifact_versions`.

        Saving a name twice in one call keeps the last content (one
        version). A callback that raises fails the run and saves nothing.

        Raises:
            TypeError: ``data`` is None or not bytes, str or a Part.
            ValueError: the name is one the service refuses (empty, rooted,
                with a ``..`` segment...); bytes come without a MIME type;
                the text is empty; or the Part holds neither inline data
                nor text.
        """
        save_to(self._artifacts, filename, data, mime_type)

    @property
    def artifacts(self) -> Mapping[str, content_pb2.Part]:
        """The files saved by :meth:`save_artifact` so far, by name: what
        goes with the callback's result."""
        return types.MappingProxyType(self._artifacts)


class Callback:
    """A Python function offered to agents as a callback. Instances are
    immutable and safe to share between concurrent invocations."""

    def __init__(self, fn: Callable[..., Any], *, name: str | None = None) -> None:
        self.fn = fn
        self.name = name or fn.__name__
        if not self.name.isidentifier():
            raise ValueError(f"callback name {self.name!r} is not an identifier")
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Callback({self.name!r})"

    def declaration(self) -> runner_service_pb2.CallbackDeclaration:
        """The declaration sent when a Connect run starts."""
        return runner_service_pb2.CallbackDeclaration(name=self.name)

    async def run(self, call: runner_service_pb2.CallbackCall, state: Mapping[str, Any]) -> runner_service_pb2.CallbackResult:
        """Runs the callback for one call and returns its result; an
        exception becomes the result's error."""
        kind = _KINDS.get(call.kind, "")
        result = runner_service_pb2.CallbackResult(call_id=call.call_id)
        ctx = CallbackContext(kind=kind, invocation_id=call.invocation_id, agent_name=call.agent_name, state=state,
                              tool_name=call.tool_call.name, function_call_id=call.tool_call.id)
        try:
            args = _arguments(kind, call)
            value = await self._invoke(ctx, *args)
            _set_override(result, kind, value, self.name)
            if ctx.state_delta:
                result.state_delta.CopyFrom(to_struct(ctx.state_delta))
            for name, part in ctx.artifacts.items():
                result.artifacts[name].CopyFrom(part)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            text = str(exc)
            return runner_service_pb2.CallbackResult(
                call_id=call.call_id, error=f"{type(exc).__name__}: {text}" if text else type(exc).__name__)
        return result

    async def _invoke(self, *args: Any) -> Any:
        if inspect.iscoroutinefunction(self.fn):
            return await self.fn(*args)
        value = await asyncio.to_thread(self.fn, *args)
        if inspect.isawaitable(value):
            return await value
        return value


def _arguments(kind: str, call: runner_service_pb2.CallbackCall) -> tuple[Any, ...]:
    """The arguments after the context, by kind."""
    args = from_struct(call.tool_call.args)
    match kind:
        case "before_agent" | "after_agent":
            return ()
        case "before_model":
            return (call.llm_request,)
        case "after_model":
            return (call.llm_response,)
        case "on_model_error":
            return (call.llm_request, call.error)
        case "before_tool":
            return (args,)
        case "after_tool":
            return (args, from_struct(call.tool_response))
        case "on_tool_error":
            return (args, call.error)
    raise ValueError(f"callback call of an unknown kind {call.kind}")


def _text_content(text: str) -> content_pb2.Content:
    return content_pb2.Content(role="model", parts=[content_pb2.Part(text=text)])


def _set_override(result: runner_service_pb2.CallbackResult, kind: str, value: Any, name: str) -> None:
    """Puts what the callback returned into the result's override."""
    if value is None:
        return
    if kind in ("before_agent", "after_agent"):
        if isinstance(value, str):
            value = _text_content(value)
        if isinstance(value, content_pb2.Content):
            result.content.CopyFrom(value)
            return
    elif kind in ("before_model", "after_model", "on_model_error"):
        if isinstance(value, str):
            value = llm_pb2.LlmResponse(content=_text_content(value))
        if isinstance(value, llm_pb2.LlmResponse):
            result.llm_response.CopyFrom(value)
            return
        if kind == "before_model" and isinstance(value, llm_pb2.LlmRequest):
            result.llm_request.CopyFrom(value)
            return
    elif isinstance(value, Mapping):
        result.tool_response.CopyFrom(to_struct(value))
        return
    raise TypeError(f"the {kind} callback {name} returned a {type(value).__name__}, which a {kind} callback cannot return")


def last_user_text(request: llm_pb2.LlmRequest) -> str:
    """The text of the last user content of a model request that has text."""
    for content in reversed(request.contents):
        if content.role == "user":
            text = "".join(p.text for p in content.parts if p.text)
            if text:
                return text
    return ""


@overload
def callback(fn: Callable[..., Any], /) -> Callback: ...


@overload
def callback(*, name: str | None = None) -> Callable[[Callable[..., Any]], Callback]: ...


def callback(fn: Callable[..., Any] | None = None, /, *, name: str | None = None) -> Any:
    """Declares a function as a callback, by its name or ``name``."""
    if fn is None:
        return lambda f: Callback(f, name=name)
    return Callback(fn, name=name)


def as_callback(obj: Callback | Callable[..., Any]) -> Callback:
    """A Callback as is, a plain function wrapped."""
    return obj if isinstance(obj, Callback) else Callback(obj)
