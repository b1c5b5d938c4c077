import assert from "node:assert/strict";
import { after, beforeEach, describe, test } from "node:test";
import {
  defineCallback,
  defineTool,
  eventText,
  FailedPreconditionError,
  functionResponses,
  isFinalResponse,
  lastUserText,
} from "../../src/index.js";
import { callsFunctions, fakeGemini, freshKey, liveClient, says } from "./stack.js";

const client = liveClient();
after(() => client.close());
beforeEach(() => fakeGemini.reset());

const getWeather = defineTool({
  name: "get_weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: ({ city }) => ({ city, weather: "sunny" }),
});

/** Answers for the model when the user asks about something forbidden. */
const guardInput = defineCallback({
  name: "guard_input",
  beforeModel(ctx, request) {
    if (lastUserText(request).includes("forbidden")) {
      ctx.setState("guarded", true);
      return "Blocked.";
    }
    return undefined;
  },
});

/** Replaces every tool result. */
const redactResult = defineCallback({
  name: "redact_result",
  afterTool(ctx, args, response) {
    assert.equal(ctx.kind, "after_tool");
    assert.equal(ctx.toolName, "get_weather");
    assert.deepEqual(args, { city: "Paris" });
    assert.equal(response["weather"], "sunny");
    return { forecast: "redacted" };
  },
});

describe("live: callbacks written in TypeScript", () => {
  test("a before_model callback answers instead of the model and sets state", async () => {
    const key = freshKey("guarded");
    await client.createSession(key);
    const events = await client.run({
      ...key, message: "Tell me about a forbidden topic.", tools: [getWeather], callbacks: [guardInput, redactResult],
    }).collect();

    assert.deepEqual(events.filter(isFinalResponse).map(eventText), ["Blocked."]);
    assert.equal((await fakeGemini.requests()).length, 0);
    const session = await client.getSession(key);
    assert.equal(session.state?.["guarded"], true);
  });

  test("an after_tool callback replaces the tool's result", async () => {
    await fakeGemini.script(callsFunctions({ name: "get_weather", args: { city: "Paris" } }), says("Redacted, sorry."));
    const key = freshKey("guarded");
    await client.createSession(key);
    const events = await client.run({
      ...key, message: "What's the weather in Paris?", tools: [getWeather], callbacks: [guardInput, redactResult],
    }).collect();

    const responses = events.flatMap(functionResponses).map((r) => r.response);
    assert.deepEqual(responses, [{ forecast: "redacted" }]);
    assert.deepEqual(events.filter(isFinalResponse).map(eventText), ["Redacted, sorry."]);
  });

  test("a callback the client does not declare is refused before anything is stored", async () => {
    const key = freshKey("guarded");
    await client.createSession(key);
    const run = client.run({ ...key, message: "Hi", tools: [getWeather], callbacks: [redactResult] });
    await assert.rejects(run.collect(), (err: unknown) => {
      assert.ok(err instanceof FailedPreconditionError);
      assert.match(err.message, /guard_input/);
      return true;
    });
    const session = await client.getSession(key);
    assert.equal(session.events.length, 0);
  });
});
