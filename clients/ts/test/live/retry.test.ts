import assert from "node:assert/strict";
import { after, beforeEach, describe, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  DeadlineExceededError,
  type Event,
  eventText,
  isFinalResponse,
  newRequestId,
  type RunOptions,
  SessionBusyError,
} from "../../src/index.js";
import { fakeGemini, freshKey, liveClient } from "./stack.js";

const client = liveClient();
after(() => client.close());
beforeEach(() => fakeGemini.reset());

/** Runs to the end, retrying while the session is still busy with an earlier attempt. */
async function runUntilFree(options: RunOptions): Promise<Event[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.run(options).collect();
    } catch (err) {
      if (!(err instanceof SessionBusyError) || attempt === 50) throw err;
      await sleep(100);
    }
  }
}

describe("live: idempotent retries with a request id", () => {
  for (const transport of ["Run", "Connect"] as const) {
    test(`${transport}: a finished run retried with its request id stores one user message and answers the same events`, async () => {
      const key = freshKey("echo");
      await client.createSession(key);
      const requestId = newRequestId();
      const options: RunOptions = { ...key, message: "only once", requestId, ...(transport === "Connect" ? { tools: [] } : {}) };

      const first = await client.run(options).collect();
      const retry = client.run(options);
      const again = await retry.collect();

      assert.deepEqual(first.filter(isFinalResponse).map(eventText), ["Echo: only once"]);
      assert.deepEqual(again.map((e) => [e.id, eventText(e)]), first.map((e) => [e.id, eventText(e)]));
      assert.equal(retry.invocationId, first[0]!.invocationId);
      assert.equal((await fakeGemini.requests()).length, 1, "the retry called the model");

      const session = await client.getSession(key);
      const users = session.events.filter((e) => e.author === "user");
      assert.deepEqual(users.map((e) => [eventText(e), e.requestId]), [["only once", requestId]]);
      assert.deepEqual(session.events.map((e) => e.author), ["user", "echo_agent"]);
    });
  }

  test("a run cut off by its deadline and retried with the same request id is continued, its message stored once", async () => {
    const key = freshKey("echo");
    await client.createSession(key);
    const requestId = newRequestId();
    await fakeGemini.latency("5s");
    await assert.rejects(
      client.run({ ...key, message: "slow answer", requestId, timeoutMs: 500 }).collect(),
      DeadlineExceededError,
    );
    await fakeGemini.reset();

    const events = await runUntilFree({ ...key, message: "slow answer", requestId, tools: [] });
    assert.deepEqual(events.filter(isFinalResponse).map(eventText), ["Echo: slow answer"]);

    const session = await client.getSession(key);
    const users = session.events.filter((e) => e.author === "user");
    assert.deepEqual(users.map((e) => [eventText(e), e.requestId]), [["slow answer", requestId]]);
    assert.deepEqual(session.events.filter((e) => e.author !== "user" && isFinalResponse(e)).map(eventText), ["Echo: slow answer"]);
    assert.deepEqual(new Set(session.events.map((e) => e.invocationId)), new Set([users[0]!.invocationId]));

    // A new request id is a new run.
    await client.run({ ...key, message: "slow answer", requestId: newRequestId() }).collect();
    assert.equal((await client.getSession(key)).events.filter((e) => e.author === "user").length, 2);
  });
});

describe("live: reading a session in pages", () => {
  test("pages of one event yield every event once, in order", async () => {
    const key = freshKey("echo");
    await client.createSession(key);
    await client.run({ ...key, message: "one" }).collect();
    await client.run({ ...key, message: "two", tools: [] }).collect();
    await client.updateSessionState({ ...key, stateDelta: { topic: "paging" } });
    const whole = (await client.getSession(key)).events.map((e) => e.id);
    assert.equal(whole.length, 5);

    const seen: string[] = [];
    for await (const event of client.sessionEvents({ ...key, pageSize: 1 })) {
      seen.push(event.id);
    }
    assert.deepEqual(seen, whole);

    const pages: string[][] = [];
    let pageToken = "";
    do {
      const page = await client.getSessionPage({ ...key, pageSize: 1, pageToken });
      assert.equal(page.session.id, key.sessionId);
      assert.equal(page.session.state?.["topic"], "paging");
      pages.push(page.session.events.map((e) => e.id));
      pageToken = page.nextPageToken;
    } while (pageToken !== "");
    assert.deepEqual(pages, whole.map((id) => [id]));

    const recent: string[] = [];
    for await (const page of client.sessionPages({ ...key, pageSize: 2, numRecentEvents: 3 })) {
      recent.push(...page.session.events.map((e) => e.id));
    }
    assert.deepEqual(recent, whole.slice(2));
  });

  test("a listing covers the events the session had at its first page", async () => {
    const key = freshKey("echo");
    await client.createSession(key);
    await client.run({ ...key, message: "before" }).collect();
    const seen: string[] = [];
    for await (const event of client.sessionEvents({ ...key, pageSize: 1 })) {
      seen.push(eventText(event));
      if (seen.length === 1) {
        await client.run({ ...key, message: "during" }).collect();
      }
    }
    assert.deepEqual(seen, ["before", "Echo: before"]);
  });
});
