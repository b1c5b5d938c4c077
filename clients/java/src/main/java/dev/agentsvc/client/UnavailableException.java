package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * The service, its session store or its model could not be reached; retrying later may succeed.
 *
 * <p>The status code is {@link Status.Code#UNAVAILABLE}.
 */
public class UnavailableException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public UnavailableException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.UNAVAILABLE, message, errorInfo, cause);
  }
}
