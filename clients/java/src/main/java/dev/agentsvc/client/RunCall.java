package dev.agentsvc.client;

import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.RunResponse;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;

/** One Run stream: hands its events to the {@link Invocation}; cancelling cancels the call. */
final class RunCall implements ClientResponseObserver<RunRequest, RunResponse>, Invocation.Control {
  private final Invocation invocation;
  private volatile ClientCallStreamObserver<RunRequest> requests;

  RunCall(Invocation invocation) {
    this.invocation = invocation;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<RunRequest> requestStream) {
    this.requests = requestStream;
  }

  @Override
  public void onNext(RunResponse response) {
    invocation.onEvent(response.getEvent());
  }

  @Override
  public void onError(Throwable t) {
    invocation.onClose(t);
  }

  @Override
  public void onCompleted() {
    invocation.onClose(null);
  }

  @Override
  public void requestCancel() {
    abort("run cancelled by the client", null);
  }

  @Override
  public void abort(String why, Throwable cause) {
    ClientCallStreamObserver<RunRequest> r = requests;
    if (r != null) {
      r.cancel(why, cause);
    }
  }
}
