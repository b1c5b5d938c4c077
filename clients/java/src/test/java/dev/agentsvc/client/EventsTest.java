package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentsvc.v1.Content;
import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.EventActions;
import dev.agentsvc.v1.FunctionCall;
import dev.agentsvc.v1.FunctionResponse;
import dev.agentsvc.v1.Part;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventsTest {
  private static Event event(Part... parts) {
    return Event.newBuilder()
        .setContent(Content.newBuilder().setRole("model").addAllParts(java.util.List.of(parts)))
        .build();
  }

  private static Part text(String t) {
    return Part.newBuilder().setText(t).build();
  }

  @Test
  void textLeavesThoughtsOut() {
    Event e = event(Part.newBuilder().setText("pondering").setThought(true).build(),
        text("Hello, "), text("world"));
    assertEquals("Hello, world", Events.text(e));
    assertEquals("Hello,  | world", Events.summary(e));
  }

  @Test
  void summaryOfCallsAndResponses() {
    Event call = event(Part.newBuilder().setFunctionCall(FunctionCall.newBuilder()
        .setName("get_weather").setArgs(Values.toStruct(Map.of("city", "Paris")))).build());
    Event response = event(Part.newBuilder().setFunctionResponse(FunctionResponse.newBuilder()
        .setName("get_weather").setResponse(Values.toStruct(Map.of("sky", "sunny")))).build());
    assertEquals("call get_weather {city=Paris}", Events.summary(call));
    assertEquals("response get_weather {sky=sunny}", Events.summary(response));
    assertFalse(Events.isFinalResponse(call));
    assertFalse(Events.isFinalResponse(response));
  }

  @Test
  void finalResponsesFollowAdk() {
    assertTrue(Events.isFinalResponse(event(text("done"))));
    assertFalse(Events.isFinalResponse(event(text("do")).toBuilder().setPartial(true).build()));
    Event call = event(Part.newBuilder().setFunctionCall(FunctionCall.newBuilder().setName("t"))
        .build());
    assertTrue(Events.isFinalResponse(call.toBuilder().addLongRunningToolIds("adk-1").build()));
    assertTrue(Events.isFinalResponse(call.toBuilder()
        .setActions(EventActions.newBuilder().setSkipSummarization(true)).build()));
  }
}
