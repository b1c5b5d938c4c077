"""Tools that live in the caller's process, declared from Python functions.

Decorate a function, async or not, with :func:`tool`; its name is the tool
name, its docstring's first paragraph the description, and its type hints
the JSON schema of its parameters::

    @agentsvc.tool
    async def get_weather(city: str, unit: Literal["C", "F"] = "C") -> dict[str, Any]:
        \"\"\"Returns the current weather in a city.\"\"\"
        return {"city": city, "temperature": 21, "unit": unit}

A parameter annotated :class:`ToolContext` (or named ``tool_context``)
receives the call's context instead of a model argument. Synchronous tools
run in a worker thread so that several calls can run at once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Generic, ParamSpec, TypeVar, overload

from agentsvc import schema
from agentsvc._values import to_struct
from agentsvc.artifacts import ArtifactData, save_to
from agentsvc.v1 import content_pb2, runner_service_pb2

__all__ = ["Tool", "ToolContext", "tool"]

P = ParamSpec("P")
R = TypeVar("R")

# The parameter name ADK gives the tool context.
_CONTEXT_PARAM = "tool_context"


@dataclasses.dataclass
class ToolContext:
    """What a tool call knows about its invocation, and the actions it may
    take.

    Attributes:
        call_id: The function call id (``adk-<uuid>``), unique per call.
        invocation_id: The invocation the call belongs to.
        agent_name: The agent whose model asked for the call.
        function_name: The called tool's name.
        state: The session state when the call was made (read-only copy).
        state_delta: Keys set here are applied to the session state with the
            tool's response event, as ``tool_context.state[...] = v`` in ADK.
        skip_summarization: When set, the agent ends its turn with the tool's
            response instead of asking the model to summarise it.
    """

    call_id: str
    invocation_id: str
    agent_name: str
    function_name: str
    state: Mapping[str, Any]
    state_delta: dict[str, Any] = dataclasses.field(default_factory=dict)
    skip_summarization: bool = False
    _artifacts: dict[str, content_pb2.Part] = dataclasses.field(default_factory=dict, init=False, repr=False)

    def save_artifact(self, filename: str, data: ArtifactData, *, mime_type: str | None = None) -> None:
        """Saves a file as an artifact of the session (of the user for a
        name starting ``user:``), as ADK's ``tool_context.save_artifact``.

        ``data`` is bytes, which need ``mime_type`` (stored as inline data);
        text (a text part); or a :class:`~agentsvc.Part` holding inline data
        or text. The file goes to the service with the tool's result, which
        stores it as the artifact's next version and records that version
        in the ``actions.artifact_delta`` of the tool's response event
        (``{"report.txt": 0}``). So, unlike ADK's, which returns the
        version at once, this returns nothing: read the version from that
        event, or later with :meth:`Client.list_artifact_versions`.

        Saving a name twice in one call keeps the last content (one
        version). Files saved before the tool raises are still sent, with
        the error, as in ADK, where each save is stored when made.

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
        goes with the tool's result."""
        return types.MappingProxyType(self._artifacts)


class Tool(Generic[P, R]):
    """A Python function offered to agents as a remote tool.

    Calling the tool calls the function. Instances are immutable after
    construction and safe to share between concurrent invocations.
    """

    # Copied from the function, as functools.wraps does.
    __name__: str

    def __init__(
        self,
        fn: Callable[P, R],
        *,
        name: str | None = None,
        description: str | None = None,
        parameters: Mapping[str, Any] | None = None,
        response: Mapping[str, Any] | None = None,
        long_running: bool = False,
        require_confirmation: bool = False,
    ) -> None:
        """Wraps ``fn``.

        Args:
            fn: The function, sync or async.
            name: The tool name; defaults to ``fn.__name__``.
            description: Defaults to the first paragraph of the docstring.
            parameters: A JSON schema to declare instead of the one derived
                from the type hints.
            response: An optional JSON schema of the result.
            long_running: The tool's result arrives later (ADK's
                LongRunningFunctionTool): its call ids are listed in the
                event's ``long_running_tool_ids``, and returning None ends
                the turn without a response.
            require_confirmation: The service asks the user to confirm each
                call first (ADK's ``require_confirmation``); the call is sent
                here only in the later run that carries the confirmation.
        """
        self.fn = fn
        self.name: str = name or str(getattr(fn, "__name__", ""))
        if not self.name or self.name == "<lambda>":
            raise ValueError("a tool needs a name: pass name=...")
        self.description: str = description if description is not None else schema.description_of(fn)
        self.long_running = long_running
        self.require_confirmation = require_confirmation
        self._signature = inspect.signature(fn)
        self._hints = schema.type_hints(fn)
        self._context_param = next(
            (
                p.name
                for p in self._signature.parameters.values()
                if _is_context(self._hints.get(p.name)) or p.name == _CONTEXT_PARAM
            ),
            None,
        )
        self.parameters: dict[str, Any] = (
            dict(parameters)
            if parameters is not None
            else schema.function_schema(fn, skip=_is_context)
        )
        if self._context_param:
            self.parameters.get("properties", {}).pop(self._context_param, None)
            required = self.parameters.get("required")
            if isinstance(required, list) and self._context_param in required:
                required.remove(self._context_param)
        self.response: dict[str, Any] | None = dict(response) if response is not None else None
        self._takes_any = any(p.kind is p.VAR_KEYWORD for p in self._signature.parameters.values())
        self._is_async = _is_async(fn)
        functools.update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Tool({self.name!r})"

    def declaration(self) -> runner_service_pb2.ToolDeclaration:
        """Returns the ToolDeclaration sent when a run starts."""
        decl = runner_service_pb2.ToolDeclaration(
            name=self.name,
            description=self.description,
            parameters=to_struct(self.parameters),
            long_running=self.long_running,
            require_confirmation=self.require_confirmation,
        )
        if self.response is not None:
            decl.response.CopyFrom(to_struct(self.response))
        return decl

    async def run(self, args: Mapping[str, Any], context: ToolContext) -> Any:
        """Runs one call: converts the model's arguments to the annotated
        types, drops arguments the function does not take (as ADK does), and
        awaits the function, in a worker thread when it is synchronous."""
        kwargs: dict[str, Any] = {}
        for name, value in args.items():
            param = self._signature.parameters.get(name)
            if param is None or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                if self._takes_any and name != self._context_param:
                    kwargs[name] = value
                continue
            if name == self._context_param or param.kind is param.POSITIONAL_ONLY:
                continue
            kwargs[name] = schema.coerce(value, self._hints.get(name, Any))
        if self._context_param:
            kwargs[self._context_param] = context
        fn: Callable[..., Any] = self.fn
        if self._is_async:
            return await fn(**kwargs)
        result = await asyncio.to_thread(fn, **kwargs)
        if inspect.isawaitable(result):
            result = await result
        return result


def _is_context(hint: Any) -> bool:
    """Reports ToolContext, also within Annotated and Optional."""
    while typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    if hint is ToolContext:
        return True
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_is_context(a) for a in typing.get_args(hint))
    return False


def _is_async(fn: Callable[..., Any]) -> bool:
    target: Any = fn
    while isinstance(target, functools.partial):
        target = target.func
    target = inspect.unwrap(target)
    if inspect.iscoroutinefunction(target):
        return True
    # A callable object with an async __call__ counts too.
    call = getattr(target, "__call__", None)
    return inspect.iscoroutinefunction(call)


@overload
def tool(fn: Callable[P, R], /) -> Tool[P, R]: ...


@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    parameters: Mapping[str, Any] | None = None,
    response: Mapping[str, Any] | None = None,
    long_running: bool = False,
    require_confirmation: bool = False,
) -> Callable[[Callable[P, R]], Tool[P, R]]: ...


def tool(
    fn: Callable[P, R] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    parameters: Mapping[str, Any] | None = None,
    response: Mapping[str, Any] | None = None,
    long_running: bool = False,
    require_confirmation: bool = False,
) -> Tool[P, R] | Callable[[Callable[P, R]], Tool[P, R]]:
    """Declares a function as a remote tool; usable bare (``@tool``) or with
    options (``@tool(long_running=True)``). See :class:`Tool` for the
    options."""

    def wrap(f: Callable[P, R]) -> Tool[P, R]:
        return Tool(
            f,
            name=name,
            description=description,
            parameters=parameters,
            response=response,
            long_running=long_running,
            require_confirmation=require_confirmation,
        )

    if fn is not None:
        return wrap(fn)
    return wrap


def as_tool(obj: Tool[Any, Any] | Callable[..., Any]) -> Tool[Any, Any]:
    """Returns ``obj`` if it is a Tool, else wraps the plain function."""
    return obj if isinstance(obj, Tool) else Tool(obj)
