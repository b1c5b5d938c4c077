package dev.agentsvc.client;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method as a tool that agents may call; {@link FunctionTool#fromMethods(Object)} turns
 * the annotated methods of an object (or the static ones of a class) into tools.
 *
 * <p>The tool's parameters are the method's parameters, except a {@link ToolContext} one, which
 * receives the call's context. Their JSON schema is derived from their Java types (see {@link
 * JsonSchemas}); describe them with {@link Param}. Parameter names come from {@link Param#name()}
 * or, when the class is compiled with {@code -parameters}, from the source.
 *
 * <p>The return value is the tool's result: an object (a map, record or bean) is sent as is; any
 * other value is wrapped by the service as {@code {"result": value}}. A {@link
 * java.util.concurrent.CompletionStage} is awaited without blocking a thread. A thrown exception
 * is reported to the model as {@code {"error": "<message>"}}.
 *
 * <pre>{@code
 * class WeatherTools {
 *   @Tool(description = "Returns the current weather in a city.")
 *   public Map<String, Object> getWeather(@Param("The city name.") String city) {
 *     return Map.of("city", city, "sky", "sunny", "celsius", 21);
 *   }
 * }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Tool {
  /**
   * The tool name the agent's YAML lists; by default the method name in snake_case ({@code
   * getWeather} becomes {@code get_weather}).
   */
  String name() default "";

  /** What the tool does, for the model. */
  String description() default "";

  /**
   * Whether the tool is long-running: the model is told not to call it again while it runs, and a
   * method that returns null (or void) sends no response, leaving the call pending for a later
   * message to answer.
   */
  boolean longRunning() default false;

  /**
   * Whether the service asks the user to confirm each call first (ADK's tool confirmation); the
   * method only runs for a confirmed call.
   */
  boolean requireConfirmation() default false;
}
