import assert from "node:assert/strict";
import { test } from "node:test";
import { create, toJson } from "@bufbuild/protobuf";
import {
  createRequestInputResponse,
  getRequestInputInterruptIds,
  hasAuthRequestFunctionCall,
  hasRequestInputFunctionCall,
  REQUEST_CREDENTIAL_FUNCTION_CALL_NAME,
  REQUEST_INPUT_FUNCTION_CALL_NAME,
  requestInputResumeContent,
} from "../../src/index.js";
import { ContentSchema, PartSchema } from "../../src/gen/agentsvc/v1/content_pb.js";
import { EventSchema } from "../../src/gen/agentsvc/v1/event_pb.js";

const eventWith = (...calls: { id: string; name: string; args?: Record<string, unknown> }[]) =>
  create(EventSchema, { content: { role: "model", parts: [{ text: "x" }, ...calls.map((c) => ({ functionCall: c as never }))] } });

test("the function call names are ADK's", () => {
  assert.equal(REQUEST_INPUT_FUNCTION_CALL_NAME, "adk_request_input");
  assert.equal(REQUEST_CREDENTIAL_FUNCTION_CALL_NAME, "adk_request_credential");
});

test("requests for input and credentials are recognised by their call names", () => {
  const input = eventWith({ id: "i-1", name: "adk_request_input" });
  const auth = eventWith({ id: "a-1", name: "adk_request_credential" });
  const tool = eventWith({ id: "t-1", name: "get_weather" });
  assert.equal(hasRequestInputFunctionCall(input), true);
  assert.equal(hasRequestInputFunctionCall(auth), false);
  assert.equal(hasAuthRequestFunctionCall(auth), true);
  assert.equal(hasAuthRequestFunctionCall(input), false);
  assert.equal(hasRequestInputFunctionCall(tool), false);
  assert.equal(hasRequestInputFunctionCall(create(EventSchema)), false);
});

test("interrupt ids come from the interruptId argument, else the call id", () => {
  const event = eventWith(
    { id: "fc-1", name: "adk_request_input", args: { interruptId: "approve-42", message: "Approve?" } },
    { id: "fc-2", name: "get_weather", args: { interruptId: "not-this" } },
    { id: "fc-3", name: "adk_request_input", args: { message: "More?" } },
  );
  assert.deepEqual(getRequestInputInterruptIds(event), ["approve-42", "fc-3"]);
  assert.deepEqual(getRequestInputInterruptIds(create(EventSchema)), []);
});

test("the response Part and the resume Content carry the answer under the interrupt id", () => {
  const part = createRequestInputResponse("approve-42", { approved: true, comment: "ok" });
  assert.deepEqual(toJson(PartSchema, part), {
    functionResponse: { id: "approve-42", name: "adk_request_input", response: { approved: true, comment: "ok" } },
  });
  const content = requestInputResumeContent("approve-42", { approved: false });
  assert.deepEqual(toJson(ContentSchema, content), {
    role: "user",
    parts: [{ functionResponse: { id: "approve-42", name: "adk_request_input", response: { approved: false } } }],
  });
  assert.throws(() => createRequestInputResponse("x", ["a"] as never), /must be a JSON object/);
});
