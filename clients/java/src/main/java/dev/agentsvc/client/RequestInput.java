package dev.agentsvc.client;

import com.google.protobuf.Value;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Objects;

/**
 * A request for the user's input from a workflow node, as ADK's {@code RequestInput}: a node that
 * returns one (or a collection of them) pauses the workflow; the user sees an {@code
 * adk_request_input} function call (see {@link RequestInputs}) and resumes it by answering that
 * call, and the answer becomes the node's output.
 *
 * <pre>{@code
 * return RequestInput.builder()
 *     .message("Approve the order?")
 *     .payload(nodeInput)
 *     .responseSchema(Approval.class)   // or a JSON schema as a Map
 *     .build();
 * }</pre>
 *
 * <p>{@code dev.agentsvc.v1} has a message named {@code RequestInput} too: when you import both
 * packages with {@code *}, import this class by name. Instances are immutable and thread-safe.
 */
public final class RequestInput {
  private final dev.agentsvc.v1.RequestInput proto;

  private RequestInput(dev.agentsvc.v1.RequestInput proto) {
    this.proto = proto;
  }

  /** Returns a request with a message for the user and nothing else. */
  public static RequestInput of(String message) {
    return builder().message(message).build();
  }

  /** Starts a request. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns the interrupt id, or an empty string when the service is to make one. */
  public String interruptId() {
    return proto.getInterruptId();
  }

  /** Returns the message for the user, or an empty string. */
  public String message() {
    return proto.getMessage();
  }

  /** Returns the payload as JSON values, or null. */
  public Object payload() {
    return proto.hasPayload() ? Values.toJava(proto.getPayload()) : null;
  }

  /** Returns the JSON schema the answer must match as JSON values, or null. */
  public Object responseSchema() {
    return proto.hasResponseSchema() ? Values.toJava(proto.getResponseSchema()) : null;
  }

  /** Returns the message sent to the service. */
  public dev.agentsvc.v1.RequestInput toProto() {
    return proto;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RequestInput r && r.proto.equals(proto);
  }

  @Override
  public int hashCode() {
    return proto.hashCode();
  }

  @Override
  public String toString() {
    return "RequestInput[" + proto.getInterruptId() + ": " + proto.getMessage() + "]";
  }

  /** Builds a {@link RequestInput}. Not thread-safe. */
  public static final class Builder {
    private final dev.agentsvc.v1.RequestInput.Builder proto =
        dev.agentsvc.v1.RequestInput.newBuilder();

    private Builder() {}

    /**
     * Sets the interrupt id; by default the service makes one (a uuid4). A stable id lets the
     * same logical question be asked again, e.g. after a rejection.
     */
    public Builder interruptId(String interruptId) {
      proto.setInterruptId(Objects.requireNonNull(interruptId, "interruptId"));
      return this;
    }

    /** Sets the message shown to the user. */
    public Builder message(String message) {
      proto.setMessage(Objects.requireNonNull(message, "message"));
      return this;
    }

    /**
     * Sets data for the user interface, e.g. what is to be approved.
     *
     * @param payload any value {@link Values#toValue} encodes; null for none
     */
    public Builder payload(Object payload) {
      if (payload == null) {
        proto.clearPayload();
      } else {
        proto.setPayload(Values.toValue(payload));
      }
      return this;
    }

    /**
     * Sets the JSON schema the answer must match.
     *
     * @param schema the schema as JSON values, e.g. {@code Map.of("type", "object", ...)}
     */
    public Builder responseSchema(Map<String, ?> schema) {
      proto.setResponseSchema(Values.toValue(Objects.requireNonNull(schema, "schema")));
      return this;
    }

    /**
     * Sets the JSON schema the answer must match, derived from a Java type as {@link
     * JsonSchemas#of} does: a record or bean class, an enum, {@code Boolean.class}, or a generic
     * type such as {@code List<String>} as a {@link java.lang.reflect.ParameterizedType}.
     *
     * @param type the answer's type
     */
    public Builder responseSchema(Type type) {
      return responseSchema(JsonSchemas.of(Objects.requireNonNull(type, "type")));
    }

    /** Returns the request. */
    public RequestInput build() {
      return new RequestInput(proto.build());
    }
  }
}
