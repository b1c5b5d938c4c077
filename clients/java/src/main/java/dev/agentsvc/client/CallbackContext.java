package dev.agentsvc.client;

import dev.agentsvc.v1.CallbackCall;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a callback knows about the step it runs for, and the state changes it makes, as ADK's
 * {@code CallbackContext}: its kind, the invocation, the agent, the session state and, for the
 * tool kinds, the tool called.
 *
 * <p>One instance serves one call. Its state delta is thread-safe, so a callback may write it
 * from the threads of its own async work until its result is complete.
 */
public final class CallbackContext {
  private final CallbackCall call;
  private final Callback.Kind kind;
  private final Map<String, Object> state;
  private final Map<String, Object> stateDelta =
      Collections.synchronizedMap(new LinkedHashMap<>());

  CallbackContext(CallbackCall call, Callback.Kind kind) {
    this.call = call;
    this.kind = kind;
    this.state = Collections.unmodifiableMap(Values.toMap(call.getState()));
  }

  /** Returns when the callback runs, e.g. {@link Callback.Kind#BEFORE_MODEL}. */
  public Callback.Kind kind() {
    return kind;
  }

  /** Returns the invocation id ({@code e-<uuid4>}). */
  public String invocationId() {
    return call.getInvocationId();
  }

  /** Returns the name of the agent the callback belongs to. */
  public String agentName() {
    return call.getAgentName();
  }

  /** Returns the name of the tool called (tool kinds), else an empty string. */
  public String toolName() {
    return call.getToolCall().getName();
  }

  /** Returns the id of the function call (tool kinds, {@code adk-...}), else an empty string. */
  public String functionCallId() {
    return call.getToolCall().getId();
  }

  /** Returns the CallbackCall message as received. */
  public CallbackCall callbackCall() {
    return call;
  }

  /**
   * Returns the session state with the step's pending changes applied (app- and user-scoped
   * keys under their {@code app:} and {@code user:} prefixes), read-only. Changes made through
   * {@link #stateDelta()} are not reflected here.
   */
  public Map<String, Object> state() {
    return state;
  }

  /**
   * Returns the state changes to make, as ADK's {@code callback_context.state[key] = value}:
   * keys put here are applied to the session state with the event that follows the callback; a
   * null value sets its key to null. Keys take an {@code app:}, {@code user:} or {@code temp:}
   * prefix to choose their scope; values are those {@link Values#toValue} accepts. The map is
   * synchronized.
   */
  public Map<String, Object> stateDelta() {
    return stateDelta;
  }

  /**
   * Records a state change; the same as {@code stateDelta().put(key, value)}.
   *
   * @param key the state key
   * @param value a value {@link Values#toValue} accepts, or null
   */
  public void putState(String key, Object value) {
    stateDelta.put(key, value);
  }

  /** Returns a copy of the state delta, taken under its lock. */
  Map<String, Object> stateDeltaCopy() {
    synchronized (stateDelta) {
      return new LinkedHashMap<>(stateDelta);
    }
  }
}
