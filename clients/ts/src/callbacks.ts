import type { JsonObject, JsonValue, MessageInitShape } from "@bufbuild/protobuf";
import { create, isMessage } from "@bufbuild/protobuf";
import type { Content, ContentSchema } from "./gen/agentsvc/v1/content_pb.js";
import { ContentSchema as ContentMessage } from "./gen/agentsvc/v1/content_pb.js";
import {
  type LlmRequest,
  LlmRequestSchema,
  type LlmResponse,
  LlmResponseSchema,
} from "./gen/agentsvc/v1/llm_pb.js";
import {
  type CallbackCall,
  CallbackKind,
  type CallbackDeclarationSchema,
  type CallbackResultSchema,
} from "./gen/agentsvc/v1/runner_service_pb.js";
import { type ArtifactData, ArtifactFiles } from "./artifacts.js";
import { toJsonObject, toJsonValue } from "./schema.js";
import { errorText } from "./tools.js";

/** When a callback runs, as the YAML's `<kind>_callbacks` fields name it. */
export type CallbackKindName =
  | "before_agent"
  | "after_agent"
  | "before_model"
  | "after_model"
  | "on_model_error"
  | "before_tool"
  | "after_tool"
  | "on_tool_error";

const kindNames: Record<number, CallbackKindName> = {
  [CallbackKind.BEFORE_AGENT]: "before_agent",
  [CallbackKind.AFTER_AGENT]: "after_agent",
  [CallbackKind.BEFORE_MODEL]: "before_model",
  [CallbackKind.AFTER_MODEL]: "after_model",
  [CallbackKind.ON_MODEL_ERROR]: "on_model_error",
  [CallbackKind.BEFORE_TOOL]: "before_tool",
  [CallbackKind.AFTER_TOOL]: "after_tool",
  [CallbackKind.ON_TOOL_ERROR]: "on_tool_error",
};

/**
 * What a callback knows about its invocation, and the state it may set. A
 * context belongs to one call.
 */
export interface CallbackContext {
  /** When the callback runs, e.g. "before_model". */
  readonly kind: CallbackKindName;
  /** The invocation the callback runs in. */
  readonly invocationId: string;
  /** The agent the callback belongs to. */
  readonly agentName: string;
  /** The session state with the step's pending changes and this callback's. */
  readonly state: Readonly<JsonObject>;
  /** The tool's name (tool kinds), else "". */
  readonly toolName: string;
  /** The function call's id (tool kinds), else "". */
  readonly functionCallId: string;
  /**
   * Records a state change, applied with the event that follows as ADK
   * applies `callback_context.state[key] = value`.
   */
  setState(key: string, value: JsonValue): void;
  /**
   * Saves a file as an artifact of the session (of the user for a name
   * starting "user:"), as ADK's `callback_context.save_artifact`. `data` is
   * bytes with their `mimeType`, text, or a Part (see {@link ArtifactData}).
   *
   * The file travels with the callback's result: the service stores it as a
   * new version once the result arrives and records that version in the
   * `actions.artifactDelta` of the event that follows (`{ [filename]:
   * version }`). So, unlike ADK's save_artifact, which returns the version,
   * this returns nothing; saving a name twice in one call keeps the last
   * data, stored as one version. A callback that throws saves nothing (its
   * run fails). Throws a TypeError for data the service would refuse (bytes
   * without a MIME type, empty text, an empty filename).
   */
  saveArtifact(filename: string, data: ArtifactData, mimeType?: string): void;
}

type Awaitable<T> = T | Promise<T>;

/** What an agent callback may return: a reply (text or Content) or nothing. */
export type AgentOverride = string | MessageInitShape<typeof ContentSchema> | undefined | void;
/**
 * What a model callback may return: a response (text or LlmResponse) or
 * nothing; a before_model callback may also return an LlmRequest message
 * (the one it received, edited, or a new one made with `create`) to send
 * instead.
 */
export type ModelOverride = string | MessageInitShape<typeof LlmResponseSchema> | LlmRequest | undefined | void;
/** What a tool callback may return: a result object or nothing. */
export type ToolOverride = JsonObject | undefined | void;

/**
 * How a callback is defined: its name and a handler for each kind it serves
 * (usually one). A handler returns an override, or nothing to let the step
 * go on as ADK does when a callback returns None.
 *
 * | handler        | runs                          | an override                        |
 * |----------------|-------------------------------|------------------------------------|
 * | beforeAgent    | before the agent              | skips the agent with this reply    |
 * | afterAgent     | after the agent               | adds this reply                    |
 * | beforeModel    | before each model call        | answers instead of the model       |
 * | afterModel     | after each model response     | replaces the response              |
 * | onModelError   | when the model call fails     | recovers with this response        |
 * | beforeTool     | before each tool call         | the result instead of the tool's   |
 * | afterTool      | after each tool call          | replaces the result                |
 * | onToolError    | when a tool fails             | recovers with this result          |
 */
export interface CallbackDefinition {
  /** The name the YAML binds (the last segment of `pkg.module.fn`). */
  name: string;
  beforeAgent?(context: CallbackContext): Awaitable<AgentOverride>;
  afterAgent?(context: CallbackContext): Awaitable<AgentOverride>;
  beforeModel?(context: CallbackContext, request: LlmRequest): Awaitable<ModelOverride>;
  afterModel?(context: CallbackContext, response: LlmResponse): Awaitable<ModelOverride>;
  onModelError?(context: CallbackContext, request: LlmRequest, error: string): Awaitable<ModelOverride>;
  beforeTool?(context: CallbackContext, args: JsonObject): Awaitable<ToolOverride>;
  afterTool?(context: CallbackContext, args: JsonObject, response: JsonObject): Awaitable<ToolOverride>;
  onToolError?(context: CallbackContext, args: JsonObject, error: string): Awaitable<ToolOverride>;
}

/**
 * A callback that lives in this process, ready to be declared on a run.
 * Create one with {@link defineCallback}; callbacks are immutable and may be
 * shared by concurrent runs.
 */
export interface Callback {
  readonly name: string;
  /** Answers one call; never rejects. */
  answer(call: CallbackCall): Promise<MessageInitShape<typeof CallbackResultSchema>>;
}

/**
 * Defines a callback:
 *
 * ```ts
 * const guardInput = defineCallback({
 *   name: "guard_input",
 *   beforeModel(ctx, request) {
 *     if (lastUserText(request).includes("forbidden")) {
 *       ctx.setState("guarded", true);
 *       return "Blocked.";
 *     }
 *   },
 * });
 * ```
 *
 * Throws a TypeError when the name is not an identifier or no handler is given.
 */
export function defineCallback(definition: CallbackDefinition): Callback {
  const { name } = definition;
  if (typeof name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new TypeError(`callback name ${JSON.stringify(name)} is not an identifier`);
  }
  const handlers = [
    definition.beforeAgent, definition.afterAgent, definition.beforeModel, definition.afterModel,
    definition.onModelError, definition.beforeTool, definition.afterTool, definition.onToolError,
  ];
  if (handlers.every((h) => h === undefined)) {
    throw new TypeError(`callback ${name}: no handler (beforeModel, afterTool, …) is defined`);
  }
  return Object.freeze({
    name,
    answer: (call: CallbackCall) => answer(definition, call),
  });
}

/** Returns the declarations of callbacks for StartRun; throws on duplicate names. */
export function declareCallbacks(callbacks: readonly Callback[]): MessageInitShape<typeof CallbackDeclarationSchema>[] {
  const seen = new Set<string>();
  return callbacks.map(({ name }) => {
    if (seen.has(name)) {
      throw new TypeError(`callback ${name} is declared twice`);
    }
    seen.add(name);
    return { name };
  });
}

/** The result telling the service that this client has no such callback. */
export function undeclaredCallback(call: CallbackCall): MessageInitShape<typeof CallbackResultSchema> {
  return { callId: call.callId, error: `Callback '${call.name}' is not declared by this client.` };
}

class Context implements CallbackContext {
  readonly kind: CallbackKindName;
  readonly invocationId: string;
  readonly agentName: string;
  readonly state: JsonObject;
  readonly toolName: string;
  readonly functionCallId: string;
  readonly delta: JsonObject = {};
  changed = false;
  readonly files = new ArtifactFiles();

  constructor(call: CallbackCall, kind: CallbackKindName) {
    this.kind = kind;
    this.invocationId = call.invocationId;
    this.agentName = call.agentName;
    this.state = { ...(call.state ?? {}) };
    this.toolName = call.toolCall?.name ?? "";
    this.functionCallId = call.toolCall?.id ?? "";
  }

  setState(key: string, value: JsonValue): void {
    const json = toJsonValue(value, `state[${JSON.stringify(key)}]`);
    this.delta[key] = json;
    this.state[key] = json;
    this.changed = true;
  }

  saveArtifact(filename: string, data: ArtifactData, mimeType?: string): void {
    this.files.save(filename, data, mimeType);
  }
}

type Override = MessageInitShape<typeof CallbackResultSchema>["override"];

async function answer(
  definition: CallbackDefinition,
  call: CallbackCall,
): Promise<MessageInitShape<typeof CallbackResultSchema>> {
  try {
    const kind = kindNames[call.kind];
    if (kind === undefined) {
      throw new Error(`callback call of an unknown kind ${call.kind}`);
    }
    const context = new Context(call, kind);
    const override = await invoke(definition, kind, context, call);
    const artifacts = context.files.result();
    return {
      callId: call.callId,
      ...(context.changed ? { stateDelta: context.delta } : {}),
      ...(artifacts === undefined ? {} : { artifacts }),
      override,
    };
  } catch (err) {
    const text = errorText(err);
    const named = err instanceof Error && err.name !== "Error" && err.name !== text;
    return { callId: call.callId, error: named ? `${err.name}: ${text}` : text };
  }
}

/** Calls the handler of the call's kind with what that kind sees. */
async function invoke(d: CallbackDefinition, kind: CallbackKindName, ctx: Context, call: CallbackCall): Promise<Override> {
  const missing = (): never => {
    throw new Error(`callback ${d.name} has no handler for ${kind}`);
  };
  const args = call.toolCall?.args ?? {};
  const request = call.llmRequest ?? create(LlmRequestSchema);
  const response = call.llmResponse ?? create(LlmResponseSchema);
  switch (kind) {
    case "before_agent":
      return agentOverride(d.name, kind, await (d.beforeAgent ?? missing).call(d, ctx));
    case "after_agent":
      return agentOverride(d.name, kind, await (d.afterAgent ?? missing).call(d, ctx));
    case "before_model":
      return modelOverride(d.name, kind, await (d.beforeModel ?? missing).call(d, ctx, request));
    case "after_model":
      return modelOverride(d.name, kind, await (d.afterModel ?? missing).call(d, ctx, response));
    case "on_model_error":
      return modelOverride(d.name, kind, await (d.onModelError ?? missing).call(d, ctx, request, call.error));
    case "before_tool":
      return toolOverride(d.name, kind, await (d.beforeTool ?? missing).call(d, ctx, args));
    case "after_tool":
      return toolOverride(d.name, kind, await (d.afterTool ?? missing).call(d, ctx, args, call.toolResponse ?? {}));
    case "on_tool_error":
      return toolOverride(d.name, kind, await (d.onToolError ?? missing).call(d, ctx, args, call.error));
  }
}

function textContent(text: string): MessageInitShape<typeof ContentSchema> {
  return { role: "model", parts: [{ text }] };
}

function agentOverride(name: string, kind: CallbackKindName, value: AgentOverride): Override {
  if (value === undefined || value === null) {
    return { case: undefined };
  }
  if (typeof value === "string") {
    return { case: "content", value: textContent(value) };
  }
  if (typeof value === "object" && !Array.isArray(value) && (!isMessage(value) || isMessage(value, ContentMessage))) {
    return { case: "content", value: value as Content };
  }
  return cannotReturn(name, kind, value);
}

function modelOverride(name: string, kind: CallbackKindName, value: ModelOverride): Override {
  if (value === undefined || value === null) {
    return { case: undefined };
  }
  if (typeof value === "string") {
    return { case: "llmResponse", value: { content: textContent(value) } };
  }
  if (isMessage(value, LlmRequestSchema)) {
    return kind === "before_model" ? { case: "llmRequest", value } : cannotReturn(name, kind, value);
  }
  if (typeof value === "object" && !Array.isArray(value) && (!isMessage(value) || isMessage(value, LlmResponseSchema))) {
    return { case: "llmResponse", value: value as LlmResponse };
  }
  return cannotReturn(name, kind, value);
}

function toolOverride(name: string, kind: CallbackKindName, value: ToolOverride): Override {
  if (value === undefined || value === null) {
    return { case: undefined };
  }
  if (typeof value === "object" && !Array.isArray(value) && !isMessage(value)) {
    return { case: "toolResponse", value: toJsonObject(value, `callback ${name}: result`) };
  }
  return cannotReturn(name, kind, value);
}

function cannotReturn(name: string, kind: CallbackKindName, value: unknown): never {
  const type = isMessage(value) ? value.$typeName : Array.isArray(value) ? "array" : typeof value;
  throw new TypeError(`the ${kind} callback ${name} returned a ${type}, which a ${kind} callback cannot return`);
}

/** The text of the last user content of a model request that has text. */
export function lastUserText(request: MessageInitShape<typeof LlmRequestSchema>): string {
  const contents = request.contents ?? [];
  for (let i = contents.length - 1; i >= 0; i--) {
    const content = contents[i];
    if (content?.role !== "user") {
      continue;
    }
    const text = (content.parts ?? []).map((p) => p.text ?? "").join("");
    if (text !== "") {
      return text;
    }
  }
  return "";
}
