package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * A call without valid credentials.
 *
 * <p>The status code is {@link Status.Code#UNAUTHENTICATED}.
 */
public class UnauthenticatedException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public UnauthenticatedException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.UNAUTHENTICATED, message, errorInfo, cause);
  }
}
