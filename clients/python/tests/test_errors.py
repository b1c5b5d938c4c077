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
from agentsvc.v1 import session_service_pb2
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


def test_busy_reason_only_counts_with_aborted() -> None:
    err = agentsvc.from_rpc_error(_rpc_error(grpc.StatusCode.INTERNAL, "x", "SESSION_BUSY"))
    assert type(err) is agentsvc.InternalError


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
