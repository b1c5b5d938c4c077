package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentsvc.v1.ConnectRequest;
import dev.agentsvc.v1.ConnectResponse;
import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.RunDone;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.RunResponse;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Request ids on runs, against an in-process fake of the service. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class InProcessRetryAndPagesTest {
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

  @Test
  void newRequestIdsAreFreshAndFitTheServiceLimit() {
    String a = AgentsvcClient.newRequestId();
    String b = AgentsvcClient.newRequestId();
    assertNotEquals(a, b);
    assertTrue(a.length() <= 128 && a.chars().allMatch(c -> c > 0x20 && c < 0x7f), a);
  }

  @Test
  void runPassesTheRequestIdOn() {
    BlockingQueue<RunRequest> seen = new LinkedBlockingQueue<>();
    fake.run = (req, out) -> {
      seen.add(req);
      out.onNext(RunResponse.newBuilder().setEvent(InProcessRunTest.text("ok").getEvent()).build());
      out.onCompleted();
    };
    collect(client.run("echo", "u", "s", "hi", "req-1"));
    collect(client.run("echo", "u", "s", "hi", (String) null));
    collect(client.run("echo", "u", "s", "hi"));
    RunRequest full = RunRequest.newBuilder().setAppName("echo").setUserId("u").setSessionId("s")
        .setNewMessage(Contents.userText("hi")).setRequestId("req-2").build();
    collect(client.run(full));
    collect(client.run(full));

    List<String> ids = new ArrayList<>();
    seen.forEach(r -> ids.add(r.getRequestId()));
    assertEquals(List.of("req-1", "", "", "req-2", "req-2"), ids);
    assertEquals("hi", seen.peek().getNewMessage().getParts(0).getText());
  }

  @Test
  void connectPassesTheRequestIdOnInItsStartMessage() {
    BlockingQueue<ConnectRequest> starts = new LinkedBlockingQueue<>();
    fake.connect = out -> new StreamObserver<>() {
      @Override
      public void onNext(ConnectRequest r) {
        if (r.hasStart()) {
          starts.add(r);
          out.onNext(InProcessRunTest.text("ok"));
          out.onNext(ConnectResponse.newBuilder()
              .setDone(RunDone.newBuilder().setInvocationId("e-1")).build());
        }
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        out.onCompleted();
      }
    };
    FunctionTool tool = FunctionTool.builder("t").handler((a, c) -> null).build();
    collect(client.run("weather", "u", "s", "hi", "req-3", List.of(tool)));
    collect(client.run("weather", "u", "s", "hi", List.of(tool)));
    RunRequest full = RunRequest.newBuilder().setAppName("weather").setUserId("u")
        .setSessionId("s").setNewMessage(Contents.userText("hi")).setRequestId("req-4").build();
    collect(client.run(full, List.of(tool)));

    List<String> ids = new ArrayList<>();
    starts.forEach(r -> ids.add(r.getStart().getRun().getRequestId()));
    assertEquals(List.of("req-3", "", "req-4"), ids);
  }

  private static List<Event> collect(Invocation run) {
    try (run) {
      return run.stream().toList();
    }
  }
}
