package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.agentsvc.v1.CodeExecutionCall;
import dev.agentsvc.v1.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** SubprocessCodeExecutor, with the POSIX shell as the interpreter so that no Python is needed. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class SubprocessCodeExecutorTest {
  private static SubprocessCodeExecutor.Builder shell() {
    return SubprocessCodeExecutor.builder().command(List.of("sh", "-s")).languages(Set.of("sh"));
  }

  private static CodeExecution execution(String language, String code, File... inputs) {
    return CodeExecution.of(CodeExecutionCall.newBuilder().setCallId("c-1").setLanguage(language)
        .setCode(code).addAllInputFiles(List.of(inputs)).build());
  }

  private static CodeExecution sh(String code, File... inputs) {
    return execution("sh", code, inputs);
  }

  @Test
  void runsInADirectoryWithTheInputsAndReturnsStdoutAndNewFiles() throws Exception {
    File data = File.newBuilder().setName("data.csv").setMimeType("text/csv")
        .setContent(ByteString.copyFromUtf8("a,b\n1,2\n")).build();
    CodeExecutionOutcome out = shell().build().execute(sh(
        "wc -l < data.csv | tr -d ' '; printf '{\"rows\":2}' > count.json", data));
    assertEquals("2\n", out.stdout());
    assertEquals("", out.stderr());
    assertEquals(List.of(new CodeFile("count.json", "application/json",
        "{\"rows\":2}".getBytes(StandardCharsets.UTF_8))), out.outputFiles());
  }

  @Test
  void aFailingProgramGivesItsStderrOrItsExitCode() throws Exception {
    CodeExecutionOutcome failed =
        shell().build().execute(sh("echo before; echo bad input >&2; exit 1"));
    assertEquals("before\n", failed.stdout());
    assertEquals("bad input\n", failed.stderr());
    assertEquals("The code exited with code 3.", shell().build().execute(sh("exit 3")).stderr());
  }

  @Test
  void aProgramPastItsTimeoutIsKilledWithAdksMessage() throws Exception {
    CodeExecutionOutcome out =
        shell().timeout(Duration.ofMillis(200)).build().execute(sh("sleep 10"));
    assertEquals("Code execution timed out after 0.2 seconds.", out.stderr());
  }

  @Test
  void outputIsCappedAndUnsafeInputsAreRefused() throws Exception {
    CodeExecutionOutcome capped = shell().maxOutputBytes(10).build()
        .execute(sh("i=0; while [ $i -lt 100 ]; do printf xxxxxxxxxx; i=$((i+1)); done"));
    assertEquals("x".repeat(10), capped.stdout());
    SubprocessCodeExecutor executor = shell().build();
    IllegalArgumentException language = assertThrows(IllegalArgumentException.class,
        () -> executor.execute(execution("python", "1")));
    assertEquals("Language 'python' is not supported by this code executor.",
        language.getMessage());
    File evil = File.newBuilder().setName("../evil").setMimeType("text/plain").build();
    assertThrows(IllegalArgumentException.class, () -> executor.execute(sh("true", evil)));
    IOException big = assertThrows(IOException.class, () -> shell().maxOutputFileBytes(4).build()
        .execute(sh("printf 12345 > big.bin")));
    assertTrue(big.getMessage().contains("exceed 4 bytes"), big.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> SubprocessCodeExecutor.builder().command(List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> SubprocessCodeExecutor.builder().timeout(Duration.ZERO));
  }

  @Test
  void runsPythonByDefault() throws Exception {
    boolean python;
    try {
      python = new ProcessBuilder("python3", "--version").start().waitFor() == 0;
    } catch (IOException e) {
      python = false;
    }
    Assumptions.assumeTrue(python, "python3 is not installed");
    CodeExecutionOutcome out =
        SubprocessCodeExecutor.create().execute(execution("python", "print(6 * 7)"));
    assertEquals("42\n", out.stdout());
  }
}
