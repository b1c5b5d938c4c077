package dev.agentsvc.client;

import dev.agentsvc.v1.Content;
import dev.agentsvc.v1.FunctionResponse;
import dev.agentsvc.v1.Part;
import java.util.Map;

/** Builds the {@link Content} of messages. Stateless and thread-safe. */
public final class Contents {
  private Contents() {}

  /** Returns a user message of one text part. */
  public static Content userText(String text) {
    return Content.newBuilder().setRole("user").addParts(Part.newBuilder().setText(text)).build();
  }

  /**
   * Returns a user message answering a function call, e.g. the final result of a long-running
   * tool or an {@code adk_request_confirmation} answer.
   *
   * @param callId the function call's id
   * @param name the function's name
   * @param response the response object
   */
  public static Content functionResponse(String callId, String name, Map<String, ?> response) {
    FunctionResponse fr = FunctionResponse.newBuilder()
        .setId(callId).setName(name).setResponse(Values.toStruct(response)).build();
    return Content.newBuilder().setRole("user").addParts(Part.newBuilder().setFunctionResponse(fr))
        .build();
  }
}
