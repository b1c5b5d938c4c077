package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * A call whose credentials do not allow it.
 *
 * <p>The status code is {@link Status.Code#PERMISSION_DENIED}.
 */
public class PermissionDeniedException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public PermissionDeniedException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.PERMISSION_DENIED, message, errorInfo, cause);
  }
}
