package dev.agentsvc.client;

import dev.agentsvc.v1.NodeCall;
import dev.agentsvc.v1.NodeDeclaration;
import dev.agentsvc.v1.NodeError;
import dev.agentsvc.v1.NodeResult;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * A workflow function node that runs in this process, as ADK's {@code FunctionNode}: a name that
 * a workflow's {@code function:} entry names, and the code that runs the node.
 *
 * <p>The client declares its nodes when it starts a run (see {@link
 * AgentsvcClient#runWorkflow(dev.agentsvc.v1.RunRequest, Collection)}); the service calls each
 * node when the workflow reaches it, once per attempt. Build one from a lambda:
 *
 * <pre>{@code
 * FunctionNode finish = FunctionNode.of("finish", (input, ctx) -> {
 *   boolean approved = Boolean.TRUE.equals(((Map<?, ?>) input).get("approved"));
 *   String status = approved ? "approved" : "rejected";
 *   ctx.state().put("status", status);
 *   return status;
 * });
 * }</pre>
 *
 * or from {@link Node} methods with {@link #fromMethods(Object)}.
 *
 * <p>Instances are immutable and thread-safe; the handler must be thread-safe too.
 */
public final class FunctionNode {
  private final String name;
  private final NodeHandler handler;
  private final boolean dynamic;
  private final boolean sessionEvents;

  private FunctionNode(String name, NodeHandler handler, boolean dynamic, boolean sessionEvents) {
    this.name = name;
    this.handler = handler;
    this.dynamic = dynamic;
    this.sessionEvents = sessionEvents;
  }

  /**
   * Returns a node.
   *
   * @param name the function name a workflow's {@code function:} entry names
   * @param handler the code that runs the node
   * @throws IllegalArgumentException when the name is blank
   */
  public static FunctionNode of(String name, NodeHandler handler) {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("node name is empty");
    }
    return new FunctionNode(name, Objects.requireNonNull(handler, "handler"), false, false);
  }

  /**
   * Returns this node declared as dynamic: it runs only through {@link NodeContext#runNode}, so
   * no workflow needs to name it.
   */
  public FunctionNode dynamic() {
    return new FunctionNode(name, handler, true, sessionEvents);
  }

  /**
   * Returns this node declared to read the session's events: its calls carry the session's most
   * recent events ({@link NodeContext.Session#events()}).
   */
  public FunctionNode withSessionEvents() {
    return new FunctionNode(name, handler, dynamic, true);
  }

  /** Returns whether the node runs only through {@link NodeContext#runNode}. */
  public boolean isDynamic() {
    return dynamic;
  }

  /** Returns the node's function name. */
  public String name() {
    return name;
  }

  /** Returns the code that runs the node. */
  public NodeHandler handler() {
    return handler;
  }

  /** Returns the declaration sent to the service when a run starts. */
  public NodeDeclaration declaration() {
    return NodeDeclaration.newBuilder().setName(name).setDynamic(dynamic)
        .setSessionEvents(sessionEvents).build();
  }

  @Override
  public String toString() {
    return "FunctionNode[" + name + "]";
  }

  /**
   * Returns a node for each {@link Node} method of an object, public or not (static ones
   * included), sorted by name.
   *
   * @param target the object whose methods run the nodes, or a class for its static methods
   * @return the nodes
   * @throws IllegalArgumentException when the object has no {@code @Node} method, two have the same
   *     name, or a method takes more than one input parameter
   */
  public static List<FunctionNode> fromMethods(Object target) {
    Objects.requireNonNull(target, "target");
    Class<?> type = target instanceof Class<?> c ? c : target.getClass();
    Object instance = target instanceof Class<?> ? null : target;
    List<FunctionNode> nodes = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.isAnnotationPresent(Node.class) && !m.isBridge()) {
          if (instance == null && !Modifier.isStatic(m.getModifiers())) {
            throw new IllegalArgumentException(
                m + " is an instance method: pass an instance to fromMethods");
          }
          nodes.add(fromMethod(m, instance));
        }
      }
    }
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException(type.getName() + " has no @Node method");
    }
    nodes.sort(Comparator.comparing(FunctionNode::name));
    for (int i = 1; i < nodes.size(); i++) {
      if (nodes.get(i).name().equals(nodes.get(i - 1).name())) {
        throw new IllegalArgumentException("two @Node methods are named " + nodes.get(i).name());
      }
    }
    return List.copyOf(nodes);
  }

  /**
   * Returns the node of one {@link Node} method.
   *
   * @param method the method
   * @param target the object to call it on; null for a static method
   * @return the node
   */
  public static FunctionNode fromMethod(Method method, Object target) {
    Node node = method.getAnnotation(Node.class);
    if (node == null) {
      throw new IllegalArgumentException(method + " has no @Node annotation");
    }
    Parameter[] params = method.getParameters();
    int input = -1;
    for (int i = 0; i < params.length; i++) {
      if (params[i].getType() == NodeContext.class) {
        continue;
      }
      if (input >= 0) {
        throw new IllegalArgumentException(
            method + " takes more than one input parameter: a node takes its input and a context");
      }
      input = i;
    }
    method.setAccessible(true);
    int in = input;
    NodeHandler handler = (nodeInput, context) -> {
      Object[] values = new Object[params.length];
      for (int i = 0; i < params.length; i++) {
        values[i] = i == in
            ? ValueBinder.bind(nodeInput, params[i].getParameterizedType(), "node_input")
            : context;
      }
      try {
        return method.invoke(target, values);
      } catch (InvocationTargetException e) {
        if (e.getCause() instanceof Exception ex) {
          throw ex;
        }
        throw e;
      }
    };
    FunctionNode fn = of(
        node.name().isEmpty() ? FunctionTool.snakeCase(method.getName()) : node.name(), handler);
    return new FunctionNode(fn.name, handler, node.dynamic(), node.sessionEvents());
  }

  /** Returns the node's input of a call as JSON values, or null when it has none. */
  static Object input(NodeCall call) {
    return call.hasNodeInput() ? Values.toJava(call.getNodeInput()) : null;
  }

  /**
   * Builds the NodeResult answering a call from what the node gave: its output, requests for
   * input, state delta and route, or the error it threw.
   */
  static NodeResult result(NodeCall call, NodeContext context, Object value, Throwable error) {
    NodeResult.Builder r = NodeResult.newBuilder().setCallId(call.getCallId());
    if (error != null) {
      return r.setError(error(error)).build();
    }
    try {
      List<RequestInput> requests = requests(value);
      if (requests != null) {
        requests.forEach(q -> r.addRequestInputs(q.toProto()));
      } else if (value != null) {
        r.setOutput(Values.toValue(value));
      }
      if (context != null) {
        Map<String, Object> delta;
        synchronized (context.stateDelta()) {
          delta = new LinkedHashMap<>(context.stateDelta());
        }
        if (!delta.isEmpty()) {
          r.setStateDelta(Values.toStruct(delta));
        }
        if (context.route() != null) {
          r.setRoute(Values.toValue(context.route()));
        }
      }
    } catch (RuntimeException e) {
      return NodeResult.newBuilder().setCallId(call.getCallId())
          .setError(NodeError.newBuilder().setType(typeName(e))
              .setMessage("cannot encode the node's result: "
                  + (e.getMessage() == null ? typeName(e) : e.getMessage())))
          .build();
    }
    return r.build();
  }

  /** Returns the requests for input a value stands for, or null when it is an output. */
  private static List<RequestInput> requests(Object value) {
    if (value instanceof RequestInput q) {
      return List.of(q);
    }
    if (!(value instanceof Collection<?> all) || all.isEmpty()
        || all.stream().noneMatch(RequestInput.class::isInstance)) {
      return null;
    }
    List<RequestInput> out = new ArrayList<>(all.size());
    for (Object o : all) {
      if (!(o instanceof RequestInput q)) {
        throw new IllegalArgumentException(
            "the node returned RequestInputs mixed with other values");
      }
      out.add(q);
    }
    return out;
  }

  /** Returns the NodeError of an exception: its class's simple name and its message. */
  static NodeError error(Throwable error) {
    Throwable t = error;
    while ((t instanceof CompletionException || t instanceof ExecutionException
        || t instanceof InvocationTargetException) && t.getCause() != null) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return NodeError.newBuilder().setType(typeName(t)).setMessage(m == null ? "" : m).build();
  }

  private static String typeName(Throwable t) {
    String simple = t.getClass().getSimpleName();
    return simple.isEmpty() ? t.getClass().getName() : simple;
  }
}
