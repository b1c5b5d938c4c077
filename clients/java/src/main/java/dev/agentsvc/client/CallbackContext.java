package dev.agentsvc.client;

import dev.agentsvc.v1.CallbackCall;
import dev.agentsvc.v1.Part;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a callback knows about the step it runs for, and the state changes it makes and files it
 * saves, as ADK's {@code CallbackContext}: its kind, the invocation, the agent, the session state
 * and, for the tool kinds, the tool called.
 *
 * <p>One instance serves one call. Its state delta and artifacts are thread-safe, so a callback
 * may write them from the threads of its own async work until its result is complete.
 */
public final class CallbackContext {
  private final CallbackCall call;
  private final Callback.Kind kind;
  private final Map<String, Object> state;
  private final Map<String, Object> stateDelta =
      Collections.synchronizedMap(new LinkedHashMap<>());
  private final Map<String, Part> artifacts = new LinkedHashMap<>();

  CallbackContext(CallbackCall call, Callback.Kind kind) {
    this.call = call;
    this.kind = kind;
    this.state = Collections.unmodifiableMap(Values.toMap(call.getState()));
  }

  /** Returns when the callback runs, e.g. {@link Callback.Kind#BEFORE_MODEL}. */
  public Callback.Kind kind() {
    return kind;
  }

  /** Returns the invocation id ({@code e-<uuid4>}). */
  public String invocationId() {
    return call.getInvocationId();
  }

  /** Returns the name of the agent the callback belongs to. */
  public String agentName() {
    return call.getAgentName();
  }

  /** Returns the name of the tool called (tool kinds), else an empty string. */
  public String toolName() {
    return call.getToolCall().getName();
  }

  /** Returns the id of the function call (tool kinds, {@code adk-...}), else an empty string. */
  public String functionCallId() {
    return call.getToolCall().getId();
  }

  /** Returns the CallbackCall message as received. */
  public CallbackCall callbackCall() {
    return call;
  }

  /**
   * Returns the session state with the step's pending changes applied (app- and user-scoped
   * keys under their {@code app:} and {@code user:} prefixes), read-only. Changes made through
   * {@link #stateDelta()} are not reflected here.
   */
  public Map<String, Object> state() {
    return state;
  }

  /**
   * Returns the state changes to make, as ADK's {@code callback_context.state[key] = value}:
   * keys put here are applied to the session state with the event that follows the callback; a
   * null value sets its key to null. Keys take an {@code app:}, {@code user:} or {@code temp:}
   * prefix to choose their scope; values are those {@link Values#toValue} accepts. The map is
   * synchronized.
   */
  public Map<String, Object> stateDelta() {
    return stateDelta;
  }

  /**
   * Records a state change; the same as {@code stateDelta().put(key, value)}.
   *
   * @param key the state key
   * @param value a value {@link Values#toValue} accepts, or null
   */
  public void putState(String key, Object value) {
    stateDelta.put(key, value);
  }

  /**
   * Saves bytes as a new version of an artifact, as ADK's {@code callback_context.save_artifact}
   * of {@code types.Part.from_bytes}; see {@link #saveArtifact(String, Part)}.
   *
   * @param filename the artifact's name; one starting {@code user:} is the user's
   * @param data the content, copied
   * @param mimeType its MIME type, e.g. {@code "text/csv"}
   */
  public void saveArtifact(String filename, byte[] data, String mimeType) {
    saveArtifact(filename, Artifacts.inlineData(data, mimeType));
  }

  /**
   * Saves text as a new version of an artifact ({@value Artifacts#TEXT_MIME_TYPE}), as ADK's
   * {@code callback_context.save_artifact} of {@code types.Part.from_text}; see {@link
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
   * starting {@code user:}), as ADK's {@code callback_context.save_artifact}. The file is sent
   * with the callback's result and the service saves it when the result arrives (not when the
   * callback throws); the {@code actions.artifact_delta} of the event that follows the callback
   * maps the name to the version saved. Unlike ADK's, which saves at once and returns the
   * version, this method therefore returns nothing: read the version from that event ({@code
   * event.getActions().getArtifactDeltaMap()}), or with {@link
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
    synchronized (artifacts) {
      artifacts.put(filename, artifact);
    }
  }

  /** Returns a copy of the state delta, taken under its lock. */
  Map<String, Object> stateDeltaCopy() {
    synchronized (stateDelta) {
      return new LinkedHashMap<>(stateDelta);
    }
  }

  /** Returns a copy of the artifacts saved so far, by name. */
  Map<String, Part> artifactsCopy() {
    synchronized (artifacts) {
      return new LinkedHashMap<>(artifacts);
    }
  }
}
