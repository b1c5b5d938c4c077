package dev.agentsvc.client;

import dev.agentsvc.v1.NodeCall;
import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a workflow function node knows about its run, and the state changes and route it makes, as
 * ADK's node {@code Context}: the workflow, the node's name and path, the attempt, the session
 * state and the user's answers to its earlier requests for input.
 *
 * <p>One instance serves one call. Its state, state delta and route are thread-safe, so a node may
 * write them from the threads of its own async work until its output is complete.
 */
public final class NodeContext {
  private final NodeCall call;
  private final Map<String, Object> base;
  private final Map<String, Object> stateDelta =
      Collections.synchronizedMap(new LinkedHashMap<>());
  private final Map<String, Object> state = new StateView();
  private final Map<String, Object> resumeInputs;
  private volatile Object route;

  NodeContext(NodeCall call) {
    this.call = call;
    this.base = Collections.unmodifiableMap(Values.toMap(call.getState()));
    this.resumeInputs = Collections.unmodifiableMap(Values.toMap(call.getResumeInputs()));
  }

  /**
   * Returns a context for a NodeCall, e.g. to test a node function without a service.
   */
  public static NodeContext of(NodeCall call) {
    return new NodeContext(Objects.requireNonNull(call, "call"));
  }

  /** Returns the call id, which the result carries back. */
  public String callId() {
    return call.getCallId();
  }

  /** Returns the invocation id ({@code e-<uuid4>}). */
  public String invocationId() {
    return call.getInvocationId();
  }

  /** Returns the name of the workflow the node belongs to. */
  public String workflow() {
    return call.getWorkflow();
  }

  /** Returns the node's name in the graph. */
  public String nodeName() {
    return call.getNodeName();
  }

  /** Returns the path of this node run, e.g. {@code approvals@1/approval_gate@1}. */
  public String nodePath() {
    return call.getNodePath();
  }

  /** Returns the attempt: 1 for the first, counting the retries of the node's retry_config. */
  public int attempt() {
    return call.getAttempt();
  }

  /**
   * Returns the user's answers to this node's earlier {@link RequestInput}s by interrupt id, when
   * a node with {@code rerun_on_resume} runs again after being resumed; else empty. Read-only.
   */
  public Map<String, Object> resumeInputs() {
    return resumeInputs;
  }

  /** Returns the NodeCall message as received. */
  public NodeCall nodeCall() {
    return call;
  }

  /**
   * Returns the session state as ADK's {@code ctx.state}: reads see the call's state with this
   * node's own changes applied; {@code put} records a change in {@link #stateDelta()}. Keys take an
   * {@code app:}, {@code user:} or {@code temp:} prefix to choose their scope; removing keys is not
   * supported.
   */
  public Map<String, Object> state() {
    return state;
  }

  /**
   * Returns the state changes to make, as ADK's {@code ctx.actions.state_delta}: they are sent
   * with the node's output and applied with its event. Values are those {@link Values#toValue}
   * accepts; a null value sets its key to null. The map is synchronized.
   */
  public Map<String, Object> stateDelta() {
    return stateDelta;
  }

  /** Returns the route picked so far by {@link #route(Object)}, or null. */
  public Object route() {
    return route;
  }

  /**
   * Picks the route, as ADK's {@code ctx.route = ...}: the successors whose edges carry a matching
   * route run next.
   *
   * @param route a Boolean, Number or String, or a list of them; null for none
   * @throws IllegalArgumentException for any other value
   */
  public void route(Object route) {
    if (route instanceof Collection<?> list) {
      for (Object r : list) {
        if (!isRouteValue(r)) {
          throw new IllegalArgumentException(
              "a route list holds booleans, numbers or strings, not " + describe(r));
        }
      }
      this.route = List.copyOf(list);
      return;
    }
    if (route != null && !isRouteValue(route)) {
      throw new IllegalArgumentException(
          "a route is a boolean, number or string, or a list of them, not " + describe(route));
    }
    this.route = route;
  }

  private static boolean isRouteValue(Object r) {
    return r instanceof Boolean || r instanceof Number || r instanceof String;
  }

  private static String describe(Object r) {
    return r == null ? "null" : r.getClass().getSimpleName();
  }

  /** The call's state overlaid with the node's delta; writes go to the delta. */
  private final class StateView extends AbstractMap<String, Object> {
    @Override
    public Object get(Object key) {
      synchronized (stateDelta) {
        if (stateDelta.containsKey(key)) {
          return stateDelta.get(key);
        }
      }
      return base.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
      return stateDelta.containsKey(key) || base.containsKey(key);
    }

    @Override
    public Object put(String key, Object value) {
      Objects.requireNonNull(key, "key");
      Object before = get(key);
      stateDelta.put(key, value);
      return before;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
      Map<String, Object> merged = new LinkedHashMap<>(base);
      synchronized (stateDelta) {
        merged.putAll(stateDelta);
      }
      return Collections.unmodifiableMap(merged).entrySet();
    }
  }
}
