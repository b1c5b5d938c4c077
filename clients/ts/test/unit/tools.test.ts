import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { defineTool } from "../../src/index.js";
import { ToolCallSchema, ToolResultSchema } from "../../src/gen/agentsvc/v1/runner_service_pb.js";
import { answerCall, errorText } from "../../src/tools.js";

function call(name: string, args: Record<string, unknown> = {}, state: Record<string, unknown> = {}) {
  return create(ToolCallSchema, {
    callId: "adk-1",
    invocationId: "e-1",
    agentName: "weather_agent",
    functionCall: { id: "adk-1", name, args: args as never },
    state: state as never,
  });
}

const live = new AbortController().signal;

describe("answerCall", () => {
  test("typed arguments reach the function; an object result is the response", async () => {
    const tool = defineTool({
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] },
      run: (args, ctx) => {
        const city: string = args.city;
        const days: number | undefined = args.days;
        // @ts-expect-error: not a declared parameter
        void args.country;
        return { city, days: days ?? 1, agent: ctx.agentName, call: ctx.callId, invocation: ctx.invocationId };
      },
    });
    const result = await answerCall(tool, call("get_weather", { city: "Paris" }), live);
    assert.equal(result.callId, "adk-1");
    assert.equal(result.error, undefined);
    assert.equal(result.actions, undefined);
    assert.deepEqual(toJson(ValueSchema, create(ValueSchema, result.response!)), {
      city: "Paris", days: 1, agent: "weather_agent", call: "adk-1", invocation: "e-1",
    });
  });

  const values: { name: string; out: unknown; want: unknown }[] = [
    { name: "a string", out: "sunny", want: "sunny" },
    { name: "a number", out: 21.5, want: 21.5 },
    { name: "null", out: null, want: null },
    { name: "an array", out: [1, "a"], want: [1, "a"] },
    { name: "a promise of a boolean", out: Promise.resolve(false), want: false },
  ];
  for (const c of values) {
    test(`${c.name} is sent as a value for the service to wrap`, async () => {
      const tool = defineTool({ name: "t", run: () => c.out });
      const result = await answerCall(tool, call("t"), live);
      assert.deepEqual(toJson(ValueSchema, create(ValueSchema, result.response!)), c.want);
    });
  }

  test("undefined sends no response", async () => {
    const tool = defineTool({ name: "t", longRunning: true, run: () => undefined });
    const result = await answerCall(tool, call("t"), live);
    assert.deepEqual(result, { callId: "adk-1" });
  });

  test("a thrown error becomes the error text; a sync throw too", async () => {
    const asyncTool = defineTool({ name: "t", run: async () => { throw new RangeError("no such city"); } });
    assert.deepEqual(await answerCall(asyncTool, call("t"), live), { callId: "adk-1", error: "no such city" });
    const syncTool = defineTool({ name: "t", run: () => { throw "plain string"; } });
    assert.deepEqual(await answerCall(syncTool, call("t"), live), { callId: "adk-1", error: "plain string" });
  });

  test("a result JSON cannot carry is an error", async () => {
    const tool = defineTool({ name: "t", run: () => ({ big: 1n }) });
    const result = await answerCall(tool, call("t"), live);
    assert.match(result.error ?? "", /tool t: result\.big is a bigint/);
  });

  test("an undeclared tool is answered with an error", async () => {
    const result = await answerCall(undefined, call("nope"), live);
    assert.equal(result.error, "Tool 'nope' is not declared by this client.");
  });

  test("state reads the call's state; setState and actions are sent", async () => {
    const tool = defineTool({
      name: "t",
      run: (_args, ctx) => {
        assert.equal(ctx.state["user:name"], "Ada");
        ctx.setState("visits", 2);
        assert.equal(ctx.state["visits"], 2);
        ctx.actions.skipSummarization = true;
        return { ok: true };
      },
    });
    const result = await answerCall(tool, call("t", {}, { "user:name": "Ada", visits: 1 }), live);
    assert.deepEqual(result.actions, {
      stateDelta: { visits: 2 },
      skipSummarization: true,
      escalate: false,
      transferToAgent: "",
    });
  });

  test("actions recorded before an error are kept", async () => {
    const tool = defineTool({
      name: "t",
      run: (_args, ctx) => {
        ctx.setState("tried", true);
        throw new Error("failed");
      },
    });
    const result = await answerCall(tool, call("t"), live);
    assert.equal(result.error, "failed");
    assert.deepEqual(result.actions?.stateDelta, { tried: true });
  });

  test("saveArtifact sends the files with the result, converted", async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46]);
    const tool = defineTool({
      name: "t",
      run: (_args, ctx) => {
        ctx.saveArtifact("report.pdf", pdf, "application/pdf");
        ctx.saveArtifact("user:notes.txt", "draft");
        ctx.saveArtifact("user:notes.txt", "final"); // the last data of a name wins
        ctx.saveArtifact("data.csv", "a,b\n1,2\n", "text/csv");
        ctx.saveArtifact("chart.png", { inlineData: { mimeType: "image/png", data: new Uint8Array([1]) } });
        return { saved: 4 };
      },
    });
    const result = await answerCall(tool, call("t"), live);
    assert.equal(result.error, undefined);
    assert.equal(result.actions, undefined);
    assert.deepEqual(Object.keys(result.artifacts ?? {}).sort(), ["chart.png", "data.csv", "report.pdf", "user:notes.txt"]);
    assert.deepEqual(result.artifacts?.["report.pdf"], { inlineData: { mimeType: "application/pdf", data: pdf } });
    assert.deepEqual(result.artifacts?.["user:notes.txt"], { text: "final" });
    assert.equal(result.artifacts?.["data.csv"]?.inlineData?.mimeType, "text/csv");
    assert.equal(new TextDecoder().decode(result.artifacts?.["data.csv"]?.inlineData?.data), "a,b\n1,2\n");
    // And they survive the encoding of the ToolResult message.
    const message = create(ToolResultSchema, result);
    const decoded = fromBinary(ToolResultSchema, toBinary(ToolResultSchema, message));
    assert.deepEqual(decoded.artifacts["report.pdf"]?.inlineData?.data, pdf);
    assert.equal(decoded.artifacts["user:notes.txt"]?.text, "final");
  });

  test("files saved before an error are sent with it", async () => {
    const tool = defineTool({
      name: "t",
      run: (_args, ctx) => {
        ctx.saveArtifact("partial.txt", "half done");
        throw new Error("failed");
      },
    });
    const result = await answerCall(tool, call("t"), live);
    assert.equal(result.error, "failed");
    assert.deepEqual(result.artifacts, { "partial.txt": { text: "half done" } });
  });

  test("data the service would refuse throws in the tool", async () => {
    const tool = defineTool({
      name: "t",
      run: (_args, ctx) => {
        ctx.saveArtifact("blob.bin", new Uint8Array([1]));
      },
    });
    const result = await answerCall(tool, call("t"), live);
    assert.match(result.error ?? "", /artifact "blob\.bin": bytes need a mimeType/);
    assert.equal(result.artifacts, undefined);
  });

  test("the tool sees the run's signal", async () => {
    const controller = new AbortController();
    const tool = defineTool({
      name: "t",
      run: (_args, ctx) => new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => reject(new Error("aborted")));
      }),
    });
    const pending = answerCall(tool, call("t"), controller.signal);
    controller.abort();
    assert.equal((await pending).error, "aborted");
  });
});

test("errorText is never empty", () => {
  assert.equal(errorText(new Error("")), "Error");
  assert.equal(errorText(new TypeError("")), "TypeError");
  assert.equal(errorText(""), "Error");
  assert.equal(errorText({ toString: () => "custom" }), "custom");
});
