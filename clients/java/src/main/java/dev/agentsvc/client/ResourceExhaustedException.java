package dev.agentsvc.client;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;

/**
 * A limit reached, e.g. the run's {@code max_llm_calls}.
 *
 * <p>The status code is {@link Status.Code#RESOURCE_EXHAUSTED}.
 */
public class ResourceExhaustedException extends AgentsvcException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message the status message
   * @param errorInfo the ErrorInfo detail, or null
   * @param cause the gRPC exception, or null
   */
  public ResourceExhaustedException(String message, ErrorInfo errorInfo, Throwable cause) {
    super(Status.Code.RESOURCE_EXHAUSTED, message, errorInfo, cause);
  }
}
