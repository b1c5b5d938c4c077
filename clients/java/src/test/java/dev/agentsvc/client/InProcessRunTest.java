package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.agentsvc.v1.ConnectRequest;
import dev.agentsvc.v1.ConnectResponse;
import dev.agentsvc.v1.Content;
import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.FunctionCall;
import dev.agentsvc.v1.FunctionResponse;
import dev.agentsvc.v1.Part;
import dev.agentsvc.v1.RunDone;
import dev.agentsvc.v1.RunResponse;
import dev.agentsvc.v1.StartRun;
import dev.agentsvc.v1.ToolCall;
import dev.agentsvc.v1.ToolDeclaration;
import dev.agentsvc.v1.ToolResult;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client against an in-process fake of the service's Connect and Run protocol. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class InProcessRunTest {
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

  /** A scripted server side of one Connect stream: requests are queued for the test to read. */
  static final class ServerStream implements StreamObserver<ConnectRequest> {
    final BlockingQueue<ConnectRequest> requests = new LinkedBlockingQueue<>();
    final CountDownLatch cancelled = new CountDownLatch(1);
    final CountDownLatch halfClosed = new CountDownLatch(1);
    final ServerCallStreamObserver<ConnectResponse> out;

    ServerStream(StreamObserver<ConnectResponse> out) {
      this.out = (ServerCallStreamObserver<ConnectResponse>) out;
      this.out.setOnCancelHandler(cancelled::countDown);
    }

    ConnectRequest next() throws InterruptedException {
      ConnectRequest r = requests.poll(10, TimeUnit.SECONDS);
      if (r == null) {
        throw new AssertionError("no request from the client");
      }
      return r;
    }

    synchronized void send(ConnectResponse r) {
      out.onNext(r);
    }

    @Override
    public void onNext(ConnectRequest value) {
      requests.add(value);
    }

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onCompleted() {
      halfClosed.countDown();
    }
  }

  /** Installs a Connect handler running script on its own thread with the stream. */
  private CompletableFuture<Void> onConnect(ScriptedStream script) {
    return onConnect(fake, script);
  }

  /** Installs a Connect handler on a fake running script on its own thread with the stream. */
  static CompletableFuture<Void> onConnect(FakeAgentsvc fake, ScriptedStream script) {
    CompletableFuture<Void> finished = new CompletableFuture<>();
    fake.connect = out -> {
      ServerStream s = new ServerStream(out);
      Thread t = new Thread(() -> {
        try {
          script.run(s);
          finished.complete(null);
        } catch (Throwable e) {
          finished.completeExceptionally(e);
          s.out.onError(Status.INTERNAL.withDescription("script failed: " + e).asRuntimeException());
        }
      });
      t.setDaemon(true);
      t.start();
      return s;
    };
    return finished;
  }

  interface ScriptedStream {
    void run(ServerStream s) throws Exception;
  }

  static Event callEvent(String... callIds) {
    Content.Builder c = Content.newBuilder().setRole("model");
    for (String id : callIds) {
      c.addParts(Part.newBuilder().setFunctionCall(FunctionCall.newBuilder()
          .setId(id).setName("get_" + id).setArgs(Values.toStruct(Map.of("city", "Paris")))));
    }
    return Event.newBuilder().setInvocationId("e-1").setAuthor("agent").setContent(c).build();
  }

  static ConnectResponse event(Event e) {
    return ConnectResponse.newBuilder().setEvent(e).build();
  }

  static ConnectResponse toolCall(String id, String name, Map<String, ?> args) {
    return ConnectResponse.newBuilder().setToolCall(ToolCall.newBuilder()
        .setCallId(id).setInvocationId("e-1").setAgentName("agent")
        .setFunctionCall(FunctionCall.newBuilder().setId(id).setName(name)
            .setArgs(Values.toStruct(args)))
        .setState(Values.toStruct(Map.of("user:name", "Ada"))))
        .build();
  }

  static ConnectResponse text(String text) {
    return event(Event.newBuilder().setInvocationId("e-1").setAuthor("agent")
        .setContent(Content.newBuilder().setRole("model").addParts(Part.newBuilder().setText(text)))
        .build());
  }

  static ConnectResponse done() {
    return ConnectResponse.newBuilder().setDone(RunDone.newBuilder().setInvocationId("e-1")).build();
  }

  record Reading(String city, String sky) {}

  @Test
  void answersParallelToolCallsConcurrently() throws Exception {
    CountDownLatch allStarted = new CountDownLatch(3);
    Map<String, CountDownLatch> received = Map.of(
        "a", new CountDownLatch(1), "b", new CountDownLatch(1), "c", new CountDownLatch(1));
    Map<String, String> waitsFor = Map.of("a", "b", "b", "c");
    List<String> finishOrder = Collections.synchronizedList(new ArrayList<>());
    // Each tool waits until all three run, which only concurrent calls achieve; then each waits
    // until the server has the result of the call after it, so results go back in reverse order.
    Consumer<String> together = name -> {
      allStarted.countDown();
      try {
        assertTrue(allStarted.await(5, TimeUnit.SECONDS), "tools did not run concurrently");
        if (waitsFor.containsKey(name)) {
          assertTrue(received.get(waitsFor.get(name)).await(5, TimeUnit.SECONDS));
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      finishOrder.add(name);
    };
    List<FunctionTool> tools = List.of(
        FunctionTool.builder("get_a").handler((args, ctx) -> {
          together.accept("a");
          return Map.of("city", args.getString("city"), "user", ctx.state().get("user:name"));
        }).build(),
        FunctionTool.builder("get_b").handler((args, ctx) -> {
          together.accept("b");
          return "plain text";
        }).build(),
        FunctionTool.builder("get_c").handler((args, ctx) -> {
          together.accept("c");
          ctx.putState("last_city", args.getString("city"));
          return new Reading(args.getString("city"), "sunny");
        }).build());

    Map<String, ToolResult> results = new ConcurrentHashMap<>();
    List<String> arrival = Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<Void> server = onConnect(s -> {
      StartRun start = s.next().getStart();
      assertEquals("weather", start.getRun().getAppName());
      assertEquals(List.of("get_a", "get_b", "get_c"),
          start.getToolsList().stream().map(ToolDeclaration::getName).toList());
      s.send(event(callEvent("a", "b", "c")));
      for (String id : List.of("a", "b", "c")) {
        s.send(toolCall(id, "get_" + id, Map.of("city", "Paris")));
      }
      for (int i = 0; i < 3; i++) {
        ToolResult r = s.next().getToolResult();
        results.put(r.getCallId(), r);
        arrival.add(r.getCallId());
        received.get(r.getCallId()).countDown();
      }
      Content.Builder merged = Content.newBuilder().setRole("user");
      for (String id : List.of("a", "b", "c")) {
        merged.addParts(Part.newBuilder().setFunctionResponse(FunctionResponse.newBuilder()
            .setId(id).setName("get_" + id)));
      }
      s.send(event(Event.newBuilder().setInvocationId("e-1").setAuthor("agent")
          .setContent(merged).build()));
      s.send(text("All sunny."));
      s.send(done());
      assertTrue(s.halfClosed.await(5, TimeUnit.SECONDS), "client half-closes after done");
      s.out.onCompleted();
    });

    List<Event> events;
    try (Invocation run = client.run(
        dev.agentsvc.v1.RunRequest.newBuilder().setAppName("weather").setUserId("u")
            .setSessionId("s").setNewMessage(Contents.userText("weather?")).build(), tools)) {
      events = run.stream().toList();
      assertEquals("e-1", run.completion().get(5, TimeUnit.SECONDS));
      assertEquals("e-1", run.invocationId());
    }
    server.get(5, TimeUnit.SECONDS);

    assertEquals(3, events.size());
    assertEquals("All sunny.", Events.text(events.get(2)));
    assertTrue(Events.isFinalResponse(events.get(2)));
    assertFalse(Events.isFinalResponse(events.get(0)));
    assertEquals(List.of("c", "b", "a"), finishOrder);
    assertEquals(List.of("c", "b", "a"), arrival, "results go back as they finish");
    assertEquals(Values.toValue(Map.of("city", "Paris", "user", "Ada")),
        results.get("a").getResponse());
    assertEquals(Value.newBuilder().setStringValue("plain text").build(),
        results.get("b").getResponse());
    assertEquals(Values.toValue(Map.of("city", "Paris", "sky", "sunny")),
        results.get("c").getResponse());
    assertEquals(Values.toStruct(Map.of("last_city", "Paris")),
        results.get("c").getActions().getStateDelta());
    assertFalse(results.get("a").hasActions());
  }

  static final class FlagTools {
    @Tool(description = "Starts a job.", longRunning = true)
    public void startJob(@Param("The job.") String job) {}

    @Tool(description = "Deletes a file.", requireConfirmation = true)
    public String deleteFile(String path) {
      throw new IllegalStateException("no such file: " + path);
    }

    @Tool
    public java.util.concurrent.CompletionStage<Integer> count(List<String> items) {
      return CompletableFuture.supplyAsync(items::size);
    }
  }

  @Test
  void declaresFlagsAndReportsErrorsAndEmptyResults() throws Exception {
    List<StartRun> starts = new ArrayList<>();
    Map<String, ToolResult> results = new ConcurrentHashMap<>();
    CompletableFuture<Void> server = onConnect(s -> {
      starts.add(s.next().getStart());
      s.send(toolCall("1", "start_job", Map.of("job", "backup")));
      s.send(toolCall("2", "delete_file", Map.of("path", "/x")));
      s.send(toolCall("3", "count", Map.of("items", List.of("a", "b"))));
      s.send(toolCall("4", "count", Map.of("items", "not a list")));
      s.send(toolCall("5", "unknown_tool", Map.of()));
      for (int i = 0; i < 5; i++) {
        ToolResult r = s.next().getToolResult();
        results.put(r.getCallId(), r);
      }
      s.send(done());
      s.out.onCompleted();
    });
    try (Invocation run = client.run("app", "u", "s", "go", FunctionTool.fromMethods(new FlagTools()))) {
      assertEquals(List.of(), run.stream().toList());
    }
    server.get(5, TimeUnit.SECONDS);

    Map<String, ToolDeclaration> decls = new java.util.HashMap<>();
    starts.get(0).getToolsList().forEach(d -> decls.put(d.getName(), d));
    assertTrue(decls.get("start_job").getLongRunning());
    assertFalse(decls.get("start_job").getRequireConfirmation());
    assertTrue(decls.get("delete_file").getRequireConfirmation());
    assertEquals("Starts a job.", decls.get("start_job").getDescription());
    assertEquals(Values.toStruct(Map.of("type", "object",
        "properties", Map.of("job", Map.of("type", "string", "description", "The job.")),
        "required", List.of("job"))), decls.get("start_job").getParameters());

    assertFalse(results.get("1").hasResponse(), "void long-running tool sends nothing");
    assertEquals("", results.get("1").getError());
    assertEquals("no such file: /x", results.get("2").getError());
    assertEquals(2.0, results.get("3").getResponse().getNumberValue());
    assertEquals("items: expected an array, got \"not a list\"", results.get("4").getError());
    assertEquals("Tool 'unknown_tool' is not declared by this client.", results.get("5").getError());
  }

  @Test
  void cancelSendsCancelRunAndStopsRunningTools() throws Exception {
    CountDownLatch toolStarted = new CountDownLatch(1);
    CountDownLatch toolInterrupted = new CountDownLatch(1);
    FunctionTool slow = FunctionTool.builder("get_a").handler((args, ctx) -> {
      toolStarted.countDown();
      try {
        Thread.sleep(30_000);
      } catch (InterruptedException e) {
        toolInterrupted.countDown();
      }
      return "late";
    }).build();
    List<ConnectRequest.KindCase> seen = Collections.synchronizedList(new ArrayList<>());
    CompletableFuture<Void> server = onConnect(s -> {
      seen.add(s.next().getKindCase());
      s.send(event(callEvent("a")));
      s.send(toolCall("a", "get_a", Map.of()));
      ConnectRequest r = s.next();
      seen.add(r.getKindCase());
      s.out.onError(Status.CANCELLED.withDescription("invocation cancelled").asRuntimeException());
    });

    List<Event> events = new ArrayList<>();
    Invocation run = client.run("app", "u", "s", "go", List.of(slow));
    for (Event e : run) {
      events.add(e);
      assertTrue(toolStarted.await(5, TimeUnit.SECONDS));
      run.cancel();
    }
    server.get(5, TimeUnit.SECONDS);
    assertEquals(List.of(ConnectRequest.KindCase.START, ConnectRequest.KindCase.CANCEL), seen);
    assertEquals(1, events.size());
    assertTrue(run.isCancelled());
    assertTrue(toolInterrupted.await(5, TimeUnit.SECONDS), "the running tool is interrupted");
    ExecutionException e = assertThrows(ExecutionException.class, () -> run.completion().get());
    assertInstanceOf(CancelledException.class, e.getCause());
  }

  @Test
  void closeCancelsTheCall() throws Exception {
    CountDownLatch serverSawCancel = new CountDownLatch(1);
    onConnect(s -> {
      s.next();
      s.send(text("thinking..."));
      if (s.cancelled.await(10, TimeUnit.SECONDS)) {
        serverSawCancel.countDown();
      }
    });
    Invocation run = client.run("app", "u", "s", "go", List.of());
    try (run) {
      assertEquals("thinking...", Events.text(run.iterator().next()));
    }
    assertTrue(serverSawCancel.await(5, TimeUnit.SECONDS));
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> run.completion().get(5, TimeUnit.SECONDS));
    assertInstanceOf(CancelledException.class, e.getCause());
  }

  @Test
  void failureAfterEventsKeepsTheEventsThenThrows() throws Exception {
    onConnect(s -> {
      s.next();
      s.send(event(callEvent("x")));
      s.out.onError(AgentsvcExceptionTest.status(
          Status.Code.FAILED_PRECONDITION, "TOOL_NOT_FOUND", "Tool 'get_x' not found."));
    });
    List<Event> events = new ArrayList<>();
    Invocation run = client.run("app", "u", "s", "go", List.of());
    FailedPreconditionException e = assertThrows(FailedPreconditionException.class, () -> {
      for (Event ev : run) {
        events.add(ev);
      }
    });
    assertEquals(1, events.size());
    assertEquals("TOOL_NOT_FOUND", e.reason());
    assertEquals("Tool 'get_x' not found.", e.getMessage());
  }

  @Test
  void asyncListenerGetsEventsThenCompletion() throws Exception {
    onConnect(s -> {
      s.next();
      s.send(text("one"));
      s.send(text("two"));
      s.send(done());
      s.out.onCompleted();
    });
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch completed = new CountDownLatch(1);
    Invocation run = client.runAsync(
        dev.agentsvc.v1.RunRequest.newBuilder().setAppName("app").build(), List.of(),
        new EventListener() {
          @Override
          public void onEvent(Event event) {
            seen.add(Events.text(event));
          }

          @Override
          public void onCompleted() {
            completed.countDown();
          }
        });
    assertEquals("e-1", run.completion().get(5, TimeUnit.SECONDS));
    assertTrue(completed.await(5, TimeUnit.SECONDS));
    assertEquals(List.of("one", "two"), seen);
    assertThrows(IllegalStateException.class, run::iterator);
  }

  @Test
  void plainRunStreamsEventsAndMapsErrors() {
    fake.run = (req, out) -> {
      if (req.getSessionId().equals("missing")) {
        out.onError(AgentsvcExceptionTest.status(
            Status.Code.NOT_FOUND, "SESSION_NOT_FOUND", "Session not found"));
        return;
      }
      out.onNext(RunResponse.newBuilder().setEvent(text("Echo: " +
          req.getNewMessage().getParts(0).getText()).getEvent()).build());
      out.onCompleted();
    };
    try (Invocation run = client.run("echo", "u", "s", "hi")) {
      assertEquals(List.of("Echo: hi"), run.stream().map(Events::text).toList());
    }
    Invocation missing = client.run("echo", "u", "missing", "hi");
    NotFoundException e = assertThrows(NotFoundException.class, () -> missing.stream().toList());
    assertEquals("SESSION_NOT_FOUND", e.reason());
  }

  @Test
  void unaryErrorsBecomeExceptions() {
    fake.getSession = (req, out) -> out.onError(AgentsvcExceptionTest.status(
        Status.Code.ABORTED, "SESSION_BUSY", "session is busy"));
    SessionBusyException e = assertThrows(SessionBusyException.class,
        () -> client.getSession("app", "u", "s"));
    assertEquals("session is busy", e.getMessage());
    assertInstanceOf(AbortedException.class, e);
    AgentsvcException unimplemented = assertThrows(AgentsvcException.class, client::listApps);
    assertEquals(AgentsvcException.class, unimplemented.getClass(),
        "codes without a class of their own map to the base class");
    assertEquals(Status.Code.UNIMPLEMENTED, unimplemented.code());
  }

  @Test
  void rejectsDuplicateToolNames() {
    FunctionTool t = FunctionTool.builder("t").handler((a, c) -> null).build();
    assertThrows(IllegalArgumentException.class,
        () -> client.run("app", "u", "s", "go", List.of(t, t)));
    assertEquals(Struct.getDefaultInstance(), t.declaration().getParameters());
  }
}
