import { randomUUID } from "node:crypto";
import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import type { CallOptions, Client } from "@connectrpc/connect";
import { Code } from "@connectrpc/connect";
import type { ContentSchema } from "./gen/agentsvc/v1/content_pb.js";
import type { Event } from "./gen/agentsvc/v1/event_pb.js";
import {
  type ConnectRequestSchema,
  type RunnerService,
  type RunNodeResponse,
  type RunRequestSchema,
  StreamingMode,
} from "./gen/agentsvc/v1/runner_service_pb.js";
import { toAgentsvcError } from "./errors.js";
import { AsyncQueue } from "./queue.js";
import { type Callback, declareCallbacks, undeclaredCallback } from "./callbacks.js";
import { answerCall, declareTools, type Tool } from "./tools.js";
import { answerCodeExecution, type CodeExecutor } from "./codeexec.js";
import { answerNodeCall, declareNodes, type NodeLike, nodesByName, type RunNodeChannel } from "./nodes.js";

/** A message for the agent: text, or a Content with its parts. */
export type MessageInput = string | MessageInitShape<typeof ContentSchema>;

/** What to run: the session, the new message and the run's settings. */
export interface RunOptions {
  appName: string;
  userId: string;
  sessionId: string;
  /** The new user message: text, or a Content (role defaults to "user"). */
  message: MessageInput;
  /** State changes stored with the user event. */
  stateDelta?: JsonObject;
  /** Resumes the paused invocation with this id (resumable apps). */
  invocationId?: string;
  /**
   * Idempotency key of the run, chosen by the caller (see
   * {@link newRequestId}): at most 128 bytes of UTF-8 without control
   * characters, stored on the user event. A run whose request id a user
   * event of the session already carries stores no second user message: the
   * service answers the finished invocation's events again, or continues the
   * one that stopped early. Use one id per logical run and send it again
   * when retrying that run. Default: none.
   */
  requestId?: string;
  /** "sse" streams partial events as the model produces them. Default "none". */
  streaming?: "none" | "sse";
  /** Upper bound on model calls; the service defaults to 500, 0 or less means none. */
  maxLlmCalls?: number;
  /** Metadata for the run, visible to callbacks and plugins. */
  customMetadata?: JsonObject;
  /**
   * Tools that live in this process. When given (even empty), the run uses the
   * bidirectional Connect call and answers the service's tool calls with them,
   * several at once; without, it uses the plain Run call.
   */
  tools?: readonly Tool[];
  /**
   * Callbacks that live in this process (see {@link defineCallback}); they
   * must cover the callbacks the app's YAML names. Given, the run uses the
   * Connect call as with `tools`, and each callback call is answered as it
   * arrives.
   */
  callbacks?: readonly Callback[];
  /**
   * Runs the code that the model of an agent with `code_executor:
   * {name: ClientCodeExecutor}` writes (see {@link CodeExecutor}). Given, the
   * run uses the Connect call as with `tools` and declares that it runs
   * code; each execution is answered as it finishes. Default: none.
   */
  codeExecutor?: CodeExecutor;
  /**
   * Workflow function nodes that live in this process (see
   * {@link defineNode}; a named function is a node of that name); they must
   * cover the `function:` nodes of the app's workflows. Given, the run uses
   * the Connect call as with `tools`, and each node call is answered as it
   * finishes.
   */
  nodes?: readonly NodeLike[];
  /**
   * Aborts the run: the call is cancelled, which stops the server-side
   * invocation, and the iteration rejects with a CancelledError.
   */
  signal?: AbortSignal;
  /** Deadline of the whole run in milliseconds; past it, DeadlineExceededError. */
  timeoutMs?: number;
  /** Extra request headers (gRPC metadata) for this run. */
  headers?: Record<string, string>;
}

/** Settings of the client that runs use. */
export interface RunSettings {
  /** How long cancel() waits for the service to end the stream before resetting it. */
  cancelGraceMs: number;
}

/**
 * One invocation of an agent, streamed as the service yields its events.
 * Iterate it once with `for await`; the call starts with the iteration.
 * Failures reject the iteration with an {@link AgentsvcError} subclass, after
 * the events that preceded them. Breaking out of the loop cancels the run.
 */
export class Invocation implements AsyncIterable<Event> {
  private id = "";
  private finished = false;
  private iterated = false;
  private cancelled = false;
  private onCancel: (() => void) | undefined;

  /** @internal Use {@link AgentsvcClient.run}. */
  constructor(private readonly source: (run: Invocation) => AsyncGenerator<Event, void, undefined>) {}

  /** The invocation id ("e-<uuid4>"), known from the first event on; "" before. */
  get invocationId(): string {
    return this.id;
  }

  /**
   * True once the service reported that the run finished successfully: after
   * RunDone on a Connect run, at the end of the stream on a plain run.
   */
  get completed(): boolean {
    return this.finished;
  }

  /** Whether {@link Invocation.cancel} was called. */
  get isCancelled(): boolean {
    return this.cancelled;
  }

  /**
   * Cancels the run: a Connect run sends CancelRun and lets the service end
   * the stream (resetting it if the service does not within the client's
   * grace period), a plain run cancels its call. Either way the server-side
   * invocation stops, tools still running see their signal aborted, and the
   * iteration ends without an error after the events already received.
   * Calling it again, or after the run ended, does nothing.
   */
  cancel(): void {
    if (this.cancelled) {
      return;
    }
    this.cancelled = true;
    this.onCancel?.();
  }

  /** Runs to the end and returns every event. */
  async collect(): Promise<Event[]> {
    const events: Event[] = [];
    for await (const event of this) {
      events.push(event);
    }
    return events;
  }

  [Symbol.asyncIterator](): AsyncIterator<Event, void, undefined> {
    if (this.iterated) {
      throw new Error("an Invocation can be iterated only once");
    }
    this.iterated = true;
    return this.source(this);
  }

  /** @internal */
  noteEvent(event: Event): void {
    if (this.id === "" && event.invocationId !== "") {
      this.id = event.invocationId;
    }
  }

  /** @internal */
  noteDone(invocationId: string): void {
    if (invocationId !== "") {
      this.id = invocationId;
    }
    this.finished = true;
  }

  /** @internal Registers what cancel() does while the call runs. */
  setCanceller(fn: (() => void) | undefined): void {
    this.onCancel = fn;
  }
}

/**
 * Returns a new request id (a random uuid4) for {@link RunOptions.requestId}:
 * create one per logical run, before its first attempt, and pass the same id
 * to every retry of that run.
 */
export function newRequestId(): string {
  return randomUUID();
}

/** Builds the RunRequest of a run. */
export function runRequest(options: RunOptions): MessageInitShape<typeof RunRequestSchema> {
  const message = typeof options.message === "string"
    ? { role: "user", parts: [{ text: options.message }] }
    : { ...options.message, role: options.message.role || "user" };
  const runConfig: MessageInitShape<typeof RunRequestSchema>["runConfig"] = {
    streamingMode: options.streaming === "sse" ? StreamingMode.SSE : StreamingMode.NONE,
    ...(options.maxLlmCalls === undefined ? {} : { maxLlmCalls: options.maxLlmCalls }),
    ...(options.customMetadata === undefined ? {} : { customMetadata: options.customMetadata }),
  };
  return {
    appName: options.appName,
    userId: options.userId,
    sessionId: options.sessionId,
    newMessage: message,
    ...(options.stateDelta === undefined ? {} : { stateDelta: options.stateDelta }),
    invocationId: options.invocationId ?? "",
    requestId: options.requestId ?? "",
    runConfig,
  };
}

function callOptions(options: RunOptions, signal: AbortSignal): CallOptions {
  return {
    signal,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  };
}

/** Links the run's own controller to the caller's signal. */
function linkSignal(controller: AbortController, signal: AbortSignal | undefined): () => void {
  if (signal === undefined) {
    return () => {};
  }
  if (signal.aborted) {
    controller.abort(signal.reason);
    return () => {};
  }
  const abort = () => controller.abort(signal.reason);
  signal.addEventListener("abort", abort, { once: true });
  return () => signal.removeEventListener("abort", abort);
}

/** Streams a plain Run call. */
export function plainRun(client: Client<typeof RunnerService>, options: RunOptions): Invocation {
  const request = runRequest(options);
  return new Invocation(async function* (run) {
    if (run.isCancelled) {
      return;
    }
    const controller = new AbortController();
    const unlink = linkSignal(controller, options.signal);
    run.setCanceller(() => controller.abort());
    try {
      for await (const response of client.run(request, callOptions(options, controller.signal))) {
        if (response.event !== undefined) {
          run.noteEvent(response.event);
          yield response.event;
        }
      }
      run.noteDone(run.invocationId);
    } catch (err) {
      const error = toAgentsvcError(err);
      if (run.isCancelled && error.code === Code.Canceled) {
        return;
      }
      throw error;
    } finally {
      run.setCanceller(undefined);
      unlink();
      controller.abort();
    }
  });
}

/**
 * Streams a Connect call: declares the tools, callbacks, code executor and
 * nodes, answers each ToolCall, CallbackCall, CodeExecutionCall and NodeCall
 * as soon as it arrives (without waiting for earlier ones) and yields the events.
 */
export function connectRun(
  client: Client<typeof RunnerService>,
  options: RunOptions,
  settings: RunSettings,
): Invocation {
  const tools = options.tools ?? [];
  const callbacks = options.callbacks ?? [];
  const nodes = nodesByName(options.nodes ?? []);
  const start: MessageInitShape<typeof ConnectRequestSchema> = {
    kind: {
      case: "start",
      value: {
        run: runRequest(options),
        tools: declareTools(tools),
        callbacks: declareCallbacks(callbacks),
        codeExecutor: options.codeExecutor !== undefined,
        nodes: declareNodes(nodes),
      },
    },
  };
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const callbacksByName = new Map(callbacks.map((cb) => [cb.name, cb]));

  return new Invocation(async function* (run) {
    if (run.isCancelled) {
      return;
    }
    const outbox = new AsyncQueue<MessageInitShape<typeof ConnectRequestSchema>>();
    const call = new AbortController();
    const toolSignal = new AbortController();
    const unlink = linkSignal(call, options.signal);
    let graceTimer: NodeJS.Timeout | undefined;
    run.setCanceller(() => {
      toolSignal.abort();
      outbox.push({ kind: { case: "cancel", value: {} } });
      graceTimer = setTimeout(() => call.abort(), settings.cancelGraceMs);
      graceTimer.unref();
    });
    // The run_node requests of running node calls, waiting for their answers.
    const children = new Map<string, { resolve: (r: RunNodeResponse) => void; reject: (e: Error) => void }>();
    const runChild: RunNodeChannel = (req) =>
      new Promise<RunNodeResponse>((resolve, reject) => {
        if (toolSignal.signal.aborted) {
          reject(new Error("the invocation ended"));
          return;
        }
        children.set(childKey(req.callId ?? "", req.requestId ?? ""), { resolve, reject });
        outbox.push({ kind: { case: "runNode", value: req } });
      });
    toolSignal.signal.addEventListener("abort", () => {
      for (const child of children.values()) {
        child.reject(new Error("the invocation ended"));
      }
      children.clear();
    });
    outbox.push(start);
    try {
      for await (const response of client.connect(outbox, callOptions(options, call.signal))) {
        switch (response.kind.case) {
          case "event":
            run.noteEvent(response.kind.value);
            yield response.kind.value;
            break;
          case "toolCall": {
            const toolCall = response.kind.value;
            const tool = byName.get(toolCall.functionCall?.name ?? "");
            void answerCall(tool, toolCall, toolSignal.signal).then((result) => {
              if (!toolSignal.signal.aborted) {
                outbox.push({ kind: { case: "toolResult", value: result } });
              }
            });
            break;
          }
          case "callbackCall": {
            const cbCall = response.kind.value;
            const cb = callbacksByName.get(cbCall.name);
            void (cb === undefined ? Promise.resolve(undeclaredCallback(cbCall)) : cb.answer(cbCall)).then((result) => {
              if (!toolSignal.signal.aborted) {
                outbox.push({ kind: { case: "callbackResult", value: result } });
              }
            });
            break;
          }
          case "codeExecution": {
            void answerCodeExecution(options.codeExecutor, response.kind.value, toolSignal.signal).then((result) => {
              if (!toolSignal.signal.aborted) {
                outbox.push({ kind: { case: "codeResult", value: result } });
              }
            });
            break;
          }
          case "nodeCall": {
            const nodeCall = response.kind.value;
            void answerNodeCall(nodes.get(nodeCall.name), nodeCall, toolSignal.signal, runChild).then((result) => {
              if (!toolSignal.signal.aborted) {
                outbox.push({ kind: { case: "nodeResult", value: result } });
              }
            });
            break;
          }
          case "runNodeResult": {
            const answer = response.kind.value;
            const key = childKey(answer.callId, answer.requestId);
            children.get(key)?.resolve(answer);
            children.delete(key);
            break;
          }
          case "done":
            run.noteDone(response.kind.value.invocationId);
            outbox.close();
            break;
          default:
            // A message kind newer than this client: nothing to do.
            break;
        }
      }
    } catch (err) {
      const error = toAgentsvcError(err);
      if (run.isCancelled && error.code === Code.Canceled) {
        return;
      }
      throw error;
    } finally {
      run.setCanceller(undefined);
      clearTimeout(graceTimer);
      unlink();
      outbox.close();
      toolSignal.abort();
      call.abort();
    }
  });
}

/** The key of a run_node request among a run's waiting ones. */
function childKey(callId: string, requestId: string): string {
  return `${callId}\u0000${requestId}`;
}
