package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentsvc.v1.CallbackCall;
import dev.agentsvc.v1.CallbackDeclaration;
import dev.agentsvc.v1.CallbackKind;
import dev.agentsvc.v1.CallbackResult;
import dev.agentsvc.v1.ConnectResponse;
import dev.agentsvc.v1.Content;
import dev.agentsvc.v1.FunctionCall;
import dev.agentsvc.v1.GenerateContentConfig;
import dev.agentsvc.v1.LlmRequest;
import dev.agentsvc.v1.LlmResponse;
import dev.agentsvc.v1.Part;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.StartRun;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Callbacks against an in-process fake of the service's Connect protocol. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class InProcessCallbackTest {
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

  static ConnectResponse callbackCall(
      String id, String name, CallbackKind kind, Consumer<CallbackCall.Builder> fill) {
    CallbackCall.Builder c = CallbackCall.newBuilder()
        .setCallId(id).setName(name).setKind(kind).setInvocationId("e-1").setAgentName("agent");
    fill.accept(c);
    return ConnectResponse.newBuilder().setCallbackCall(c).build();
  }

  static ConnectResponse callbackCall(String id, String name, CallbackKind kind) {
    return callbackCall(id, name, kind, c -> { });
  }

  static FunctionCall weatherCall() {
    return FunctionCall.newBuilder().setId("adk-1").setName("get_weather")
        .setArgs(Values.toStruct(Map.of("city", "Paris"))).build();
  }

  static LlmRequest request(String... userTexts) {
    LlmRequest.Builder r = LlmRequest.newBuilder().setModel("gemini-2.5-flash");
    for (String t : userTexts) {
      r.addContents(Contents.userText(t));
    }
    return r.build();
  }

  static Content modelText(String text) {
    return Content.newBuilder().setRole("model").addParts(Part.newBuilder().setText(text)).build();
  }

  /**
   * Runs callbacks against a server that sends the calls, then collects one result per call by
   * call id; returns the results and the start message.
   */
  private Map<String, CallbackResult> answer(
      List<Callback> callbacks, List<StartRun> starts, ConnectResponse... calls) throws Exception {
    Map<String, CallbackResult> results = new ConcurrentHashMap<>();
    CompletableFuture<Void> server = InProcessRunTest.onConnect(fake, s -> {
      starts.add(s.next().getStart());
      for (ConnectResponse c : calls) {
        s.send(c);
      }
      for (int i = 0; i < calls.length; i++) {
        CallbackResult r = s.next().getCallbackResult();
        results.put(r.getCallId(), r);
      }
      s.send(InProcessRunTest.done());
      s.out.onCompleted();
    });
    RunRequest req = RunRequest.newBuilder().setAppName("guarded").setUserId("u")
        .setSessionId("s").setNewMessage(Contents.userText("hi")).build();
    try (Invocation run = client.run(req, List.of(), callbacks)) {
      assertEquals(List.of(), run.stream().toList());
    }
    server.get(5, TimeUnit.SECONDS);
    return results;
  }

  private Map<String, CallbackResult> answer(List<Callback> callbacks, ConnectResponse... calls)
      throws Exception {
    return answer(callbacks, new ArrayList<>(), calls);
  }

  @Test
  void modelKindsSeeTheirArgumentsAndAnswerWithText() throws Exception {
    List<String> errors = Collections.synchronizedList(new ArrayList<>());
    Callback guard = Callback.beforeModel("guard_input", (ctx, request) -> {
      assertEquals(Callback.Kind.BEFORE_MODEL, ctx.kind());
      assertEquals("e-1", ctx.invocationId());
      assertEquals("agent", ctx.agentName());
      assertEquals("", ctx.toolName());
      if (Callback.lastUserText(request).contains("forbidden")) {
        ctx.stateDelta().put("guarded", true);
        ctx.putState("user:strikes", 1);
        return "Blocked.";
      }
      return null;
    });
    Callback after = Callback.afterModel("tidy", (ctx, response) ->
        response.getContent().getParts(0).getText().equals("raw")
            ? LlmResponse.newBuilder().setContent(modelText("tidied")).build()
            : Optional.empty());
    Callback recover = Callback.onModelError("recover", (ctx, request, error) -> {
      errors.add(error + " for " + Callback.lastUserText(request));
      return "Sorry, try again.";
    });

    List<StartRun> starts = new ArrayList<>();
    Map<String, CallbackResult> results = answer(List.of(guard, after, recover), starts,
        callbackCall("1", "guard_input", CallbackKind.CALLBACK_KIND_BEFORE_MODEL,
            c -> c.setLlmRequest(request("hello", "a forbidden topic"))
                .setState(Values.toStruct(Map.of("k", "v")))),
        callbackCall("2", "guard_input", CallbackKind.CALLBACK_KIND_BEFORE_MODEL,
            c -> c.setLlmRequest(request("a forbidden topic", "hello"))),
        callbackCall("3", "tidy", CallbackKind.CALLBACK_KIND_AFTER_MODEL,
            c -> c.setLlmResponse(LlmResponse.newBuilder().setContent(modelText("raw")))),
        callbackCall("4", "tidy", CallbackKind.CALLBACK_KIND_AFTER_MODEL,
            c -> c.setLlmResponse(LlmResponse.newBuilder().setContent(modelText("fine")))),
        callbackCall("5", "recover", CallbackKind.CALLBACK_KIND_ON_MODEL_ERROR,
            c -> c.setLlmRequest(request("why?")).setError("503 UNAVAILABLE")));

    assertEquals(List.of("guard_input", "tidy", "recover"), starts.get(0).getCallbacksList()
        .stream().map(CallbackDeclaration::getName).toList());
    CallbackResult blocked = results.get("1");
    assertEquals(CallbackResult.OverrideCase.LLM_RESPONSE, blocked.getOverrideCase());
    assertEquals(modelText("Blocked."), blocked.getLlmResponse().getContent());
    assertEquals(Values.toStruct(Map.of("guarded", true, "user:strikes", 1)),
        blocked.getStateDelta());
    assertEquals("", blocked.getError());

    CallbackResult passed = results.get("2");
    assertEquals(CallbackResult.OverrideCase.OVERRIDE_NOT_SET, passed.getOverrideCase(),
        "null is no override; only the last user text counts");
    assertFalse(passed.hasStateDelta());
    assertEquals("", passed.getError());

    assertEquals(modelText("tidied"), results.get("3").getLlmResponse().getContent());
    assertEquals(CallbackResult.OverrideCase.OVERRIDE_NOT_SET, results.get("4").getOverrideCase(),
        "an empty Optional is no override");
    assertEquals(modelText("Sorry, try again."), results.get("5").getLlmResponse().getContent());
    assertEquals(List.of("503 UNAVAILABLE for why?"), errors);
  }

  @Test
  void beforeModelMayReturnTheRequestToSend() throws Exception {
    Callback edit = Callback.beforeModel("edit", (ctx, request) -> request.toBuilder()
        .setConfig(GenerateContentConfig.newBuilder().setSystemInstruction("Be terse."))
        .build());
    Map<String, CallbackResult> results = answer(List.of(edit),
        callbackCall("1", "edit", CallbackKind.CALLBACK_KIND_BEFORE_MODEL,
            c -> c.setLlmRequest(request("hi"))));
    LlmRequest sent = results.get("1").getLlmRequest();
    assertEquals("Be terse.", sent.getConfig().getSystemInstruction());
    assertEquals("gemini-2.5-flash", sent.getModel());
  }

  @Test
  void agentKindsAnswerWithTextOrContent() throws Exception {
    Callback greet = Callback.builder("greet")
        .beforeAgent(ctx -> ctx.state().get("skip") == Boolean.TRUE ? "Skipped." : null)
        .afterAgent(ctx -> modelText("Bye."))
        .build();
    assertEquals(java.util.Set.of(Callback.Kind.BEFORE_AGENT, Callback.Kind.AFTER_AGENT),
        greet.kinds());
    Map<String, CallbackResult> results = answer(List.of(greet),
        callbackCall("1", "greet", CallbackKind.CALLBACK_KIND_BEFORE_AGENT,
            c -> c.setState(Values.toStruct(Map.of("skip", true)))),
        callbackCall("2", "greet", CallbackKind.CALLBACK_KIND_BEFORE_AGENT),
        callbackCall("3", "greet", CallbackKind.CALLBACK_KIND_AFTER_AGENT));
    assertEquals(modelText("Skipped."), results.get("1").getContent());
    assertEquals(CallbackResult.OverrideCase.OVERRIDE_NOT_SET, results.get("2").getOverrideCase());
    assertEquals(modelText("Bye."), results.get("3").getContent());
  }

  record Verdict(boolean ok, String by) {}

  @Test
  void toolKindsSeeArgsResponseAndError() throws Exception {
    List<List<Object>> seen = Collections.synchronizedList(new ArrayList<>());
    Callback audit = Callback.builder("audit")
        .beforeTool((ctx, args) -> {
          seen.add(List.of(ctx.kind().toString(), ctx.toolName(), ctx.functionCallId(), args,
              ctx.state()));
          ctx.putState("n", 1);
          return Map.of("ok", true);
        })
        .afterTool((ctx, args, response) -> {
          seen.add(List.of(ctx.kind().toString(), ctx.toolName(), args, response));
          return new Verdict(true, "after");
        })
        .onToolError((ctx, args, error) -> {
          seen.add(List.of(ctx.kind().toString(), args, error));
          return CompletableFuture.supplyAsync(() -> Values.toStruct(Map.of("ok", false)));
        })
        .build();
    Map<String, CallbackResult> results = answer(List.of(audit),
        callbackCall("1", "audit", CallbackKind.CALLBACK_KIND_BEFORE_TOOL,
            c -> c.setToolCall(weatherCall()).setState(Values.toStruct(Map.of("k", 1)))),
        callbackCall("2", "audit", CallbackKind.CALLBACK_KIND_AFTER_TOOL,
            c -> c.setToolCall(weatherCall())
                .setToolResponse(Values.toStruct(Map.of("sky", "blue")))),
        callbackCall("3", "audit", CallbackKind.CALLBACK_KIND_ON_TOOL_ERROR,
            c -> c.setToolCall(weatherCall()).setError("boom")));

    assertTrue(seen.contains(List.of("before_tool", "get_weather", "adk-1",
        Map.of("city", "Paris"), Map.of("k", 1.0))), seen.toString());
    assertTrue(seen.contains(List.of("after_tool", "get_weather",
        Map.of("city", "Paris"), Map.of("sky", "blue"))), seen.toString());
    assertTrue(seen.contains(List.of("on_tool_error", Map.of("city", "Paris"), "boom")),
        seen.toString());
    assertEquals(Values.toStruct(Map.of("ok", true)), results.get("1").getToolResponse());
    assertEquals(Values.toStruct(Map.of("n", 1)), results.get("1").getStateDelta());
    assertEquals(Values.toStruct(Map.of("ok", true, "by", "after")),
        results.get("2").getToolResponse());
    assertEquals(Values.toStruct(Map.of("ok", false)), results.get("3").getToolResponse(),
        "a CompletionStage is awaited");
  }

  @Test
  void failuresWrongTypesAndUnknownNamesBecomeErrors() throws Exception {
    Callback boom = Callback.beforeAgent("boom", ctx -> {
      throw new IllegalStateException("no city");
    });
    Callback quiet = Callback.afterAgent("quiet", ctx -> {
      throw new UnsupportedOperationException();
    });
    Callback wrong = Callback.beforeTool("wrong", (ctx, args) -> "text");
    Callback late = Callback.afterModel("late",
        (ctx, response) -> CompletableFuture.failedFuture(new IllegalArgumentException("later")));
    Map<String, CallbackResult> results = answer(List.of(boom, quiet, wrong, late),
        callbackCall("1", "boom", CallbackKind.CALLBACK_KIND_BEFORE_AGENT),
        callbackCall("2", "quiet", CallbackKind.CALLBACK_KIND_AFTER_AGENT),
        callbackCall("3", "wrong", CallbackKind.CALLBACK_KIND_BEFORE_TOOL,
            c -> c.setToolCall(weatherCall())),
        callbackCall("4", "late", CallbackKind.CALLBACK_KIND_AFTER_MODEL),
        callbackCall("5", "nope", CallbackKind.CALLBACK_KIND_BEFORE_MODEL),
        callbackCall("6", "boom", CallbackKind.CALLBACK_KIND_AFTER_AGENT),
        callbackCall("7", "boom", CallbackKind.CALLBACK_KIND_UNSPECIFIED));

    assertEquals("IllegalStateException: no city", results.get("1").getError());
    assertEquals("UnsupportedOperationException", results.get("2").getError());
    assertEquals("IllegalArgumentException: the before_tool callback wrong returned a String, "
        + "which a before_tool callback cannot return", results.get("3").getError());
    assertEquals(CallbackResult.OverrideCase.OVERRIDE_NOT_SET, results.get("3").getOverrideCase());
    assertEquals("IllegalArgumentException: later", results.get("4").getError());
    assertEquals("Callback 'nope' is not declared by this client.", results.get("5").getError());
    assertEquals("the callback boom has no after_agent handler", results.get("6").getError());
    assertEquals("callback call of an unknown kind 0", results.get("7").getError());
  }

  @Test
  void longErrorsAreClippedToWhatTheServiceAccepts() throws Exception {
    Callback verbose = Callback.beforeAgent("verbose", ctx -> {
      throw new IllegalStateException("é".repeat(5000));
    });
    CallbackResult r = answer(List.of(verbose),
        callbackCall("1", "verbose", CallbackKind.CALLBACK_KIND_BEFORE_AGENT)).get("1");
    int bytes = r.getError().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    assertTrue(bytes <= 4096 && bytes > 4000, "clipped to " + bytes + " bytes");
    assertTrue(r.getError().startsWith("IllegalStateException: éé"));
    assertTrue(r.getError().endsWith("é..."));
  }

  @Test
  void callsInFlightTogetherAreAnsweredIndependently() throws Exception {
    CountDownLatch both = new CountDownLatch(2);
    CountDownLatch firstAnswered = new CountDownLatch(1);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    // Both calls run at once (each waits for the other to start); the second answers first.
    Callback after = Callback.afterTool("redact", (ctx, args, response) -> {
      both.countDown();
      assertTrue(both.await(5, TimeUnit.SECONDS), "callbacks did not run concurrently");
      if (ctx.functionCallId().equals("adk-a")) {
        assertTrue(firstAnswered.await(5, TimeUnit.SECONDS));
      }
      order.add(ctx.functionCallId());
      return Map.of("redacted", ctx.functionCallId());
    });
    List<String> arrival = Collections.synchronizedList(new ArrayList<>());
    Map<String, CallbackResult> results = new ConcurrentHashMap<>();
    CompletableFuture<Void> server = InProcessRunTest.onConnect(fake, s -> {
      s.next();
      for (String id : List.of("a", "b")) {
        s.send(callbackCall(id, "redact", CallbackKind.CALLBACK_KIND_AFTER_TOOL,
            c -> c.setToolCall(FunctionCall.newBuilder().setId("adk-" + id).setName("get_weather"))));
      }
      for (int i = 0; i < 2; i++) {
        CallbackResult r = s.next().getCallbackResult();
        results.put(r.getCallId(), r);
        arrival.add(r.getCallId());
        firstAnswered.countDown();
      }
      s.send(InProcessRunTest.done());
      s.out.onCompleted();
    });
    try (Invocation run = client.run("guarded", "u", "s", "go", List.of(), List.of(after))) {
      assertEquals(List.of(), run.stream().toList());
    }
    server.get(5, TimeUnit.SECONDS);
    assertEquals(List.of("adk-b", "adk-a"), order);
    assertEquals(List.of("b", "a"), arrival);
    assertEquals(Values.toStruct(Map.of("redacted", "adk-a")), results.get("a").getToolResponse());
  }

  @Test
  void namesAndHandlersAreChecked() {
    assertThrows(IllegalArgumentException.class,
        () -> Callback.beforeAgent("guards.guard", ctx -> null));
    assertThrows(IllegalArgumentException.class, () -> Callback.beforeAgent("1st", ctx -> null));
    assertThrows(IllegalArgumentException.class, () -> Callback.beforeAgent("", ctx -> null));
    assertEquals("_guard2", Callback.beforeAgent("_guard2", ctx -> null).name());
    assertThrows(IllegalStateException.class, () -> Callback.builder("empty").build());
    assertThrows(IllegalStateException.class,
        () -> Callback.builder("twice").beforeAgent(ctx -> null).beforeAgent(ctx -> null));
    Callback cb = Callback.afterAgent("cb", ctx -> null);
    assertEquals("cb", cb.declaration().getName());
    assertThrows(IllegalArgumentException.class,
        () -> client.run("app", "u", "s", "go", List.of(), List.of(cb, cb)));
    assertEquals("after_agent", Callback.Kind.AFTER_AGENT.toString());
    assertEquals(CallbackKind.CALLBACK_KIND_ON_TOOL_ERROR, Callback.Kind.ON_TOOL_ERROR.proto());
  }

  @Test
  void lastUserTextSkipsModelTurnsAndUserTurnsWithoutText() {
    Content functionResponse = Contents.functionResponse("adk-1", "get_weather", Map.of());
    LlmRequest r = LlmRequest.newBuilder()
        .addContents(Content.newBuilder().setRole("user")
            .addParts(Part.newBuilder().setText("Weather "))
            .addParts(Part.newBuilder().setText("in Paris?")))
        .addContents(modelText("Calling the tool."))
        .addContents(functionResponse)
        .build();
    assertEquals("Weather in Paris?", Callback.lastUserText(r));
    assertEquals("", Callback.lastUserText(LlmRequest.getDefaultInstance()));
  }
}
