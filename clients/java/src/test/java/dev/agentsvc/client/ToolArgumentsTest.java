package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ToolArgumentsTest {
  enum Unit { CELSIUS, FAHRENHEIT }

  record Place(String city, Optional<String> country) {}

  record Query(Place place, int days, Unit unit, List<String> tags) {}

  public static class Bean {
    public String name;
    public int count;
  }

  private static ToolArguments args(Map<String, ?> map) {
    return ToolArguments.of(Values.toStruct(map));
  }

  @Test
  void bindsScalarsLikeAModelSendsThem() {
    ToolArguments a = args(Map.of("n", 3, "s", "x", "b", true, "f", 2.5, "ns", "7", "sn", 12));
    assertEquals(3, a.getInt("n"));
    assertEquals(3L, a.getLong("n"));
    assertEquals(2.5, a.getDouble("f"));
    assertEquals("x", a.getString("s"));
    assertTrue(a.getBoolean("b"));
    assertEquals(7, a.getInt("ns"), "numbers given as strings");
    assertEquals("12", a.getString("sn"), "integral numbers given for strings");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> a.getInt("f"));
    assertEquals("f: expected an integer, got 2.5", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> a.getInt("missing"));
    assertEquals(null, a.getString("missing"));
  }

  @Test
  void bindsRecordsEnumsAndCollections() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("place", Map.of("city", "Paris"));
    json.put("days", 2.0);
    json.put("unit", "celsius");
    json.put("tags", List.of("a", "b"));
    Query q = args(json).as(Query.class);
    assertEquals(new Query(new Place("Paris", Optional.empty()), 2, Unit.CELSIUS, List.of("a", "b")),
        q);
    assertEquals(Set.of(1, 2), args(Map.of("ids", List.of(1, 2, 2))).get("ids",
        new TypeOf<Set<Integer>>() {}.type()));
    assertArrayEquals(new int[] {1, 2}, args(Map.of("v", List.of(1, 2))).get("v", int[].class));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> args(Map.of("place", Map.of())).get("place", Place.class));
    assertEquals("place.city: missing required value", e.getMessage());
  }

  @Test
  void bindsBeans() {
    Bean b = args(Map.of("name", "n", "count", 4)).as(Bean.class);
    assertEquals("n", b.name);
    assertEquals(4, b.count);
  }

  @Test
  void valuesRoundTrip() {
    record Reading(String city, double celsius, Unit unit, List<Integer> hours) {}
    Value v = Values.toValue(new Reading("Oslo", -3.5, Unit.CELSIUS, List.of(1, 2)));
    assertEquals(Map.of("city", "Oslo", "celsius", -3.5, "unit", "CELSIUS",
        "hours", List.of(1.0, 2.0)), Values.toJava(v));
    assertEquals(Value.KindCase.NULL_VALUE, Values.toValue(null).getKindCase());
    assertEquals(Value.KindCase.NULL_VALUE, Values.toValue(Optional.empty()).getKindCase());
    assertEquals("c3Vu", Values.toValue("sun".getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .getStringValue());
    Struct s = Values.toStruct(Map.of("k", Map.of("n", 1)));
    assertEquals(1.0, s.getFieldsOrThrow("k").getStructValue().getFieldsOrThrow("n").getNumberValue());
  }

  /** Captures a generic type. */
  abstract static class TypeOf<T> {
    java.lang.reflect.Type type() {
      return ((java.lang.reflect.ParameterizedType) getClass().getGenericSuperclass())
          .getActualTypeArguments()[0];
    }
  }
}
