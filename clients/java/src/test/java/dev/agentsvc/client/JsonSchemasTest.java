package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JsonSchemasTest {
  enum Unit { CELSIUS, FAHRENHEIT }

  record Place(@Param("The city name.") String city, Optional<String> country) {}

  record Trip(Place from, List<Place> stops, @Param(required = false) Integer days) {}

  record Node(String name, List<Node> children) {}

  static class Options {
    public boolean verbose;
    private int limit;

    public void setLimit(int limit) {
      this.limit = limit;
    }

    public int getLimit() {
      return limit;
    }
  }

  @SuppressWarnings("unused")
  static class Tools {
    void scalars(String s, int i, long l, double d, float f, boolean b, BigDecimal big, char c) {}

    void containers(List<String> names, Set<Integer> ids, int[] counts, Map<String, Double> scores,
        Map<String, Object> anything, Object any) {}

    void optional(@Param(value = "How many days.", name = "days") Optional<Integer> n,
        @Param(required = false) String note, ToolContext context) {}

    void none(ToolContext context) {}

    void unnamed(@Param(name = "q") String query) {}
  }

  private static Map<String, Object> schema(Type t) {
    return JsonSchemas.of(t);
  }

  private static Method method(String name) {
    for (Method m : Tools.class.getDeclaredMethods()) {
      if (m.getName().equals(name)) {
        return m;
      }
    }
    throw new AssertionError(name);
  }

  @Test
  void scalarTypes() {
    Map<String, Object> s = JsonSchemas.ofParameters(method("scalars"));
    assertEquals(Map.of(
        "type", "object",
        "properties", Map.of(
            "s", Map.of("type", "string"),
            "i", Map.of("type", "integer"),
            "l", Map.of("type", "integer"),
            "d", Map.of("type", "number"),
            "f", Map.of("type", "number"),
            "b", Map.of("type", "boolean"),
            "big", Map.of("type", "number"),
            "c", Map.of("type", "string")),
        "required", List.of("s", "i", "l", "d", "f", "b", "big", "c")), s);
  }

  @Test
  void containerTypes() {
    Map<String, Object> s = JsonSchemas.ofParameters(method("containers"));
    assertEquals(Map.of(
        "names", Map.of("type", "array", "items", Map.of("type", "string")),
        "ids", Map.of("type", "array", "items", Map.of("type", "integer")),
        "counts", Map.of("type", "array", "items", Map.of("type", "integer")),
        "scores", Map.of("type", "object", "additionalProperties", Map.of("type", "number")),
        "anything", Map.of("type", "object"),
        "any", Map.of()), s.get("properties"));
  }

  @Test
  void optionalParametersAndContext() {
    Map<String, Object> s = JsonSchemas.ofParameters(method("optional"));
    assertEquals(Map.of(
        "type", "object",
        "properties", Map.of(
            "days", Map.of("type", "integer", "description", "How many days."),
            "note", Map.of("type", "string"))), s);
    assertEquals(List.of("days", "note"), List.copyOf(((Map<?, ?>) s.get("properties")).keySet()),
        "properties keep the parameters' order");
  }

  @Test
  void noParametersDeclaresNone() {
    assertNull(JsonSchemas.ofParameters(method("none")));
  }

  @Test
  void enumsRecordsAndBeans() {
    assertEquals(Map.of("type", "string", "enum", List.of("CELSIUS", "FAHRENHEIT")),
        schema(Unit.class));
    Map<String, Object> place = Map.of(
        "type", "object",
        "properties", Map.of(
            "city", Map.of("type", "string", "description", "The city name."),
            "country", Map.of("type", "string")),
        "required", List.of("city"));
    assertEquals(place, schema(Place.class));
    assertEquals(Map.of(
        "type", "object",
        "properties", Map.of(
            "from", place,
            "stops", Map.of("type", "array", "items", place),
            "days", Map.of("type", "integer")),
        "required", List.of("from", "stops")), schema(Trip.class));
    assertEquals(Map.of(
        "type", "object",
        "properties", Map.of(
            "verbose", Map.of("type", "boolean"),
            "limit", Map.of("type", "integer")),
        "required", List.of("verbose", "limit")), schema(Options.class));
  }

  @Test
  void recursiveTypesAreCutOff() {
    assertEquals(Map.of(
        "type", "object",
        "properties", Map.of(
            "name", Map.of("type", "string"),
            "children", Map.of("type", "array", "items", Map.of("type", "object"))),
        "required", List.of("name", "children")), schema(Node.class));
  }

  @Test
  void parameterNamesComeFromParamOrTheCompiler() {
    Map<String, Object> s = JsonSchemas.ofParameters(method("unnamed"));
    assertEquals(Map.of("q", Map.of("type", "string")), s.get("properties"));
  }

  @Test
  void snakeCaseToolNames() {
    assertEquals("get_weather", FunctionTool.snakeCase("getWeather"));
    assertEquals("get_air_quality", FunctionTool.snakeCase("getAirQuality"));
    assertEquals("parse_url", FunctionTool.snakeCase("parseURL"));
    assertEquals("get_url_info", FunctionTool.snakeCase("getURLInfo"));
    assertEquals("lookup", FunctionTool.snakeCase("lookup"));
    assertEquals("already_snake", FunctionTool.snakeCase("already_snake"));
  }

  @Test
  void duplicateToolNamesAreRejected() {
    class Twice {
      @Tool(name = "t")
      public String a() {
        return "a";
      }

      @Tool(name = "t")
      public String b() {
        return "b";
      }
    }
    assertThrows(IllegalArgumentException.class, () -> FunctionTool.fromMethods(new Twice()));
    assertThrows(IllegalArgumentException.class, () -> FunctionTool.fromMethods(new Object()));
  }
}
