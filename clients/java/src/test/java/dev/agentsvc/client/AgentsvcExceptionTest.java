package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.protobuf.Any;
import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
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
        Arguments.of(Status.Code.UNIMPLEMENTED, "X", AgentsvcException.class));
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
