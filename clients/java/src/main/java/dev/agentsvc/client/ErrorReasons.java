package dev.agentsvc.client;

import dev.agentsvc.v1.ErrorReason;

/**
 * Some ErrorInfo reasons the service reports, as strings to compare with {@link
 * AgentsvcException#reason()}.
 *
 * @deprecated The service's reasons are the closed set of the generated {@link ErrorReason} enum
 *     (from proto/agentsvc/v1/error_reason.proto, which documents each with its codes); compare
 *     {@link AgentsvcException#errorReason()} with its values:
 *     <pre>{@code
 * } catch (ResourceExhaustedException e) {
 *   if (e.errorReason() == ErrorReason.RESPONSE_TOO_LARGE) {
 *     // read the session in pages: client.sessionEvents(...)
 *   }
 * }
 * }</pre>
 *     Each constant here is the name of the value of the same name (ErrorReasonsTest checks it).
 */
@Deprecated
public final class ErrorReasons {
  private ErrorReasons() {}

  /** {@code NOT_FOUND}: no such app. */
  public static final String APP_NOT_FOUND = "APP_NOT_FOUND";

  /** {@code NOT_FOUND}: no such session. */
  public static final String SESSION_NOT_FOUND = "SESSION_NOT_FOUND";

  /** {@code NOT_FOUND}: no such invocation in the session (rewind, resume). */
  public static final String INVOCATION_NOT_FOUND = "INVOCATION_NOT_FOUND";

  /**
   * {@code NOT_FOUND}: no such artifact, or version of it; {@link
   * AgentsvcClient#loadArtifact(String, String, String, String)} and {@link
   * AgentsvcClient#getArtifactVersion} answer it with an empty {@code Optional}.
   */
  public static final String ARTIFACT_NOT_FOUND = "ARTIFACT_NOT_FOUND";

  /**
   * {@code INVALID_ARGUMENT}: an artifact name, version or content the service refuses (as ADK
   * does), e.g. a name with a {@code ..} segment or a part with neither inline data nor text.
   */
  public static final String ARTIFACT_INVALID = "ARTIFACT_INVALID";

  /** {@code RESOURCE_EXHAUSTED}: the artifact is larger than the store accepts. */
  public static final String ARTIFACT_TOO_LARGE = "ARTIFACT_TOO_LARGE";

  /** {@code ABORTED}: concurrent saves of the artifact kept taking its next version; retry. */
  public static final String ARTIFACT_CONFLICT = "ARTIFACT_CONFLICT";

  /** {@code FAILED_PRECONDITION}: the server has no artifact store. */
  public static final String ARTIFACTS_NOT_CONFIGURED = "ARTIFACTS_NOT_CONFIGURED";

  /** {@code ALREADY_EXISTS}: the session id is taken. */
  public static final String SESSION_EXISTS = "SESSION_EXISTS";

  /**
   * {@code ABORTED}: another invocation runs on the session ({@link SessionBusyException}), also
   * when a retry with a request id arrives while the first attempt still runs.
   */
  public static final String SESSION_BUSY = "SESSION_BUSY";

  /** {@code ABORTED}: the session was modified concurrently; retry. */
  public static final String SESSION_STALE = "SESSION_STALE";

  /** {@code FAILED_PRECONDITION}: the agent called a tool that no one declared. */
  public static final String TOOL_NOT_FOUND = "TOOL_NOT_FOUND";

  /**
   * {@code FAILED_PRECONDITION}: an agent of the app names a callback that lives in a client and
   * the run did not declare it; nothing was stored.
   */
  public static final String CALLBACK_NOT_DECLARED = "CALLBACK_NOT_DECLARED";

  /** {@code UNKNOWN}: a client's callback failed (threw); the message names it. */
  public static final String CALLBACK_FAILED = "CALLBACK_FAILED";

  /** {@code DEADLINE_EXCEEDED}: a client's callback did not answer within the tool timeout. */
  public static final String CALLBACK_TIMEOUT = "CALLBACK_TIMEOUT";

  /**
   * {@code FAILED_PRECONDITION}: a workflow of the app has a function node that lives in a client
   * and the run did not declare it ({@link AgentsvcClient#runWorkflow}); nothing was stored.
   */
  public static final String NODE_NOT_DECLARED = "NODE_NOT_DECLARED";

  /**
   * {@code UNKNOWN}: a workflow's function node failed (threw) and its retry_config, if any, gave
   * up; the message names the node and its error.
   */
  public static final String NODE_FAILED = "NODE_FAILED";

  /** {@code DEADLINE_EXCEEDED}: a client's workflow node did not answer within the tool timeout. */
  public static final String NODE_TIMEOUT = "NODE_TIMEOUT";

  /**
   * {@code INVALID_ARGUMENT}: the answer to a workflow's request for input does not match its
   * response schema (ADK's validation error for the interrupt).
   */
  public static final String WORKFLOW_DATA_ERROR = "WORKFLOW_DATA_ERROR";

  /** {@code INVALID_ARGUMENT}: a JSON-like value is nested deeper than the service allows. */
  public static final String NESTING_TOO_DEEP = "NESTING_TOO_DEEP";

  /** {@code RESOURCE_EXHAUSTED}: the run reached its {@code max_llm_calls}. */
  public static final String LLM_CALLS_EXCEEDED = "LLM_CALLS_EXCEEDED";

  /**
   * {@code RESOURCE_EXHAUSTED}: the session reached its limit of events or bytes and takes no
   * more; start a new session.
   */
  public static final String SESSION_TOO_LARGE = "SESSION_TOO_LARGE";

  /**
   * {@code RESOURCE_EXHAUSTED}: the whole session is too large for one GetSession response; read
   * it in pages ({@link AgentsvcClient#sessionEvents(String, String, String)}).
   */
  public static final String RESPONSE_TOO_LARGE = "RESPONSE_TOO_LARGE";

  /** {@code RESOURCE_EXHAUSTED}: the server holds as many Connect streams as it allows. */
  public static final String TOO_MANY_CONNECT_STREAMS = "TOO_MANY_CONNECT_STREAMS";

  /** {@code DEADLINE_EXCEEDED}: the invocation ran longer than the server allows. */
  public static final String INVOCATION_TIMEOUT = "INVOCATION_TIMEOUT";

  /** {@code DEADLINE_EXCEEDED}: a Connect stream sent no start message in time. */
  public static final String CONNECT_START_TIMEOUT = "CONNECT_START_TIMEOUT";

  /** {@code UNAVAILABLE}: the server is shutting down and takes no new runs; retry elsewhere. */
  public static final String SHUTTING_DOWN = "SHUTTING_DOWN";

  /** {@code UNAVAILABLE}: the session store does not answer. */
  public static final String SESSION_STORE_UNAVAILABLE = "SESSION_STORE_UNAVAILABLE";

  /** {@code UNAVAILABLE}: the model could not be reached. */
  public static final String MODEL_UNAVAILABLE = "MODEL_UNAVAILABLE";

  /**
   * The model's own error, with its message; the code follows the model's HTTP status (429:
   * {@code RESOURCE_EXHAUSTED}, 504: {@code DEADLINE_EXCEEDED}, other 5xx: {@code UNAVAILABLE},
   * other 4xx: {@code FAILED_PRECONDITION}; a call the service cut off: {@code
   * DEADLINE_EXCEEDED} past the model timeout, {@code RESOURCE_EXHAUSTED} for an answer over the
   * size caps). See {@link AgentsvcException#isModelError()}, {@link
   * AgentsvcException#modelHttpStatus()} and {@link AgentsvcException#modelStatus()}.
   */
  public static final String MODEL_ERROR = "MODEL_ERROR";
}
