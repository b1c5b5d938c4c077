package dev.agentsvc.client;

/**
 * Thrown by {@link NodeContext#runNode} when the dynamic node failed, as ADK raises {@code
 * DynamicNodeFailError} in the calling node: the message is ADK's ({@code Dynamic node <name>
 * failed}); the child's own failure is its error type and message.
 */
public final class DynamicNodeFailException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String errorType;
  private final String errorMessage;
  private final String errorNodePath;

  DynamicNodeFailException(String message, String errorType, String errorMessage,
      String errorNodePath) {
    super(message);
    this.errorType = errorType;
    this.errorMessage = errorMessage;
    this.errorNodePath = errorNodePath;
  }

  /** Returns the class name of the child's error, e.g. {@code KeyError}; empty when unknown. */
  public String errorType() {
    return errorType;
  }

  /** Returns the message of the child's error. */
  public String errorMessage() {
    return errorMessage;
  }

  /** Returns the path of the child that failed, e.g. {@code wf@1/plan@1/check@1}. */
  public String errorNodePath() {
    return errorNodePath;
  }
}
