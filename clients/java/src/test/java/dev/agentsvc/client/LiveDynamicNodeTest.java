package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dynamic nodes (ADK's {@code ctx.run_node}) against a live agentsvc serving the test app {@code
 * dynamic}: plan runs nodes from inside itself, then summary and shout run as the graph says.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveDynamicNodeTest {
  private static final String APP = "dynamic";
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

  @Test
  void childrenRunUnderTheCallersPathAndTheirOutputsComeBack() {
    String user = "user-" + UUID.randomUUID();
    Session session = client.createSession(APP, user);
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
    try (Invocation run = client.runWorkflow(APP, user, session.getId(), "go",
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
        Values.toMap(client.getSession(APP, user, session.getId()).getState()).get("plan"));
  }
}
