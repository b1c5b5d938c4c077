package dev.agentsvc.client;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Derives JSON schemas, as tools declare their parameters, from Java types.
 *
 * <table>
 *   <caption>Java types and their schemas</caption>
 *   <tr><th>Java</th><th>schema</th></tr>
 *   <tr><td>String, char, UUID, java.time values, byte[]</td><td>{@code {"type": "string"}}</td></tr>
 *   <tr><td>boolean</td><td>{@code {"type": "boolean"}}</td></tr>
 *   <tr><td>byte, short, int, long, BigInteger (and boxes)</td><td>{@code {"type": "integer"}}</td></tr>
 *   <tr><td>float, double, BigDecimal, Number (and boxes)</td><td>{@code {"type": "number"}}</td></tr>
 *   <tr><td>an enum</td><td>{@code {"type": "string", "enum": [constant names]}}</td></tr>
 *   <tr><td>arrays, Collection, Iterable</td><td>{@code {"type": "array", "items": element}}</td></tr>
 *   <tr><td>Map&lt;String, V&gt;</td><td>{@code {"type": "object", "additionalProperties": V}}
 *       ({@code {"type": "object"}} for Object values)</td></tr>
 *   <tr><td>a record</td><td>an object of its components</td></tr>
 *   <tr><td>another class</td><td>an object of its public fields and setters</td></tr>
 *   <tr><td>Optional&lt;T&gt;</td><td>T's schema; not required</td></tr>
 *   <tr><td>Object, protobuf Value</td><td>{@code {}} (any value)</td></tr>
 * </table>
 *
 * <p>Properties and parameters are required unless they are Optionals, carry {@code @Param(required
 * = false)} or a {@code @Nullable} annotation; {@link Param} also gives descriptions. A type that
 * contains itself is cut off with {@code {"type": "object"}} where it recurs.
 *
 * <p>Schemas are returned as insertion-ordered maps: stable, readable, and converted to the
 * API's {@link Struct} by {@link Values#toStruct}. All methods are stateless and thread-safe.
 */
public final class JsonSchemas {
  private JsonSchemas() {}

  /**
   * Returns the schema of a Java type.
   *
   * @param type a class or generic type, e.g. from {@code Method.getGenericParameterTypes()}
   * @return the schema
   */
  public static Map<String, Object> of(Type type) {
    return schema(type, new ArrayDeque<>());
  }

  /**
   * Returns the parameters schema of a tool method: an object with one property per parameter
   * (a {@link ToolContext} parameter excluded) and the names of the required ones, or null when
   * the method takes no such parameter (tools without parameters declare none).
   *
   * @param method the method
   * @return the schema, or null
   * @throws IllegalArgumentException when a parameter has no name: neither a {@link Param#name()}
   *     nor a compiled-in name ({@code javac -parameters})
   */
  public static Map<String, Object> ofParameters(Method method) {
    Map<String, Object> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    for (Parameter p : method.getParameters()) {
      if (p.getType() == ToolContext.class) {
        continue;
      }
      String name = parameterName(method, p);
      Map<String, Object> s = withDescription(of(p.getParameterizedType()), JavaTypes.param(p));
      properties.put(name, s);
      if (JavaTypes.required(p.getParameterizedType(), p)) {
        required.add(name);
      }
    }
    if (properties.isEmpty()) {
      return null;
    }
    return object(properties, required);
  }

  /** Returns the schema name of a tool method's parameter. */
  static String parameterName(Method method, Parameter p) {
    Param param = p.getAnnotation(Param.class);
    if (param != null && !param.name().isEmpty()) {
      return param.name();
    }
    if (!p.isNamePresent()) {
      throw new IllegalArgumentException("parameter " + p.getName() + " of " + method
          + " has no name: compile with -parameters or give @Param(name = ...)");
    }
    return p.getName();
  }

  private static Map<String, Object> schema(Type type, Deque<Class<?>> path) {
    Class<?> c = JavaTypes.raw(type);
    if (JavaTypes.isOptional(c)) {
      if (c == OptionalInt.class || c == OptionalLong.class) {
        return typed("integer");
      }
      if (c == OptionalDouble.class) {
        return typed("number");
      }
      return schema(JavaTypes.argument(type, 0), path);
    }
    if (c == boolean.class || c == Boolean.class) {
      return typed("boolean");
    }
    if (JavaTypes.isInteger(c)) {
      return typed("integer");
    }
    if (JavaTypes.isNumber(c)) {
      return typed("number");
    }
    if (CharSequence.class.isAssignableFrom(c) || c == char.class || c == Character.class
        || c == UUID.class || TemporalAccessor.class.isAssignableFrom(c) || c == byte[].class) {
      return typed("string");
    }
    if (c.isEnum()) {
      List<String> names = new ArrayList<>();
      for (Object constant : c.getEnumConstants()) {
        names.add(((Enum<?>) constant).name());
      }
      Map<String, Object> s = typed("string");
      s.put("enum", names);
      return s;
    }
    if (c == Object.class || c == Value.class) {
      return new LinkedHashMap<>();
    }
    if (c == Struct.class) {
      return typed("object");
    }
    if (c == ListValue.class) {
      return typed("array");
    }
    if (c.isArray()) {
      return array(schema(JavaTypes.component(type), path));
    }
    if (Collection.class.isAssignableFrom(c) || c == Iterable.class) {
      return array(schema(JavaTypes.argument(type, 0), path));
    }
    if (Map.class.isAssignableFrom(c)) {
      Map<String, Object> s = typed("object");
      Type values = JavaTypes.argument(type, 1);
      if (JavaTypes.raw(values) != Object.class) {
        s.put("additionalProperties", schema(values, path));
      }
      return s;
    }
    if (path.contains(c)) {
      return typed("object");
    }
    path.push(c);
    try {
      return c.isRecord() ? record(c, path) : bean(c, path);
    } finally {
      path.pop();
    }
  }

  private static Map<String, Object> record(Class<?> c, Deque<Class<?>> path) {
    Map<String, Object> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    for (RecordComponent rc : c.getRecordComponents()) {
      Param param = JavaTypes.param(rc);
      String name = param != null && !param.name().isEmpty() ? param.name() : rc.getName();
      properties.put(name, withDescription(schema(rc.getGenericType(), path), param));
      if (JavaTypes.required(rc.getGenericType(), rc)) {
        required.add(name);
      }
    }
    return object(properties, required);
  }

  private static Map<String, Object> bean(Class<?> c, Deque<Class<?>> path) {
    Map<String, Object> properties = new LinkedHashMap<>();
    List<String> required = new ArrayList<>();
    for (BeanProperties.Property p : BeanProperties.of(c)) {
      if (!p.writable()) {
        continue;
      }
      Param param = p.annotation(Param.class);
      String name = param != null && !param.name().isEmpty() ? param.name() : p.name();
      properties.put(name, withDescription(schema(p.type(), path), param));
      if (JavaTypes.required(p.type(), p.field(), p.getter(), p.setter())) {
        required.add(name);
      }
    }
    return object(properties, required);
  }

  private static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
    Map<String, Object> s = typed("object");
    s.put("properties", properties);
    if (!required.isEmpty()) {
      s.put("required", required);
    }
    return s;
  }

  private static Map<String, Object> array(Map<String, Object> items) {
    Map<String, Object> s = typed("array");
    s.put("items", items);
    return s;
  }

  private static Map<String, Object> typed(String type) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("type", type);
    return s;
  }

  private static Map<String, Object> withDescription(Map<String, Object> schema, Param param) {
    if (param != null && !param.value().isEmpty()) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("type", schema.get("type"));
      s.put("description", param.value());
      schema.forEach(s::putIfAbsent);
      if (s.get("type") == null) {
        s.remove("type");
      }
      return s;
    }
    return schema;
  }
}
