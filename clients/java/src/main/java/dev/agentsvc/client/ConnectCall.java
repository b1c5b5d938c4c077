package dev.agentsvc.client;

import dev.agentsvc.v1.CallbackCall;
import dev.agentsvc.v1.CallbackResult;
import dev.agentsvc.v1.CancelRun;
import dev.agentsvc.v1.CodeExecutionCall;
import dev.agentsvc.v1.CodeResult;
import dev.agentsvc.v1.ConnectRequest;
import dev.agentsvc.v1.ConnectResponse;
import dev.agentsvc.v1.EventActions;
import dev.agentsvc.v1.NodeCall;
import dev.agentsvc.v1.NodeResult;
import dev.agentsvc.v1.RunNodeRequest;
import dev.agentsvc.v1.RunNodeResponse;
import dev.agentsvc.v1.StartRun;
import dev.agentsvc.v1.ToolCall;
import dev.agentsvc.v1.ToolResult;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.lang.reflect.InvocationTargetException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One Connect stream: sends the start message, hands events to the {@link Invocation}, runs each
 * tool call, callback call, code execution and workflow node call on the tool executor and sends
 * its result, concurrently and in completion order.
 */
final class ConnectCall
    implements ClientResponseObserver<ConnectRequest, ConnectResponse>, Invocation.Control {
  private final Invocation invocation;
  private final Map<String, FunctionTool> tools;
  private final Map<String, Callback> callbacks;
  private final CodeExecutor codeExecutor;
  private final Map<String, FunctionNode> nodes;
  private final Executor executor;

  /** Guards the request stream, which is not thread-safe, and the fields below. */
  private final Object lock = new Object();
  private ClientCallStreamObserver<ConnectRequest> requests;
  private boolean requestsClosed;
  private boolean ended;
  private final Set<Thread> running = new HashSet<>();
  private final Set<CompletableFuture<?>> pending = new HashSet<>();
  /** The run_node requests of running node calls waiting for their answers, by call and id. */
  private final Map<String, CompletableFuture<RunNodeResponse>> children = new HashMap<>();

  ConnectCall(Invocation invocation, Map<String, FunctionTool> tools,
      Map<String, Callback> callbacks, CodeExecutor codeExecutor, Map<String, FunctionNode> nodes,
      Executor executor) {
    this.invocation = invocation;
    this.tools = tools;
    this.callbacks = callbacks;
    this.codeExecutor = codeExecutor;
    this.nodes = nodes;
    this.executor = executor;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<ConnectRequest> requestStream) {
    synchronized (lock) {
      this.requests = requestStream;
    }
  }

  /** Sends the start message; called once, right after the call starts. */
  void start(StartRun start) {
    send(ConnectRequest.newBuilder().setStart(start).build());
  }

  @Override
  public void onNext(ConnectResponse response) {
    switch (response.getKindCase()) {
      case EVENT -> invocation.onEvent(response.getEvent());
      case TOOL_CALL -> dispatch(response.getToolCall());
      case CALLBACK_CALL -> dispatch(response.getCallbackCall());
      case CODE_EXECUTION -> dispatch(response.getCodeExecution());
      case NODE_CALL -> dispatch(response.getNodeCall());
      case RUN_NODE_RESULT -> {
        RunNodeResponse answer = response.getRunNodeResult();
        CompletableFuture<RunNodeResponse> child;
        synchronized (lock) {
          child = children.remove(childKey(answer.getCallId(), answer.getRequestId()));
        }
        if (child != null) {
          child.complete(answer);
        }
      }
      case DONE -> {
        invocation.onDone(response.getDone().getInvocationId());
        halfClose();
      }
      case KIND_NOT_SET -> { }
    }
  }

  @Override
  public void onError(Throwable t) {
    end();
    invocation.onClose(t);
  }

  @Override
  public void onCompleted() {
    end();
    invocation.onClose(null);
  }

  @Override
  public void requestCancel() {
    send(ConnectRequest.newBuilder().setCancel(CancelRun.getDefaultInstance()).build());
  }

  @Override
  public void abort(String why, Throwable cause) {
    ClientCallStreamObserver<ConnectRequest> r;
    synchronized (lock) {
      r = requests;
    }
    if (r != null) {
      r.cancel(why, cause);
    }
  }

  private void dispatch(ToolCall call) {
    FunctionTool tool = tools.get(call.getFunctionCall().getName());
    if (tool == null) {
      send(result(call, null, null, new IllegalStateException(
          "Tool '" + call.getFunctionCall().getName() + "' is not declared by this client.")));
      return;
    }
    ToolContext context = new ToolContext(call);
    execute(() -> tool.handler().call(ToolArguments.of(call.getFunctionCall().getArgs()), context),
        (value, error) -> result(call, context, value, error));
  }

  private void dispatch(CallbackCall call) {
    Callback callback = callbacks.get(call.getName());
    if (callback == null) {
      send(callbackResult(Callback.error(
          call.getCallId(), "Callback '" + call.getName() + "' is not declared by this client.")));
      return;
    }
    Callback.Kind kind = Callback.Kind.of(call.getKind());
    if (kind == null) {
      send(callbackResult(Callback.error(call.getCallId(),
          "callback call of an unknown kind " + call.getKindValue())));
      return;
    }
    if (!callback.handles(kind)) {
      send(callbackResult(Callback.error(call.getCallId(),
          "the callback " + callback.name() + " has no " + kind + " handler")));
      return;
    }
    CallbackContext context = new CallbackContext(call, kind);
    execute(() -> callback.invoke(context),
        (value, error) -> callbackResult(callback.result(context, value, error)));
  }

  private void dispatch(CodeExecutionCall call) {
    if (codeExecutor == null) {
      send(codeResult(CodeResult.newBuilder()
          .setCallId(call.getCallId()).setStderr(CodeExecution.NO_CODE_EXECUTOR).build()));
      return;
    }
    execute(() -> codeExecutor.execute(new CodeExecution(call)),
        (value, error) -> codeResult(CodeExecution.result(
            call.getCallId(), (CodeExecutionOutcome) value, error)));
  }

  private void dispatch(NodeCall call) {
    FunctionNode node = nodes.get(call.getName());
    if (node == null) {
      send(nodeResult(FunctionNode.result(call, null, null, new IllegalStateException(
          "Node '" + call.getName() + "' is not declared by this client."))));
      return;
    }
    NodeContext context = new NodeContext(call, this::runChild);
    execute(() -> node.handler().call(FunctionNode.input(call), context),
        (value, error) -> nodeResult(FunctionNode.result(call, context, value, error)));
  }

  /** Sends a node call's run_node request; the future completes with its answer. */
  private CompletableFuture<RunNodeResponse> runChild(RunNodeRequest req) {
    CompletableFuture<RunNodeResponse> answer = new CompletableFuture<>();
    synchronized (lock) {
      if (ended) {
        answer.completeExceptionally(new IllegalStateException("the invocation ended"));
        return answer;
      }
      children.put(childKey(req.getCallId(), req.getRequestId()), answer);
    }
    send(ConnectRequest.newBuilder().setRunNode(req).build());
    return answer;
  }

  private static String childKey(String callId, String requestId) {
    return callId + '\u0000' + requestId;
  }

  /** Code that answers one call: its value, or a CompletionStage of it. */
  private interface Work {
    Object run() throws Exception;
  }

  /** Turns what a call's code gave (a value, or the error it threw) into the message to send. */
  private interface Reply {
    ConnectRequest of(Object value, Throwable error);
  }

  /** Runs work on the executor, and sends its reply once its value (awaited if async) is in. */
  private void execute(Work work, Reply reply) {
    try {
      executor.execute(() -> run(work, reply));
    } catch (RejectedExecutionException e) {
      send(reply.of(null, new IllegalStateException("the client is closed", e)));
    }
  }

  private void run(Work work, Reply reply) {
    synchronized (lock) {
      if (ended) {
        return;
      }
      running.add(Thread.currentThread());
    }
    CompletionStage<?> stage;
    try {
      Object value = work.run();
      stage = value instanceof CompletionStage<?> async
          ? async : CompletableFuture.completedFuture(value);
    } catch (Throwable t) {
      stage = CompletableFuture.failedFuture(t);
    } finally {
      synchronized (lock) {
        running.remove(Thread.currentThread());
        // A cancellation may have interrupted this thread after the code returned; the pool
        // thread must not carry that into its next task.
        Thread.interrupted();
      }
    }
    CompletableFuture<?> future = stage instanceof CompletableFuture<?> cf ? cf : bridge(stage);
    synchronized (lock) {
      if (ended) {
        future.cancel(true);
        return;
      }
      pending.add(future);
    }
    future.whenComplete((value, error) -> {
      synchronized (lock) {
        pending.remove(future);
      }
      send(reply.of(value, error));
    });
  }

  private static CompletableFuture<Object> bridge(CompletionStage<?> stage) {
    CompletableFuture<Object> future = new CompletableFuture<>();
    stage.whenComplete((value, error) -> {
      if (error != null) {
        future.completeExceptionally(error);
      } else {
        future.complete(value);
      }
    });
    return future;
  }

  private static ConnectRequest result(
      ToolCall call, ToolContext context, Object value, Throwable error) {
    ToolResult.Builder r = ToolResult.newBuilder().setCallId(call.getCallId());
    if (error != null) {
      r.setError(message(error));
    } else if (value != null) {
      try {
        r.setResponse(Values.toValue(value));
      } catch (RuntimeException e) {
        r.setError("cannot encode the tool's result: " + message(e));
      }
    }
    if (context != null) {
      EventActions actions = context.builtActions();
      if (!actions.equals(EventActions.getDefaultInstance())) {
        r.setActions(actions);
      }
      r.putAllArtifacts(context.artifactsCopy());
    }
    return ConnectRequest.newBuilder().setToolResult(r).build();
  }

  private static ConnectRequest codeResult(CodeResult result) {
    return ConnectRequest.newBuilder().setCodeResult(result).build();
  }

  private static ConnectRequest nodeResult(NodeResult result) {
    return ConnectRequest.newBuilder().setNodeResult(result).build();
  }

  private static ConnectRequest callbackResult(CallbackResult result) {
    return ConnectRequest.newBuilder().setCallbackResult(result).build();
  }

  private static String message(Throwable error) {
    Throwable t = error;
    while ((t instanceof CompletionException || t instanceof ExecutionException
        || t instanceof InvocationTargetException) && t.getCause() != null) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
  }

  private void send(ConnectRequest message) {
    synchronized (lock) {
      if (requestsClosed || requests == null) {
        return;
      }
      try {
        requests.onNext(message);
      } catch (RuntimeException e) {
        // The call is already cancelled or closed: its end reaches onError.
        requestsClosed = true;
      }
    }
  }

  private void halfClose() {
    synchronized (lock) {
      if (!requestsClosed && requests != null) {
        requestsClosed = true;
        try {
          requests.onCompleted();
        } catch (RuntimeException e) {
          // Already closed; nothing to release.
        }
      }
    }
  }

  /** Marks the stream over and stops the tools and callbacks still running for it. */
  private void end() {
    synchronized (lock) {
      ended = true;
      requestsClosed = true;
      for (Thread t : running) {
        t.interrupt();
      }
      for (CompletableFuture<?> f : pending) {
        f.cancel(true);
      }
      pending.clear();
      for (CompletableFuture<RunNodeResponse> c : children.values()) {
        c.completeExceptionally(new IllegalStateException("the invocation ended"));
      }
      children.clear();
    }
  }
}
