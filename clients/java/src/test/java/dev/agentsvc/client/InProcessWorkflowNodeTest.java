package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Value;
import dev.agentsvc.v1.ConnectResponse;
import dev.agentsvc.v1.NodeCall;
import dev.agentsvc.v1.NodeDeclaration;
import dev.agentsvc.v1.NodeError;
import dev.agentsvc.v1.NodeResult;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.StartRun;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Workflow function nodes against an in-process fake of the service's Connect protocol. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class InProcessWorkflowNodeTest {
  private FakeAgentsvc fake;
  private AgentsvcClient client;

  @BeforeEach
  void start() throws Exception {
    fake = new FakeAgentsvc();
    client = fake.client();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    fake.close();
  }

  private static final RunRequest REQUEST = RunRequest.newBuilder().setAppName("approvals")
      .setUserId("u").setSessionId("s").setNewMessage(Contents.userText("Order #42")).build();

  static ConnectResponse nodeCall(String id, String name, Object input,
      Consumer<NodeCall.Builder> fill) {
    NodeCall.Builder c = NodeCall.newBuilder().setCallId(id).setName(name)
        .setInvocationId("e-1").setWorkflow("approvals").setNodeName(name)
        .setNodePath("approvals@1/" + name + "@1").setAttempt(1)
        .setState(Values.toStruct(Map.of("user:name", "Ada", "count", 1)));
    if (input != null) {
      c.setNodeInput(Values.toValue(input));
    }
    fill.accept(c);
    return ConnectResponse.newBuilder().setNodeCall(c).build();
  }

  static ConnectResponse nodeCall(String id, String name, Object input) {
    return nodeCall(id, name, input, c -> { });
  }

  /** Sends the calls, collects one result per call by call id; the start message into starts. */
  private Map<String, NodeResult> answer(List<FunctionNode> nodes, List<StartRun> starts,
      ConnectResponse... calls) throws Exception {
    Map<String, NodeResult> results = new ConcurrentHashMap<>();
    CompletableFuture<Void> server = InProcessRunTest.onConnect(fake, s -> {
      starts.add(s.next().getStart());
      for (ConnectResponse c : calls) {
        s.send(c);
      }
      for (int i = 0; i < calls.length; i++) {
        NodeResult r = s.next().getNodeResult();
        results.put(r.getCallId(), r);
      }
      s.send(InProcessRunTest.done());
      s.out.onCompleted();
    });
    try (Invocation run = client.runWorkflow(REQUEST, nodes)) {
      assertEquals(List.of(), run.stream().toList());
      assertEquals("e-1", run.completion().get(5, TimeUnit.SECONDS));
    }
    server.get(5, TimeUnit.SECONDS);
    return results;
  }

  record Approval(boolean approved, String comment) {}

  @Test
  void declaresTheNodesAndSendsOutputStateDeltaAndRoute() throws Exception {
    List<NodeContext> seen = Collections.synchronizedList(new ArrayList<>());
    List<Object> inputs = Collections.synchronizedList(new ArrayList<>());
    FunctionNode prepare = FunctionNode.of("prepare", (input, ctx) -> {
      seen.add(ctx);
      inputs.add(input);
      ctx.state().put("prepared", true);
      ctx.stateDelta().put("temp:seen", List.of("a"));
      ctx.route(List.of("fast", 2, true));
      assertEquals(true, ctx.state().get("prepared"));
      assertEquals(1.0, ctx.state().get("count"));
      return Map.of("order", "Order #42");
    });
    FunctionNode quiet = FunctionNode.of("quiet", (input, ctx) -> {
      inputs.add(input);
      return null;
    });
    FunctionNode later = FunctionNode.of("later", (input, ctx) ->
        CompletableFuture.supplyAsync(() -> new Approval(true, "ok")));
    List<StartRun> starts = new ArrayList<>();
    Map<String, NodeResult> results = answer(List.of(prepare, quiet, later), starts,
        nodeCall("1", "prepare", Map.of("parts", List.of(Map.of("text", "Order #42")),
            "role", "user"), c -> c.setAttempt(2)
            .setResumeInputs(Values.toStruct(Map.of("i-1", Map.of("approved", true))))),
        nodeCall("2", "quiet", null), nodeCall("3", "later", "x"));

    assertEquals(List.of("prepare", "quiet", "later"),
        starts.get(0).getNodesList().stream().map(NodeDeclaration::getName).toList());
    assertEquals(0, starts.get(0).getToolsCount());
    assertFalse(starts.get(0).getCodeExecutor());

    NodeContext ctx = seen.get(0);
    assertEquals("1", ctx.callId());
    assertEquals("e-1", ctx.invocationId());
    assertEquals("approvals", ctx.workflow());
    assertEquals("prepare", ctx.nodeName());
    assertEquals("approvals@1/prepare@1", ctx.nodePath());
    assertEquals(2, ctx.attempt());
    assertEquals(Map.of("i-1", Map.of("approved", true)), ctx.resumeInputs());
    assertEquals(Map.of("user:name", "Ada", "count", 1.0, "prepared", true,
        "temp:seen", List.of("a")), ctx.state());
    assertTrue(inputs.contains(Map.of("parts", List.of(Map.of("text", "Order #42")),
        "role", "user")));
    assertTrue(inputs.contains(null));

    NodeResult r = results.get("1");
    assertEquals(Values.toValue(Map.of("order", "Order #42")), r.getOutput());
    assertEquals(Values.toStruct(Map.of("prepared", true, "temp:seen", List.of("a"))),
        r.getStateDelta());
    assertEquals(Values.toValue(List.of("fast", 2, true)), r.getRoute());
    assertFalse(r.hasError());

    NodeResult none = results.get("2");
    assertFalse(none.hasOutput());
    assertFalse(none.hasStateDelta());
    assertFalse(none.hasRoute());
    assertFalse(none.hasError());
    assertEquals(0, none.getRequestInputsCount());

    assertEquals(Values.toValue(Map.of("approved", true, "comment", "ok")),
        results.get("3").getOutput());
  }

  @Test
  void requestInputsPauseTheWorkflowWithTheirSchemas() throws Exception {
    Map<String, Object> schema = Map.of("type", "object",
        "properties", Map.of("approved", Map.of("type", "boolean")),
        "required", List.of("approved"));
    FunctionNode gate = FunctionNode.of("gate", (input, ctx) -> {
      ctx.state().put("asked", true);
      return RequestInput.builder().message("Approve the order?").payload(input)
          .responseSchema(schema).build();
    });
    FunctionNode typed = FunctionNode.of("typed", (input, ctx) -> List.of(
        RequestInput.builder().interruptId("review-1").responseSchema(Approval.class).build(),
        RequestInput.of("Any comment?")));
    FunctionNode mixed = FunctionNode.of("mixed", (input, ctx) ->
        List.of(RequestInput.of("a"), "b"));
    Map<String, NodeResult> results = answer(List.of(gate, typed, mixed), new ArrayList<>(),
        nodeCall("1", "gate", Map.of("order", "Order #42")), nodeCall("2", "typed", null),
        nodeCall("3", "mixed", null));

    NodeResult g = results.get("1");
    assertFalse(g.hasOutput());
    assertEquals(1, g.getRequestInputsCount());
    dev.agentsvc.v1.RequestInput q = g.getRequestInputs(0);
    assertEquals("", q.getInterruptId());
    assertEquals("Approve the order?", q.getMessage());
    assertEquals(Values.toValue(Map.of("order", "Order #42")), q.getPayload());
    assertEquals(Values.toValue(schema), q.getResponseSchema());
    assertEquals(Values.toStruct(Map.of("asked", true)), g.getStateDelta());

    NodeResult t = results.get("2");
    assertEquals(2, t.getRequestInputsCount());
    assertEquals("review-1", t.getRequestInputs(0).getInterruptId());
    assertFalse(t.getRequestInputs(0).hasPayload());
    assertEquals(Values.toValue(Map.of("type", "object",
        "properties", Map.of("approved", Map.of("type", "boolean"),
            "comment", Map.of("type", "string")),
        "required", List.of("approved", "comment"))), t.getRequestInputs(0).getResponseSchema());
    assertEquals("Any comment?", t.getRequestInputs(1).getMessage());
    assertFalse(t.getRequestInputs(1).hasResponseSchema());

    NodeResult m = results.get("3");
    assertEquals(0, m.getRequestInputsCount());
    assertEquals("IllegalArgumentException", m.getError().getType());
  }

  static final class ValueError extends RuntimeException {
    ValueError(String message) {
      super(message);
    }
  }

  @Test
  void exceptionsBecomeNodeErrorsNamedByTheirClass() throws Exception {
    FunctionNode failing = FunctionNode.of("failing", (input, ctx) -> {
      ctx.state().put("lost", true);
      throw new ValueError("flaky failure");
    });
    FunctionNode bare = FunctionNode.of("bare", (input, ctx) -> {
      throw new UnsupportedOperationException();
    });
    FunctionNode async = FunctionNode.of("async", (input, ctx) ->
        CompletableFuture.failedFuture(new IllegalStateException("later")));
    FunctionNode badRoute = FunctionNode.of("bad_route", (input, ctx) -> {
      ctx.route(Map.of("a", 1));
      return "x";
    });
    FunctionNode unencodable = FunctionNode.of("unencodable", (input, ctx) -> {
      List<Object> cycle = new ArrayList<>();
      cycle.add(cycle);
      return cycle;
    });
    Map<String, NodeResult> results = answer(
        List.of(failing, bare, async, badRoute, unencodable), new ArrayList<>(),
        nodeCall("1", "failing", null), nodeCall("2", "bare", null),
        nodeCall("3", "async", null), nodeCall("4", "bad_route", null),
        nodeCall("5", "unencodable", null), nodeCall("6", "nope", null));

    assertEquals(NodeError.newBuilder().setType("ValueError").setMessage("flaky failure").build(),
        results.get("1").getError());
    assertFalse(results.get("1").hasStateDelta());
    assertFalse(results.get("1").hasOutput());
    assertEquals(NodeError.newBuilder().setType("UnsupportedOperationException").build(),
        results.get("2").getError());
    assertEquals(NodeError.newBuilder().setType("IllegalStateException").setMessage("later")
        .build(), results.get("3").getError());
    assertEquals("IllegalArgumentException", results.get("4").getError().getType());
    assertEquals("IllegalArgumentException", results.get("5").getError().getType());
    assertTrue(results.get("5").getError().getMessage()
        .startsWith("cannot encode the node's result: "), results.get("5").toString());
    // An undeclared node is answered as an undeclared tool is: an error naming it.
    assertEquals(NodeError.newBuilder().setType("IllegalStateException")
        .setMessage("Node 'nope' is not declared by this client.").build(),
        results.get("6").getError());
  }

  static final class OrderNodes {
    @Node
    Map<String, Object> prepare(Map<String, Object> userMessage, NodeContext ctx) {
      ctx.state().put("prepared", true);
      return Map.of("order", userMessage.get("role"));
    }

    @Node(name = "finish")
    String record(Approval approval) {
      return approval.approved() ? "approved" : "rejected";
    }

    @Node
    void approvalGate() {}
  }

  @Test
  void nodeMethodsAreNamedAndBoundLikeTools() throws Exception {
    List<FunctionNode> nodes = FunctionNode.fromMethods(new OrderNodes());
    assertEquals(List.of("approval_gate", "finish", "prepare"),
        nodes.stream().map(FunctionNode::name).toList());
    Map<String, NodeResult> results = answer(nodes, new ArrayList<>(),
        nodeCall("1", "prepare", Map.of("role", "user")),
        nodeCall("2", "finish", Map.of("approved", true, "comment", "")),
        nodeCall("3", "approval_gate", "ignored"),
        nodeCall("4", "finish", List.of()));
    assertEquals(Values.toValue(Map.of("order", "user")), results.get("1").getOutput());
    assertEquals(Values.toStruct(Map.of("prepared", true)), results.get("1").getStateDelta());
    assertEquals(Value.newBuilder().setStringValue("approved").build(),
        results.get("2").getOutput());
    assertFalse(results.get("3").hasOutput());
    assertFalse(results.get("3").hasError());
    assertEquals("IllegalArgumentException", results.get("4").getError().getType());

    class TwoInputs {
      @Node
      String both(String a, String b) {
        return a + b;
      }
    }
    assertThrows(IllegalArgumentException.class, () -> FunctionNode.fromMethods(new TwoInputs()));
    assertThrows(IllegalArgumentException.class, () -> FunctionNode.fromMethods(new Object()));
    assertThrows(IllegalArgumentException.class,
        () -> client.runWorkflow(REQUEST, List.of(FunctionNode.of("a", (i, c) -> null),
            FunctionNode.of("a", (i, c) -> null))));
    assertThrows(IllegalArgumentException.class, () -> FunctionNode.of(" ", (i, c) -> null));
  }

  @Test
  void theStateViewReadsThroughAndWritesToTheDelta() {
    NodeContext ctx = NodeContext.of(NodeCall.newBuilder()
        .setState(Values.toStruct(Map.of("a", 1, "b", "x"))).build());
    assertEquals("x", ctx.state().get("b"));
    assertEquals("x", ctx.state().put("b", "y"));
    ctx.state().put("c", null);
    assertEquals("y", ctx.state().get("b"));
    assertTrue(ctx.state().containsKey("c"));
    assertEquals(Collections.singletonMap("c", null).get("c"), ctx.state().get("c"));
    assertEquals(3, ctx.state().size());
    assertEquals(java.util.Arrays.asList("y", null),
        java.util.Arrays.asList(ctx.stateDelta().get("b"), ctx.stateDelta().get("c")));
    assertThrows(UnsupportedOperationException.class, () -> ctx.state().remove("a"));
    ctx.route("left");
    assertEquals("left", ctx.route());
    ctx.route(null);
    assertEquals(null, ctx.route());
    assertThrows(IllegalArgumentException.class, () -> ctx.route(new Object()));
    assertThrows(IllegalArgumentException.class,
        () -> ctx.route(java.util.Arrays.asList("a", null)));
  }
}
