import type { JsonObject, JsonValue, MessageInitShape } from "@bufbuild/protobuf";
import { fromJson, toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import type { Event } from "./gen/agentsvc/v1/event_pb.js";
import type {
  NodeCall,
  NodeDeclarationSchema,
  NodeResultSchema,
  RequestInputSchema,
  RunNodeRequestSchema,
  RunNodeResponse,
} from "./gen/agentsvc/v1/runner_service_pb.js";
import { type JsonSchema, toJsonObject, toJsonValue } from "./schema.js";
import { errorText } from "./tools.js";

/**
 * What a workflow function node sees of its call, as ADK's node Context. A
 * context belongs to one call; it is not shared between calls.
 */
export interface NodeContext {
  /** The call id; the result carries it back. */
  readonly callId: string;
  /** The invocation that runs the workflow. */
  readonly invocationId: string;
  /** The workflow the node belongs to. */
  readonly workflow: string;
  /** The node's name in the graph. */
  readonly nodeName: string;
  /** The node run's path, e.g. "approvals@1/approval_gate@1". */
  readonly nodePath: string;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  readonly attempt: number;
  /**
   * The user's answers to the node's earlier RequestInputs, by interrupt id,
   * when a node with rerun_on_resume runs again after a resume; else empty.
   */
  readonly resumeInputs: Readonly<JsonObject>;
  /**
   * The session state: reading gives the call's state with this node's own
   * changes applied; assigning a key (`ctx.state.status = "done"`) records
   * the change in {@link NodeActions.stateDelta}, as ADK's
   * `ctx.state[key] = value`. Keys cannot be deleted.
   */
  readonly state: JsonObject;
  /** The changes the node makes, as ADK's `ctx.actions`. */
  readonly actions: NodeActions;
  /**
   * The route the node picks, matched against the routes of its outgoing
   * edges: a boolean, number or string, or an array of them. Default: none.
   */
  route: JsonValue | undefined;
  /** Aborted when the invocation ends before the node answers. */
  readonly signal: AbortSignal;
  /** The session, as ADK's `ctx.session`. */
  readonly session: NodeSession;
  /**
   * Runs another node as a dynamic child of this one and resolves to its
   * output (ADK's `ctx.run_node`). The service runs it through the
   * workflow: its path is this node's path, then `<name>@<run id>`; its
   * events and state changes are the workflow's. `node` is a node function
   * of this client's (declared with the run, `{ dynamic: true }` when no
   * workflow names it) or the name of a node of this node's workflow (a
   * function, agent or tool node). Rejects with a
   * {@link DynamicNodeFailError} when the child failed, and with an error
   * named as the service's refusal (e.g. "ValueError" when this node is
   * not declared `rerun_on_resume: true`, as ADK requires).
   */
  runNode(node: NodeLike | string, nodeInput?: JsonValue, options?: RunNodeOptions): Promise<JsonValue | undefined>;
}

/** Options of {@link NodeContext.runNode}. */
export interface RunNodeOptions {
  /** The child's output event stands for this node's output too, and this node emits none of its own. */
  useAsOutput?: boolean;
  /** The child's run id in its path; default the next number of its name. Must contain a non-digit. */
  runId?: string;
}

/** The session as a node sees it (ADK's `ctx.session`). */
export interface NodeSession {
  readonly id: string;
  readonly userId: string;
  /** The session state as the call began (read-only). */
  readonly state: Readonly<JsonObject>;
  /**
   * The session's most recent events (at most 100, oldest first), for a
   * node defined with `{ sessionEvents: true }`; otherwise empty.
   */
  readonly events: readonly Event[];
}

/**
 * Thrown by {@link NodeContext.runNode} when the dynamic node failed, as
 * ADK's error of that name: `error` is the child's own failure and
 * `errorNodePath` its path.
 */
export class DynamicNodeFailError extends Error {
  override readonly name = "DynamicNodeFailError";
  constructor(
    message: string,
    readonly error: { readonly type: string; readonly message: string } | undefined,
    readonly errorNodePath: string,
  ) {
    super(message);
  }
}

/** Sends a node call's run_node request and resolves to its answer. */
export type RunNodeChannel = (req: MessageInitShape<typeof RunNodeRequestSchema>) => Promise<RunNodeResponse>;

/** The actions a node records, as ADK's EventActions. */
export interface NodeActions {
  /**
   * Changes to the session state, stored with the node's event (ADK's
   * `ctx.actions.state_delta`). Set keys on it directly, or through
   * {@link NodeContext.state}.
   */
  readonly stateDelta: JsonObject;
}

/** What {@link RequestInput} is built from; every field is optional. */
export interface RequestInputInit {
  /** Names the interrupt; the resume answer carries it back. Default: the service makes a uuid4. */
  interruptId?: string;
  /** What to ask the user. */
  message?: string;
  /** Data for whoever answers, e.g. the order to approve. */
  payload?: unknown;
  /** The JSON schema the answer must match, e.g. `{ type: "array", items: { type: "string" } }`. */
  responseSchema?: JsonSchema;
}

/**
 * Pauses the workflow and asks the user for input, as ADK's RequestInput.
 * A node function returns one (or an array of them, or yields them from a
 * generator); the service sends each to the user as an `adk_request_input`
 * function call, and the user's answer (see
 * {@link createRequestInputResponse}) becomes the node's output when the
 * workflow resumes.
 */
export class RequestInput {
  readonly interruptId: string;
  readonly message: string;
  readonly payload: JsonValue | undefined;
  readonly responseSchema: JsonObject | undefined;

  /** Throws a TypeError for a payload or schema that JSON cannot carry. */
  constructor(init: RequestInputInit = {}) {
    this.interruptId = init.interruptId ?? "";
    this.message = init.message ?? "";
    this.payload = init.payload === undefined ? undefined : toJsonValue(init.payload, "RequestInput payload");
    this.responseSchema = init.responseSchema === undefined
      ? undefined
      : toJsonObject(init.responseSchema, "RequestInput responseSchema");
    if (typeof this.interruptId !== "string" || typeof this.message !== "string") {
      throw new TypeError("RequestInput interruptId and message must be strings");
    }
  }
}

/**
 * A workflow function node's function: gets the node's input (the output of
 * the node before it; the user's message as Content JSON after START) and
 * its context, and returns its output: any JSON value, or undefined (or
 * null) for none, or a {@link RequestInput} (or an array of them) to ask the
 * user. It may be async, and it may be a generator: a yielded RequestInput
 * is collected, a yielded other value is the output. A thrown error becomes
 * the node's failure, named by the error's class for the YAML's
 * retry_config.
 */
export type NodeFunction = (nodeInput: JsonValue | undefined, ctx: NodeContext) => unknown;

/**
 * A workflow function node that lives in this process, declared on a run by
 * its name (the `function:` of the node in the YAML). Create one with
 * {@link defineNode}, or pass a named function to {@link RunOptions.nodes}.
 */
export interface Node {
  readonly name: string;
  readonly run: NodeFunction;
  /** Runs only through {@link NodeContext.runNode}: no workflow names it. */
  readonly dynamic?: boolean;
  /** Its calls carry the session's recent events ({@link NodeSession.events}). */
  readonly sessionEvents?: boolean;
}

/** Options of {@link defineNode}. */
export interface NodeOptions {
  /** See {@link Node.dynamic}. */
  dynamic?: boolean;
  /** See {@link Node.sessionEvents}. */
  sessionEvents?: boolean;
}

/** Node names: a letter or underscore, then up to 127 of [A-Za-z0-9_.-]. */
const nodeNamePattern = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

/** At most this many RequestInputs in one result. */
const MAX_REQUEST_INPUTS = 100;

/**
 * Defines a workflow function node: `defineNode(fn)` names it by the
 * function's name, `defineNode("name", fn)` explicitly. Throws a TypeError
 * for a missing or invalid name.
 *
 * ```ts
 * const prepare = defineNode("prepare", (input, ctx) => {
 *   ctx.state.prepared = true;
 *   return { order: input };
 * });
 * ```
 */
export function defineNode(nameOrFn: string | NodeFunction, fn?: NodeFunction, options: NodeOptions = {}): Node {
  const run = typeof nameOrFn === "function" ? nameOrFn : fn;
  const name = typeof nameOrFn === "string" ? nameOrFn : nameOrFn.name;
  if (typeof run !== "function") {
    throw new TypeError(`node ${String(name)}: the node function is missing`);
  }
  if (!nodeNamePattern.test(name)) {
    throw new TypeError(
      `node name ${JSON.stringify(name)} is invalid: start with a letter or underscore, ` +
        "then use letters, digits, underscores, dots or dashes (at most 128 characters)",
    );
  }
  return Object.freeze({ name, run, dynamic: options.dynamic === true, sessionEvents: options.sessionEvents === true });
}

/** What {@link RunOptions.nodes} holds: nodes, or named node functions. */
export type NodeLike = Node | NodeFunction;

/** Returns the nodes of a run by name; throws a TypeError on duplicate or invalid names. */
export function nodesByName(nodes: readonly NodeLike[]): Map<string, Node> {
  const byName = new Map<string, Node>();
  for (const item of nodes) {
    const node = typeof item === "function" ? defineNode(item) : defineNode(item.name, item.run, item);
    if (byName.has(node.name)) {
      throw new TypeError(`node ${node.name} is declared twice`);
    }
    byName.set(node.name, node);
  }
  return byName;
}

/** Returns the declarations of nodes for StartRun. */
export function declareNodes(nodes: ReadonlyMap<string, Node>): MessageInitShape<typeof NodeDeclarationSchema>[] {
  return [...nodes.values()].map((n) => ({ name: n.name, dynamic: n.dynamic === true, sessionEvents: n.sessionEvents === true }));
}

/** The context of one node call; collects the state changes and route. */
class CallContext implements NodeContext {
  readonly callId: string;
  readonly invocationId: string;
  readonly workflow: string;
  readonly nodeName: string;
  readonly nodePath: string;
  readonly attempt: number;
  readonly resumeInputs: Readonly<JsonObject>;
  readonly state: JsonObject;
  readonly actions: NodeActions = { stateDelta: {} };
  route: JsonValue | undefined = undefined;
  readonly session: NodeSession;
  private requests = 0;

  constructor(
    call: NodeCall,
    readonly signal: AbortSignal,
    private readonly channel?: RunNodeChannel,
  ) {
    this.callId = call.callId;
    this.invocationId = call.invocationId;
    this.workflow = call.workflow;
    this.nodeName = call.nodeName;
    this.nodePath = call.nodePath;
    this.attempt = call.attempt;
    this.resumeInputs = Object.freeze({ ...(call.resumeInputs ?? {}) });
    this.state = stateView({ ...(call.state ?? {}) }, this.actions.stateDelta);
    this.session = Object.freeze({
      id: call.sessionId,
      userId: call.userId,
      state: Object.freeze({ ...(call.state ?? {}) }),
      events: Object.freeze([...call.sessionEvents]),
    });
  }

  async runNode(node: NodeLike | string, nodeInput?: JsonValue, options: RunNodeOptions = {}): Promise<JsonValue | undefined> {
    if (this.channel === undefined) {
      throw new Error("runNode needs a node call of a running invocation");
    }
    this.requests++;
    const target =
      typeof node === "string"
        ? { case: "node" as const, value: node }
        : { case: "function" as const, value: typeof node === "function" ? defineNode(node).name : node.name };
    const answer = await this.channel({
      callId: this.callId,
      requestId: String(this.requests),
      target,
      nodeInput: nodeInput === undefined ? undefined : fromJson(ValueSchema, toJsonValue(nodeInput, "nodeInput")),
      useAsOutput: options.useAsOutput === true,
      runId: options.runId ?? "",
    });
    if (answer.error !== undefined) {
      throw childError(answer);
    }
    return answer.output === undefined ? undefined : toJson(ValueSchema, answer.output);
  }
}

/** The error a failed runNode rejects with. */
function childError(answer: RunNodeResponse): Error {
  const err = answer.error ?? { type: "Error", message: "" };
  if (err.type === "DynamicNodeFailError") {
    const cause = answer.cause === undefined ? undefined : { type: answer.cause.type, message: answer.cause.message };
    return new DynamicNodeFailError(err.message, cause, answer.nodePath);
  }
  const refused = new Error(err.message);
  refused.name = err.type;
  return refused;
}

/** A view of base with delta on top; assignments go to delta. */
function stateView(base: JsonObject, delta: JsonObject): JsonObject {
  const has = (key: string) => Object.hasOwn(delta, key) || Object.hasOwn(base, key);
  return new Proxy(base, {
    get: (_target, key) => (typeof key !== "string" ? undefined : Object.hasOwn(delta, key) ? delta[key] : base[key]),
    set: (_target, key, value: unknown) => {
      if (typeof key !== "string") {
        return false;
      }
      delta[key] = toJsonValue(value, `state[${JSON.stringify(key)}]`);
      return true;
    },
    has: (_target, key) => typeof key === "string" && has(key),
    deleteProperty: () => false,
    ownKeys: () => [...new Set([...Object.keys(base), ...Object.keys(delta)])],
    getOwnPropertyDescriptor: (_target, key) =>
      typeof key === "string" && has(key)
        ? { value: Object.hasOwn(delta, key) ? delta[key] : base[key], writable: true, enumerable: true, configurable: true }
        : undefined,
    defineProperty: () => false,
  });
}

/** The message of the error answering a call of a node this client did not declare. */
export function undeclaredNodeMessage(name: string): string {
  return `Node '${name}' is not declared by this client.`;
}

/**
 * Runs the node a NodeCall names and returns the NodeResult to send: its
 * output, state delta, route and RequestInputs, or the error it threw (as
 * `error`, with the error's class name). Never rejects.
 */
export async function answerNodeCall(
  node: Node | undefined,
  call: NodeCall,
  signal: AbortSignal,
  channel?: RunNodeChannel,
): Promise<MessageInitShape<typeof NodeResultSchema>> {
  const ctx = new CallContext(call, signal, channel);
  try {
    if (node === undefined) {
      throw new Error(undeclaredNodeMessage(call.name));
    }
    const input = call.nodeInput === undefined ? undefined : toJson(ValueSchema, call.nodeInput);
    const returned = await collect(node.run(input, ctx));
    return { callId: call.callId, ...nodeResult(node.name, returned, ctx) };
  } catch (err) {
    return { callId: call.callId, error: { type: errorType(err), message: errorText(err) } };
  }
}

/** What a node gave: its output (undefined for none) and its RequestInputs. */
interface Returned {
  output: unknown;
  requestInputs: RequestInput[];
}

/** Awaits a returned promise and drains a returned generator. */
async function collect(value: unknown): Promise<Returned> {
  const returned: unknown = await value;
  if (!isIterator(returned)) {
    return { output: returned, requestInputs: [] };
  }
  const requestInputs: RequestInput[] = [];
  let output: unknown;
  for await (const item of { [Symbol.asyncIterator]: () => toAsync(returned) }) {
    if (item instanceof RequestInput) {
      requestInputs.push(item);
    } else if (item !== undefined) {
      output = item;
    }
  }
  return { output, requestInputs };
}

type AnyIterator = Iterator<unknown> | AsyncIterator<unknown>;

function isIterator(value: unknown): value is AnyIterator {
  if (typeof value !== "object" || value === null || typeof (value as { next?: unknown }).next !== "function") {
    return false;
  }
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

function toAsync(it: AnyIterator): AsyncIterator<unknown> {
  return { next: async () => it.next() };
}

/** Checks and converts what the node returned, with its context's changes. */
function nodeResult(
  name: string,
  returned: Returned,
  ctx: CallContext,
): {
  output?: MessageInitShape<typeof ValueSchema>;
  stateDelta?: JsonObject;
  route?: MessageInitShape<typeof ValueSchema>;
  requestInputs: MessageInitShape<typeof RequestInputSchema>[];
} {
  let { output } = returned;
  const requestInputs = [...returned.requestInputs];
  if (output instanceof RequestInput) {
    requestInputs.push(output);
    output = undefined;
  } else if (Array.isArray(output) && output.length > 0 && output.every((item) => item instanceof RequestInput)) {
    requestInputs.push(...(output as RequestInput[]));
    output = undefined;
  }
  if (requestInputs.length > MAX_REQUEST_INPUTS) {
    throw new TypeError(`node ${name} asked for ${requestInputs.length} inputs, more than ${MAX_REQUEST_INPUTS}`);
  }
  const delta = toJsonObject(ctx.actions.stateDelta, `node ${name}: state delta`);
  const route = ctx.route === undefined || ctx.route === null ? undefined : checkRoute(name, ctx.route);
  return {
    ...(output === undefined || output === null ? {} : { output: fromJson(ValueSchema, toJsonValue(output, `node ${name}: output`)) }),
    ...(Object.keys(delta).length === 0 ? {} : { stateDelta: delta }),
    ...(route === undefined ? {} : { route: fromJson(ValueSchema, route) }),
    requestInputs: requestInputs.map(requestInputMessage),
  };
}

function checkRoute(name: string, route: JsonValue): JsonValue {
  const scalar = (v: JsonValue) => typeof v === "boolean" || typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
  if (scalar(route) || (Array.isArray(route) && route.every(scalar))) {
    return route;
  }
  throw new TypeError(`node ${name}: route must be a boolean, number or string, or an array of them`);
}

function requestInputMessage(input: RequestInput): MessageInitShape<typeof RequestInputSchema> {
  return {
    interruptId: input.interruptId,
    message: input.message,
    ...(input.payload === undefined ? {} : { payload: fromJson(ValueSchema, input.payload) }),
    ...(input.responseSchema === undefined ? {} : { responseSchema: fromJson(ValueSchema, input.responseSchema) }),
  };
}

/**
 * The class name of a thrown value, as the YAML's retry_config names
 * exceptions: the error's `name` when it was set (e.g. `ValueError`), else
 * its constructor's name; "Error" for values that are not errors.
 */
export function errorType(err: unknown): string {
  if (!(err instanceof Error)) {
    return "Error";
  }
  if (err.name !== "" && err.name !== "Error") {
    return err.name;
  }
  const ctor = (err as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof ctor === "string" && ctor !== "" ? ctor : "Error";
}
