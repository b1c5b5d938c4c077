package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * A call cancelled before it completed.
 *
 * <p>The status code is {@link Status.Code#CANCELLED}.
 */
public class CancelledException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public CancelledException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.CANCELLED, message, errorInfo, cause);
  }
}
