import assert from "node:assert/strict";
import { after, beforeEach, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  defineTool,
  eventText,
  functionCalls,
  functionResponses,
  isFinalResponse,
  type Tool,
  type ToolContext,
} from "../../src/index.js";
import { deferred, within } from "../support.js";
import { callsFunctions, fakeGemini, freshKey, liveClient, says } from "./stack.js";

const client = liveClient();
after(() => client.close());
beforeEach(() => fakeGemini.reset());

const citySchema = {
  type: "object",
  properties: { city: { type: "string", description: "The city's name." } },
  required: ["city"],
} as const;

/** The three tools of the weather app, each answering with `answer`. */
function weatherTools(answer: (name: string, city: string, ctx: ToolContext) => unknown): Tool[] {
  return ["get_weather", "get_forecast", "get_air_quality"].map((name) =>
    defineTool({
      name,
      description: `Returns the ${name.slice(4).replace("_", " ")} of a city.`,
      parameters: citySchema,
      run: ({ city }, ctx) => answer(name, city, ctx),
    }),
  );
}

describe("live: tools written in TypeScript", () => {
  test("a remote tool round trip: the call, the tool's result, the final answer", async () => {
    const key = freshKey("weather");
    await client.createSession(key);
    await fakeGemini.script(
      callsFunctions({ name: "get_weather", args: { city: "Paris" } }),
      says("It is sunny in Paris, 21 degrees."),
    );
    const seen: { callId: string; invocationId: string; agent: string }[] = [];
    const tools = weatherTools((name, city, ctx) => {
      seen.push({ callId: ctx.callId, invocationId: ctx.invocationId, agent: ctx.agentName });
      return { city, forecast: "sunny", temperature_c: 21 };
    });

    const run = client.run({ ...key, message: "What is the weather in Paris?", tools });
    const events = await run.collect();

    assert.equal(events.length, 3);
    const [callEvent, responseEvent, answer] = events as [typeof events[0], typeof events[0], typeof events[0]];
    const call = functionCalls(callEvent)[0]!;
    assert.equal(call.name, "get_weather");
    assert.deepEqual(call.args, { city: "Paris" });
    assert.match(call.id, /^adk-/);
    assert.deepEqual(seen, [{ callId: call.id, invocationId: run.invocationId, agent: "weather_agent" }]);

    const response = functionResponses(responseEvent)[0]!;
    assert.equal(response.id, call.id);
    assert.deepEqual(response.response, { city: "Paris", forecast: "sunny", temperature_c: 21 });
    assert.ok(isFinalResponse(answer));
    assert.equal(eventText(answer), "It is sunny in Paris, 21 degrees.");
    assert.equal(run.completed, true);

    // The model saw the tool's result on its second call.
    const requests = await fakeGemini.requests();
    assert.equal(requests.length, 2);
    const sent = requests[1]!.body.contents?.flatMap((c) => c.parts ?? []).find((p) => p["functionResponse"]);
    assert.deepEqual((sent?.["functionResponse"] as { response: unknown }).response, {
      city: "Paris", forecast: "sunny", temperature_c: 21,
    });
    // And the tool was declared to it with the client's schema.
    const declared = JSON.stringify((requests[0]!.body as Record<string, unknown>)["tools"]);
    assert.match(declared, /"get_weather"/);
    assert.match(declared, /The city's name\./);

    const session = await client.getSession(key);
    assert.deepEqual(session.events.map((e) => e.author), ["user", "weather_agent", "weather_agent", "weather_agent"]);
  });

  test("three parallel calls are answered concurrently and merged in call order", async () => {
    const key = freshKey("weather");
    await client.createSession(key);
    await fakeGemini.script(
      callsFunctions(
        { name: "get_weather", args: { city: "Oslo" } },
        { name: "get_forecast", args: { city: "Oslo" } },
        { name: "get_air_quality", args: { city: "Oslo" } },
      ),
      says("Oslo: cold, snow tomorrow, clean air."),
    );
    // Every tool waits until all three have started: the run only finishes
    // if the client runs them at once. They then finish in reverse order.
    const delays: Record<string, number> = { get_weather: 300, get_forecast: 150, get_air_quality: 0 };
    const started: string[] = [];
    const finished: string[] = [];
    const allStarted = deferred();
    const tools = weatherTools(async (name, city) => {
      started.push(name);
      if (started.length === 3) allStarted.resolve();
      await within(allStarted.promise, 5000, "the three calls to run at once");
      await sleep(delays[name]!);
      finished.push(name);
      return name === "get_air_quality" ? 12 : { city, tool: name };
    });

    const events = await client.run({ ...key, message: "Weather, forecast and air in Oslo?", tools }).collect();

    assert.deepEqual(finished, ["get_air_quality", "get_forecast", "get_weather"]);
    const callEvents = events.filter((e) => functionCalls(e).length > 0);
    const responseEvents = events.filter((e) => functionResponses(e).length > 0);
    assert.equal(callEvents.length, 1, "one model turn calls the three tools");
    assert.equal(responseEvents.length, 1, "one merged response event");
    const calls = functionCalls(callEvents[0]!);
    const responses = functionResponses(responseEvents[0]!);
    assert.deepEqual(responses.map((r) => r.name), ["get_weather", "get_forecast", "get_air_quality"]);
    assert.deepEqual(responses.map((r) => r.id), calls.map((c) => c.id));
    assert.deepEqual(responses.map((r) => r.response), [
      { city: "Oslo", tool: "get_weather" },
      { city: "Oslo", tool: "get_forecast" },
      { result: 12 },
    ]);
    assert.equal(eventText(events[events.length - 1]!), "Oslo: cold, snow tomorrow, clean air.");
  });

  test("a thrown error and non-object results reach the model as ADK wraps them", async () => {
    const key = freshKey("weather");
    await client.createSession(key);
    await fakeGemini.script(
      callsFunctions(
        { name: "get_weather", args: { city: "Atlantis" } },
        { name: "get_forecast", args: { city: "Atlantis" } },
        { name: "get_air_quality", args: { city: "Atlantis" } },
      ),
      says("I could not find Atlantis."),
    );
    const tools = weatherTools((name, city, ctx) => {
      switch (name) {
        case "get_weather":
          throw new Error(`unknown city: ${city}`);
        case "get_forecast":
          ctx.setState("last_city", city);
          return "no forecast";
        default:
          return undefined;
      }
    });
    const events = await client.run({ ...key, message: "Weather in Atlantis?", tools }).collect();
    const responses = events.flatMap(functionResponses).map((r) => r.response);
    assert.deepEqual(responses, [
      { error: "unknown city: Atlantis" },
      { result: "no forecast" },
      { result: null },
    ]);
    const session = await client.getSession(key);
    assert.equal(session.state?.["last_city"], "Atlantis");
  });

  test("a call missing a required argument is answered by the service, not sent to the tool", async () => {
    const key = freshKey("weather");
    await client.createSession(key);
    await fakeGemini.script(callsFunctions({ name: "get_weather", args: {} }), says("Which city?"));
    let called = false;
    const tools = weatherTools(() => {
      called = true;
      return {};
    });
    const events = await client.run({ ...key, message: "Weather?", tools }).collect();
    assert.equal(called, false);
    const response = events.flatMap(functionResponses)[0]?.response;
    assert.match(String(response?.["error"]), /city/);
  });
});
