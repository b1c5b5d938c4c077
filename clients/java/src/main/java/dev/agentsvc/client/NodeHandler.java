package dev.agentsvc.client;

/**
 * The code of a workflow function node built with {@link FunctionNode#of}: ADK's node function
 * {@code (node_input, ctx)}.
 *
 * <p>Handlers run on the client's tool executor, several at once when the workflow runs nodes in
 * parallel, so they must be thread-safe.
 */
@FunctionalInterface
public interface NodeHandler {
  /**
   * Runs the node once (one attempt).
   *
   * @param nodeInput the node's input as JSON values (null, Boolean, Double, String, List or
   *     Map): the output of the node that triggered it; for a node after START, the user's
   *     message as Content JSON ({@code {"parts": [{"text": ...}], "role": "user"}})
   * @param context the call's context: state, route, resume inputs
   * @return the node's output: any value {@link Values#toValue} encodes (a map, record, bean,
   *     list, string, number...), a {@link RequestInput} or a collection of them to pause the
   *     workflow and ask the user, null for no output, or a {@link
   *     java.util.concurrent.CompletionStage} of one of these, awaited without blocking
   * @throws Exception sent as the node's error (its class's simple name and message), which the
   *     node's {@code retry_config} may retry
   */
  Object call(Object nodeInput, NodeContext context) throws Exception;
}
