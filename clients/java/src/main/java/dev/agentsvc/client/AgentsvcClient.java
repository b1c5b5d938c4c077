package dev.agentsvc.client;

import dev.agentsvc.v1.App;
import dev.agentsvc.v1.AppServiceGrpc;
import dev.agentsvc.v1.ArtifactServiceGrpc;
import dev.agentsvc.v1.ArtifactVersion;
import dev.agentsvc.v1.DeleteArtifactRequest;
import dev.agentsvc.v1.ErrorReason;
import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.GetArtifactVersionRequest;
import dev.agentsvc.v1.ListArtifactVersionsMetadataRequest;
import dev.agentsvc.v1.ListArtifactKeysRequest;
import dev.agentsvc.v1.ListArtifactVersionsRequest;
import dev.agentsvc.v1.LoadArtifactRequest;
import dev.agentsvc.v1.LoadArtifactResponse;
import dev.agentsvc.v1.Part;
import dev.agentsvc.v1.SaveArtifactRequest;
import dev.agentsvc.v1.CreateSessionRequest;
import dev.agentsvc.v1.DeleteSessionRequest;
import dev.agentsvc.v1.GetAppRequest;
import dev.agentsvc.v1.GetSessionRequest;
import dev.agentsvc.v1.GetSessionResponse;
import dev.agentsvc.v1.ListAppsRequest;
import dev.agentsvc.v1.ListSessionsRequest;
import dev.agentsvc.v1.ListSessionsResponse;
import dev.agentsvc.v1.RewindSessionRequest;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.RunnerServiceGrpc;
import dev.agentsvc.v1.Session;
import dev.agentsvc.v1.SessionServiceGrpc;
import dev.agentsvc.v1.StartRun;
import dev.agentsvc.v1.UpdateSessionStateRequest;
import io.grpc.CallCredentials;
import io.grpc.Channel;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.AbstractStub;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A client of agentsvc: runs agents, with tools and callbacks written in Java, and manages
 * sessions, their artifacts and apps.
 *
 * <pre>{@code
 * try (AgentsvcClient client = AgentsvcClient.builder("127.0.0.1:50051").plaintext().build()) {
 *   Session session = client.createSession("weather", "alice");
 *   List<FunctionTool> tools = FunctionTool.fromMethods(new WeatherTools());
 *   try (Invocation run = client.run("weather", "alice", session.getId(), "Weather in Paris?", tools)) {
 *     for (Event event : run) {
 *       System.out.println(event.getAuthor() + ": " + Events.text(event));
 *     }
 *   }
 * }
 * }</pre>
 *
 * <p>Every method throws the {@link AgentsvcException} subclass of the service's status ({@link
 * NotFoundException} for an unknown app or session, {@link SessionBusyException} while another
 * invocation runs on the session, ...). A client is thread-safe and meant to be shared; close it
 * to release its channel and tool threads.
 */
public final class AgentsvcClient implements AutoCloseable {
  private final Channel channel;
  private final ManagedChannel ownedChannel;
  private final ExecutorService ownedExecutor;
  private final Executor toolExecutor;
  private final CallCredentials callCredentials;
  private final Duration timeout;

  private AgentsvcClient(Builder b, Channel channel, ManagedChannel owned) {
    this.channel = channel;
    this.ownedChannel = owned;
    if (b.toolExecutor != null) {
      this.toolExecutor = b.toolExecutor;
      this.ownedExecutor = null;
    } else {
      this.ownedExecutor = Executors.newCachedThreadPool(new ToolThreads());
      this.toolExecutor = ownedExecutor;
    }
    this.callCredentials = b.callCredentials;
    this.timeout = b.timeout;
  }

  /**
   * Starts a client of the service at a gRPC target, e.g. {@code "127.0.0.1:50051"} or {@code
   * "dns:///agents.example.com:443"}. TLS is the default; call {@link Builder#plaintext()} for a
   * local server.
   *
   * @param target the gRPC target
   * @return a builder
   */
  public static Builder builder(String target) {
    return new Builder(Objects.requireNonNull(target, "target"), null);
  }

  /**
   * Starts a client over an existing channel, which the client uses but does not close.
   *
   * @param channel the channel
   * @return a builder
   */
  public static Builder builder(Channel channel) {
    return new Builder(null, Objects.requireNonNull(channel, "channel"));
  }

  /** Returns the channel the client calls through. */
  public Channel channel() {
    return channel;
  }

  // Apps.

  /** Returns the names of the apps the service runs, sorted. */
  public List<String> listApps() {
    return unary(() -> unaryStub(AppServiceGrpc.newBlockingStub(channel))
        .listApps(ListAppsRequest.getDefaultInstance()).getAppNamesList());
  }

  /**
   * Returns an app and its agent tree: agents, their classes, descriptions and tools (remote
   * ones marked, which a run must declare).
   *
   * @throws NotFoundException when there is no such app
   */
  public App getApp(String appName) {
    return unary(() -> unaryStub(AppServiceGrpc.newBlockingStub(channel))
        .getApp(GetAppRequest.newBuilder().setAppName(appName).build()).getApp());
  }

  // Sessions.

  /**
   * Creates a session with a generated id and an empty state.
   *
   * @throws NotFoundException when there is no such app
   */
  public Session createSession(String appName, String userId) {
    return createSession(appName, userId, null, null);
  }

  /**
   * Creates a session.
   *
   * @param sessionId the id, or null for a generated one
   * @param state the initial state, or null; {@code app:} and {@code user:} keys go to their
   *     scopes
   * @throws AlreadyExistsException when the id is taken
   * @throws NotFoundException when there is no such app
   */
  public Session createSession(
      String appName, String userId, String sessionId, Map<String, ?> state) {
    CreateSessionRequest.Builder req =
        CreateSessionRequest.newBuilder().setAppName(appName).setUserId(userId);
    if (sessionId != null) {
      req.setSessionId(sessionId);
    }
    if (state != null) {
      req.setState(Values.toStruct(state));
    }
    return unary(() -> unaryStub(SessionServiceGrpc.newBlockingStub(channel))
        .createSession(req.build()).getSession());
  }

  /**
   * Returns a session with all its events.
   *
   * @throws NotFoundException when there is no such session
   */
  public Session getSession(String appName, String userId, String sessionId) {
    return getSession(GetSessionRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId).build());
  }

  /**
   * Returns a session, with the events the request selects ({@code num_recent_events}, {@code
   * after_timestamp}). A request for a page ({@code page_size}, {@code page_token}) returns that
   * page's events only; {@link #getSessionPage(GetSessionRequest)} also returns the token of the
   * next page.
   *
   * @throws NotFoundException when there is no such session
   * @throws ResourceExhaustedException ({@code RESPONSE_TOO_LARGE}) when the whole
   *     session is too large for one response: read it in pages
   */
  public Session getSession(GetSessionRequest request) {
    return getSessionPage(request).getSession();
  }

  /**
   * Returns one page of a session's events, oldest first, and the token of the next page.
   *
   * @param pageSize at most this many events (the service caps it at 1000; a page also ends
   *     early rather than exceed 4 MiB); 0 for the service's default of 100
   * @param pageToken the {@code next_page_token} of the previous page, or null or empty for the
   *     first page
   * @return the session with the page's events, and the next page's token, empty on the last page
   * @throws NotFoundException when there is no such session
   * @throws InvalidArgumentException when the token is not one of this listing
   */
  public GetSessionResponse getSessionPage(
      String appName, String userId, String sessionId, int pageSize, String pageToken) {
    GetSessionRequest.Builder req = GetSessionRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId)
        .setPageSize(pageSize > 0 ? pageSize : SessionPages.DEFAULT_PAGE_SIZE);
    if (pageToken != null) {
      req.setPageToken(pageToken);
    }
    return getSessionPage(req.build());
  }

  /**
   * Calls GetSession: returns the session with the events the request selects and, when it asks
   * for a page ({@code page_size}, {@code page_token}), the {@code next_page_token} of the next
   * one (empty on the last page).
   *
   * @throws NotFoundException when there is no such session
   */
  public GetSessionResponse getSessionPage(GetSessionRequest request) {
    Objects.requireNonNull(request, "request");
    return unary(() -> unaryStub(SessionServiceGrpc.newBlockingStub(channel)).getSession(request));
  }

  /**
   * Returns all events of a session, oldest first, read in pages of 100 as the stream is
   * consumed; see {@link #sessionEvents(GetSessionRequest)}.
   */
  public Stream<Event> sessionEvents(String appName, String userId, String sessionId) {
    return sessionEvents(GetSessionRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId).build());
  }

  /**
   * Returns the events a GetSession request selects ({@code num_recent_events}, {@code
   * after_timestamp}), oldest first, read page by page as the stream is consumed: a session of
   * any size, without holding more than one page. No call is made before the stream is
   * consumed; each page is one call, with the client's timeout, and a failed one throws its
   * {@link AgentsvcException} from the stream. The listing is the session's events when the
   * first page is read: events appended later are not in it.
   *
   * <pre>{@code
   * client.sessionEvents("weather", "alice", sessionId)
   *     .filter(Events::isFinalResponse).map(Events::text).forEach(System.out::println);
   * }</pre>
   *
   * <p>The stream holds no resource between pages: it need not be closed.
   *
   * @param request the session and selection; its {@code page_size} sets the page size (100 when
   *     0), its {@code page_token}, if any, where the listing starts
   * @throws IllegalArgumentException when {@code page_size} is negative
   */
  public Stream<Event> sessionEvents(GetSessionRequest request) {
    return sessionPages(request).flatMap(page -> page.getSession().getEventsList().stream());
  }

  /**
   * Returns the pages of a GetSession listing, fetched as the stream is consumed: each page holds
   * the session (its state as of that call) with the page's events. See {@link
   * #sessionEvents(GetSessionRequest)}.
   *
   * @throws IllegalArgumentException when {@code page_size} is negative
   */
  public Stream<GetSessionResponse> sessionPages(GetSessionRequest request) {
    return SessionPages.stream(request, this::getSessionPage);
  }

  /**
   * Returns the sessions of a user, without their events.
   *
   * @throws ResourceExhaustedException ({@code RESPONSE_TOO_LARGE}) when they are
   *     too many for one response: read them with {@link #userSessions(String, String)}
   */
  public List<Session> listSessions(String appName, String userId) {
    return unary(() -> unaryStub(SessionServiceGrpc.newBlockingStub(channel))
        .listSessions(ListSessionsRequest.newBuilder().setAppName(appName).setUserId(userId).build())
        .getSessionsList());
  }

  /**
   * Returns one page of a user's sessions, without their events, oldest first, and the token of
   * the next page. A listing neither repeats nor skips a session that exists throughout it.
   *
   * @param pageSize at most this many sessions (the service caps it at 1000; a page also ends
   *     early rather than exceed 4 MiB); 0 for the service's default of 100
   * @param pageToken the {@code next_page_token} of the previous page, or null or empty for the
   *     first page
   * @return the page's sessions, and the next page's token, empty on the last page
   * @throws InvalidArgumentException when the token is not one of this listing
   */
  public ListSessionsResponse listSessionsPage(
      String appName, String userId, int pageSize, String pageToken) {
    ListSessionsRequest.Builder req = ListSessionsRequest.newBuilder()
        .setAppName(appName).setUserId(userId)
        .setPageSize(pageSize > 0 ? pageSize : SessionPages.DEFAULT_PAGE_SIZE);
    if (pageToken != null) {
      req.setPageToken(pageToken);
    }
    return listSessionsPage(req.build());
  }

  /**
   * Calls ListSessions: returns the sessions the request asks for and, when it asks for a page
   * ({@code page_size}, {@code page_token}), the {@code next_page_token} of the next one (empty
   * on the last page).
   */
  public ListSessionsResponse listSessionsPage(ListSessionsRequest request) {
    Objects.requireNonNull(request, "request");
    return unary(() -> unaryStub(SessionServiceGrpc.newBlockingStub(channel)).listSessions(request));
  }

  /**
   * Returns every session of a user, without events, oldest first, read in pages of 100 as the
   * stream is consumed: a list of any size, without holding more than one page. No call is made
   * before the stream is consumed; each page is one call, with the client's timeout, and a
   * failed one throws its {@link AgentsvcException} from the stream.
   */
  public Stream<Session> userSessions(String appName, String userId) {
    return sessionListPages(ListSessionsRequest.newBuilder()
        .setAppName(appName).setUserId(userId).build())
        .flatMap(page -> page.getSessionsList().stream());
  }

  /**
   * Returns the pages of a ListSessions listing, fetched as the stream is consumed, from the
   * page the request's {@code page_token} names (the first when empty), of its {@code page_size}
   * (100 when 0).
   *
   * @throws IllegalArgumentException when {@code page_size} is negative
   */
  public Stream<ListSessionsResponse> sessionListPages(ListSessionsRequest request) {
    return SessionListPages.stream(request, this::listSessionsPage);
  }

  /** Deletes a session; deleting a missing one is not an error. */
  public void deleteSession(String appName, String userId, String sessionId) {
    unary(() -> unaryStub(SessionServiceGrpc.newBlockingStub(channel))
        .deleteSession(DeleteSessionRequest.newBuilder()
            .setAppName(appName).setUserId(userId).setSessionId(sessionId).build()));
  }

  /**
   * Changes a session's state by appending an event that carries the delta, as ADK's API server
   * does; a null value sets its key to null.
   *
   * @return the updated session
   * @throws NotFoundException when there is no such session
   */
  public Session updateSessionState(
      String appName, String userId, String sessionId, Map<String, ?> stateDelta) {
    return unary(() -> unaryStub(SessionServiceGrpc.newBlockingStub(channel))
        .updateSessionState(UpdateSessionStateRequest.newBuilder()
            .setAppName(appName).setUserId(userId).setSessionId(sessionId)
            .setStateDelta(Values.toStruct(stateDelta)).build())
        .getSession());
  }

  /**
   * Undoes the invocations of a session from one on, as ADK's rewind: their events stay stored
   * but no longer reach the model, and the session-scoped state is restored.
   *
   * @return the session after the rewind
   * @throws NotFoundException when there is no such session or invocation
   */
  public Session rewindSession(
      String appName, String userId, String sessionId, String rewindBeforeInvocationId) {
    return unary(() -> unaryStub(SessionServiceGrpc.newBlockingStub(channel))
        .rewindSession(RewindSessionRequest.newBuilder()
            .setAppName(appName).setUserId(userId).setSessionId(sessionId)
            .setRewindBeforeInvocationId(rewindBeforeInvocationId).build())
        .getSession());
  }

  // Artifacts.

  /**
   * Returns the names of a session's artifacts and of its user's ({@code user:...}), sorted, as
   * ADK's {@code list_artifact_keys}.
   *
   * @throws NotFoundException when there is no such app
   */
  public List<String> listArtifacts(String appName, String userId, String sessionId) {
    return unary(() -> artifactStub().listArtifactKeys(ListArtifactKeysRequest.newBuilder()
            .setAppName(appName).setUserId(userId).setSessionId(sessionId).build())
        .getFilenamesList());
  }

  /**
   * Returns the latest version of an artifact, as ADK's {@code load_artifact}: inline data with
   * its MIME type, or text ({@link Artifacts} reads either).
   *
   * @param filename the artifact's name; one starting {@code user:} is the user's, seen from all
   *     its sessions
   * @return the content, or empty when there is no such artifact (ADK's {@code None})
   * @throws NotFoundException when there is no such app
   */
  public Optional<Part> loadArtifact(
      String appName, String userId, String sessionId, String filename) {
    return loadArtifact(LoadArtifactRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId).setFilename(filename)
        .build());
  }

  /**
   * Returns one version of an artifact, as ADK's {@code load_artifact(version=...)}.
   *
   * @param version the version, from 0
   * @return the content, or empty when there is no such artifact or version
   * @throws InvalidArgumentException when the version is negative
   * @throws NotFoundException when there is no such app
   */
  public Optional<Part> loadArtifact(
      String appName, String userId, String sessionId, String filename, int version) {
    return loadArtifact(LoadArtifactRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId).setFilename(filename)
        .setVersion(version).build());
  }

  private Optional<Part> loadArtifact(LoadArtifactRequest request) {
    LoadArtifactResponse response =
        orEmpty(() -> artifactStub().loadArtifact(request)).orElse(null);
    return response == null || !response.hasArtifact()
        ? Optional.empty() : Optional.of(response.getArtifact());
  }

  /**
   * Saves bytes as a new version of an artifact, as ADK's {@code save_artifact} of {@code
   * types.Part.from_bytes(data=..., mime_type=...)}.
   *
   * @param filename the artifact's name; one starting {@code user:} is the user's, seen from all
   *     its sessions
   * @param data the content
   * @param mimeType its MIME type, e.g. {@code "application/pdf"}
   * @return the version saved (the first is 0), with its URI, MIME type and create time
   * @throws InvalidArgumentException ({@code ARTIFACT_INVALID}) for a name the
   *     service refuses, e.g. one with a {@code ..} segment
   * @throws ResourceExhaustedException ({@code ARTIFACT_TOO_LARGE}) for content
   *     larger than the store accepts (16 MiB by default)
   */
  public ArtifactVersion saveArtifact(String appName, String userId, String sessionId,
      String filename, byte[] data, String mimeType) {
    return saveArtifact(appName, userId, sessionId, filename,
        Artifacts.inlineData(data, mimeType), null);
  }

  /**
   * Saves bytes as a new version of an artifact, with custom metadata; see {@link
   * #saveArtifact(String, String, String, String, byte[], String)}.
   *
   * @param customMetadata the version's metadata (values {@link Values#toValue} accepts), or null
   */
  public ArtifactVersion saveArtifact(String appName, String userId, String sessionId,
      String filename, byte[] data, String mimeType, Map<String, ?> customMetadata) {
    return saveArtifact(appName, userId, sessionId, filename,
        Artifacts.inlineData(data, mimeType), customMetadata);
  }

  /**
   * Saves text as a new version of an artifact, as ADK's {@code save_artifact} of {@code
   * types.Part.from_text(text=...)}; it is stored as {@value Artifacts#TEXT_MIME_TYPE} and
   * loads back as text.
   *
   * @param text the content, not empty
   * @return the version saved (the first is 0)
   * @throws InvalidArgumentException ({@code ARTIFACT_INVALID}) for an empty text
   *     or a name the service refuses
   */
  public ArtifactVersion saveArtifact(String appName, String userId, String sessionId,
      String filename, String text) {
    return saveArtifact(appName, userId, sessionId, filename, Artifacts.textPart(text), null);
  }

  /**
   * Saves text as a new version of an artifact, with custom metadata; see {@link
   * #saveArtifact(String, String, String, String, String)}.
   *
   * @param customMetadata the version's metadata (values {@link Values#toValue} accepts), or null
   */
  public ArtifactVersion saveArtifact(String appName, String userId, String sessionId,
      String filename, String text, Map<String, ?> customMetadata) {
    return saveArtifact(appName, userId, sessionId, filename, Artifacts.textPart(text),
        customMetadata);
  }

  /**
   * Saves a part (inline data, or text) as a new version of an artifact, as ADK's {@code
   * save_artifact}.
   *
   * @return the version saved (the first is 0)
   * @throws InvalidArgumentException ({@code ARTIFACT_INVALID}) for a part with
   *     neither inline data nor text, or a name the service refuses
   */
  public ArtifactVersion saveArtifact(String appName, String userId, String sessionId,
      String filename, Part artifact) {
    return saveArtifact(appName, userId, sessionId, filename, artifact, null);
  }

  /**
   * Saves a part (inline data, or text) as a new version of an artifact, with custom metadata,
   * as ADK's {@code save_artifact(..., custom_metadata=...)}.
   *
   * @param filename the artifact's name; one starting {@code user:} is the user's, seen from all
   *     its sessions
   * @param artifact the content: inline data with its MIME type, or text
   * @param customMetadata the version's metadata (values {@link Values#toValue} accepts), or null
   * @return the version saved (the first is 0), with its URI, MIME type, custom metadata and
   *     create time
   * @throws InvalidArgumentException ({@code ARTIFACT_INVALID}) for a part with
   *     neither inline data nor text, a name the service refuses or metadata that is not JSON
   * @throws ResourceExhaustedException ({@code ARTIFACT_TOO_LARGE}) for content
   *     larger than the store accepts (16 MiB by default)
   * @throws NotFoundException when there is no such app
   */
  public ArtifactVersion saveArtifact(String appName, String userId, String sessionId,
      String filename, Part artifact, Map<String, ?> customMetadata) {
    Objects.requireNonNull(artifact, "artifact");
    SaveArtifactRequest.Builder req = SaveArtifactRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId).setFilename(filename)
        .setArtifact(artifact);
    if (customMetadata != null) {
      req.setCustomMetadata(Values.toStruct(customMetadata));
    }
    return unary(() -> artifactStub().saveArtifact(req.build()).getArtifactVersion());
  }

  /**
   * Returns the version numbers of an artifact, oldest first, as ADK's {@code list_versions};
   * empty when there is no such artifact.
   *
   * @throws NotFoundException when there is no such app
   */
  public List<Integer> listArtifactVersions(
      String appName, String userId, String sessionId, String filename) {
    return unary(() -> artifactStub().listArtifactVersions(
        versionsRequest(appName, userId, sessionId, filename)).getVersionsList());
  }

  /**
   * Describes each version of an artifact, oldest first, as ADK's {@code
   * list_artifact_versions}: number, URI, MIME type, custom metadata and create time ({@link
   * Artifacts#createTime}); empty when there is no such artifact.
   *
   * @throws NotFoundException when there is no such app
   */
  public List<ArtifactVersion> listArtifactVersionsMetadata(
      String appName, String userId, String sessionId, String filename) {
    return unary(() -> artifactStub().listArtifactVersionsMetadata(
        ListArtifactVersionsMetadataRequest.newBuilder().setAppName(appName).setUserId(userId)
            .setSessionId(sessionId).setFilename(filename).build()).getVersionsList());
  }

  /**
   * Describes one version of an artifact, as ADK's {@code get_artifact_version}.
   *
   * @param version the version, from 0
   * @return the version, or empty when there is no such artifact or version (ADK's {@code None})
   * @throws InvalidArgumentException when the version is negative
   * @throws NotFoundException when there is no such app
   */
  public Optional<ArtifactVersion> getArtifactVersion(
      String appName, String userId, String sessionId, String filename, int version) {
    GetArtifactVersionRequest req = GetArtifactVersionRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId).setFilename(filename)
        .setVersion(version).build();
    return orEmpty(() -> artifactStub().getArtifactVersion(req).getArtifactVersion());
  }

  /**
   * Deletes every version of an artifact, as ADK's {@code delete_artifact}; deleting a missing
   * one is not an error.
   *
   * @throws NotFoundException when there is no such app
   */
  public void deleteArtifact(String appName, String userId, String sessionId, String filename) {
    unary(() -> artifactStub().deleteArtifact(DeleteArtifactRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId).setFilename(filename)
        .build()));
  }

  private ArtifactServiceGrpc.ArtifactServiceBlockingStub artifactStub() {
    return unaryStub(ArtifactServiceGrpc.newBlockingStub(channel));
  }

  private static ListArtifactVersionsRequest versionsRequest(
      String appName, String userId, String sessionId, String filename) {
    return ListArtifactVersionsRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId).setFilename(filename)
        .build();
  }

  /** Runs a unary call; a missing artifact ({@code ARTIFACT_NOT_FOUND}) is an empty result. */
  private static <T> Optional<T> orEmpty(Supplier<T> call) {
    try {
      return Optional.of(unary(call));
    } catch (NotFoundException e) {
      if (e.errorReason() == ErrorReason.ARTIFACT_NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }

  // Runs.

  /**
   * Returns a new request id: a random UUID, for {@code RunRequest.request_id}. Take one per
   * logical run and send it again with each retry of that run: the service stores the user
   * message once, and answers a retry of a finished run with its stored events, or continues an
   * unfinished one, instead of running the message again.
   *
   * <pre>{@code
   * RunRequest request = RunRequest.newBuilder()
   *     .setAppName("echo").setUserId("alice").setSessionId(sessionId)
   *     .setNewMessage(Contents.userText("Hello"))
   *     .setRequestId(AgentsvcClient.newRequestId())
   *     .build();
   * // Run it, and on a DeadlineExceededException or UnavailableException run the same request
   * // again (a SessionBusyException means the first attempt still runs: wait, then retry).
   * }</pre>
   */
  public static String newRequestId() {
    return UUID.randomUUID().toString();
  }

  /**
   * Runs an agent without client tools on an existing session, sending a text message; iterate
   * the result for its events.
   */
  public Invocation run(String appName, String userId, String sessionId, String text) {
    return run(request(appName, userId, sessionId, text, null));
  }

  /**
   * Runs an agent without client tools on an existing session, sending a text message under a
   * request id (see {@link #newRequestId()}): a retry with the same id stores the message once.
   *
   * @param requestId the run's idempotency key (at most 128 bytes of UTF-8, no control
   *     characters), or null or empty for none
   */
  public Invocation run(
      String appName, String userId, String sessionId, String text, String requestId) {
    return run(request(appName, userId, sessionId, text, requestId));
  }

  /**
   * Runs an agent without client tools ({@code RunnerService.Run}); iterate the result for its
   * events. Errors before the first event (unknown session, busy session...) are thrown by the
   * iteration. A request with a {@code request_id} can be sent again after a failure without
   * storing its message twice (see {@link #newRequestId()}).
   */
  public Invocation run(RunRequest request) {
    return startRun(request, null);
  }

  /** Runs an agent without client tools, delivering its events to a listener. */
  public Invocation runAsync(RunRequest request, EventListener listener) {
    return startRun(request, Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Runs an agent whose tools live here, on an existing session, sending a text message; iterate
   * the result for its events while the tools answer the agent's calls.
   */
  public Invocation run(
      String appName, String userId, String sessionId, String text,
      Collection<FunctionTool> tools) {
    return run(request(appName, userId, sessionId, text, null), tools);
  }

  /**
   * Runs an agent whose tools live here, on an existing session, sending a text message under a
   * request id (see {@link #newRequestId()}): a retry with the same id stores the message once.
   *
   * @param requestId the run's idempotency key (at most 128 bytes of UTF-8, no control
   *     characters), or null or empty for none
   */
  public Invocation run(
      String appName, String userId, String sessionId, String text, String requestId,
      Collection<FunctionTool> tools) {
    return run(request(appName, userId, sessionId, text, requestId), tools);
  }

  /**
   * Runs an agent whose tools live here ({@code RunnerService.Connect}): declares the tools, then
   * runs each call the agent makes on the tool executor, several at once when the model calls
   * tools in parallel, and sends their results back in whatever order they finish. A request
   * with a {@code request_id} can be sent again after a failure without storing its message
   * twice (see {@link #newRequestId()}).
   *
   * @throws IllegalArgumentException when two tools have the same name
   */
  public Invocation run(RunRequest request, Collection<FunctionTool> tools) {
    return startConnect(request, tools, List.of(), null, null);
  }

  /** Runs an agent whose tools live here, delivering its events to a listener. */
  public Invocation runAsync(
      RunRequest request, Collection<FunctionTool> tools, EventListener listener) {
    return startConnect(
        request, tools, List.of(), null, Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Runs an agent whose tools and callbacks live here, on an existing session, sending a text
   * message; iterate the result for its events while the tools and callbacks answer the agent's
   * calls.
   */
  public Invocation run(
      String appName, String userId, String sessionId, String text,
      Collection<FunctionTool> tools, Collection<Callback> callbacks) {
    return run(request(appName, userId, sessionId, text, null), tools, callbacks);
  }

  /**
   * Runs an agent whose tools and callbacks live here, on an existing session, sending a text
   * message under a request id (see {@link #newRequestId()}).
   *
   * @param requestId the run's idempotency key (at most 128 bytes of UTF-8, no control
   *     characters), or null or empty for none
   */
  public Invocation run(
      String appName, String userId, String sessionId, String text, String requestId,
      Collection<FunctionTool> tools, Collection<Callback> callbacks) {
    return run(request(appName, userId, sessionId, text, requestId), tools, callbacks);
  }

  /**
   * Runs an agent whose tools and callbacks live here ({@code RunnerService.Connect}): declares
   * both, then runs each tool call and each callback call the agent makes on the tool executor,
   * several at once, and sends their results back in whatever order they finish. Every callback
   * the app's agents name must be declared, or the run fails with {@link
   * FailedPreconditionException} ({@code CALLBACK_NOT_DECLARED}) before anything is
   * stored; a callback that throws fails it with an {@link AgentsvcException} of code {@code
   * UNKNOWN} ({@code CALLBACK_FAILED}).
   *
   * @throws IllegalArgumentException when two tools, or two callbacks, have the same name
   */
  public Invocation run(
      RunRequest request, Collection<FunctionTool> tools, Collection<Callback> callbacks) {
    return startConnect(request, tools, callbacks, null, null);
  }

  /** Runs an agent whose tools and callbacks live here, delivering its events to a listener. */
  public Invocation runAsync(
      RunRequest request, Collection<FunctionTool> tools, Collection<Callback> callbacks,
      EventListener listener) {
    return startConnect(
        request, tools, callbacks, null, Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Runs an agent whose tools, callbacks or code execution live here ({@code
   * RunnerService.Connect}), as {@link #run(RunRequest, Collection, Collection)} does, and
   * declares that this client runs the code that the models of agents with {@code code_executor:
   * {name: ClientCodeExecutor}} write: each block is run by the executor on the tool executor,
   * several at once, and its outcome sent back as it finishes. An exception the executor throws
   * is answered as the code's failure, with its message as stderr.
   *
   * @throws IllegalArgumentException when two tools, or two callbacks, have the same name
   */
  public Invocation run(RunRequest request, Collection<FunctionTool> tools,
      Collection<Callback> callbacks, CodeExecutor codeExecutor) {
    return startConnect(
        request, tools, callbacks, Objects.requireNonNull(codeExecutor, "codeExecutor"), null);
  }

  /**
   * Runs an agent whose tools, callbacks or code execution live here, delivering its events to a
   * listener.
   */
  public Invocation runAsync(RunRequest request, Collection<FunctionTool> tools,
      Collection<Callback> callbacks, CodeExecutor codeExecutor, EventListener listener) {
    return startConnect(request, tools, callbacks,
        Objects.requireNonNull(codeExecutor, "codeExecutor"),
        Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Runs a workflow whose function nodes live here, on an existing session, sending a text
   * message; iterate the result for its events while the nodes run. See {@link
   * #runWorkflow(RunRequest, Collection)}.
   */
  public Invocation runWorkflow(String appName, String userId, String sessionId, String text,
      Collection<FunctionNode> nodes) {
    return runWorkflow(request(appName, userId, sessionId, text, null), nodes);
  }

  /**
   * Runs a workflow whose function nodes live here, on an existing session, sending a message,
   * e.g. {@link RequestInputs#resumeContent} to answer a node's {@link RequestInput} and resume
   * the paused workflow. See {@link #runWorkflow(RunRequest, Collection)}.
   */
  public Invocation runWorkflow(String appName, String userId, String sessionId,
      dev.agentsvc.v1.Content message, Collection<FunctionNode> nodes) {
    RunRequest request = RunRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId)
        .setNewMessage(Objects.requireNonNull(message, "message")).build();
    return runWorkflow(request, nodes);
  }

  /**
   * Runs a workflow (ADK 2.x {@code agent_class: Workflow}) whose function nodes live here
   * ({@code RunnerService.Connect}): declares the nodes, then runs each node call the workflow
   * makes on the tool executor, one attempt per call, several at once when the workflow runs
   * nodes in parallel, and sends their outputs back as they finish. Every node an app's workflow
   * declares with {@code function:} must be declared. An exception a node throws is sent as the
   * node's error (its class's simple name and message): the node's {@code retry_config} may
   * retry it, or else the run fails.
   *
   * @throws IllegalArgumentException when two nodes have the same name
   */
  public Invocation runWorkflow(RunRequest request, Collection<FunctionNode> nodes) {
    return startConnect(request, List.of(), List.of(), null, nodes, null);
  }

  /** Runs a workflow whose function nodes live here, delivering its events to a listener. */
  public Invocation runWorkflowAsync(
      RunRequest request, Collection<FunctionNode> nodes, EventListener listener) {
    return startConnect(request, List.of(), List.of(), null, nodes,
        Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Runs an app whose tools, callbacks, code execution and workflow function nodes live here
   * ({@code RunnerService.Connect}), as {@link #run(RunRequest, Collection, Collection,
   * CodeExecutor)} and {@link #runWorkflow(RunRequest, Collection)} do.
   *
   * @param codeExecutor the code executor, or null when this client runs no code
   * @throws IllegalArgumentException when two tools, callbacks or nodes have the same name
   */
  public Invocation run(RunRequest request, Collection<FunctionTool> tools,
      Collection<Callback> callbacks, CodeExecutor codeExecutor, Collection<FunctionNode> nodes) {
    return startConnect(request, tools, callbacks, codeExecutor, nodes, null);
  }

  /**
   * Runs an app whose tools, callbacks, code execution and workflow function nodes live here,
   * delivering its events to a listener.
   *
   * @param codeExecutor the code executor, or null when this client runs no code
   */
  public Invocation runAsync(RunRequest request, Collection<FunctionTool> tools,
      Collection<Callback> callbacks, CodeExecutor codeExecutor, Collection<FunctionNode> nodes,
      EventListener listener) {
    return startConnect(request, tools, callbacks, codeExecutor, nodes,
        Objects.requireNonNull(listener, "listener"));
  }

  private Invocation startRun(RunRequest request, EventListener listener) {
    Objects.requireNonNull(request, "request");
    Invocation invocation = new Invocation(listener);
    RunCall call = new RunCall(invocation);
    invocation.setControl(call);
    stub(RunnerServiceGrpc.newStub(channel)).run(request, call);
    return invocation;
  }

  private Invocation startConnect(
      RunRequest request, Collection<FunctionTool> tools, Collection<Callback> callbacks,
      CodeExecutor codeExecutor, EventListener listener) {
    return startConnect(request, tools, callbacks, codeExecutor, List.of(), listener);
  }

  private Invocation startConnect(
      RunRequest request, Collection<FunctionTool> tools, Collection<Callback> callbacks,
      CodeExecutor codeExecutor, Collection<FunctionNode> nodes, EventListener listener) {
    Objects.requireNonNull(request, "request");
    Map<String, FunctionTool> byName = new LinkedHashMap<>();
    StartRun.Builder start =
        StartRun.newBuilder().setRun(request).setCodeExecutor(codeExecutor != null);
    for (FunctionTool tool : Objects.requireNonNull(tools, "tools")) {
      if (byName.putIfAbsent(tool.name(), tool) != null) {
        throw new IllegalArgumentException("two tools are named " + tool.name());
      }
      start.addTools(tool.declaration());
    }
    Map<String, Callback> callbacksByName = new LinkedHashMap<>();
    for (Callback callback : Objects.requireNonNull(callbacks, "callbacks")) {
      if (callbacksByName.putIfAbsent(callback.name(), callback) != null) {
        throw new IllegalArgumentException("two callbacks are named " + callback.name());
      }
      start.addCallbacks(callback.declaration());
    }
    Map<String, FunctionNode> nodesByName = new LinkedHashMap<>();
    for (FunctionNode node : Objects.requireNonNull(nodes, "nodes")) {
      if (nodesByName.putIfAbsent(node.name(), node) != null) {
        throw new IllegalArgumentException("two nodes are named " + node.name());
      }
      start.addNodes(node.declaration());
    }
    Invocation invocation = new Invocation(listener);
    ConnectCall call = new ConnectCall(invocation, Map.copyOf(byName),
        Map.copyOf(callbacksByName), codeExecutor, Map.copyOf(nodesByName), toolExecutor);
    invocation.setControl(call);
    stub(RunnerServiceGrpc.newStub(channel)).connect(call);
    call.start(start.build());
    return invocation;
  }

  private static RunRequest request(
      String appName, String userId, String sessionId, String text, String requestId) {
    RunRequest.Builder req = RunRequest.newBuilder()
        .setAppName(appName).setUserId(userId).setSessionId(sessionId)
        .setNewMessage(Contents.userText(text));
    if (requestId != null) {
      req.setRequestId(requestId);
    }
    return req.build();
  }

  private <S extends AbstractStub<S>> S stub(S stub) {
    return callCredentials == null ? stub : stub.withCallCredentials(callCredentials);
  }

  /** Returns a stub for a unary call: with the call credentials and the deadline. */
  private <S extends AbstractStub<S>> S unaryStub(S stub) {
    S s = stub(stub);
    return timeout == null ? s : s.withDeadlineAfter(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  private static <T> T unary(Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      throw AgentsvcException.from(e);
    }
  }

  /**
   * Closes the client: shuts down the channel it created (waiting up to five seconds for calls
   * in flight) and its tool threads. A channel given to {@link #builder(Channel)} and an
   * executor given to {@link Builder#toolExecutor} are left open.
   */
  @Override
  public void close() {
    if (ownedExecutor != null) {
      ownedExecutor.shutdownNow();
    }
    if (ownedChannel != null) {
      ownedChannel.shutdown();
      try {
        if (!ownedChannel.awaitTermination(5, TimeUnit.SECONDS)) {
          ownedChannel.shutdownNow();
        }
      } catch (InterruptedException e) {
        ownedChannel.shutdownNow();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Names tool threads and keeps them from holding the JVM open. */
  private static final class ToolThreads implements ThreadFactory {
    private final AtomicInteger next = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, "agentsvc-tool-" + next.incrementAndGet());
      t.setDaemon(true);
      return t;
    }
  }

  /** Builds an {@link AgentsvcClient}. Not thread-safe. */
  public static final class Builder {
    private final String target;
    private final Channel channel;
    private ChannelCredentials credentials = TlsChannelCredentials.create();
    private CallCredentials callCredentials;
    private Executor toolExecutor;
    private Duration timeout;

    private Builder(String target, Channel channel) {
      this.target = target;
      this.channel = channel;
    }

    /** Connects without TLS, e.g. to a local server. */
    public Builder plaintext() {
      return channelCredentials(InsecureChannelCredentials.create());
    }

    /** Connects with TLS, trusting the system's roots; the default. */
    public Builder tls() {
      return channelCredentials(TlsChannelCredentials.create());
    }

    /**
     * Connects with the given channel credentials, e.g. {@code TlsChannelCredentials} with a
     * custom trust store or client certificate.
     */
    public Builder channelCredentials(ChannelCredentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /** Attaches credentials to every call, e.g. a bearer token; none by default. */
    public Builder callCredentials(CallCredentials callCredentials) {
      this.callCredentials = callCredentials;
      return this;
    }

    /**
     * Runs tool and callback calls on this executor, which the client does not shut down. By
     * default the client uses a cached pool of daemon threads, closed with it.
     */
    public Builder toolExecutor(Executor executor) {
      this.toolExecutor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Bounds each session, artifact and app call (not runs) by a deadline; none by default.
     */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Returns the client, creating its channel unless one was given. */
    public AgentsvcClient build() {
      if (channel != null) {
        return new AgentsvcClient(this, channel, null);
      }
      ManagedChannel owned = Grpc.newChannelBuilder(target, credentials).build();
      return new AgentsvcClient(this, owned, owned);
    }
  }
}
