import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import {
  DynamicNodeFailError,
  defineNode,
  type Event,
  FailedPreconditionError,
  functionCalls,
  getRequestInputInterruptIds,
  type JsonValue,
  type NodeContext,
  RequestInput,
  requestInputResumeContent,
} from "../../src/index.js";
import { freshKey, liveClient } from "./stack.js";

// The app `approvals`: a Workflow START → prepare → flaky → approval_gate →
// finish of function nodes that run here; flaky has a retry_config.

class ValueError extends Error {}

/** The approval workflow's nodes, counting their calls and recording what they saw. */
function approvalNodes() {
  const calls: Record<string, number> = { prepare: 0, flaky: 0, approval_gate: 0, finish: 0 };
  const seen: { name: string; input: JsonValue | undefined; attempt: number }[] = [];
  const count = (name: string, input?: JsonValue, ctx?: NodeContext) => {
    calls[name] = (calls[name] ?? 0) + 1;
    seen.push({ name, input, attempt: ctx?.attempt ?? 0 });
  };
  const nodes = [
    defineNode("prepare", (input, ctx) => {
      count("prepare", input, ctx);
      ctx.state.prepared = true;
      const parts = (input as { parts?: { text?: string }[] } | undefined)?.parts ?? [];
      return { order: parts.map((p) => p.text ?? "").join("") };
    }),
    defineNode("flaky", (input, ctx) => {
      count("flaky", input, ctx);
      if (calls["flaky"] === 1) {
        throw new ValueError("the first call fails");
      }
      return input;
    }),
    defineNode("approval_gate", (input, ctx) => {
      count("approval_gate", input, ctx);
      return new RequestInput({
        message: "Approve the order?",
        payload: input,
        responseSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
      });
    }),
    defineNode("finish", (input: JsonValue | undefined, ctx: NodeContext) => {
      count("finish", input, ctx);
      const status = (input as { approved?: boolean } | undefined)?.approved ? "approved" : "rejected";
      ctx.state.status = status;
      return status;
    }),
  ];
  return { nodes, calls, seen };
}

describe("live: workflow function nodes run in this process", () => {
  const client = liveClient();
  after(() => client.close());

  test("the approval workflow pauses for input, retries a failed node and resumes with the answer", async () => {
    const key = freshKey("approvals");
    await client.createSession(key);
    const { nodes, calls, seen } = approvalNodes();

    const first: Event[] = await client.run({ ...key, message: "Order #42", nodes }).collect();
    const asking = first.filter((e) => getRequestInputInterruptIds(e).length > 0);
    assert.equal(asking.length, 1, "one event asks for input");
    const [interruptId] = getRequestInputInterruptIds(asking[0]!);
    assert.ok(interruptId);
    assert.deepEqual(calls, { prepare: 1, flaky: 2, approval_gate: 1, finish: 0 });
    assert.deepEqual(seen, [
      { name: "prepare", input: { parts: [{ text: "Order #42" }], role: "user" }, attempt: 1 },
      { name: "flaky", input: { order: "Order #42" }, attempt: 1 },
      { name: "flaky", input: { order: "Order #42" }, attempt: 2 },
      { name: "approval_gate", input: { order: "Order #42" }, attempt: 1 },
    ]);
    const ask = functionCalls(asking[0]!)[0];
    assert.equal(ask?.name, "adk_request_input");
    assert.equal(ask?.args?.["message"], "Approve the order?");
    assert.deepEqual(ask?.args?.["payload"], { order: "Order #42" });

    const second = await client.run({ ...key, message: requestInputResumeContent(interruptId, { approved: true }), nodes }).collect();
    assert.deepEqual(calls, { prepare: 1, flaky: 2, approval_gate: 1, finish: 1 });
    assert.deepEqual(seen[4], { name: "finish", input: { approved: true }, attempt: 1 });
    const outputs = second.flatMap((e) => (e.output === undefined ? [] : [toJson(ValueSchema, e.output)]));
    assert.ok(outputs.includes("approved"), `outputs ${JSON.stringify(outputs)} hold finish's`);

    const session = await client.getSession(key);
    assert.equal(session.state?.["status"], "approved");
    assert.equal(session.state?.["prepared"], true);
  });

  test("a run that does not declare every function node is refused and stores nothing", async () => {
    const key = freshKey("approvals");
    await client.createSession(key);
    const { nodes, calls } = approvalNodes();
    await assert.rejects(
      client.run({ ...key, message: "Order #7", nodes: nodes.slice(0, 1) }).collect(),
      (err) => err instanceof FailedPreconditionError && err.reason === "NODE_NOT_DECLARED",
    );
    assert.equal(calls["prepare"], 0);
    assert.equal((await client.getSession(key)).events.length, 0);
  });
});

// The app `dynamic`: plan runs nodes from inside itself (ADK's ctx.run_node),
// then summary and shout run as the graph says.
describe("live: dynamic nodes run inside a node", () => {
  const client = liveClient();
  after(() => client.close());

  test("children run under the caller's path and their outputs come back", async () => {
    const key = freshKey("dynamic");
    await client.createSession(key);
    const seen: Record<string, unknown> = {};
    const double = defineNode("double", (input) => (input as number) * 2, { dynamic: true });
    const broken = defineNode(
      "broken",
      () => {
        throw new RangeError("nope");
      },
      { dynamic: true },
    );
    const plan = defineNode(
      "plan",
      async (_input, ctx) => {
        const a = await ctx.runNode(double, 3);
        const b = await ctx.runNode(double, a);
        const loud = await ctx.runNode("shout", "hi", { runId: "once" });
        try {
          await ctx.runNode(broken);
        } catch (err) {
          if (err instanceof DynamicNodeFailError) {
            seen["failure"] = [err.message, err.error?.type, err.errorNodePath];
          }
        }
        seen["session"] = [ctx.session.id, ctx.session.userId, ctx.session.events.length];
        ctx.state.plan = { a: a ?? null, b: b ?? null, loud: loud ?? null };
        return { a, b };
      },
      { sessionEvents: true },
    );
    const summary = defineNode("summary", (input, ctx) => `${(input as { b: number }).b} ${(ctx.session.state["plan"] as { loud: string }).loud}`);
    const shout = defineNode("shout", (input) => `${String(input).toUpperCase()}!`);

    const events = await client.run({ ...key, message: "go", nodes: [plan, double, broken, summary, shout] }).collect();
    const outputs = events.flatMap((e) => (e.output === undefined ? [] : [[e.nodeInfo?.path, toJson(ValueSchema, e.output)]]));
    assert.deepEqual(outputs, [
      ["dynamic@1/plan@1/double@1", 6],
      ["dynamic@1/plan@1/double@2", 12],
      ["dynamic@1/plan@1/shout@once", "HI!"],
      ["dynamic@1/plan@1", { a: 6, b: 12 }],
      ["dynamic@1/summary@1", "12 HI!"],
      ["dynamic@1/shout@1", "12 HI!!"],
    ]);
    const failed = events.filter((e) => e.errorCode !== "").map((e) => [e.nodeInfo?.path, e.errorCode, e.errorMessage]);
    assert.deepEqual(failed, [["dynamic@1/plan@1/broken@1", "RangeError", "nope"]]);
    assert.deepEqual(seen["failure"], ["Dynamic node broken failed", "RangeError", "dynamic@1/plan@1/broken@1"]);
    assert.deepEqual(seen["session"], [key.sessionId, key.userId, 1]);
    assert.deepEqual((await client.getSession(key)).state?.["plan"], { a: 6, b: 12, loud: "HI!" });
  });
});
