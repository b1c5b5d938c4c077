package dev.agentsvc.client;

import com.google.protobuf.Value;
import dev.agentsvc.v1.Content;
import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.FunctionCall;
import dev.agentsvc.v1.FunctionResponse;
import dev.agentsvc.v1.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Finds a paused workflow's requests for input in its events and builds the answers that resume
 * it, as ADK's {@code google.adk.workflow.utils._workflow_hitl_utils}. A node's {@link
 * RequestInput} reaches the user as an {@value #REQUEST_INPUT_FUNCTION_CALL_NAME} function call;
 * the user answers with a function response of that name whose id is the interrupt id.
 *
 * <pre>{@code
 * String interruptId = null;
 * try (Invocation run = client.runWorkflow("approvals", "alice", sessionId, "Order #42", nodes)) {
 *   for (Event event : run) {
 *     List<String> ids = RequestInputs.getRequestInputInterruptIds(event);
 *     if (!ids.isEmpty()) {
 *       interruptId = ids.get(0);
 *     }
 *   }
 * }
 * Content answer = RequestInputs.resumeContent(interruptId, Map.of("approved", true));
 * try (Invocation run = client.runWorkflow("approvals", "alice", sessionId, answer, nodes)) {
 *   run.forEach(event -> System.out.println(Events.summary(event)));
 * }
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class RequestInputs {
  /** The name of the function call that asks the user for input. */
  public static final String REQUEST_INPUT_FUNCTION_CALL_NAME = "adk_request_input";

  /** The name of the function call that asks the user for a credential. */
  public static final String REQUEST_CREDENTIAL_FUNCTION_CALL_NAME = "adk_request_credential";

  private RequestInputs() {}

  /** Tells whether an event asks the user for input (has an adk_request_input function call). */
  public static boolean hasRequestInputFunctionCall(Event event) {
    return hasCall(event, REQUEST_INPUT_FUNCTION_CALL_NAME);
  }

  /**
   * Tells whether an event asks the user for a credential (has an adk_request_credential
   * function call).
   */
  public static boolean hasAuthRequestFunctionCall(Event event) {
    return hasCall(event, REQUEST_CREDENTIAL_FUNCTION_CALL_NAME);
  }

  /**
   * Returns the interrupt ids of an event's requests for input, in order: the {@code interruptId}
   * argument of each adk_request_input function call, or the call's id when it has none; empty
   * when the event asks for nothing.
   */
  public static List<String> getRequestInputInterruptIds(Event event) {
    List<String> ids = new ArrayList<>();
    for (FunctionCall call : Events.functionCalls(Objects.requireNonNull(event, "event"))) {
      if (!REQUEST_INPUT_FUNCTION_CALL_NAME.equals(call.getName())) {
        continue;
      }
      Value id = call.getArgs().getFieldsMap().get("interruptId");
      if (id != null && id.hasStringValue() && !id.getStringValue().isEmpty()) {
        ids.add(id.getStringValue());
      } else {
        ids.add(call.getId());
      }
    }
    return ids;
  }

  /**
   * Returns the part answering a request for input: a function response named {@value
   * #REQUEST_INPUT_FUNCTION_CALL_NAME} whose id is the interrupt id.
   *
   * @param interruptId the request's interrupt id
   * @param response the answer: an object (a map, record or bean) matching the request's response
   *     schema; wrap a list or a scalar in a map
   * @throws IllegalArgumentException when the response is not an object
   */
  public static Part createRequestInputResponse(String interruptId, Object response) {
    Objects.requireNonNull(interruptId, "interruptId");
    Value v = Values.toValue(Objects.requireNonNull(response, "response"));
    if (!v.hasStructValue()) {
      throw new IllegalArgumentException(
          "the response to a request for input is an object; wrap lists and scalars in a map");
    }
    return Part.newBuilder().setFunctionResponse(FunctionResponse.newBuilder()
        .setId(interruptId).setName(REQUEST_INPUT_FUNCTION_CALL_NAME)
        .setResponse(v.getStructValue())).build();
  }

  /**
   * Returns the user message that answers a request for input and resumes the paused workflow:
   * a user-role Content of the part {@link #createRequestInputResponse} builds.
   */
  public static Content resumeContent(String interruptId, Object response) {
    return Content.newBuilder().setRole("user")
        .addParts(createRequestInputResponse(interruptId, response)).build();
  }

  private static boolean hasCall(Event event, String name) {
    for (FunctionCall call : Events.functionCalls(Objects.requireNonNull(event, "event"))) {
      if (name.equals(call.getName())) {
        return true;
      }
    }
    return false;
  }
}
