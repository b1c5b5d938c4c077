"""A running invocation: its events as an async iterator, its client tools
answered in the background, and its cancellation."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Final

import grpc
import grpc.aio

from agentsvc._values import from_struct, to_struct, to_value
from agentsvc.errors import from_rpc_error
from agentsvc.callbacks import Callback
from agentsvc.codeexec import CodeCall, CodeExecutor, CodeResult
from agentsvc.tools import Tool, ToolContext
from agentsvc.workflow import Node, not_declared
from agentsvc.v1 import event_pb2, runner_service_pb2

__all__ = ["Invocation"]

_log = logging.getLogger("agentsvc")

Event = event_pb2.Event
Metadata = Sequence[tuple[str, str | bytes]]


class _End:
    """Marks the end of the event queue."""


_END: Final = _End()


class Invocation:
    """One invocation of an agent, started by :meth:`Client.run` or
    :meth:`Client.connect`.

    Iterate it with ``async for`` to start the run and receive its events as
    the engine yields them; a failed run raises an :class:`AgentsvcError`
    subclass after the events that preceded the failure. While the run goes
    on, each ``tool_call`` of a Connect run is answered by the matching
    :class:`Tool` in a task of its own, so several calls run at once and
    their results go back as each finishes.

    Leaving an ``async with`` block, :meth:`aclose`, :meth:`cancel`, and
    cancelling the task that iterates all stop the invocation on the server.
    An Invocation runs once and belongs to the event loop that first
    iterates it; :meth:`retry` makes a new one for the same request.
    """

    def __init__(
        self,
        stub: Callable[[], Any],
        request: runner_service_pb2.RunRequest,
        *,
        tools: Sequence[Tool[Any, Any]] | None,
        metadata: Metadata | None,
        timeout: float | None,
        callbacks: Sequence[Callback] = (),
        code_executor: CodeExecutor | None = None,
        nodes: Sequence[Node] = (),
    ) -> None:
        self._stub = stub
        self._code_executor = code_executor
        self._request = request
        self._connect = tools is not None
        self._tools: dict[str, Tool[Any, Any]] = {t.name: t for t in tools or ()}
        if tools is not None and len(self._tools) != len(tools):
            raise ValueError("tool names must be unique")
        self._callbacks: dict[str, Callback] = {c.name: c for c in callbacks}
        if len(self._callbacks) != len(callbacks):
            raise ValueError("callback names must be unique")
        self._nodes: dict[str, Node] = {n.name: n for n in nodes}
        if len(self._nodes) != len(nodes):
            raise ValueError("node names must be unique")
        self._metadata = tuple(metadata) if metadata else None
        self._timeout = timeout

        #: The invocation id ("e-<uuid>"), known from the first event on.
        self.invocation_id: str = request.invocation_id
        #: True once the service reported the run complete (RunDone for
        #: Connect, the end of the stream for Run).
        self.completed = False
        #: True once the invocation was cancelled by this client.
        self.cancelled = False

        self._queue: asyncio.Queue[Event | BaseException | _End] = asyncio.Queue()
        self._call: Any = None
        self._driver: asyncio.Task[None] | None = None
        self._tool_tasks: set[asyncio.Task[None]] = set()
        # The run_node requests of running node calls waiting for their
        # answers, by (call id, request id).
        self._children: dict[tuple[str, str], asyncio.Future[runner_service_pb2.RunNodeResponse]] = {}
        self._write_lock = asyncio.Lock()
        self._start_sent = False
        self._exhausted = False

    @property
    def connect(self) -> bool:
        """Whether the invocation runs over Connect (with client tools)."""
        return self._connect

    @property
    def request_id(self) -> str:
        """The idempotency key the run was sent with, or ``""``."""
        return self._request.request_id

    def retry(self) -> Invocation:
        """Returns a new Invocation for the same request: same message,
        request id, options, tools and timeout. Iterate it to send it.

        The service stores the user message of one request id once: when
        the first attempt finished, the retry answers its events again
        without calling the model; when it stopped early (a deadline, a lost
        connection, an error), the retry continues it under the same
        invocation id and yields the events still to come. While the first
        attempt still runs, the retry fails with :class:`SessionBusyError`.
        This Invocation is left as it is (see :meth:`aclose`).

        Raises:
            ValueError: the run has no request id, so a retry would store
                its message a second time; pass
                ``request_id=agentsvc.new_request_id()`` to the run.
        """
        if not self._request.request_id:
            raise ValueError("retry needs a run started with a request_id (see agentsvc.new_request_id)")
        request = runner_service_pb2.RunRequest()
        request.CopyFrom(self._request)
        return Invocation(
            self._stub,
            request,
            tools=list(self._tools.values()) if self._connect else None,
            metadata=self._metadata,
            timeout=self._timeout,
            callbacks=list(self._callbacks.values()),
            code_executor=self._code_executor,
            nodes=list(self._nodes.values()),
        )

    def __aiter__(self) -> Invocation:
        return self

    async def __anext__(self) -> Event:
        if self._exhausted:
            raise StopAsyncIteration
        self._start()
        try:
            item = await self._queue.get()
        except asyncio.CancelledError:
            # The caller's task was cancelled: stop the run too.
            self._abort()
            raise
        if isinstance(item, _End):
            self._exhausted = True
            raise StopAsyncIteration
        if isinstance(item, BaseException):
            self._exhausted = True
            raise item
        return item

    async def __aenter__(self) -> Invocation:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def collect(self) -> list[Event]:
        """Runs the invocation to its end and returns all its events."""
        return [event async for event in self]

    async def cancel(self, *, grace: float = 5.0) -> None:
        """Cancels the invocation on the server.

        A Connect run is sent ``CancelRun`` and given ``grace`` seconds to
        end its stream before the call itself is cancelled; a Run call is
        cancelled at once. Iteration then ends quietly after the events that
        had already arrived. Does nothing once the run has ended.
        """
        if self.cancelled or self._ended:
            return
        self.cancelled = True
        driver = self._driver
        if driver is None:
            self._queue.put_nowait(_END)
            return
        if self._connect and self._start_sent:
            await self._send(runner_service_pb2.ConnectRequest(cancel=runner_service_pb2.CancelRun()))
            await asyncio.wait({driver}, timeout=grace)
        if not driver.done():
            self._abort()
            await asyncio.wait({driver})

    async def aclose(self) -> None:
        """Stops the invocation if it is still running (by cancelling the
        call) and waits for its tool tasks to finish."""
        if self._driver is None or self._driver.done():
            if self._driver is None and not self.cancelled:
                self.cancelled = True
                self._queue.put_nowait(_END)
            return
        self._abort()
        await asyncio.wait({self._driver})

    @property
    def _ended(self) -> bool:
        return self._driver is not None and self._driver.done()

    def _start(self) -> None:
        if self._driver is not None or self.cancelled:
            return
        if self._connect:
            self._call = self._stub().Connect(metadata=self._metadata, timeout=self._timeout)
            self._driver = asyncio.create_task(self._drive_connect())
        else:
            self._call = self._stub().Run(self._request, metadata=self._metadata, timeout=self._timeout)
            self._driver = asyncio.create_task(self._drive_run())

    def _abort(self) -> None:
        self.cancelled = True
        if self._call is not None:
            self._call.cancel()
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()

    def _note_invocation(self, invocation_id: str) -> None:
        if invocation_id and not self.invocation_id:
            self.invocation_id = invocation_id

    async def _drive_run(self) -> None:
        await self._drive(self._read_run)

    async def _read_run(self) -> None:
        while True:
            msg = await self._call.read()
            if not isinstance(msg, runner_service_pb2.RunResponse):
                self.completed = True
                return
            self._note_invocation(msg.event.invocation_id)
            self._queue.put_nowait(msg.event)

    async def _drive_connect(self) -> None:
        await self._drive(self._read_connect)

    async def _read_connect(self) -> None:
        start = runner_service_pb2.StartRun(run=self._request, tools=[t.declaration() for t in self._tools.values()],
                                            callbacks=[c.declaration() for c in self._callbacks.values()],
                                            code_executor=self._code_executor is not None,
                                            nodes=[n.declaration() for n in self._nodes.values()])
        async with self._write_lock:
            await self._call.write(runner_service_pb2.ConnectRequest(start=start))
            self._start_sent = True
        while True:
            msg = await self._call.read()
            if not isinstance(msg, runner_service_pb2.ConnectResponse):
                return
            kind = msg.WhichOneof("kind")
            if kind == "event":
                self._note_invocation(msg.event.invocation_id)
                self._queue.put_nowait(msg.event)
            elif kind == "tool_call":
                self._note_invocation(msg.tool_call.invocation_id)
                if not self.cancelled:
                    task = asyncio.create_task(self._answer(msg.tool_call))
                    self._tool_tasks.add(task)
                    task.add_done_callback(self._tool_tasks.discard)
            elif kind == "callback_call":
                self._note_invocation(msg.callback_call.invocation_id)
                if not self.cancelled:
                    task = asyncio.create_task(self._answer_callback(msg.callback_call))
                    self._tool_tasks.add(task)
                    task.add_done_callback(self._tool_tasks.discard)
            elif kind == "code_execution":
                self._note_invocation(msg.code_execution.invocation_id)
                if not self.cancelled:
                    task = asyncio.create_task(self._answer_code(msg.code_execution))
                    self._tool_tasks.add(task)
                    task.add_done_callback(self._tool_tasks.discard)
            elif kind == "node_call":
                self._note_invocation(msg.node_call.invocation_id)
                if not self.cancelled:
                    task = asyncio.create_task(self._answer_node(msg.node_call))
                    self._tool_tasks.add(task)
                    task.add_done_callback(self._tool_tasks.discard)
            elif kind == "run_node_result":
                answer = msg.run_node_result
                waiter = self._children.pop((answer.call_id, answer.request_id), None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(answer)
            elif kind == "done":
                self._note_invocation(msg.done.invocation_id)
                self.completed = True

    async def _drive(self, read: Any) -> None:
        """Runs a reader, turning its outcome into the queue's last item."""
        last: BaseException | _End = _END
        try:
            await read()
        except grpc.RpcError as err:
            if not (self.cancelled and _code(err) is grpc.StatusCode.CANCELLED):
                last = from_rpc_error(err)
        except asyncio.CancelledError:
            # Our own cancellation, or the call's (grpc.aio raises
            # CancelledError from a locally cancelled call): end quietly.
            pass
        except Exception as exc:  # a bug or a protocol surprise: surface it
            last = exc
        finally:
            if self._tool_tasks:
                for task in self._tool_tasks:
                    task.cancel()
                await asyncio.wait(set(self._tool_tasks))
            if self._call is not None and not self._call.done():
                self._call.cancel()
            self._queue.put_nowait(last)

    async def _answer(self, call: runner_service_pb2.ToolCall) -> None:
        try:
            result = await self._run_tool(call)
            await self._send(runner_service_pb2.ConnectRequest(tool_result=result))
        except asyncio.CancelledError:
            raise
        except Exception:
            _log.exception("answering tool call %s failed", call.call_id)

    async def _answer_callback(self, call: runner_service_pb2.CallbackCall) -> None:
        try:
            cb = self._callbacks.get(call.name)
            if cb is None:
                result = runner_service_pb2.CallbackResult(
                    call_id=call.call_id, error=f"Callback '{call.name}' is not declared by this client.")
            else:
                result = await cb.run(call, _ReadOnly(from_struct(call.state)))
            await self._send(runner_service_pb2.ConnectRequest(callback_result=result))
        except asyncio.CancelledError:
            raise
        except Exception:
            _log.exception("answering callback call %s failed", call.call_id)

    async def _answer_code(self, msg: runner_service_pb2.CodeExecutionCall) -> None:
        try:
            executor = self._code_executor
            if executor is None:
                result = CodeResult(stderr="This client runs no code.")
            else:
                try:
                    result = await asyncio.to_thread(executor.execute, CodeCall.from_proto(msg))
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    result = CodeResult(stderr=f"{type(exc).__name__}: {exc}")
            await self._send(runner_service_pb2.ConnectRequest(code_result=result.to_proto(msg.call_id)))
        except asyncio.CancelledError:
            raise
        except Exception:
            _log.exception("answering code execution call %s failed", msg.call_id)

    async def _answer_node(self, call: runner_service_pb2.NodeCall) -> None:
        try:
            node = self._nodes.get(call.name)
            result = not_declared(call) if node is None else await node.run(call, self._run_child)
            await self._send(runner_service_pb2.ConnectRequest(node_result=result))
        except asyncio.CancelledError:
            raise
        except Exception:
            _log.exception("answering node call %s failed", call.call_id)

    async def _run_child(self, req: runner_service_pb2.RunNodeRequest) -> runner_service_pb2.RunNodeResponse:
        """Sends a node call's run_node request and waits for its answer."""
        key = (req.call_id, req.request_id)
        waiter: asyncio.Future[runner_service_pb2.RunNodeResponse] = asyncio.get_running_loop().create_future()
        self._children[key] = waiter
        try:
            await self._send(runner_service_pb2.ConnectRequest(run_node=req))
            return await waiter
        finally:
            self._children.pop(key, None)

    async def _run_tool(self, call: runner_service_pb2.ToolCall) -> runner_service_pb2.ToolResult:
        result = runner_service_pb2.ToolResult(call_id=call.call_id)
        name = call.function_call.name
        tool = self._tools.get(name)
        if tool is None:
            result.error = f"Tool '{name}' is not declared by this client."
            return result
        context = ToolContext(
            call_id=call.call_id,
            invocation_id=call.invocation_id,
            agent_name=call.agent_name,
            function_name=name,
            state=_ReadOnly(from_struct(call.state)),
        )
        try:
            value = await tool.run(from_struct(call.function_call.args), context)
            if value is not None:
                result.response.CopyFrom(to_value(value))
            if context.state_delta:
                result.actions.state_delta.CopyFrom(to_struct(context.state_delta))
            if context.skip_summarization:
                result.actions.skip_summarization = True
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            result = runner_service_pb2.ToolResult(call_id=call.call_id, error=_error_text(exc))
        # Files saved before an exception are sent too: an ADK tool's
        # save_artifact stores the file when called.
        for filename, part in context.artifacts.items():
            result.artifacts[filename].CopyFrom(part)
        return result

    async def _send(self, request: runner_service_pb2.ConnectRequest) -> None:
        async with self._write_lock:
            if self._call is None or self._call.done():
                return
            try:
                await self._call.write(request)
            except (grpc.RpcError, asyncio.InvalidStateError):
                # The stream already ended; the reader reports why.
                pass


class _ReadOnly(Mapping[str, Any]):
    """A read-only view of the session state given to tools."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Any:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return f"State({self._data!r})"


def _code(err: grpc.RpcError) -> grpc.StatusCode | None:
    code = getattr(err, "code", None)
    return code() if callable(code) else None


def _error_text(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
