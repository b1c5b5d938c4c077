import { Code, ConnectError } from "@connectrpc/connect";
import type { ErrorReason } from "./gen/agentsvc/v1/error_reason_pb.js";
import { ErrorInfoSchema } from "./gen/google/rpc/error_details_pb.js";

/** The ErrorInfo domain of the errors agentsvc returns. */
export const ERROR_DOMAIN = "agentsvc";

/** Fields common to every {@link AgentsvcError}. */
export interface AgentsvcErrorInit {
  /** The gRPC status code. */
  code: Code;
  /** The server's message, without the code prefix. */
  message: string;
  /** ErrorInfo reason, e.g. "SESSION_NOT_FOUND"; empty when the status had none. */
  reason?: string;
  /** ErrorInfo domain; "agentsvc" for errors of the service. */
  domain?: string;
  /** ErrorInfo metadata. */
  metadata?: Record<string, string>;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * An error returned by agentsvc: the gRPC status code, the server's message
 * and the reason of its google.rpc.ErrorInfo detail. Every failed call of the
 * client rejects with an instance of a subclass chosen by the code (see
 * {@link toAgentsvcError}), so `instanceof NotFoundError` works as expected.
 */
export class AgentsvcError extends Error {
  /** The gRPC status code. */
  readonly code: Code;
  /** ErrorInfo reason, e.g. "SESSION_NOT_FOUND"; "" when the status had none. */
  readonly reason: string;
  /** ErrorInfo domain; "" when the status had none. */
  readonly domain: string;
  /** ErrorInfo metadata. */
  readonly metadata: Readonly<Record<string, string>>;

  constructor(init: AgentsvcErrorInit) {
    super(init.message, { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.reason = init.reason ?? "";
    this.domain = init.domain ?? "";
    this.metadata = init.metadata ?? {};
  }

  /** The status code's name as gRPC spells it, e.g. "NOT_FOUND". */
  get codeName(): string {
    return codeNames[this.code] ?? "UNKNOWN";
  }
}

/** An unknown app, session or invocation (NOT_FOUND). */
export class NotFoundError extends AgentsvcError {}
/** A session id that is taken (ALREADY_EXISTS). */
export class AlreadyExistsError extends AgentsvcError {}
/** A malformed request (INVALID_ARGUMENT). */
export class InvalidArgumentError extends AgentsvcError {}
/**
 * An invocation that fails because of the app's configuration or state, e.g.
 * an unknown tool or a missing instruction variable (FAILED_PRECONDITION).
 */
export class FailedPreconditionError extends AgentsvcError {}
/** A limit was hit, e.g. max_llm_calls (RESOURCE_EXHAUSTED). */
export class ResourceExhaustedError extends AgentsvcError {}
/** A conflict: a busy session or a stale write (ABORTED). Retrying may succeed. */
export class AbortedError extends AgentsvcError {}
/** The session already runs an invocation (ABORTED, reason SESSION_BUSY). */
export class SessionBusyError extends AbortedError {}
/** The service, its session store or its model is unreachable (UNAVAILABLE). */
export class UnavailableError extends AgentsvcError {}
/** The call was cancelled (CANCELLED). */
export class CancelledError extends AgentsvcError {}
/** The call's deadline passed (DEADLINE_EXCEEDED). */
export class DeadlineExceededError extends AgentsvcError {}
/** Missing or invalid credentials (UNAUTHENTICATED). */
export class UnauthenticatedError extends AgentsvcError {}
/** The credentials do not allow the call (PERMISSION_DENIED). */
export class PermissionDeniedError extends AgentsvcError {}
/** The method is not offered by the server (UNIMPLEMENTED). */
export class UnimplementedError extends AgentsvcError {}
/** A server-side failure (INTERNAL, UNKNOWN, DATA_LOSS). */
export class InternalError extends AgentsvcError {}

type ErrorClass = new (init: AgentsvcErrorInit) => AgentsvcError;

const classes: Partial<Record<Code, ErrorClass>> = {
  [Code.Canceled]: CancelledError,
  [Code.Unknown]: InternalError,
  [Code.InvalidArgument]: InvalidArgumentError,
  [Code.DeadlineExceeded]: DeadlineExceededError,
  [Code.NotFound]: NotFoundError,
  [Code.AlreadyExists]: AlreadyExistsError,
  [Code.PermissionDenied]: PermissionDeniedError,
  [Code.ResourceExhausted]: ResourceExhaustedError,
  [Code.FailedPrecondition]: FailedPreconditionError,
  [Code.Aborted]: AbortedError,
  [Code.OutOfRange]: InvalidArgumentError,
  [Code.Unimplemented]: UnimplementedError,
  [Code.Internal]: InternalError,
  [Code.Unavailable]: UnavailableError,
  [Code.DataLoss]: InternalError,
  [Code.Unauthenticated]: UnauthenticatedError,
};

/** The name of a reason of the service's closed set, e.g. "SESSION_BUSY". */
export type ErrorReasonName = Exclude<keyof typeof ErrorReason, "ERROR_REASON_UNSPECIFIED">;

/**
 * The class of every reason of the ErrorReason enum (gen/agentsvc/v1/
 * error_reason_pb.ts, from proto/agentsvc/v1/error_reason.proto, which
 * documents each reason's codes): a class narrower than its code's, or null
 * for the class of the status code. Its type makes the compiler, and the
 * unit tests, check that every reason of the enum is here; an unknown reason
 * (from a newer service) gets its code's class.
 */
export const reasonClasses: Readonly<Record<ErrorReasonName, ErrorClass | null>> = {
  // Requests.
  INTERNAL: null,
  INVALID_ARGUMENT: null,
  MALFORMED_REQUEST: null,
  NESTING_TOO_DEEP: null,
  INVALID_REQUEST: null,
  UNSUPPORTED_MEDIA_TYPE: null,
  REQUEST_TOO_LARGE: null,
  REQUEST_TIMEOUT: null,
  ROUTE_NOT_FOUND: null,
  METHOD_NOT_ALLOWED: null,
  NOT_SERVED: null,
  ORIGIN_NOT_ALLOWED: null,
  HOST_NOT_ALLOWED: null,
  CANCELLED: null,
  DEADLINE_EXCEEDED: null,
  RESPONSE_TOO_LARGE: null,
  // Authentication and authorization.
  UNAUTHENTICATED: null,
  TOKEN_INVALID: null,
  TOKEN_EXPIRED: null,
  PERMISSION_DENIED: null,
  APP_STATE_DENIED: null,
  // The server's limits.
  SERVER_BUSY: null,
  USER_RATE_LIMITED: null,
  USER_INVOCATION_LIMIT: null,
  USER_SESSION_LIMIT: null,
  SHUTTING_DOWN: null,
  TOO_MANY_CONNECT_STREAMS: null,
  CONNECT_START_TIMEOUT: null,
  INVOCATION_TIMEOUT: null,
  // Apps, sessions and invocations.
  APP_NOT_FOUND: null,
  SESSION_NOT_FOUND: null,
  SESSION_EXISTS: null,
  SESSION_BUSY: SessionBusyError,
  SESSION_STALE: null,
  SESSION_TOO_LARGE: null,
  SESSION_STORE_UNAVAILABLE: null,
  INVOCATION_NOT_FOUND: null,
  TRACE_NOT_FOUND: null,
  NODE_NOT_FOUND: null,
  // Artifacts and memory.
  ARTIFACT_NOT_FOUND: null,
  ARTIFACT_INVALID: null,
  ARTIFACT_TOO_LARGE: null,
  ARTIFACT_CONFLICT: null,
  ARTIFACTS_NOT_CONFIGURED: null,
  MEMORY_NOT_CONFIGURED: null,
  MEMORY_FULL: null,
  MEMORY_QUERY_TOO_LARGE: null,
  MEMORY_UNAVAILABLE: null,
  // Models: a model's own error takes the class of its code (see the README).
  MODEL_ERROR: null,
  MODEL_UNAVAILABLE: null,
  LLM_CALLS_EXCEEDED: null,
  // The app's configuration.
  AGENT_NOT_FOUND: null,
  TOOL_NOT_FOUND: null,
  MODEL: null,
  NO_MODEL: null,
  INSTRUCTION: null,
  CONTENTS: null,
  DUPLICATE_AGENT: null,
  FEATURE_NOT_ENABLED: null,
  TOOL_NOT_SUPPORTED: null,
  OUTPUT_SCHEMA_MISMATCH: null,
  CODE_EXECUTOR_NOT_SUPPORTED: null,
  TOOL_ARGUMENT_MISSING: null,
  MCP_UNAVAILABLE: null,
  MCP_TOOL_RESERVED: null,
  MCP_TOOL_FAILED: null,
  // Tools, callbacks, code and nodes that run in the client.
  TOOL_RESULT_MISSING: null,
  DUPLICATE_TOOL_CALL_ID: null,
  CALLBACK_NOT_DECLARED: null,
  CALLBACK_FAILED: null,
  CALLBACK_TIMEOUT: null,
  CALLBACK_RESULT_MISSING: null,
  CALLBACK_RESULT_INVALID: null,
  CODE_EXECUTOR_NOT_DECLARED: null,
  CODE_EXECUTION_TIMEOUT: null,
  CODE_RESULT_MISSING: null,
  NODE_NOT_DECLARED: null,
  NODE_TIMEOUT: null,
  NODE_RESULT_MISSING: null,
  // Workflows.
  NODE_FAILED: null,
  WORKFLOW_CONFIGURATION_ERROR: null,
  WORKFLOW_DATA_ERROR: null,
  TOOL_NOT_DECLARED: null,
  NOT_A_TASK_AGENT: null,
  // Replay of recorded ADK runs.
  REPLAY_VERIFICATION_FAILED: null,
  REPLAY_CONFIG: null,
  // The names of the codes, for a REST status that carried no reason.
  CANCELED: null,
  UNKNOWN: null,
  NOT_FOUND: null,
  ALREADY_EXISTS: null,
  RESOURCE_EXHAUSTED: null,
  FAILED_PRECONDITION: null,
  ABORTED: null,
  OUT_OF_RANGE: null,
  UNIMPLEMENTED: null,
  UNAVAILABLE: null,
  DATA_LOSS: null,
};

const codeNames: Partial<Record<Code, string>> = {
  [Code.Canceled]: "CANCELLED",
  [Code.Unknown]: "UNKNOWN",
  [Code.InvalidArgument]: "INVALID_ARGUMENT",
  [Code.DeadlineExceeded]: "DEADLINE_EXCEEDED",
  [Code.NotFound]: "NOT_FOUND",
  [Code.AlreadyExists]: "ALREADY_EXISTS",
  [Code.PermissionDenied]: "PERMISSION_DENIED",
  [Code.ResourceExhausted]: "RESOURCE_EXHAUSTED",
  [Code.FailedPrecondition]: "FAILED_PRECONDITION",
  [Code.Aborted]: "ABORTED",
  [Code.OutOfRange]: "OUT_OF_RANGE",
  [Code.Unimplemented]: "UNIMPLEMENTED",
  [Code.Internal]: "INTERNAL",
  [Code.Unavailable]: "UNAVAILABLE",
  [Code.DataLoss]: "DATA_LOSS",
  [Code.Unauthenticated]: "UNAUTHENTICATED",
};

/**
 * Converts what a call threw into an {@link AgentsvcError}: a ConnectError's
 * code and message, and the reason, domain and metadata of its first
 * google.rpc.ErrorInfo detail. An AgentsvcError is returned as is; any other
 * value becomes an {@link InternalError} (or a {@link CancelledError} for an
 * AbortError) that keeps it as `cause`.
 */
export function toAgentsvcError(err: unknown): AgentsvcError {
  if (err instanceof AgentsvcError) {
    return err;
  }
  const ce = ConnectError.from(err);
  let info: { reason: string; domain: string; metadata: Record<string, string> } | undefined;
  try {
    info = ce.findDetails(ErrorInfoSchema)[0];
  } catch {
    // A detail that does not decode is ignored: the code and message remain.
    info = undefined;
  }
  const reason = info?.reason ?? "";
  const byReason = Object.hasOwn(reasonClasses, reason) ? reasonClasses[reason as ErrorReasonName] : null;
  const cls = byReason ?? classes[ce.code] ?? AgentsvcError;
  return new cls({
    code: ce.code,
    message: ce.rawMessage,
    reason,
    domain: info?.domain ?? "",
    metadata: info ? { ...info.metadata } : {},
    cause: err,
  });
}
