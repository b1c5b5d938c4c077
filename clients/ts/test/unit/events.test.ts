import assert from "node:assert/strict";
import { test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { eventText, functionCalls, functionResponses, isFinalResponse } from "../../src/index.js";
import { EventSchema } from "../../src/gen/agentsvc/v1/event_pb.js";

test("eventText joins text parts without thoughts", () => {
  const event = create(EventSchema, {
    content: { role: "model", parts: [{ text: "thinking", thought: true }, { text: "It is " }, { text: "sunny." }] },
  });
  assert.equal(eventText(event), "It is sunny.");
  assert.equal(eventText(create(EventSchema)), "");
});

test("isFinalResponse follows ADK's Event.is_final_response", () => {
  const text = create(EventSchema, { content: { parts: [{ text: "done" }] } });
  const call = create(EventSchema, { content: { parts: [{ functionCall: { id: "a", name: "f" } }] } });
  const response = create(EventSchema, { content: { parts: [{ functionResponse: { id: "a", name: "f" } }] } });
  const partial = create(EventSchema, { partial: true, content: { parts: [{ text: "do" }] } });
  const skipped = create(EventSchema, { actions: { skipSummarization: true }, content: response.content! });
  const longRunning = create(EventSchema, { longRunningToolIds: ["a"], content: call.content! });
  const codeResult = create(EventSchema, { content: { parts: [{ codeExecutionResult: { outcome: "OUTCOME_OK" } }] } });
  assert.equal(isFinalResponse(text), true);
  assert.equal(isFinalResponse(call), false);
  assert.equal(isFinalResponse(response), false);
  assert.equal(isFinalResponse(partial), false);
  assert.equal(isFinalResponse(skipped), true);
  assert.equal(isFinalResponse(longRunning), true);
  assert.equal(isFinalResponse(codeResult), false);
  assert.equal(functionCalls(call)[0]?.name, "f");
  assert.equal(functionResponses(response)[0]?.id, "a");
});
