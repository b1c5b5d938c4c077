package dev.agentsvc.client;

import dev.agentsvc.v1.Event;

/**
 * Receives the events of an invocation started with {@code runAsync}.
 *
 * <p>Calls for one invocation never overlap and come in order, on a gRPC thread: a listener that
 * blocks holds up that invocation's events (not its tool calls, which run on the tool executor).
 * Exactly one of {@link #onCompleted()} and {@link #onError} ends the calls.
 */
@FunctionalInterface
public interface EventListener {
  /**
   * Receives one event, as the service yields it.
   *
   * @param event the event
   */
  void onEvent(Event event);

  /** Called after the last event of a successful run. */
  default void onCompleted() {}

  /**
   * Called when the run fails, after the events it produced before failing; a run cancelled by
   * the client ends here with a {@link CancelledException}.
   *
   * @param error the error
   */
  default void onError(AgentsvcException error) {}
}
