package dev.agentsvc.client;

import dev.agentsvc.v1.Event;
import io.grpc.Status;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * One running invocation of an agent: its events, its completion, and the means to cancel it.
 *
 * <p>An invocation started with {@code run} is consumed by iterating it once, in a for-each loop
 * or as a {@link #stream()}: iteration blocks until the next event, ends after the last event of
 * a successful run, and throws the mapped {@link AgentsvcException} of a failed one after the
 * events that preceded the failure. An invocation started with {@code runAsync} delivers its
 * events to an {@link EventListener} instead and cannot be iterated. Tool calls are answered in
 * the background either way, whether or not events are being consumed.
 *
 * <pre>{@code
 * try (Invocation run = client.run(request, tools)) {
 *   for (Event event : run) {
 *     System.out.println(Events.text(event));
 *   }
 * }
 * }</pre>
 *
 * <p>{@link #cancel()} asks the service to stop the invocation, which then ends at an event
 * boundary (events already stored stay whole); {@link #close()} cancels the call itself. After
 * either, iteration ends quietly once the call is over, and {@link #completion()} fails with a
 * {@link CancelledException}.
 *
 * <p>Methods other than iteration are thread-safe; iterate from one thread.
 */
public final class Invocation implements Iterable<Event>, AutoCloseable {
  /** Controls the underlying call; implemented by the transport. */
  interface Control {
    /** Asks the service to stop the invocation. */
    void requestCancel();

    /** Cancels the call. */
    void abort(String why, Throwable cause);
  }

  private static final Object END = new Object();

  private final BlockingQueue<Object> queue;
  private final EventListener listener;
  private final CompletableFuture<String> completion = new CompletableFuture<>();
  private final AtomicBoolean iterated = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Control control;
  private volatile boolean cancelRequested;
  private volatile String invocationId = "";
  private volatile AgentsvcException failure;
  private volatile Throwable listenerFailure;

  Invocation(EventListener listener) {
    this.listener = listener;
    this.queue = listener == null ? new LinkedBlockingQueue<>() : null;
  }

  void setControl(Control control) {
    this.control = control;
  }

  /**
   * Returns the invocation id ({@code e-<uuid4>}) once the first event or the end of the run has
   * told it, else an empty string.
   */
  public String invocationId() {
    return invocationId;
  }

  /**
   * Returns a future that completes with the invocation id after the last event of a successful
   * run, or fails with the run's {@link AgentsvcException}.
   */
  public CompletableFuture<String> completion() {
    return completion;
  }

  /** Tells whether {@link #cancel()} or {@link #close()} was called. */
  public boolean isCancelled() {
    return cancelRequested;
  }

  /**
   * Asks the service to stop the invocation: on a run with client tools, a {@code cancel}
   * message; on a plain run, the cancellation of the call. Returns at once; the events already
   * sent keep arriving until the call ends. Does nothing once the run is over.
   */
  public void cancel() {
    if (completion.isDone()) {
      return;
    }
    cancelRequested = true;
    Control c = control;
    if (c != null) {
      c.requestCancel();
    }
  }

  /**
   * Cancels the call if the run is not over, which stops the invocation on the service, and stops
   * tools still running for it. Idempotent; called by try-with-resources and when the {@link
   * #stream()} is closed.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true) || completion.isDone()) {
      return;
    }
    cancelRequested = true;
    Control c = control;
    if (c != null) {
      c.abort("invocation closed by the client", null);
    }
  }

  /**
   * Returns the iterator of the events; callable once.
   *
   * @throws IllegalStateException when called twice, or on an invocation started with {@code
   *     runAsync}
   */
  @Override
  public Iterator<Event> iterator() {
    if (queue == null) {
      throw new IllegalStateException("an invocation with a listener cannot be iterated");
    }
    if (!iterated.compareAndSet(false, true)) {
      throw new IllegalStateException("the events of an invocation can be iterated once");
    }
    return new EventIterator();
  }

  /**
   * Returns the events as a sequential stream, which {@link #close() closes} the invocation when
   * it is closed; callable once, instead of {@link #iterator()}.
   */
  public Stream<Event> stream() {
    Spliterator<Event> split = Spliterators.spliteratorUnknownSize(
        iterator(), Spliterator.ORDERED | Spliterator.NONNULL);
    return StreamSupport.stream(split, false).onClose(this::close);
  }

  void onEvent(Event event) {
    if (invocationId.isEmpty() && !event.getInvocationId().isEmpty()) {
      invocationId = event.getInvocationId();
    }
    if (queue != null) {
      queue.add(event);
      return;
    }
    if (listenerFailure != null) {
      return;
    }
    try {
      listener.onEvent(event);
    } catch (RuntimeException | Error e) {
      listenerFailure = e;
      Control c = control;
      if (c != null) {
        c.abort("event listener failed", e);
      }
    }
  }

  void onDone(String id) {
    if (!id.isEmpty()) {
      invocationId = id;
    }
  }

  /** Ends the invocation: error is null after a successful run. */
  void onClose(Throwable error) {
    if (error == null) {
      completion.complete(invocationId);
      if (queue != null) {
        queue.add(END);
      } else {
        listener.onCompleted();
      }
      return;
    }
    AgentsvcException mapped = listenerFailure != null
        ? new CancelledException("event listener failed: " + listenerFailure, null, listenerFailure)
        : AgentsvcException.from(error);
    failure = mapped;
    completion.completeExceptionally(mapped);
    if (queue != null) {
      queue.add(END);
    } else {
      listener.onError(mapped);
    }
  }

  /** Tells whether a failure is the expected end of a run the client cancelled. */
  private boolean cancelledByClient(AgentsvcException e) {
    return cancelRequested && e.code() == Status.Code.CANCELLED;
  }

  private final class EventIterator implements Iterator<Event> {
    private Event next;
    private boolean ended;

    @Override
    public boolean hasNext() {
      if (next != null) {
        return true;
      }
      if (ended) {
        return false;
      }
      Object item;
      try {
        item = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        ended = true;
        close();
        throw new CancelledException("interrupted while waiting for events", null, e);
      }
      if (item == END) {
        ended = true;
        AgentsvcException f = failure;
        if (f != null && !cancelledByClient(f)) {
          throw f;
        }
        return false;
      }
      next = (Event) item;
      return true;
    }

    @Override
    public Event next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Event e = next;
      next = null;
      return e;
    }
  }
}
