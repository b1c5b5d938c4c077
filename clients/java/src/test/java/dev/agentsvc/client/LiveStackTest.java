package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.agentsvc.v1.AgentInfo;
import dev.agentsvc.v1.ArtifactVersion;
import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.FunctionCall;
import dev.agentsvc.v1.FunctionResponse;
import dev.agentsvc.v1.GetSessionRequest;
import dev.agentsvc.v1.GetSessionResponse;
import dev.agentsvc.v1.Part;
import dev.agentsvc.v1.RunConfig;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.Session;
import dev.agentsvc.v1.ToolInfo;
import io.grpc.Status;
import java.util.ArrayList;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client against a live agentsvc serving the test apps ({@code echo}; {@code weather} whose
 * tools live in the client; {@code guarded}, whose tool and callbacks do) with a scripted Gemini
 * server and its default in-memory artifact store; AGENTSVC_ADDR and FAKEGEMINI_URL
 * locate them. The model server's script is shared state: these tests run one at a time and
 * reset it first.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveStackTest {
  private static AgentsvcClient client;
  private static FakeGemini model;

  private String user;

  @BeforeAll
  static void connect() {
    String addr = System.getenv("AGENTSVC_ADDR");
    String fake = System.getenv("FAKEGEMINI_URL");
    if (addr == null || fake == null) {
      if (System.getenv("CI") != null) {
        fail("AGENTSVC_ADDR and FAKEGEMINI_URL are not set: run the tests under scripts/with-stack.sh");
      }
      Assumptions.abort("no live stack: run under scripts/with-stack.sh");
    }
    client = AgentsvcClient.builder(addr).plaintext().build();
    model = new FakeGemini(fake);
  }

  @AfterAll
  static void disconnect() {
    if (client != null) {
      client.close();
    }
  }

  @BeforeEach
  void reset() {
    model.reset();
    user = "user-" + UUID.randomUUID();
  }

  /**
   * The weather app's tools, written in Java. Built for n concurrent calls, each call waits until
   * all n run, so only concurrent calls complete; with n = 3 they then finish in the reverse of
   * the call order (air quality, forecast, weather).
   */
  static final class WeatherTools {
    record Day(int day, String sky) {}

    private final CountDownLatch together;
    private final boolean reverse;
    private final CountDownLatch airDone = new CountDownLatch(1);
    private final CountDownLatch forecastDone = new CountDownLatch(1);
    final List<String> finished = Collections.synchronizedList(new ArrayList<>());

    WeatherTools(int concurrent) {
      together = new CountDownLatch(concurrent);
      reverse = concurrent == 3;
    }

    @Tool(description = "Returns the current weather in a city.")
    public Map<String, Object> getWeather(@Param("The city name.") String city)
        throws InterruptedException {
      meet(forecastDone);
      finished.add("get_weather");
      return Map.of("city", city, "sky", "sunny", "celsius", 21);
    }

    @Tool(description = "Returns the forecast for the next days.")
    public List<Day> getForecast(@Param("The city name.") String city,
        @Param("How many days.") int days) throws InterruptedException {
      meet(airDone);
      List<Day> out = new ArrayList<>();
      for (int i = 1; i <= days; i++) {
        out.add(new Day(i, i % 2 == 0 ? "rain" : "sun"));
      }
      finished.add("get_forecast");
      forecastDone.countDown();
      return out;
    }

    @Tool(description = "Returns the air quality index of a city.")
    public int getAirQuality(@Param("The city name.") String city) throws InterruptedException {
      meet(null);
      finished.add("get_air_quality");
      airDone.countDown();
      return 42;
    }

    private void meet(CountDownLatch before) throws InterruptedException {
      together.countDown();
      if (!together.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the other tool calls did not run concurrently");
      }
      if (reverse && before != null && !before.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the previous tool did not finish");
      }
    }
  }

  private List<Event> collect(Invocation run) {
    try (run) {
      return run.stream().toList();
    }
  }

  private static List<Event> byAgent(List<Event> events) {
    return events.stream().filter(e -> !e.getAuthor().equals("user")).toList();
  }

  @Test
  void plainRunAndApps() {
    assertTrue(client.listApps().containsAll(List.of("echo", "weather")), client.listApps().toString());
    AgentInfo root = client.getApp("weather").getRootAgent();
    assertEquals("weather_agent", root.getName());
    assertEquals(List.of("get_weather", "get_forecast", "get_air_quality"),
        root.getToolsList().stream().filter(ToolInfo::getRemote).map(ToolInfo::getName).toList());

    Session session = client.createSession("echo", user, null, Map.of("mood", "calm"));
    List<Event> events = collect(client.run("echo", user, session.getId(), "hello there"));
    Event last = events.get(events.size() - 1);
    assertEquals("echo_agent", last.getAuthor());
    assertEquals("Echo: hello there", Events.text(last));
    assertTrue(Events.isFinalResponse(last));

    Session stored = client.getSession("echo", user, session.getId());
    assertEquals("calm", Values.toMap(stored.getState()).get("mood"));
    assertEquals(2, stored.getEventsCount(), "the user's message and the answer");
    assertEquals("hello there", Events.text(stored.getEvents(0)));
    assertEquals(last.getId(), stored.getEvents(1).getId());

    Session updated = client.updateSessionState("echo", user, session.getId(), Map.of("mood", "glad"));
    assertEquals("glad", Values.toMap(updated.getState()).get("mood"));
    assertEquals(1, client.listSessions("echo", user).size());
    client.deleteSession("echo", user, session.getId());
    assertEquals(0, client.listSessions("echo", user).size());
  }

  @Test
  void remoteToolRoundTrip() {
    model.script(List.of(
        FakeGemini.functionCalls("get_weather", Map.of("city", "Paris")),
        FakeGemini.text("It is sunny in Paris, 21 degrees.")));
    Session session = client.createSession("weather", user);
    WeatherTools tools = new WeatherTools(1);
    List<Event> events = collect(client.run("weather", user, session.getId(),
        "What is the weather in Paris?", FunctionTool.fromMethods(tools)));

    List<Event> agent = byAgent(events);
    assertEquals(3, agent.size(), events.toString());
    FunctionCall call = Events.functionCalls(agent.get(0)).get(0);
    assertEquals("get_weather", call.getName());
    assertTrue(call.getId().startsWith("adk-"), call.getId());
    FunctionResponse response = Events.functionResponses(agent.get(1)).get(0);
    assertEquals(call.getId(), response.getId());
    assertEquals(Map.of("city", "Paris", "sky", "sunny", "celsius", 21.0),
        Values.toMap(response.getResponse()));
    assertEquals("It is sunny in Paris, 21 degrees.", Events.text(agent.get(2)));
    assertEquals(List.of("get_weather"), tools.finished);

    // The tool's result reached the model in its second request.
    List<Object> requests = model.requests();
    assertEquals(2, requests.size());
    assertTrue(String.valueOf(requests.get(1)).contains("sunny"), String.valueOf(requests.get(1)));
    assertEquals(4, client.getSession("weather", user, session.getId()).getEventsCount());
  }

  @Test
  void threeParallelRemoteTools() {
    model.script(List.of(
        FakeGemini.functionCalls(
            "get_weather", Map.of("city", "Paris"),
            "get_forecast", Map.of("city", "Paris", "days", 3),
            "get_air_quality", Map.of("city", "Paris")),
        FakeGemini.text("Sunny now, then rain; the air is good.")));
    Session session = client.createSession("weather", user);
    WeatherTools tools = new WeatherTools(3);
    List<Event> events = collect(client.run("weather", user, session.getId(),
        "Weather, forecast and air in Paris?", FunctionTool.fromMethods(tools)));

    // Each tool waited for the other two: they ran concurrently, and finished last call first.
    assertEquals(List.of("get_air_quality", "get_forecast", "get_weather"), tools.finished);
    List<Event> agent = byAgent(events);
    assertEquals(3, agent.size(), events.toString());
    List<FunctionCall> calls = Events.functionCalls(agent.get(0));
    List<FunctionResponse> responses = Events.functionResponses(agent.get(1));
    assertEquals(List.of("get_weather", "get_forecast", "get_air_quality"),
        responses.stream().map(FunctionResponse::getName).toList(), "one merged event in call order");
    for (int i = 0; i < 3; i++) {
      assertEquals(calls.get(i).getId(), responses.get(i).getId());
    }
    assertEquals("sunny", Values.toMap(responses.get(0).getResponse()).get("sky"));
    assertEquals(Map.of("result", List.of(
            Map.of("day", 1.0, "sky", "sun"), Map.of("day", 2.0, "sky", "rain"),
            Map.of("day", 3.0, "sky", "sun"))),
        Values.toMap(responses.get(1).getResponse()), "a list result is wrapped by the service");
    assertEquals(Map.of("result", 42.0), Values.toMap(responses.get(2).getResponse()));
    assertEquals("Sunny now, then rain; the air is good.", Events.text(agent.get(2)));
  }

  @Test
  void errorsBecomeExceptions() {
    NotFoundException session = assertThrows(NotFoundException.class,
        () -> client.getSession("echo", user, "no-such-session"));
    assertEquals("SESSION_NOT_FOUND", session.reason());
    assertEquals("agentsvc", session.domain());

    NotFoundException app = assertThrows(NotFoundException.class, () -> client.getApp("nope"));
    assertEquals("APP_NOT_FOUND", app.reason());

    Invocation run = client.run("echo", user, "no-such-session", "hi");
    assertThrows(NotFoundException.class, () -> collect(run));

    Session s = client.createSession("echo", user, "fixed-id", null);
    AlreadyExistsException exists = assertThrows(AlreadyExistsException.class,
        () -> client.createSession("echo", user, s.getId(), null));
    assertEquals("SESSION_EXISTS", exists.reason());

    FunctionTool stranger = FunctionTool.builder("not_in_the_app").handler((a, c) -> "x").build();
    assertThrows(InvalidArgumentException.class,
        () -> collect(client.run("echo", user, s.getId(), "hi", List.of(stranger))));

    // The weather agent calls a tool this client did not declare: the run fails after the
    // call event, with ADK's message.
    Session w = client.createSession("weather", user);
    model.script(List.of(FakeGemini.functionCalls("get_weather", Map.of("city", "Rome"))));
    List<Event> before = new ArrayList<>();
    FailedPreconditionException missing = assertThrows(FailedPreconditionException.class, () -> {
      try (Invocation r = client.run("weather", user, w.getId(), "Rome?", List.of())) {
        r.forEach(before::add);
      }
    });
    assertTrue(missing.getMessage().startsWith("Tool 'get_weather' not found."),
        missing.getMessage());
    assertEquals("TOOL_NOT_FOUND", missing.reason());
    assertEquals("get_weather", Events.functionCalls(before.get(before.size() - 1)).get(0).getName());

    // max_llm_calls: the second model call of the tool round trip is one too many.
    model.reset();
    model.script(List.of(FakeGemini.functionCalls("get_weather", Map.of("city", "Rome"))));
    Session limited = client.createSession("weather", user);
    RunRequest oneCall = RunRequest.newBuilder()
        .setAppName("weather").setUserId(user).setSessionId(limited.getId())
        .setNewMessage(Contents.userText("Rome?"))
        .setRunConfig(RunConfig.newBuilder().setMaxLlmCalls(1))
        .build();
    ResourceExhaustedException exhausted = assertThrows(ResourceExhaustedException.class,
        () -> collect(client.run(oneCall, FunctionTool.fromMethods(new WeatherTools(1)))));
    assertEquals("LLM_CALLS_EXCEEDED", exhausted.reason());
  }

  @Test
  void aSecondRunOnABusySessionIsRejected() throws Exception {
    Session session = client.createSession("echo", user);
    // Longer than the server's wait for a busy session (2s by default).
    model.latency("5s");
    try (Invocation first = client.run("echo", user, session.getId(), "first")) {
      awaitModelCall();
      SessionBusyException busy = assertThrows(SessionBusyException.class,
          () -> collect(client.run("echo", user, session.getId(), "second")));
      assertEquals("SESSION_BUSY", busy.reason());
      assertEquals(List.of("Echo: first"), first.stream().map(Events::text).toList());
    }
  }

  private static void awaitModelCall() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (model.requests().isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "the model was never called");
      Thread.sleep(20);
    }
  }

  @Test
  void cancelWhileAToolRuns() throws Exception {
    model.script(List.of(FakeGemini.functionCalls("get_weather", Map.of("city", "Oslo"))));
    Session session = client.createSession("weather", user);
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    FunctionTool slow = FunctionTool.builder("get_weather")
        .parameters(JsonSchemas.of(WeatherArgs.class))
        .handler((args, ctx) -> {
          started.countDown();
          try {
            Thread.sleep(20_000);
          } catch (InterruptedException e) {
            interrupted.countDown();
          }
          return Map.of("sky", "too late");
        })
        .build();

    List<Event> seen = new ArrayList<>();
    Invocation run = client.run("weather", user, session.getId(), "Oslo?", List.of(slow));
    try (run) {
      for (Event e : run) {
        seen.add(e);
        if (!Events.functionCalls(e).isEmpty()) {
          assertTrue(started.await(10, TimeUnit.SECONDS), "the tool was called");
          run.cancel();
        }
      }
    }
    ExecutionException end = assertThrows(ExecutionException.class,
        () -> run.completion().get(10, TimeUnit.SECONDS));
    assertInstanceOf(CancelledException.class, end.getCause());
    assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the running tool is stopped");

    Session stored = client.getSession("weather", user, session.getId());
    List<Event> events = stored.getEventsList();
    assertEquals(3, events.size(),
        "the user's message, the call and the service's answer to it, nothing after: " + events);
    FunctionCall call = Events.functionCalls(events.get(1)).get(0);
    assertEquals("get_weather", call.getName());
    assertTrue(events.stream().noneMatch(Event::getPartial), "only whole events are stored");
    assertEquals(byAgent(seen).get(0).getId(), events.get(1).getId());
    // The cancelled call is not left open: the service closed it with an error response, so the
    // next model request is valid.
    FunctionResponse closed = Events.functionResponses(events.get(2)).get(0);
    assertEquals(call.getId(), closed.getId());
    assertTrue(Values.toMap(closed.getResponse()).containsKey("error"), closed.toString());

    // The session is free again.
    model.reset();
    List<Event> next = collect(client.run("weather", user, session.getId(), "And now?",
        FunctionTool.fromMethods(new WeatherTools(1))));
    assertEquals("Echo: And now?", Events.text(next.get(next.size() - 1)));
  }

  private static List<Event> userMessages(List<Event> events) {
    return events.stream().filter(e -> e.getAuthor().equals("user") && e.hasContent()).toList();
  }

  private static List<String> ids(List<Event> events) {
    return events.stream().map(Event::getId).toList();
  }

  @Test
  void aRunRetriedWithItsRequestIdStoresOneUserMessage() {
    Session session = client.createSession("echo", user);
    String requestId = AgentsvcClient.newRequestId();
    List<Event> first = collect(client.run("echo", user, session.getId(), "once", requestId));
    List<Event> retry = collect(client.run("echo", user, session.getId(), "once", requestId));

    // The retry answered the finished invocation's events again, without calling the model.
    assertEquals(ids(byAgent(first)), ids(byAgent(retry)));
    assertEquals("Echo: once", Events.text(retry.get(retry.size() - 1)));
    assertEquals(1, model.requests().size());
    List<Event> stored = client.getSession("echo", user, session.getId()).getEventsList();
    assertEquals(1, userMessages(stored).size(), stored.toString());
    assertEquals(2, stored.size(), "the user's message and the answer: " + stored);
    assertEquals(requestId, stored.get(0).getRequestId());

    // Another request id is another message.
    collect(client.run("echo", user, session.getId(), "once", AgentsvcClient.newRequestId()));
    assertEquals(2, userMessages(client.getSession("echo", user, session.getId()).getEventsList())
        .size());
  }

  @Test
  void aConnectRunRetriedWithItsRequestIdStoresOneUserMessage() {
    model.script(List.of(
        FakeGemini.functionCalls("get_weather", Map.of("city", "Paris")),
        FakeGemini.text("Sunny in Paris.")));
    Session session = client.createSession("weather", user);
    RunRequest request = RunRequest.newBuilder()
        .setAppName("weather").setUserId(user).setSessionId(session.getId())
        .setNewMessage(Contents.userText("Paris?"))
        .setRequestId(AgentsvcClient.newRequestId())
        .build();
    List<Event> first = collect(client.run(request, FunctionTool.fromMethods(new WeatherTools(1))));
    WeatherTools again = new WeatherTools(1);
    List<Event> retry = collect(client.run(request, FunctionTool.fromMethods(again)));

    assertEquals(ids(byAgent(first)), ids(byAgent(retry)));
    assertEquals(List.of(), again.finished, "the retry calls no tool");
    assertEquals(2, model.requests().size(), "nor the model");
    List<Event> stored = client.getSession("weather", user, session.getId()).getEventsList();
    assertEquals(1, userMessages(stored).size(), stored.toString());
    assertEquals(4, stored.size(), stored.toString());
  }

  @Test
  void aRetryAfterTheClientGaveUpContinuesTheRun() throws Exception {
    Session session = client.createSession("echo", user);
    String requestId = AgentsvcClient.newRequestId();
    model.latency("2s");
    Invocation gaveUp = client.run("echo", user, session.getId(), "patience", requestId);
    awaitModelCall();
    gaveUp.close();
    model.reset();

    // The documented pattern: the same request again, waiting while the first attempt still runs.
    List<Event> retry = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (retry == null) {
      try {
        retry = collect(client.run("echo", user, session.getId(), "patience", requestId));
      } catch (SessionBusyException busy) {
        assertTrue(System.nanoTime() < deadline, "the session stayed busy");
        Thread.sleep(100);
      }
    }
    assertEquals("Echo: patience", Events.text(retry.get(retry.size() - 1)));
    List<Event> stored = client.getSession("echo", user, session.getId()).getEventsList();
    assertEquals(1, userMessages(stored).size(), stored.toString());
    assertEquals("Echo: patience", Events.text(stored.get(stored.size() - 1)));
  }

  @Test
  void pagesOfOneEventYieldEveryEventOnceInOrder() {
    Session session = client.createSession("echo", user);
    collect(client.run("echo", user, session.getId(), "one"));
    client.updateSessionState("echo", user, session.getId(), Map.of("mood", "calm"));
    collect(client.run("echo", user, session.getId(), "two"));
    List<String> all = ids(client.getSession("echo", user, session.getId()).getEventsList());
    assertEquals(5, all.size(), all.toString());

    GetSessionRequest byOne = GetSessionRequest.newBuilder()
        .setAppName("echo").setUserId(user).setSessionId(session.getId()).setPageSize(1).build();
    try (Stream<Event> events = client.sessionEvents(byOne)) {
      assertEquals(all, events.map(Event::getId).toList());
    }

    List<String> paged = new ArrayList<>();
    String token = "";
    int pages = 0;
    do {
      GetSessionResponse page = client.getSessionPage("echo", user, session.getId(), 1, token);
      assertEquals(1, page.getSession().getEventsCount());
      assertEquals("calm", Values.toMap(page.getSession().getState()).get("mood"));
      paged.addAll(ids(page.getSession().getEventsList()));
      token = page.getNextPageToken();
      pages++;
    } while (!token.isEmpty());
    assertEquals(5, pages);
    assertEquals(all, paged);
    try (Stream<Event> events = client.sessionEvents("echo", user, session.getId())) {
      assertEquals(all, events.map(Event::getId).toList());
    }

    InvalidArgumentException bad = assertThrows(InvalidArgumentException.class,
        () -> client.getSessionPage("echo", user, session.getId(), 1, "not-a-token"));
    assertEquals("INVALID_ARGUMENT", bad.code().name());
  }

  /** The parameters of a hand-declared get_weather. */
  record WeatherArgs(@Param("The city name.") String city) {}

  @Test
  void closeWhileTheModelIsSlow() throws Exception {
    Session session = client.createSession("echo", user);
    model.latency("2s");
    Invocation run = client.run("echo", user, session.getId(), "take your time");
    awaitModelCall();
    run.close();
    assertEquals(List.of(), run.stream().toList(), "no event, and no error after close");
    assertTrue(run.isCancelled());

    // Past the model's latency, nothing more was stored: the invocation stopped.
    Thread.sleep(2500);
    List<Event> events = client.getSession("echo", user, session.getId()).getEventsList();
    assertEquals(1, events.size(), events.toString());
    assertEquals("user", events.get(0).getAuthor());

    model.reset();
    List<Event> next = collect(client.run("echo", user, session.getId(), "again"));
    assertEquals("Echo: again", Events.text(next.get(next.size() - 1)));
    assertFalse(next.isEmpty());
  }

  // The guarded app: a client tool get_weather, and the client callbacks guard_input
  // (before_model) and redact_result (after_tool).

  private static final FunctionTool GET_WEATHER = FunctionTool.builder("get_weather")
      .description("Returns the current weather in a city.")
      .parameters(JsonSchemas.of(WeatherArgs.class))
      .handler((args, ctx) -> Map.of("city", args.getString("city"), "weather", "sunny"))
      .build();

  /** Answers for the model when the user asks about something forbidden. */
  private static final Callback GUARD_INPUT = Callback.beforeModel("guard_input", (ctx, request) -> {
    if (Callback.lastUserText(request).contains("forbidden")) {
      ctx.stateDelta().put("guarded", true);
      return "Blocked.";
    }
    return null;
  });

  /** Replaces every tool result, recording what it saw. */
  private static Callback redactResult(List<List<Object>> seen) {
    return Callback.afterTool("redact_result", (ctx, args, toolResponse) -> {
      seen.add(List.of(ctx.kind(), ctx.agentName(), ctx.toolName(), args, toolResponse,
          ctx.functionCallId().startsWith("adk-")));
      return Map.of("forecast", "redacted");
    });
  }

  private static List<String> finalTexts(List<Event> events) {
    return events.stream().filter(Events::isFinalResponse).map(Events::text).toList();
  }

  @Test
  void aCallbackAnswersInsteadOfTheModel() {
    Session session = client.createSession("guarded", user);
    List<List<Object>> seen = Collections.synchronizedList(new ArrayList<>());
    List<Event> events = collect(client.run("guarded", user, session.getId(),
        "Tell me about a forbidden topic.", List.of(GET_WEATHER),
        List.of(GUARD_INPUT, redactResult(seen))));

    assertEquals(List.of("Blocked."), finalTexts(events));
    assertEquals(List.of(), model.requests(), "the model was not called");
    assertEquals(List.of(), seen);
    Session stored = client.getSession("guarded", user, session.getId());
    assertEquals(true, Values.toMap(stored.getState()).get("guarded"));
  }

  @Test
  void anAfterToolCallbackReplacesTheResult() {
    model.script(List.of(
        FakeGemini.functionCalls("get_weather", Map.of("city", "Paris")),
        FakeGemini.text("Redacted, sorry.")));
    Session session = client.createSession("guarded", user);
    List<List<Object>> seen = Collections.synchronizedList(new ArrayList<>());
    List<Event> events = collect(client.run("guarded", user, session.getId(),
        "What's the weather in Paris?", List.of(GET_WEATHER),
        List.of(GUARD_INPUT, redactResult(seen))));

    List<Map<String, Object>> responses = events.stream()
        .flatMap(e -> Events.functionResponses(e).stream())
        .map(r -> Values.toMap(r.getResponse())).toList();
    assertEquals(List.of(Map.of("forecast", "redacted")), responses);
    assertEquals(List.of("Redacted, sorry."), finalTexts(events));
    assertEquals(List.of(List.of(Callback.Kind.AFTER_TOOL, "guarded_agent", "get_weather",
        Map.of("city", "Paris"), Map.of("city", "Paris", "weather", "sunny"), true)), seen);
    // The model saw the redacted result, not the tool's.
    List<Object> requests = model.requests();
    assertEquals(2, requests.size());
    assertTrue(String.valueOf(requests.get(1)).contains("redacted"), String.valueOf(requests.get(1)));
    assertFalse(String.valueOf(requests.get(1)).contains("sunny"), String.valueOf(requests.get(1)));
    assertFalse(Values.toMap(client.getSession("guarded", user, session.getId()).getState())
        .containsKey("guarded"));
  }

  @Test
  void anUndeclaredCallbackIsRefusedBeforeAnythingIsStored() {
    Session session = client.createSession("guarded", user);
    FailedPreconditionException e = assertThrows(FailedPreconditionException.class,
        () -> collect(client.run("guarded", user, session.getId(), "Hi", List.of(GET_WEATHER),
            List.of(redactResult(new ArrayList<>())))));
    assertTrue(e.getMessage().contains("guard_input"), e.getMessage());
    assertEquals(ErrorReasons.CALLBACK_NOT_DECLARED, e.reason());
    assertEquals(0, client.getSession("guarded", user, session.getId()).getEventsCount());
    assertEquals(List.of(), model.requests());
  }

  @Test
  void aFailingCallbackFailsTheRunNamingIt() {
    Session session = client.createSession("guarded", user);
    Callback failing = Callback.beforeModel("guard_input", (ctx, request) -> {
      throw new IllegalStateException("the guard is down");
    });
    AgentsvcException e = assertThrows(AgentsvcException.class,
        () -> collect(client.run("guarded", user, session.getId(), "Hi", List.of(GET_WEATHER),
            List.of(failing, redactResult(new ArrayList<>())))));
    assertEquals(Status.Code.UNKNOWN, e.code());
    assertEquals(ErrorReasons.CALLBACK_FAILED, e.reason());
    assertTrue(e.getMessage().contains("guard_input"), e.getMessage());
    assertTrue(e.getMessage().contains("IllegalStateException: the guard is down"), e.getMessage());
    assertEquals(List.of(), model.requests());
  }

  // Artifacts.

  /** A get_weather that saves a report of each call as report.txt. */
  private static final FunctionTool REPORTING_WEATHER = FunctionTool.builder("get_weather")
      .description("Returns the current weather in a city.")
      .parameters(JsonSchemas.of(WeatherArgs.class))
      .handler((args, ctx) -> {
        ctx.saveArtifact("report.txt", "Weather report: sunny in " + args.getString("city") + ".");
        return Map.of("city", args.getString("city"), "sky", "sunny");
      })
      .build();

  @Test
  void aToolSavesAnArtifactRecordedInTheResponseEvent() {
    model.script(List.of(
        FakeGemini.functionCalls("get_weather", Map.of("city", "Paris")),
        FakeGemini.text("Sunny; the report is saved.")));
    Session session = client.createSession("weather", user);
    List<Event> agent = byAgent(collect(client.run("weather", user, session.getId(), "Paris?",
        List.of(REPORTING_WEATHER))));

    assertEquals(3, agent.size(), agent.toString());
    assertEquals("get_weather", Events.functionResponses(agent.get(1)).get(0).getName());
    assertEquals(Map.of("report.txt", 0L), agent.get(1).getActions().getArtifactDeltaMap());
    assertEquals(Map.of(), agent.get(2).getActions().getArtifactDeltaMap());
    assertEquals(List.of("report.txt"), client.listArtifacts("weather", user, session.getId()));
    Part report = client.loadArtifact("weather", user, session.getId(), "report.txt")
        .orElseThrow();
    assertEquals("Weather report: sunny in Paris.", report.getText());
    // The stored event carries the delta too.
    List<Event> stored = client.getSession("weather", user, session.getId()).getEventsList();
    assertEquals(Map.of("report.txt", 0L), stored.get(2).getActions().getArtifactDeltaMap());

    // A second call saves the next version.
    model.script(List.of(
        FakeGemini.functionCalls("get_weather", Map.of("city", "Oslo")),
        FakeGemini.text("Saved again.")));
    List<Event> again = byAgent(collect(client.run("weather", user, session.getId(), "Oslo?",
        List.of(REPORTING_WEATHER))));
    assertEquals(Map.of("report.txt", 1L), again.get(1).getActions().getArtifactDeltaMap());
    assertEquals(List.of(0, 1),
        client.listArtifactVersions("weather", user, session.getId(), "report.txt"));
    assertEquals("Weather report: sunny in Oslo.", Artifacts.text(
        client.loadArtifact("weather", user, session.getId(), "report.txt").orElseThrow()));
    assertEquals("Weather report: sunny in Paris.", Artifacts.text(
        client.loadArtifact("weather", user, session.getId(), "report.txt", 0).orElseThrow()));
  }

  @Test
  void aCallbackSavesAnArtifactRecordedInTheEventThatFollows() {
    Session session = client.createSession("guarded", user);
    Callback guard = Callback.beforeModel("guard_input", (ctx, request) -> {
      ctx.saveArtifact("user:blocked.txt", Callback.lastUserText(request));
      return "Blocked.";
    });
    List<Event> events = collect(client.run("guarded", user, session.getId(),
        "A forbidden question.", List.of(GET_WEATHER),
        List.of(guard, redactResult(new ArrayList<>()))));

    Event answer = events.get(events.size() - 1);
    assertEquals("Blocked.", Events.text(answer));
    assertEquals(Map.of("user:blocked.txt", 0L), answer.getActions().getArtifactDeltaMap());
    assertEquals(Optional.of("A forbidden question."),
        client.loadArtifact("guarded", user, session.getId(), "user:blocked.txt")
            .map(Artifacts::text));
    assertEquals(List.of(), model.requests());
  }

  @Test
  void aToolSavingUnderAnInvalidNameFailsTheRun() {
    model.script(List.of(FakeGemini.functionCalls("get_weather", Map.of("city", "Rome"))));
    Session session = client.createSession("weather", user);
    FunctionTool escaping = FunctionTool.builder("get_weather")
        .parameters(JsonSchemas.of(WeatherArgs.class))
        .handler((args, ctx) -> {
          ctx.saveArtifact("../escape.txt", "out of the session");
          return Map.of("sky", "sunny");
        })
        .build();
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
        () -> collect(client.run("weather", user, session.getId(), "Rome?", List.of(escaping))));
    assertEquals(ErrorReasons.ARTIFACT_INVALID, e.reason());
    assertTrue(e.getMessage().contains("parent traversal"), e.getMessage());
    assertEquals(List.of(), client.listArtifacts("weather", user, session.getId()));
  }

  @Test
  void artifactsRoundTrip() {
    Session session = client.createSession("echo", user);
    String sid = session.getId();
    Instant before = Instant.now().minus(Duration.ofMinutes(1));
    byte[] csv = "city,sky\nParis,sunny\n".getBytes(StandardCharsets.UTF_8);

    ArtifactVersion v0 = client.saveArtifact("echo", user, sid, "data.csv", csv, "text/csv",
        Map.of("rows", 1, "source", "test"));
    assertEquals(0, v0.getVersion());
    assertTrue(v0.hasVersion(), "version 0 is present");
    assertEquals("text/csv", v0.getMimeType());
    assertEquals(Map.of("rows", 1.0, "source", "test"), Artifacts.customMetadata(v0));
    assertFalse(v0.getCanonicalUri().isEmpty());
    Instant created = Artifacts.createTime(v0);
    assertTrue(created.isAfter(before) && created.isBefore(Instant.now().plusSeconds(60)),
        created.toString());
    ArtifactVersion v1 = client.saveArtifact("echo", user, sid, "data.csv", "now as text");
    assertEquals(1, v1.getVersion());
    assertEquals(Artifacts.TEXT_MIME_TYPE, v1.getMimeType());
    client.saveArtifact("echo", user, sid, "a.bin",
        Artifacts.inlineData(new byte[] {0, 1, 2}, "application/octet-stream"));

    assertEquals(List.of("a.bin", "data.csv"), client.listArtifacts("echo", user, sid));
    Part latest = client.loadArtifact("echo", user, sid, "data.csv").orElseThrow();
    assertEquals("now as text", latest.getText());
    Part first = client.loadArtifact("echo", user, sid, "data.csv", 0).orElseThrow();
    assertArrayEquals(csv, Artifacts.bytes(first));
    assertEquals("text/csv", Artifacts.mimeType(first));
    assertEquals(Optional.empty(), client.loadArtifact("echo", user, sid, "data.csv", 5));
    assertEquals(Optional.empty(), client.loadArtifact("echo", user, sid, "missing.txt"));

    assertEquals(List.of(0, 1), client.listArtifactVersions("echo", user, sid, "data.csv"));
    List<ArtifactVersion> meta = client.listArtifactVersionsMetadata("echo", user, sid, "data.csv");
    assertEquals(List.of(0, 1), meta.stream().map(ArtifactVersion::getVersion).toList());
    assertEquals(List.of("text/csv", "text/plain"),
        meta.stream().map(ArtifactVersion::getMimeType).toList());
    assertEquals(v0, meta.get(0));
    assertEquals(Optional.of(v1), client.getArtifactVersion("echo", user, sid, "data.csv", 1));
    assertEquals(Optional.empty(), client.getArtifactVersion("echo", user, sid, "data.csv", 2));
    assertEquals(Optional.empty(), client.getArtifactVersion("echo", user, sid, "missing", 0));

    InvalidArgumentException bad = assertThrows(InvalidArgumentException.class,
        () -> client.saveArtifact("echo", user, sid, "../x", "escape"));
    assertEquals(ErrorReasons.ARTIFACT_INVALID, bad.reason());
    InvalidArgumentException empty = assertThrows(InvalidArgumentException.class,
        () -> client.saveArtifact("echo", user, sid, "x", Part.getDefaultInstance()));
    assertEquals("Artifact must have either inline_data or text.", empty.getMessage());
    NotFoundException noApp = assertThrows(NotFoundException.class,
        () -> client.loadArtifact("nope", user, sid, "data.csv"));
    assertEquals(ErrorReasons.APP_NOT_FOUND, noApp.reason());

    client.deleteArtifact("echo", user, sid, "data.csv");
    client.deleteArtifact("echo", user, sid, "data.csv");
    assertEquals(List.of("a.bin"), client.listArtifacts("echo", user, sid));
    assertEquals(Optional.empty(), client.loadArtifact("echo", user, sid, "data.csv"));
    assertEquals(List.of(), client.listArtifactVersions("echo", user, sid, "data.csv"));
  }

  @Test
  void aUserArtifactIsSeenFromTheUsersOtherSessions() {
    Session a = client.createSession("echo", user);
    Session b = client.createSession("echo", user);
    client.saveArtifact("echo", user, a.getId(), "user:profile.json",
        "{\"units\":\"metric\"}".getBytes(StandardCharsets.UTF_8), "application/json");
    client.saveArtifact("echo", user, a.getId(), "draft.txt", "only in a");

    assertEquals(List.of("draft.txt", "user:profile.json"),
        client.listArtifacts("echo", user, a.getId()));
    assertEquals(List.of("user:profile.json"), client.listArtifacts("echo", user, b.getId()));
    assertEquals("{\"units\":\"metric\"}", Artifacts.text(
        client.loadArtifact("echo", user, b.getId(), "user:profile.json").orElseThrow()));
    assertEquals(Optional.empty(), client.loadArtifact("echo", user, b.getId(), "draft.txt"));

    // A new version saved from b is the one a loads.
    ArtifactVersion v1 = client.saveArtifact("echo", user, b.getId(), "user:profile.json",
        "{\"units\":\"imperial\"}".getBytes(StandardCharsets.UTF_8), "application/json");
    assertEquals(1, v1.getVersion());
    assertEquals("{\"units\":\"imperial\"}", Artifacts.text(
        client.loadArtifact("echo", user, a.getId(), "user:profile.json").orElseThrow()));

    // Another user sees none of them.
    String other = "user-" + UUID.randomUUID();
    Session c = client.createSession("echo", other);
    assertEquals(List.of(), client.listArtifacts("echo", other, c.getId()));
    assertEquals(Optional.empty(),
        client.loadArtifact("echo", other, c.getId(), "user:profile.json"));
  }
}
