package dev.agentsvc.client;

/**
 * The code of a tool declared with an explicit schema through {@link FunctionTool#builder}.
 *
 * <p>Handlers run on the client's tool executor, several at once when the model calls tools in
 * parallel, so they must be thread-safe.
 */
@FunctionalInterface
public interface ToolHandler {
  /**
   * Runs the tool for one call.
   *
   * @param args the call's arguments
   * @param context the call's context
   * @return the result: a map, record or bean is sent as the response object; any other value is
   *     wrapped by the service as {@code {"result": value}}; a {@link
   *     java.util.concurrent.CompletionStage} is awaited without blocking; null sends no value
   *     (for a long-running tool: no response at all)
   * @throws Exception reported to the model as {@code {"error": "<message>"}}
   */
  Object call(ToolArguments args, ToolContext context) throws Exception;
}
