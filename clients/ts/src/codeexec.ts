import type { MessageInitShape } from "@bufbuild/protobuf";
import type { CodeExecutionCall, CodeResultSchema, FileSchema } from "./gen/agentsvc/v1/runner_service_pb.js";
import { errorText } from "./tools.js";

/** A file given to the code (an input file) or written by it (an output file). */
export interface CodeFile {
  /** The file's name, e.g. "data.csv". */
  readonly name: string;
  /** Its MIME type, e.g. "text/csv". */
  readonly mimeType: string;
  /** Its content. */
  readonly content: Uint8Array;
}

/** A file the code wrote, as an executor returns it: bytes, or text sent as UTF-8. */
export interface CodeOutputFile {
  name: string;
  /** Default "application/octet-stream" for bytes, "text/plain" for text. */
  mimeType?: string;
  content: Uint8Array | string;
}

/**
 * One code block the model wrote, to run in this process (ADK's
 * CodeExecutionInput, with the invocation it belongs to).
 */
export interface CodeExecution {
  /** The call id; the result carries it back. */
  readonly callId: string;
  /** The invocation whose model wrote the code. */
  readonly invocationId: string;
  /** The agent whose model wrote the code. */
  readonly agentName: string;
  /** The block's language in lower case, e.g. "python" or "tool_code". */
  readonly language: string;
  /** The code itself, without its delimiters. */
  readonly code: string;
  /** Data files the code may read (files the user sent inline). */
  readonly inputFiles: readonly CodeFile[];
  /**
   * Non-empty when the agent's executor is stateful: executions with the
   * same id share their interpreter state. "" otherwise.
   */
  readonly executionId: string;
  /** Aborted when the invocation ends before the code has run. */
  readonly signal: AbortSignal;
}

/**
 * What running the code gave (ADK's CodeExecutionResult). A non-empty
 * `stderr` means the code failed: the service shows it to the model and lets
 * the model try again, up to the agent's `error_retry_attempts`.
 */
export interface CodeExecutionOutcome {
  stdout?: string;
  stderr?: string;
  /** Files the code wrote; the service saves them as artifacts when it has a store. */
  outputFiles?: readonly CodeOutputFile[];
}

/**
 * Runs the code blocks the model writes for agents whose `code_executor` is
 * `ClientCodeExecutor`. One executor serves every agent of a run and may
 * receive several executions at once. A thrown error (or a rejected promise)
 * is answered as the code's failure, with the error's text as `stderr`.
 */
export interface CodeExecutor {
  execute(execution: CodeExecution): CodeExecutionOutcome | Promise<CodeExecutionOutcome>;
}

/** Bounds of a result, so that a runaway program cannot exhaust the stream. */
const MAX_OUTPUT_FILES = 100;

/** The stderr answering an execution this client has no executor for. */
export const NO_CODE_EXECUTOR = "This client does not run code: the run declares no code executor.";

/**
 * Runs one CodeExecutionCall with the executor and returns the CodeResult to
 * send. Never rejects: a missing executor, an error it throws or a result it
 * should not return becomes the result's stderr.
 */
export async function answerCodeExecution(
  executor: CodeExecutor | undefined,
  call: CodeExecutionCall,
  signal: AbortSignal,
): Promise<MessageInitShape<typeof CodeResultSchema>> {
  if (executor === undefined) {
    return { callId: call.callId, stderr: NO_CODE_EXECUTOR };
  }
  try {
    const outcome: unknown = await executor.execute(codeExecution(call, signal));
    return { callId: call.callId, ...codeResult(outcome) };
  } catch (err) {
    const text = errorText(err);
    const named = err instanceof Error && err.name !== "Error" && err.name !== text;
    return { callId: call.callId, stderr: named ? `${err.name}: ${text}` : text };
  }
}

function codeExecution(call: CodeExecutionCall, signal: AbortSignal): CodeExecution {
  return Object.freeze({
    callId: call.callId,
    invocationId: call.invocationId,
    agentName: call.agentName,
    language: call.language,
    code: call.code,
    inputFiles: Object.freeze(call.inputFiles.map((f) => Object.freeze({ name: f.name, mimeType: f.mimeType, content: f.content }))),
    executionId: call.executionId,
    signal,
  });
}

/** Checks what an executor returned; throws a TypeError for anything else. */
function codeResult(outcome: unknown): { stdout: string; stderr: string; outputFiles: MessageInitShape<typeof FileSchema>[] } {
  if (typeof outcome !== "object" || outcome === null || Array.isArray(outcome)) {
    const type = outcome === null ? "null" : Array.isArray(outcome) ? "array" : typeof outcome;
    throw new TypeError(`the code executor returned a ${type}, not { stdout, stderr?, outputFiles? }`);
  }
  const { stdout, stderr, outputFiles } = outcome as Record<string, unknown>;
  return {
    stdout: text(stdout, "stdout"),
    stderr: text(stderr, "stderr"),
    outputFiles: files(outputFiles),
  };
}

function text(value: unknown, field: string): string {
  if (value === undefined || value === null) {
    return "";
  }
  if (typeof value !== "string") {
    throw new TypeError(`the code executor's ${field} is a ${typeof value}, not a string`);
  }
  return value;
}

function files(value: unknown): MessageInitShape<typeof FileSchema>[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new TypeError("the code executor's outputFiles is not an array");
  }
  if (value.length > MAX_OUTPUT_FILES) {
    throw new TypeError(`the code executor returned ${value.length} output files, more than ${MAX_OUTPUT_FILES}`);
  }
  const seen = new Set<string>();
  return value.map((file: unknown, i) => {
    if (typeof file !== "object" || file === null) {
      throw new TypeError(`output file ${i} is not an object`);
    }
    const { name, mimeType, content } = file as Record<string, unknown>;
    if (typeof name !== "string" || name.trim() === "") {
      throw new TypeError(`output file ${i} has no name`);
    }
    if (seen.has(name)) {
      throw new TypeError(`output file ${JSON.stringify(name)} is returned twice`);
    }
    seen.add(name);
    if (mimeType !== undefined && (typeof mimeType !== "string" || mimeType === "")) {
      throw new TypeError(`output file ${JSON.stringify(name)}: mimeType must be a non-empty string`);
    }
    const type = mimeType as string | undefined;
    if (typeof content === "string") {
      return { name, mimeType: type ?? "text/plain", content: new TextEncoder().encode(content) };
    }
    if (content instanceof Uint8Array) {
      return { name, mimeType: type ?? "application/octet-stream", content };
    }
    throw new TypeError(`output file ${JSON.stringify(name)}: content must be bytes or text`);
  });
}
