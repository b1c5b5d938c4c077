"""Workflow function nodes that live in the caller's process, for apps whose
root agent is an ADK 2.x ``Workflow`` declared in YAML (``nodes:`` with
``function:`` entries, and ``edges:``).

Decorate a function with :func:`node`, as ADK's ``@node``; its name is the
node function's name in the YAML::

    @agentsvc.node
    def approval_gate(node_input, ctx: agentsvc.NodeContext):
        return agentsvc.RequestInput(message="Approve the order?", payload=node_input,
                                     response_schema={"type": "object",
                                                      "properties": {"approved": {"type": "boolean"}}})

The service sends a ``node_call`` whenever the workflow reaches the node,
and the node's outcome goes back as its result: the value it returns is its
output, which its successors receive as their ``node_input``; returning
nothing gives none. A :class:`RequestInput` returned (alone or in a list) or
yielded pauses the workflow until the user answers. An exception becomes the
node's error, which the workflow's ``retry_config`` may retry by the
exception's class name.

Parameters are bound by name, as ADK binds them: ``node_input`` receives the
node's input, the parameter annotated :class:`NodeContext` (or named
``ctx``) the call's context, and any other parameter the session state's
value of that name (or its default). Async functions, generators and async
generators work; synchronous code runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import types
import typing
import uuid
import builtins
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from typing import Any, overload

from agentsvc import schema
from agentsvc._values import from_struct, from_value, to_struct, to_value
from agentsvc.v1 import runner_service_pb2

__all__ = ["DynamicNodeFailError", "Node", "NodeActions", "NodeContext", "NodeError", "NodeInterruptedError",
           "NodeSession", "NodeState", "RequestInput", "WorkflowDataError", "node"]

# Asks the service to run a dynamic node and waits for its answer: the
# invocation sends the RunNodeRequest and resolves the RunNodeResponse.
RunNodeChannel = Callable[[runner_service_pb2.RunNodeRequest], Awaitable[runner_service_pb2.RunNodeResponse]]

# The parameter names ADK gives the node's input and its context.
_INPUT_PARAM = "node_input"
_CONTEXT_PARAM = "ctx"

# The error type of a call for a node this client does not declare.
NOT_DECLARED_ERROR = "LookupError"


class WorkflowDataError(Exception):
    """A node's data does not fit its function, as ADK's error of that name:
    e.g. a parameter found neither in the state nor with a default. It
    reaches the workflow as the node's error, typed ``WorkflowDataError``."""


class NodeError(Exception):
    """A dynamic node's own failure, as the service reported it: the class
    name of the exception it raised (``type``) and its message."""

    def __init__(self, type: str, message: str) -> None:  # noqa: A002 - ADK's field name
        super().__init__(f"{type}: {message}" if message else type)
        self.type = type
        self.message = message


class DynamicNodeFailError(Exception):
    """Raised in a node by :meth:`NodeContext.run_node` when the dynamic node
    failed, as ADK's error of that name: ``error`` is the child's failure
    and ``error_node_path`` its path."""

    def __init__(self, message: str, *, error: NodeError | None, error_node_path: str = "") -> None:
        super().__init__(message)
        self.error = error
        self.error_node_path = error_node_path


class NodeInterruptedError(BaseException):
    """Raised in a node by :meth:`NodeContext.run_node` when the dynamic node
    asked the user for input, as ADK's error of that name. It derives from
    ``BaseException`` so that ``except Exception`` lets it through: the node
    ends, and the workflow waits on the child's question. Once the user
    answered, the node runs again; each ``run_node`` of a child that
    finished before returns its output without running it again, and the
    child that asked returns the answer."""


@dataclasses.dataclass(kw_only=True)
class RequestInput:
    """Asks the user for input from a workflow node (ADK's ``RequestInput``).

    Returning it (or a list of them) or yielding it pauses the workflow: the
    user sees an ``adk_request_input`` function call whose id is
    ``interrupt_id``, and answers it with
    :func:`~agentsvc.create_request_input_response`. By default the answer
    then becomes the node's output.

    Attributes:
        interrupt_id: Identifies the request; a new UUID unless given.
        message: What to ask the user.
        payload: Any JSON value shown with the request (context for a UI).
        response_schema: The shape of the answer: a JSON Schema dict, or a
            type (a pydantic model class, ``list[str]``, a dataclass...)
            converted to one with pydantic's ``TypeAdapter`` when pydantic
            is installed, else from its type hints.
    """

    interrupt_id: str = dataclasses.field(default_factory=lambda: str(uuid.uuid4()))
    message: str | None = None
    payload: Any = None
    response_schema: Any = None

    def to_proto(self) -> runner_service_pb2.RequestInput:
        """Returns the request as sent with the node's result."""
        msg = runner_service_pb2.RequestInput(interrupt_id=self.interrupt_id, message=self.message or "")
        if self.payload is not None:
            msg.payload.CopyFrom(to_value(self.payload))
        if self.response_schema is not None:
            msg.response_schema.CopyFrom(to_value(json_schema_of(self.response_schema)))
        return msg


def json_schema_of(response_schema: Any) -> dict[str, Any]:
    """Returns the JSON Schema of a :class:`RequestInput`'s
    ``response_schema``: a mapping as it is, a type through pydantic's
    ``TypeAdapter(...).json_schema()`` (as ADK converts it), or, without
    pydantic, through :func:`agentsvc.schema.json_schema`."""
    if isinstance(response_schema, Mapping):
        return dict(response_schema)
    try:
        from pydantic import TypeAdapter
    except ImportError:
        return schema.json_schema(response_schema)
    result: dict[str, Any] = TypeAdapter(response_schema).json_schema()
    return result


class NodeState(Mapping[str, Any]):
    """The session state as a node sees it: the call's state with the
    node's own changes applied. Setting a key records it in the node's
    ``actions.state_delta``, as ``ctx.state[key] = value`` in ADK."""

    def __init__(self, base: Mapping[str, Any], delta: dict[str, Any]) -> None:
        self._base = base
        self._delta = delta

    def __getitem__(self, key: str) -> Any:
        if key in self._delta:
            return self._delta[key]
        return self._base[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._delta[key] = value

    def update(self, other: Mapping[str, Any] | None = None, /, **kwargs: Any) -> None:
        """Sets several keys at once."""
        self._delta.update(other or {}, **kwargs)

    def __iter__(self) -> Iterator[str]:
        yield from self._base
        yield from (k for k in self._delta if k not in self._base)

    def __len__(self) -> int:
        return len(self._base) + sum(1 for k in self._delta if k not in self._base)

    def __repr__(self) -> str:
        return f"NodeState({dict(self)!r})"


@dataclasses.dataclass
class NodeActions:
    """The side effects a node takes, as ADK's ``ctx.actions``.

    Attributes:
        state_delta: Changes to the session state, stored with the node's
            event.
    """

    state_delta: dict[str, Any] = dataclasses.field(default_factory=dict)


class NodeContext:
    """What a node call knows about its workflow run, and what it may set
    (ADK's ``Context`` as a node sees it).

    Attributes:
        call_id: Unique within the invocation.
        name: The called node function's name.
        invocation_id: The invocation the call belongs to.
        workflow: The workflow the node belongs to.
        node_name: The node's name in the graph.
        node_path: The node run's path, e.g. ``"approvals@1/prepare@1"``.
        attempt: 1 for the first attempt, counting retries.
        resume_inputs: The user's answers to the node's earlier
            RequestInputs, by interrupt id (a node that runs again after
            being resumed).
        actions: ``actions.state_delta`` holds the node's state changes.
        route: The route the node picks (a bool, number or string, or a
            list of them), matched against its outgoing edges' routes;
            None picks none.
    """

    def __init__(self, call: runner_service_pb2.NodeCall, channel: RunNodeChannel | None = None) -> None:
        self.call_id = call.call_id
        self.name = call.name
        self.invocation_id = call.invocation_id
        self.workflow = call.workflow
        self.node_name = call.node_name
        self.node_path = call.node_path
        self.attempt = call.attempt
        self.resume_inputs: dict[str, Any] = from_struct(call.resume_inputs)
        self.actions = NodeActions()
        self.route: Any = None
        self._base = from_struct(call.state)
        self._channel = channel
        self._requests = 0
        self.session = NodeSession(call, self._base)

    @property
    def state(self) -> NodeState:
        """The session state with this node's changes applied; setting a
        key records it in ``actions.state_delta``."""
        return NodeState(self._base, self.actions.state_delta)

    async def run_node(self, node: Node | Callable[..., Any] | str, node_input: Any = None, *,
                       use_as_output: bool = False, run_id: str | None = None) -> Any:
        """Runs another node as a dynamic child of this one and returns its
        output (ADK's ``ctx.run_node``). The service runs it through the
        workflow: its path is this node's path, then ``<name>@<run id>``;
        its events and state changes are the workflow's.

        Args:
            node: A node function of this client's (a :class:`Node` or a
                function, declared with the run: ``@node(dynamic=True)``
                when no workflow names it), or the name of a node of this
                node's workflow (a function, agent or tool node).
            node_input: The child's ``node_input``; any JSON value.
            use_as_output: The child's output event stands for this node's
                output too, and this node emits none of its own.
            run_id: The child's run id in its path; by default the next
                number of that name under this node. A given one must
                contain a character that is no digit.

        Raises:
            DynamicNodeFailError: the child failed.
            NodeInterruptedError: the child asked the user for input.
            ValueError: the service refused the request (e.g. this node is
                not declared ``rerun_on_resume: true``, as ADK requires).
        """
        if self._channel is None:
            raise RuntimeError("run_node needs a node call of a running invocation")
        self._requests += 1
        req = runner_service_pb2.RunNodeRequest(call_id=self.call_id, request_id=str(self._requests),
                                                use_as_output=use_as_output, run_id=run_id or "")
        if isinstance(node, str):
            req.node = node
        else:
            req.function = as_node(node).name
        if node_input is not None:
            req.node_input.CopyFrom(to_value(node_input))
        answer = await self._channel(req)
        if answer.HasField("error"):
            raise _child_error(answer)
        return from_value(answer.output) if answer.HasField("output") else None

    def __repr__(self) -> str:
        return f"NodeContext(node_path={self.node_path!r}, attempt={self.attempt})"


class NodeSession:
    """The session as a node sees it (ADK's ``ctx.session``).

    Attributes:
        id: The session's id.
        user_id: The session's user.
        state: The session state as the call began (read-only).
    """

    def __init__(self, call: runner_service_pb2.NodeCall, state: Mapping[str, Any]) -> None:
        self.id = call.session_id
        self.user_id = call.user_id
        self.state: Mapping[str, Any] = types.MappingProxyType(dict(state))
        self._events = list(call.session_events)

    @property
    def events(self) -> list[Any]:
        """The session's most recent events (at most 100, oldest first) as
        the node's invocation sees them, for a node declared with
        ``@node(session_events=True)``; otherwise empty."""
        return list(self._events)


def _child_error(answer: runner_service_pb2.RunNodeResponse) -> BaseException:
    """The exception a failed run_node raises in the calling node."""
    err = answer.error
    if err.type == "NodeInterruptedError":
        return NodeInterruptedError(err.message)
    if err.type == "DynamicNodeFailError":
        cause = NodeError(answer.cause.type, answer.cause.message) if answer.HasField("cause") else None
        return DynamicNodeFailError(err.message, error=cause, error_node_path=answer.node_path)
    cls = getattr(builtins, err.type, None)
    if isinstance(cls, type) and issubclass(cls, Exception):
        return cls(err.message)
    return RuntimeError(err.message)


class Node:
    """A Python function that runs as a workflow function node.

    Calling the node calls the function. Instances are immutable after
    construction and safe to share between concurrent invocations.
    """

    __name__: str

    def __init__(self, fn: Callable[..., Any], *, name: str | None = None, dynamic: bool = False,
                 session_events: bool = False) -> None:
        """Wraps ``fn`` (a function, async function, generator or async
        generator); ``name`` defaults to ``fn.__name__``. ``dynamic``
        declares a function that runs only through
        :meth:`NodeContext.run_node` (no workflow names it);
        ``session_events`` has its calls carry the session's recent events
        (``ctx.session.events``)."""
        self.fn = fn
        self.dynamic = dynamic
        self.session_events = session_events
        self.name: str = name or str(getattr(fn, "__name__", ""))
        if not self.name or self.name == "<lambda>":
            raise ValueError("a node needs a name: pass name=...")
        target = inspect.unwrap(fn)
        self._signature = inspect.signature(fn)
        self._hints = schema.type_hints(fn)
        self._context_param = next(
            (p for p in self._signature.parameters if self._hints.get(p) is NodeContext),
            _CONTEXT_PARAM if _CONTEXT_PARAM in self._signature.parameters else None,
        )
        self._async_gen = inspect.isasyncgenfunction(target)
        self._gen = inspect.isgeneratorfunction(target)
        self._async = inspect.iscoroutinefunction(target) or inspect.iscoroutinefunction(
            getattr(target, "__call__", None))
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"Node({self.name!r})"

    def declaration(self) -> runner_service_pb2.NodeDeclaration:
        """Returns the NodeDeclaration sent when a run starts."""
        return runner_service_pb2.NodeDeclaration(name=self.name, dynamic=self.dynamic,
                                                  session_events=self.session_events)

    async def run(self, call: runner_service_pb2.NodeCall,
                  channel: RunNodeChannel | None = None) -> runner_service_pb2.NodeResult:
        """Runs one call and returns its result; an exception the function
        raises (or a value that is no JSON) becomes the result's error.
        ``channel`` carries the call's :meth:`NodeContext.run_node`
        requests."""
        ctx = NodeContext(call, channel)
        node_input = from_value(call.node_input) if call.HasField("node_input") else None
        result = runner_service_pb2.NodeResult(call_id=call.call_id)
        try:
            output, requests = await self._outcome(self._arguments(ctx, node_input))
            if output is not None:
                result.output.CopyFrom(to_value(output))
            if ctx.route is not None:
                result.route.CopyFrom(to_value(ctx.route))
            result.request_inputs.extend(r.to_proto() for r in requests)
        except asyncio.CancelledError:
            raise
        except (Exception, NodeInterruptedError) as exc:
            result = runner_service_pb2.NodeResult(
                call_id=call.call_id, error=runner_service_pb2.NodeError(type=type(exc).__name__, message=str(exc)))
        # Changes made before an exception go too, as ADK stores them with
        # the node's error event.
        if ctx.actions.state_delta:
            try:
                result.state_delta.CopyFrom(to_struct(ctx.actions.state_delta))
            except (TypeError, ValueError) as exc:
                result = runner_service_pb2.NodeResult(
                    call_id=call.call_id, error=runner_service_pb2.NodeError(type=type(exc).__name__, message=str(exc)))
        return result

    def _arguments(self, ctx: NodeContext, node_input: Any) -> dict[str, Any]:
        """Binds the parameters by name, as ADK's FunctionNode does."""
        kwargs: dict[str, Any] = {}
        state = ctx.state
        for name, param in self._signature.parameters.items():
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                continue
            if name == self._context_param:
                kwargs[name] = ctx
            elif name == _INPUT_PARAM:
                kwargs[name] = _coerce_input(node_input, self._hints.get(name, Any))
            elif name in state:
                kwargs[name] = schema.coerce(state[name], self._hints.get(name, Any))
            elif param.default is not param.empty:
                kwargs[name] = param.default
            else:
                raise WorkflowDataError(
                    f'Missing value for parameter "{name}" of function "{self.name}". '
                    "It was not found in state and has no default value.")
        return kwargs

    async def _outcome(self, kwargs: dict[str, Any]) -> tuple[Any, list[RequestInput]]:
        """Runs the function; returns its output and its RequestInputs."""
        fn: Callable[..., Any] = self.fn
        if self._async_gen:
            return await _collect(fn(**kwargs))
        if self._gen:
            return await _collect(_in_thread(fn(**kwargs)))
        if self._async:
            value = await fn(**kwargs)
        else:
            value = await asyncio.to_thread(fn, **kwargs)
            if inspect.isawaitable(value):
                value = await value
        requests = _requests(value)
        if requests is not None:
            return None, requests
        return value, []


def _requests(value: Any) -> list[RequestInput] | None:
    """Returns the RequestInputs a value stands for, or None for an output."""
    if isinstance(value, RequestInput):
        return [value]
    if isinstance(value, (list, tuple)) and value and any(isinstance(v, RequestInput) for v in value):
        if not all(isinstance(v, RequestInput) for v in value):
            raise TypeError("a node returns RequestInputs or an output, not both in one list")
        return list(value)
    return None


async def _collect(items: AsyncIterator[Any]) -> tuple[Any, list[RequestInput]]:
    """Drains a node generator: RequestInputs are collected, the last other
    value is the output (as ADK's node runner keeps the last one)."""
    output: Any = None
    requests: list[RequestInput] = []
    try:
        async for item in items:
            if item is None:
                continue
            found = _requests(item)
            if found is not None:
                requests.extend(found)
            else:
                output = item
    finally:
        aclose = getattr(items, "aclose", None)
        if aclose is not None:
            await aclose()
    return output, requests


_DONE = object()


async def _in_thread(gen: Iterator[Any]) -> AsyncIterator[Any]:
    """Steps a synchronous generator in worker threads."""
    try:
        while True:
            item = await asyncio.to_thread(next, gen, _DONE)
            if item is _DONE:
                return
            yield item
    finally:
        close = getattr(gen, "close", None)
        if close is not None:
            try:
                close()
            except ValueError:
                # Still running in its thread (the call was cancelled): it
                # ends with that step.
                pass


def _coerce_input(value: Any, hint: Any) -> Any:
    """Converts the node's input to its annotation: the user's Content to
    its text (thoughts left out) for ``str``, as ADK's FunctionNode does; a
    mapping to a pydantic model; JSON forms as tool arguments are converted.
    Other annotations see the Content as its JSON object."""
    if hint is Any or hint is object:
        return value
    if _is_content(value) and _expects_str(hint):
        return "".join(p["text"] for p in value["parts"] if isinstance(p.get("text"), str) and not p.get("thought"))
    validate = getattr(hint, "model_validate", None)
    if isinstance(hint, type) and callable(validate) and isinstance(value, Mapping):
        return validate(value)
    return schema.coerce(value, hint)


def _expects_str(hint: Any) -> bool:
    """Reports ``str``, also within Annotated, Optional and other unions."""
    if hint is str:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return _expects_str(typing.get_args(hint)[0])
    if origin in (typing.Union, types.UnionType):
        return any(_expects_str(a) for a in typing.get_args(hint))
    return False


def _is_content(value: Any) -> bool:
    """Reports a Content as JSON (the user's message after START)."""
    return (
        isinstance(value, Mapping)
        and isinstance(value.get("parts"), list)
        and all(isinstance(p, Mapping) for p in value["parts"])
        and set(value) <= {"parts", "role"}
    )


@overload
def node(fn: Callable[..., Any], /) -> Node: ...


@overload
def node(*, name: str | None = None, dynamic: bool = False,
         session_events: bool = False) -> Callable[[Callable[..., Any]], Node]: ...


def node(fn: Callable[..., Any] | None = None, /, *, name: str | None = None, dynamic: bool = False,
         session_events: bool = False) -> Node | Callable[[Callable[..., Any]], Node]:
    """Declares a function as a workflow function node; usable bare
    (``@node``) or with arguments (``@node(name="gate")``), as ADK's
    ``node``. See :class:`Node` for ``dynamic`` and ``session_events``."""

    def wrap(f: Callable[..., Any]) -> Node:
        return Node(f, name=name, dynamic=dynamic, session_events=session_events)

    if fn is not None:
        return wrap(fn)
    return wrap


def as_node(obj: Node | Callable[..., Any]) -> Node:
    """Returns ``obj`` if it is a Node, else wraps the plain function."""
    return obj if isinstance(obj, Node) else Node(obj)


def not_declared(call: runner_service_pb2.NodeCall) -> runner_service_pb2.NodeResult:
    """Returns the result of a call for a node this client does not declare,
    worded as for an undeclared tool."""
    return runner_service_pb2.NodeResult(
        call_id=call.call_id,
        error=runner_service_pb2.NodeError(
            type=NOT_DECLARED_ERROR, message=f"Node '{call.name}' is not declared by this client."),
    )
