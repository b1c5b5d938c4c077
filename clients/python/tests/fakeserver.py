"""An in-process agentsvc stand-in for unit tests: a real grpc.aio server
whose RunnerService and SessionService methods are plain functions that each
test sets, and whose ArtifactService is an object a test sets, so tests
exercise the client over a real gRPC transport."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import grpc.aio
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2

from agentsvc.v1 import (
    artifact_service_pb2_grpc,
    runner_service_pb2,
    runner_service_pb2_grpc,
    session_service_pb2,
    session_service_pb2_grpc,
)

ConnectHandler = Callable[
    [AsyncIterator[runner_service_pb2.ConnectRequest], grpc.aio.ServicerContext[Any, Any]],
    AsyncIterator[runner_service_pb2.ConnectResponse],
]
RunHandler = Callable[
    [runner_service_pb2.RunRequest, grpc.aio.ServicerContext[Any, Any]],
    AsyncIterator[runner_service_pb2.RunResponse],
]
GetSessionHandler = Callable[
    [session_service_pb2.GetSessionRequest, grpc.aio.ServicerContext[Any, Any]],
    Awaitable[session_service_pb2.GetSessionResponse],
]
ListSessionsHandler = Callable[
    [session_service_pb2.ListSessionsRequest, grpc.aio.ServicerContext[Any, Any]],
    Awaitable[session_service_pb2.ListSessionsResponse],
]


async def abort_with_info(
    context: grpc.aio.ServicerContext[Any, Any], code: grpc.StatusCode, message: str, reason: str
) -> None:
    """Ends the call with a status carrying an agentsvc ErrorInfo, as the
    service does."""
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=reason, domain="agentsvc"))
    status = status_pb2.Status(code=code.value[0], message=message, details=[detail])
    context.set_trailing_metadata((("grpc-status-details-bin", status.SerializeToString()),))
    await context.abort(code, message)


class _Runner(runner_service_pb2_grpc.RunnerServiceServicer):
    def __init__(self, fake: FakeServer) -> None:
        self._fake = fake

    # grpc.aio serves a streaming method as such only when the method itself
    # is an async generator function.
    async def Run(self, request: Any, context: Any) -> AsyncIterator[Any]:  # noqa: N802 (gRPC method name)
        if self._fake.run is None:
            raise NotImplementedError("Run")
        async for response in self._fake.run(request, context):
            yield response

    async def Connect(self, request_iterator: Any, context: Any) -> AsyncIterator[Any]:  # noqa: N802
        if self._fake.connect is None:
            raise NotImplementedError("Connect")
        async for response in self._fake.connect(request_iterator, context):
            yield response


class _Sessions(session_service_pb2_grpc.SessionServiceServicer):
    def __init__(self, fake: FakeServer) -> None:
        self._fake = fake

    async def GetSession(self, request: Any, context: Any) -> Any:  # noqa: N802
        if self._fake.get_session is None:
            raise NotImplementedError("GetSession")
        return await self._fake.get_session(request, context)

    async def ListSessions(self, request: Any, context: Any) -> Any:  # noqa: N802
        if self._fake.list_sessions is None:
            raise NotImplementedError("ListSessions")
        return await self._fake.list_sessions(request, context)


class _Artifacts(artifact_service_pb2_grpc.ArtifactServiceServicer):
    """Hands each ArtifactService call to the method of the same name of
    ``fake.artifacts``, called as ``method(request, context)``."""

    def __init__(self, fake: FakeServer) -> None:
        self._fake = fake

    async def _call(self, name: str, request: Any, context: Any) -> Any:
        if self._fake.artifacts is None:
            raise NotImplementedError(name)
        return await getattr(self._fake.artifacts, name)(request, context)

    async def ListArtifactKeys(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("ListArtifactKeys", request, context)

    async def LoadArtifact(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("LoadArtifact", request, context)

    async def ListArtifactVersions(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("ListArtifactVersions", request, context)

    async def ListArtifactVersionsMetadata(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("ListArtifactVersionsMetadata", request, context)

    async def GetArtifactVersion(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("GetArtifactVersion", request, context)

    async def SaveArtifact(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("SaveArtifact", request, context)

    async def DeleteArtifact(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("DeleteArtifact", request, context)


class FakeServer:
    """A grpc.aio server on a free loopback port; set ``run``, ``connect``,
    ``get_session``, ``list_sessions`` or ``artifacts`` to the behaviour a
    test needs."""

    def __init__(self, *, credentials: grpc.ServerCredentials | None = None) -> None:
        self.run: RunHandler | None = None
        self.connect: ConnectHandler | None = None
        self.get_session: GetSessionHandler | None = None
        self.list_sessions: ListSessionsHandler | None = None
        self.artifacts: Any = None
        self.server = grpc.aio.server()
        runner_service_pb2_grpc.add_RunnerServiceServicer_to_server(_Runner(self), self.server)
        session_service_pb2_grpc.add_SessionServiceServicer_to_server(_Sessions(self), self.server)
        artifact_service_pb2_grpc.add_ArtifactServiceServicer_to_server(_Artifacts(self), self.server)
        if credentials is not None:
            port = self.server.add_secure_port("127.0.0.1:0", credentials)
        else:
            port = self.server.add_insecure_port("127.0.0.1:0")
        self.target = f"127.0.0.1:{port}"

    async def start(self) -> None:
        await self.server.start()

    async def stop(self) -> None:
        await self.server.stop(grace=None)
