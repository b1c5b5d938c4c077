package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.agentsvc.v1.CodeExecutionResult;
import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.Part;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.Session;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Client code execution against a live agentsvc serving the test app {@code coder} (a root
 * LlmAgent whose code_executor is ClientCodeExecutor with error_retry_attempts: 2) with a scripted
 * Gemini server.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveCodeExecutionTest {
  private static AgentsvcClient client;
  private static FakeGemini model;

  private String user;
  private String sessionId;

  @BeforeAll
  static void connect() {
    String addr = System.getenv("AGENTSVC_ADDR");
    String fake = System.getenv("FAKEGEMINI_URL");
    if (addr == null || fake == null) {
      if (System.getenv("CI") != null) {
        fail("AGENTSVC_ADDR and FAKEGEMINI_URL are not set: "
            + "run the tests under scripts/with-stack.sh");
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

  /** A model answer that writes a Python code block. */
  private static Map<String, Object> writesCode(String code) {
    return FakeGemini.text("```python\n" + code + "\n```");
  }

  private List<Event> run(String text, CodeExecutor executor) {
    Session session = client.createSession("coder", user);
    sessionId = session.getId();
    RunRequest req = RunRequest.newBuilder().setAppName("coder").setUserId(user)
        .setSessionId(sessionId).setNewMessage(Contents.userText(text)).build();
    try (Invocation run = client.run(req, List.of(), List.of(), executor)) {
      return run.stream().toList();
    }
  }

  private static List<CodeExecutionResult> results(List<Event> events) {
    return events.stream().flatMap(e -> e.getContent().getPartsList().stream())
        .filter(Part::hasCodeExecutionResult).map(Part::getCodeExecutionResult).toList();
  }

  /** The text of the last event: the model's answer once the code ran. */
  private static String answer(List<Event> events) {
    Event last = events.get(events.size() - 1);
    assertTrue(Events.isFinalResponse(last), last.toString());
    return Events.text(last);
  }

  @Test
  void theExecutorsStdoutIsTheResultTheModelReads() {
    model.script(List.of(writesCode("print(6 * 7)"), FakeGemini.text("The answer is 42.")));
    List<CodeExecution> seen = Collections.synchronizedList(new ArrayList<>());
    List<Event> events = run("What is 6 times 7?", execution -> {
      seen.add(execution);
      return CodeExecutionOutcome.output("42\n");
    });

    assertEquals(1, seen.size());
    assertEquals("python", seen.get(0).language());
    assertEquals("print(6 * 7)", seen.get(0).code());
    assertEquals("coder", seen.get(0).agentName());
    assertFalse(seen.get(0).invocationId().isEmpty());
    List<String> code = events.stream().flatMap(e -> e.getContent().getPartsList().stream())
        .filter(Part::hasExecutableCode).map(p -> p.getExecutableCode().getCode()).toList();
    assertEquals(List.of("print(6 * 7)"), code);
    List<CodeExecutionResult> results = results(events);
    assertEquals(1, results.size(), events.toString());
    assertEquals("OUTCOME_OK", results.get(0).getOutcome());
    assertEquals("Code execution result:\n42\n\n", results.get(0).getOutput());
    assertEquals("The answer is 42.", answer(events));
    List<Object> requests = model.requests();
    assertEquals(2, requests.size());
    assertTrue(String.valueOf(requests.get(1)).contains("Code execution result:"),
        String.valueOf(requests.get(1)));
  }

  @Test
  void anExecutorThatThrowsFailsTheCodeAndTheModelTriesAgain() {
    model.script(List.of(writesCode("print(x)"), writesCode("print(1)"),
        FakeGemini.text("Fixed it.")));
    AtomicInteger calls = new AtomicInteger();
    List<Event> events = run("Print x.", execution -> {
      if (calls.incrementAndGet() == 1) {
        throw new IllegalStateException("NameError: name 'x' is not defined");
      }
      return CodeExecutionOutcome.output("1\n");
    });

    assertEquals(2, calls.get());
    List<CodeExecutionResult> results = results(events);
    assertEquals(List.of("OUTCOME_FAILED", "OUTCOME_OK"),
        results.stream().map(CodeExecutionResult::getOutcome).toList());
    assertEquals("IllegalStateException: NameError: name 'x' is not defined",
        results.get(0).getOutput());
    assertEquals("Fixed it.", answer(events));
  }

  @Test
  void outputFilesAreSavedAsArtifactsAndNamedInTheResult() {
    model.script(List.of(writesCode("open('report.txt', 'w').write('rows: 2')"),
        FakeGemini.text("Saved.")));
    List<Event> events = run("Write a report.", execution ->
        CodeExecutionOutcome.output("done\n", List.of(CodeFile.text("report.txt", "rows: 2"))));

    List<Event> withResult = events.stream().filter(e -> e.getContent().getPartsList().stream()
        .anyMatch(Part::hasCodeExecutionResult)).toList();
    assertEquals(1, withResult.size(), events.toString());
    assertEquals("Code execution result:\ndone\n\n\n\nSaved artifacts:\n`report.txt`",
        withResult.get(0).getContent().getParts(0).getCodeExecutionResult().getOutput());
    assertEquals(Map.of("report.txt", 0L), withResult.get(0).getActions().getArtifactDeltaMap());
    Part part = client.loadArtifact("coder", user, sessionId, "report.txt").orElseThrow();
    assertEquals("rows: 2", new String(Artifacts.bytes(part), StandardCharsets.UTF_8));
  }
}
