package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;

/**
 * The session is already running an invocation: one session runs one invocation at a time.
 *
 * <p>The status code is {@link io.grpc.Status.Code#ABORTED} with reason {@value #REASON}.
 */
public class SessionBusyException extends AbortedException {
  private static final long serialVersionUID = 1L;

  /** The ErrorInfo reason of this error, {@link dev.agentsvc.v1.ErrorReason#SESSION_BUSY}. */
  public static final String REASON = "SESSION_BUSY";

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public SessionBusyException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(message, errorInfo, cause);
  }
}
