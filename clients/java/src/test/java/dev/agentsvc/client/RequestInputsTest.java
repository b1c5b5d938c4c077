package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentsvc.v1.Content;
import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.FunctionCall;
import dev.agentsvc.v1.FunctionResponse;
import dev.agentsvc.v1.Part;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestInputsTest {
  private static Part call(String id, String name, Map<String, ?> args) {
    return Part.newBuilder().setFunctionCall(FunctionCall.newBuilder()
        .setId(id).setName(name).setArgs(Values.toStruct(args))).build();
  }

  private static Event event(Part... parts) {
    return Event.newBuilder().setAuthor("approvals")
        .setContent(Content.newBuilder().setRole("model").addAllParts(List.of(parts))).build();
  }

  @Test
  void findsTheRequestsForInputAndTheirInterruptIds() {
    Event e = event(
        Part.newBuilder().setText("Waiting.").build(),
        call("adk-1", "adk_request_input", Map.of("interruptId", "i-1", "message", "Approve?")),
        call("adk-2", "get_weather", Map.of("interruptId", "not-this")),
        call("adk-3", "adk_request_input", Map.of("message", "no id")),
        call("adk-4", "adk_request_input", Map.of("interruptId", "")));
    assertTrue(RequestInputs.hasRequestInputFunctionCall(e));
    assertFalse(RequestInputs.hasAuthRequestFunctionCall(e));
    assertEquals(List.of("i-1", "adk-3", "adk-4"), RequestInputs.getRequestInputInterruptIds(e));

    Event auth = event(call("adk-5", "adk_request_credential", Map.of()));
    assertTrue(RequestInputs.hasAuthRequestFunctionCall(auth));
    assertFalse(RequestInputs.hasRequestInputFunctionCall(auth));
    assertEquals(List.of(), RequestInputs.getRequestInputInterruptIds(auth));
    assertEquals(List.of(), RequestInputs.getRequestInputInterruptIds(Event.getDefaultInstance()));
    assertEquals("adk_request_input", RequestInputs.REQUEST_INPUT_FUNCTION_CALL_NAME);
    assertEquals("adk_request_credential", RequestInputs.REQUEST_CREDENTIAL_FUNCTION_CALL_NAME);
  }

  record Answer(boolean approved, String comment) {}

  @Test
  void buildsTheAnswerThatResumesTheWorkflow() {
    Part p = RequestInputs.createRequestInputResponse("i-1", Map.of("approved", true));
    assertEquals(FunctionResponse.newBuilder().setId("i-1").setName("adk_request_input")
        .setResponse(Values.toStruct(Map.of("approved", true))).build(), p.getFunctionResponse());

    Content c = RequestInputs.resumeContent("i-2", new Answer(false, "too costly"));
    assertEquals("user", c.getRole());
    assertEquals(1, c.getPartsCount());
    assertEquals("i-2", c.getParts(0).getFunctionResponse().getId());
    assertEquals(Values.toStruct(Map.of("approved", false, "comment", "too costly")),
        c.getParts(0).getFunctionResponse().getResponse());

    assertThrows(IllegalArgumentException.class,
        () -> RequestInputs.createRequestInputResponse("i-1", List.of("a")));
    assertThrows(NullPointerException.class,
        () -> RequestInputs.createRequestInputResponse(null, Map.of()));
  }

  @Test
  void requestInputsKeepWhatTheyAreBuiltWith() {
    RequestInput q = RequestInput.builder().interruptId("i-1").message("Tags?")
        .payload(Map.of("item", 7)).responseSchema(String[].class).build();
    assertEquals("i-1", q.interruptId());
    assertEquals("Tags?", q.message());
    assertEquals(Map.of("item", 7.0), q.payload());
    assertEquals(Map.of("type", "array", "items", Map.of("type", "string")), q.responseSchema());
    assertEquals(q, RequestInput.builder().interruptId("i-1").message("Tags?")
        .payload(Map.of("item", 7)).responseSchema(String[].class).build());
    RequestInput bare = RequestInput.of("Go on?");
    assertEquals("", bare.interruptId());
    assertEquals(null, bare.payload());
    assertEquals(null, bare.responseSchema());
  }
}
