import type { JsonObject } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import type { CallOptions, Client, Interceptor, Transport } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import type { SecureClientSessionOptions } from "node:http2";
import { type App, AppService } from "./gen/agentsvc/v1/app_service_pb.js";
import { ArtifactService, type ArtifactVersion, ArtifactVersionSchema } from "./gen/agentsvc/v1/artifact_service_pb.js";
import type { Part } from "./gen/agentsvc/v1/content_pb.js";
import type { Event } from "./gen/agentsvc/v1/event_pb.js";
import { RunnerService } from "./gen/agentsvc/v1/runner_service_pb.js";
import type { Session } from "./gen/agentsvc/v1/session_pb.js";
import { SessionService } from "./gen/agentsvc/v1/session_service_pb.js";
import { type ArtifactData, artifactPart, checkFilename } from "./artifacts.js";
import { NotFoundError, toAgentsvcError } from "./errors.js";
import { connectRun, type Invocation, plainRun, type RunOptions } from "./invocation.js";

/** The address `make run` serves gRPC on. */
export const DEFAULT_ADDRESS = "127.0.0.1:50051";

/** TLS settings of a connection: Node's http2/tls client options (ca, cert, key, servername...). */
export type TlsOptions = Pick<
  SecureClientSessionOptions,
  "ca" | "cert" | "key" | "passphrase" | "servername" | "rejectUnauthorized" | "minVersion" | "pfx"
>;

/** Request headers (gRPC metadata): fixed, or computed for each call (e.g. a fresh token). */
export type HeadersOption = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** Options of an {@link AgentsvcClient}. All are optional. */
export interface ClientOptions {
  /**
   * Where the service listens: "host:port", "http://host:port" or
   * "https://host:port". Default "127.0.0.1:50051".
   */
  address?: string;
  /**
   * TLS: true for the system's roots, or options with your own CA or client
   * certificate. Default: on for "https://" addresses, off otherwise.
   */
  tls?: boolean | TlsOptions;
  /** Headers sent with every call, e.g. `{ authorization: "Bearer ..." }`. */
  headers?: HeadersOption;
  /** Interceptors applied to every call. */
  interceptors?: Interceptor[];
  /** Deadline of each session, app and artifact call in milliseconds. Default: none. */
  timeoutMs?: number;
  /**
   * How long {@link Invocation.cancel} waits for the service to end a Connect
   * stream before resetting it. Default 5000 ms.
   */
  cancelGraceMs?: number;
  /**
   * A transport to use instead of the gRPC transport the client creates
   * (address, tls and headers are then ignored; interceptors are the
   * transport's own). {@link AgentsvcClient.close} does not close it.
   */
  transport?: Transport;
}

/** Names a user's session. */
export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}

/** Options of {@link AgentsvcClient.createSession}. */
export interface CreateSessionOptions {
  appName: string;
  userId: string;
  /** The new session's id; the service generates a uuid4 when omitted. */
  sessionId?: string;
  /** Initial state; "app:" and "user:" keys go to their scopes. */
  state?: JsonObject;
}

/** Options of {@link AgentsvcClient.getSession}. */
export interface GetSessionOptions extends SessionKey {
  /** When positive, only the last N events. */
  numRecentEvents?: number;
  /** When positive, only events at or after this time (seconds since the epoch). */
  afterTimestamp?: number;
}

/** Events per page of {@link AgentsvcClient.getSessionPage} when pageSize is not given. */
export const DEFAULT_PAGE_SIZE = 100;

/** Options of {@link AgentsvcClient.getSessionPage}, {@link AgentsvcClient.sessionPages} and {@link AgentsvcClient.sessionEvents}. */
export interface GetSessionPageOptions extends GetSessionOptions {
  /**
   * At most this many events (the service serves at most 1000); a page also
   * ends early rather than exceed 4 MiB. Default {@link DEFAULT_PAGE_SIZE}.
   */
  pageSize?: number;
  /**
   * The nextPageToken of the previous page, asked with the same
   * numRecentEvents and afterTimestamp; omitted for the first page.
   */
  pageToken?: string;
}

/** One page of a session's events. */
export interface SessionPage {
  /** The session (its ids, state and update time) with this page's events, oldest first. */
  session: Session;
  /** Names the next page; "" on the last one. */
  nextPageToken: string;
}

/** Options of {@link AgentsvcClient.listSessionsPage} and {@link AgentsvcClient.iterSessions}. */
export interface ListSessionsPageOptions {
  appName: string;
  userId: string;
  /**
   * At most this many sessions (the service serves at most 1000); a page
   * also ends early rather than exceed 4 MiB. Default {@link DEFAULT_PAGE_SIZE}.
   */
  pageSize?: number;
  /** The nextPageToken of the previous page; omitted for the first page. */
  pageToken?: string;
}

/** One page of a user's sessions. */
export interface SessionListPage {
  /** The page's sessions, without events, oldest first. */
  sessions: Session[];
  /** Names the next page; "" on the last one. */
  nextPageToken: string;
}

/**
 * Names an artifact of a session: a file of the session, or of its user for
 * a filename starting "user:" (any session of the user sees those).
 */
export interface ArtifactKey extends SessionKey {
  filename: string;
}

/** Options of {@link AgentsvcClient.loadArtifact}. */
export interface LoadArtifactOptions extends ArtifactKey {
  /** The version to load (0 is the first); default the latest. */
  version?: number;
}

/** Options of {@link AgentsvcClient.getArtifactVersion}. */
export interface GetArtifactVersionOptions extends ArtifactKey {
  version: number;
}

/** Options of {@link AgentsvcClient.saveArtifact}. */
export interface SaveArtifactOptions extends ArtifactKey {
  /** The content: bytes (with `mimeType`), text, or a Part (see {@link ArtifactData}). */
  data: ArtifactData;
  /** The MIME type of bytes (required for them), or of text to save as inline data. */
  mimeType?: string;
  /** Metadata stored with the version, returned in its {@link ArtifactVersion}. */
  customMetadata?: JsonObject;
}

/**
 * A client of agentsvc: runs agents (with tools that live in this process),
 * manages sessions and their artifacts, and describes apps. One client holds one HTTP/2
 * connection, opened on first use and shared by concurrent calls; it is safe
 * to use from concurrent tasks. Call {@link AgentsvcClient.close} when done.
 */
export class AgentsvcClient {
  private readonly runner: Client<typeof RunnerService>;
  private readonly sessions: Client<typeof SessionService>;
  private readonly apps: Client<typeof AppService>;
  private readonly artifacts: Client<typeof ArtifactService>;
  private readonly sessionManager: Http2SessionManager | undefined;
  private readonly timeoutMs: number | undefined;
  private readonly cancelGraceMs: number;

  constructor(options: ClientOptions = {}) {
    let transport = options.transport;
    if (transport === undefined) {
      const { baseUrl, nodeOptions } = endpoint(options.address ?? DEFAULT_ADDRESS, options.tls);
      this.sessionManager = new Http2SessionManager(baseUrl, {}, nodeOptions);
      const interceptors = [...(options.headers === undefined ? [] : [headersInterceptor(options.headers)]), ...(options.interceptors ?? [])];
      transport = createGrpcTransport({ baseUrl, sessionManager: this.sessionManager, interceptors });
    }
    this.runner = createClient(RunnerService, transport);
    this.sessions = createClient(SessionService, transport);
    this.apps = createClient(AppService, transport);
    this.artifacts = createClient(ArtifactService, transport);
    this.timeoutMs = options.timeoutMs;
    this.cancelGraceMs = options.cancelGraceMs ?? 5000;
  }

  /**
   * Runs an invocation and streams its events. With `tools`, `callbacks`, a
   * `codeExecutor` or workflow `nodes`, the run uses the Connect call: they are declared to the
   * service, which calls them back; calls are answered concurrently, in the
   * order they finish. Without, it uses the plain Run call (agents without
   * client tools, callbacks, client code execution or function nodes).
   *
   * ```ts
   * for await (const event of client.run({ appName, userId, sessionId, message: "Hi", tools: [getWeather] })) {
   *   if (isFinalResponse(event)) console.log(eventText(event));
   * }
   * ```
   *
   * Nothing is sent until the iteration starts. Failures reject the iteration
   * with an {@link AgentsvcError} subclass: NotFoundError for an unknown app
   * or session, SessionBusyError when the session runs another invocation...
   * A run with a `requestId` can be retried after such a failure without
   * storing its message twice: send the same id again (the client itself
   * never retries).
   */
  run(options: RunOptions): Invocation {
    if (options.tools !== undefined || options.callbacks !== undefined || options.codeExecutor !== undefined || options.nodes !== undefined) {
      return connectRun(this.runner, options, { cancelGraceMs: this.cancelGraceMs });
    }
    return plainRun(this.runner, options);
  }

  /** Creates a session and returns it. Rejects with AlreadyExistsError for a taken id. */
  async createSession(options: CreateSessionOptions): Promise<Session> {
    const res = await this.call(() => this.sessions.createSession({
      appName: options.appName,
      userId: options.userId,
      sessionId: options.sessionId ?? "",
      ...(options.state === undefined ? {} : { state: options.state }),
    }, this.callOptions()));
    return required(res.session, "session");
  }

  /**
   * Returns a session with its events. Rejects with NotFoundError when it
   * does not exist, and with ResourceExhaustedError (reason
   * RESPONSE_TOO_LARGE) when it is too large for one response: read that one
   * with {@link AgentsvcClient.sessionPages} or {@link AgentsvcClient.sessionEvents}.
   */
  async getSession(options: GetSessionOptions): Promise<Session> {
    const res = await this.call(() => this.sessions.getSession({
      appName: options.appName,
      userId: options.userId,
      sessionId: options.sessionId,
      numRecentEvents: options.numRecentEvents ?? 0,
      afterTimestamp: options.afterTimestamp ?? 0,
    }, this.callOptions()));
    return required(res.session, "session");
  }

  /**
   * Returns one page of a session's events, oldest first, and the token of
   * the next page. The pages of a listing end with the events the session
   * had when its first page was read. Rejects with NotFoundError when the
   * session does not exist, InvalidArgumentError for a token of another
   * session or selection.
   */
  async getSessionPage(options: GetSessionPageOptions): Promise<SessionPage> {
    const res = await this.call(() => this.sessions.getSession({
      appName: options.appName,
      userId: options.userId,
      sessionId: options.sessionId,
      numRecentEvents: options.numRecentEvents ?? 0,
      afterTimestamp: options.afterTimestamp ?? 0,
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      pageToken: options.pageToken ?? "",
    }, this.callOptions()));
    return { session: required(res.session, "session"), nextPageToken: res.nextPageToken };
  }

  /**
   * Reads a session page by page, from the first page (or from the page
   * `pageToken` names), each page asked for when the previous one has been
   * consumed. The way to read a session too large for one response
   * (getSession rejects it with reason RESPONSE_TOO_LARGE).
   *
   * ```ts
   * for await (const page of client.sessionPages({ ...key, pageSize: 500 })) {
   *   console.log(page.session.events.length);
   * }
   * ```
   */
  async *sessionPages(options: GetSessionPageOptions): AsyncGenerator<SessionPage, void, undefined> {
    let pageToken = options.pageToken ?? "";
    do {
      const page = await this.getSessionPage({ ...options, pageToken });
      yield page;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
  }

  /**
   * Yields every event of a session once, oldest first, reading it page by
   * page (see {@link AgentsvcClient.sessionPages}).
   *
   * ```ts
   * for await (const event of client.sessionEvents(key)) console.log(event.author, eventText(event));
   * ```
   */
  async *sessionEvents(options: GetSessionPageOptions): AsyncGenerator<Event, void, undefined> {
    for await (const page of this.sessionPages(options)) {
      yield* page.session.events;
    }
  }

  /** Returns a session, or undefined when it does not exist. */
  async findSession(options: GetSessionOptions): Promise<Session | undefined> {
    try {
      return await this.getSession(options);
    } catch (err) {
      if (err instanceof NotFoundError && err.reason !== "APP_NOT_FOUND") {
        return undefined;
      }
      throw err;
    }
  }

  /**
   * Returns the sessions of a user, without their events. Rejects with
   * ResourceExhaustedError (reason RESPONSE_TOO_LARGE) when they are too
   * many for one response: read them with {@link AgentsvcClient.iterSessions}.
   */
  async listSessions(options: { appName: string; userId: string }): Promise<Session[]> {
    const res = await this.call(() => this.sessions.listSessions({ appName: options.appName, userId: options.userId }, this.callOptions()));
    return res.sessions;
  }

  /**
   * Returns one page of a user's sessions, without their events, oldest
   * first, and the token of the next page. A listing neither repeats nor
   * skips a session that exists throughout it. Rejects with
   * InvalidArgumentError for a token of another user's listing.
   */
  async listSessionsPage(options: ListSessionsPageOptions): Promise<SessionListPage> {
    const res = await this.call(() => this.sessions.listSessions({
      appName: options.appName,
      userId: options.userId,
      pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
      pageToken: options.pageToken ?? "",
    }, this.callOptions()));
    return { sessions: res.sessions, nextPageToken: res.nextPageToken };
  }

  /**
   * Yields every session of a user once, without events, oldest first,
   * reading them page by page as they are consumed (see
   * {@link AgentsvcClient.listSessionsPage}).
   *
   * ```ts
   * for await (const session of client.iterSessions({ appName, userId })) console.log(session.id);
   * ```
   */
  async *iterSessions(options: ListSessionsPageOptions): AsyncGenerator<Session, void, undefined> {
    let pageToken = options.pageToken ?? "";
    do {
      const page = await this.listSessionsPage({ ...options, pageToken });
      yield* page.sessions;
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
  }

  /** Deletes a session; deleting a missing one is not an error. */
  async deleteSession(key: SessionKey): Promise<void> {
    await this.call(() => this.sessions.deleteSession(key, this.callOptions()));
  }

  /**
   * Changes a session's state outside a run: the service appends a user event
   * carrying the delta (ADK's PATCH) and returns the updated session.
   */
  async updateSessionState(options: SessionKey & { stateDelta: JsonObject }): Promise<Session> {
    const res = await this.call(() => this.sessions.updateSessionState(options, this.callOptions()));
    return required(res.session, "session");
  }

  /**
   * Undoes the invocations from the given one on (ADK's rewind) and returns
   * the session. The rewound events stay stored but no longer reach the model.
   */
  async rewindSession(options: SessionKey & { rewindBeforeInvocationId: string }): Promise<Session> {
    const res = await this.call(() => this.sessions.rewindSession(options, this.callOptions()));
    return required(res.session, "session");
  }

  /** Returns the names of the apps the service runs, sorted. */
  async listApps(): Promise<string[]> {
    const res = await this.call(() => this.apps.listApps({}, this.callOptions()));
    return res.appNames;
  }

  /** Returns an app's agent tree. Rejects with NotFoundError for an unknown app. */
  async getApp(appName: string): Promise<App> {
    const res = await this.call(() => this.apps.getApp({ appName }, this.callOptions()));
    return required(res.app, "app");
  }

  /**
   * Returns the names of a session's artifacts and of its user's ("user:"
   * names), sorted. Rejects with FailedPreconditionError (reason
   * ARTIFACTS_NOT_CONFIGURED) when the service has no artifact store.
   */
  async listArtifacts(key: SessionKey): Promise<string[]> {
    const res = await this.call(() => this.artifacts.listArtifactKeys(sessionKey(key), this.callOptions()));
    return res.filenames;
  }

  /**
   * Returns an artifact's latest version, or the version asked for: a Part
   * with `inlineData` (`mimeType`, `data`) or `text`. Undefined when there is
   * no such artifact or version (or the version is empty), as ADK's
   * load_artifact returns None.
   */
  async loadArtifact(options: LoadArtifactOptions): Promise<Part | undefined> {
    checkFilename(options.filename);
    if (options.version !== undefined) {
      checkVersion(options.version);
    }
    try {
      const res = await this.call(() => this.artifacts.loadArtifact({
        ...artifactKey(options),
        ...(options.version === undefined ? {} : { version: options.version }),
      }, this.callOptions()));
      return res.artifact;
    } catch (err) {
      if (err instanceof NotFoundError && err.reason !== "APP_NOT_FOUND") {
        return undefined;
      }
      throw err;
    }
  }

  /**
   * Saves a new version of an artifact and describes it (its `version`
   * numbers from 0). `data` is bytes with their `mimeType`, text, or a Part:
   *
   * ```ts
   * await client.saveArtifact({ ...key, filename: "report.pdf", data: pdfBytes, mimeType: "application/pdf" });
   * await client.saveArtifact({ ...key, filename: "user:notes.txt", data: "remember the milk" });
   * ```
   *
   * Throws a TypeError for bytes without a MIME type or empty text; rejects
   * with InvalidArgumentError (reason ARTIFACT_INVALID) for a name the
   * service refuses and ResourceExhaustedError (ARTIFACT_TOO_LARGE) for a
   * body over its limit.
   */
  async saveArtifact(options: SaveArtifactOptions): Promise<ArtifactVersion> {
    checkFilename(options.filename);
    const artifact = artifactPart(options.filename, options.data, options.mimeType);
    const res = await this.call(() => this.artifacts.saveArtifact({
      ...artifactKey(options),
      artifact,
      ...(options.customMetadata === undefined ? {} : { customMetadata: options.customMetadata }),
    }, this.callOptions()));
    return res.artifactVersion ?? create(ArtifactVersionSchema);
  }

  /** Returns an artifact's version numbers, oldest first; empty when it does not exist. */
  async listArtifactVersions(key: ArtifactKey): Promise<number[]> {
    checkFilename(key.filename);
    const res = await this.call(() => this.artifacts.listArtifactVersions(artifactKey(key), this.callOptions()));
    return res.versions;
  }

  /** Describes each version of an artifact, oldest first; empty when it does not exist. */
  async listArtifactVersionsMetadata(key: ArtifactKey): Promise<ArtifactVersion[]> {
    checkFilename(key.filename);
    const res = await this.call(() => this.artifacts.listArtifactVersionsMetadata(artifactKey(key), this.callOptions()));
    return res.versions;
  }

  /**
   * Describes one version of an artifact (`version`, `canonicalUri`,
   * `customMetadata`, `createTime` in seconds since the epoch, `mimeType`).
   * Undefined when there is no such version, as ADK's get_artifact_version
   * returns None.
   */
  async getArtifactVersion(options: GetArtifactVersionOptions): Promise<ArtifactVersion | undefined> {
    checkFilename(options.filename);
    checkVersion(options.version);
    try {
      const res = await this.call(() => this.artifacts.getArtifactVersion({
        ...artifactKey(options),
        version: options.version,
      }, this.callOptions()));
      return res.artifactVersion;
    } catch (err) {
      if (err instanceof NotFoundError && err.reason !== "APP_NOT_FOUND") {
        return undefined;
      }
      throw err;
    }
  }

  /** Deletes every version of an artifact; deleting a missing one is not an error. */
  async deleteArtifact(key: ArtifactKey): Promise<void> {
    checkFilename(key.filename);
    await this.call(() => this.artifacts.deleteArtifact(artifactKey(key), this.callOptions()));
  }

  /**
   * Closes the connection, failing the calls still open. The client must not
   * be used afterwards.
   */
  close(): void {
    this.sessionManager?.abort();
  }

  private callOptions(): CallOptions {
    return this.timeoutMs === undefined ? {} : { timeoutMs: this.timeoutMs };
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toAgentsvcError(err);
    }
  }
}

function sessionKey(key: SessionKey): SessionKey {
  return { appName: key.appName, userId: key.userId, sessionId: key.sessionId };
}

function artifactKey(key: ArtifactKey): ArtifactKey {
  return { ...sessionKey(key), filename: key.filename };
}

/** Throws a TypeError for a version that is not an integer (the service refuses negative ones). */
function checkVersion(version: number): void {
  if (!Number.isInteger(version)) {
    throw new TypeError(`artifact version ${String(version)} is not an integer`);
  }
}

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) {
    throw toAgentsvcError(new Error(`the service answered without ${field}`));
  }
  return value;
}

/** Resolves an address and TLS option into the transport's base URL and http2 options. */
export function endpoint(
  address: string,
  tls: boolean | TlsOptions | undefined,
): { baseUrl: string; nodeOptions: SecureClientSessionOptions } {
  const match = /^(https?):\/\/(.+?)\/?$/.exec(address);
  const scheme = match?.[1];
  const hostPort = match?.[2] ?? address;
  if (hostPort === "" || hostPort.includes("/")) {
    throw new TypeError(`address ${JSON.stringify(address)} is invalid: use host:port or http(s)://host:port`);
  }
  if (scheme === "http" && tls !== undefined && tls !== false) {
    throw new TypeError(`address ${address} is http:// but tls is set`);
  }
  const secure = tls === undefined ? scheme === "https" : tls !== false;
  if (scheme === "https" && !secure) {
    throw new TypeError(`address ${address} is https:// but tls is false`);
  }
  return {
    baseUrl: `${secure ? "https" : "http"}://${hostPort}`,
    nodeOptions: typeof tls === "object" ? { ...tls } : {},
  };
}

function headersInterceptor(headers: HeadersOption): Interceptor {
  return (next) => async (req) => {
    const values = typeof headers === "function" ? await headers() : headers;
    for (const [name, value] of Object.entries(values)) {
      req.header.set(name, value);
    }
    return next(req);
  };
}
