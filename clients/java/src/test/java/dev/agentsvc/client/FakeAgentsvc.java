package dev.agentsvc.client;

import dev.agentsvc.v1.ArtifactServiceGrpc;
import dev.agentsvc.v1.ArtifactVersion;
import dev.agentsvc.v1.ConnectRequest;
import dev.agentsvc.v1.ConnectResponse;
import dev.agentsvc.v1.DeleteArtifactRequest;
import dev.agentsvc.v1.DeleteArtifactResponse;
import dev.agentsvc.v1.GetArtifactVersionRequest;
import dev.agentsvc.v1.GetArtifactVersionResponse;
import dev.agentsvc.v1.ListArtifactVersionsMetadataRequest;
import dev.agentsvc.v1.SaveArtifactResponse;
import dev.agentsvc.v1.GetSessionRequest;
import dev.agentsvc.v1.GetSessionResponse;
import dev.agentsvc.v1.ListArtifactKeysRequest;
import dev.agentsvc.v1.ListArtifactKeysResponse;
import dev.agentsvc.v1.ListArtifactVersionsMetadataResponse;
import dev.agentsvc.v1.ListArtifactVersionsRequest;
import dev.agentsvc.v1.ListArtifactVersionsResponse;
import dev.agentsvc.v1.ListSessionsRequest;
import dev.agentsvc.v1.ListSessionsResponse;
import dev.agentsvc.v1.LoadArtifactRequest;
import dev.agentsvc.v1.LoadArtifactResponse;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.RunResponse;
import dev.agentsvc.v1.RunnerServiceGrpc;
import dev.agentsvc.v1.SaveArtifactRequest;
import dev.agentsvc.v1.SessionServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * An in-process stand-in for agentsvc: each RPC a test needs is a function field, unset ones
 * answer UNIMPLEMENTED; the ArtifactService is the implementation in {@link #artifacts}.
 */
final class FakeAgentsvc implements AutoCloseable {
  volatile Function<StreamObserver<ConnectResponse>, StreamObserver<ConnectRequest>> connect;
  volatile BiConsumer<RunRequest, StreamObserver<RunResponse>> run;
  volatile BiConsumer<GetSessionRequest, StreamObserver<GetSessionResponse>> getSession;
  volatile BiConsumer<ListSessionsRequest, StreamObserver<ListSessionsResponse>> listSessions;
  volatile ArtifactServiceGrpc.ArtifactServiceImplBase artifacts =
      new ArtifactServiceGrpc.ArtifactServiceImplBase() {};

  private final Server server;
  private final ManagedChannel channel;

  FakeAgentsvc() throws IOException {
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name)
        .addService(new RunnerServiceGrpc.RunnerServiceImplBase() {
          @Override
          public StreamObserver<ConnectRequest> connect(StreamObserver<ConnectResponse> out) {
            if (connect == null) {
              return super.connect(out);
            }
            return connect.apply(out);
          }

          @Override
          public void run(RunRequest request, StreamObserver<RunResponse> out) {
            if (run == null) {
              super.run(request, out);
              return;
            }
            run.accept(request, out);
          }
        })
        .addService(new SessionServiceGrpc.SessionServiceImplBase() {
          @Override
          public void getSession(GetSessionRequest request, StreamObserver<GetSessionResponse> out) {
            if (getSession == null) {
              out.onError(Status.UNIMPLEMENTED.asRuntimeException());
              return;
            }
            getSession.accept(request, out);
          }

          @Override
          public void listSessions(
              ListSessionsRequest request, StreamObserver<ListSessionsResponse> out) {
            if (listSessions == null) {
              out.onError(Status.UNIMPLEMENTED.asRuntimeException());
              return;
            }
            listSessions.accept(request, out);
          }
        })
        .addService(new ArtifactServiceGrpc.ArtifactServiceImplBase() {
          @Override
          public void listArtifactKeys(ListArtifactKeysRequest request,
              StreamObserver<ListArtifactKeysResponse> out) {
            artifacts.listArtifactKeys(request, out);
          }

          @Override
          public void loadArtifact(LoadArtifactRequest request,
              StreamObserver<LoadArtifactResponse> out) {
            artifacts.loadArtifact(request, out);
          }

          @Override
          public void listArtifactVersions(ListArtifactVersionsRequest request,
              StreamObserver<ListArtifactVersionsResponse> out) {
            artifacts.listArtifactVersions(request, out);
          }

          @Override
          public void listArtifactVersionsMetadata(
              ListArtifactVersionsMetadataRequest request,
              StreamObserver<ListArtifactVersionsMetadataResponse> out) {
            artifacts.listArtifactVersionsMetadata(request, out);
          }

          @Override
          public void getArtifactVersion(GetArtifactVersionRequest request,
              StreamObserver<GetArtifactVersionResponse> out) {
            artifacts.getArtifactVersion(request, out);
          }

          @Override
          public void saveArtifact(SaveArtifactRequest request,
              StreamObserver<SaveArtifactResponse> out) {
            artifacts.saveArtifact(request, out);
          }

          @Override
          public void deleteArtifact(DeleteArtifactRequest request,
              StreamObserver<DeleteArtifactResponse> out) {
            artifacts.deleteArtifact(request, out);
          }
        })
        .build()
        .start();
    channel = InProcessChannelBuilder.forName(name).build();
  }

  /** Returns a client over the in-process channel. */
  AgentsvcClient client() {
    return AgentsvcClient.builder(channel).build();
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow();
    server.shutdownNow();
    channel.awaitTermination(5, TimeUnit.SECONDS);
    server.awaitTermination(5, TimeUnit.SECONDS);
  }
}
