package dev.agentsvc.client;

import com.google.protobuf.Struct;
import java.lang.reflect.Type;
import java.util.Collections;
import java.util.Map;

/**
 * The arguments of one tool call, with typed accessors that bind JSON values to Java types as
 * {@link Tool} methods' parameters are bound (numbers to int or long, objects to records, names
 * to enums...).
 *
 * <p>Immutable and thread-safe.
 */
public final class ToolArguments {
  private final Map<String, Object> values;

  private ToolArguments(Map<String, Object> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  /**
   * Wraps the arguments of a function call.
   *
   * @param args the call's args, may be null
   * @return the arguments
   */
  public static ToolArguments of(Struct args) {
    return new ToolArguments(Values.toMap(args));
  }

  /** Returns the arguments as JSON values (null, Boolean, Double, String, List, Map). */
  public Map<String, Object> asMap() {
    return values;
  }

  /** Tells whether the argument was given (even as null). */
  public boolean has(String name) {
    return values.containsKey(name);
  }

  /**
   * Returns an argument bound to a type.
   *
   * @param name the argument name
   * @param type the class to bind to
   * @param <T> the type
   * @return the value, or null when absent (for a primitive class: an exception)
   * @throws IllegalArgumentException when the value does not fit the type
   */
  public <T> T get(String name, Class<T> type) {
    @SuppressWarnings("unchecked")
    T v = (T) ValueBinder.bind(values.get(name), type, name);
    return v;
  }

  /**
   * Returns an argument bound to a generic type, e.g. {@code List<Integer>}.
   *
   * @param name the argument name
   * @param type the type
   * @return the value, or null when absent
   * @throws IllegalArgumentException when the value does not fit the type
   */
  public Object get(String name, Type type) {
    return ValueBinder.bind(values.get(name), type, name);
  }

  /**
   * Returns a string argument; numbers and booleans are given as text.
   *
   * @throws IllegalArgumentException when the value is an object or array
   */
  public String getString(String name) {
    return get(name, String.class);
  }

  /**
   * Returns an integer argument.
   *
   * @throws IllegalArgumentException when absent, fractional or out of range
   */
  public int getInt(String name) {
    return get(name, int.class);
  }

  /**
   * Returns a long argument.
   *
   * @throws IllegalArgumentException when absent, fractional or out of range
   */
  public long getLong(String name) {
    return get(name, long.class);
  }

  /**
   * Returns a number argument.
   *
   * @throws IllegalArgumentException when absent or not a number
   */
  public double getDouble(String name) {
    return get(name, double.class);
  }

  /**
   * Returns a boolean argument.
   *
   * @throws IllegalArgumentException when absent or not a boolean
   */
  public boolean getBoolean(String name) {
    return get(name, boolean.class);
  }

  /**
   * Binds all the arguments to one type, e.g. a record with a component per argument.
   *
   * @param type the class
   * @param <T> the type
   * @return the bound value
   * @throws IllegalArgumentException when the arguments do not fit the type
   */
  public <T> T as(Class<T> type) {
    @SuppressWarnings("unchecked")
    T v = (T) ValueBinder.bind(values, type, "args");
    return v;
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
