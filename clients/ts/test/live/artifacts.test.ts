import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, beforeEach, describe, test } from "node:test";
import {
  defineCallback,
  defineTool,
  eventText,
  functionResponses,
  InvalidArgumentError,
  isFinalResponse,
} from "../../src/index.js";
import { callsFunctions, fakeGemini, freshKey, liveClient, says } from "./stack.js";

const client = liveClient();
after(() => client.close());
beforeEach(() => fakeGemini.reset());

const citySchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as const;

/** The weather app's three client tools; get_weather saves a report. */
const weatherTools = [
  defineTool({
    name: "get_weather",
    parameters: citySchema,
    run: ({ city }, ctx) => {
      ctx.saveArtifact("report.txt", `Sunny in ${city}.`);
      ctx.saveArtifact("user:cities.csv", `city\n${city}\n`, "text/csv");
      return { city, weather: "sunny" };
    },
  }),
  ...["get_forecast", "get_air_quality"].map((name) => defineTool({ name, parameters: citySchema, run: () => ({}) })),
];

describe("live: artifacts", () => {
  test("a tool's saved files are stored and recorded in its response event's artifactDelta", async () => {
    const key = freshKey("weather");
    await client.createSession(key);
    await fakeGemini.script(callsFunctions({ name: "get_weather", args: { city: "Paris" } }), says("Sunny, report saved."));

    const events = await client.run({ ...key, message: "Weather in Paris, with a report?", tools: weatherTools }).collect();

    const responseEvent = events.find((e) => functionResponses(e).length > 0);
    assert.ok(responseEvent, "a response event");
    assert.deepEqual(functionResponses(responseEvent)[0]?.response, { city: "Paris", weather: "sunny" });
    assert.deepEqual(responseEvent.actions?.artifactDelta, { "report.txt": 0n, "user:cities.csv": 0n });
    assert.equal(eventText(events[events.length - 1]!), "Sunny, report saved.");

    const report = await client.loadArtifact({ ...key, filename: "report.txt" });
    assert.equal(report?.text, "Sunny in Paris.");
    const csv = await client.loadArtifact({ ...key, filename: "user:cities.csv" });
    assert.equal(csv?.inlineData?.mimeType, "text/csv");
    assert.equal(new TextDecoder().decode(csv?.inlineData?.data), "city\nParis\n");
    assert.deepEqual(await client.listArtifacts(key), ["report.txt", "user:cities.csv"]);

    // The stored event keeps the delta.
    const session = await client.getSession(key);
    const stored = session.events.find((e) => e.id === responseEvent.id);
    assert.deepEqual(stored?.actions?.artifactDelta, { "report.txt": 0n, "user:cities.csv": 0n });

    // A second run saves version 1 of each.
    await fakeGemini.script(callsFunctions({ name: "get_weather", args: { city: "Lyon" } }), says("Saved again."));
    const again = await client.run({ ...key, message: "And Lyon?", tools: weatherTools }).collect();
    const delta = again.find((e) => functionResponses(e).length > 0)?.actions?.artifactDelta;
    assert.deepEqual(delta, { "report.txt": 1n, "user:cities.csv": 1n });
    assert.equal((await client.loadArtifact({ ...key, filename: "report.txt" }))?.text, "Sunny in Lyon.");
    assert.equal((await client.loadArtifact({ ...key, filename: "report.txt", version: 0 }))?.text, "Sunny in Paris.");
  });

  test("a callback's saved file is recorded in the event that follows", async () => {
    const key = freshKey("guarded");
    await client.createSession(key);
    const guardInput = defineCallback({
      name: "guard_input",
      beforeModel(ctx) {
        ctx.saveArtifact("blocked.txt", `blocked in ${ctx.invocationId}`);
        return "Blocked.";
      },
    });
    const redactResult = defineCallback({ name: "redact_result", afterTool: () => undefined });
    const getWeather = defineTool({ name: "get_weather", parameters: citySchema, run: ({ city }) => ({ city }) });

    const run = client.run({ ...key, message: "A forbidden topic.", tools: [getWeather], callbacks: [guardInput, redactResult] });
    const events = await run.collect();

    const answer = events.find(isFinalResponse);
    assert.equal(answer && eventText(answer), "Blocked.");
    assert.deepEqual(answer?.actions?.artifactDelta, { "blocked.txt": 0n });
    assert.equal((await client.loadArtifact({ ...key, filename: "blocked.txt" }))?.text, `blocked in ${run.invocationId}`);
  });

  test("save, list, load, versions and delete round trip", async () => {
    const key = freshKey("weather");
    await client.createSession(key);
    const filename = "chart.png";
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    const before = Date.now() / 1000;

    const v0 = await client.saveArtifact({ ...key, filename, data: png, mimeType: "image/png", customMetadata: { source: "ts", n: 1 } });
    assert.equal(v0.version, 0);
    assert.equal(v0.mimeType, "image/png");
    assert.deepEqual(v0.customMetadata, { source: "ts", n: 1 });
    assert.ok(v0.canonicalUri.length > 0, "a canonical URI");
    assert.ok(v0.createTime >= before - 5 && v0.createTime <= Date.now() / 1000 + 5, `createTime ${v0.createTime} is now`);
    const v1 = await client.saveArtifact({ ...key, filename, data: { inlineData: { mimeType: "image/png", data: new Uint8Array([1, 2, 3]) } } });
    assert.equal(v1.version, 1);
    await client.saveArtifact({ ...key, filename: "notes.txt", data: "first notes" });

    assert.deepEqual(await client.listArtifacts(key), ["chart.png", "notes.txt"]);
    assert.deepEqual(await client.listArtifactVersions({ ...key, filename }), [0, 1]);
    const metas = await client.listArtifactVersionsMetadata({ ...key, filename });
    assert.deepEqual(metas.map((m) => m.version), [0, 1]);
    assert.deepEqual(metas[0]?.customMetadata, { source: "ts", n: 1 });
    const meta = await client.getArtifactVersion({ ...key, filename, version: 0 });
    assert.equal(meta?.version, 0);
    assert.equal(meta?.canonicalUri, v0.canonicalUri);
    assert.equal(meta?.mimeType, "image/png");

    const latest = await client.loadArtifact({ ...key, filename });
    assert.deepEqual(latest?.inlineData?.data, new Uint8Array([1, 2, 3]));
    const first = await client.loadArtifact({ ...key, filename, version: 0 });
    assert.equal(first?.inlineData?.mimeType, "image/png");
    assert.deepEqual(first?.inlineData?.data, png);
    assert.equal((await client.loadArtifact({ ...key, filename: "notes.txt" }))?.text, "first notes");

    // Missing artifacts and versions are undefined, as ADK's None.
    assert.equal(await client.loadArtifact({ ...key, filename, version: 7 }), undefined);
    assert.equal(await client.loadArtifact({ ...key, filename: "missing.txt" }), undefined);
    assert.equal(await client.getArtifactVersion({ ...key, filename, version: 7 }), undefined);
    assert.deepEqual(await client.listArtifactVersions({ ...key, filename: "missing.txt" }), []);

    await client.deleteArtifact({ ...key, filename });
    await client.deleteArtifact({ ...key, filename }); // a missing one is not an error
    assert.deepEqual(await client.listArtifacts(key), ["notes.txt"]);
    assert.equal(await client.loadArtifact({ ...key, filename }), undefined);
    assert.deepEqual(await client.listArtifactVersions({ ...key, filename }), []);
  });

  test("a user: artifact is seen from the user's other sessions, not from another user's", async () => {
    const key = freshKey("weather");
    const other = { ...key, sessionId: `ts-${randomUUID()}` };
    const stranger = freshKey("weather");
    await client.saveArtifact({ ...key, filename: "user:profile.json", data: '{"units":"metric"}', mimeType: "application/json" });
    await client.saveArtifact({ ...key, filename: "session.txt", data: "this session only" });

    assert.deepEqual(await client.listArtifacts(other), ["user:profile.json"]);
    const profile = await client.loadArtifact({ ...other, filename: "user:profile.json" });
    assert.equal(new TextDecoder().decode(profile?.inlineData?.data), '{"units":"metric"}');
    assert.equal(await client.loadArtifact({ ...other, filename: "session.txt" }), undefined);

    // A new version saved from the other session is the user's next one.
    const v1 = await client.saveArtifact({ ...other, filename: "user:profile.json", data: '{"units":"imperial"}', mimeType: "application/json" });
    assert.equal(v1.version, 1);
    assert.deepEqual(await client.listArtifactVersions({ ...key, filename: "user:profile.json" }), [0, 1]);

    assert.deepEqual(await client.listArtifacts(stranger), []);
    assert.equal(await client.loadArtifact({ ...stranger, filename: "user:profile.json" }), undefined);
  });

  test("an empty file is saved, and loads as undefined as ADK's None", async () => {
    const key = freshKey("weather");
    const v0 = await client.saveArtifact({ ...key, filename: "empty.txt", data: "", mimeType: "text/plain" });
    assert.equal(v0.version, 0);
    assert.deepEqual(await client.listArtifactVersions({ ...key, filename: "empty.txt" }), [0]);
    assert.equal(await client.loadArtifact({ ...key, filename: "empty.txt" }), undefined);
  });

  test("a name the service refuses is an InvalidArgumentError", async () => {
    const key = freshKey("weather");
    await assert.rejects(client.saveArtifact({ ...key, filename: "../escape.txt", data: "x" }), (err: unknown) => {
      assert.ok(err instanceof InvalidArgumentError);
      assert.equal(err.reason, "ARTIFACT_INVALID");
      assert.match(err.message, /traversal/);
      return true;
    });
  });
});
