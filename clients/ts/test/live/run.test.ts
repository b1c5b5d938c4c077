import assert from "node:assert/strict";
import { after, beforeEach, describe, test } from "node:test";
import { eventText, isFinalResponse } from "../../src/index.js";
import { fakeGemini, freshKey, liveClient } from "./stack.js";

const client = liveClient();
after(() => client.close());
beforeEach(() => fakeGemini.reset());

describe("live: plain runs, apps and sessions", () => {
  test("a plain run of an agent without tools streams the model's answer and stores it", async () => {
    const key = freshKey("echo");
    await client.createSession(key);
    const run = client.run({ ...key, message: "hello there" });
    const events = await run.collect();

    const final = events.filter(isFinalResponse);
    assert.equal(final.length, 1);
    assert.equal(eventText(final[0]!), "Echo: hello there");
    assert.equal(final[0]!.author, "echo_agent");
    assert.match(run.invocationId, /^e-/);
    assert.equal(run.completed, true);

    const session = await client.getSession(key);
    assert.deepEqual(session.events.map((e) => e.author), ["user", "echo_agent"]);
    assert.equal(eventText(session.events[0]!), "hello there");
    assert.equal(session.events[1]!.invocationId, run.invocationId);
  });

  test("SSE streaming yields partial events before the aggregated one", async () => {
    const key = freshKey("echo");
    await client.createSession(key);
    const events = await client.run({ ...key, message: "stream me", streaming: "sse" }).collect();
    assert.ok(events.some((e) => e.partial), "no partial event");
    const last = events[events.length - 1]!;
    assert.equal(last.partial, false);
    assert.equal(eventText(last), "Echo: stream me");
  });

  test("listApps and getApp describe the served apps and their remote tools", async () => {
    assert.deepEqual(await client.listApps(), ["approvals", "coder", "dynamic", "echo", "fanout", "guarded", "weather"]);
    const app = await client.getApp("weather");
    assert.equal(app.rootAgent?.name, "weather_agent");
    assert.deepEqual(
      app.rootAgent?.tools.map((t) => [t.name, t.remote]),
      [["get_weather", true], ["get_forecast", true], ["get_air_quality", true]],
    );
  });

  test("session helpers: create with state, list, update state, delete", async () => {
    const key = freshKey("echo");
    const created = await client.createSession({ ...key, state: { topic: "weather", "user:name": "Ada" } });
    assert.equal(created.id, key.sessionId);
    assert.deepEqual(created.state, { topic: "weather", "user:name": "Ada" });

    const generated = await client.createSession({ appName: key.appName, userId: key.userId });
    assert.match(generated.id, /^[0-9a-f-]{36}$/);
    const listed = await client.listSessions({ appName: key.appName, userId: key.userId });
    assert.deepEqual(listed.map((s) => s.id).sort(), [key.sessionId, generated.id].sort());

    const updated = await client.updateSessionState({ ...key, stateDelta: { topic: "rain" } });
    assert.equal(updated.state?.["topic"], "rain");
    const patch = updated.events[updated.events.length - 1]!;
    assert.equal(patch.author, "user");
    assert.match(patch.invocationId, /^p-/);
    assert.deepEqual(patch.actions?.stateDelta, { topic: "rain" });

    await client.deleteSession(key);
    assert.equal(await client.findSession(key), undefined);
    await client.deleteSession(key); // deleting a missing session is not an error
  });
});
