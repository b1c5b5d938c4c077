package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * A session id that is already taken (reason {@code SESSION_EXISTS}).
 *
 * <p>The status code is {@link Status.Code#ALREADY_EXISTS}.
 */
public class AlreadyExistsException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public AlreadyExistsException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.ALREADY_EXISTS, message, errorInfo, cause);
  }
}
