import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Code, ConnectError } from "@connectrpc/connect";
import { create, getOption, toBinary } from "@bufbuild/protobuf";
import {
  AbortedError,
  AgentsvcError,
  AlreadyExistsError,
  CancelledError,
  DeadlineExceededError,
  FailedPreconditionError,
  InternalError,
  InvalidArgumentError,
  NotFoundError,
  ResourceExhaustedError,
  SessionBusyError,
  toAgentsvcError,
  UnavailableError,
} from "../../src/index.js";
import { ErrorInfoSchema } from "../../src/gen/google/rpc/error_details_pb.js";
import { ErrorReasonSchema, reason_codes } from "../../src/gen/agentsvc/v1/error_reason_pb.js";
import { reasonClasses } from "../../src/errors.js";

function withInfo(message: string, code: Code, reason: string, metadata: Record<string, string> = {}): ConnectError {
  // As parsed from the wire: the detail is still an encoded Any.
  const info = create(ErrorInfoSchema, { reason, domain: "agentsvc", metadata });
  const err = new ConnectError(message, code);
  err.details = [{ type: "google.rpc.ErrorInfo", value: toBinary(ErrorInfoSchema, info) }];
  return err;
}

describe("toAgentsvcError", () => {
  const cases: { code: Code; reason: string; cls: new (...args: never[]) => AgentsvcError; name: string }[] = [
    { code: Code.NotFound, reason: "SESSION_NOT_FOUND", cls: NotFoundError, name: "NOT_FOUND" },
    { code: Code.AlreadyExists, reason: "SESSION_EXISTS", cls: AlreadyExistsError, name: "ALREADY_EXISTS" },
    { code: Code.InvalidArgument, reason: "INVALID_ARGUMENT", cls: InvalidArgumentError, name: "INVALID_ARGUMENT" },
    { code: Code.Aborted, reason: "SESSION_BUSY", cls: SessionBusyError, name: "ABORTED" },
    { code: Code.Aborted, reason: "SESSION_STALE", cls: AbortedError, name: "ABORTED" },
    { code: Code.FailedPrecondition, reason: "TOOL_NOT_FOUND", cls: FailedPreconditionError, name: "FAILED_PRECONDITION" },
    { code: Code.ResourceExhausted, reason: "LLM_CALLS_EXCEEDED", cls: ResourceExhaustedError, name: "RESOURCE_EXHAUSTED" },
    { code: Code.Unavailable, reason: "MODEL_UNAVAILABLE", cls: UnavailableError, name: "UNAVAILABLE" },
    { code: Code.Canceled, reason: "CANCELLED", cls: CancelledError, name: "CANCELLED" },
    { code: Code.DeadlineExceeded, reason: "DEADLINE_EXCEEDED", cls: DeadlineExceededError, name: "DEADLINE_EXCEEDED" },
    { code: Code.Internal, reason: "INTERNAL", cls: InternalError, name: "INTERNAL" },
    { code: Code.InvalidArgument, reason: "NESTING_TOO_DEEP", cls: InvalidArgumentError, name: "INVALID_ARGUMENT" },
    { code: Code.ResourceExhausted, reason: "SESSION_TOO_LARGE", cls: ResourceExhaustedError, name: "RESOURCE_EXHAUSTED" },
    { code: Code.ResourceExhausted, reason: "RESPONSE_TOO_LARGE", cls: ResourceExhaustedError, name: "RESOURCE_EXHAUSTED" },
    { code: Code.ResourceExhausted, reason: "TOO_MANY_CONNECT_STREAMS", cls: ResourceExhaustedError, name: "RESOURCE_EXHAUSTED" },
    { code: Code.DeadlineExceeded, reason: "INVOCATION_TIMEOUT", cls: DeadlineExceededError, name: "DEADLINE_EXCEEDED" },
    { code: Code.DeadlineExceeded, reason: "CONNECT_START_TIMEOUT", cls: DeadlineExceededError, name: "DEADLINE_EXCEEDED" },
    { code: Code.Unavailable, reason: "SHUTTING_DOWN", cls: UnavailableError, name: "UNAVAILABLE" },
    { code: Code.Unavailable, reason: "MODEL_ERROR", cls: UnavailableError, name: "UNAVAILABLE" },
  ];
  for (const c of cases) {
    test(`${c.name}/${c.reason} → ${c.cls.name}`, () => {
      const err = toAgentsvcError(withInfo("Session not found", c.code, c.reason, { k: "v" }));
      assert.ok(err instanceof c.cls, `${err.name} is not a ${c.cls.name}`);
      assert.ok(err instanceof AgentsvcError);
      assert.ok(err instanceof Error);
      assert.equal(err.name, c.cls.name);
      assert.equal(err.code, c.code);
      assert.equal(err.codeName, c.name);
      assert.equal(err.reason, c.reason);
      assert.equal(err.domain, "agentsvc");
      assert.deepEqual(err.metadata, { k: "v" });
      // The server's own text, without connect's "[not_found]" prefix.
      assert.equal(err.message, "Session not found");
      assert.ok(err.cause instanceof ConnectError);
    });
  }

  test("a model's own error keeps its code, message and the model call's status in metadata", () => {
    const cases: { code: Code; httpStatus: string; modelStatus: string; cls: new (...args: never[]) => AgentsvcError }[] = [
      { code: Code.ResourceExhausted, httpStatus: "429", modelStatus: "RESOURCE_EXHAUSTED", cls: ResourceExhaustedError },
      { code: Code.DeadlineExceeded, httpStatus: "504", modelStatus: "DEADLINE_EXCEEDED", cls: DeadlineExceededError },
      { code: Code.Unavailable, httpStatus: "503", modelStatus: "UNAVAILABLE", cls: UnavailableError },
      { code: Code.FailedPrecondition, httpStatus: "400", modelStatus: "INVALID_ARGUMENT", cls: FailedPreconditionError },
    ];
    for (const c of cases) {
      const err = toAgentsvcError(withInfo("Quota exceeded for model", c.code, "MODEL_ERROR", {
        http_status: c.httpStatus,
        model_status: c.modelStatus,
      }));
      assert.ok(err instanceof c.cls, `${err.name} is not a ${c.cls.name}`);
      assert.equal(err.reason, "MODEL_ERROR");
      assert.equal(err.message, "Quota exceeded for model");
      assert.deepEqual(err.metadata, { http_status: c.httpStatus, model_status: c.modelStatus });
    }
  });

  test("a SessionBusyError is an AbortedError", () => {
    assert.ok(toAgentsvcError(withInfo("busy", Code.Aborted, "SESSION_BUSY")) instanceof AbortedError);
  });

  test("a status without ErrorInfo keeps code and message, reason empty", () => {
    const err = toAgentsvcError(new ConnectError("gone", Code.NotFound));
    assert.ok(err instanceof NotFoundError);
    assert.equal(err.reason, "");
    assert.equal(err.domain, "");
    assert.equal(err.message, "gone");
  });

  test("a detail that does not decode is ignored", () => {
    const broken = new ConnectError("x", Code.NotFound);
    broken.details = [{ type: "google.rpc.ErrorInfo", value: new Uint8Array([0xff, 0xff, 0xff]) }];
    const err = toAgentsvcError(broken);
    assert.ok(err instanceof NotFoundError);
    assert.equal(err.reason, "");
  });

  test("other errors become InternalError; AbortError becomes CancelledError", () => {
    const plain = toAgentsvcError(new Error("boom"));
    assert.ok(plain instanceof InternalError);
    assert.equal(plain.code, Code.Unknown);
    const abort = new AbortController();
    abort.abort();
    assert.ok(toAgentsvcError(abort.signal.reason) instanceof CancelledError);
  });

  test("an AgentsvcError is returned as is", () => {
    const err = new NotFoundError({ code: Code.NotFound, message: "x" });
    assert.equal(toAgentsvcError(err), err);
  });
});

describe("every ErrorReason", () => {
  // The codes by the names gRPC gives them, as error_reason.proto writes them.
  const codesByName = new Map<string, Code>();
  for (let c = Code.Canceled; c <= Code.Unauthenticated; c++) {
    codesByName.set(new AgentsvcError({ code: c, message: "" }).codeName, c);
  }
  const reasons = ErrorReasonSchema.values.filter((v) => v.number !== 0);

  test("has a class in reasonClasses, and reasonClasses holds nothing else", () => {
    assert.ok(reasons.length > 50);
    assert.deepEqual(Object.keys(reasonClasses).sort(), reasons.map((v) => v.name).sort());
  });

  for (const value of reasons) {
    test(`${value.name} maps to its class with each of its codes`, () => {
      const names = getOption(value, reason_codes);
      assert.ok(names.length > 0, `${value.name} documents no code`);
      const cls = reasonClasses[value.name as keyof typeof reasonClasses];
      for (const name of names) {
        const code = codesByName.get(name);
        assert.ok(code !== undefined, `${value.name}: ${name} is not a gRPC code`);
        const byCode = toAgentsvcError(new ConnectError("m", code)).constructor;
        const err = toAgentsvcError(withInfo("m", code, value.name));
        assert.equal(err.code, code);
        assert.equal(err.reason, value.name);
        assert.ok(err instanceof byCode, `${value.name}/${name}: ${err.name} is not a ${byCode.name}`);
        if (cls === null) {
          assert.equal(err.constructor, byCode);
        } else {
          assert.ok(err instanceof cls, `${value.name}/${name}: ${err.name} is not a ${cls.name}`);
        }
      }
    });
  }
});
