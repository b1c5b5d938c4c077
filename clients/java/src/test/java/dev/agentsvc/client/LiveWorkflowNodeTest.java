package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.FunctionCall;
import dev.agentsvc.v1.Session;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Workflow function nodes against a live agentsvc serving the test app {@code approvals} (a
 * Workflow START → prepare → flaky → approval_gate → finish whose nodes all run here; flaky has
 * a retry_config). No model is called.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveWorkflowNodeTest {
  private static final String APP = "approvals";
  private static AgentsvcClient client;

  @BeforeAll
  static void connect() {
    String addr = System.getenv("AGENTSVC_ADDR");
    if (addr == null) {
      if (System.getenv("CI") != null) {
        fail("AGENTSVC_ADDR is not set: run the tests under scripts/with-stack.sh");
      }
      Assumptions.abort("no live stack: run under scripts/with-stack.sh");
    }
    client = AgentsvcClient.builder(addr).plaintext().build();
  }

  @AfterAll
  static void disconnect() {
    if (client != null) {
      client.close();
    }
  }

  /** The error flaky throws on its first call, named as the Python exception would be. */
  static final class ValueError extends RuntimeException {
    ValueError(String message) {
      super(message);
    }
  }

  /** The approvals app's nodes, counting their calls and keeping their inputs. */
  static final class Approvals {
    final Map<String, AtomicInteger> calls = Map.of("prepare", new AtomicInteger(),
        "flaky", new AtomicInteger(), "approval_gate", new AtomicInteger(),
        "finish", new AtomicInteger());
    final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    volatile RuntimeException prepareFails;

    int calls(String node) {
      return calls.get(node).get();
    }

    private int count(String node, Object input, NodeContext ctx) {
      seen.add(new Seen(node, input, ctx.attempt()));
      return calls.get(node).incrementAndGet();
    }

    List<FunctionNode> nodes() {
      return List.of(
          FunctionNode.of("prepare", (input, ctx) -> {
            count("prepare", input, ctx);
            if (prepareFails != null) {
              throw prepareFails;
            }
            Map<?, ?> content = (Map<?, ?>) input;
            Map<?, ?> part = (Map<?, ?>) ((List<?>) content.get("parts")).get(0);
            ctx.state().put("prepared", true);
            return Map.of("order", part.get("text"));
          }),
          FunctionNode.of("flaky", (input, ctx) -> {
            if (count("flaky", input, ctx) == 1) {
              throw new ValueError("the first attempt fails");
            }
            return input;
          }),
          FunctionNode.of("approval_gate", (input, ctx) -> {
            count("approval_gate", input, ctx);
            return RequestInput.builder()
                .message("Approve the order?")
                .payload(input)
                .responseSchema(Map.of("type", "object",
                    "properties", Map.of("approved", Map.of("type", "boolean")),
                    "required", List.of("approved")))
                .build();
          }),
          FunctionNode.of("finish", (input, ctx) -> {
            count("finish", input, ctx);
            String status = Boolean.TRUE.equals(((Map<?, ?>) input).get("approved"))
                ? "approved" : "rejected";
            ctx.state().put("status", status);
            return status;
          }));
    }
  }

  /** One node call as the node saw it. */
  record Seen(String node, Object input, int attempt) {}

  private static final Map<String, Object> ORDER = Map.of("order", "Order #42");

  @Test
  void theWorkflowPausesForApprovalAndResumesWhereItStopped() {
    String user = "user-" + UUID.randomUUID();
    Session session = client.createSession(APP, user);
    Approvals approvals = new Approvals();

    List<Event> first;
    try (Invocation run = client.runWorkflow(APP, user, session.getId(), "Order #42",
        approvals.nodes())) {
      first = run.stream().toList();
    }
    List<Event> asking = first.stream()
        .filter(e -> !RequestInputs.getRequestInputInterruptIds(e).isEmpty()).toList();
    assertEquals(1, asking.size(), "one event asks for input: " + first);
    assertTrue(RequestInputs.hasRequestInputFunctionCall(asking.get(0)));
    String interruptId = RequestInputs.getRequestInputInterruptIds(asking.get(0)).get(0);
    assertNotNull(interruptId);
    FunctionCall ask = Events.functionCalls(asking.get(0)).get(0);
    assertEquals(RequestInputs.REQUEST_INPUT_FUNCTION_CALL_NAME, ask.getName());
    Map<String, Object> args = Values.toMap(ask.getArgs());
    assertEquals("Approve the order?", args.get("message"), args.toString());
    assertEquals(ORDER, args.get("payload"), args.toString());
    assertEquals(List.of(
        new Seen("prepare", Map.of("parts", List.of(Map.of("text", "Order #42")), "role", "user"),
            1),
        new Seen("flaky", ORDER, 1),
        new Seen("flaky", ORDER, 2),
        new Seen("approval_gate", ORDER, 1)), approvals.seen);
    assertEquals(0, approvals.calls("finish"));

    List<Event> second;
    try (Invocation run = client.runWorkflow(APP, user, session.getId(),
        RequestInputs.resumeContent(interruptId, Map.of("approved", true)), approvals.nodes())) {
      second = run.stream().toList();
    }
    assertEquals(5, approvals.seen.size(), approvals.seen.toString());
    assertEquals(new Seen("finish", Map.of("approved", true), 1), approvals.seen.get(4));
    List<Object> outputs = second.stream().filter(Event::hasOutput)
        .map(e -> Values.toJava(e.getOutput())).toList();
    assertTrue(outputs.contains("approved"), "outputs " + outputs + " hold finish's");

    Map<String, Object> state =
        Values.toMap(client.getSession(APP, user, session.getId()).getState());
    assertEquals("approved", state.get("status"), state.toString());
    assertEquals(true, state.get("prepared"), state.toString());
  }

  @Test
  void aRunThatDoesNotDeclareEveryNodeIsRefusedAndStoresNothing() {
    String user = "user-" + UUID.randomUUID();
    Session session = client.createSession(APP, user);
    Approvals approvals = new Approvals();
    FailedPreconditionException e = assertThrows(FailedPreconditionException.class, () -> {
      try (Invocation run = client.runWorkflow(APP, user, session.getId(), "Order #7",
          approvals.nodes().subList(0, 1))) {
        run.stream().toList();
      }
    });
    assertEquals(ErrorReasons.NODE_NOT_DECLARED, e.reason());
    assertEquals(0, approvals.calls("prepare"));
    assertEquals(0, client.getSession(APP, user, session.getId()).getEventsCount());
  }

  @Test
  void aNodeThatFailsForGoodFailsTheRunWithItsError() {
    String user = "user-" + UUID.randomUUID();
    Session session = client.createSession(APP, user);
    Approvals approvals = new Approvals();
    approvals.prepareFails = new ValueError("no such order");
    AgentsvcException e = assertThrows(AgentsvcException.class, () -> {
      try (Invocation run = client.runWorkflow(APP, user, session.getId(), "Order #7",
          approvals.nodes())) {
        run.stream().toList();
      }
    });
    assertEquals(ErrorReasons.NODE_FAILED, e.reason(), e.toString());
    assertTrue(e.getMessage().contains("no such order"), e.getMessage());
    assertEquals(1, approvals.calls("prepare"));
    assertEquals(0, approvals.calls("flaky"));
  }

  // "maybe" is no boolean even to pydantic's lax mode, which takes "yes".
  @Test
  void anAnswerThatDoesNotMatchTheSchemaIsRefused() {
    String user = "user-" + UUID.randomUUID();
    Session session = client.createSession(APP, user);
    Approvals approvals = new Approvals();
    String interruptId;
    try (Invocation run = client.runWorkflow(APP, user, session.getId(), "Order #42",
        approvals.nodes())) {
      // The whole run is read, so that it has ended before the answer.
      interruptId = run.stream().toList().stream().flatMap(ev -> RequestInputs
          .getRequestInputInterruptIds(ev).stream()).findFirst().orElseThrow();
    }
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> {
      try (Invocation run = client.runWorkflow(APP, user, session.getId(),
          RequestInputs.resumeContent(interruptId, Map.of("approved", "maybe")),
          approvals.nodes())) {
        run.stream().toList();
      }
    });
    assertEquals(ErrorReasons.WORKFLOW_DATA_ERROR, e.reason(), e.toString());
    assertEquals(0, approvals.calls("finish"));
  }

  /**
   * Dynamic nodes (ADK's {@code ctx.run_node}) in the test app {@code dynamic}: plan runs nodes
   * from inside itself, then summary and shout run as the graph says.
   */
  @Test
  void childrenRunUnderTheCallersPathAndTheirOutputsComeBack() {
    String user = "user-" + UUID.randomUUID();
    Session session = client.createSession("dynamic", user);
    Map<String, Object> seen = new ConcurrentHashMap<>();
    FunctionNode doubler = FunctionNode.of("double",
        (in, ctx) -> ((Number) in).intValue() * 2).dynamic();
    FunctionNode broken = FunctionNode.of("broken", (in, ctx) -> {
      throw new IllegalStateException("nope");
    }).dynamic();
    FunctionNode plan = FunctionNode.of("plan", (in, ctx) -> {
      Object a = ctx.runNode(doubler, 3);
      Object b = ctx.runNode(doubler, a);
      Object loud = ctx.runNodeAsync("shout", "hi",
          new NodeContext.RunNodeOptions(false, "once")).get();
      try {
        ctx.runNode(broken, null);
      } catch (DynamicNodeFailException e) {
        seen.put("failure", List.of(e.getMessage(), e.errorType(), e.errorNodePath()));
      }
      seen.put("session", List.of(ctx.session().id(), ctx.session().userId(),
          ctx.session().events().size()));
      ctx.state().put("plan", Map.of("a", a, "b", b, "loud", loud));
      return Map.of("a", a, "b", b);
    }).withSessionEvents();
    FunctionNode summary = FunctionNode.of("summary", (in, ctx) -> {
      Object b = ((Map<?, ?>) in).get("b");
      Object loud = ((Map<?, ?>) ctx.session().state().get("plan")).get("loud");
      return ((Number) b).intValue() + " " + loud;
    });
    FunctionNode shout = FunctionNode.of("shout", (in, ctx) -> in.toString().toUpperCase() + "!");

    List<Event> events;
    try (Invocation run = client.runWorkflow("dynamic", user, session.getId(), "go",
        List.of(plan, doubler, broken, summary, shout))) {
      events = run.stream().toList();
    }
    List<List<Object>> outputs = new ArrayList<>();
    List<List<Object>> failed = new ArrayList<>();
    for (Event e : events) {
      if (e.hasOutput()) {
        outputs.add(List.of(e.getNodeInfo().getPath(), Values.toJava(e.getOutput())));
      }
      if (!e.getErrorCode().isEmpty()) {
        failed.add(List.of(e.getNodeInfo().getPath(), e.getErrorCode(), e.getErrorMessage()));
      }
    }
    assertEquals(List.of(
        List.of("dynamic@1/plan@1/double@1", 6.0),
        List.of("dynamic@1/plan@1/double@2", 12.0),
        List.of("dynamic@1/plan@1/shout@once", "HI!"),
        List.of("dynamic@1/plan@1", Map.of("a", 6.0, "b", 12.0)),
        List.of("dynamic@1/summary@1", "12 HI!"),
        List.of("dynamic@1/shout@1", "12 HI!!")), outputs);
    assertEquals(List.of(List.of("dynamic@1/plan@1/broken@1", "IllegalStateException", "nope")),
        failed);
    assertEquals(List.of("Dynamic node broken failed", "IllegalStateException",
        "dynamic@1/plan@1/broken@1"), seen.get("failure"));
    assertEquals(List.of(session.getId(), user, 1), seen.get("session"));
    assertEquals(Map.of("a", 6.0, "b", 12.0, "loud", "HI!"),
        Values.toMap(client.getSession("dynamic", user, session.getId()).getState()).get("plan"));
  }
}
