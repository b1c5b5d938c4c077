"""Unit tests of the mapping from gRPC statuses to exceptions."""

from __future__ import annotations

from typing import Any

import grpc
import grpc.aio
import pytest
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

import agentsvc
from agentsvc import errors
from agentsvc.v1 import error_reason_pb2, session_service_pb2
from tests.fakeserver import FakeServer, abort_with_info


def _rpc_error(code: grpc.StatusCode, message: str, reason: str = "", trailers: Any = None) -> grpc.aio.AioRpcError:
    if trailers is None:
        trailers = ()
        if reason:
            detail = any_pb2.Any()
            detail.Pack(error_details_pb2.ErrorInfo(reason=reason, domain="agentsvc", metadata={"k": "v"}))
            status = status_pb2.Status(code=code.value[0], message=message, details=[detail])
            trailers = (("grpc-status-details-bin", status.SerializeToString()),)
    return grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(*trailers), message, None)


@pytest.mark.parametrize(
    ("code", "reason", "cls"),
    [
        (grpc.StatusCode.NOT_FOUND, "SESSION_NOT_FOUND", agentsvc.NotFoundError),
        (grpc.StatusCode.NOT_FOUND, "APP_NOT_FOUND", agentsvc.NotFoundError),
        (grpc.StatusCode.ALREADY_EXISTS, "SESSION_EXISTS", agentsvc.AlreadyExistsError),
        (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT", agentsvc.InvalidArgumentError),
        (grpc.StatusCode.ABORTED, "SESSION_BUSY", agentsvc.SessionBusyError),
        (grpc.StatusCode.ABORTED, "SESSION_STALE", agentsvc.AbortedError),
        (grpc.StatusCode.FAILED_PRECONDITION, "TOOL_NOT_FOUND", agentsvc.FailedPreconditionError),
        (grpc.StatusCode.RESOURCE_EXHAUSTED, "MAX_LLM_CALLS", agentsvc.ResourceExhaustedError),
        (grpc.StatusCode.UNAVAILABLE, "MODEL_UNAVAILABLE", agentsvc.UnavailableError),
        (grpc.StatusCode.INTERNAL, "INTERNAL", agentsvc.InternalError),
        (grpc.StatusCode.CANCELLED, "CANCELLED", agentsvc.CancelledError),
        (grpc.StatusCode.DEADLINE_EXCEEDED, "", agentsvc.DeadlineExceededError),
        (grpc.StatusCode.UNAUTHENTICATED, "", agentsvc.UnauthenticatedError),
        (grpc.StatusCode.PERMISSION_DENIED, "", agentsvc.PermissionDeniedError),
        (grpc.StatusCode.UNIMPLEMENTED, "", agentsvc.UnimplementedError),
        (grpc.StatusCode.DEADLINE_EXCEEDED, "INVOCATION_TIMEOUT", agentsvc.InvocationTimeoutError),
        (grpc.StatusCode.DEADLINE_EXCEEDED, "CONNECT_START_TIMEOUT", agentsvc.ConnectStartTimeoutError),
        (grpc.StatusCode.RESOURCE_EXHAUSTED, "SESSION_TOO_LARGE", agentsvc.SessionTooLargeError),
        (grpc.StatusCode.RESOURCE_EXHAUSTED, "RESPONSE_TOO_LARGE", agentsvc.ResponseTooLargeError),
        (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_CONNECT_STREAMS", agentsvc.TooManyConnectStreamsError),
        (grpc.StatusCode.INVALID_ARGUMENT, "NESTING_TOO_DEEP", agentsvc.NestingTooDeepError),
        (grpc.StatusCode.UNAVAILABLE, "SHUTTING_DOWN", agentsvc.ShuttingDownError),
        (grpc.StatusCode.DATA_LOSS, "", agentsvc.AgentsvcError),
        (grpc.StatusCode.UNKNOWN, "", agentsvc.AgentsvcError),
    ],
)
def test_from_rpc_error(code: grpc.StatusCode, reason: str, cls: type[agentsvc.AgentsvcError]) -> None:
    err = agentsvc.from_rpc_error(_rpc_error(code, "Session not found", reason))
    assert type(err) is cls
    assert err.code is code
    assert err.message == "Session not found"
    assert err.reason == reason
    if reason:
        assert err.domain == "agentsvc"
        assert err.metadata == {"k": "v"}
        assert str(err) == f"Session not found ({code.name}/{reason})"
    else:
        assert str(err) == f"Session not found ({code.name})"


@pytest.mark.parametrize(
    ("code", "reason", "cls"),
    [
        (grpc.StatusCode.INTERNAL, "SESSION_BUSY", agentsvc.InternalError),
        (grpc.StatusCode.UNAVAILABLE, "INVOCATION_TIMEOUT", agentsvc.UnavailableError),
        (grpc.StatusCode.INVALID_ARGUMENT, "SESSION_TOO_LARGE", agentsvc.InvalidArgumentError),
        (grpc.StatusCode.UNKNOWN, "SHUTTING_DOWN", agentsvc.AgentsvcError),
    ],
)
def test_reason_only_counts_with_its_code(code: grpc.StatusCode, reason: str, cls: type[agentsvc.AgentsvcError]) -> None:
    err = agentsvc.from_rpc_error(_rpc_error(code, "x", reason))
    assert type(err) is cls
    assert err.reason == reason


# Every reason of the ErrorReason enum, the service's closed set.
_REASONS = [name for name in error_reason_pb2.ErrorReason.keys() if name != "ERROR_REASON_UNSPECIFIED"]


def _reason_codes(reason: str) -> list[grpc.StatusCode]:
    """The codes error_reason.proto documents for a reason."""
    options = error_reason_pb2.ErrorReason.DESCRIPTOR.values_by_name[reason].GetOptions()
    # The stubs type the extension as a plain FieldDescriptor, which
    # Extensions does not take by its types.
    extensions: Any = options.Extensions
    names: list[str] = list(extensions[error_reason_pb2.reason_codes])
    return [grpc.StatusCode[name] for name in names]


def test_every_reason_has_a_class() -> None:
    assert len(_REASONS) > 50
    assert sorted(errors._BY_REASON) == sorted(_REASONS)


@pytest.mark.parametrize("reason", _REASONS)
def test_each_reason_raises_its_class(reason: str) -> None:
    codes = _reason_codes(reason)
    assert codes, f"{reason} documents no code"
    cls = errors._BY_REASON[reason]
    if cls is not None and cls is not agentsvc.ModelError:
        assert cls.grpc_code in codes, f"{cls.__name__} is for {cls.grpc_code}, {reason} comes with {codes}"
    for code in codes:
        err = agentsvc.from_rpc_error(_rpc_error(code, "m", reason))
        assert err.code is code and err.reason == reason
        by_code = errors._BY_CODE.get(code, agentsvc.AgentsvcError)
        assert isinstance(err, by_code)
        if cls is None:
            assert type(err) is by_code
        else:
            assert isinstance(err, cls)


def _model_error(code: grpc.StatusCode, message: str, metadata: dict[str, str]) -> grpc.aio.AioRpcError:
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason="MODEL_ERROR", domain="agentsvc", metadata=metadata))
    status = status_pb2.Status(code=code.value[0], message=message, details=[detail])
    return _rpc_error(code, message, trailers=(("grpc-status-details-bin", status.SerializeToString()),))


@pytest.mark.parametrize(
    ("code", "metadata", "cls", "http_status"),
    [
        (grpc.StatusCode.RESOURCE_EXHAUSTED, {"http_status": "429", "model_status": "RESOURCE_EXHAUSTED"},
         agentsvc.ResourceExhaustedError, 429),
        (grpc.StatusCode.DEADLINE_EXCEEDED, {"http_status": "504", "model_status": "DEADLINE_EXCEEDED"},
         agentsvc.DeadlineExceededError, 504),
        (grpc.StatusCode.UNAVAILABLE, {"http_status": "503", "model_status": "UNAVAILABLE"},
         agentsvc.UnavailableError, 503),
        (grpc.StatusCode.FAILED_PRECONDITION, {"http_status": "400", "model_status": "INVALID_ARGUMENT"},
         agentsvc.FailedPreconditionError, 400),
        # Cut off by its timeout: no answer, so no HTTP status.
        (grpc.StatusCode.DEADLINE_EXCEEDED, {"model_status": ""}, agentsvc.DeadlineExceededError, None),
        (grpc.StatusCode.UNKNOWN, {}, agentsvc.AgentsvcError, None),
    ],
)
def test_model_error_is_also_its_code(
    code: grpc.StatusCode, metadata: dict[str, str], cls: type[agentsvc.AgentsvcError], http_status: int | None
) -> None:
    err = agentsvc.from_rpc_error(_model_error(code, "Resource has been exhausted (e.g. check quota).", metadata))
    assert isinstance(err, agentsvc.ModelError)
    assert isinstance(err, cls)
    assert err.code is code and err.reason == "MODEL_ERROR"
    assert err.message == "Resource has been exhausted (e.g. check quota)."
    assert err.http_status == http_status
    assert err.model_status == metadata.get("model_status", "")
    assert str(err) == f"Resource has been exhausted (e.g. check quota). ({code.name}/MODEL_ERROR)"
    # The same code's class is used for every model error of that code.
    again = agentsvc.from_rpc_error(_model_error(code, "again", metadata))
    assert type(again) is type(err)


def test_a_plain_error_is_no_model_error() -> None:
    err = agentsvc.from_rpc_error(_rpc_error(grpc.StatusCode.UNAVAILABLE, "down", "MODEL_UNAVAILABLE"))
    assert type(err) is agentsvc.UnavailableError
    assert not isinstance(err, agentsvc.ModelError)


def test_nesting_too_deep_names_the_field() -> None:
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason="NESTING_TOO_DEEP", domain="agentsvc", metadata={"field": "state_delta"}))
    status = status_pb2.Status(code=grpc.StatusCode.INVALID_ARGUMENT.value[0], message="too deep", details=[detail])
    trailers = (("grpc-status-details-bin", status.SerializeToString()),)
    err = agentsvc.from_rpc_error(_rpc_error(grpc.StatusCode.INVALID_ARGUMENT, "too deep", trailers=trailers))
    assert isinstance(err, agentsvc.NestingTooDeepError)
    assert err.field == "state_delta"
    assert agentsvc.NestingTooDeepError("x").field == ""


def test_malformed_details_are_ignored() -> None:
    trailers = (("grpc-status-details-bin", b"\xff\xff not a status"),)
    err = agentsvc.from_rpc_error(_rpc_error(grpc.StatusCode.NOT_FOUND, "gone", trailers=trailers))
    assert type(err) is agentsvc.NotFoundError
    assert err.reason == ""


def test_plain_rpc_error_without_call_accessors() -> None:
    err = agentsvc.from_rpc_error(grpc.RpcError())
    assert type(err) is agentsvc.AgentsvcError
    assert err.code is grpc.StatusCode.UNKNOWN


def test_exception_hierarchy() -> None:
    assert issubclass(agentsvc.SessionBusyError, agentsvc.AbortedError)
    assert issubclass(agentsvc.InvocationTimeoutError, agentsvc.DeadlineExceededError)
    assert issubclass(agentsvc.ConnectStartTimeoutError, agentsvc.DeadlineExceededError)
    assert issubclass(agentsvc.SessionTooLargeError, agentsvc.ResourceExhaustedError)
    assert issubclass(agentsvc.ResponseTooLargeError, agentsvc.ResourceExhaustedError)
    assert issubclass(agentsvc.TooManyConnectStreamsError, agentsvc.ResourceExhaustedError)
    assert issubclass(agentsvc.NestingTooDeepError, agentsvc.InvalidArgumentError)
    assert issubclass(agentsvc.ShuttingDownError, agentsvc.UnavailableError)
    for name in errors.__all__:
        obj = getattr(errors, name)
        if isinstance(obj, type):
            assert issubclass(obj, agentsvc.AgentsvcError)


async def test_unary_errors_come_through_grpc(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    async def get_session(req: session_service_pb2.GetSessionRequest, context: Any) -> Any:
        await abort_with_info(context, grpc.StatusCode.NOT_FOUND, "Session not found", "SESSION_NOT_FOUND")

    fake.get_session = get_session
    with pytest.raises(agentsvc.NotFoundError) as caught:
        await fake_client.get_session("weather", "alice", "missing")
    assert caught.value.reason == "SESSION_NOT_FOUND"
    assert caught.value.message == "Session not found"
    assert caught.value.domain == "agentsvc"


async def test_unimplemented_method(fake_client: agentsvc.Client) -> None:
    with pytest.raises(agentsvc.UnimplementedError):
        await fake_client.list_apps()


async def test_secure_channel_with_credentials() -> None:
    server = FakeServer(credentials=grpc.local_server_credentials(grpc.LocalConnectionType.LOCAL_TCP))

    seen: dict[str, str] = {}

    async def get_session(req: session_service_pb2.GetSessionRequest, context: Any) -> Any:
        seen.update((k, v) for k, v in context.invocation_metadata() if isinstance(v, str))
        return session_service_pb2.GetSessionResponse(session={"id": req.session_id, "app_name": req.app_name})

    server.get_session = get_session
    await server.start()
    try:
        creds = grpc.local_channel_credentials(grpc.LocalConnectionType.LOCAL_TCP)
        async with agentsvc.Client(server.target, credentials=creds, metadata={"X-Trace": "1"}) as client:
            session = await client.get_session("weather", "alice", "s1")
        assert (session.id, session.app_name) == ("s1", "weather")
        assert seen["x-trace"] == "1"
    finally:
        await server.stop()
