import type { FunctionCall, FunctionResponse } from "./gen/agentsvc/v1/content_pb.js";
import type { Event } from "./gen/agentsvc/v1/event_pb.js";

/** The text of an event's parts, joined, without thoughts; "" when it has none. */
export function eventText(event: Event): string {
  return (event.content?.parts ?? [])
    .filter((part) => !part.thought)
    .map((part) => part.text)
    .join("");
}

/** The function calls of an event, in order. */
export function functionCalls(event: Event): FunctionCall[] {
  return (event.content?.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall] : []));
}

/** The function responses of an event, in order. */
export function functionResponses(event: Event): FunctionResponse[] {
  return (event.content?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
}

/**
 * Whether an event is a final response of its agent, as ADK's
 * Event.is_final_response decides: summarisation skipped or long-running
 * calls pending, or else no function calls or responses, not partial, and no
 * trailing code execution result.
 */
export function isFinalResponse(event: Event): boolean {
  if (event.actions?.skipSummarization || event.longRunningToolIds.length > 0) {
    return true;
  }
  const parts = event.content?.parts ?? [];
  const last = parts[parts.length - 1];
  return (
    functionCalls(event).length === 0 &&
    functionResponses(event).length === 0 &&
    !event.partial &&
    last?.codeExecutionResult === undefined
  );
}
