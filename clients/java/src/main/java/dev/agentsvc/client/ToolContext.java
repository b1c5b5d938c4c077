package dev.agentsvc.client;

import dev.agentsvc.v1.EventActions;
import dev.agentsvc.v1.Part;
import dev.agentsvc.v1.ToolCall;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a tool knows about the call it answers, and the side effects it may take, as ADK's
 * {@code ToolContext}: the call and invocation ids, the calling agent, a snapshot of the session
 * state, and the actions (state changes, transfer, escalation) and files (artifacts) sent back
 * with the result and applied by the service as a local tool's would be.
 *
 * <p>A {@link Tool} method receives it by declaring a parameter of this type. One instance serves
 * one call; its methods are thread-safe, so a tool may use it from the threads of its own async
 * work until its result is complete.
 */
public final class ToolContext {
  private final ToolCall call;
  private final Map<String, Object> state;
  private final EventActions.Builder actions = EventActions.newBuilder();
  private final Map<String, Part> artifacts = new LinkedHashMap<>();

  ToolContext(ToolCall call) {
    this.call = call;
    this.state = Collections.unmodifiableMap(Values.toMap(call.getState()));
  }

  /** Returns the call id, equal to the function call's {@code adk-} id. */
  public String callId() {
    return call.getCallId();
  }

  /** Returns the invocation id ({@code e-<uuid4>}). */
  public String invocationId() {
    return call.getInvocationId();
  }

  /** Returns the name of the agent that called the tool. */
  public String agentName() {
    return call.getAgentName();
  }

  /** Returns the name of the tool called. */
  public String toolName() {
    return call.getFunctionCall().getName();
  }

  /** Returns the ToolCall message as received. */
  public ToolCall toolCall() {
    return call;
  }

  /**
   * Returns the session state as of the call (app- and user-scoped keys merged in, under their
   * {@code app:} and {@code user:} prefixes), read-only. Changes made with {@link #putState} are
   * not reflected here.
   */
  public Map<String, Object> state() {
    return state;
  }

  /**
   * Records a state change, stored with the tool's response event as ADK's {@code
   * tool_context.state[key] = value} is; a null value sets the key to null.
   *
   * @param key the state key, with an {@code app:}, {@code user:} or {@code temp:} prefix to
   *     choose its scope
   * @param value a value {@link Values#toValue} accepts
   */
  public synchronized void putState(String key, Object value) {
    actions.mergeStateDelta(
        com.google.protobuf.Struct.newBuilder().putFields(key, Values.toValue(value)).build());
  }

  /** Asks the agent to end its turn with the tool's response, without a model summary. */
  public synchronized void skipSummarization() {
    actions.setSkipSummarization(true);
  }

  /**
   * Transfers control to another agent after this tool, as ADK's {@code transfer_to_agent}.
   *
   * @param agentName the agent's name
   */
  public synchronized void transferToAgent(String agentName) {
    actions.setTransferToAgent(agentName);
  }

  /** Escalates to the parent agent (ends a LoopAgent's loop). */
  public synchronized void escalate() {
    actions.setEscalate(true);
  }

  /**
   * Saves bytes as a new version of an artifact, as ADK's {@code tool_context.save_artifact} of
   * {@code types.Part.from_bytes}; see {@link #saveArtifact(String, Part)}.
   *
   * @param filename the artifact's name; one starting {@code user:} is the user's
   * @param data the content, copied
   * @param mimeType its MIME type, e.g. {@code "application/pdf"}
   */
  public void saveArtifact(String filename, byte[] data, String mimeType) {
    saveArtifact(filename, Artifacts.inlineData(data, mimeType));
  }

  /**
   * Saves text as a new version of an artifact ({@value Artifacts#TEXT_MIME_TYPE}), as ADK's
   * {@code tool_context.save_artifact} of {@code types.Part.from_text}; see {@link
   * #saveArtifact(String, Part)}.
   *
   * @param filename the artifact's name; one starting {@code user:} is the user's
   * @param text the content, not empty
   */
  public void saveArtifact(String filename, String text) {
    saveArtifact(filename, Artifacts.textPart(text));
  }

  /**
   * Saves a file as a new version of an artifact of the session (of the user, for a name
   * starting {@code user:}), as ADK's {@code tool_context.save_artifact}. The file is sent with
   * the tool's result, also when the tool fails, and the service saves it when the result
   * arrives, before the response event is stored; that event's {@code actions.artifact_delta}
   * maps the name to the version saved. Unlike ADK's, which saves at once and returns the
   * version, this method therefore returns nothing: read the version from the response event
   * ({@code event.getActions().getArtifactDeltaMap()}), or with {@link
   * AgentsvcClient#listArtifactVersions} after the run.
   *
   * <p>One call saves one version per name: saving a name again in the same call replaces the
   * content saved before. A name the service refuses (e.g. with a {@code ..} segment) fails the
   * run with an {@link InvalidArgumentException} ({@code ARTIFACT_INVALID}).
   *
   * @param filename the artifact's name; one starting {@code user:} is the user's, seen from all
   *     its sessions
   * @param artifact the content: inline data with its MIME type, or text
   * @throws IllegalArgumentException when the name is empty, or the part has neither inline data
   *     nor text
   */
  public void saveArtifact(String filename, Part artifact) {
    Artifacts.checkSave(filename, artifact);
    synchronized (this) {
      artifacts.put(filename, artifact);
    }
  }

  /**
   * Returns the actions builder, for actions without a method of their own. Use it only from the
   * thread running the tool.
   */
  public synchronized EventActions.Builder actions() {
    return actions;
  }

  /** Returns the actions recorded so far. */
  synchronized EventActions builtActions() {
    return actions.build();
  }

  /** Returns a copy of the artifacts saved so far, by name. */
  synchronized Map<String, Part> artifactsCopy() {
    return new LinkedHashMap<>(artifacts);
  }
}
