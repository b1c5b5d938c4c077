import type { JsonObject } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import { type Content, ContentSchema, type Part, PartSchema } from "./gen/agentsvc/v1/content_pb.js";
import type { Event } from "./gen/agentsvc/v1/event_pb.js";
import { toJsonObject } from "./schema.js";

/** The function call name a workflow's request for user input travels under. */
export const REQUEST_INPUT_FUNCTION_CALL_NAME = "adk_request_input";

/** The function call name a request for credentials travels under. */
export const REQUEST_CREDENTIAL_FUNCTION_CALL_NAME = "adk_request_credential";

function callsNamed(event: Event, name: string) {
  return (event.content?.parts ?? []).flatMap((part) => (part.functionCall?.name === name ? [part.functionCall] : []));
}

/** Whether an event asks the user for input (an `adk_request_input` function call). */
export function hasRequestInputFunctionCall(event: Event): boolean {
  return callsNamed(event, REQUEST_INPUT_FUNCTION_CALL_NAME).length > 0;
}

/** Whether an event asks the user for credentials (an `adk_request_credential` function call). */
export function hasAuthRequestFunctionCall(event: Event): boolean {
  return callsNamed(event, REQUEST_CREDENTIAL_FUNCTION_CALL_NAME).length > 0;
}

/**
 * The interrupt ids of an event's requests for input, in order: the
 * `interruptId` argument of each `adk_request_input` call, else the call's
 * id. Empty when the event asks for none.
 */
export function getRequestInputInterruptIds(event: Event): string[] {
  return callsNamed(event, REQUEST_INPUT_FUNCTION_CALL_NAME).flatMap((call) => {
    const id = call.args?.["interruptId"];
    if (typeof id === "string" && id !== "") {
      return [id];
    }
    return call.id === "" ? [] : [call.id];
  });
}

/**
 * The Part answering a request for input: a function response named
 * `adk_request_input` with the interrupt's id. `response` is the user's
 * answer, a JSON object; throws a TypeError for anything else.
 */
export function createRequestInputResponse(interruptId: string, response: JsonObject): Part {
  return create(PartSchema, {
    functionResponse: {
      id: interruptId,
      name: REQUEST_INPUT_FUNCTION_CALL_NAME,
      response: toJsonObject(response, "the request input response"),
    },
  });
}

/**
 * The user message that resumes a workflow paused for input: a Content
 * (role "user") holding {@link createRequestInputResponse}'s Part, to send
 * as a run's `message`.
 *
 * ```ts
 * const [id] = getRequestInputInterruptIds(event);
 * await client.run({ ...key, message: requestInputResumeContent(id, { approved: true }), nodes }).collect();
 * ```
 */
export function requestInputResumeContent(interruptId: string, response: JsonObject): Content {
  return create(ContentSchema, { role: "user", parts: [createRequestInputResponse(interruptId, response)] });
}
