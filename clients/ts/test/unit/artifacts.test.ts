import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  AgentsvcClient,
  defineCallback,
  defineTool,
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  type Part,
} from "../../src/index.js";
import { artifactPart } from "../../src/artifacts.js";
import type {
  ArtifactVersion,
  LoadArtifactRequest,
  SaveArtifactRequest,
} from "../../src/gen/agentsvc/v1/artifact_service_pb.js";
import { PartSchema } from "../../src/gen/agentsvc/v1/content_pb.js";
import {
  type CallbackResult,
  CallbackKind,
  type ConnectRequest,
  type ToolResult,
} from "../../src/gen/agentsvc/v1/runner_service_pb.js";
import { ErrorInfoSchema } from "../../src/gen/google/rpc/error_details_pb.js";
import { type FakeServer, type FakeServices, startFakeServer } from "./fakeserver.js";

const key = { appName: "weather", userId: "u", sessionId: "s" };

function statusError(message: string, code: Code, reason: string): ConnectError {
  return new ConnectError(message, code, undefined, [
    { desc: ErrorInfoSchema, value: { reason, domain: "agentsvc" } },
  ]);
}

const notFound = () => statusError("Artifact not found", Code.NotFound, "ARTIFACT_NOT_FOUND");

let server: FakeServer | undefined;
let client: AgentsvcClient | undefined;

async function serve(services: FakeServices): Promise<AgentsvcClient> {
  server = await startFakeServer(services);
  client = new AgentsvcClient({ address: server.address });
  return client;
}

afterEach(async () => {
  client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** An artifact store as the service keeps one: versions by scope and name. */
function memoryArtifacts(): { services: FakeServices; saves: SaveArtifactRequest[]; loads: LoadArtifactRequest[] } {
  const saves: SaveArtifactRequest[] = [];
  const loads: LoadArtifactRequest[] = [];
  const store = new Map<string, { part: Part; meta: ArtifactVersion }[]>();
  const path = (r: { appName: string; userId: string; sessionId: string; filename: string }) =>
    r.filename.startsWith("user:") ? `${r.appName}/${r.userId}/${r.filename}` : `${r.appName}/${r.userId}/${r.sessionId}/${r.filename}`;
  const versionsOf = (r: Parameters<typeof path>[0]) => store.get(path(r)) ?? [];
  return {
    saves,
    loads,
    services: {
      artifacts: {
        listArtifactKeys(req) {
          const names = [...store.keys()]
            .filter((p) => p.startsWith(`${req.appName}/${req.userId}/${req.sessionId}/`) || p.startsWith(`${req.appName}/${req.userId}/user:`))
            .map((p) => p.slice(p.lastIndexOf("/") + 1));
          return { filenames: names.sort() };
        },
        loadArtifact(req) {
          loads.push(req);
          const versions = versionsOf(req);
          const found = req.version === undefined ? versions[versions.length - 1] : versions[req.version];
          if (found === undefined) {
            throw notFound();
          }
          return { artifact: found.part };
        },
        saveArtifact(req) {
          saves.push(req);
          const versions = versionsOf(req);
          const part = req.artifact ?? create(PartSchema);
          const meta = {
            version: versions.length,
            canonicalUri: `memory://${path(req)}/versions/${versions.length}`,
            mimeType: part.inlineData?.mimeType || "text/plain",
            createTime: 1_700_000_000.5,
            ...(req.customMetadata === undefined ? {} : { customMetadata: req.customMetadata }),
          } as ArtifactVersion;
          store.set(path(req), [...versions, { part, meta }]);
          return { artifactVersion: meta };
        },
        listArtifactVersions(req) {
          return { versions: versionsOf(req).map((v) => v.meta.version ?? 0) };
        },
        listArtifactVersionsMetadata(req) {
          return { versions: versionsOf(req).map((v) => v.meta) };
        },
        getArtifactVersion(req) {
          const found = versionsOf(req)[req.version];
          if (found === undefined) {
            throw notFound();
          }
          return { artifactVersion: found.meta };
        },
        deleteArtifact(req) {
          store.delete(path(req));
          return {};
        },
      },
    },
  };
}

describe("artifact calls against an in-process server", () => {
  test("save, list, load, versions and delete round trip", async () => {
    const fake = memoryArtifacts();
    const c = await serve(fake.services);
    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff]);

    const v0 = await c.saveArtifact({ ...key, filename: "report.pdf", data: bytes, mimeType: "application/pdf", customMetadata: { pages: 2 } });
    assert.equal(v0.version, 0);
    assert.equal(v0.mimeType, "application/pdf");
    assert.equal(v0.createTime, 1_700_000_000.5);
    assert.deepEqual(v0.customMetadata, { pages: 2 });
    const v1 = await c.saveArtifact({ ...key, filename: "report.pdf", data: new Uint8Array([1]), mimeType: "application/pdf" });
    assert.equal(v1.version, 1);
    await c.saveArtifact({ ...key, filename: "user:notes.txt", data: "remember the milk" });

    assert.deepEqual(await c.listArtifacts(key), ["report.pdf", "user:notes.txt"]);
    assert.deepEqual(await c.listArtifactVersions({ ...key, filename: "report.pdf" }), [0, 1]);
    const metas = await c.listArtifactVersionsMetadata({ ...key, filename: "report.pdf" });
    assert.deepEqual(metas.map((m) => m.version), [0, 1]);
    assert.equal(metas[0]?.canonicalUri, "memory://weather/u/s/report.pdf/versions/0");
    assert.equal((await c.getArtifactVersion({ ...key, filename: "report.pdf", version: 1 }))?.version, 1);

    const latest = await c.loadArtifact({ ...key, filename: "report.pdf" });
    assert.deepEqual(latest?.inlineData?.data, new Uint8Array([1]));
    const first = await c.loadArtifact({ ...key, filename: "report.pdf", version: 0 });
    assert.equal(first?.inlineData?.mimeType, "application/pdf");
    assert.deepEqual(first?.inlineData?.data, bytes);
    assert.equal((await c.loadArtifact({ ...key, filename: "user:notes.txt" }))?.text, "remember the milk");
    // Version 0 is sent as a present field; no version as an absent one.
    assert.deepEqual(fake.loads.map((r) => r.version), [undefined, 0, undefined]);

    await c.deleteArtifact({ ...key, filename: "report.pdf" });
    assert.deepEqual(await c.listArtifacts(key), ["user:notes.txt"]);
    assert.deepEqual(await c.listArtifactVersions({ ...key, filename: "report.pdf" }), []);
    assert.equal(fake.saves[0]?.sessionId, "s");
    assert.equal(fake.saves[0]?.filename, "report.pdf");
  });

  test("a missing artifact or version loads as undefined, as ADK's None", async () => {
    const c = await serve(memoryArtifacts().services);
    assert.equal(await c.loadArtifact({ ...key, filename: "missing.txt" }), undefined);
    await c.saveArtifact({ ...key, filename: "a.txt", data: "a" });
    assert.equal(await c.loadArtifact({ ...key, filename: "a.txt", version: 5 }), undefined);
    assert.equal(await c.getArtifactVersion({ ...key, filename: "a.txt", version: 5 }), undefined);
  });

  test("an unknown app still rejects a load", async () => {
    const c = await serve({
      artifacts: {
        loadArtifact() {
          throw statusError("App not found: nope", Code.NotFound, "APP_NOT_FOUND");
        },
        getArtifactVersion() {
          throw statusError("App not found: nope", Code.NotFound, "APP_NOT_FOUND");
        },
      },
    });
    const nope = { ...key, appName: "nope", filename: "a.txt" };
    await assert.rejects(c.loadArtifact(nope), (err: unknown) => err instanceof NotFoundError && err.reason === "APP_NOT_FOUND");
    await assert.rejects(c.getArtifactVersion({ ...nope, version: 0 }), NotFoundError);
  });

  test("the service's errors are mapped as for the other calls", async () => {
    const c = await serve({
      artifacts: {
        listArtifactKeys() {
          throw statusError("Artifact service is not initialized.", Code.FailedPrecondition, "ARTIFACTS_NOT_CONFIGURED");
        },
        saveArtifact() {
          throw statusError("Artifact filename '/etc/passwd' ...", Code.InvalidArgument, "ARTIFACT_INVALID");
        },
      },
    });
    await assert.rejects(c.listArtifacts(key), (err: unknown) => err instanceof FailedPreconditionError && err.reason === "ARTIFACTS_NOT_CONFIGURED");
    await assert.rejects(
      c.saveArtifact({ ...key, filename: "/etc/passwd", data: "x" }),
      (err: unknown) => err instanceof InvalidArgumentError && err.reason === "ARTIFACT_INVALID",
    );
  });

  test("the data is converted as documented before it is sent", async () => {
    const fake = memoryArtifacts();
    const c = await serve(fake.services);
    await c.saveArtifact({ ...key, filename: "a.bin", data: new Uint8Array([1, 2]), mimeType: "application/octet-stream" });
    await c.saveArtifact({ ...key, filename: "b.txt", data: "plain" });
    await c.saveArtifact({ ...key, filename: "c.csv", data: "a,b\né,1\n", mimeType: "text/csv" });
    await c.saveArtifact({ ...key, filename: "d.png", data: { inlineData: { mimeType: "image/png", data: new Uint8Array([9]), displayName: "d" } } });
    await c.saveArtifact({ ...key, filename: "e.txt", data: create(PartSchema, { text: "a message" }) });
    const sent = fake.saves.map((r) => r.artifact);
    assert.deepEqual(sent[0]?.inlineData?.data, new Uint8Array([1, 2]));
    assert.equal(sent[0]?.inlineData?.mimeType, "application/octet-stream");
    assert.equal(sent[1]?.text, "plain");
    assert.equal(sent[1]?.inlineData, undefined);
    assert.equal(sent[2]?.text, "");
    assert.equal(sent[2]?.inlineData?.mimeType, "text/csv");
    assert.equal(new TextDecoder().decode(sent[2]?.inlineData?.data), "a,b\né,1\n");
    assert.equal(sent[3]?.inlineData?.displayName, "d");
    assert.equal(sent[4]?.text, "a message");
    assert.equal(fake.saves[0]?.customMetadata, undefined);
  });

  test("invalid arguments throw a TypeError without calling the service", async () => {
    const fake = memoryArtifacts();
    const c = await serve(fake.services);
    await assert.rejects(c.saveArtifact({ ...key, filename: "a.bin", data: new Uint8Array([1]) }), TypeError);
    await assert.rejects(c.saveArtifact({ ...key, filename: "a.txt", data: "" }), TypeError);
    await assert.rejects(c.saveArtifact({ ...key, filename: "", data: "x" }), TypeError);
    await assert.rejects(c.saveArtifact({ ...key, filename: "user:", data: "x" }), TypeError);
    await assert.rejects(c.loadArtifact({ ...key, filename: "a.txt", version: 1.5 }), TypeError);
    await assert.rejects(c.getArtifactVersion({ ...key, filename: "a.txt", version: Number.NaN }), TypeError);
    assert.equal(fake.saves.length, 0);
    assert.equal(fake.loads.length, 0);
  });
});

describe("tools and callbacks save files over Connect", () => {
  test("the files reach the service with the tool's and the callback's results", async () => {
    let toolResult: ToolResult | undefined;
    let callbackResult: CallbackResult | undefined;
    const c = await serve({
      runner: {
        async *connect(requests) {
          const it = requests[Symbol.asyncIterator]();
          const next = async () => (await it.next()).value as ConnectRequest;
          assert.equal((await next()).kind.case, "start");
          yield {
            kind: {
              case: "callbackCall",
              value: { callId: "cb-1", name: "keep_request", kind: CallbackKind.BEFORE_MODEL, invocationId: "e-1", agentName: "weather_agent" },
            },
          };
          callbackResult = (await next()).kind.value as CallbackResult;
          yield {
            kind: {
              case: "toolCall",
              value: { callId: "adk-1", invocationId: "e-1", agentName: "weather_agent", functionCall: { id: "adk-1", name: "get_weather", args: { city: "Paris" } } },
            },
          };
          toolResult = (await next()).kind.value as ToolResult;
          yield {
            kind: {
              case: "event",
              value: { id: "ev", invocationId: "e-1", author: "weather_agent", actions: { artifactDelta: { "report.txt": 0n } } },
            },
          };
          yield { kind: { case: "done", value: { invocationId: "e-1" } } };
        },
      },
    });
    const getWeather = defineTool({
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      run: ({ city }, ctx) => {
        ctx.saveArtifact("report.txt", `Sunny in ${city}.`);
        return { city, weather: "sunny" };
      },
    });
    const keepRequest = defineCallback({
      name: "keep_request",
      beforeModel(ctx) {
        ctx.saveArtifact("user:request.bin", new Uint8Array([7, 8]), "application/octet-stream");
      },
    });
    const events = await c.run({ ...key, message: "Weather in Paris?", tools: [getWeather], callbacks: [keepRequest] }).collect();

    assert.equal(callbackResult?.artifacts["user:request.bin"]?.inlineData?.mimeType, "application/octet-stream");
    assert.deepEqual(callbackResult?.artifacts["user:request.bin"]?.inlineData?.data, new Uint8Array([7, 8]));
    assert.equal(toolResult?.artifacts["report.txt"]?.text, "Sunny in Paris.");
    assert.deepEqual(Object.keys(toolResult?.artifacts ?? {}), ["report.txt"]);
    assert.deepEqual(events[0]?.actions?.artifactDelta, { "report.txt": 0n });
  });
});

describe("artifactPart", () => {
  test("bytes need a MIME type and become inline data", () => {
    const data = Buffer.from("hello");
    assert.deepEqual(artifactPart("a", data, "text/plain"), { inlineData: { mimeType: "text/plain", data } });
    assert.throws(() => artifactPart("a", data), /bytes need a mimeType/);
  });

  test("text is a text part; with a MIME type, its UTF-8 bytes", () => {
    assert.deepEqual(artifactPart("a", "hi"), { text: "hi" });
    assert.deepEqual(artifactPart("a", "hé", "text/markdown"), {
      inlineData: { mimeType: "text/markdown", data: new Uint8Array([0x68, 0xc3, 0xa9]) },
    });
    assert.throws(() => artifactPart("a", ""), /text is empty/);
    // Empty text with a MIME type is an empty file: the service saves it (and loads it as None, as ADK).
    assert.deepEqual(artifactPart("a", "", "text/plain"), { inlineData: { mimeType: "text/plain", data: new Uint8Array() } });
  });

  test("a Part is kept as is and must carry inline data or text", () => {
    const part = { inlineData: { mimeType: "image/png", data: new Uint8Array([1]) } };
    assert.equal(artifactPart("a", part), part);
    const message = create(PartSchema, { text: "x" });
    assert.equal(artifactPart("a", message), message);
    assert.throws(() => artifactPart("a", {}), /inlineData or text/);
    assert.throws(() => artifactPart("a", create(PartSchema)), /inlineData or text/);
    assert.throws(() => artifactPart("a", part, "image/png"), /carries its own MIME type/);
  });

  test("other values are refused", () => {
    for (const value of [42, null, undefined, [1], create(ErrorInfoSchema)]) {
      assert.throws(() => artifactPart("a", value as never), TypeError);
    }
    assert.throws(() => artifactPart("a", "x", ""), /mimeType must be a non-empty string/);
  });
});
