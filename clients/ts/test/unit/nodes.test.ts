import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { create, fromJson, type JsonValue, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { AgentsvcClient, DynamicNodeFailError, defineNode, eventText, type NodeContext, type NodeFunction, RequestInput } from "../../src/index.js";
import { answerNodeCall, errorType } from "../../src/nodes.js";
import {
  type ConnectRequest,
  NodeCallSchema,
  type NodeResult,
  NodeResultSchema,
  type RunNodeRequest,
  RunNodeRequestSchema,
  RunNodeResponseSchema,
  type StartRun,
} from "../../src/gen/agentsvc/v1/runner_service_pb.js";
import { within } from "../support.js";
import { type FakeServer, startFakeServer } from "./fakeserver.js";

const live = new AbortController().signal;

function call(name: string, input?: JsonValue, init: Record<string, unknown> = {}) {
  return create(NodeCallSchema, {
    callId: "n-1",
    name,
    invocationId: "e-1",
    workflow: "approvals",
    nodeName: name,
    nodePath: `approvals@1/${name}@1`,
    attempt: 1,
    ...(input === undefined ? {} : { nodeInput: fromJson(ValueSchema, input) }),
    ...init,
  } as never);
}

/** The NodeResult a node gives for a call, as JSON. */
async function answer(node: ReturnType<typeof defineNode> | undefined, c = call(node?.name ?? "x")) {
  return toJson(NodeResultSchema, create(NodeResultSchema, await answerNodeCall(node, c, live))) as Record<string, unknown>;
}

class ValueError extends Error {}

describe("answerNodeCall", () => {
  test("output, state delta and route go back; the context carries the call", async () => {
    let seen: NodeContext | undefined;
    let input: JsonValue | undefined;
    const node = defineNode("classify", (nodeInput, ctx) => {
      seen = ctx;
      input = nodeInput;
      assert.equal(ctx.state.count, 1);
      ctx.state.count = 2;
      ctx.actions.stateDelta.label = "big";
      assert.equal(ctx.state.count, 2);
      assert.equal(ctx.state.label, "big");
      assert.deepEqual(Object.keys(ctx.state).sort(), ["count", "label"]);
      assert.ok("label" in ctx.state);
      ctx.route = "big";
      return { size: 10 };
    });
    const result = await answer(node, call("classify", { parts: [{ text: "hi" }], role: "user" }, {
      state: { count: 1 },
      resumeInputs: { "i-1": { approved: true } },
      attempt: 2,
    }));

    assert.deepEqual(result, { callId: "n-1", output: { size: 10 }, stateDelta: { count: 2, label: "big" }, route: "big" });
    assert.deepEqual(input, { parts: [{ text: "hi" }], role: "user" });
    assert.equal(seen?.callId, "n-1");
    assert.equal(seen?.invocationId, "e-1");
    assert.equal(seen?.workflow, "approvals");
    assert.equal(seen?.nodeName, "classify");
    assert.equal(seen?.nodePath, "approvals@1/classify@1");
    assert.equal(seen?.attempt, 2);
    assert.deepEqual(seen?.resumeInputs, { "i-1": { approved: true } });
  });

  const outputs: { name: string; out: unknown; want: unknown }[] = [
    { name: "a string", out: "done", want: "done" },
    { name: "a number", out: 3, want: 3 },
    { name: "false", out: false, want: false },
    { name: "an array", out: [1, "a"], want: [1, "a"] },
    { name: "a promise", out: Promise.resolve({ a: 1 }), want: { a: 1 } },
    { name: "a Date (serialised as JSON)", out: new Date(0), want: "1970-01-01T00:00:00.000Z" },
    { name: "undefined", out: undefined, want: undefined },
    { name: "null", out: null, want: undefined },
  ];
  for (const c of outputs) {
    test(`${c.name} is the output`, async () => {
      const result = await answer(defineNode("n", () => c.out));
      assert.deepEqual(result["output"], c.want);
      assert.equal(result["error"], undefined);
    });
  }

  test("a route list and no input; an input the call does not carry is undefined", async () => {
    let input: JsonValue | undefined = "unset";
    const result = await answer(defineNode("n", (nodeInput, ctx) => {
      input = nodeInput;
      ctx.route = ["a", 1, true];
    }));
    assert.equal(input, undefined);
    assert.deepEqual(result, { callId: "n-1", route: ["a", 1, true] });
  });

  test("a returned RequestInput asks for input, its schema and payload as JSON", async () => {
    const result = await answer(defineNode("approval_gate", (nodeInput) => new RequestInput({
      message: "Approve the order?",
      payload: nodeInput,
      responseSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
    })), call("approval_gate", { order: "#42" }));
    assert.deepEqual(result, {
      callId: "n-1",
      requestInputs: [{
        message: "Approve the order?",
        payload: { order: "#42" },
        responseSchema: { type: "object", properties: { approved: { type: "boolean" } }, required: ["approved"] },
      }],
    });
  });

  test("an array of RequestInputs, and RequestInputs a generator yields with its output", async () => {
    const list = await answer(defineNode("n", () => [
      new RequestInput({ interruptId: "tags", responseSchema: { type: "array", items: { type: "string" } } }),
      new RequestInput({ interruptId: "note", message: "Any note?" }),
    ]));
    assert.deepEqual(list["requestInputs"], [
      { interruptId: "tags", responseSchema: { type: "array", items: { type: "string" } } },
      { interruptId: "note", message: "Any note?" },
    ]);
    assert.equal(list["output"], undefined);

    const sync = await answer(defineNode("n", function* () {
      yield new RequestInput({ interruptId: "a" });
    }));
    assert.deepEqual(sync["requestInputs"], [{ interruptId: "a" }]);

    const gen = await answer(defineNode("n", async function* (_input, ctx) {
      ctx.state.step = 1;
      yield new RequestInput({ interruptId: "b", payload: [1, 2] });
      yield "partial";
    }));
    assert.deepEqual(gen, { callId: "n-1", output: "partial", stateDelta: { step: 1 }, requestInputs: [{ interruptId: "b", payload: [1, 2] }] });
  });

  test("RequestInput refuses a schema or payload JSON cannot carry", () => {
    assert.throws(() => new RequestInput({ payload: () => 1 }), /RequestInput payload is a function/);
    assert.throws(() => new RequestInput({ responseSchema: "string" as never }), /responseSchema must be a JSON object/);
  });

  const errors: { name: string; fn: NodeFunction; type: string; message: string }[] = [
    { name: "a subclass of Error", fn: () => { throw new ValueError("bad value"); }, type: "ValueError", message: "bad value" },
    {
      name: "an error named ValueError",
      fn: () => { throw Object.assign(new Error("flaky"), { name: "ValueError" }); },
      type: "ValueError",
      message: "flaky",
    },
    { name: "a rejected promise", fn: () => Promise.reject(new RangeError("far")), type: "RangeError", message: "far" },
    { name: "a thrown string", fn: () => { throw "boom"; }, type: "Error", message: "boom" },
    { name: "an output JSON cannot carry", fn: () => ({ f: () => 1 }), type: "TypeError", message: "node n: output.f is a function, which JSON cannot carry" },
    {
      name: "a route that is not a scalar",
      fn: (_input, ctx) => {
        ctx.route = { a: 1 };
      },
      type: "TypeError",
      message: "node n: route must be a boolean, number or string, or an array of them",
    },
  ];
  for (const c of errors) {
    test(`${c.name} is the node's error, named by its class`, async () => {
      const result = await answer(defineNode("n", c.fn));
      assert.deepEqual(result, { callId: "n-1", error: { type: c.type, message: c.message } });
    });
  }

  test("deleting a state key or setting a value JSON cannot carry fails the node", async () => {
    const del = await answer(defineNode("n", (_i, ctx) => {
      delete ctx.state.a;
    }), call("n", undefined, { state: { a: 1 } }));
    assert.equal((del["error"] as { type: string }).type, "TypeError");
    const bad = await answer(defineNode("n", (_i, ctx) => {
      ctx.state.a = (() => 1) as never;
    }));
    assert.deepEqual(bad["error"], { type: "TypeError", message: 'state["a"] is a function, which JSON cannot carry' });
  });

  test("a node this client does not declare is answered with an error, as an unknown tool is", async () => {
    const result = await answer(undefined, call("nope"));
    assert.deepEqual(result, { callId: "n-1", error: { type: "Error", message: "Node 'nope' is not declared by this client." } });
  });

  test("errorType prefers a set name, then the constructor's", () => {
    assert.equal(errorType(new TypeError("x")), "TypeError");
    assert.equal(errorType(new ValueError("x")), "ValueError");
    assert.equal(errorType(new Error("x")), "Error");
    assert.equal(errorType(42), "Error");
  });

  test("defineNode names a node by its function or explicitly, and checks the name", () => {
    function prepare() {
      return 1;
    }
    assert.equal(defineNode(prepare).name, "prepare");
    assert.equal(defineNode("other", prepare).name, "other");
    assert.throws(() => defineNode(() => 1), /node name "" is invalid/);
    assert.throws(() => defineNode("bad name", prepare), /node name "bad name" is invalid/);
    assert.throws(() => defineNode("x", undefined as never), /node function is missing/);
  });
});

describe("workflow nodes over Connect against an in-process server", () => {
  let server: FakeServer | undefined;
  let client: AgentsvcClient | undefined;
  afterEach(async () => {
    client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  async function serve(connect: (requests: AsyncIterable<ConnectRequest>) => AsyncIterable<never>): Promise<AgentsvcClient> {
    server = await startFakeServer({ runner: { connect: connect as never } });
    client = new AgentsvcClient({ address: server.address });
    return client;
  }

  test("a run with nodes declares them and answers each node call", async () => {
    let start: StartRun | undefined;
    const results: NodeResult[] = [];
    const c = await serve(async function* (requests) {
      const it = requests[Symbol.asyncIterator]();
      start = (await it.next()).value.kind.value as StartRun;
      for (const [name, input] of [["prepare", "Order #42"], ["flaky", 1], ["ghost", null]] as const) {
        yield { kind: { case: "nodeCall", value: { callId: `c-${name}`, name, nodeName: name, nodeInput: fromJson(ValueSchema, input), state: { n: 1 }, attempt: 1 } } } as never;
        const msg = (await it.next()).value as ConnectRequest;
        assert.equal(msg.kind.case, "nodeResult");
        results.push(msg.kind.value as NodeResult);
      }
      yield { kind: { case: "event", value: { id: "ev", invocationId: "e-1", author: "approvals", content: { role: "model", parts: [{ text: "Done." }] } } } } as never;
      yield { kind: { case: "done", value: { invocationId: "e-1" } } } as never;
    });

    function prepare(input: JsonValue | undefined, ctx: NodeContext) {
      ctx.state.prepared = true;
      ctx.route = "next";
      return { order: input };
    }
    const flaky = defineNode("flaky", () => {
      throw new ValueError("first call fails");
    });
    const events = await within(c.run({ appName: "approvals", userId: "u", sessionId: "s", message: "Order #42", nodes: [prepare, flaky] }).collect(), 5000, "the run");

    assert.deepEqual(start?.nodes.map((n) => n.name), ["prepare", "flaky"]);
    assert.deepEqual(start?.tools, []);
    assert.deepEqual(results.map((r) => toJson(NodeResultSchema, r)), [
      { callId: "c-prepare", output: { order: "Order #42" }, stateDelta: { prepared: true }, route: "next" },
      { callId: "c-flaky", error: { type: "ValueError", message: "first call fails" } },
      { callId: "c-ghost", error: { type: "Error", message: "Node 'ghost' is not declared by this client." } },
    ]);
    assert.deepEqual(events.map(eventText), ["Done."]);
  });

  test("nodes declared twice are refused before anything is sent", () => {
    const c = new AgentsvcClient({ address: "127.0.0.1:1" });
    try {
      const a = defineNode("a", () => 1);
      assert.throws(() => c.run({ appName: "x", userId: "u", sessionId: "s", message: "hi", nodes: [a, a] }), /node a is declared twice/);
    } finally {
      c.close();
    }
  });
});

describe("runNode and session", () => {
  test("runNode sends a request for the call, resolves to the output and rejects as the answer says", async () => {
    const requests: RunNodeRequest[] = [];
    const answers = [
      { nodePath: "p/double@r", output: fromJson(ValueSchema, 6) },
      { nodePath: "p/shout@1" },
      {
        nodePath: "p/double@2",
        error: { type: "DynamicNodeFailError", message: "Dynamic node double failed" },
        cause: { type: "KeyError", message: "'nope'" },
      },
      { error: { type: "ValueError", message: "A node must have rerun_on_resume=True." } },
    ];
    const channel = async (req: Parameters<NonNullable<Parameters<typeof answerNodeCall>[3]>>[0]) => {
      requests.push(create(RunNodeRequestSchema, req));
      return create(RunNodeResponseSchema, { callId: req.callId ?? "", requestId: req.requestId ?? "", ...answers[requests.length - 1] });
    };
    const double = defineNode("double", (input) => (input as number) * 2, { dynamic: true });
    const seen: unknown[] = [];
    const plan = defineNode(
      "plan",
      async (_input, ctx) => {
        seen.push(await ctx.runNode(double, 3, { useAsOutput: true, runId: "r" }));
        seen.push(await ctx.runNode("shout"));
        for (let i = 0; i < 2; i++) {
          await ctx.runNode(double).catch((err: unknown) => seen.push(err));
        }
        seen.push([ctx.session.id, ctx.session.userId, ctx.session.events.map((e) => e.id), ctx.session.state]);
        return "done";
      },
      { sessionEvents: true },
    );
    const c = call("plan", undefined, { state: { k: 1 }, sessionId: "s", userId: "u", sessionEvents: [{ id: "ev-1" }] });
    const result = toJson(NodeResultSchema, create(NodeResultSchema, await answerNodeCall(plan, c, live, channel))) as Record<string, unknown>;
    assert.equal(result["output"], "done");
    assert.deepEqual(
      requests.map((r) => [r.callId, r.requestId, r.target.case, r.target.value, r.useAsOutput, r.runId]),
      [
        ["n-1", "1", "function", "double", true, "r"],
        ["n-1", "2", "node", "shout", false, ""],
        ["n-1", "3", "function", "double", false, ""],
        ["n-1", "4", "function", "double", false, ""],
      ],
    );
    assert.equal(toJson(ValueSchema, requests[0]!.nodeInput!), 3);
    assert.equal(seen[0], 6);
    assert.equal(seen[1], undefined);
    const fail = seen[2];
    assert.ok(fail instanceof DynamicNodeFailError);
    assert.equal(fail.message, "Dynamic node double failed");
    assert.deepEqual([fail.error, fail.errorNodePath], [{ type: "KeyError", message: "'nope'" }, "p/double@2"]);
    const refused = seen[3] as Error;
    assert.deepEqual([refused.name, refused.message], ["ValueError", "A node must have rerun_on_resume=True."]);
    assert.deepEqual(seen[4], ["s", "u", ["ev-1"], { k: 1 }]);
  });

  test("declarations carry dynamic and sessionEvents", () => {
    const node = defineNode("helper", () => undefined, { dynamic: true, sessionEvents: true });
    assert.equal(node.dynamic, true);
    assert.equal(node.sessionEvents, true);
    assert.equal(defineNode("plain", () => undefined).dynamic, false);
  });
});
