import assert from "node:assert/strict";
import { after, beforeEach, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  CancelledError,
  defineTool,
  type Event,
  eventText,
  functionCalls,
  functionResponses,
  isFinalResponse,
  type Session,
} from "../../src/index.js";
import { callsFunctions, fakeGemini, freshKey, liveClient, says } from "./stack.js";

const client = liveClient();
after(() => client.close());
beforeEach(() => fakeGemini.reset());

/** Checks that the stored events are whole (no partial event) and none is a final answer of the model. */
function assertStopped(session: Session): void {
  assert.ok(session.events.every((e: Event) => !e.partial), "a partial event was stored");
  const answers = session.events.filter((e) => e.author !== "user" && isFinalResponse(e));
  assert.deepEqual(answers.map(eventText), [], "a final answer was stored");
}

describe("live: cancellation", () => {
  test("cancel() while a tool runs stops the invocation; the session takes a new run", async () => {
    const key = freshKey("weather");
    await client.createSession(key);
    await fakeGemini.script(callsFunctions({ name: "get_weather", args: { city: "Lima" } }), says("must not be stored"));

    let toolAborted = false;
    const slow = defineTool({
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      run: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            toolAborted = true;
            resolve({ late: true });
          });
          run.cancel();
        }),
    });
    const run = client.run({ ...key, message: "Weather in Lima?", tools: [slow] });
    const events = await run.collect();

    assert.equal(run.isCancelled, true);
    assert.equal(run.completed, false);
    assert.equal(toolAborted, true);
    assert.deepEqual(events.flatMap(functionCalls).map((c) => c.name), ["get_weather"]);

    // Give a run that did not stop the time to go on, then look at what is stored.
    await sleep(300);
    const session = await client.getSession(key);
    assertStopped(session);
    // The service closes the cancelled call with an error response of its
    // own, so that the next model request is valid; the tool's late result
    // is never stored.
    const responses = session.events.flatMap(functionResponses);
    assert.deepEqual(responses.map((r) => r.name), ["get_weather"]);
    assert.equal(responses[0]!.id, events.flatMap(functionCalls)[0]!.id);
    assert.match(String(responses[0]!.response?.["error"]), /cancelled/);
    assert.equal(responses[0]!.response?.["late"], undefined, "the tool's late result was stored");
    assert.equal((await fakeGemini.requests()).length, 1, "the model was called again after the cancel");

    // The session is free: a new run on it works.
    await fakeGemini.reset();
    const answer = defineTool({ name: "get_weather", run: () => ({ forecast: "mild" }) });
    await fakeGemini.script(callsFunctions({ name: "get_weather", args: { city: "Lima" } }), says("Mild in Lima."));
    const next = await client.run({ ...key, message: "And now?", tools: [answer] }).collect();
    assert.equal(eventText(next[next.length - 1]!), "Mild in Lima.");
  });

  test("aborting the signal while the model is slow stops the invocation", async () => {
    const key = freshKey("echo");
    await client.createSession(key);
    await fakeGemini.latency("1500ms");

    const controller = new AbortController();
    const run = client.run({ ...key, message: "take your time", tools: [], signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(run.collect(), CancelledError);

    // Past the model's latency, nothing more may have been stored.
    await sleep(1700);
    const session = await client.getSession(key);
    assertStopped(session);
    assert.deepEqual(session.events.map((e) => e.author), ["user"]);

    await fakeGemini.reset();
    const events = await client.run({ ...key, message: "again" }).collect();
    assert.equal(eventText(events[events.length - 1]!), "Echo: again");
  });

  test("cancel() on a plain run while the model is slow stops the invocation", async () => {
    const key = freshKey("echo");
    await client.createSession(key);
    await fakeGemini.latency("1s");

    const run = client.run({ ...key, message: "stream", streaming: "sse" });
    const timer = setTimeout(() => run.cancel(), 200);
    const events = await run.collect();
    clearTimeout(timer);
    assert.deepEqual(events, []);
    await sleep(1200);
    const session = await client.getSession(key);
    assertStopped(session);
    assert.deepEqual(session.events.map((e) => e.author), ["user"]);
  });
});
