import assert from "node:assert/strict";
import { after, beforeEach, describe, test } from "node:test";
import { type CodeExecution, type CodeExecutor, eventText, isFinalResponse } from "../../src/index.js";
import { fakeGemini, freshKey, liveClient, says } from "./stack.js";

// The app `coder`: a root LlmAgent whose code_executor is ClientCodeExecutor
// with error_retry_attempts: 2.

/** A model turn that writes a Python code block. */
const writesCode = (code: string) => says("```python\n" + code + "\n```");

describe("live: code the model writes runs in this process", () => {
  const client = liveClient();
  after(() => client.close());
  beforeEach(() => fakeGemini.reset());

  test("the executor's stdout is the code execution result the model reads", async () => {
    await fakeGemini.script(writesCode("print(6 * 7)"), says("The answer is 42."));
    const seen: CodeExecution[] = [];
    const executor: CodeExecutor = {
      execute(execution) {
        seen.push(execution);
        return { stdout: "42\n" };
      },
    };
    const key = freshKey("coder");
    await client.createSession(key);
    const events = await client.run({ ...key, message: "What is 6 times 7?", codeExecutor: executor }).collect();

    assert.deepEqual(seen.map((e) => [e.language, e.code, e.agentName]), [["python", "print(6 * 7)", "coder"]]);
    assert.notEqual(seen[0]?.invocationId, "");
    const code = events.flatMap((e) => e.content?.parts ?? []).filter((p) => p.executableCode !== undefined);
    assert.deepEqual(code.map((p) => p.executableCode?.code), ["print(6 * 7)"]);
    const results = events.flatMap((e) => e.content?.parts ?? []).flatMap((p) => p.codeExecutionResult ?? []);
    assert.deepEqual(results.map((r) => [r.outcome, r.output]), [["OUTCOME_OK", "Code execution result:\n42\n\n"]]);
    // As in ADK, the code event counts as a final response too; the answer comes last.
    const last = events[events.length - 1];
    assert.ok(last !== undefined && isFinalResponse(last));
    assert.equal(eventText(last), "The answer is 42.");
    const requests = await fakeGemini.requests();
    assert.equal(requests.length, 2);
    assert.match(JSON.stringify(requests[1]?.body), /Code execution result:\\n42/);
  });

  test("an executor that throws fails the code, and the model is asked again", async () => {
    await fakeGemini.script(writesCode("print(x)"), writesCode("print(1)"), says("Fixed it."));
    let calls = 0;
    const executor: CodeExecutor = {
      execute() {
        calls++;
        if (calls === 1) {
          throw new Error("NameError: name 'x' is not defined");
        }
        return { stdout: "1\n" };
      },
    };
    const key = freshKey("coder");
    await client.createSession(key);
    const events = await client.run({ ...key, message: "Print x.", codeExecutor: executor }).collect();

    assert.equal(calls, 2);
    const results = events.flatMap((e) => e.content?.parts ?? []).flatMap((p) => p.codeExecutionResult ?? []);
    assert.deepEqual(results.map((r) => r.outcome), ["OUTCOME_FAILED", "OUTCOME_OK"]);
    assert.equal(results[0]?.output, "NameError: name 'x' is not defined");
    assert.equal(eventText(events[events.length - 1]!), "Fixed it.");
  });

  test("output files are saved as artifacts and named in the result", async () => {
    await fakeGemini.script(writesCode("open('report.txt', 'w').write('rows: 2')"), says("Saved."));
    const executor: CodeExecutor = { execute: () => ({ stdout: "done\n", outputFiles: [{ name: "report.txt", content: "rows: 2" }] }) };
    const key = freshKey("coder");
    await client.createSession(key);
    const events = await client.run({ ...key, message: "Write a report.", codeExecutor: executor }).collect();

    const withResult = events.filter((e) => e.content?.parts.some((p) => p.codeExecutionResult !== undefined));
    assert.equal(withResult.length, 1);
    assert.equal(withResult[0]?.content?.parts[0]?.codeExecutionResult?.output, "Code execution result:\ndone\n\n\n\nSaved artifacts:\n`report.txt`");
    assert.deepEqual(withResult[0]?.actions?.artifactDelta, { "report.txt": 0n });
    const part = await client.loadArtifact({ ...key, filename: "report.txt" });
    assert.equal(new TextDecoder().decode(part?.inlineData?.data), "rows: 2");
    assert.equal(part?.inlineData?.mimeType, "text/plain");
  });
});
