import type { JsonObject, JsonValue, MessageInitShape } from "@bufbuild/protobuf";
import { fromJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { type ArtifactData, ArtifactFiles } from "./artifacts.js";
import type { EventActionsSchema } from "./gen/agentsvc/v1/event_pb.js";
import type { ToolCall, ToolDeclarationSchema, ToolResultSchema } from "./gen/agentsvc/v1/runner_service_pb.js";
import {
  checkToolName,
  type Infer,
  type JsonSchema,
  normalizeParameters,
  type ObjectSchema,
  toJsonObject,
  toJsonValue,
} from "./schema.js";

/**
 * What a tool sees of the call it answers. A context belongs to one call; it
 * is not shared between calls.
 */
export interface ToolContext {
  /** The call id, "adk-<uuid4>" unless the model gave one. */
  readonly callId: string;
  /** The id of the invocation that called the tool. */
  readonly invocationId: string;
  /** The name of the agent whose model called the tool. */
  readonly agentName: string;
  /**
   * The session state when the call was made (app:, user: and session keys),
   * with the changes made through {@link ToolContext.setState} applied.
   */
  readonly state: Readonly<JsonObject>;
  /**
   * Aborted when the invocation ends before the tool answers: the run was
   * cancelled or failed, or the stream broke. Pass it to fetch and timers.
   */
  readonly signal: AbortSignal;
  /**
   * Records a state change that the service stores with the tool's response
   * event, as ADK's `tool_context.state[key] = value` does. A null value sets
   * the key to null.
   */
  setState(key: string, value: JsonValue): void;
  /**
   * Saves a file as an artifact of the session (of the user for a name
   * starting "user:"), as ADK's `tool_context.save_artifact`. `data` is
   * bytes with their `mimeType`, text, or a Part (see {@link ArtifactData}).
   *
   * The file travels with the tool's result, also when the tool throws: the
   * service stores it as a new version once the result arrives and records
   * that version in the response event's `actions.artifactDelta`
   * (`{ [filename]: version }`). So, unlike ADK's save_artifact, which
   * returns the version, this returns nothing; and saving a name twice in one
   * call keeps the last data, stored as one version. Throws a TypeError for
   * data the service would refuse (bytes without a MIME type, empty text,
   * an empty filename).
   */
  saveArtifact(filename: string, data: ArtifactData, mimeType?: string): void;
  /** Other actions of the response event; set the fields to request them. */
  readonly actions: ToolActions;
}

/** Actions a tool may ask for, as ADK's EventActions. */
export interface ToolActions {
  /** Ends the turn with the tool's response instead of calling the model again. */
  skipSummarization?: boolean;
  /** Escalates to the parent agent (ends a LoopAgent). */
  escalate?: boolean;
  /** Transfers the conversation to the named agent. */
  transferToAgent?: string;
}

/**
 * How a tool is defined: its declaration and the function that runs it.
 * `S` is the parameters schema; the function's arguments are typed from it.
 */
export interface ToolDefinition<S extends ObjectSchema, R> {
  /** The function name the model calls. */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /**
   * JSON schema of the arguments, an object schema. Its `required` names are
   * mandatory: the service answers a call missing one itself, with ADK's
   * error, and does not call the tool. Default: an object without properties.
   */
  parameters?: S;
  /** JSON schema of the result, shown to the model when set. */
  response?: JsonSchema;
  /**
   * The tool starts work that finishes later, as ADK's LongRunningFunctionTool.
   * Returning undefined then means "no result yet": the turn ends without a
   * response event.
   */
  longRunning?: boolean;
  /**
   * The user must confirm each call (ADK's require_confirmation): the service
   * asks for the confirmation and calls the tool in a later run that carries it.
   */
  requireConfirmation?: boolean;
  /**
   * Runs the tool. The returned value (or the promise's) is the result: an
   * object as is, any other JSON value as {"result": value}, undefined as
   * {"result": null} (or no result for a long-running tool). A thrown error
   * becomes {"error": message} for the model; the run goes on.
   */
  run(args: Infer<S>, context: ToolContext): R | Promise<R>;
}

/**
 * A tool that lives in this process, ready to be declared on a run. Create
 * one with {@link defineTool}. Tools are immutable and may be shared by
 * concurrent runs.
 */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** The parameters schema as sent to the service. */
  readonly parameters: JsonObject;
  /** The response schema as sent to the service, if any. */
  readonly response: JsonObject | undefined;
  readonly longRunning: boolean;
  readonly requireConfirmation: boolean;
  /** Runs the tool with the call's arguments. */
  call(args: JsonObject, context: ToolContext): Promise<unknown>;
}

/**
 * Defines a tool from a function and a JSON schema of its parameters. With
 * the schema written inline, the function's `args` are typed from it:
 *
 * ```ts
 * const getWeather = defineTool({
 *   name: "get_weather",
 *   description: "Returns the weather in a city.",
 *   parameters: {
 *     type: "object",
 *     properties: { city: { type: "string" } },
 *     required: ["city"],
 *   },
 *   run: async ({ city }) => ({ city, forecast: "sunny" }),
 * });
 * ```
 *
 * Throws a TypeError when the name or the schemas are invalid.
 */
export function defineTool<const S extends ObjectSchema = { type: "object" }, R = unknown>(
  definition: ToolDefinition<S, R>,
): Tool {
  const { name, run } = definition;
  checkToolName(name);
  if (typeof run !== "function") {
    throw new TypeError(`tool ${name}: run must be a function`);
  }
  return Object.freeze({
    name,
    description: definition.description ?? "",
    parameters: normalizeParameters(name, definition.parameters),
    response: definition.response === undefined ? undefined : toJsonObject(definition.response, `tool ${name}: response`),
    longRunning: definition.longRunning ?? false,
    requireConfirmation: definition.requireConfirmation ?? false,
    // The schema types the arguments for the author; the service sends JSON.
    call: async (args: JsonObject, context: ToolContext) => run(args as Infer<S>, context),
  });
}

/** Returns the declarations of tools for StartRun; throws on duplicate names. */
export function declareTools(tools: readonly Tool[]): MessageInitShape<typeof ToolDeclarationSchema>[] {
  const seen = new Set<string>();
  return tools.map((tool) => {
    if (seen.has(tool.name)) {
      throw new TypeError(`tool ${tool.name} is declared twice`);
    }
    seen.add(tool.name);
    return {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      ...(tool.response === undefined ? {} : { response: tool.response }),
      longRunning: tool.longRunning,
      requireConfirmation: tool.requireConfirmation,
    };
  });
}

/** The context of one tool call; collects the actions the tool records. */
export class CallContext implements ToolContext {
  readonly callId: string;
  readonly invocationId: string;
  readonly agentName: string;
  readonly state: JsonObject;
  readonly actions: ToolActions = {};
  private readonly stateDelta: JsonObject = {};
  private changed = false;
  private readonly files = new ArtifactFiles();

  constructor(
    call: ToolCall,
    readonly signal: AbortSignal,
  ) {
    this.callId = call.callId;
    this.invocationId = call.invocationId;
    this.agentName = call.agentName;
    this.state = { ...(call.state ?? {}) };
  }

  setState(key: string, value: JsonValue): void {
    const json = toJsonValue(value, `state[${JSON.stringify(key)}]`);
    this.stateDelta[key] = json;
    this.state[key] = json;
    this.changed = true;
  }

  saveArtifact(filename: string, data: ArtifactData, mimeType?: string): void {
    this.files.save(filename, data, mimeType);
  }

  /** The saved files by name, or undefined when the tool saved none. */
  artifacts(): ReturnType<ArtifactFiles["result"]> {
    return this.files.result();
  }

  /** The recorded actions, or undefined when the tool recorded none. */
  eventActions(): MessageInitShape<typeof EventActionsSchema> | undefined {
    const { skipSummarization, escalate, transferToAgent } = this.actions;
    if (!this.changed && !skipSummarization && !escalate && !transferToAgent) {
      return undefined;
    }
    return {
      ...(this.changed ? { stateDelta: this.stateDelta } : {}),
      skipSummarization: skipSummarization ?? false,
      escalate: escalate ?? false,
      transferToAgent: transferToAgent ?? "",
    };
  }
}

/**
 * Runs the tool a ToolCall names and returns the ToolResult to send: the
 * returned value as `response` (absent for undefined), or `error` with the
 * thrown error's message, with the actions and files the tool recorded
 * either way. Never rejects.
 */
export async function answerCall(
  tool: Tool | undefined,
  call: ToolCall,
  signal: AbortSignal,
): Promise<MessageInitShape<typeof ToolResultSchema>> {
  const name = call.functionCall?.name ?? "";
  const context = new CallContext(call, signal);
  try {
    if (tool === undefined) {
      throw new Error(`Tool '${name}' is not declared by this client.`);
    }
    const out = await tool.call(call.functionCall?.args ?? {}, context);
    const actions = context.eventActions();
    const artifacts = context.artifacts();
    return {
      callId: call.callId,
      ...(out === undefined ? {} : { response: fromJson(ValueSchema, toJsonValue(out, `tool ${name}: result`)) }),
      ...(actions === undefined ? {} : { actions }),
      ...(artifacts === undefined ? {} : { artifacts }),
    };
  } catch (err) {
    const actions = context.eventActions();
    const artifacts = context.artifacts();
    return {
      callId: call.callId,
      error: errorText(err),
      ...(actions === undefined ? {} : { actions }),
      ...(artifacts === undefined ? {} : { artifacts }),
    };
  }
}

/** The text a thrown value gives the model; never empty. */
export function errorText(err: unknown): string {
  if (err instanceof Error) {
    return err.message || err.name || "Error";
  }
  const text = String(err);
  return text === "" ? "Error" : text;
}
