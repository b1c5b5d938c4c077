package dev.agentsvc.client;

import dev.agentsvc.v1.EventActions;
import dev.agentsvc.v1.ToolCall;
import java.util.Collections;
import java.util.Map;

/**
 * What a tool knows about the call it answers, and the side effects it may take, as ADK's
 * {@code ToolContext}: the call and invocation ids, the calling agent, a snapshot of the session
 * state, and the actions (state changes, transfer, escalation) sent back with the result and
 * applied by the service as a local tool's would be.
 *
 * <p>A {@link Tool} method receives it by declaring a parameter of this type. One instance serves
 * one call; its methods are thread-safe, so a tool may use it from the threads of its own async
 * work until its result is complete.
 */
public final class ToolContext {
  private final ToolCall call;
  private final Map<String, Object> state;
  private final EventActions.Builder actions = EventActions.newBuilder();

  ToolContext(ToolCall call) {
    this.call = call;
    this.state = Collections.unmodifiableMap(Values.toMap(call.getState()));
  }

  /** Returns the call id, equal to the function call's {@code adk-} id. */
  public String callId() {
    return call.getCallId();
  }

  /** Returns the invocation id ({@code e-<uuid4>}). */
  public String invocationId() {
    return call.getInvocationId();
  }

  /** Returns the name of the agent that called the tool. */
  public String agentName() {
    return call.getAgentName();
  }

  /** Returns the name of the tool called. */
  public String toolName() {
    return call.getFunctionCall().getName();
  }

  /** Returns the ToolCall message as received. */
  public ToolCall toolCall() {
    return call;
  }

  /**
   * Returns the session state as of the call (app- and user-scoped keys merged in, under their
   * {@code app:} and {@code user:} prefixes), read-only. Changes made with {@link #putState} are
   * not reflected here.
   */
  public Map<String, Object> state() {
    return state;
  }

  /**
   * Records a state change, stored with the tool's response event as ADK's {@code
   * tool_context.state[key] = value} is; a null value sets the key to null.
   *
   * @param key the state key, with an {@code app:}, {@code user:} or {@code temp:} prefix to
   *     choose its scope
   * @param value a value {@link Values#toValue} accepts
   */
  public synchronized void putState(String key, Object value) {
    actions.mergeStateDelta(
        com.google.protobuf.Struct.newBuilder().putFields(key, Values.toValue(value)).build());
  }

  /** Asks the agent to end its turn with the tool's response, without a model summary. */
  public synchronized void skipSummarization() {
    actions.setSkipSummarization(true);
  }

  /**
   * Transfers control to another agent after this tool, as ADK's {@code transfer_to_agent}.
   *
   * @param agentName the agent's name
   */
  public synchronized void transferToAgent(String agentName) {
    actions.setTransferToAgent(agentName);
  }

  /** Escalates to the parent agent (ends a LoopAgent's loop). */
  public synchronized void escalate() {
    actions.setEscalate(true);
  }

  /**
   * Returns the actions builder, for actions without a method of their own. Use it only from the
   * thread running the tool.
   */
  public synchronized EventActions.Builder actions() {
    return actions;
  }

  /** Returns the actions recorded so far. */
  synchronized EventActions builtActions() {
    return actions.build();
  }
}
