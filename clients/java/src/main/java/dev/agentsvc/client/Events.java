package dev.agentsvc.client;

import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.FunctionCall;
import dev.agentsvc.v1.FunctionResponse;
import dev.agentsvc.v1.Part;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/** Reads events as ADK's {@code Event} helpers do. Stateless and thread-safe. */
public final class Events {
  private Events() {}

  /**
   * Returns the text of an event: its text parts, thoughts excluded, joined without separator;
   * an empty string when it has none.
   */
  public static String text(Event event) {
    StringBuilder out = new StringBuilder();
    for (Part p : event.getContent().getPartsList()) {
      if (!p.getThought()) {
        out.append(p.getText());
      }
    }
    return out.toString();
  }

  /**
   * Returns a one-line description of an event's content for logs and consoles, e.g. {@code
   * "call get_weather {city=Paris}"}, {@code "response get_weather {sky=sunny}"} or its text;
   * parts are separated by {@code " | "}, thoughts left out. Not meant to be parsed.
   */
  public static String summary(Event event) {
    StringJoiner out = new StringJoiner(" | ");
    for (Part p : event.getContent().getPartsList()) {
      if (p.hasFunctionCall()) {
        FunctionCall c = p.getFunctionCall();
        out.add("call " + c.getName() + " " + Values.toMap(c.getArgs()));
      } else if (p.hasFunctionResponse()) {
        FunctionResponse r = p.getFunctionResponse();
        out.add("response " + r.getName() + " " + Values.toMap(r.getResponse()));
      } else if (p.hasInlineData()) {
        out.add("[" + p.getInlineData().getMimeType() + ", " + p.getInlineData().getData().size()
            + " bytes]");
      } else if (p.hasFileData()) {
        out.add("[" + p.getFileData().getFileUri() + "]");
      } else if (p.hasExecutableCode()) {
        out.add("[code] " + p.getExecutableCode().getCode());
      } else if (p.hasCodeExecutionResult()) {
        out.add("[output] " + p.getCodeExecutionResult().getOutput());
      } else if (!p.getThought() && !p.getText().isEmpty()) {
        out.add(p.getText());
      }
    }
    return out.toString();
  }

  /** Returns the function calls of an event, in order. */
  public static List<FunctionCall> functionCalls(Event event) {
    List<FunctionCall> out = new ArrayList<>();
    for (Part p : event.getContent().getPartsList()) {
      if (p.hasFunctionCall()) {
        out.add(p.getFunctionCall());
      }
    }
    return out;
  }

  /** Returns the function responses of an event, in order. */
  public static List<FunctionResponse> functionResponses(Event event) {
    List<FunctionResponse> out = new ArrayList<>();
    for (Part p : event.getContent().getPartsList()) {
      if (p.hasFunctionResponse()) {
        out.add(p.getFunctionResponse());
      }
    }
    return out;
  }

  /**
   * Tells whether an event is a final response of its agent, as ADK's {@code
   * Event.is_final_response()}: one that skips summarization or carries long-running tool ids,
   * or else one without function calls or responses that is not partial and does not end with a
   * code execution result.
   */
  public static boolean isFinalResponse(Event event) {
    if (event.getActions().getSkipSummarization() || event.getLongRunningToolIdsCount() > 0) {
      return true;
    }
    List<Part> parts = event.getContent().getPartsList();
    boolean trailingCodeResult = !parts.isEmpty() && parts.get(parts.size() - 1).hasCodeExecutionResult();
    return functionCalls(event).isEmpty() && functionResponses(event).isEmpty()
        && !event.getPartial() && !trailingCodeResult;
  }
}
