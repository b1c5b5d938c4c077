package dev.agentsvc.client;

import java.util.List;
import java.util.Objects;

/**
 * What running a code block gave, as ADK's {@code CodeExecutionResult}: what it printed, its
 * error, and the files it wrote. A non-empty {@code stderr} means the code failed.
 *
 * @param stdout what the code printed; null is empty
 * @param stderr the code's error, empty when it succeeded; null is empty
 * @param outputFiles the files the code wrote, saved as artifacts when the service has an
 *     artifact store; null is none
 */
public record CodeExecutionOutcome(String stdout, String stderr, List<CodeFile> outputFiles) {
  /** Replaces nulls with empty values and copies the file list. */
  public CodeExecutionOutcome {
    stdout = stdout == null ? "" : stdout;
    stderr = stderr == null ? "" : stderr;
    outputFiles = outputFiles == null ? List.of() : List.copyOf(outputFiles);
  }

  /** Returns the outcome of code that ran and printed stdout. */
  public static CodeExecutionOutcome output(String stdout) {
    return new CodeExecutionOutcome(stdout, "", List.of());
  }

  /** Returns the outcome of code that ran, printed stdout and wrote files. */
  public static CodeExecutionOutcome output(String stdout, List<CodeFile> outputFiles) {
    return new CodeExecutionOutcome(stdout, "", outputFiles);
  }

  /** Returns the outcome of code that failed with this error. */
  public static CodeExecutionOutcome failure(String stderr) {
    Objects.requireNonNull(stderr, "stderr");
    return new CodeExecutionOutcome("", stderr, List.of());
  }

  /** Returns whether the code failed: its stderr is not empty. */
  public boolean failed() {
    return !stderr.isEmpty();
  }
}
