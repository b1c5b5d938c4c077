/**
 * TypeScript client of agentsvc: run agents declared in YAML, with tools
 * written in TypeScript that the service calls back over gRPC.
 *
 * @packageDocumentation
 */
export {
  AgentsvcClient,
  DEFAULT_ADDRESS,
  DEFAULT_PAGE_SIZE,
  type ArtifactKey,
  type ClientOptions,
  type CreateSessionOptions,
  type GetArtifactVersionOptions,
  type GetSessionOptions,
  type GetSessionPageOptions,
  type HeadersOption,
  type ListSessionsPageOptions,
  type LoadArtifactOptions,
  type SaveArtifactOptions,
  type SessionKey,
  type SessionListPage,
  type SessionPage,
  type TlsOptions,
} from "./client.js";
export { USER_ARTIFACT_PREFIX, type ArtifactData } from "./artifacts.js";
export { Invocation, newRequestId, type MessageInput, type RunOptions } from "./invocation.js";
export {
  defineCallback,
  lastUserText,
  type AgentOverride,
  type Callback,
  type CallbackContext,
  type CallbackDefinition,
  type CallbackKindName,
  type ModelOverride,
  type ToolOverride,
} from "./callbacks.js";
export {
  NO_CODE_EXECUTOR,
  type CodeExecution,
  type CodeExecutionOutcome,
  type CodeExecutor,
  type CodeFile,
  type CodeOutputFile,
} from "./codeexec.js";
export { SubprocessCodeExecutor, type SubprocessCodeExecutorOptions } from "./subprocess.js";
export { defineTool, type Tool, type ToolActions, type ToolContext, type ToolDefinition } from "./tools.js";
export {
  DynamicNodeFailError,
  defineNode,
  RequestInput,
  type Node,
  type NodeActions,
  type NodeContext,
  type NodeFunction,
  type NodeLike,
  type NodeOptions,
  type NodeSession,
  type RequestInputInit,
  type RunNodeOptions,
} from "./nodes.js";
export {
  createRequestInputResponse,
  getRequestInputInterruptIds,
  hasAuthRequestFunctionCall,
  hasRequestInputFunctionCall,
  REQUEST_CREDENTIAL_FUNCTION_CALL_NAME,
  REQUEST_INPUT_FUNCTION_CALL_NAME,
  requestInputResumeContent,
} from "./hitl.js";
export type { Infer, JsonSchema, JsonSchemaType, ObjectSchema } from "./schema.js";
export { eventText, functionCalls, functionResponses, isFinalResponse } from "./events.js";
export {
  AbortedError,
  AgentsvcError,
  AlreadyExistsError,
  CancelledError,
  DeadlineExceededError,
  ERROR_DOMAIN,
  FailedPreconditionError,
  InternalError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  SessionBusyError,
  toAgentsvcError,
  UnauthenticatedError,
  UnavailableError,
  UnimplementedError,
  type AgentsvcErrorInit,
  type ErrorReasonName,
} from "./errors.js";
export { ErrorReason } from "./gen/agentsvc/v1/error_reason_pb.js";
export { Code } from "@connectrpc/connect";
export type { JsonObject, JsonValue } from "@bufbuild/protobuf";
export type { App, AgentInfo, ToolInfo } from "./gen/agentsvc/v1/app_service_pb.js";
export type { ArtifactVersion } from "./gen/agentsvc/v1/artifact_service_pb.js";
export type { Blob, Content, FunctionCall, FunctionResponse, Part } from "./gen/agentsvc/v1/content_pb.js";
export type { Event, EventActions } from "./gen/agentsvc/v1/event_pb.js";
export type { LlmRequest, LlmResponse } from "./gen/agentsvc/v1/llm_pb.js";
export { LlmRequestSchema, LlmResponseSchema } from "./gen/agentsvc/v1/llm_pb.js";
export type { CallbackCall, CodeExecutionCall, CodeResult, NodeCall, NodeResult, ToolCall } from "./gen/agentsvc/v1/runner_service_pb.js";
export type { Session } from "./gen/agentsvc/v1/session_pb.js";
