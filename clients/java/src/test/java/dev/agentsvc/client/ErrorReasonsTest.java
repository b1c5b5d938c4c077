package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentsvc.v1.ErrorReason;
import dev.agentsvc.v1.ErrorReasonOuterClass;
import io.grpc.Status;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every reason of the service's closed set maps to its exception class, with each of its codes. */
class ErrorReasonsTest {
  /** Every value of the generated enum but the two that no status carries. */
  static Stream<ErrorReason> reasons() {
    return Arrays.stream(ErrorReason.values())
        .filter(r -> r != ErrorReason.ERROR_REASON_UNSPECIFIED && r != ErrorReason.UNRECOGNIZED);
  }

  /** The codes error_reason.proto documents for a reason. */
  static List<Status.Code> codes(ErrorReason reason) {
    return reason.getValueDescriptor().getOptions()
        .getExtension(ErrorReasonOuterClass.reasonCodes).stream()
        .map(Status.Code::valueOf)
        .toList();
  }

  @ParameterizedTest
  @MethodSource("reasons")
  void eachReasonRaisesItsClassWithEachOfItsCodes(ErrorReason reason) {
    List<Status.Code> codes = codes(reason);
    assertFalse(codes.isEmpty(), reason + " documents no code");
    Class<? extends AgentsvcException> narrower = AgentsvcException.reasonClass(reason);
    for (Status.Code code : codes) {
      Class<?> byCode = AgentsvcException.forCode(code, "m", null, null).getClass();
      AgentsvcException e = AgentsvcException.from(
          AgentsvcExceptionTest.status(code, reason.name(), "m"));
      assertEquals(code, e.code());
      assertEquals(reason, e.errorReason());
      assertInstanceOf(byCode, e, reason + "/" + code);
      assertEquals(narrower == null ? byCode : narrower, e.getClass(), reason + "/" + code);
    }
  }

  @Test
  void reasonsOutsideTheSet() {
    AgentsvcException none = AgentsvcException.from(Status.NOT_FOUND.asRuntimeException());
    assertEquals(ErrorReason.ERROR_REASON_UNSPECIFIED, none.errorReason());
    AgentsvcException newer = AgentsvcException.from(
        AgentsvcExceptionTest.status(Status.Code.NOT_FOUND, "A_REASON_OF_TOMORROW", "m"));
    assertEquals(ErrorReason.UNRECOGNIZED, newer.errorReason());
    assertInstanceOf(NotFoundException.class, newer);
  }

  @Test
  @SuppressWarnings("deprecation")
  void theOlderStringConstantsNameValuesOfTheSet() throws IllegalAccessException {
    assertEquals(ErrorReason.SESSION_BUSY.name(), SessionBusyException.REASON);
    int constants = 0;
    for (Field f : ErrorReasons.class.getDeclaredFields()) {
      if (!Modifier.isStatic(f.getModifiers()) || f.getType() != String.class) {
        continue;
      }
      assertEquals(f.getName(), f.get(null));
      assertTrue(ErrorReason.getDescriptor().findValueByName(f.getName()) != null,
          f.getName() + " is not an ErrorReason");
      constants++;
    }
    assertTrue(constants > 0);
  }
}
