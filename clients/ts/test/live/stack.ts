import { randomUUID } from "node:crypto";
import * as http from "node:http";
import { AgentsvcClient } from "../../src/index.js";

/**
 * The live stack's endpoints, from the environment that
 * scripts/with-stack.sh sets. Missing ones fail the tests: they never skip.
 */
export function stackEnv(): { address: string; fakeGemini: string } {
  const address = process.env["AGENTSVC_ADDR"];
  const fakeGemini = process.env["FAKEGEMINI_URL"];
  if (!address || !fakeGemini) {
    throw new Error(
      "AGENTSVC_ADDR and FAKEGEMINI_URL are not set: run the live tests under scripts/with-stack.sh (make test-ts)",
    );
  }
  return { address, fakeGemini };
}

/** A new client of the live service. */
export function liveClient(): AgentsvcClient {
  return new AgentsvcClient({ address: stackEnv().address, timeoutMs: 10_000 });
}

/** A user and session id of their own for one test. */
export function freshKey(appName: string): { appName: string; userId: string; sessionId: string } {
  return { appName, userId: `ts-${randomUUID().slice(0, 8)}`, sessionId: `ts-${randomUUID()}` };
}

/** A model answer of the Gemini REST API. */
export type ModelResponse = Record<string, unknown>;

/** An answer that calls functions, in order, in one model turn. */
export function callsFunctions(...calls: { name: string; args: Record<string, unknown> }[]): ModelResponse {
  return {
    candidates: [{
      content: { role: "model", parts: calls.map((call) => ({ functionCall: call })) },
      finishReason: "STOP",
    }],
  };
}

/** An answer with text. */
export function says(text: string): ModelResponse {
  return { candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }] };
}

/** One request the fake model received, as recorded. */
export interface ModelRequest {
  model: string;
  answer: string;
  body: { contents?: { role?: string; parts?: Record<string, unknown>[] }[] };
}

/** Drives the fake Gemini server through its control API. */
export const fakeGemini = {
  /** Forgets queued answers, rules, faults and recorded requests. */
  reset: () => control("POST", "/_fake/reset"),
  /** Queues answers, used once each, in order, by the next model requests. */
  script: (...responses: ModelResponse[]) =>
    control("POST", "/_fake/script", { responses: responses.map((response) => ({ response })) }),
  /** Delays every answer. */
  latency: (duration: string) => control("POST", "/_fake/faults", { latency: duration }),
  /** The requests received since the last reset. */
  requests: async (): Promise<ModelRequest[]> => (await control("GET", "/_fake/requests")) as ModelRequest[],
};

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  // A plain request without keep-alive: an idle pooled socket would hold the
  // test process open after its last test.
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(
      stackEnv().fakeGemini + path,
      {
        method,
        agent: false,
        timeout: 5000,
        headers: payload === undefined ? {} : { "content-type": "application/json" },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (data += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: data }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`fake Gemini ${method} ${path}: timed out`)));
    req.on("error", reject);
    req.end(payload);
  });
  if (status < 200 || status >= 300) {
    throw new Error(`fake Gemini ${method} ${path}: ${status} ${text}`);
  }
  return JSON.parse(text) as unknown;
}
