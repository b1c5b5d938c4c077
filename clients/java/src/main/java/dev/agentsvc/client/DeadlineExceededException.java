package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * A call that did not complete before its deadline.
 *
 * <p>The status code is {@link Status.Code#DEADLINE_EXCEEDED}.
 */
public class DeadlineExceededException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public DeadlineExceededException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.DEADLINE_EXCEEDED, message, errorInfo, cause);
  }
}
