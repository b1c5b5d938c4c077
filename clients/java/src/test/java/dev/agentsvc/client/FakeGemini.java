package dev.agentsvc.client;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The control API of the scripted Gemini server the live stack runs: scripts answers, adds
 * latency, and reads the model requests it recorded.
 */
final class FakeGemini {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;

  FakeGemini(String base) {
    this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }

  /** Forgets queued answers, rules, faults, latency and recorded requests. */
  void reset() {
    post("/_fake/reset", Map.of());
  }

  /** Queues model answers, used once each in order. */
  void script(List<Map<String, Object>> responses) {
    post("/_fake/script", Map.of("responses", responses));
  }

  /** Delays every answer, e.g. "2s". */
  void latency(String duration) {
    post("/_fake/faults", Map.of("latency", duration));
  }

  /** Returns the recorded model requests as JSON values. */
  List<Object> requests() {
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/_fake/requests"))
        .timeout(Duration.ofSeconds(10)).GET().build();
    Object list = Values.toJava(parse(send(req)));
    return list instanceof List<?> l ? new ArrayList<>(l) : List.of();
  }

  /** Returns a model answer that calls functions, each given as name then args. */
  static Map<String, Object> functionCalls(Object... nameThenArgs) {
    List<Object> parts = new ArrayList<>();
    for (int i = 0; i < nameThenArgs.length; i += 2) {
      parts.add(Map.of("functionCall", Map.of("name", nameThenArgs[i], "args", nameThenArgs[i + 1])));
    }
    return answer(parts);
  }

  /** Returns a model answer of one text part. */
  static Map<String, Object> text(String text) {
    return answer(List.of(Map.of("text", text)));
  }

  private static Map<String, Object> answer(List<Object> parts) {
    return Map.of("response", Map.of("candidates", List.of(Map.of(
        "content", Map.of("role", "model", "parts", parts),
        "finishReason", "STOP"))));
  }

  private void post(String path, Map<String, ?> body) {
    String json;
    try {
      json = JsonFormat.printer().print(Values.toValue(body));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(e);
    }
    HttpRequest req = HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
    send(req);
  }

  private String send(HttpRequest req) {
    try {
      HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
      if (resp.statusCode() != 200) {
        throw new IllegalStateException(req.uri() + ": HTTP " + resp.statusCode() + ": " + resp.body());
      }
      return resp.body();
    } catch (IOException e) {
      throw new IllegalStateException(req.uri() + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Value parse(String json) {
    Value.Builder b = Value.newBuilder();
    try {
      JsonFormat.parser().merge(json, b);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("not JSON: " + json, e);
    }
    return b.build();
  }
}
