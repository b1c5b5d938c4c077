package dev.agentsvc.client;

import dev.agentsvc.v1.CodeExecutionCall;
import dev.agentsvc.v1.CodeResult;
import java.lang.reflect.InvocationTargetException;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * One code block the model wrote, to run in this process: ADK's {@code CodeExecutionInput}, with
 * the invocation and agent it belongs to. Immutable.
 */
public final class CodeExecution {
  /** The stderr answering an execution when the run declared no {@link CodeExecutor}. */
  public static final String NO_CODE_EXECUTOR =
      "This client does not run code: the run declares no code executor.";

  /** Output files a result may carry, so that a runaway program cannot flood the stream. */
  static final int MAX_OUTPUT_FILES = 100;

  private final CodeExecutionCall call;
  private final List<CodeFile> inputFiles;

  CodeExecution(CodeExecutionCall call) {
    this.call = call;
    this.inputFiles = call.getInputFilesList().stream().map(CodeFile::of).toList();
  }

  /**
   * Returns the execution a CodeExecutionCall asks for, e.g. to test an executor without a
   * service.
   *
   * @throws IllegalArgumentException when an input file has no name or no MIME type
   */
  public static CodeExecution of(CodeExecutionCall call) {
    return new CodeExecution(Objects.requireNonNull(call, "call"));
  }

  /** Returns the call id, which the result carries back. */
  public String callId() {
    return call.getCallId();
  }

  /** Returns the id of the invocation whose model wrote the code. */
  public String invocationId() {
    return call.getInvocationId();
  }

  /** Returns the name of the agent whose model wrote the code. */
  public String agentName() {
    return call.getAgentName();
  }

  /** Returns the block's language in lower case, e.g. {@code python} or {@code tool_code}. */
  public String language() {
    return call.getLanguage();
  }

  /** Returns the code, without its delimiters. */
  public String code() {
    return call.getCode();
  }

  /** Returns the data files the code may read (files the user sent inline). */
  public List<CodeFile> inputFiles() {
    return inputFiles;
  }

  /**
   * Returns the execution id: non-empty when the agent's executor is stateful, and then
   * executions with the same id share their interpreter state; empty otherwise.
   */
  public String executionId() {
    return call.getExecutionId();
  }

  /** Returns the CodeExecutionCall message as received. */
  public CodeExecutionCall codeExecutionCall() {
    return call;
  }

  /**
   * Builds the CodeResult answering a call from what the executor gave: its outcome, or the error
   * it threw as the code's failure.
   */
  static CodeResult result(String callId, CodeExecutionOutcome outcome, Throwable error) {
    CodeResult.Builder r = CodeResult.newBuilder().setCallId(callId);
    if (error != null) {
      return r.setStderr(describe(error)).build();
    }
    if (outcome == null) {
      return r.setStderr("the code executor returned no outcome").build();
    }
    if (outcome.outputFiles().size() > MAX_OUTPUT_FILES) {
      return r.setStderr("the code executor returned " + outcome.outputFiles().size()
          + " output files, more than " + MAX_OUTPUT_FILES).build();
    }
    Set<String> names = new HashSet<>();
    for (CodeFile f : outcome.outputFiles()) {
      if (!names.add(f.name())) {
        return r.setStderr("output file " + f.name() + " is returned twice").build();
      }
    }
    for (CodeFile f : outcome.outputFiles()) {
      r.addOutputFiles(f.toProto());
    }
    return r.setStdout(outcome.stdout()).setStderr(outcome.stderr()).build();
  }

  private static String describe(Throwable error) {
    Throwable t = error;
    while ((t instanceof CompletionException || t instanceof ExecutionException
        || t instanceof InvocationTargetException) && t.getCause() != null) {
      t = t.getCause();
    }
    String type = t.getClass().getSimpleName().isEmpty()
        ? t.getClass().getName() : t.getClass().getSimpleName();
    String m = t.getMessage();
    return m == null || m.isBlank() ? type : type + ": " + m;
  }
}
