"""Exceptions raised by the client, one per gRPC status the service returns.

Every failed call raises a subclass of :class:`AgentsvcError` carrying the
gRPC code, the service's message and the ``reason`` of the
``google.rpc.ErrorInfo`` detail (for example ``"SESSION_NOT_FOUND"`` or
``"SESSION_BUSY"``), so callers can catch by kind::

    try:
        await client.get_session("weather", "alice", "s1")
    except agentsvc.NotFoundError:
        ...

The reasons are the values of the ``ErrorReason`` enum
(``agentsvc.v1.error_reason_pb2``, from proto/agentsvc/v1/error_reason.proto),
each documented with the codes it comes with. The reasons a caller acts on
have a subclass of their code's class (for example
:class:`SessionTooLargeError` of :class:`ResourceExhaustedError`);
:class:`ModelError`, whose code depends on the model's answer, is mixed into
the class of whichever code it comes with; the others raise their code's
class.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import grpc
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2, status_pb2

__all__ = [
    "AbortedError",
    "AgentsvcError",
    "AlreadyExistsError",
    "CancelledError",
    "ConnectStartTimeoutError",
    "DeadlineExceededError",
    "FailedPreconditionError",
    "InternalError",
    "InvalidArgumentError",
    "InvocationTimeoutError",
    "ModelError",
    "NestingTooDeepError",
    "NotFoundError",
    "PermissionDeniedError",
    "ResourceExhaustedError",
    "ResponseTooLargeError",
    "SessionBusyError",
    "SessionTooLargeError",
    "ShuttingDownError",
    "TooManyConnectStreamsError",
    "UnauthenticatedError",
    "UnavailableError",
    "UnimplementedError",
    "from_rpc_error",
]

# The trailer in which gRPC servers send a serialized google.rpc.Status.
_STATUS_DETAILS_KEY = "grpc-status-details-bin"


class AgentsvcError(Exception):
    """A call to agentsvc failed with a gRPC status.

    Attributes:
        code: The gRPC status code.
        message: The service's human-readable message.
        reason: The ``ErrorInfo`` reason (e.g. ``"SESSION_NOT_FOUND"``), or
            ``""`` when the status carried none.
        domain: The ``ErrorInfo`` domain, ``"agentsvc"`` for the service's own
            errors.
        metadata: The ``ErrorInfo`` metadata.
    """

    #: The gRPC code this class stands for; the base class stands for any.
    grpc_code: grpc.StatusCode | None = None

    def __init__(
        self,
        message: str,
        *,
        code: grpc.StatusCode = grpc.StatusCode.UNKNOWN,
        reason: str = "",
        domain: str = "",
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.domain = domain
        self.metadata: dict[str, str] = dict(metadata or {})

    def __str__(self) -> str:
        label = self.code.name
        if self.reason:
            label = f"{label}/{self.reason}"
        return f"{self.message} ({label})"


class CancelledError(AgentsvcError):
    """The call was cancelled (CANCELLED) other than by this client's request."""

    grpc_code = grpc.StatusCode.CANCELLED


class InvalidArgumentError(AgentsvcError):
    """The request was malformed (INVALID_ARGUMENT)."""

    grpc_code = grpc.StatusCode.INVALID_ARGUMENT


class DeadlineExceededError(AgentsvcError):
    """The call's deadline passed (DEADLINE_EXCEEDED)."""

    grpc_code = grpc.StatusCode.DEADLINE_EXCEEDED


class NotFoundError(AgentsvcError):
    """The app or session does not exist (NOT_FOUND)."""

    grpc_code = grpc.StatusCode.NOT_FOUND


class AlreadyExistsError(AgentsvcError):
    """A session with that id already exists (ALREADY_EXISTS)."""

    grpc_code = grpc.StatusCode.ALREADY_EXISTS


class PermissionDeniedError(AgentsvcError):
    """The caller may not do this (PERMISSION_DENIED)."""

    grpc_code = grpc.StatusCode.PERMISSION_DENIED


class ResourceExhaustedError(AgentsvcError):
    """A limit was reached, e.g. ``max_llm_calls`` (RESOURCE_EXHAUSTED)."""

    grpc_code = grpc.StatusCode.RESOURCE_EXHAUSTED


class FailedPreconditionError(AgentsvcError):
    """The app's configuration or state prevents the invocation
    (FAILED_PRECONDITION), e.g. a missing instruction variable or an unknown
    tool."""

    grpc_code = grpc.StatusCode.FAILED_PRECONDITION


class AbortedError(AgentsvcError):
    """A conflicting operation won (ABORTED): the session is running another
    invocation, or was modified concurrently. Retrying later may succeed."""

    grpc_code = grpc.StatusCode.ABORTED


class SessionBusyError(AbortedError):
    """The session is already running an invocation (ABORTED, reason
    ``SESSION_BUSY``)."""


class UnimplementedError(AgentsvcError):
    """The service does not offer this method (UNIMPLEMENTED)."""

    grpc_code = grpc.StatusCode.UNIMPLEMENTED


class InternalError(AgentsvcError):
    """The service failed unexpectedly (INTERNAL)."""

    grpc_code = grpc.StatusCode.INTERNAL


class UnavailableError(AgentsvcError):
    """The service, its session store or its model could not be reached
    (UNAVAILABLE). Retrying later may succeed."""

    grpc_code = grpc.StatusCode.UNAVAILABLE


class UnauthenticatedError(AgentsvcError):
    """The call carried no valid credentials (UNAUTHENTICATED)."""

    grpc_code = grpc.StatusCode.UNAUTHENTICATED


class InvocationTimeoutError(DeadlineExceededError):
    """The invocation ran past the service's time limit for one invocation
    (DEADLINE_EXCEEDED, reason ``INVOCATION_TIMEOUT``). A retry with the same
    ``request_id`` continues it."""


class ConnectStartTimeoutError(DeadlineExceededError):
    """A Connect stream sent no start message in time (DEADLINE_EXCEEDED,
    reason ``CONNECT_START_TIMEOUT``)."""


class SessionTooLargeError(ResourceExhaustedError):
    """The session has reached the service's cap on its events or bytes
    (RESOURCE_EXHAUSTED, reason ``SESSION_TOO_LARGE``); start a new one."""


class ResponseTooLargeError(ResourceExhaustedError):
    """The whole session, or the whole list of a user's sessions, is larger
    than one response may carry (RESOURCE_EXHAUSTED, reason
    ``RESPONSE_TOO_LARGE``); read it in pages with
    :meth:`Client.session_events` or :meth:`Client.get_session_page`, the
    list with :meth:`Client.iter_sessions`."""


class TooManyConnectStreamsError(ResourceExhaustedError):
    """The service holds as many Connect streams as it allows
    (RESOURCE_EXHAUSTED, reason ``TOO_MANY_CONNECT_STREAMS``); retry later."""


class NestingTooDeepError(InvalidArgumentError):
    """A value of the request is nested deeper than the service allows
    (INVALID_ARGUMENT, reason ``NESTING_TOO_DEEP``)."""

    @property
    def field(self) -> str:
        """The request field holding the value, e.g. ``"state_delta"``, or
        ``""`` when the service did not name it."""
        return self.metadata.get("field", "")


class ShuttingDownError(UnavailableError):
    """The server is draining and takes no new invocation (UNAVAILABLE,
    reason ``SHUTTING_DOWN``); another replica, or this one once restarted,
    will."""


class ModelError(AgentsvcError):
    """The agent's model failed the invocation (reason ``MODEL_ERROR``); the
    message is the model's own.

    The code follows the model's answer, and a raised ModelError is also an
    instance of that code's class: a model's 429 is a
    :class:`ResourceExhaustedError`, a 504 or a model call cut off by its
    timeout a :class:`DeadlineExceededError`, another 5xx an
    :class:`UnavailableError`, another 4xx a
    :class:`FailedPreconditionError`. So both ``except agentsvc.ModelError``
    and ``except agentsvc.UnavailableError`` catch a model's 503.
    """

    @property
    def http_status(self) -> int | None:
        """The HTTP status of the failed model call, or None when no answer
        came (a timeout, a response cut off for its size)."""
        raw = self.metadata.get("http_status", "")
        return int(raw) if raw.isdigit() else None

    @property
    def model_status(self) -> str:
        """The model's status text (e.g. ``"RESOURCE_EXHAUSTED"``), or
        ``""``."""
        return self.metadata.get("model_status", "")


_BY_CODE: dict[grpc.StatusCode, type[AgentsvcError]] = {
    cls.grpc_code: cls
    for cls in (
        CancelledError,
        InvalidArgumentError,
        DeadlineExceededError,
        NotFoundError,
        AlreadyExistsError,
        PermissionDeniedError,
        ResourceExhaustedError,
        FailedPreconditionError,
        AbortedError,
        UnimplementedError,
        InternalError,
        UnavailableError,
        UnauthenticatedError,
    )
    if cls.grpc_code is not None
}

_MODEL_ERROR = "MODEL_ERROR"

# The class of every reason of ErrorReason: a subclass of its code's class,
# or None for the class of the status code. A reason's class applies only
# with the code it was defined for; an unknown reason (from a newer service)
# gets its code's class. tests/test_errors.py checks that every reason of
# the enum is here.
_BY_REASON: dict[str, type[AgentsvcError] | None] = {
    # Requests.
    "INTERNAL": None,
    "INVALID_ARGUMENT": None,
    "MALFORMED_REQUEST": None,
    "NESTING_TOO_DEEP": NestingTooDeepError,
    "INVALID_REQUEST": None,
    "UNSUPPORTED_MEDIA_TYPE": None,
    "REQUEST_TOO_LARGE": None,
    "REQUEST_TIMEOUT": None,
    "ROUTE_NOT_FOUND": None,
    "METHOD_NOT_ALLOWED": None,
    "NOT_SERVED": None,
    "ORIGIN_NOT_ALLOWED": None,
    "HOST_NOT_ALLOWED": None,
    "CANCELLED": None,
    "DEADLINE_EXCEEDED": None,
    "RESPONSE_TOO_LARGE": ResponseTooLargeError,
    # Authentication and authorization.
    "UNAUTHENTICATED": None,
    "TOKEN_INVALID": None,
    "TOKEN_EXPIRED": None,
    "PERMISSION_DENIED": None,
    "APP_STATE_DENIED": None,
    # The server's limits.
    "SERVER_BUSY": None,
    "USER_RATE_LIMITED": None,
    "USER_INVOCATION_LIMIT": None,
    "USER_SESSION_LIMIT": None,
    "SHUTTING_DOWN": ShuttingDownError,
    "TOO_MANY_CONNECT_STREAMS": TooManyConnectStreamsError,
    "CONNECT_START_TIMEOUT": ConnectStartTimeoutError,
    "INVOCATION_TIMEOUT": InvocationTimeoutError,
    # Apps, sessions and invocations.
    "APP_NOT_FOUND": None,
    "SESSION_NOT_FOUND": None,
    "SESSION_EXISTS": None,
    "SESSION_BUSY": SessionBusyError,
    "SESSION_STALE": None,
    "SESSION_TOO_LARGE": SessionTooLargeError,
    "SESSION_STORE_UNAVAILABLE": None,
    "INVOCATION_NOT_FOUND": None,
    "TRACE_NOT_FOUND": None,
    "NODE_NOT_FOUND": None,
    # Artifacts and memory.
    "ARTIFACT_NOT_FOUND": None,
    "ARTIFACT_INVALID": None,
    "ARTIFACT_TOO_LARGE": None,
    "ARTIFACT_CONFLICT": None,
    "ARTIFACTS_NOT_CONFIGURED": None,
    "MEMORY_NOT_CONFIGURED": None,
    "MEMORY_FULL": None,
    "MEMORY_QUERY_TOO_LARGE": None,
    "MEMORY_UNAVAILABLE": None,
    # Models.
    _MODEL_ERROR: ModelError,
    "MODEL_UNAVAILABLE": None,
    "LLM_CALLS_EXCEEDED": None,
    # The app's configuration.
    "AGENT_NOT_FOUND": None,
    "TOOL_NOT_FOUND": None,
    "MODEL": None,
    "NO_MODEL": None,
    "INSTRUCTION": None,
    "CONTENTS": None,
    "DUPLICATE_AGENT": None,
    "FEATURE_NOT_ENABLED": None,
    "TOOL_NOT_SUPPORTED": None,
    "OUTPUT_SCHEMA_MISMATCH": None,
    "CODE_EXECUTOR_NOT_SUPPORTED": None,
    "TOOL_ARGUMENT_MISSING": None,
    "MCP_UNAVAILABLE": None,
    "MCP_TOOL_RESERVED": None,
    "MCP_TOOL_FAILED": None,
    # Tools, callbacks, code and nodes that run in the client.
    "TOOL_RESULT_MISSING": None,
    "DUPLICATE_TOOL_CALL_ID": None,
    "CALLBACK_NOT_DECLARED": None,
    "CALLBACK_FAILED": None,
    "CALLBACK_TIMEOUT": None,
    "CALLBACK_RESULT_MISSING": None,
    "CALLBACK_RESULT_INVALID": None,
    "CODE_EXECUTOR_NOT_DECLARED": None,
    "CODE_EXECUTION_TIMEOUT": None,
    "CODE_RESULT_MISSING": None,
    "NODE_NOT_DECLARED": None,
    "NODE_TIMEOUT": None,
    "NODE_RESULT_MISSING": None,
    # Workflows.
    "NODE_FAILED": None,
    "WORKFLOW_CONFIGURATION_ERROR": None,
    "WORKFLOW_DATA_ERROR": None,
    "TOOL_NOT_DECLARED": None,
    "NOT_A_TASK_AGENT": None,
    # Replay of recorded ADK runs.
    "REPLAY_VERIFICATION_FAILED": None,
    "REPLAY_CONFIG": None,
    # The names of the codes, for a REST status that carried no reason.
    "CANCELED": None,
    "UNKNOWN": None,
    "NOT_FOUND": None,
    "ALREADY_EXISTS": None,
    "RESOURCE_EXHAUSTED": None,
    "FAILED_PRECONDITION": None,
    "ABORTED": None,
    "OUT_OF_RANGE": None,
    "UNIMPLEMENTED": None,
    "UNAVAILABLE": None,
    "DATA_LOSS": None,
}


def _model_error_class(base: type[AgentsvcError]) -> type[ModelError]:
    name = "Model" + base.__name__
    namespace = {"__module__": __name__, "__qualname__": name, "__doc__": ModelError.__doc__}
    return cast("type[ModelError]", type(name, (ModelError, base), namespace))


# ModelError mixed into each code's class, e.g. ModelUnavailableError.
_MODEL_BY_CODE: dict[grpc.StatusCode, type[ModelError]] = {
    code: _model_error_class(cls) for code, cls in _BY_CODE.items()
}


def error_for(
    code: grpc.StatusCode,
    message: str,
    *,
    reason: str = "",
    domain: str = "",
    metadata: Mapping[str, str] | None = None,
) -> AgentsvcError:
    """Returns the exception for a status code and ErrorInfo reason."""
    cls: type[AgentsvcError]
    if reason == _MODEL_ERROR:
        cls = _MODEL_BY_CODE.get(code, ModelError)
    else:
        cls = _BY_REASON.get(reason) or _BY_CODE.get(code, AgentsvcError)
        if cls.grpc_code is not code:
            cls = _BY_CODE.get(code, AgentsvcError)
    return cls(message, code=code, reason=reason, domain=domain, metadata=metadata)


def from_rpc_error(err: grpc.RpcError) -> AgentsvcError:
    """Converts a ``grpc.RpcError`` (sync or asyncio) into an
    :class:`AgentsvcError` subclass, reading the ``google.rpc.ErrorInfo``
    detail from the status trailer when there is one."""
    code = _call(err, "code")
    if not isinstance(code, grpc.StatusCode):
        code = grpc.StatusCode.UNKNOWN
    message = _call(err, "details")
    if not isinstance(message, str):
        message = ""
    trailers = _call(err, "trailing_metadata") or ()
    reason, domain, metadata = "", "", {}
    for key, value in trailers:
        if key != _STATUS_DETAILS_KEY or not isinstance(value, bytes):
            continue
        info = _error_info(value)
        if info is not None:
            reason, domain, metadata = info.reason, info.domain, dict(info.metadata)
            break
    return error_for(code, message, reason=reason, domain=domain, metadata=metadata)


def _call(err: grpc.RpcError, name: str) -> Any:
    """Calls an accessor that grpc.Call errors have and plain RpcErrors lack."""
    method = getattr(err, name, None)
    return method() if callable(method) else None


def _error_info(raw: bytes) -> error_details_pb2.ErrorInfo | None:
    status = status_pb2.Status()
    try:
        status.ParseFromString(raw)
    except DecodeError:
        return None
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info
    return None
