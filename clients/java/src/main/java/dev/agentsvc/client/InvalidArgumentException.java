package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * A malformed request, e.g. a run without a message or a tool declared twice.
 *
 * <p>The status code is {@link Status.Code#INVALID_ARGUMENT}.
 */
public class InvalidArgumentException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public InvalidArgumentException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.INVALID_ARGUMENT, message, errorInfo, cause);
  }
}
