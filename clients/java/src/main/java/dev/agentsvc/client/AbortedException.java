package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * A conflict with a concurrent change: the session is running another invocation ({@link
 * SessionBusyException}) or was modified concurrently (reason {@code SESSION_STALE}). Retrying
 * later may succeed.
 *
 * <p>The status code is {@link Status.Code#ABORTED}.
 */
public class AbortedException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public AbortedException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.ABORTED, message, errorInfo, cause);
  }
}
