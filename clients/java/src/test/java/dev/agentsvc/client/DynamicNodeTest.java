package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.NodeCall;
import dev.agentsvc.v1.NodeDeclaration;
import dev.agentsvc.v1.NodeError;
import dev.agentsvc.v1.RunNodeRequest;
import dev.agentsvc.v1.RunNodeResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** NodeContext.runNode and session against a scripted channel. */
class DynamicNodeTest {
  private static final NodeCall CALL = NodeCall.newBuilder().setCallId("n-1").setName("plan")
      .setNodePath("wf@1/plan@1").setSessionId("s").setUserId("u")
      .setState(Values.toStruct(Map.of("k", 1)))
      .addSessionEvents(Event.newBuilder().setId("ev-1")).build();

  @Test
  void runNodeSendsRequestsAndTurnsAnswersIntoOutputsAndExceptions() throws Exception {
    List<RunNodeResponse> answers = List.of(
        RunNodeResponse.newBuilder().setNodePath("wf@1/plan@1/double@r")
            .setOutput(Values.toValue(6)).build(),
        RunNodeResponse.newBuilder().setNodePath("wf@1/plan@1/shout@1").build(),
        RunNodeResponse.newBuilder().setNodePath("wf@1/plan@1/double@2")
            .setError(NodeError.newBuilder().setType("DynamicNodeFailError")
                .setMessage("Dynamic node double failed"))
            .setCause(NodeError.newBuilder().setType("KeyError").setMessage("'nope'")).build(),
        RunNodeResponse.newBuilder().setError(NodeError.newBuilder().setType("ValueError")
            .setMessage("A node must have rerun_on_resume=True.")).build());
    List<RunNodeRequest> sent = new ArrayList<>();
    NodeContext ctx = new NodeContext(CALL, req -> {
      sent.add(req);
      return CompletableFuture.completedFuture(answers.get(sent.size() - 1));
    });
    FunctionNode doubler = FunctionNode.of("double", (in, c) -> in).dynamic();

    assertEquals(6.0, ctx.runNodeAsync(doubler, 3,
        new NodeContext.RunNodeOptions(true, "r")).get());
    assertNull(ctx.runNode("shout", null));
    DynamicNodeFailException fail =
        assertThrows(DynamicNodeFailException.class, () -> ctx.runNode(doubler, null));
    assertEquals("Dynamic node double failed", fail.getMessage());
    assertEquals(List.of("KeyError", "'nope'", "wf@1/plan@1/double@2"),
        List.of(fail.errorType(), fail.errorMessage(), fail.errorNodePath()));
    IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> ctx.runNode(doubler, null));
    assertEquals("A node must have rerun_on_resume=True.", refused.getMessage());

    assertEquals(List.of("1", "2", "3", "4"),
        sent.stream().map(RunNodeRequest::getRequestId).toList());
    assertTrue(sent.stream().allMatch(r -> r.getCallId().equals("n-1")));
    RunNodeRequest first = sent.get(0);
    assertEquals(List.of("double", true, "r", 3.0), List.of(first.getFunction(),
        first.getUseAsOutput(), first.getRunId(), Values.toJava(first.getNodeInput())));
    assertEquals("shout", sent.get(1).getNode());

    NodeContext.Session session = ctx.session();
    assertEquals(List.of("s", "u", Map.of("k", 1.0), List.of("ev-1")), List.of(session.id(),
        session.userId(), session.state(), session.events().stream().map(Event::getId).toList()));
  }

  @Test
  void declarationsCarryDynamicAndSessionEvents() {
    FunctionNode fn = FunctionNode.of("helper", (in, c) -> null);
    assertEquals(NodeDeclaration.newBuilder().setName("helper").build(), fn.declaration());
    assertEquals(NodeDeclaration.newBuilder().setName("helper").setDynamic(true)
        .setSessionEvents(true).build(), fn.dynamic().withSessionEvents().declaration());
  }

  static final class Annotated {
    @Node(dynamic = true, sessionEvents = true)
    static int doubleIt(int in) {
      return in * 2;
    }
  }

  @Test
  void theAnnotationDeclaresDynamicNodes() {
    NodeDeclaration d = FunctionNode.fromMethods(Annotated.class).get(0).declaration();
    assertEquals(List.of("double_it", true, true), List.of(d.getName(), d.getDynamic(),
        d.getSessionEvents()));
  }
}
