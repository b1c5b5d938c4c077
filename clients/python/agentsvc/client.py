"""The agentsvc client: sessions, apps and invocations over one channel."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncGenerator, Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar, cast

import grpc
import grpc.aio

from agentsvc._values import to_struct
from agentsvc.artifacts import ArtifactData, ArtifactVersion, artifact_part
from agentsvc.errors import NotFoundError, from_rpc_error
from agentsvc.invocation import Invocation
from agentsvc.pages import DEFAULT_PAGE_SIZE, SessionListPage, SessionPage
from agentsvc.callbacks import Callback, as_callback
from agentsvc.codeexec import CodeExecutor
from agentsvc.tools import Tool, as_tool
from agentsvc.workflow import Node, as_node
from agentsvc.v1 import (
    app_service_pb2,
    app_service_pb2_grpc,
    artifact_service_pb2,
    artifact_service_pb2_grpc,
    content_pb2,
    event_pb2,
    runner_service_pb2,
    runner_service_pb2_grpc,
    session_pb2,
    session_service_pb2,
    session_service_pb2_grpc,
)

__all__ = ["DEFAULT_TARGET", "Client", "Message", "new_request_id", "user_message"]

#: The address ``agentsvc serve`` listens on by default.
DEFAULT_TARGET = "127.0.0.1:50051"

#: What :meth:`Client.run` accepts as the new message: text, a Content, or
#: the parts of a user Content.
Message = str | content_pb2.Content | Sequence[content_pb2.Part]

T = TypeVar("T")

# The ErrorInfo reason of a missing artifact or version, where ADK returns
# None (a missing app is NOT_FOUND too, with another reason).
_ARTIFACT_NOT_FOUND = "ARTIFACT_NOT_FOUND"


def user_message(message: Message) -> content_pb2.Content:
    """Returns ``message`` as a user Content."""
    if isinstance(message, content_pb2.Content):
        return message
    if isinstance(message, str):
        return content_pb2.Content(role="user", parts=[content_pb2.Part(text=message)])
    return content_pb2.Content(role="user", parts=list(message))


def new_request_id() -> str:
    """Returns a fresh request id (a random UUID) for one logical run.

    Pass it as ``request_id`` to :meth:`Client.run` or :meth:`Client.connect`
    and reuse it for every retry of that run (or call
    :meth:`Invocation.retry`), so that the service stores the user's message
    once however often the run is sent.
    """
    return str(uuid.uuid4())


class Client:
    """A connection to an agentsvc server.

    Use it as an async context manager, or call :meth:`close` when done::

        async with agentsvc.Client("127.0.0.1:50051") as client:
            session = await client.create_session("weather", "alice")
            async for event in client.connect("weather", "alice", session.id,
                                              "Weather in Paris?", tools=[get_weather]):
                print(agentsvc.event_text(event))

    Every method raises an :class:`~agentsvc.AgentsvcError` subclass when
    the service answers with an error status. A Client is safe to use from
    concurrent tasks of one event loop; it may be created outside the loop,
    but its channel belongs to the loop of its first call.
    """

    def __init__(
        self,
        target: str = DEFAULT_TARGET,
        *,
        tls: bool = False,
        credentials: grpc.ChannelCredentials | None = None,
        call_credentials: grpc.CallCredentials | None = None,
        metadata: Mapping[str, str] | Sequence[tuple[str, str]] | None = None,
        options: Sequence[tuple[str, Any]] | None = None,
        channel: grpc.aio.Channel | None = None,
        timeout: float | None = None,
    ) -> None:
        """Opens a channel to ``target`` (``host:port``).

        Args:
            target: The server's gRPC address; default ``127.0.0.1:50051``.
            tls: Use TLS with the system's root certificates.
            credentials: Channel credentials (implies TLS), e.g. from
                ``grpc.ssl_channel_credentials(root_certificates=...)``.
            call_credentials: Per-call credentials (e.g. a token), combined
                with the channel credentials; requires TLS.
            metadata: Metadata sent with every call.
            options: gRPC channel options.
            channel: An existing ``grpc.aio.Channel`` to use instead; the
                client then does not close it.
            timeout: Deadline in seconds of each session and app call; None
                (the default) sets none. Invocations take their own.
        """
        self._timeout = timeout
        self._target = target
        self._options = options
        self._credentials = credentials
        if credentials is None and (tls or call_credentials is not None):
            self._credentials = grpc.ssl_channel_credentials()
        if self._credentials is not None and call_credentials is not None:
            self._credentials = grpc.composite_channel_credentials(self._credentials, call_credentials)
        self._channel = channel
        self._owns_channel = channel is None
        self._stubs: _Stubs | None = None
        items = metadata.items() if isinstance(metadata, Mapping) else (metadata or ())
        self._metadata: tuple[tuple[str, str], ...] = tuple((k.lower(), v) for k, v in items)

    def _connection(self) -> _Stubs:
        """Returns the stubs, opening the channel on first use: a grpc.aio
        channel belongs to the event loop it is created in, so it is created
        inside the caller's loop rather than in the constructor."""
        if self._stubs is None:
            if self._channel is None:
                if self._credentials is not None:
                    self._channel = grpc.aio.secure_channel(self._target, self._credentials, options=self._options)
                else:
                    self._channel = grpc.aio.insecure_channel(self._target, options=self._options)
            self._stubs = _Stubs(self._channel)
        return self._stubs

    @property
    def channel(self) -> grpc.aio.Channel:
        """The underlying gRPC channel, opened on first use."""
        return self._connection().channel

    async def close(self) -> None:
        """Closes the channel (unless it was passed in), cancelling calls in
        flight."""
        if self._owns_channel and self._channel is not None:
            await self._channel.close(grace=None)
        self._stubs = None
        if self._owns_channel:
            self._channel = None

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # Invocations.

    def run(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        message: Message,
        *,
        state_delta: Mapping[str, Any] | None = None,
        invocation_id: str = "",
        request_id: str = "",
        streaming: bool = False,
        max_llm_calls: int | None = None,
        custom_metadata: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Invocation:
        """Runs an agent without client tools (the ``Run`` RPC).

        Returns an :class:`Invocation`; the run starts when it is first
        iterated. Apps whose agents use remote tools need :meth:`connect`.

        Args:
            app_name: The app to run.
            user_id: The session's user.
            session_id: An existing session (see :meth:`create_session`).
            message: The user's new message: text, Content or parts.
            state_delta: State changes stored with the user event.
            invocation_id: Resumes a paused invocation of a resumable app.
            request_id: Idempotency key of the run (at most 128 bytes of
                UTF-8, no control characters), e.g. from
                :func:`new_request_id`. A run whose request id the session
                already holds stores no second user message: it answers the
                finished invocation's events again, or continues the one
                that stopped early. Retry with the same id, or with
                :meth:`Invocation.retry`.
            streaming: Stream partial events as the model produces them
                (SSE streaming mode).
            max_llm_calls: Bound on model calls; None keeps the service's
                default (500), 0 or less means no limit.
            custom_metadata: Stored in the run config.
            timeout: Deadline of the whole call in seconds.
        """
        request = self._run_request(
            app_name, user_id, session_id, message, state_delta, invocation_id, request_id, streaming,
            max_llm_calls, custom_metadata,
        )
        return Invocation(self._runner_stub, request, tools=None, metadata=self._metadata, timeout=timeout)

    def connect(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        message: Message,
        *,
        tools: Iterable[Tool[Any, Any] | Callable[..., Any]] = (),
        callbacks: Iterable[Callback | Callable[..., Any]] = (),
        code_executor: CodeExecutor | None = None,
        nodes: Iterable[Node | Callable[..., Any]] = (),
        state_delta: Mapping[str, Any] | None = None,
        invocation_id: str = "",
        request_id: str = "",
        streaming: bool = False,
        max_llm_calls: int | None = None,
        custom_metadata: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Invocation:
        """Runs an agent whose remote tools live here (the ``Connect`` RPC).

        ``tools`` are :class:`Tool` objects or plain functions (wrapped with
        :func:`~agentsvc.tool`); they must cover the remote tools named in
        the app's YAML. The service sends a ``tool_call`` whenever the model
        calls one, and the Invocation answers it while events keep coming.
        ``callbacks`` are :class:`Callback` objects or plain functions
        (wrapped with :func:`~agentsvc.callback`); they must cover the
        callbacks the app's YAML names, and each ``callback_call`` is answered
        the same way. ``code_executor`` (e.g. a
        :class:`~agentsvc.SubprocessCodeExecutor`) runs the code blocks of
        agents whose YAML declares a ``ClientCodeExecutor``; each
        ``code_execution`` is answered with its result. ``nodes`` are
        :class:`Node` objects or plain functions (wrapped with
        :func:`~agentsvc.node`): the function nodes of the app's workflows,
        each ``node_call`` answered with the node's output, state changes,
        route, RequestInputs or error. Other arguments are those of
        :meth:`run`.
        """
        request = self._run_request(
            app_name, user_id, session_id, message, state_delta, invocation_id, request_id, streaming,
            max_llm_calls, custom_metadata,
        )
        declared = [as_tool(t) for t in tools]
        return Invocation(self._runner_stub, request, tools=declared, metadata=self._metadata, timeout=timeout,
                          callbacks=[as_callback(c) for c in callbacks], code_executor=code_executor,
                          nodes=[as_node(n) for n in nodes])

    @staticmethod
    def _run_request(
        app_name: str,
        user_id: str,
        session_id: str,
        message: Message,
        state_delta: Mapping[str, Any] | None,
        invocation_id: str,
        request_id: str,
        streaming: bool,
        max_llm_calls: int | None,
        custom_metadata: Mapping[str, Any] | None,
    ) -> runner_service_pb2.RunRequest:
        config = runner_service_pb2.RunConfig(
            streaming_mode=runner_service_pb2.STREAMING_MODE_SSE
            if streaming
            else runner_service_pb2.STREAMING_MODE_NONE,
        )
        if max_llm_calls is not None:
            config.max_llm_calls = max_llm_calls
        if custom_metadata:
            config.custom_metadata.CopyFrom(to_struct(custom_metadata))
        request = runner_service_pb2.RunRequest(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            new_message=user_message(message),
            invocation_id=invocation_id,
            request_id=request_id,
            run_config=config,
        )
        if state_delta:
            request.state_delta.CopyFrom(to_struct(state_delta))
        return request

    # Sessions.

    async def create_session(
        self,
        app_name: str,
        user_id: str,
        session_id: str = "",
        *,
        state: Mapping[str, Any] | None = None,
    ) -> session_pb2.Session:
        """Creates a session; its id is generated unless given.

        Raises:
            AlreadyExistsError: ``session_id`` is taken.
            NotFoundError: the app does not exist.
        """
        request = session_service_pb2.CreateSessionRequest(app_name=app_name, user_id=user_id, session_id=session_id)
        if state:
            request.state.CopyFrom(to_struct(state))
        response = await self._unary(self._connection().sessions.CreateSession, request, session_service_pb2.CreateSessionResponse)
        return response.session

    async def get_session(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        *,
        num_recent_events: int = 0,
        after_timestamp: float = 0.0,
    ) -> session_pb2.Session:
        """Returns a session with its events (the last ``num_recent_events``
        only, or those at or after ``after_timestamp``, when positive).

        A session too large for one response is refused: read it with
        :meth:`session_events` or :meth:`get_session_page`.

        Raises:
            NotFoundError: the app or session does not exist.
            ResponseTooLargeError: the session does not fit one response.
        """
        request = session_service_pb2.GetSessionRequest(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            num_recent_events=num_recent_events,
            after_timestamp=after_timestamp,
        )
        response = await self._unary(self._connection().sessions.GetSession, request, session_service_pb2.GetSessionResponse)
        return response.session

    async def get_session_page(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        *,
        page_size: int = DEFAULT_PAGE_SIZE,
        page_token: str = "",
        num_recent_events: int = 0,
        after_timestamp: float = 0.0,
    ) -> SessionPage:
        """Returns one page of a session: its state and up to ``page_size``
        of its events, oldest first, and the token of the next page.

        The first call passes no ``page_token``; each next one passes the
        previous page's ``next_page_token`` and the same
        ``num_recent_events`` and ``after_timestamp`` (``page_size`` may
        change). The pages cover the events the session had at the first
        call. The service serves at most 1000 events a page and ends a page
        early rather than send more than 4 MiB; :meth:`session_events` reads
        every page for you.

        Raises:
            ValueError: ``page_size`` is not positive.
            NotFoundError: the app or session does not exist.
            InvalidArgumentError: the token is malformed or belongs to
                another session or selection.
        """
        if page_size < 1:
            raise ValueError(f"page_size must be positive, not {page_size}")
        request = session_service_pb2.GetSessionRequest(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            num_recent_events=num_recent_events,
            after_timestamp=after_timestamp,
            page_size=page_size,
            page_token=page_token,
        )
        response = await self._unary(self._connection().sessions.GetSession, request, session_service_pb2.GetSessionResponse)
        return SessionPage(session=response.session, next_page_token=response.next_page_token)

    async def session_pages(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        *,
        page_size: int = DEFAULT_PAGE_SIZE,
        num_recent_events: int = 0,
        after_timestamp: float = 0.0,
    ) -> AsyncGenerator[SessionPage, None]:
        """Yields every page of a session, first to last, each read when
        the previous one has been consumed (see :meth:`get_session_page`).
        A session without events yields one empty page."""
        token = ""
        while True:
            page = await self.get_session_page(
                app_name, user_id, session_id,
                page_size=page_size, page_token=token,
                num_recent_events=num_recent_events, after_timestamp=after_timestamp,
            )
            yield page
            if page.last:
                return
            token = page.next_page_token

    async def session_events(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        *,
        page_size: int = DEFAULT_PAGE_SIZE,
        num_recent_events: int = 0,
        after_timestamp: float = 0.0,
    ) -> AsyncGenerator[event_pb2.Event, None]:
        """Yields every event of a session, oldest first, reading it page by
        page, so that a session of any size can be read::

            async for event in client.session_events("weather", "alice", sid):
                print(event.author, agentsvc.event_text(event))

        ``num_recent_events`` and ``after_timestamp`` select events as in
        :meth:`get_session`. Events stored after the first page was read
        are not included.
        """
        pages = self.session_pages(
            app_name, user_id, session_id,
            page_size=page_size, num_recent_events=num_recent_events, after_timestamp=after_timestamp,
        )
        async with contextlib.aclosing(pages):
            async for page in pages:
                for event in page.events:
                    yield event

    async def list_sessions(self, app_name: str, user_id: str) -> list[session_pb2.Session]:
        """Returns the user's sessions of the app, without their events.

        A list too large for one response is refused: read it with
        :meth:`iter_sessions` or :meth:`list_sessions_page`.

        Raises:
            ResponseTooLargeError: the sessions do not fit one response.
        """
        request = session_service_pb2.ListSessionsRequest(app_name=app_name, user_id=user_id)
        response = await self._unary(self._connection().sessions.ListSessions, request, session_service_pb2.ListSessionsResponse)
        return list(response.sessions)

    async def list_sessions_page(
        self,
        app_name: str,
        user_id: str,
        *,
        page_size: int = DEFAULT_PAGE_SIZE,
        page_token: str = "",
    ) -> SessionListPage:
        """Returns one page of the user's sessions of the app, without their
        events, oldest first, and the token of the next page.

        The first call passes no ``page_token``; each next one passes the
        previous page's ``next_page_token`` (``page_size`` may change). A
        listing neither repeats nor skips a session that exists throughout
        it. The service serves at most 1000 sessions a page and ends a page
        early rather than send more than 4 MiB; :meth:`iter_sessions` reads
        every page for you.

        Raises:
            ValueError: ``page_size`` is not positive.
            InvalidArgumentError: the token is malformed or belongs to
                another user's listing.
        """
        if page_size < 1:
            raise ValueError(f"page_size must be positive, not {page_size}")
        request = session_service_pb2.ListSessionsRequest(
            app_name=app_name, user_id=user_id, page_size=page_size, page_token=page_token
        )
        response = await self._unary(self._connection().sessions.ListSessions, request, session_service_pb2.ListSessionsResponse)
        return SessionListPage(sessions=list(response.sessions), next_page_token=response.next_page_token)

    async def iter_sessions(
        self,
        app_name: str,
        user_id: str,
        *,
        page_size: int = DEFAULT_PAGE_SIZE,
    ) -> AsyncGenerator[session_pb2.Session, None]:
        """Yields every session of the user, oldest first, without events,
        reading them page by page as they are consumed (see
        :meth:`list_sessions_page`), so that a list of any size can be read::

            async for session in client.iter_sessions("weather", "alice"):
                print(session.id)
        """
        token = ""
        while True:
            page = await self.list_sessions_page(app_name, user_id, page_size=page_size, page_token=token)
            for session in page.sessions:
                yield session
            if page.last:
                return
            token = page.next_page_token

    async def delete_session(self, app_name: str, user_id: str, session_id: str) -> None:
        """Deletes a session; deleting a missing one is not an error."""
        request = session_service_pb2.DeleteSessionRequest(app_name=app_name, user_id=user_id, session_id=session_id)
        await self._unary(self._connection().sessions.DeleteSession, request, session_service_pb2.DeleteSessionResponse)

    async def update_session_state(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        state_delta: Mapping[str, Any],
    ) -> session_pb2.Session:
        """Applies a state delta by appending an event that carries it (ADK's
        PATCH); a None value sets the key to null. Returns the session."""
        request = session_service_pb2.UpdateSessionStateRequest(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            state_delta=to_struct(state_delta),
        )
        response = await self._unary(
            self._connection().sessions.UpdateSessionState, request, session_service_pb2.UpdateSessionStateResponse
        )
        return response.session

    async def rewind_session(
        self, app_name: str, user_id: str, session_id: str, before_invocation_id: str
    ) -> session_pb2.Session:
        """Undoes the invocations from ``before_invocation_id`` on (ADK's
        rewind) and returns the session."""
        request = session_service_pb2.RewindSessionRequest(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            rewind_before_invocation_id=before_invocation_id,
        )
        response = await self._unary(self._connection().sessions.RewindSession, request, session_service_pb2.RewindSessionResponse)
        return response.session

    # Artifacts.

    async def list_artifacts(self, app_name: str, user_id: str, session_id: str) -> list[str]:
        """Returns the names of the session's artifacts and of its user's
        (those starting ``user:``), sorted, as ADK's
        ``list_artifact_keys``.

        Raises:
            NotFoundError: the app does not exist.
            FailedPreconditionError: the service keeps no artifacts.
        """
        request = artifact_service_pb2.ListArtifactKeysRequest(app_name=app_name, user_id=user_id, session_id=session_id)
        response = await self._unary(
            self._connection().artifacts.ListArtifactKeys, request, artifact_service_pb2.ListArtifactKeysResponse
        )
        return list(response.filenames)

    async def load_artifact(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        filename: str,
        *,
        version: int | None = None,
    ) -> content_pb2.Part | None:
        """Returns an artifact's latest version, or ``version``; None when
        there is no such artifact or version, as ADK's ``load_artifact``.

        The Part holds inline data (``part.inline_data.data`` and
        ``.mime_type``) or text (``part.text``). Names starting ``user:``
        are the user's, seen from any of their sessions.

        Raises:
            NotFoundError: the app does not exist.
            InvalidArgumentError: the name or version is not valid.
        """
        request = artifact_service_pb2.LoadArtifactRequest(
            app_name=app_name, user_id=user_id, session_id=session_id, filename=filename, version=version
        )
        try:
            response = await self._unary(
                self._connection().artifacts.LoadArtifact, request, artifact_service_pb2.LoadArtifactResponse
            )
        except NotFoundError as err:
            if err.reason == _ARTIFACT_NOT_FOUND:
                return None
            raise
        return response.artifact

    async def save_artifact(
        self,
        app_name: str,
        user_id: str,
        session_id: str,
        filename: str,
        data: ArtifactData,
        *,
        mime_type: str | None = None,
        custom_metadata: Mapping[str, Any] | None = None,
    ) -> ArtifactVersion:
        """Stores ``data`` as the artifact's next version (0 for the first)
        and describes it, as ADK's ``save_artifact``.

        ``data`` is bytes, which need ``mime_type`` (stored as inline data);
        text (a text part); or a :class:`~agentsvc.Part` holding inline data
        or text. A name starting ``user:`` saves an artifact of the user,
        which all their sessions see. ``custom_metadata`` (JSON-like values)
        is kept with the version.

        Raises:
            TypeError: ``data`` is None or not bytes, str or a Part.
            ValueError: bytes come without a MIME type, the text is empty,
                or the Part holds neither inline data nor text.
            InvalidArgumentError: the service refuses the name or content.
            ResourceExhaustedError: the content or metadata is larger than
                the service accepts.
            NotFoundError: the app does not exist.
        """
        request = artifact_service_pb2.SaveArtifactRequest(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            filename=filename,
            artifact=artifact_part(data, mime_type),
        )
        if custom_metadata:
            request.custom_metadata.CopyFrom(to_struct(custom_metadata))
        saved = await self._unary(
            self._connection().artifacts.SaveArtifact, request, artifact_service_pb2.SaveArtifactResponse
        )
        return saved.artifact_version

    async def list_artifact_versions(self, app_name: str, user_id: str, session_id: str, filename: str) -> list[int]:
        """Returns an artifact's version numbers, oldest first; empty when
        there is no such artifact."""
        request = artifact_service_pb2.ListArtifactVersionsRequest(
            app_name=app_name, user_id=user_id, session_id=session_id, filename=filename
        )
        response = await self._unary(
            self._connection().artifacts.ListArtifactVersions, request, artifact_service_pb2.ListArtifactVersionsResponse
        )
        return list(response.versions)

    async def list_artifact_versions_metadata(
        self, app_name: str, user_id: str, session_id: str, filename: str
    ) -> list[ArtifactVersion]:
        """Describes each version of an artifact, oldest first, as ADK's
        ``list_artifact_versions``; empty when there is no such artifact."""
        request = artifact_service_pb2.ListArtifactVersionsMetadataRequest(
            app_name=app_name, user_id=user_id, session_id=session_id, filename=filename
        )
        response = await self._unary(
            self._connection().artifacts.ListArtifactVersionsMetadata,
            request,
            artifact_service_pb2.ListArtifactVersionsMetadataResponse,
        )
        return list(response.versions)

    async def get_artifact_version(
        self, app_name: str, user_id: str, session_id: str, filename: str, version: int
    ) -> ArtifactVersion | None:
        """Describes one version of an artifact; None when there is no such
        artifact or version, as ADK's ``get_artifact_version``.

        Raises:
            InvalidArgumentError: the name is not valid, or the version is
                negative.
        """
        request = artifact_service_pb2.GetArtifactVersionRequest(
            app_name=app_name, user_id=user_id, session_id=session_id, filename=filename, version=version
        )
        try:
            found = await self._unary(
                self._connection().artifacts.GetArtifactVersion, request, artifact_service_pb2.GetArtifactVersionResponse
            )
            return found.artifact_version
        except NotFoundError as err:
            if err.reason == _ARTIFACT_NOT_FOUND:
                return None
            raise

    async def delete_artifact(self, app_name: str, user_id: str, session_id: str, filename: str) -> None:
        """Deletes every version of an artifact; deleting a missing one is
        not an error."""
        request = artifact_service_pb2.DeleteArtifactRequest(
            app_name=app_name, user_id=user_id, session_id=session_id, filename=filename
        )
        await self._unary(
            self._connection().artifacts.DeleteArtifact, request, artifact_service_pb2.DeleteArtifactResponse
        )

    # Apps.

    async def list_apps(self) -> list[str]:
        """Returns the names of the apps the service runs, sorted."""
        response = await self._unary(
            self._connection().apps.ListApps, app_service_pb2.ListAppsRequest(), app_service_pb2.ListAppsResponse
        )
        return list(response.app_names)

    async def get_app(self, app_name: str) -> app_service_pb2.App:
        """Returns an app's agent tree (names, classes, descriptions, tools).

        Raises:
            NotFoundError: the app does not exist.
        """
        response = await self._unary(
            self._connection().apps.GetApp, app_service_pb2.GetAppRequest(app_name=app_name), app_service_pb2.GetAppResponse
        )
        return response.app

    def _runner_stub(self) -> Any:
        return self._connection().runner

    async def _unary(self, method: Any, request: Any, response_type: type[T]) -> T:
        try:
            response = await method(request, metadata=self._metadata or None, timeout=self._timeout)
        except grpc.RpcError as err:
            raise from_rpc_error(err) from None
        return cast(T, response)


class _Stubs:
    """The generated stubs of one channel."""

    def __init__(self, channel: grpc.aio.Channel) -> None:
        self.channel = channel
        self.runner = runner_service_pb2_grpc.RunnerServiceStub(channel)
        self.sessions = session_service_pb2_grpc.SessionServiceStub(channel)
        self.apps = app_service_pb2_grpc.AppServiceStub(channel)
        self.artifacts = artifact_service_pb2_grpc.ArtifactServiceStub(channel)
