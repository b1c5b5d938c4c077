package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * An error inside the service, or one the transport could not classify.
 *
 * <p>The status code is {@link Status.Code#INTERNAL}, {@link Status.Code#UNKNOWN} or {@link
 * Status.Code#DATA_LOSS}.
 */
public class InternalException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param code the status code
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public InternalException(Status.Code code, String message, ErrorInfo errorInfo, Throwable cause) {
    super(code, message, errorInfo, cause);
  }
}
