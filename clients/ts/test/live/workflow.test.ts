import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  defineNode,
  type Event,
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

/** The approval workflow's nodes, counting their calls. */
function approvalNodes() {
  const calls: Record<string, number> = { prepare: 0, flaky: 0, approval_gate: 0, finish: 0 };
  const count = (name: string) => {
    calls[name] = (calls[name] ?? 0) + 1;
  };
  const nodes = [
    defineNode("prepare", (input, ctx) => {
      count("prepare");
      ctx.state.prepared = true;
      const parts = (input as { parts?: { text?: string }[] } | undefined)?.parts ?? [];
      return { order: parts.map((p) => p.text ?? "").join("") };
    }),
    defineNode("flaky", (input) => {
      count("flaky");
      if (calls["flaky"] === 1) {
        throw new ValueError("the first call fails");
      }
      return input;
    }),
    defineNode("approval_gate", (input) => {
      count("approval_gate");
      return new RequestInput({
        message: "Approve the order?",
        payload: input,
        responseSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
      });
    }),
    defineNode("finish", (input: JsonValue | undefined, ctx: NodeContext) => {
      count("finish");
      const status = (input as { approved?: boolean } | undefined)?.approved ? "approved" : "rejected";
      ctx.state.status = status;
      return status;
    }),
  ];
  return { nodes, calls };
}

describe("live: workflow function nodes run in this process", () => {
  const client = liveClient();
  after(() => client.close());

  test("the approval workflow pauses for input, retries a failed node and resumes with the answer", async () => {
    const key = freshKey("approvals");
    await client.createSession(key);
    const { nodes, calls } = approvalNodes();

    const first: Event[] = await client.run({ ...key, message: "Order #42", nodes }).collect();
    const asking = first.filter((e) => getRequestInputInterruptIds(e).length > 0);
    assert.equal(asking.length, 1, "one event asks for input");
    const [interruptId] = getRequestInputInterruptIds(asking[0]!);
    assert.ok(interruptId);
    assert.deepEqual(calls, { prepare: 1, flaky: 2, approval_gate: 1, finish: 0 });

    await client.run({ ...key, message: requestInputResumeContent(interruptId, { approved: true }), nodes }).collect();
    assert.deepEqual(calls, { prepare: 1, flaky: 2, approval_gate: 1, finish: 1 });

    const session = await client.getSession(key);
    assert.equal(session.state?.["status"], "approved");
    assert.equal(session.state?.["prepared"], true);
  });
});
