import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { defineCallback, lastUserText, LlmRequestSchema } from "../../src/index.js";
import { declareCallbacks, undeclaredCallback } from "../../src/callbacks.js";
import { CallbackCallSchema, CallbackKind } from "../../src/gen/agentsvc/v1/runner_service_pb.js";

function call(kind: CallbackKind, init: Record<string, unknown> = {}) {
  return create(CallbackCallSchema, {
    callId: "cb-1",
    name: "cb",
    kind,
    invocationId: "e-1",
    agentName: "guarded_agent",
    state: { topic: "weather" },
    ...init,
  } as never);
}

const forbidden = {
  contents: [
    { role: "user", parts: [{ text: "Tell me about a forbidden topic." }] },
    { role: "model", parts: [{ text: "No." }] },
  ],
};

describe("callbacks", () => {
  test("a before_model text answers for the model and its state change is sent", async () => {
    const cb = defineCallback({
      name: "cb",
      beforeModel(ctx, request) {
        assert.equal(ctx.kind, "before_model");
        assert.equal(ctx.agentName, "guarded_agent");
        assert.equal(ctx.invocationId, "e-1");
        assert.equal(ctx.state["topic"], "weather");
        if (lastUserText(request).includes("forbidden")) {
          ctx.setState("guarded", true);
          assert.equal(ctx.state["guarded"], true);
          return "Blocked.";
        }
        return undefined;
      },
    });
    const result = await cb.answer(call(CallbackKind.BEFORE_MODEL, { llmRequest: forbidden }));
    assert.equal(result.callId, "cb-1");
    assert.equal(result.error, undefined);
    assert.deepEqual(result.stateDelta, { guarded: true });
    assert.deepEqual(result.override, {
      case: "llmResponse",
      value: { content: { role: "model", parts: [{ text: "Blocked." }] } },
    });
  });

  test("returning nothing sends no override and no state", async () => {
    const cb = defineCallback({ name: "cb", beforeModel: () => {} });
    const result = await cb.answer(call(CallbackKind.BEFORE_MODEL));
    assert.deepEqual(result.override, { case: undefined });
    assert.equal(result.stateDelta, undefined);
    assert.equal(result.artifacts, undefined);
  });

  test("saveArtifact sends the files with the result", async () => {
    const cb = defineCallback({
      name: "cb",
      afterTool(ctx, _args, response) {
        ctx.saveArtifact("tool_result.json", JSON.stringify(response), "application/json");
        ctx.saveArtifact("user:last_tool.txt", ctx.toolName);
        return undefined;
      },
    });
    const result = await cb.answer(call(CallbackKind.AFTER_TOOL, {
      toolCall: { id: "adk-7", name: "get_weather", args: { city: "Paris" } },
      toolResponse: { weather: "sunny" },
    }));
    assert.equal(result.error, undefined);
    assert.deepEqual(result.override, { case: undefined });
    assert.equal(result.artifacts?.["tool_result.json"]?.inlineData?.mimeType, "application/json");
    assert.equal(new TextDecoder().decode(result.artifacts?.["tool_result.json"]?.inlineData?.data), '{"weather":"sunny"}');
    assert.deepEqual(result.artifacts?.["user:last_tool.txt"], { text: "get_weather" });
  });

  test("a callback that throws sends no files", async () => {
    const cb = defineCallback({
      name: "cb",
      beforeAgent(ctx) {
        ctx.saveArtifact("a.txt", "a");
        ctx.saveArtifact("b.txt", "");
      },
    });
    const result = await cb.answer(call(CallbackKind.BEFORE_AGENT));
    assert.match(result.error ?? "", /^TypeError: artifact "b\.txt": the text is empty/);
    assert.equal(result.artifacts, undefined);
  });

  test("a before_model callback may send an edited request instead", async () => {
    const cb = defineCallback({
      name: "cb",
      beforeModel(_ctx, request) {
        request.contents.pop();
        return request;
      },
    });
    const result = await cb.answer(call(CallbackKind.BEFORE_MODEL, { llmRequest: forbidden }));
    assert.equal(result.override?.case, "llmRequest");
    assert.equal(lastUserText(result.override.value as never), "Tell me about a forbidden topic.");
    assert.equal((result.override.value as { contents: unknown[] }).contents.length, 1);
  });

  test("an after_model callback may not return a request", async () => {
    const cb = defineCallback({ name: "cb", afterModel: () => create(LlmRequestSchema) });
    const result = await cb.answer(call(CallbackKind.AFTER_MODEL, { llmResponse: {} }));
    assert.match(result.error ?? "", /after_model callback cb returned a agentsvc\.v1\.LlmRequest/);
  });

  test("tool kinds see the call and its result; an object replaces it", async () => {
    const cb = defineCallback({
      name: "cb",
      afterTool(ctx, args, response) {
        assert.equal(ctx.toolName, "get_weather");
        assert.equal(ctx.functionCallId, "adk-7");
        assert.deepEqual(args, { city: "Paris" });
        assert.deepEqual(response, { weather: "sunny" });
        return { forecast: "redacted" };
      },
    });
    const result = await cb.answer(call(CallbackKind.AFTER_TOOL, {
      toolCall: { id: "adk-7", name: "get_weather", args: { city: "Paris" } },
      toolResponse: { weather: "sunny" },
    }));
    assert.deepEqual(result.override, { case: "toolResponse", value: { forecast: "redacted" } });
  });

  test("error kinds see the error", async () => {
    const cb = defineCallback({
      name: "cb",
      onToolError: (_ctx, _args, error) => ({ recovered: error }),
      onModelError: (_ctx, _request, error) => `recovered from ${error}`,
    });
    const tool = await cb.answer(call(CallbackKind.ON_TOOL_ERROR, { toolCall: { name: "t" }, error: "boom" }));
    assert.deepEqual(tool.override, { case: "toolResponse", value: { recovered: "boom" } });
    const model = await cb.answer(call(CallbackKind.ON_MODEL_ERROR, { error: "429" }));
    assert.deepEqual(model.override, {
      case: "llmResponse",
      value: { content: { role: "model", parts: [{ text: "recovered from 429" }] } },
    });
  });

  test("agent kinds reply with text or content", async () => {
    const cb = defineCallback({
      name: "cb",
      beforeAgent: () => "Closed today.",
      afterAgent: () => ({ role: "model", parts: [{ text: "Bye." }] }),
    });
    const before = await cb.answer(call(CallbackKind.BEFORE_AGENT));
    assert.deepEqual(before.override, { case: "content", value: { role: "model", parts: [{ text: "Closed today." }] } });
    const after = await cb.answer(call(CallbackKind.AFTER_AGENT));
    assert.deepEqual(after.override, { case: "content", value: { role: "model", parts: [{ text: "Bye." }] } });
  });

  const failures: { name: string; kind: CallbackKind; def: Parameters<typeof defineCallback>[0]; want: RegExp }[] = [
    { name: "a thrown error", kind: CallbackKind.BEFORE_AGENT, def: { name: "cb", beforeAgent: () => { throw new RangeError("too far"); } }, want: /^RangeError: too far$/ },
    { name: "a kind without a handler", kind: CallbackKind.AFTER_TOOL, def: { name: "cb", beforeAgent: () => {} }, want: /cb has no handler for after_tool/ },
    { name: "a tool callback returning text", kind: CallbackKind.BEFORE_TOOL, def: { name: "cb", beforeTool: () => "no" as never }, want: /before_tool callback cb returned a string/ },
    { name: "a tool callback returning an array", kind: CallbackKind.AFTER_TOOL, def: { name: "cb", afterTool: () => [1] as never }, want: /returned a array/ },
    { name: "an agent callback returning a number", kind: CallbackKind.AFTER_AGENT, def: { name: "cb", afterAgent: () => 3 as never }, want: /returned a number/ },
  ];
  for (const c of failures) {
    test(`${c.name} becomes the result's error`, async () => {
      const result = await defineCallback(c.def).answer(call(c.kind, { toolCall: { name: "t" } }));
      assert.match(result.error ?? "", c.want);
      assert.equal(result.override, undefined);
    });
  }

  test("names must be identifiers, handlers present, declarations unique", () => {
    assert.throws(() => defineCallback({ name: "guards.guard", beforeAgent: () => {} }), /not an identifier/);
    assert.throws(() => defineCallback({ name: "cb" }), /no handler/);
    const cb = defineCallback({ name: "cb", beforeAgent: () => {} });
    assert.deepEqual(declareCallbacks([cb]), [{ name: "cb" }]);
    assert.throws(() => declareCallbacks([cb, cb]), /declared twice/);
  });

  test("an undeclared callback is answered with an error", () => {
    assert.deepEqual(undeclaredCallback(call(CallbackKind.BEFORE_AGENT, { name: "other" })), {
      callId: "cb-1",
      error: "Callback 'other' is not declared by this client.",
    });
  });

  test("lastUserText skips contents without text", () => {
    assert.equal(lastUserText({ contents: [
      { role: "user", parts: [{ text: "a" }, { text: "b" }] },
      { role: "user", parts: [{ inlineData: { mimeType: "image/png" } }] },
    ] }), "ab");
    assert.equal(lastUserText({}), "");
  });
});
