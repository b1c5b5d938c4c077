import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { afterEach, describe, test } from "node:test";
import { create } from "@bufbuild/protobuf";
import {
  AgentsvcClient,
  type CodeExecution,
  type CodeExecutor,
  eventText,
  NO_CODE_EXECUTOR,
  SubprocessCodeExecutor,
} from "../../src/index.js";
import { answerCodeExecution } from "../../src/codeexec.js";
import {
  CodeExecutionCallSchema,
  type CodeResult,
  type ConnectRequest,
  type StartRun,
} from "../../src/gen/agentsvc/v1/runner_service_pb.js";
import { within } from "../support.js";
import { type FakeServer, startFakeServer } from "./fakeserver.js";

const key = { appName: "coder", userId: "u", sessionId: "s" };
const bytes = (text: string) => new TextEncoder().encode(text);
const decode = (data: Uint8Array | undefined) => new TextDecoder().decode(data);

function call(init: Record<string, unknown> = {}) {
  return create(CodeExecutionCallSchema, {
    callId: "code-1",
    invocationId: "e-1",
    agentName: "coder",
    language: "python",
    code: "print(6 * 7)",
    ...init,
  } as never);
}

const never = new AbortController().signal;

describe("code executors", () => {
  test("the executor sees the call and its result is sent back", async () => {
    let seen: CodeExecution | undefined;
    const executor: CodeExecutor = {
      execute(execution) {
        seen = execution;
        return { stdout: "42\n", outputFiles: [{ name: "plot.png", mimeType: "image/png", content: bytes("png") }, { name: "out.txt", content: "hi" }] };
      },
    };
    const result = await answerCodeExecution(executor, call({
      executionId: "s-1",
      inputFiles: [{ name: "data.csv", mimeType: "text/csv", content: bytes("a,b\n1,2\n") }],
    }), never);

    assert.equal(seen?.callId, "code-1");
    assert.equal(seen?.invocationId, "e-1");
    assert.equal(seen?.agentName, "coder");
    assert.equal(seen?.language, "python");
    assert.equal(seen?.code, "print(6 * 7)");
    assert.equal(seen?.executionId, "s-1");
    assert.deepEqual(seen?.inputFiles.map((f) => [f.name, f.mimeType, decode(f.content)]), [["data.csv", "text/csv", "a,b\n1,2\n"]]);
    assert.equal(result.callId, "code-1");
    assert.equal(result.stdout, "42\n");
    assert.equal(result.stderr, "");
    assert.deepEqual(result.outputFiles?.map((f) => [f.name, f.mimeType, decode(f.content as Uint8Array)]), [
      ["plot.png", "image/png", "png"],
      ["out.txt", "text/plain", "hi"],
    ]);
  });

  const failures: { name: string; executor: CodeExecutor | undefined; want: string | RegExp }[] = [
    { name: "no executor", executor: undefined, want: NO_CODE_EXECUTOR },
    { name: "a thrown Error", executor: { execute: () => { throw new Error("no interpreter"); } }, want: "no interpreter" },
    { name: "a named error", executor: { execute: () => Promise.reject(new RangeError("too far")) }, want: "RangeError: too far" },
    { name: "a thrown string", executor: { execute: () => { throw "boom"; } }, want: "boom" },
    { name: "a result that is not an object", executor: { execute: () => "42" as never }, want: /returned a string, not \{ stdout/ },
    { name: "a stdout that is not text", executor: { execute: () => ({ stdout: 42 }) as never }, want: /stdout is a number/ },
    { name: "a nameless output file", executor: { execute: () => ({ outputFiles: [{ name: "", content: "x" }] }) }, want: /output file 0 has no name/ },
    { name: "a file returned twice", executor: { execute: () => ({ outputFiles: [{ name: "a", content: "x" }, { name: "a", content: "y" }] }) }, want: /"a" is returned twice/ },
    { name: "a file without content", executor: { execute: () => ({ outputFiles: [{ name: "a" }] }) as never }, want: /content must be bytes or text/ },
  ];
  for (const c of failures) {
    test(`${c.name} is answered as the code's failure`, async () => {
      const result = await answerCodeExecution(c.executor, call(), never);
      assert.equal(result.callId, "code-1");
      if (typeof c.want === "string") {
        assert.equal(result.stderr, c.want);
      } else {
        assert.match(result.stderr ?? "", c.want);
      }
      assert.equal(result.outputFiles, undefined);
    });
  }

  test("a code failure the executor reports is sent as is", async () => {
    const result = await answerCodeExecution({ execute: () => ({ stdout: "partial", stderr: "NameError: x" }) }, call(), never);
    assert.equal(result.stdout, "partial");
    assert.equal(result.stderr, "NameError: x");
  });
});

describe("code execution over Connect against an in-process server", () => {
  let server: FakeServer | undefined;
  let client: AgentsvcClient | undefined;
  afterEach(async () => {
    client?.close();
    await server?.close();
    client = undefined;
    server = undefined;
  });

  async function serve(connect: (requests: AsyncIterable<ConnectRequest>) => AsyncIterable<never>): Promise<AgentsvcClient> {
    server = await startFakeServer({ runner: { connect: connect as never } });
    client = new AgentsvcClient({ address: server.address });
    return client;
  }

  test("a run with a codeExecutor declares it and answers the service's executions", async () => {
    let start: StartRun | undefined;
    const results: CodeResult[] = [];
    const c = await serve(async function* (requests) {
      const it = requests[Symbol.asyncIterator]();
      start = (await it.next()).value.kind.value as StartRun;
      for (const code of ["print(1)", "raise ValueError('bad')"]) {
        yield { kind: { case: "codeExecution", value: { callId: `c-${results.length}`, invocationId: "e-1", agentName: "coder", language: "python", code } } } as never;
        const msg = (await it.next()).value as ConnectRequest;
        assert.equal(msg.kind.case, "codeResult");
        results.push(msg.kind.value as CodeResult);
      }
      yield { kind: { case: "event", value: { id: "ev", invocationId: "e-1", author: "coder", content: { role: "model", parts: [{ text: "Done." }] } } } } as never;
      yield { kind: { case: "done", value: { invocationId: "e-1" } } } as never;
    });

    const executor: CodeExecutor = {
      execute: ({ code }) => {
        if (code.startsWith("raise")) throw new Error("ValueError: bad");
        return { stdout: "1\n" };
      },
    };
    const events = await within(c.run({ ...key, message: "Compute.", codeExecutor: executor }).collect(), 5000, "the run");

    assert.equal(start?.codeExecutor, true);
    assert.deepEqual(start?.tools, []);
    assert.deepEqual(results.map((r) => [r.callId, r.stdout, r.stderr]), [["c-0", "1\n", ""], ["c-1", "", "ValueError: bad"]]);
    assert.deepEqual(events.map(eventText), ["Done."]);
  });

  test("a run without one does not declare it, and answers an execution with stderr", async () => {
    let start: StartRun | undefined;
    let result: CodeResult | undefined;
    const c = await serve(async function* (requests) {
      const it = requests[Symbol.asyncIterator]();
      start = (await it.next()).value.kind.value as StartRun;
      yield { kind: { case: "codeExecution", value: { callId: "c-0", language: "python", code: "print(1)" } } } as never;
      result = (await it.next()).value.kind.value as CodeResult;
      yield { kind: { case: "done", value: { invocationId: "e-1" } } } as never;
    });
    await within(c.run({ ...key, message: "Compute.", tools: [] }).collect(), 5000, "the run");
    assert.equal(start?.codeExecutor, false);
    assert.equal(result?.stderr, NO_CODE_EXECUTOR);
  });
});

describe("SubprocessCodeExecutor", () => {
  // Node itself is the interpreter here, so the tests need no Python.
  const node = (options: ConstructorParameters<typeof SubprocessCodeExecutor>[0] = {}) =>
    new SubprocessCodeExecutor({ command: [process.execPath, "-"], languages: ["javascript"], ...options });
  const js = (code: string, init: Record<string, unknown> = {}) =>
    ({ ...call({ language: "javascript", code, ...init }), signal: never }) as unknown as CodeExecution;

  test("runs the code in a directory with the input files and returns stdout and new files", async () => {
    const out = await node().execute(js(
      `const fs = require("fs");
       const rows = fs.readFileSync("data.csv", "utf8").trim().split("\\n");
       console.log(rows.length);
       fs.writeFileSync("count.json", JSON.stringify({ rows: rows.length }));`,
      { inputFiles: [{ name: "data.csv", mimeType: "text/csv", content: bytes("a,b\n1,2\n") }] },
    ));
    assert.equal(out.stdout, "2\n");
    assert.equal(out.stderr, undefined);
    assert.deepEqual(out.outputFiles?.map((f) => [f.name, f.mimeType, decode(f.content as Uint8Array)]), [
      ["count.json", "application/json", '{"rows":2}'],
    ]);
  });

  test("a failing program gives its stderr; an empty stderr names the exit code", async () => {
    const thrown = await node().execute(js(`console.log("before"); throw new Error("bad input");`));
    assert.equal(thrown.stdout, "before\n");
    assert.match(thrown.stderr ?? "", /Error: bad input/);
    const exited = await node().execute(js("process.exit(3)"));
    assert.equal(exited.stderr, "The code exited with code 3.");
  });

  test("a program past its timeout is killed with ADK's message, and what it started too", async () => {
    // The grandchild holds the output pipes: the execution ends only if it is killed as well.
    const code = `require("child_process").spawn("sleep", ["30"], { stdio: "inherit" }); setInterval(() => {}, 1000);`;
    const out = await within(node({ timeoutMs: 200 }).execute(js(code)), 5000, "the timeout");
    assert.equal(out.stderr, "Code execution timed out after 0.2 seconds.");
  });

  test("an aborted run kills the process", async () => {
    const abort = new AbortController();
    const running = node().execute({ ...js("setInterval(() => {}, 1000)"), signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    await assert.rejects(within(running, 5000, "the abort"), /The run ended before the code finished/);
  });

  test("output is capped; other languages, unsafe names and oversized files are refused", async () => {
    const capped = await node({ maxOutputBytes: 10 }).execute(js(`process.stdout.write("x".repeat(1000))`));
    assert.equal(capped.stdout, "x".repeat(10));
    await assert.rejects(node().execute(js("1", { language: "python" })), /Language 'python' is not supported/);
    await assert.rejects(
      node().execute(js("1", { inputFiles: [{ name: "../evil", mimeType: "text/plain", content: bytes("x") }] })),
      /"\.\.\/evil" is not a plain file name/,
    );
    await assert.rejects(
      node({ maxOutputFileBytes: 4 }).execute(js(`require("fs").writeFileSync("big.bin", "12345")`)),
      /output files exceed 4 bytes/,
    );
    assert.throws(() => new SubprocessCodeExecutor({ command: [] }), /command is empty/);
    assert.throws(() => new SubprocessCodeExecutor({ timeoutMs: 0 }), /timeoutMs must be a positive number/);
  });

  const python = spawnSync("python3", ["--version"]).status === 0;
  test("runs Python by default", { skip: !python && "python3 is not installed" }, async () => {
    const out = await new SubprocessCodeExecutor().execute({ ...call(), signal: never } as unknown as CodeExecution);
    assert.equal(out.stdout, "42\n");
  });
});
