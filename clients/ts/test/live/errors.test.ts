import assert from "node:assert/strict";
import { after, beforeEach, describe, test } from "node:test";
import {
  AlreadyExistsError,
  Code,
  FailedPreconditionError,
  functionCalls,
  InvalidArgumentError,
  NotFoundError,
  ResourceExhaustedError,
} from "../../src/index.js";
import { callsFunctions, fakeGemini, freshKey, liveClient, says } from "./stack.js";
import { defineTool } from "../../src/index.js";

const client = liveClient();
after(() => client.close());
beforeEach(() => fakeGemini.reset());

describe("live: errors map to exceptions", () => {
  test("an unknown session is NotFoundError with ErrorInfo reason SESSION_NOT_FOUND", async () => {
    const key = freshKey("echo");
    await assert.rejects(client.getSession(key), (err: unknown) => {
      assert.ok(err instanceof NotFoundError);
      assert.equal(err.code, Code.NotFound);
      assert.equal(err.reason, "SESSION_NOT_FOUND");
      assert.equal(err.domain, "agentsvc");
      assert.match(err.message, /Session not found/);
      return true;
    });
    await assert.rejects(client.run({ ...key, message: "hi" }).collect(), NotFoundError);
    await assert.rejects(client.run({ ...key, message: "hi", tools: [] }).collect(), NotFoundError);
  });

  test("an unknown app is NotFoundError with reason APP_NOT_FOUND", async () => {
    await assert.rejects(client.getApp("no_such_app"), (err: unknown) =>
      err instanceof NotFoundError && err.reason === "APP_NOT_FOUND");
  });

  test("a taken session id is AlreadyExistsError", async () => {
    const key = freshKey("echo");
    await client.createSession(key);
    await assert.rejects(client.createSession(key), AlreadyExistsError);
  });

  test("a malformed request is InvalidArgumentError", async () => {
    const key = freshKey("echo");
    await assert.rejects(client.getSession({ ...key, appName: "bad name!" }), InvalidArgumentError);
    const unknownTool = defineTool({ name: "not_in_the_app", run: () => null });
    const weather = freshKey("weather");
    await client.createSession(weather);
    await assert.rejects(
      client.run({ ...weather, message: "hi", tools: [unknownTool] }).collect(),
      (err: unknown) => err instanceof InvalidArgumentError && /not_in_the_app/.test(err.message),
    );
  });

  test("an undeclared remote tool fails the run with FailedPreconditionError after the call event", async () => {
    const key = freshKey("weather");
    await client.createSession(key);
    await fakeGemini.script(callsFunctions({ name: "get_weather", args: { city: "Rome" } }));
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const event of client.run({ ...key, message: "Weather in Rome?", tools: [] })) {
          seen.push(...functionCalls(event).map((c) => c.name));
        }
      },
      (err: unknown) => {
        assert.ok(err instanceof FailedPreconditionError, String(err));
        assert.match(err.message, /Tool 'get_weather' not found/);
        return true;
      },
    );
    assert.deepEqual(seen, ["get_weather"]);
  });

  test("exceeding max_llm_calls is ResourceExhaustedError", async () => {
    const key = freshKey("weather");
    await client.createSession(key);
    await fakeGemini.script(callsFunctions({ name: "get_weather", args: { city: "Rome" } }), says("never reached"));
    const tool = defineTool({ name: "get_weather", run: () => ({ ok: true }) });
    await assert.rejects(
      client.run({ ...key, message: "Weather in Rome?", tools: [tool], maxLlmCalls: 1 }).collect(),
      ResourceExhaustedError,
    );
  });
});
