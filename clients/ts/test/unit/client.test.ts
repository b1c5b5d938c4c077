import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Code, ConnectError } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  AgentsvcClient,
  CancelledError,
  defineTool,
  eventText,
  FailedPreconditionError,
  InvalidArgumentError,
  newRequestId,
  NotFoundError,
  SessionBusyError,
  type ToolContext,
} from "../../src/index.js";
import type { ConnectRequest, ConnectResponseSchema, StartRun, ToolResult } from "../../src/gen/agentsvc/v1/runner_service_pb.js";
import type { GetSessionRequest, ListSessionsRequest } from "../../src/gen/agentsvc/v1/session_service_pb.js";
import { ErrorInfoSchema } from "../../src/gen/google/rpc/error_details_pb.js";
import { deferred, within } from "../support.js";
import { type FakeServer, type FakeServices, startFakeServer } from "./fakeserver.js";

type Out = MessageInitShape<typeof ConnectResponseSchema>;

const key = { appName: "weather", userId: "u", sessionId: "s" };

function statusError(message: string, code: Code, reason: string): ConnectError {
  return new ConnectError(message, code, undefined, [
    { desc: ErrorInfoSchema, value: { reason, domain: "agentsvc" } },
  ]);
}

function textEvent(text: string, id = "ev"): Out {
  return { kind: { case: "event", value: { id, invocationId: "e-1", author: "weather_agent", content: { role: "model", parts: [{ text }] } } } };
}

function toolCall(id: string, name: string, args: Record<string, unknown> = {}): Out {
  return {
    kind: {
      case: "toolCall",
      value: { callId: id, invocationId: "e-1", agentName: "weather_agent", functionCall: { id, name, args: args as never } },
    },
  };
}

/** Reads the next message of a Connect request stream. */
async function next(it: AsyncIterator<ConnectRequest>): Promise<ConnectRequest> {
  const res = await it.next();
  assert.equal(res.done, false, "the client ended its stream");
  return res.value as ConnectRequest;
}

let server: FakeServer | undefined;
let client: AgentsvcClient | undefined;

async function serve(services: FakeServices, options: ConstructorParameters<typeof AgentsvcClient>[0] = {}): Promise<AgentsvcClient> {
  server = await startFakeServer(services);
  client = new AgentsvcClient({ address: server.address, cancelGraceMs: 2000, ...options });
  return client;
}

afterEach(async () => {
  client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe("Connect runs against an in-process server", () => {
  test("declares the tools and answers parallel calls concurrently, in completion order", async () => {
    let start: StartRun | undefined;
    const results: ToolResult[] = [];
    const c = await serve({
      runner: {
        async *connect(requests) {
          const it = requests[Symbol.asyncIterator]();
          const first = await next(it);
          assert.equal(first.kind.case, "start");
          start = first.kind.value as StartRun;
          yield toolCall("adk-a", "get_weather", { city: "Paris" });
          yield toolCall("adk-b", "get_forecast", { city: "Paris" });
          yield toolCall("adk-c", "get_air_quality", { city: "Paris" });
          for (let i = 0; i < 3; i++) {
            const msg = await next(it);
            assert.equal(msg.kind.case, "toolResult");
            results.push(msg.kind.value as ToolResult);
          }
          yield textEvent("All answered.");
          yield { kind: { case: "done", value: { invocationId: "e-1" } } };
        },
      },
    });

    // Each tool waits until all three have started, so the run can only
    // finish if they run at the same time; then they finish in reverse order.
    let started = 0;
    const allStarted = deferred();
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const;
    const make = (name: string, delayMs: number) =>
      defineTool({
        name,
        description: `${name} of a city`,
        parameters: schema,
        run: async ({ city }) => {
          if (++started === 3) allStarted.resolve();
          await within(allStarted.promise, 2000, "the three tools to start");
          await sleep(delayMs);
          return name === "get_air_quality" ? 42 : { tool: name, city };
        },
      });
    const tools = [make("get_weather", 80), make("get_forecast", 40), make("get_air_quality", 0)];

    const run = c.run({ ...key, message: "Weather in Paris?", tools });
    const events = await within(run.collect(), 5000, "the run");

    assert.deepEqual(start?.tools.map((t) => t.name), ["get_weather", "get_forecast", "get_air_quality"]);
    assert.deepEqual(start?.tools[0]?.parameters, { type: "object", properties: { city: { type: "string" } }, required: ["city"] });
    assert.equal(start?.run?.newMessage?.role, "user");
    assert.equal(start?.run?.newMessage?.parts[0]?.text, "Weather in Paris?");
    assert.deepEqual(results.map((r) => r.callId), ["adk-c", "adk-b", "adk-a"]);
    assert.deepEqual(results[0]?.response?.kind, { case: "numberValue", value: 42 });
    assert.equal(results[2]?.response?.kind.case, "structValue");
    assert.deepEqual(events.map(eventText), ["All answered."]);
    assert.equal(run.completed, true);
    assert.equal(run.invocationId, "e-1");
  });

  test("a failed run yields the events before the failure, then rejects with the mapped error", async () => {
    const c = await serve({
      runner: {
        async *connect() {
          yield textEvent("calling a tool", "first");
          throw statusError("Tool 'get_weather' not found.", Code.FailedPrecondition, "TOOL_NOT_FOUND");
        },
      },
    });
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const event of c.run({ ...key, message: "hi", tools: [] })) {
          seen.push(event.id);
        }
      },
      (err: unknown) => {
        assert.ok(err instanceof FailedPreconditionError);
        assert.equal(err.reason, "TOOL_NOT_FOUND");
        assert.equal(err.message, "Tool 'get_weather' not found.");
        return true;
      },
    );
    assert.deepEqual(seen, ["first"]);
  });

  test("cancel() sends CancelRun, aborts running tools and ends the iteration quietly", async () => {
    const serverSaw = deferred<string>();
    const c = await serve({
      runner: {
        async *connect(requests) {
          const it = requests[Symbol.asyncIterator]();
          await next(it);
          yield toolCall("adk-slow", "slow");
          const msg = await next(it);
          serverSaw.resolve(msg.kind.case ?? "nothing");
          throw statusError("invocation cancelled", Code.Canceled, "CANCELLED");
        },
      },
    });
    const toolAborted = deferred();
    const slow = defineTool({
      name: "slow",
      run: (_args, ctx: ToolContext) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => {
            toolAborted.resolve();
            reject(new Error("aborted"));
          });
          run.cancel();
        }),
    });
    const run = c.run({ ...key, message: "hi", tools: [slow] });
    const events = await within(run.collect(), 5000, "the cancelled run");
    assert.deepEqual(events, []);
    assert.equal(await within(serverSaw.promise, 1000, "the server"), "cancel");
    await within(toolAborted.promise, 1000, "the tool's abort");
    assert.equal(run.isCancelled, true);
    assert.equal(run.completed, false);
  });

  test("cancel() resets the stream when the service does not end it within the grace period", async () => {
    const serverAborted = deferred();
    const c = await serve(
      {
        runner: {
          async *connect(_requests, ctx) {
            yield textEvent("working");
            // Ignores the cancel message; only a reset stops it.
            await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
            serverAborted.resolve();
          },
        },
      },
      { cancelGraceMs: 100 },
    );
    const run = c.run({ ...key, message: "hi", tools: [] });
    const events = [];
    for await (const event of run) {
      events.push(event);
      run.cancel();
    }
    assert.equal(events.length, 1);
    await within(serverAborted.promise, 2000, "the server to see the reset");
  });

  test("breaking out of the loop cancels the call", async () => {
    const serverAborted = deferred();
    const c = await serve({
      runner: {
        async *connect(_requests, ctx) {
          yield textEvent("one");
          await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
          serverAborted.resolve();
        },
      },
    });
    for await (const event of c.run({ ...key, message: "hi", tools: [] })) {
      assert.equal(eventText(event), "one");
      break;
    }
    await within(serverAborted.promise, 2000, "the server to see the cancellation");
  });

  test("an aborted signal rejects with CancelledError and stops the server side", async () => {
    const serverAborted = deferred();
    const c = await serve({
      runner: {
        async *connect(_requests, ctx) {
          yield textEvent("one");
          await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
          serverAborted.resolve();
        },
      },
    });
    const controller = new AbortController();
    await assert.rejects(async () => {
      for await (const _event of c.run({ ...key, message: "hi", tools: [], signal: controller.signal })) {
        controller.abort();
      }
    }, CancelledError);
    await within(serverAborted.promise, 2000, "the server to see the cancellation");
  });

  test("an Invocation is iterated once; nothing is sent before iterating", async () => {
    let calls = 0;
    const c = await serve({
      runner: {
        async *connect() {
          calls++;
          yield { kind: { case: "done", value: { invocationId: "e-9" } } };
        },
      },
    });
    const run = c.run({ ...key, message: "hi", tools: [] });
    await sleep(20);
    assert.equal(calls, 0);
    assert.deepEqual(await run.collect(), []);
    assert.equal(run.invocationId, "e-9");
    assert.throws(() => run[Symbol.asyncIterator](), /only once/);
  });
});

describe("plain runs, sessions and apps against an in-process server", () => {
  test("run without tools uses Run and streams its events", async () => {
    let streaming = -1;
    const c = await serve({
      runner: {
        async *run(req) {
          streaming = req.runConfig?.streamingMode ?? -1;
          yield { event: { invocationId: "e-2", content: { parts: [{ text: "Echo: " }] }, partial: true } };
          yield { event: { invocationId: "e-2", content: { parts: [{ text: "Echo: hi" }] } } };
        },
      },
    });
    const run = c.run({ ...key, message: "hi", streaming: "sse" });
    const events = await run.collect();
    assert.deepEqual(events.map(eventText), ["Echo: ", "Echo: hi"]);
    assert.equal(streaming, 2);
    assert.equal(run.invocationId, "e-2");
    assert.equal(run.completed, true);
  });

  test("a request id reaches the service on Run and on Connect's start, the same on a retry", async () => {
    const seen: string[] = [];
    const c = await serve({
      runner: {
        async *run(req) {
          seen.push(`run:${req.requestId}`);
          yield { event: { invocationId: "e-3", content: { parts: [{ text: "ok" }] } } };
        },
        async *connect(requests) {
          const first = await next(requests[Symbol.asyncIterator]());
          seen.push(`connect:${(first.kind.value as StartRun).run?.requestId ?? "?"}`);
          yield { kind: { case: "done", value: { invocationId: "e-3" } } };
        },
      },
    });
    const requestId = newRequestId();
    assert.match(requestId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(newRequestId(), requestId);
    await c.run({ ...key, message: "hi", requestId }).collect();
    await c.run({ ...key, message: "hi", requestId }).collect();
    await c.run({ ...key, message: "hi", requestId, tools: [] }).collect();
    await c.run({ ...key, message: "hi" }).collect();
    await c.run({ ...key, message: "hi", tools: [] }).collect();
    assert.deepEqual(seen, [`run:${requestId}`, `run:${requestId}`, `connect:${requestId}`, "run:", "connect:"]);
  });

  test("a busy session rejects with SessionBusyError", async () => {
    const c = await serve({
      runner: {
        async *run() {
          throw statusError("session is busy", Code.Aborted, "SESSION_BUSY");
        },
      },
    });
    await assert.rejects(c.run({ ...key, message: "hi" }).collect(), SessionBusyError);
  });

  test("session and app calls map their statuses; headers reach the server", async () => {
    let auth: string | null = null;
    const c = await serve(
      {
        sessions: {
          getSession(_req, ctx) {
            auth = ctx.requestHeader.get("authorization");
            throw statusError("Session not found", Code.NotFound, "SESSION_NOT_FOUND");
          },
          createSession(req) {
            return { session: { id: req.sessionId || "generated", appName: req.appName, userId: req.userId, state: req.state ?? {} } };
          },
          listSessions() {
            return { sessions: [{ id: "a" }, { id: "b" }] };
          },
          deleteSession() {
            return {};
          },
          updateSessionState(req) {
            return { session: { id: req.sessionId, state: req.stateDelta ?? {} } };
          },
        },
        apps: {
          listApps() {
            return { appNames: ["echo", "weather"] };
          },
          getApp(req) {
            return { app: { name: req.appName, rootAgent: { name: "weather_agent", tools: [{ name: "get_weather", remote: true }] } } };
          },
        },
      },
      { headers: () => ({ authorization: "Bearer t0ken" }) },
    );
    await assert.rejects(c.getSession(key), (err: unknown) => err instanceof NotFoundError && err.reason === "SESSION_NOT_FOUND");
    assert.equal(auth, "Bearer t0ken");
    assert.equal(await c.findSession(key), undefined);
    const created = await c.createSession({ appName: "weather", userId: "u", state: { n: 1 } });
    assert.equal(created.id, "generated");
    assert.deepEqual(created.state, { n: 1 });
    assert.deepEqual((await c.listSessions({ appName: "weather", userId: "u" })).map((s) => s.id), ["a", "b"]);
    await c.deleteSession(key);
    assert.deepEqual((await c.updateSessionState({ ...key, stateDelta: { x: "y" } })).state, { x: "y" });
    assert.deepEqual(await c.listApps(), ["echo", "weather"]);
    assert.equal((await c.getApp("weather")).rootAgent?.tools[0]?.remote, true);
    await assert.rejects(c.rewindSession({ ...key, rewindBeforeInvocationId: "e-1" }), (err: unknown) =>
      err instanceof Error && err.name === "UnimplementedError");
  });

  test("pages of a session: getSessionPage, sessionPages and sessionEvents follow next_page_token", async () => {
    // A session of five events served in pages of pageSize; the token is the
    // position of the next event.
    const requests: GetSessionRequest[] = [];
    const ids = ["u1", "a1", "u2", "a2", "p3"];
    const c = await serve({
      sessions: {
        getSession(req) {
          requests.push(req);
          if (req.pageToken === "bad") {
            throw statusError("page_token is not a valid token for this request", Code.InvalidArgument, "INVALID_ARGUMENT");
          }
          const from = req.pageToken === "" ? 0 : Number(req.pageToken);
          const to = Math.min(from + req.pageSize, ids.length);
          return {
            session: { id: req.sessionId, state: { page: from }, events: ids.slice(from, to).map((id) => ({ id })) },
            nextPageToken: to < ids.length ? String(to) : "",
          };
        },
      },
    });

    const first = await c.getSessionPage(key);
    assert.equal(requests[0]?.pageSize, 100);
    assert.equal(requests[0]?.pageToken, "");
    assert.deepEqual(first.session.events.map((e) => e.id), ids);
    assert.equal(first.nextPageToken, "");

    requests.length = 0;
    const page = await c.getSessionPage({ ...key, pageSize: 2, pageToken: "2", numRecentEvents: 9, afterTimestamp: 1.5 });
    assert.deepEqual(page.session.events.map((e) => e.id), ["u2", "a2"]);
    assert.equal(page.nextPageToken, "4");
    assert.deepEqual([requests[0]?.pageSize, requests[0]?.pageToken, requests[0]?.numRecentEvents, requests[0]?.afterTimestamp], [2, "2", 9, 1.5]);

    requests.length = 0;
    const pages = [];
    for await (const p of c.sessionPages({ ...key, pageSize: 2, numRecentEvents: 7 })) {
      pages.push([p.session.state?.["page"], p.session.events.map((e) => e.id), p.nextPageToken]);
    }
    assert.deepEqual(pages, [[0, ["u1", "a1"], "2"], [2, ["u2", "a2"], "4"], [4, ["p3"], ""]]);
    assert.deepEqual(requests.map((r) => [r.pageToken, r.pageSize, r.numRecentEvents]), [["", 2, 7], ["2", 2, 7], ["4", 2, 7]]);

    const events = [];
    for await (const event of c.sessionEvents({ ...key, pageSize: 1 })) {
      events.push(event.id);
    }
    assert.deepEqual(events, ids);

    const rest = [];
    for await (const event of c.sessionEvents({ ...key, pageSize: 1, pageToken: "3" })) {
      rest.push(event.id);
    }
    assert.deepEqual(rest, ["a2", "p3"]);

    // Pages are read as they are consumed: leaving the loop reads no more.
    requests.length = 0;
    for await (const event of c.sessionEvents({ ...key, pageSize: 2 })) {
      if (event.id === "a1") break;
    }
    assert.equal(requests.length, 1);

    await assert.rejects(c.getSessionPage({ ...key, pageToken: "bad" }), InvalidArgumentError);
  });

  test("pages of a user's sessions: listSessionsPage and iterSessions follow next_page_token", async () => {
    // Five sessions served in pages of pageSize; the token is the position
    // of the next session.
    const requests: ListSessionsRequest[] = [];
    const ids = ["s0", "s1", "s2", "s3", "s4"];
    const c = await serve({
      sessions: {
        listSessions(req) {
          requests.push(req);
          if (req.pageToken === "bad") {
            throw statusError("page_token is not a valid token for this request", Code.InvalidArgument, "INVALID_ARGUMENT");
          }
          const from = req.pageToken === "" ? 0 : Number(req.pageToken);
          const to = req.pageSize === 0 ? ids.length : Math.min(from + req.pageSize, ids.length);
          return { sessions: ids.slice(from, to).map((id) => ({ id })), nextPageToken: to < ids.length ? String(to) : "" };
        },
      },
    });
    const user = { appName: "weather", userId: "alice" };

    assert.deepEqual((await c.listSessions(user)).map((s) => s.id), ids);
    assert.equal(requests[0]?.pageSize, 0);

    requests.length = 0;
    const page = await c.listSessionsPage({ ...user, pageSize: 2, pageToken: "2" });
    assert.deepEqual(page.sessions.map((s) => s.id), ["s2", "s3"]);
    assert.equal(page.nextPageToken, "4");
    assert.deepEqual([requests[0]?.appName, requests[0]?.userId, requests[0]?.pageSize, requests[0]?.pageToken], ["weather", "alice", 2, "2"]);

    requests.length = 0;
    const all = [];
    for await (const s of c.iterSessions({ ...user, pageSize: 2 })) {
      all.push(s.id);
    }
    assert.deepEqual(all, ids);
    assert.deepEqual(requests.map((r) => [r.pageToken, r.pageSize]), [["", 2], ["2", 2], ["4", 2]]);

    // Pages are read as they are consumed: leaving the loop reads no more.
    requests.length = 0;
    for await (const s of c.iterSessions({ ...user, pageSize: 2 })) {
      if (s.id === "s1") break;
    }
    assert.equal(requests.length, 1);

    await assert.rejects(c.listSessionsPage({ ...user, pageToken: "bad" }), InvalidArgumentError);
  });

  test("sessionEvents rejects with the mapped error of a page", async () => {
    const c = await serve({
      sessions: {
        getSession() {
          throw statusError("Session not found", Code.NotFound, "SESSION_NOT_FOUND");
        },
      },
    });
    await assert.rejects(async () => {
      for await (const _event of c.sessionEvents(key)) {
        assert.fail("no event expected");
      }
    }, NotFoundError);
  });

  test("an unreachable service is UnavailableError", async () => {
    const c = new AgentsvcClient({ address: "127.0.0.1:1" });
    try {
      await assert.rejects(c.listApps(), { name: "UnavailableError" });
    } finally {
      c.close();
    }
  });
});

describe("addresses", () => {
  test("accepts host:port and URLs, rejects mismatched TLS settings", async () => {
    const { endpoint } = await import("../../src/client.js");
    assert.equal(endpoint("127.0.0.1:50051", undefined).baseUrl, "http://127.0.0.1:50051");
    assert.equal(endpoint("example.com:443", true).baseUrl, "https://example.com:443");
    assert.equal(endpoint("https://example.com", undefined).baseUrl, "https://example.com");
    assert.equal(endpoint("http://localhost:8080/", undefined).baseUrl, "http://localhost:8080");
    assert.deepEqual(endpoint("h:1", { servername: "x" }).nodeOptions, { servername: "x" });
    assert.throws(() => endpoint("http://h:1", true), /is http:\/\/ but tls is set/);
    assert.throws(() => endpoint("https://h:1", false), /is https:\/\/ but tls is false/);
    assert.throws(() => endpoint("h:1/path", undefined), /is invalid/);
  });
});

