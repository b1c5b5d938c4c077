package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * An unknown app or session (reasons such as {@code APP_NOT_FOUND}, {@code SESSION_NOT_FOUND}).
 *
 * <p>The status code is {@link Status.Code#NOT_FOUND}.
 */
public class NotFoundException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public NotFoundException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.NOT_FOUND, message, errorInfo, cause);
  }
}
