package dev.agentsvc.client;

/**
 * Runs the code blocks the model writes for agents whose {@code code_executor} is {@code
 * ClientCodeExecutor}; pass one to {@link AgentsvcClient#run(dev.agentsvc.v1.RunRequest,
 * java.util.Collection, java.util.Collection, CodeExecutor)}.
 *
 * <p>Executions run on the client's tool executor, several at once when the service asks for
 * them, so an executor must be thread-safe. When the run ends first, the executing thread is
 * interrupted.
 *
 * <pre>{@code
 * CodeExecutor executor = execution -> {
 *   String out = myInterpreter.run(execution.language(), execution.code());
 *   return CodeExecutionOutcome.output(out);
 * };
 * }</pre>
 */
@FunctionalInterface
public interface CodeExecutor {
  /**
   * Runs one code block.
   *
   * @param execution the code, its language, input files and execution id
   * @return what the code printed and the files it wrote; a non-empty {@link
   *     CodeExecutionOutcome#stderr()} is the code's failure, which the service shows to the model
   *     so that it may try again (up to the agent's {@code error_retry_attempts})
   * @throws Exception answered as the code's failure, with the exception's type and message as its
   *     stderr; the run goes on
   */
  CodeExecutionOutcome execute(CodeExecution execution) throws Exception;
}
