package dev.agentsvc.client;

import com.google.protobuf.Struct;
import dev.agentsvc.v1.CallbackCall;
import dev.agentsvc.v1.CallbackDeclaration;
import dev.agentsvc.v1.CallbackKind;
import dev.agentsvc.v1.CallbackResult;
import dev.agentsvc.v1.Content;
import dev.agentsvc.v1.LlmRequest;
import dev.agentsvc.v1.LlmResponse;
import dev.agentsvc.v1.Part;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * A callback that lives in this process, bound by name to the {@code *_callbacks} entries of an
 * agent's YAML ({@code guards.callbacks.guard_input} binds to the callback named {@code
 * guard_input}). The client declares it when it starts a run (see {@link
 * AgentsvcClient#run(dev.agentsvc.v1.RunRequest, java.util.Collection, java.util.Collection)})
 * and the service calls it back at each step of its kind.
 *
 * <p>A callback is called with a {@link CallbackContext} and what its kind sees, and returns an
 * override, or null to let the step run (ADK's {@code None}):
 *
 * <table>
 *   <caption>Callback kinds</caption>
 *   <tr><th>kind</th><th>called with</th><th>may return</th></tr>
 *   <tr><td>before_agent</td><td>{@code (ctx)}</td>
 *       <td>a {@link Content} or text: the agent's reply instead of running it</td></tr>
 *   <tr><td>after_agent</td><td>{@code (ctx)}</td>
 *       <td>a {@link Content} or text: an extra reply after the agent's</td></tr>
 *   <tr><td>before_model</td><td>{@code (ctx, request)}</td>
 *       <td>an {@link LlmResponse} or text: the answer instead of the model's; an {@link
 *       LlmRequest}: the request to send instead</td></tr>
 *   <tr><td>after_model</td><td>{@code (ctx, response)}</td>
 *       <td>an {@link LlmResponse} or text: replaces the model's answer</td></tr>
 *   <tr><td>on_model_error</td><td>{@code (ctx, request, error)}</td>
 *       <td>an {@link LlmResponse} or text: the answer instead of the error</td></tr>
 *   <tr><td>before_tool</td><td>{@code (ctx, args)}</td>
 *       <td>a map: the result instead of the tool's run</td></tr>
 *   <tr><td>after_tool</td><td>{@code (ctx, args, toolResponse)}</td>
 *       <td>a map: replaces the tool's result</td></tr>
 *   <tr><td>on_tool_error</td><td>{@code (ctx, args, error)}</td>
 *       <td>a map: the result instead of the error</td></tr>
 * </table>
 *
 * <p>Text is a model-role {@link Content} of one text part (wrapped in an {@link LlmResponse}
 * for the model kinds). Where a map is returned, a record or a protobuf {@link Struct} may be
 * too. A {@link java.util.concurrent.CompletionStage} is awaited without holding a thread, and an
 * {@link Optional} is unwrapped. A thrown exception fails the run with an {@link
 * AgentsvcException} (code {@code UNKNOWN}, reason {@code CALLBACK_FAILED}) that
 * names the callback; so does returning a value the kind cannot return.
 *
 * <pre>{@code
 * Callback guardInput = Callback.beforeModel("guard_input", (ctx, request) -> {
 *   if (Callback.lastUserText(request).contains("forbidden")) {
 *     ctx.stateDelta().put("guarded", true);
 *     return "Blocked.";   // answers instead of the model
 *   }
 *   return null;           // the model runs
 * });
 * }</pre>
 *
 * <p>One name may serve several kinds, each with its own handler: {@code
 * Callback.builder("audit").beforeTool(...).afterTool(...).build()}.
 *
 * <p>Callbacks run on the client's tool executor, several at once when the model calls tools in
 * parallel: keep them thread-safe. Instances are immutable and may be shared between runs.
 */
public final class Callback {
  /** The longest error text the service accepts in a callback result, in bytes of UTF-8. */
  private static final int MAX_ERROR_BYTES = 4096;

  private final String name;
  private final Map<Kind, Invoker> handlers;

  private Callback(String name, Map<Kind, Invoker> handlers) {
    this.name = name;
    this.handlers = handlers;
  }

  /** When a callback runs: ADK's eight callback kinds. */
  public enum Kind {
    /** Before an agent runs. */
    BEFORE_AGENT(CallbackKind.CALLBACK_KIND_BEFORE_AGENT),
    /** After an agent ran. */
    AFTER_AGENT(CallbackKind.CALLBACK_KIND_AFTER_AGENT),
    /** Before each model call. */
    BEFORE_MODEL(CallbackKind.CALLBACK_KIND_BEFORE_MODEL),
    /** After each model answer. */
    AFTER_MODEL(CallbackKind.CALLBACK_KIND_AFTER_MODEL),
    /** When a model call fails. */
    ON_MODEL_ERROR(CallbackKind.CALLBACK_KIND_ON_MODEL_ERROR),
    /** Before each tool call. */
    BEFORE_TOOL(CallbackKind.CALLBACK_KIND_BEFORE_TOOL),
    /** After each tool call. */
    AFTER_TOOL(CallbackKind.CALLBACK_KIND_AFTER_TOOL),
    /** When a tool call fails. */
    ON_TOOL_ERROR(CallbackKind.CALLBACK_KIND_ON_TOOL_ERROR);

    private final CallbackKind proto;

    Kind(CallbackKind proto) {
      this.proto = proto;
    }

    /** Returns the API's enum value of the kind. */
    public CallbackKind proto() {
      return proto;
    }

    /** Returns the kind of an API enum value, or null for an unknown one. */
    static Kind of(CallbackKind proto) {
      for (Kind k : values()) {
        if (k.proto == proto) {
          return k;
        }
      }
      return null;
    }

    /** Returns the kind as the YAML spells it, e.g. {@code before_model}. */
    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** A before_agent or after_agent callback. */
  @FunctionalInterface
  public interface AgentHandler {
    /**
     * Runs the callback.
     *
     * @param context the call's context
     * @return a {@link Content} or text, or null for no override
     * @throws Exception fails the run, naming the callback
     */
    Object call(CallbackContext context) throws Exception;
  }

  /** A before_model callback. */
  @FunctionalInterface
  public interface BeforeModelHandler {
    /**
     * Runs the callback.
     *
     * @param context the call's context
     * @param request the request about to be sent to the model
     * @return an {@link LlmResponse} or text (the answer instead of the model's), an {@link
     *     LlmRequest} (the request to send instead), or null for no override
     * @throws Exception fails the run, naming the callback
     */
    Object call(CallbackContext context, LlmRequest request) throws Exception;
  }

  /** An after_model callback. */
  @FunctionalInterface
  public interface AfterModelHandler {
    /**
     * Runs the callback.
     *
     * @param context the call's context
     * @param response the model's answer
     * @return an {@link LlmResponse} or text that replaces it, or null for no override
     * @throws Exception fails the run, naming the callback
     */
    Object call(CallbackContext context, LlmResponse response) throws Exception;
  }

  /** An on_model_error callback. */
  @FunctionalInterface
  public interface ModelErrorHandler {
    /**
     * Runs the callback.
     *
     * @param context the call's context
     * @param request the request that failed
     * @param error the failure's message
     * @return an {@link LlmResponse} or text instead of the error, or null for no override
     * @throws Exception fails the run, naming the callback
     */
    Object call(CallbackContext context, LlmRequest request, String error) throws Exception;
  }

  /** A before_tool callback. */
  @FunctionalInterface
  public interface BeforeToolHandler {
    /**
     * Runs the callback.
     *
     * @param context the call's context, with the tool's name and the call's id
     * @param args the call's arguments (a mutable copy)
     * @return a map, the result instead of the tool's run, or null for no override
     * @throws Exception fails the run, naming the callback
     */
    Object call(CallbackContext context, Map<String, Object> args) throws Exception;
  }

  /** An after_tool callback. */
  @FunctionalInterface
  public interface AfterToolHandler {
    /**
     * Runs the callback.
     *
     * @param context the call's context, with the tool's name and the call's id
     * @param args the call's arguments (a mutable copy)
     * @param toolResponse the tool's result (a mutable copy)
     * @return a map that replaces the result, or null for no override
     * @throws Exception fails the run, naming the callback
     */
    Object call(CallbackContext context, Map<String, Object> args,
        Map<String, Object> toolResponse) throws Exception;
  }

  /** An on_tool_error callback. */
  @FunctionalInterface
  public interface ToolErrorHandler {
    /**
     * Runs the callback.
     *
     * @param context the call's context, with the tool's name and the call's id
     * @param args the call's arguments (a mutable copy)
     * @param error the failure's message
     * @return a map, the result instead of the error, or null for no override
     * @throws Exception fails the run, naming the callback
     */
    Object call(CallbackContext context, Map<String, Object> args, String error) throws Exception;
  }

  /** Calls a kind's handler with what the kind sees. */
  @FunctionalInterface
  private interface Invoker {
    Object invoke(CallbackContext context, CallbackCall call) throws Exception;
  }

  /** Returns the callback's name, which the agent's YAML binds to. */
  public String name() {
    return name;
  }

  /** Returns the kinds the callback has a handler for. */
  public Set<Kind> kinds() {
    return handlers.keySet();
  }

  /** Returns the declaration sent to the service when a run starts. */
  public CallbackDeclaration declaration() {
    return CallbackDeclaration.newBuilder().setName(name).build();
  }

  @Override
  public String toString() {
    return "Callback[" + name + " " + handlers.keySet() + "]";
  }

  // One kind each.

  /** Returns a before_agent callback. */
  public static Callback beforeAgent(String name, AgentHandler handler) {
    return builder(name).beforeAgent(handler).build();
  }

  /** Returns an after_agent callback. */
  public static Callback afterAgent(String name, AgentHandler handler) {
    return builder(name).afterAgent(handler).build();
  }

  /** Returns a before_model callback. */
  public static Callback beforeModel(String name, BeforeModelHandler handler) {
    return builder(name).beforeModel(handler).build();
  }

  /** Returns an after_model callback. */
  public static Callback afterModel(String name, AfterModelHandler handler) {
    return builder(name).afterModel(handler).build();
  }

  /** Returns an on_model_error callback. */
  public static Callback onModelError(String name, ModelErrorHandler handler) {
    return builder(name).onModelError(handler).build();
  }

  /** Returns a before_tool callback. */
  public static Callback beforeTool(String name, BeforeToolHandler handler) {
    return builder(name).beforeTool(handler).build();
  }

  /** Returns an after_tool callback. */
  public static Callback afterTool(String name, AfterToolHandler handler) {
    return builder(name).afterTool(handler).build();
  }

  /** Returns an on_tool_error callback. */
  public static Callback onToolError(String name, ToolErrorHandler handler) {
    return builder(name).onToolError(handler).build();
  }

  /**
   * Starts a callback with a handler per kind, for a name the YAML lists under several kinds.
   *
   * @param name the callback's name: letters, digits and underscores, not starting with a digit
   * @return a builder
   * @throws IllegalArgumentException when the name is not of that form
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Returns the text of the last user message of a model request that has text (its text parts
   * joined), or an empty string.
   */
  public static String lastUserText(LlmRequest request) {
    List<Content> contents = request.getContentsList();
    for (int i = contents.size() - 1; i >= 0; i--) {
      Content c = contents.get(i);
      if (!c.getRole().equals("user")) {
        continue;
      }
      StringBuilder text = new StringBuilder();
      for (Part p : c.getPartsList()) {
        text.append(p.getText());
      }
      if (text.length() > 0) {
        return text.toString();
      }
    }
    return "";
  }

  // Running a call.

  /** Whether the callback has a handler for the kind. */
  boolean handles(Kind kind) {
    return handlers.containsKey(kind);
  }

  /**
   * Runs the kind's handler for one call; returns what it returned, possibly a {@link
   * java.util.concurrent.CompletionStage}.
   */
  Object invoke(CallbackContext context) throws Exception {
    return handlers.get(context.kind()).invoke(context, context.callbackCall());
  }

  /**
   * Returns the result of a call: the handler's value as the kind's override and the context's
   * state delta and artifacts, or the error it threw or that its value is.
   */
  CallbackResult result(CallbackContext context, Object value, Throwable error) {
    String callId = context.callbackCall().getCallId();
    if (error != null) {
      return error(callId, describe(error));
    }
    CallbackResult.Builder r = CallbackResult.newBuilder().setCallId(callId);
    try {
      setOverride(r, context.kind(), value);
      Map<String, Object> delta = context.stateDeltaCopy();
      if (!delta.isEmpty()) {
        r.setStateDelta(Values.toStruct(delta));
      }
      r.putAllArtifacts(context.artifactsCopy());
    } catch (RuntimeException e) {
      return error(callId, describe(e));
    }
    return r.build();
  }

  /** Returns a result that reports a failure. */
  static CallbackResult error(String callId, String message) {
    return CallbackResult.newBuilder().setCallId(callId).setError(clip(message)).build();
  }

  private void setOverride(CallbackResult.Builder r, Kind kind, Object value) {
    if (value instanceof Optional<?> opt) {
      value = opt.orElse(null);
    }
    if (value == null) {
      return;
    }
    switch (kind) {
      case BEFORE_AGENT, AFTER_AGENT -> {
        if (value instanceof CharSequence text) {
          r.setContent(modelText(text));
          return;
        }
        if (value instanceof Content content) {
          r.setContent(content);
          return;
        }
      }
      case BEFORE_MODEL, AFTER_MODEL, ON_MODEL_ERROR -> {
        if (value instanceof CharSequence text) {
          r.setLlmResponse(LlmResponse.newBuilder().setContent(modelText(text)));
          return;
        }
        if (value instanceof LlmResponse response) {
          r.setLlmResponse(response);
          return;
        }
        if (kind == Kind.BEFORE_MODEL && value instanceof LlmRequest request) {
          r.setLlmRequest(request);
          return;
        }
      }
      case BEFORE_TOOL, AFTER_TOOL, ON_TOOL_ERROR -> {
        if (value instanceof Struct struct) {
          r.setToolResponse(struct);
          return;
        }
        if (value instanceof Map<?, ?> || value instanceof Record) {
          r.setToolResponse(Values.toValue(value).getStructValue());
          return;
        }
      }
    }
    throw new IllegalArgumentException("the " + kind + " callback " + name + " returned a "
        + typeName(value.getClass()) + ", which a " + kind + " callback cannot return");
  }

  private static Content modelText(CharSequence text) {
    return Content.newBuilder().setRole("model")
        .addParts(Part.newBuilder().setText(text.toString())).build();
  }

  /** Describes a failure as its class's simple name and its message. */
  private static String describe(Throwable error) {
    Throwable t = error;
    while ((t instanceof CompletionException || t instanceof ExecutionException
        || t instanceof InvocationTargetException) && t.getCause() != null) {
      t = t.getCause();
    }
    String type = typeName(t.getClass());
    String m = t.getMessage();
    return m == null || m.isBlank() ? type : type + ": " + m;
  }

  private static String typeName(Class<?> type) {
    return type.getSimpleName().isEmpty() ? type.getName() : type.getSimpleName();
  }

  /** Shortens a message to what the service accepts. */
  private static String clip(String message) {
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= MAX_ERROR_BYTES) {
      return message;
    }
    int n = MAX_ERROR_BYTES - 3;
    while (n > 0 && (bytes[n] & 0xC0) == 0x80) {
      n--;
    }
    return new String(bytes, 0, n, StandardCharsets.UTF_8) + "...";
  }

  /** Builds a {@link Callback} with a handler per kind. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private final Map<Kind, Invoker> handlers = new EnumMap<>(Kind.class);

    private Builder(String name) {
      Objects.requireNonNull(name, "name");
      if (!isName(name)) {
        throw new IllegalArgumentException("callback name '" + name
            + "' is not a name (letters, digits and underscores, not starting with a digit)");
      }
      this.name = name;
    }

    /** Sets the before_agent handler. */
    public Builder beforeAgent(AgentHandler handler) {
      Objects.requireNonNull(handler, "handler");
      return on(Kind.BEFORE_AGENT, (ctx, call) -> handler.call(ctx));
    }

    /** Sets the after_agent handler. */
    public Builder afterAgent(AgentHandler handler) {
      Objects.requireNonNull(handler, "handler");
      return on(Kind.AFTER_AGENT, (ctx, call) -> handler.call(ctx));
    }

    /** Sets the before_model handler. */
    public Builder beforeModel(BeforeModelHandler handler) {
      Objects.requireNonNull(handler, "handler");
      return on(Kind.BEFORE_MODEL, (ctx, call) -> handler.call(ctx, call.getLlmRequest()));
    }

    /** Sets the after_model handler. */
    public Builder afterModel(AfterModelHandler handler) {
      Objects.requireNonNull(handler, "handler");
      return on(Kind.AFTER_MODEL, (ctx, call) -> handler.call(ctx, call.getLlmResponse()));
    }

    /** Sets the on_model_error handler. */
    public Builder onModelError(ModelErrorHandler handler) {
      Objects.requireNonNull(handler, "handler");
      return on(Kind.ON_MODEL_ERROR,
          (ctx, call) -> handler.call(ctx, call.getLlmRequest(), call.getError()));
    }

    /** Sets the before_tool handler. */
    public Builder beforeTool(BeforeToolHandler handler) {
      Objects.requireNonNull(handler, "handler");
      return on(Kind.BEFORE_TOOL, (ctx, call) -> handler.call(ctx, args(call)));
    }

    /** Sets the after_tool handler. */
    public Builder afterTool(AfterToolHandler handler) {
      Objects.requireNonNull(handler, "handler");
      return on(Kind.AFTER_TOOL, (ctx, call) ->
          handler.call(ctx, args(call), Values.toMap(call.getToolResponse())));
    }

    /** Sets the on_tool_error handler. */
    public Builder onToolError(ToolErrorHandler handler) {
      Objects.requireNonNull(handler, "handler");
      return on(Kind.ON_TOOL_ERROR, (ctx, call) -> handler.call(ctx, args(call), call.getError()));
    }

    /**
     * Returns the callback.
     *
     * @throws IllegalStateException when no handler was set
     */
    public Callback build() {
      if (handlers.isEmpty()) {
        throw new IllegalStateException("callback " + name + " has no handler");
      }
      return new Callback(name, Collections.unmodifiableMap(new EnumMap<>(handlers)));
    }

    private Builder on(Kind kind, Invoker invoker) {
      if (handlers.putIfAbsent(kind, invoker) != null) {
        throw new IllegalStateException("callback " + name + " already has a " + kind + " handler");
      }
      return this;
    }

    private static Map<String, Object> args(CallbackCall call) {
      return Values.toMap(call.getToolCall().getArgs());
    }

    private static boolean isName(String name) {
      if (name.isEmpty()
          || !(Character.isLetter(name.codePointAt(0)) || name.charAt(0) == '_')) {
        return false;
      }
      return name.codePoints().allMatch(c -> Character.isLetterOrDigit(c) || c == '_');
    }
  }
}
