package dev.agentsvc.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@link CodeExecutor} that runs each code block in a new process (by default {@code python3
 * -}, the code on its standard input) in a temporary directory that holds the input files. The
 * regular files the code leaves in that directory (new ones, and inputs it changed) are the output
 * files. The process's stdout is the result; a non-zero exit or a timeout fails the execution with
 * its stderr. It keeps no state between executions, so it does not serve a stateful executor's
 * shared interpreter state.
 *
 * <p>The code runs with this process's rights: use it only where running the model's code is
 * acceptable, or give a command that sandboxes it. Instances are immutable and thread-safe.
 */
public final class SubprocessCodeExecutor implements CodeExecutor {
  private static final Map<String, String> MIME_TYPES = Map.ofEntries(
      Map.entry("csv", "text/csv"), Map.entry("gif", "image/gif"),
      Map.entry("html", "text/html"), Map.entry("jpeg", "image/jpeg"),
      Map.entry("jpg", "image/jpeg"), Map.entry("json", "application/json"),
      Map.entry("md", "text/markdown"), Map.entry("pdf", "application/pdf"),
      Map.entry("png", "image/png"), Map.entry("svg", "image/svg+xml"),
      Map.entry("txt", "text/plain"));

  private final List<String> command;
  private final Set<String> languages;
  private final Duration timeout;
  private final int maxOutputBytes;
  private final long maxOutputFileBytes;
  private final Map<String, String> environment;

  private SubprocessCodeExecutor(Builder b) {
    this.command = b.command;
    this.languages = b.languages;
    this.timeout = b.timeout;
    this.maxOutputBytes = b.maxOutputBytes;
    this.maxOutputFileBytes = b.maxOutputFileBytes;
    this.environment = b.environment;
  }

  /** Returns an executor with the defaults: {@code python3 -}, 30 seconds, 1 MiB of output. */
  public static SubprocessCodeExecutor create() {
    return builder().build();
  }

  /** Returns a builder of an executor. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs the code.
   *
   * @throws IllegalArgumentException for a language it does not run or an input file name that is
   *     not a plain file name
   * @throws IOException when the process cannot start or the files cannot be written or read
   * @throws InterruptedException when the run ends first; the process is killed
   */
  @Override
  public CodeExecutionOutcome execute(CodeExecution execution) throws Exception {
    if (!languages.contains(execution.language())) {
      throw new IllegalArgumentException(
          "Language '" + execution.language() + "' is not supported by this code executor.");
    }
    Path dir = Files.createTempDirectory("agentsvc-code-");
    try {
      Map<String, byte[]> inputs = new HashMap<>();
      for (CodeFile f : execution.inputFiles()) {
        checkInputName(f.name());
        byte[] content = f.content();
        Files.write(dir.resolve(f.name()), content);
        inputs.put(f.name(), content);
      }
      return run(dir, execution.code(), inputs);
    } finally {
      deleteTree(dir);
    }
  }

  private CodeExecutionOutcome run(Path dir, String code, Map<String, byte[]> inputs)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().clear();
    pb.environment().putAll(environment);
    Process p = pb.start();
    try {
      Capture out = new Capture(p.getInputStream(), maxOutputBytes);
      Capture err = new Capture(p.getErrorStream(), maxOutputBytes);
      try (OutputStream in = p.getOutputStream()) {
        in.write(code.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // A program that exits without reading its input closes the pipe early.
      }
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        kill(p);
        return new CodeExecutionOutcome(out.text(), "Code execution timed out after "
            + seconds(timeout) + " seconds.", List.of());
      }
      String stdout = out.text();
      String stderr = err.text();
      if (p.exitValue() != 0) {
        return new CodeExecutionOutcome(stdout, stderr.isEmpty()
            ? "The code exited with code " + p.exitValue() + "." : stderr, List.of());
      }
      return CodeExecutionOutcome.output(stdout, outputFiles(dir, inputs));
    } finally {
      kill(p);
    }
  }

  /**
   * Kills the process and what it started: a child left running would hold the output pipes open
   * and keep its work going after the execution ended.
   */
  private static void kill(Process p) throws InterruptedException {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly().waitFor();
  }

  private List<CodeFile> outputFiles(Path dir, Map<String, byte[]> inputs) throws IOException {
    List<Path> paths;
    try (Stream<Path> s = Files.list(dir)) {
      paths = s.filter(Files::isRegularFile).sorted().toList();
    }
    List<CodeFile> files = new ArrayList<>();
    long total = 0;
    for (Path path : paths) {
      total += Files.size(path);
      if (total > maxOutputFileBytes) {
        throw new IOException("The code's output files exceed " + maxOutputFileBytes + " bytes.");
      }
      String name = path.getFileName().toString();
      byte[] content = Files.readAllBytes(path);
      if (Arrays.equals(content, inputs.get(name))) {
        continue;
      }
      files.add(new CodeFile(name, mimeType(name), content));
    }
    return files;
  }

  private static String mimeType(String name) {
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    return MIME_TYPES.getOrDefault(ext, "application/octet-stream");
  }

  private static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? Long.toString(ms / 1000) : Double.toString(ms / 1000.0);
  }

  /** Input files are written by name into the directory: a name must stay in it. */
  private static void checkInputName(String name) {
    if (name.isEmpty() || name.equals(".") || name.equals("..") || name.contains("/")
        || name.contains("\\") || name.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "Input file name \"" + name + "\" is not a plain file name.");
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Reads a stream to its end on its own thread, keeping up to a bound of its bytes. */
  private static final class Capture {
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final Thread reader;

    Capture(InputStream in, int max) {
      reader = new Thread(() -> {
        byte[] buf = new byte[8192];
        try (in) {
          for (int n; (n = in.read(buf)) >= 0; ) {
            synchronized (kept) {
              int room = max - kept.size();
              if (room > 0) {
                kept.write(buf, 0, Math.min(room, n));
              }
            }
          }
        } catch (IOException e) {
          // The process was killed: keep what was read.
        }
      }, "agentsvc-code-output");
      reader.setDaemon(true);
      reader.start();
    }

    String text() throws InterruptedException {
      reader.join();
      synchronized (kept) {
        return kept.toString(StandardCharsets.UTF_8);
      }
    }
  }

  /** Configures a {@link SubprocessCodeExecutor}. Not thread-safe. */
  public static final class Builder {
    private List<String> command = List.of("python3", "-");
    private Set<String> languages = Set.of("python", "tool_code");
    private Duration timeout = Duration.ofSeconds(30);
    private int maxOutputBytes = 1 << 20;
    private long maxOutputFileBytes = 16L << 20;
    private Map<String, String> environment = defaultEnvironment();

    private Builder() {}

    /** Sets the program and its arguments; the code is written to its standard input. */
    public Builder command(List<String> command) {
      if (command.isEmpty() || command.get(0).isEmpty()) {
        throw new IllegalArgumentException("the command is empty");
      }
      this.command = List.copyOf(command);
      return this;
    }

    /** Sets the languages it runs; default {@code python} and {@code tool_code}. */
    public Builder languages(Set<String> languages) {
      this.languages = Set.copyOf(languages);
      return this;
    }

    /** Sets how long a process may run before it is killed; default 30 seconds. */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("the timeout must be positive");
      }
      this.timeout = timeout;
      return this;
    }

    /** Sets the bytes kept of stdout and of stderr each; the rest is dropped. Default 1 MiB. */
    public Builder maxOutputBytes(int maxOutputBytes) {
      if (maxOutputBytes <= 0) {
        throw new IllegalArgumentException("maxOutputBytes must be positive");
      }
      this.maxOutputBytes = maxOutputBytes;
      return this;
    }

    /** Sets the total bytes of output files; past it, the execution fails. Default 16 MiB. */
    public Builder maxOutputFileBytes(long maxOutputFileBytes) {
      if (maxOutputFileBytes <= 0) {
        throw new IllegalArgumentException("maxOutputFileBytes must be positive");
      }
      this.maxOutputFileBytes = maxOutputFileBytes;
      return this;
    }

    /**
     * Sets the environment of the process; default only {@code PATH} of this process, so that the
     * code sees none of its secrets.
     */
    public Builder environment(Map<String, String> environment) {
      this.environment = Map.copyOf(environment);
      return this;
    }

    /** Returns the executor. */
    public SubprocessCodeExecutor build() {
      return new SubprocessCodeExecutor(this);
    }

    private static Map<String, String> defaultEnvironment() {
      String path = System.getenv("PATH");
      return Map.of("PATH", Objects.requireNonNullElse(path, ""));
    }
  }
}
