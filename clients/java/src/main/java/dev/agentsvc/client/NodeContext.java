package dev.agentsvc.client;

import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.NodeCall;
import dev.agentsvc.v1.RunNodeRequest;
import dev.agentsvc.v1.RunNodeResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
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
  private final Function<RunNodeRequest, CompletableFuture<RunNodeResponse>> channel;
  private final AtomicInteger requests = new AtomicInteger();
  private final Session session;

  NodeContext(NodeCall call) {
    this(call, null);
  }

  NodeContext(NodeCall call, Function<RunNodeRequest, CompletableFuture<RunNodeResponse>> channel) {
    this.call = call;
    this.base = Collections.unmodifiableMap(Values.toMap(call.getState()));
    this.resumeInputs = Collections.unmodifiableMap(Values.toMap(call.getResumeInputs()));
    this.channel = channel;
    this.session = new Session(call.getSessionId(), call.getUserId(), base,
        List.copyOf(call.getSessionEventsList()));
  }

  /**
   * The session as a node sees it (ADK's {@code ctx.session}).
   *
   * @param id the session's id
   * @param userId the session's user
   * @param state the session state as the call began, read-only
   * @param events the session's most recent events (at most 100, oldest first) for a node
   *     declared with {@link FunctionNode#withSessionEvents()}; otherwise empty
   */
  public record Session(String id, String userId, Map<String, Object> state, List<Event> events) {}

  /**
   * Options of {@link #runNode}.
   *
   * @param useAsOutput the child's output event stands for this node's output too, and this node
   *     emits none of its own
   * @param runId the child's run id in its path; null for the next number of its name. A given
   *     one must contain a character that is no digit
   */
  public record RunNodeOptions(boolean useAsOutput, String runId) {
    /** The defaults: not the output, the next run number. */
    public static final RunNodeOptions DEFAULT = new RunNodeOptions(false, null);
  }

  /** Returns the session, as ADK's {@code ctx.session}. */
  public Session session() {
    return session;
  }

  /**
   * Runs a function node of this client's as a dynamic child of this node and waits for its
   * output (ADK's {@code ctx.run_node}); see {@link #runNodeAsync(FunctionNode, Object,
   * RunNodeOptions)}.
   */
  public Object runNode(FunctionNode node, Object nodeInput) throws InterruptedException {
    return await(runNodeAsync(node, nodeInput, RunNodeOptions.DEFAULT));
  }

  /**
   * Runs a node of this node's workflow (a function, agent or tool node, by its name in the graph)
   * as a dynamic child of this node and waits for its output; see {@link #runNodeAsync(String,
   * Object, RunNodeOptions)}.
   */
  public Object runNode(String node, Object nodeInput) throws InterruptedException {
    return await(runNodeAsync(node, nodeInput, RunNodeOptions.DEFAULT));
  }

  /**
   * Runs a function node of this client's as a dynamic child of this node (ADK's {@code
   * ctx.run_node}). The service runs it through the workflow: its path is this node's path, then
   * {@code <name>@<run id>}; its events and state changes are the workflow's. The node must be
   * declared with the run ({@link FunctionNode#dynamic()} when no workflow names it).
   *
   * @return the child's output as JSON values (null for none); fails with a {@link
   *     DynamicNodeFailException} when the child failed, with an {@link IllegalArgumentException}
   *     when the service refused the request as ADK raises ValueError (e.g. this node is not
   *     declared {@code rerun_on_resume: true}), else an {@link IllegalStateException}
   */
  public CompletableFuture<Object> runNodeAsync(
      FunctionNode node, Object nodeInput, RunNodeOptions options) {
    return send(RunNodeRequest.newBuilder().setFunction(node.name()), nodeInput, options);
  }

  /** As {@link #runNodeAsync(FunctionNode, Object, RunNodeOptions)}, for a node of the graph. */
  public CompletableFuture<Object> runNodeAsync(String node, Object nodeInput,
      RunNodeOptions options) {
    return send(RunNodeRequest.newBuilder().setNode(node), nodeInput, options);
  }

  private CompletableFuture<Object> send(RunNodeRequest.Builder req, Object nodeInput,
      RunNodeOptions options) {
    if (channel == null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("runNode needs a node call of a running invocation"));
    }
    RunNodeOptions o = options == null ? RunNodeOptions.DEFAULT : options;
    req.setCallId(call.getCallId()).setRequestId(Integer.toString(requests.incrementAndGet()))
        .setUseAsOutput(o.useAsOutput()).setRunId(o.runId() == null ? "" : o.runId());
    if (nodeInput != null) {
      req.setNodeInput(Values.toValue(nodeInput));
    }
    return channel.apply(req.build()).thenApply(NodeContext::childOutput);
  }

  private static Object childOutput(RunNodeResponse answer) {
    if (answer.hasError()) {
      String type = answer.getError().getType();
      String message = answer.getError().getMessage();
      if (type.equals("DynamicNodeFailError")) {
        throw new DynamicNodeFailException(message, answer.hasCause() ? answer.getCause().getType()
            : "", answer.getCause().getMessage(), answer.getNodePath());
      }
      if (type.equals("ValueError")) {
        throw new IllegalArgumentException(message);
      }
      throw new IllegalStateException(type + ": " + message);
    }
    return answer.hasOutput() ? Values.toJava(answer.getOutput()) : null;
  }

  private static Object await(CompletableFuture<Object> future) throws InterruptedException {
    try {
      return future.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new CompletionException(e.getCause());
    }
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
