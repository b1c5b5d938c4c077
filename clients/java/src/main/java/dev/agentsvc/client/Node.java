package dev.agentsvc.client;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method as a workflow function node, as ADK's {@code @node}; {@link
 * FunctionNode#fromMethods(Object)} turns the annotated methods of an object (or the static ones of
 * a class) into nodes.
 *
 * <p>The method takes at most one input parameter, which receives the node's input bound to its
 * type (a record, map, list, string... or {@code Object} for the JSON values as they are), and
 * optionally a {@link NodeContext}. Its return value is the node's output, as {@link
 * NodeHandler#call} describes; {@code void} is no output.
 *
 * <pre>{@code
 * class OrderNodes {
 *   @Node
 *   public Map<String, Object> prepare(Map<String, Object> userMessage, NodeContext ctx) {
 *     ctx.state().put("prepared", true);
 *     return Map.of("order", userMessage);
 *   }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Node {
  /**
   * The function name a workflow's {@code function:} entry names; by default the method name in
   * snake_case ({@code approvalGate} becomes {@code approval_gate}).
   */
  String name() default "";

  /** The method runs only through {@link NodeContext#runNode}: no workflow needs to name it. */
  boolean dynamic() default false;

  /** Its calls carry the session's recent events ({@link NodeContext.Session#events()}). */
  boolean sessionEvents() default false;
}
