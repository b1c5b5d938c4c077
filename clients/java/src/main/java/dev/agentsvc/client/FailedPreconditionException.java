package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * An invocation that fails because of the app's own configuration or state: a missing instruction\n * variable, an unknown agent or tool.
 *
 * <p>The status code is {@link Status.Code#FAILED_PRECONDITION}.
 */
public class FailedPreconditionException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public FailedPreconditionException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.FAILED_PRECONDITION, message, errorInfo, cause);
  }
}
