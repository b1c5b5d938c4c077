package dev.agentsvc.client;

import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.rpc.ErrorInfo;
import dev.agentsvc.v1.ErrorReason;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Base of every error the service reports, and of the errors of the transport to it.
 *
 * <p>An agentsvc error is a gRPC status: a {@linkplain #code() code}, a human {@linkplain
 * #getMessage() message} (ADK's own text where ADK has one) and a {@code google.rpc.ErrorInfo}
 * whose {@linkplain #reason() reason} tells cases of one code apart, e.g. {@code SESSION_BUSY}
 * and {@code SESSION_STALE} under {@link Status.Code#ABORTED}. Each code has its own subclass
 * ({@link NotFoundException}, {@link InvalidArgumentException}, ...), so callers catch what they
 * can handle; codes without one map to this class.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public class AgentsvcException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The ErrorInfo domain of the errors the service itself reports. */
  public static final String DOMAIN = "agentsvc";

  private final Status.Code code;
  private final transient ErrorInfo errorInfo;

  /**
   * Creates an exception.
   *
   * @param code the gRPC status code
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null when the status carried none
   * @param cause the gRPC exception, or null
   */
  public AgentsvcException(
      Status.Code code, String message, ErrorInfo errorInfo, Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
    this.errorInfo = errorInfo == null ? ErrorInfo.getDefaultInstance() : errorInfo;
  }

  /** Returns the gRPC status code. */
  public Status.Code code() {
    return code;
  }

  /**
   * Returns the ErrorInfo reason, e.g. {@code SESSION_NOT_FOUND}, or an empty string when the
   * status carried no ErrorInfo (errors of the transport rather than of the service).
   */
  public String reason() {
    return errorInfo.getReason();
  }

  /**
   * Returns the ErrorInfo reason as a value of the service's closed set of reasons: {@link
   * ErrorReason#ERROR_REASON_UNSPECIFIED} when the status carried none, {@link
   * ErrorReason#UNRECOGNIZED} for a reason this client does not know (from a newer service).
   */
  public ErrorReason errorReason() {
    return errorReasonOf(reason());
  }

  static ErrorReason errorReasonOf(String reason) {
    if (reason.isEmpty()) {
      return ErrorReason.ERROR_REASON_UNSPECIFIED;
    }
    EnumValueDescriptor value = ErrorReason.getDescriptor().findValueByName(reason);
    return value == null ? ErrorReason.UNRECOGNIZED : ErrorReason.valueOf(value);
  }

  /**
   * Returns the class that a reason raises beyond the class of its status code, or null when it
   * raises its code's class. The switch names every value of {@link ErrorReason}, so that a reason
   * added to the service's set does not compile until it is given its class here.
   */
  static Class<? extends AgentsvcException> reasonClass(ErrorReason reason) {
    return switch (reason) {
      case SESSION_BUSY -> SessionBusyException.class;
      case ERROR_REASON_UNSPECIFIED, UNRECOGNIZED, INTERNAL, INVALID_ARGUMENT, MALFORMED_REQUEST,
          NESTING_TOO_DEEP, INVALID_REQUEST, UNSUPPORTED_MEDIA_TYPE, REQUEST_TOO_LARGE,
          REQUEST_TIMEOUT, ROUTE_NOT_FOUND, METHOD_NOT_ALLOWED, NOT_SERVED, ORIGIN_NOT_ALLOWED,
          HOST_NOT_ALLOWED, CANCELLED, DEADLINE_EXCEEDED, RESPONSE_TOO_LARGE, UNAUTHENTICATED,
          TOKEN_INVALID, TOKEN_EXPIRED, PERMISSION_DENIED, APP_STATE_DENIED, SERVER_BUSY,
          USER_RATE_LIMITED, USER_INVOCATION_LIMIT, USER_SESSION_LIMIT, SHUTTING_DOWN,
          TOO_MANY_CONNECT_STREAMS, CONNECT_START_TIMEOUT, INVOCATION_TIMEOUT, APP_NOT_FOUND,
          SESSION_NOT_FOUND, SESSION_EXISTS, SESSION_STALE, SESSION_TOO_LARGE,
          SESSION_STORE_UNAVAILABLE, INVOCATION_NOT_FOUND, TRACE_NOT_FOUND, NODE_NOT_FOUND,
          ARTIFACT_NOT_FOUND, ARTIFACT_INVALID, ARTIFACT_TOO_LARGE, ARTIFACT_CONFLICT,
          ARTIFACTS_NOT_CONFIGURED, MEMORY_NOT_CONFIGURED, MEMORY_FULL, MEMORY_QUERY_TOO_LARGE,
          MEMORY_UNAVAILABLE, MODEL_ERROR, MODEL_UNAVAILABLE, LLM_CALLS_EXCEEDED, AGENT_NOT_FOUND,
          TOOL_NOT_FOUND, MODEL, NO_MODEL, INSTRUCTION, CONTENTS, DUPLICATE_AGENT,
          FEATURE_NOT_ENABLED, TOOL_NOT_SUPPORTED, OUTPUT_SCHEMA_MISMATCH,
          CODE_EXECUTOR_NOT_SUPPORTED, TOOL_ARGUMENT_MISSING, MCP_UNAVAILABLE, MCP_TOOL_RESERVED,
          MCP_TOOL_FAILED, TOOL_RESULT_MISSING, DUPLICATE_TOOL_CALL_ID, CALLBACK_NOT_DECLARED,
          CALLBACK_FAILED, CALLBACK_TIMEOUT, CALLBACK_RESULT_MISSING, CALLBACK_RESULT_INVALID,
          CODE_EXECUTOR_NOT_DECLARED, CODE_EXECUTION_TIMEOUT, CODE_RESULT_MISSING,
          NODE_NOT_DECLARED, NODE_TIMEOUT, NODE_RESULT_MISSING, NODE_FAILED,
          WORKFLOW_CONFIGURATION_ERROR, WORKFLOW_DATA_ERROR, TOOL_NOT_DECLARED, NOT_A_TASK_AGENT,
          REPLAY_VERIFICATION_FAILED, REPLAY_CONFIG, CANCELED, UNKNOWN, NOT_FOUND, ALREADY_EXISTS,
          RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE, UNIMPLEMENTED,
          UNAVAILABLE, DATA_LOSS -> null;
    };
  }

  /** Returns the ErrorInfo domain ({@value #DOMAIN} for the service's errors), or "". */
  public String domain() {
    return errorInfo.getDomain();
  }

  /** Returns the ErrorInfo metadata; empty when there is none. */
  public Map<String, String> metadata() {
    return errorInfo.getMetadataMap();
  }

  /** Returns the ErrorInfo detail; the default instance when the status carried none. */
  public ErrorInfo errorInfo() {
    return errorInfo;
  }

  /**
   * Tells whether this is the model's own error (reason {@link ErrorReason#MODEL_ERROR}): the
   * message is the model's, the code follows its HTTP status.
   */
  public boolean isModelError() {
    return ErrorReason.MODEL_ERROR.name().equals(reason()) && DOMAIN.equals(domain());
  }

  /**
   * Returns the HTTP status the model answered with, for a {@linkplain #isModelError() model
   * error} that came with an answer (e.g. 429); empty otherwise.
   */
  public OptionalInt modelHttpStatus() {
    if (!isModelError()) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(metadata().getOrDefault("http_status", "")));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /**
   * Returns the model's status for a {@linkplain #isModelError() model error}, e.g. {@code
   * RESOURCE_EXHAUSTED} from the model's answer or {@code DEADLINE_EXCEEDED} for a call the
   * service cut off; an empty string otherwise.
   */
  public String modelStatus() {
    return isModelError() ? metadata().getOrDefault("model_status", "") : "";
  }

  @Override
  public String toString() {
    String kind = reason().isEmpty() ? code.name() : code.name() + "/" + reason();
    return getClass().getName() + " [" + kind + "]: " + getMessage();
  }

  /**
   * Maps an error of a gRPC call to the exception for its status code, keeping the ErrorInfo
   * detail. An {@code AgentsvcException} is returned as is; wrappers of a future's failure are
   * looked through; any other throwable becomes an {@link Status.Code#UNKNOWN} exception.
   *
   * @param error the error, as thrown by a stub or passed to {@code onError}
   * @return the mapped exception, never null
   */
  public static AgentsvcException from(Throwable error) {
    Objects.requireNonNull(error, "error");
    Throwable t = error;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof AgentsvcException e) {
      return e;
    }
    Status status = Status.fromThrowable(t);
    String message = status.getDescription();
    if (message == null) {
      message = status.getCause() != null ? String.valueOf(status.getCause()) : status.getCode().name();
    }
    ErrorInfo info = null;
    if (t instanceof StatusRuntimeException || t instanceof StatusException) {
      info = errorInfo(StatusProto.fromThrowable(t));
    }
    return forCode(status.getCode(), message, info, t);
  }

  /**
   * Returns the exception for a status code.
   *
   * @param code the gRPC status code
   * @param message the status message
   * @param info the ErrorInfo detail, or null
   * @param cause the cause, or null
   * @return the exception of the code's class
   */
  static AgentsvcException forCode(
      Status.Code code, String message, ErrorInfo info, Throwable cause) {
    return switch (code) {
      case NOT_FOUND -> new NotFoundException(message, info, cause);
      case ALREADY_EXISTS -> new AlreadyExistsException(message, info, cause);
      case INVALID_ARGUMENT -> new InvalidArgumentException(message, info, cause);
      case FAILED_PRECONDITION -> new FailedPreconditionException(message, info, cause);
      case ABORTED -> info != null
              && reasonClass(errorReasonOf(info.getReason())) == SessionBusyException.class
          ? new SessionBusyException(message, info, cause)
          : new AbortedException(message, info, cause);
      case RESOURCE_EXHAUSTED -> new ResourceExhaustedException(message, info, cause);
      case UNAVAILABLE -> new UnavailableException(message, info, cause);
      case CANCELLED -> new CancelledException(message, info, cause);
      case DEADLINE_EXCEEDED -> new DeadlineExceededException(message, info, cause);
      case UNAUTHENTICATED -> new UnauthenticatedException(message, info, cause);
      case PERMISSION_DENIED -> new PermissionDeniedException(message, info, cause);
      case INTERNAL, UNKNOWN, DATA_LOSS -> new InternalException(code, message, info, cause);
      default -> new AgentsvcException(code, message, info, cause);
    };
  }

  private static ErrorInfo errorInfo(com.google.rpc.Status status) {
    if (status == null) {
      return null;
    }
    for (com.google.protobuf.Any detail : status.getDetailsList()) {
      if (detail.is(ErrorInfo.class)) {
        try {
          return detail.unpack(ErrorInfo.class);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
          return null;
        }
      }
    }
    return null;
  }
}
