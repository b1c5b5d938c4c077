package dev.agentsvc.client;

import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Converts between plain Java values and the JSON values of the API ({@link Value}, {@link
 * Struct}).
 *
 * <p>Java to JSON: null, booleans, numbers, strings, characters, enums (by name), {@link Optional}
 * (unwrapped), maps (keys by {@code String.valueOf}), iterables and arrays, byte arrays (base64),
 * UUIDs and {@code java.time} values (by {@code toString}), records (by component) and other
 * objects (by public getters and public fields). Protobuf {@code Value}, {@code Struct} and
 * {@code ListValue} pass through. Numbers become JSON numbers, i.e. doubles: integers beyond
 * 2<sup>53</sup> lose precision.
 *
 * <p>JSON to Java: null, {@link Boolean}, {@link Double}, {@link String}, {@code List<Object>} and
 * {@code Map<String, Object>} (insertion-ordered, mutable).
 *
 * <p>All methods are stateless and safe to call from any thread.
 */
public final class Values {
  private static final int MAX_DEPTH = 64;

  private Values() {}

  /**
   * Converts a Java value to a JSON value.
   *
   * @param value the value, may be null
   * @return the JSON value
   * @throws IllegalArgumentException when the value nests deeper than 64 levels (a cycle)
   */
  public static Value toValue(Object value) {
    return toValue(value, 0);
  }

  /**
   * Converts a map to a JSON object.
   *
   * @param map the map, may be null (an empty object)
   * @return the object
   */
  public static Struct toStruct(Map<String, ?> map) {
    if (map == null) {
      return Struct.getDefaultInstance();
    }
    return toStruct(map, 0);
  }

  /**
   * Converts a JSON value to plain Java values.
   *
   * @param value the value, may be null (null)
   * @return null, a Boolean, Double, String, List or Map
   */
  public static Object toJava(Value value) {
    if (value == null) {
      return null;
    }
    return switch (value.getKindCase()) {
      case NULL_VALUE, KIND_NOT_SET -> null;
      case BOOL_VALUE -> value.getBoolValue();
      case NUMBER_VALUE -> value.getNumberValue();
      case STRING_VALUE -> value.getStringValue();
      case LIST_VALUE -> toList(value.getListValue());
      case STRUCT_VALUE -> toMap(value.getStructValue());
    };
  }

  /**
   * Converts a JSON object to a map.
   *
   * @param struct the object, may be null (an empty map)
   * @return a mutable, insertion-ordered map
   */
  public static Map<String, Object> toMap(Struct struct) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (struct != null) {
      struct.getFieldsMap().forEach((k, v) -> out.put(k, toJava(v)));
    }
    return out;
  }

  private static List<Object> toList(ListValue list) {
    List<Object> out = new ArrayList<>(list.getValuesCount());
    for (Value v : list.getValuesList()) {
      out.add(toJava(v));
    }
    return out;
  }

  private static Value toValue(Object value, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("value nests deeper than " + MAX_DEPTH + " levels");
    }
    if (value instanceof Optional<?> opt) {
      value = opt.orElse(null);
    }
    if (value == null) {
      return Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
    }
    if (value instanceof Value v) {
      return v;
    }
    if (value instanceof Struct s) {
      return Value.newBuilder().setStructValue(s).build();
    }
    if (value instanceof ListValue l) {
      return Value.newBuilder().setListValue(l).build();
    }
    if (value instanceof NullValue) {
      return Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
    }
    if (value instanceof Boolean b) {
      return Value.newBuilder().setBoolValue(b).build();
    }
    if (value instanceof Number n) {
      return Value.newBuilder().setNumberValue(number(n)).build();
    }
    if (value instanceof CharSequence || value instanceof Character
        || value instanceof UUID || value instanceof TemporalAccessor) {
      return Value.newBuilder().setStringValue(value.toString()).build();
    }
    if (value instanceof Enum<?> e) {
      return Value.newBuilder().setStringValue(e.name()).build();
    }
    if (value instanceof byte[] bytes) {
      return Value.newBuilder().setStringValue(Base64.getEncoder().encodeToString(bytes)).build();
    }
    if (value instanceof Map<?, ?> map) {
      return Value.newBuilder().setStructValue(toStruct(map, depth + 1)).build();
    }
    if (value instanceof Iterable<?> it) {
      ListValue.Builder list = ListValue.newBuilder();
      for (Object e : it) {
        list.addValues(toValue(e, depth + 1));
      }
      return Value.newBuilder().setListValue(list).build();
    }
    if (value.getClass().isArray()) {
      ListValue.Builder list = ListValue.newBuilder();
      for (int i = 0, n = Array.getLength(value); i < n; i++) {
        list.addValues(toValue(Array.get(value, i), depth + 1));
      }
      return Value.newBuilder().setListValue(list).build();
    }
    return Value.newBuilder().setStructValue(toStruct(properties(value), depth + 1)).build();
  }

  private static Struct toStruct(Map<?, ?> map, int depth) {
    Struct.Builder out = Struct.newBuilder();
    map.forEach((k, v) -> out.putFields(String.valueOf(k), toValue(v, depth + 1)));
    return out.build();
  }

  private static double number(Number n) {
    if (n instanceof BigDecimal d) {
      return d.doubleValue();
    }
    if (n instanceof BigInteger i) {
      return i.doubleValue();
    }
    return n.doubleValue();
  }

  /** Reads a record's components, or an object's public getters and fields, in order. */
  private static Map<String, Object> properties(Object value) {
    Class<?> type = value.getClass();
    Map<String, Object> out = new LinkedHashMap<>();
    try {
      if (type.isRecord()) {
        for (RecordComponent c : type.getRecordComponents()) {
          Method accessor = c.getAccessor();
          accessor.setAccessible(true);
          out.put(c.getName(), accessor.invoke(value));
        }
        return out;
      }
      for (BeanProperties.Property p : BeanProperties.of(type)) {
        if (p.readable()) {
          out.put(p.name(), p.read(value));
        }
      }
      return out;
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalArgumentException("cannot read " + type.getName() + ": " + e, e);
    }
  }
}
