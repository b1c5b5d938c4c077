package dev.agentsvc.client;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Binds JSON values, as {@link Values#toJava} returns them, to Java types: the inverse of {@link
 * JsonSchemas}. Lenient where models are: numbers given as strings and strings given as numbers
 * are accepted, integral doubles become integers, enum names match case-insensitively. Whatever
 * cannot be bound is an {@link IllegalArgumentException} whose message names the value's path,
 * which the model sees as the tool's error.
 */
final class ValueBinder {
  private ValueBinder() {}

  /**
   * Converts a JSON value to a Java type.
   *
   * @param json null, Boolean, Double, String, List or Map
   * @param type the target type
   * @param path where the value is, for messages
   * @return the bound value
   */
  static Object bind(Object json, Type type, String path) {
    Class<?> c = JavaTypes.raw(type);
    if (c == Optional.class) {
      return Optional.ofNullable(bind(json, JavaTypes.argument(type, 0), path));
    }
    if (c == OptionalInt.class) {
      return json == null ? OptionalInt.empty() : OptionalInt.of((Integer) bind(json, int.class, path));
    }
    if (c == OptionalLong.class) {
      return json == null ? OptionalLong.empty() : OptionalLong.of((Long) bind(json, long.class, path));
    }
    if (c == OptionalDouble.class) {
      return json == null ? OptionalDouble.empty()
          : OptionalDouble.of((Double) bind(json, double.class, path));
    }
    if (json == null) {
      if (c.isPrimitive()) {
        throw new IllegalArgumentException(path + ": missing value for " + c.getName());
      }
      return null;
    }
    if (c == Object.class) {
      return json;
    }
    if (c == Value.class) {
      return Values.toValue(json);
    }
    if (c == Struct.class) {
      return Values.toValue(json).getStructValue();
    }
    if (c == ListValue.class) {
      return Values.toValue(json).getListValue();
    }
    if (c == boolean.class || c == Boolean.class) {
      return bool(json, path);
    }
    if (JavaTypes.isInteger(c) || JavaTypes.isNumber(c)) {
      return number(json, c, path);
    }
    if (c == String.class || c == CharSequence.class) {
      if (json instanceof Map || json instanceof List) {
        throw mismatch(path, json, "a string");
      }
      return json instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15
          ? Long.toString(d.longValue()) : json.toString();
    }
    if (c == char.class || c == Character.class) {
      String s = json.toString();
      if (s.length() != 1) {
        throw mismatch(path, json, "one character");
      }
      return s.charAt(0);
    }
    if (c == UUID.class) {
      try {
        return UUID.fromString(json.toString());
      } catch (IllegalArgumentException e) {
        throw mismatch(path, json, "a UUID");
      }
    }
    if (c == byte[].class) {
      try {
        return Base64.getDecoder().decode(json.toString());
      } catch (IllegalArgumentException e) {
        throw mismatch(path, json, "base64 data");
      }
    }
    if (c.isEnum()) {
      return enumConstant(c, json, path);
    }
    if (c.isArray()) {
      List<?> list = list(json, path);
      Type element = JavaTypes.component(type);
      Object array = Array.newInstance(JavaTypes.raw(element), list.size());
      for (int i = 0; i < list.size(); i++) {
        Array.set(array, i, bind(list.get(i), element, path + "[" + i + "]"));
      }
      return array;
    }
    if (Collection.class.isAssignableFrom(c) || c == Iterable.class) {
      return collection(json, type, c, path);
    }
    if (Map.class.isAssignableFrom(c)) {
      Map<String, Object> out = new LinkedHashMap<>();
      Type values = JavaTypes.argument(type, 1);
      map(json, path).forEach((k, v) -> out.put(k, bind(v, values, path + "." + k)));
      return out;
    }
    if (c.isRecord()) {
      return record(c, map(json, path), path);
    }
    return bean(c, map(json, path), path);
  }

  private static Boolean bool(Object json, String path) {
    if (json instanceof Boolean b) {
      return b;
    }
    if (json instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
      return Boolean.parseBoolean(s);
    }
    throw mismatch(path, json, "a boolean");
  }

  private static Object number(Object json, Class<?> c, String path) {
    BigDecimal d;
    try {
      if (json instanceof Double x) {
        if (x.isNaN() || x.isInfinite()) {
          throw mismatch(path, json, "a finite number");
        }
        d = BigDecimal.valueOf(x);
      } else if (json instanceof Number n) {
        d = new BigDecimal(n.toString());
      } else if (json instanceof String s) {
        d = new BigDecimal(s.trim());
      } else {
        throw mismatch(path, json, "a number");
      }
    } catch (NumberFormatException e) {
      throw mismatch(path, json, "a number");
    }
    if (c == double.class || c == Double.class || c == Number.class) {
      return d.doubleValue();
    }
    if (c == float.class || c == Float.class) {
      return d.floatValue();
    }
    if (c == BigDecimal.class) {
      return d;
    }
    BigInteger i;
    try {
      i = d.toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw mismatch(path, json, "an integer");
    }
    if (c == BigInteger.class) {
      return i;
    }
    try {
      if (c == long.class || c == Long.class) {
        return i.longValueExact();
      }
      if (c == int.class || c == Integer.class) {
        return i.intValueExact();
      }
      if (c == short.class || c == Short.class) {
        return i.shortValueExact();
      }
      return i.byteValueExact();
    } catch (ArithmeticException e) {
      throw mismatch(path, json, "an integer in the range of " + c.getSimpleName());
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object enumConstant(Class<?> c, Object json, String path) {
    String name = json.toString();
    for (Object constant : c.getEnumConstants()) {
      if (((Enum) constant).name().equals(name)) {
        return constant;
      }
    }
    for (Object constant : c.getEnumConstants()) {
      if (((Enum) constant).name().equalsIgnoreCase(name)) {
        return constant;
      }
    }
    throw mismatch(path, json, "one of " + EnumSet.allOf((Class) c));
  }

  private static Collection<Object> collection(Object json, Type type, Class<?> c, String path) {
    Collection<Object> out;
    if (c.isAssignableFrom(ArrayList.class)) {
      out = new ArrayList<>();
    } else if (c.isAssignableFrom(LinkedHashSet.class)) {
      out = new LinkedHashSet<>();
    } else if (c.isAssignableFrom(TreeSet.class) || c == SortedSet.class) {
      out = new TreeSet<>();
    } else {
      throw new IllegalArgumentException(path + ": unsupported collection type " + c.getName());
    }
    Type element = JavaTypes.argument(type, 0);
    List<?> list = list(json, path);
    for (int i = 0; i < list.size(); i++) {
      out.add(bind(list.get(i), element, path + "[" + i + "]"));
    }
    return out;
  }

  private static Object record(Class<?> c, Map<String, Object> json, String path) {
    RecordComponent[] components = c.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent rc = components[i];
      Param param = JavaTypes.param(rc);
      String name = param != null && !param.name().isEmpty() ? param.name() : rc.getName();
      types[i] = rc.getType();
      Object v = json.get(name);
      if (v == null && JavaTypes.required(rc.getGenericType(), rc)
          && !JavaTypes.isOptional(rc.getType())) {
        throw new IllegalArgumentException(path + "." + name + ": missing required value");
      }
      args[i] = bind(v, rc.getGenericType(), path + "." + name);
    }
    try {
      Constructor<?> ctor = c.getDeclaredConstructor(types);
      ctor.setAccessible(true);
      return ctor.newInstance(args);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException(path + ": " + e.getCause().getMessage(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(path + ": cannot construct " + c.getName(), e);
    }
  }

  private static Object bean(Class<?> c, Map<String, Object> json, String path) {
    Object target;
    try {
      Constructor<?> ctor = c.getDeclaredConstructor();
      ctor.setAccessible(true);
      target = ctor.newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(
          path + ": " + c.getName() + " needs a no-argument constructor to be bound", e);
    }
    for (BeanProperties.Property p : BeanProperties.of(c)) {
      if (!p.writable()) {
        continue;
      }
      Param param = p.annotation(Param.class);
      String name = param != null && !param.name().isEmpty() ? param.name() : p.name();
      if (!json.containsKey(name)) {
        continue;
      }
      try {
        p.write(target, bind(json.get(name), p.type(), path + "." + name));
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalArgumentException(path + "." + name + ": cannot set", e);
      }
    }
    return target;
  }

  private static List<?> list(Object json, String path) {
    if (json instanceof List<?> l) {
      return l;
    }
    throw mismatch(path, json, "an array");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object json, String path) {
    if (json instanceof Map<?, ?> m) {
      return (Map<String, Object>) m;
    }
    throw mismatch(path, json, "an object");
  }

  private static IllegalArgumentException mismatch(String path, Object json, String want) {
    String got = json instanceof String s ? '"' + s + '"' : String.valueOf(json);
    if (got.length() > 80) {
      got = got.substring(0, 77) + "...";
    }
    return new IllegalArgumentException(path + ": expected " + want + ", got " + got);
  }
}
