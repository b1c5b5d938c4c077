package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.agentsvc.v1.CodeExecutionCall;
import dev.agentsvc.v1.CodeResult;
import dev.agentsvc.v1.ConnectResponse;
import dev.agentsvc.v1.File;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.StartRun;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Client code execution against an in-process fake of the service's Connect protocol. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class InProcessCodeExecutionTest {
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

  static ConnectResponse codeCall(
      String id, String code, Consumer<CodeExecutionCall.Builder> fill) {
    CodeExecutionCall.Builder c = CodeExecutionCall.newBuilder().setCallId(id)
        .setInvocationId("e-1").setAgentName("coder").setLanguage("python").setCode(code);
    fill.accept(c);
    return ConnectResponse.newBuilder().setCodeExecution(c).build();
  }

  static ConnectResponse codeCall(String id, String code) {
    return codeCall(id, code, c -> { });
  }

  private static final RunRequest REQUEST = RunRequest.newBuilder().setAppName("coder")
      .setUserId("u").setSessionId("s").setNewMessage(Contents.userText("Compute.")).build();

  /**
   * Sends the calls, collects one result per call by call id, and returns them with the start
   * message; a null executor runs without one.
   */
  private Map<String, CodeResult> answer(
      CodeExecutor executor, List<StartRun> starts, ConnectResponse... calls) throws Exception {
    Map<String, CodeResult> results = new ConcurrentHashMap<>();
    CompletableFuture<Void> server = InProcessRunTest.onConnect(fake, s -> {
      starts.add(s.next().getStart());
      for (ConnectResponse c : calls) {
        s.send(c);
      }
      for (int i = 0; i < calls.length; i++) {
        CodeResult r = s.next().getCodeResult();
        results.put(r.getCallId(), r);
      }
      s.send(InProcessRunTest.done());
      s.out.onCompleted();
    });
    try (Invocation run = executor == null
        ? client.run(REQUEST, List.of(), List.of())
        : client.run(REQUEST, List.of(), List.of(), executor)) {
      assertEquals(List.of(), run.stream().toList());
      assertEquals("e-1", run.completion().get(5, TimeUnit.SECONDS));
    }
    server.get(5, TimeUnit.SECONDS);
    return results;
  }

  @Test
  void declaresTheExecutorAndAnswersEachExecution() throws Exception {
    List<CodeExecution> seen = Collections.synchronizedList(new ArrayList<>());
    CodeExecutor executor = execution -> {
      seen.add(execution);
      return CodeExecutionOutcome.output("42\n", List.of(
          CodeFile.text("out.txt", "hi"),
          new CodeFile("plot.png", "image/png", new byte[] {1, 2})));
    };
    List<StartRun> starts = new ArrayList<>();
    Map<String, CodeResult> results = answer(executor, starts,
        codeCall("c-1", "print(6 * 7)", c -> c.setExecutionId("s-1").addInputFiles(
            File.newBuilder().setName("data.csv").setMimeType("text/csv")
                .setContent(ByteString.copyFromUtf8("a,b\n1,2\n")))));

    assertTrue(starts.get(0).getCodeExecutor());
    CodeExecution e = seen.get(0);
    assertEquals("c-1", e.callId());
    assertEquals("e-1", e.invocationId());
    assertEquals("coder", e.agentName());
    assertEquals("python", e.language());
    assertEquals("print(6 * 7)", e.code());
    assertEquals("s-1", e.executionId());
    assertEquals(List.of(new CodeFile("data.csv", "text/csv",
        "a,b\n1,2\n".getBytes(StandardCharsets.UTF_8))), e.inputFiles());

    CodeResult r = results.get("c-1");
    assertEquals("42\n", r.getStdout());
    assertEquals("", r.getStderr());
    assertEquals(List.of("out.txt", "plot.png"),
        r.getOutputFilesList().stream().map(File::getName).toList());
    assertEquals("text/plain", r.getOutputFiles(0).getMimeType());
    assertEquals("hi", r.getOutputFiles(0).getContent().toStringUtf8());
    assertEquals(ByteString.copyFrom(new byte[] {1, 2}), r.getOutputFiles(1).getContent());
  }

  @Test
  void failuresAreAnsweredAsTheCodesStderr() throws Exception {
    CodeExecutor executor = execution -> switch (execution.code()) {
      case "reported" -> new CodeExecutionOutcome("partial", "NameError: x", null);
      case "thrown" -> throw new IllegalStateException("no interpreter");
      case "bare" -> throw new UnsupportedOperationException();
      case "null" -> null;
      case "twice" -> CodeExecutionOutcome.output("", List.of(
          CodeFile.text("a", "1"), CodeFile.text("a", "2")));
      default -> CodeExecutionOutcome.output("", Collections.nCopies(
          CodeExecution.MAX_OUTPUT_FILES + 1, CodeFile.text("f", "x")));
    };
    Map<String, CodeResult> results = answer(executor, new ArrayList<>(),
        codeCall("1", "reported"), codeCall("2", "thrown"), codeCall("3", "bare"),
        codeCall("4", "null"), codeCall("5", "twice"), codeCall("6", "many"));

    assertEquals("partial", results.get("1").getStdout());
    assertEquals("NameError: x", results.get("1").getStderr());
    assertEquals("IllegalStateException: no interpreter", results.get("2").getStderr());
    assertEquals("UnsupportedOperationException", results.get("3").getStderr());
    assertEquals("the code executor returned no outcome", results.get("4").getStderr());
    assertEquals("output file a is returned twice", results.get("5").getStderr());
    assertEquals(0, results.get("5").getOutputFilesCount());
    assertEquals("the code executor returned 101 output files, more than 100",
        results.get("6").getStderr());
  }

  @Test
  void aRunWithoutAnExecutorDeclaresNoneAndAnswersWithStderr() throws Exception {
    List<StartRun> starts = new ArrayList<>();
    Map<String, CodeResult> results = answer(null, starts, codeCall("c-1", "print(1)"));
    assertFalse(starts.get(0).getCodeExecutor());
    assertEquals(CodeExecution.NO_CODE_EXECUTOR, results.get("c-1").getStderr());
  }

  @Test
  void executionsRunConcurrently() throws Exception {
    CountDownLatch together = new CountDownLatch(2);
    CodeExecutor executor = execution -> {
      together.countDown();
      if (!together.await(5, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the executions did not run at the same time");
      }
      return CodeExecutionOutcome.output(execution.code());
    };
    Map<String, CodeResult> results = answer(executor, new ArrayList<>(),
        codeCall("1", "a"), codeCall("2", "b"));
    assertEquals("a", results.get("1").getStdout());
    assertEquals("b", results.get("2").getStdout());
    assertEquals("", results.get("1").getStderr());
  }

  @Test
  void codeFilesAreCheckedAndCopied() {
    byte[] data = {1};
    CodeFile f = new CodeFile("a.bin", "application/octet-stream", data);
    data[0] = 2;
    assertEquals(1, f.content()[0]);
    f.content()[0] = 3;
    assertEquals(1, f.content()[0]);
    assertThrows(IllegalArgumentException.class, () -> CodeFile.text(" ", "x"));
    assertThrows(IllegalArgumentException.class, () -> new CodeFile("a", "", new byte[0]));
    assertThrows(NullPointerException.class,
        () -> client.run(REQUEST, List.of(), List.of(), (CodeExecutor) null));
    assertEquals(new CodeExecutionOutcome("", "", List.of()),
        new CodeExecutionOutcome(null, null, null));
    assertTrue(CodeExecutionOutcome.failure("boom").failed());
  }
}
