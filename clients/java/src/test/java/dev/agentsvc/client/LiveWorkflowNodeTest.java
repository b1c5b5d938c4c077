package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.Session;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Workflow function nodes against a live agentsvc serving the test app {@code approvals} (a
 * Workflow START → prepare → flaky → approval_gate → finish whose nodes all run here; flaky has a
 * retry_config). No model is called.
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
    final List<Object> finishInputs = Collections.synchronizedList(new ArrayList<>());

    int calls(String node) {
      return calls.get(node).get();
    }

    List<FunctionNode> nodes() {
      return List.of(
          FunctionNode.of("prepare", (input, ctx) -> {
            calls.get("prepare").incrementAndGet();
            Map<?, ?> content = (Map<?, ?>) input;
            Map<?, ?> part = (Map<?, ?>) ((List<?>) content.get("parts")).get(0);
            ctx.state().put("prepared", true);
            return Map.of("order", part.get("text"));
          }),
          FunctionNode.of("flaky", (input, ctx) -> {
            if (calls.get("flaky").incrementAndGet() == 1) {
              throw new ValueError("the first attempt fails");
            }
            return input;
          }),
          FunctionNode.of("approval_gate", (input, ctx) -> {
            calls.get("approval_gate").incrementAndGet();
            return RequestInput.builder()
                .message("Approve the order?")
                .payload(input)
                .responseSchema(Map.of("type", "object",
                    "properties", Map.of("approved", Map.of("type", "boolean")),
                    "required", List.of("approved")))
                .build();
          }),
          FunctionNode.of("finish", (input, ctx) -> {
            calls.get("finish").incrementAndGet();
            finishInputs.add(input);
            String status = Boolean.TRUE.equals(((Map<?, ?>) input).get("approved"))
                ? "approved" : "rejected";
            ctx.state().put("status", status);
            return status;
          }));
    }
  }

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
    String interruptId = null;
    for (Event e : first) {
      List<String> ids = RequestInputs.getRequestInputInterruptIds(e);
      if (!ids.isEmpty()) {
        assertTrue(RequestInputs.hasRequestInputFunctionCall(e));
        interruptId = ids.get(0);
      }
    }
    assertNotNull(interruptId, "no request for input in " + first);
    assertEquals(1, approvals.calls("prepare"));
    assertEquals(2, approvals.calls("flaky"));
    assertEquals(1, approvals.calls("approval_gate"));
    assertEquals(0, approvals.calls("finish"));

    List<Event> second;
    try (Invocation run = client.runWorkflow(APP, user, session.getId(),
        RequestInputs.resumeContent(interruptId, Map.of("approved", true)), approvals.nodes())) {
      second = run.stream().toList();
    }
    assertFalse(second.isEmpty());
    assertEquals(1, approvals.calls("finish"));
    assertEquals(List.of(Map.of("approved", true)), approvals.finishInputs);
    assertEquals(1, approvals.calls("prepare"));
    assertEquals(2, approvals.calls("flaky"));
    assertEquals(1, approvals.calls("approval_gate"));

    Map<String, Object> state =
        Values.toMap(client.getSession(APP, user, session.getId()).getState());
    assertEquals("approved", state.get("status"), state.toString());
    assertEquals(true, state.get("prepared"), state.toString());
  }
}
