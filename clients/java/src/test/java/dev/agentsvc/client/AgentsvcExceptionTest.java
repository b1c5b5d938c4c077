package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class AgentsvcExceptionTest {
  static StatusRuntimeException status(Status.Code code, String reason, String message) {
    com.google.rpc.Status st = com.google.rpc.Status.newBuilder()
        .setCode(code.value())
        .setMessage(message)
        .addDetails(Any.pack(ErrorInfo.newBuilder()
            .setReason(reason).setDomain("agentsvc").putMetadata("k", "v").build()))
        .build();
    return StatusProto.toStatusRuntimeException(st);
  }

  static Stream<Arguments> codes() {
    return Stream.of(
        Arguments.of(Status.Code.NOT_FOUND, "SESSION_NOT_FOUND", NotFoundException.class),
        Arguments.of(Status.Code.ALREADY_EXISTS, "SESSION_EXISTS", AlreadyExistsException.class),
        Arguments.of(Status.Code.INVALID_ARGUMENT, "INVALID_ARGUMENT", InvalidArgumentException.class),
        Arguments.of(Status.Code.FAILED_PRECONDITION, "TOOL_NOT_FOUND",
            FailedPreconditionException.class),
        Arguments.of(Status.Code.ABORTED, "SESSION_BUSY", SessionBusyException.class),
        Arguments.of(Status.Code.ABORTED, "SESSION_STALE", AbortedException.class),
        Arguments.of(Status.Code.RESOURCE_EXHAUSTED, "LLM_CALLS_EXCEEDED",
            ResourceExhaustedException.class),
        Arguments.of(Status.Code.UNAVAILABLE, "MODEL_UNAVAILABLE", UnavailableException.class),
        Arguments.of(Status.Code.CANCELLED, "CANCELLED", CancelledException.class),
        Arguments.of(Status.Code.DEADLINE_EXCEEDED, "DEADLINE_EXCEEDED",
            DeadlineExceededException.class),
        Arguments.of(Status.Code.UNAUTHENTICATED, "X", UnauthenticatedException.class),
        Arguments.of(Status.Code.PERMISSION_DENIED, "X", PermissionDeniedException.class),
        Arguments.of(Status.Code.INTERNAL, "INTERNAL", InternalException.class),
        Arguments.of(Status.Code.UNIMPLEMENTED, "X", AgentsvcException.class),
        // The reasons of the service's limits and failures.
        Arguments.of(Status.Code.INVALID_ARGUMENT, ErrorReasons.NESTING_TOO_DEEP,
            InvalidArgumentException.class),
        Arguments.of(Status.Code.RESOURCE_EXHAUSTED, ErrorReasons.SESSION_TOO_LARGE,
            ResourceExhaustedException.class),
        Arguments.of(Status.Code.RESOURCE_EXHAUSTED, ErrorReasons.RESPONSE_TOO_LARGE,
            ResourceExhaustedException.class),
        Arguments.of(Status.Code.RESOURCE_EXHAUSTED, ErrorReasons.TOO_MANY_CONNECT_STREAMS,
            ResourceExhaustedException.class),
        Arguments.of(Status.Code.DEADLINE_EXCEEDED, ErrorReasons.INVOCATION_TIMEOUT,
            DeadlineExceededException.class),
        Arguments.of(Status.Code.DEADLINE_EXCEEDED, ErrorReasons.CONNECT_START_TIMEOUT,
            DeadlineExceededException.class),
        Arguments.of(Status.Code.UNAVAILABLE, ErrorReasons.SHUTTING_DOWN,
            UnavailableException.class),
        Arguments.of(Status.Code.RESOURCE_EXHAUSTED, ErrorReasons.MODEL_ERROR,
            ResourceExhaustedException.class),
        Arguments.of(Status.Code.FAILED_PRECONDITION, ErrorReasons.MODEL_ERROR,
            FailedPreconditionException.class));
  }

  static StatusRuntimeException modelError(Status.Code code, Map<String, String> metadata) {
    return StatusProto.toStatusRuntimeException(com.google.rpc.Status.newBuilder()
        .setCode(code.value())
        .setMessage("Resource has been exhausted (e.g. check quota).")
        .addDetails(Any.pack(ErrorInfo.newBuilder().setReason("MODEL_ERROR").setDomain("agentsvc")
            .putAllMetadata(metadata).build()))
        .build());
  }

  @Test
  void modelErrorsTellTheModelsStatus() {
    AgentsvcException quota = AgentsvcException.from(modelError(Status.Code.RESOURCE_EXHAUSTED,
        Map.of("http_status", "429", "model_status", "RESOURCE_EXHAUSTED")));
    assertInstanceOf(ResourceExhaustedException.class, quota);
    assertTrue(quota.isModelError());
    assertEquals(OptionalInt.of(429), quota.modelHttpStatus());
    assertEquals("RESOURCE_EXHAUSTED", quota.modelStatus());
    assertEquals("Resource has been exhausted (e.g. check quota).", quota.getMessage());

    // A call the service cut off has no HTTP status.
    AgentsvcException cut = AgentsvcException.from(modelError(Status.Code.DEADLINE_EXCEEDED,
        Map.of("model_status", "DEADLINE_EXCEEDED")));
    assertInstanceOf(DeadlineExceededException.class, cut);
    assertTrue(cut.isModelError());
    assertEquals(OptionalInt.empty(), cut.modelHttpStatus());
    assertEquals("DEADLINE_EXCEEDED", cut.modelStatus());

    // Other errors are not the model's, whatever their metadata.
    AgentsvcException other = AgentsvcException.from(AgentsvcExceptionTest.status(
        Status.Code.UNAVAILABLE, ErrorReasons.MODEL_UNAVAILABLE, "model unavailable"));
    assertFalse(other.isModelError());
    assertEquals(OptionalInt.empty(), other.modelHttpStatus());
    assertEquals("", other.modelStatus());
    assertFalse(AgentsvcException.from(Status.UNAVAILABLE.asRuntimeException()).isModelError());
  }

  @ParameterizedTest
  @MethodSource("codes")
  void mapsCodeReasonAndMessage(Status.Code code, String reason, Class<?> kind) {
    StatusRuntimeException grpc = status(code, reason, "the message");
    AgentsvcException e = AgentsvcException.from(grpc);
    assertEquals(kind, e.getClass());
    assertEquals(code, e.code());
    assertEquals(reason, e.reason());
    assertEquals("agentsvc", e.domain());
    assertEquals("v", e.metadata().get("k"));
    assertEquals("the message", e.getMessage());
    assertSame(grpc, e.getCause());
  }

  @Test
  void statusWithoutDetails() {
    AgentsvcException e = AgentsvcException.from(
        Status.UNAVAILABLE.withDescription("io exception").asRuntimeException());
    assertInstanceOf(UnavailableException.class, e);
    assertEquals("", e.reason());
    assertEquals("io exception", e.getMessage());
    assertEquals("dev.agentsvc.client.UnavailableException [UNAVAILABLE]: io exception", e.toString());
  }

  @Test
  void looksThroughFutureWrappersAndKeepsMappedOnes() {
    NotFoundException nf = new NotFoundException("gone", null, null);
    assertSame(nf, AgentsvcException.from(new CompletionException(nf)));
    AgentsvcException e = AgentsvcException.from(new CompletionException(
        status(Status.Code.NOT_FOUND, "APP_NOT_FOUND", "App not found: x")));
    assertInstanceOf(NotFoundException.class, e);
    assertEquals("APP_NOT_FOUND", e.reason());
    assertInstanceOf(InternalException.class, AgentsvcException.from(new IllegalStateException("x")));
  }
}
