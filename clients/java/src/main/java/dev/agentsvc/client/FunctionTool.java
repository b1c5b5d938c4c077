package dev.agentsvc.client;

import com.google.protobuf.Struct;
import dev.agentsvc.v1.ToolDeclaration;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A tool that lives in this process: its declaration (name, description, JSON schema of its
 * parameters, flags) and the code that answers the agent's calls to it.
 *
 * <p>The agent's YAML names the tool; the client declares it when it starts a run (see {@link
 * AgentsvcClient#run(dev.agentsvc.v1.RunRequest, java.util.Collection)}), and the service sends
 * each call back to it. Build one from annotated methods:
 *
 * <pre>{@code
 * List<FunctionTool> tools = FunctionTool.fromMethods(new WeatherTools());
 * }</pre>
 *
 * or from a handler with an explicit schema:
 *
 * <pre>{@code
 * FunctionTool tool = FunctionTool.builder("get_weather")
 *     .description("Returns the current weather in a city.")
 *     .parameters(Map.of(
 *         "type", "object",
 *         "properties", Map.of("city", Map.of("type", "string")),
 *         "required", List.of("city")))
 *     .handler((args, ctx) -> Map.of("sky", "sunny", "city", args.getString("city")))
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe; the handler must be thread-safe too.
 */
public final class FunctionTool {
  private final ToolDeclaration declaration;
  private final ToolHandler handler;

  private FunctionTool(ToolDeclaration declaration, ToolHandler handler) {
    this.declaration = declaration;
    this.handler = handler;
  }

  /** Returns the tool name. */
  public String name() {
    return declaration.getName();
  }

  /** Returns the declaration sent to the service when a run starts. */
  public ToolDeclaration declaration() {
    return declaration;
  }

  /** Returns the code that answers calls. */
  public ToolHandler handler() {
    return handler;
  }

  @Override
  public String toString() {
    return "FunctionTool[" + name() + "]";
  }

  /**
   * Starts a tool with an explicit schema.
   *
   * @param name the tool name, as the agent's YAML lists it
   * @return a builder
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Returns a tool for each {@link Tool} method of an object, public or not (static ones
   * included), sorted by tool name.
   *
   * @param target the object whose methods answer calls
   * @return the tools
   * @throws IllegalArgumentException when the object has no {@code @Tool} method, two have the same
   *     name, or a parameter has no name
   */
  public static List<FunctionTool> fromMethods(Object target) {
    Objects.requireNonNull(target, "target");
    if (target instanceof Class<?> c) {
      return fromMethods(c, null);
    }
    return fromMethods(target.getClass(), target);
  }

  private static List<FunctionTool> fromMethods(Class<?> type, Object target) {
    List<FunctionTool> tools = new ArrayList<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.isAnnotationPresent(Tool.class) && !m.isBridge()) {
          if (target == null && !Modifier.isStatic(m.getModifiers())) {
            throw new IllegalArgumentException(
                m + " is an instance method: pass an instance to fromMethods");
          }
          tools.add(fromMethod(m, target));
        }
      }
    }
    if (tools.isEmpty()) {
      throw new IllegalArgumentException(type.getName() + " has no @Tool method");
    }
    tools.sort(Comparator.comparing(FunctionTool::name));
    for (int i = 1; i < tools.size(); i++) {
      if (tools.get(i).name().equals(tools.get(i - 1).name())) {
        throw new IllegalArgumentException("two @Tool methods are named " + tools.get(i).name());
      }
    }
    return List.copyOf(tools);
  }

  /**
   * Returns the tool of one {@link Tool} method.
   *
   * @param method the method
   * @param target the object to call it on; null for a static method
   * @return the tool
   */
  public static FunctionTool fromMethod(Method method, Object target) {
    Tool tool = method.getAnnotation(Tool.class);
    if (tool == null) {
      throw new IllegalArgumentException(method + " has no @Tool annotation");
    }
    method.setAccessible(true);
    Map<String, Object> schema = JsonSchemas.ofParameters(method);
    Builder b = builder(tool.name().isEmpty() ? snakeCase(method.getName()) : tool.name())
        .description(tool.description())
        .longRunning(tool.longRunning())
        .requireConfirmation(tool.requireConfirmation())
        .handler(methodHandler(method, target));
    if (schema != null) {
      b.parameters(schema);
    }
    return b.build();
  }

  private static ToolHandler methodHandler(Method method, Object target) {
    Parameter[] params = method.getParameters();
    String[] names = new String[params.length];
    for (int i = 0; i < params.length; i++) {
      if (params[i].getType() != ToolContext.class) {
        names[i] = JsonSchemas.parameterName(method, params[i]);
      }
    }
    return (args, context) -> {
      Object[] values = new Object[params.length];
      for (int i = 0; i < params.length; i++) {
        values[i] = names[i] == null
            ? context
            : ValueBinder.bind(args.asMap().get(names[i]), params[i].getParameterizedType(), names[i]);
      }
      try {
        return method.invoke(target, values);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof Exception ex) {
          throw ex;
        }
        throw e;
      }
    };
  }

  /** Turns a Java method name into a tool name: {@code getWeather} gives {@code get_weather}. */
  static String snakeCase(String name) {
    StringBuilder out = new StringBuilder(name.length() + 4);
    for (int i = 0; i < name.length(); i++) {
      char ch = name.charAt(i);
      if (Character.isUpperCase(ch)) {
        boolean prevLower = i > 0 && !Character.isUpperCase(name.charAt(i - 1));
        boolean nextLower = i + 1 < name.length() && Character.isLowerCase(name.charAt(i + 1));
        if (i > 0 && (prevLower || nextLower) && name.charAt(i - 1) != '_') {
          out.append('_');
        }
        out.append(Character.toLowerCase(ch));
      } else {
        out.append(ch);
      }
    }
    return out.toString();
  }

  /**
   * Builds a {@link FunctionTool}. Not thread-safe.
   */
  public static final class Builder {
    private final ToolDeclaration.Builder declaration = ToolDeclaration.newBuilder();
    private ToolHandler handler;

    private Builder(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("tool name is empty");
      }
      declaration.setName(name);
    }

    /** Sets what the tool does, for the model. */
    public Builder description(String description) {
      declaration.setDescription(Objects.requireNonNull(description, "description"));
      return this;
    }

    /**
     * Sets the JSON schema of the arguments: an object schema whose {@code required} names are
     * mandatory (a call missing one is answered by the service with ADK's error and never reaches
     * the handler). Omit it for a tool without parameters.
     *
     * @param schema the schema as JSON values, e.g. from {@link JsonSchemas#of}
     */
    public Builder parameters(Map<String, ?> schema) {
      return parameters(Values.toStruct(schema));
    }

    /** Sets the JSON schema of the arguments. */
    public Builder parameters(Struct schema) {
      declaration.setParameters(Objects.requireNonNull(schema, "schema"));
      return this;
    }

    /** Sets the JSON schema of the result; optional. */
    public Builder response(Map<String, ?> schema) {
      declaration.setResponse(Values.toStruct(schema));
      return this;
    }

    /**
     * Marks the tool long-running: a null result sends no response, leaving the call pending.
     * Default false.
     */
    public Builder longRunning(boolean longRunning) {
      declaration.setLongRunning(longRunning);
      return this;
    }

    /** Makes the service ask the user to confirm each call first. Default false. */
    public Builder requireConfirmation(boolean requireConfirmation) {
      declaration.setRequireConfirmation(requireConfirmation);
      return this;
    }

    /** Sets the code that answers calls; required. */
    public Builder handler(ToolHandler handler) {
      this.handler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /**
     * Returns the tool.
     *
     * @throws IllegalStateException when no handler was set
     */
    public FunctionTool build() {
      if (handler == null) {
        throw new IllegalStateException("tool " + declaration.getName() + " has no handler");
      }
      return new FunctionTool(declaration.build(), handler);
    }
  }
}
