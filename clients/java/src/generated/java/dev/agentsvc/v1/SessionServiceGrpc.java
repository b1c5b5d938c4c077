package dev.agentsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * SessionService manages sessions and their state.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class SessionServiceGrpc {

  private SessionServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "agentsvc.v1.SessionService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.CreateSessionRequest,
      dev.agentsvc.v1.CreateSessionResponse> getCreateSessionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "CreateSession",
      requestType = dev.agentsvc.v1.CreateSessionRequest.class,
      responseType = dev.agentsvc.v1.CreateSessionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.CreateSessionRequest,
      dev.agentsvc.v1.CreateSessionResponse> getCreateSessionMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.CreateSessionRequest, dev.agentsvc.v1.CreateSessionResponse> getCreateSessionMethod;
    if ((getCreateSessionMethod = SessionServiceGrpc.getCreateSessionMethod) == null) {
      synchronized (SessionServiceGrpc.class) {
        if ((getCreateSessionMethod = SessionServiceGrpc.getCreateSessionMethod) == null) {
          SessionServiceGrpc.getCreateSessionMethod = getCreateSessionMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.CreateSessionRequest, dev.agentsvc.v1.CreateSessionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "CreateSession"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.CreateSessionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.CreateSessionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SessionServiceMethodDescriptorSupplier("CreateSession"))
              .build();
        }
      }
    }
    return getCreateSessionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.GetSessionRequest,
      dev.agentsvc.v1.GetSessionResponse> getGetSessionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetSession",
      requestType = dev.agentsvc.v1.GetSessionRequest.class,
      responseType = dev.agentsvc.v1.GetSessionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.GetSessionRequest,
      dev.agentsvc.v1.GetSessionResponse> getGetSessionMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.GetSessionRequest, dev.agentsvc.v1.GetSessionResponse> getGetSessionMethod;
    if ((getGetSessionMethod = SessionServiceGrpc.getGetSessionMethod) == null) {
      synchronized (SessionServiceGrpc.class) {
        if ((getGetSessionMethod = SessionServiceGrpc.getGetSessionMethod) == null) {
          SessionServiceGrpc.getGetSessionMethod = getGetSessionMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.GetSessionRequest, dev.agentsvc.v1.GetSessionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetSession"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.GetSessionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.GetSessionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SessionServiceMethodDescriptorSupplier("GetSession"))
              .build();
        }
      }
    }
    return getGetSessionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.ListSessionsRequest,
      dev.agentsvc.v1.ListSessionsResponse> getListSessionsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListSessions",
      requestType = dev.agentsvc.v1.ListSessionsRequest.class,
      responseType = dev.agentsvc.v1.ListSessionsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.ListSessionsRequest,
      dev.agentsvc.v1.ListSessionsResponse> getListSessionsMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.ListSessionsRequest, dev.agentsvc.v1.ListSessionsResponse> getListSessionsMethod;
    if ((getListSessionsMethod = SessionServiceGrpc.getListSessionsMethod) == null) {
      synchronized (SessionServiceGrpc.class) {
        if ((getListSessionsMethod = SessionServiceGrpc.getListSessionsMethod) == null) {
          SessionServiceGrpc.getListSessionsMethod = getListSessionsMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.ListSessionsRequest, dev.agentsvc.v1.ListSessionsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListSessions"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListSessionsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListSessionsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SessionServiceMethodDescriptorSupplier("ListSessions"))
              .build();
        }
      }
    }
    return getListSessionsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.DeleteSessionRequest,
      dev.agentsvc.v1.DeleteSessionResponse> getDeleteSessionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DeleteSession",
      requestType = dev.agentsvc.v1.DeleteSessionRequest.class,
      responseType = dev.agentsvc.v1.DeleteSessionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.DeleteSessionRequest,
      dev.agentsvc.v1.DeleteSessionResponse> getDeleteSessionMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.DeleteSessionRequest, dev.agentsvc.v1.DeleteSessionResponse> getDeleteSessionMethod;
    if ((getDeleteSessionMethod = SessionServiceGrpc.getDeleteSessionMethod) == null) {
      synchronized (SessionServiceGrpc.class) {
        if ((getDeleteSessionMethod = SessionServiceGrpc.getDeleteSessionMethod) == null) {
          SessionServiceGrpc.getDeleteSessionMethod = getDeleteSessionMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.DeleteSessionRequest, dev.agentsvc.v1.DeleteSessionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DeleteSession"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.DeleteSessionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.DeleteSessionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SessionServiceMethodDescriptorSupplier("DeleteSession"))
              .build();
        }
      }
    }
    return getDeleteSessionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.RewindSessionRequest,
      dev.agentsvc.v1.RewindSessionResponse> getRewindSessionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "RewindSession",
      requestType = dev.agentsvc.v1.RewindSessionRequest.class,
      responseType = dev.agentsvc.v1.RewindSessionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.RewindSessionRequest,
      dev.agentsvc.v1.RewindSessionResponse> getRewindSessionMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.RewindSessionRequest, dev.agentsvc.v1.RewindSessionResponse> getRewindSessionMethod;
    if ((getRewindSessionMethod = SessionServiceGrpc.getRewindSessionMethod) == null) {
      synchronized (SessionServiceGrpc.class) {
        if ((getRewindSessionMethod = SessionServiceGrpc.getRewindSessionMethod) == null) {
          SessionServiceGrpc.getRewindSessionMethod = getRewindSessionMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.RewindSessionRequest, dev.agentsvc.v1.RewindSessionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "RewindSession"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.RewindSessionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.RewindSessionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SessionServiceMethodDescriptorSupplier("RewindSession"))
              .build();
        }
      }
    }
    return getRewindSessionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.AddSessionToMemoryRequest,
      dev.agentsvc.v1.AddSessionToMemoryResponse> getAddSessionToMemoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "AddSessionToMemory",
      requestType = dev.agentsvc.v1.AddSessionToMemoryRequest.class,
      responseType = dev.agentsvc.v1.AddSessionToMemoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.AddSessionToMemoryRequest,
      dev.agentsvc.v1.AddSessionToMemoryResponse> getAddSessionToMemoryMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.AddSessionToMemoryRequest, dev.agentsvc.v1.AddSessionToMemoryResponse> getAddSessionToMemoryMethod;
    if ((getAddSessionToMemoryMethod = SessionServiceGrpc.getAddSessionToMemoryMethod) == null) {
      synchronized (SessionServiceGrpc.class) {
        if ((getAddSessionToMemoryMethod = SessionServiceGrpc.getAddSessionToMemoryMethod) == null) {
          SessionServiceGrpc.getAddSessionToMemoryMethod = getAddSessionToMemoryMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.AddSessionToMemoryRequest, dev.agentsvc.v1.AddSessionToMemoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "AddSessionToMemory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.AddSessionToMemoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.AddSessionToMemoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SessionServiceMethodDescriptorSupplier("AddSessionToMemory"))
              .build();
        }
      }
    }
    return getAddSessionToMemoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.SearchMemoryRequest,
      dev.agentsvc.v1.SearchMemoryResponse> getSearchMemoryMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SearchMemory",
      requestType = dev.agentsvc.v1.SearchMemoryRequest.class,
      responseType = dev.agentsvc.v1.SearchMemoryResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.SearchMemoryRequest,
      dev.agentsvc.v1.SearchMemoryResponse> getSearchMemoryMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.SearchMemoryRequest, dev.agentsvc.v1.SearchMemoryResponse> getSearchMemoryMethod;
    if ((getSearchMemoryMethod = SessionServiceGrpc.getSearchMemoryMethod) == null) {
      synchronized (SessionServiceGrpc.class) {
        if ((getSearchMemoryMethod = SessionServiceGrpc.getSearchMemoryMethod) == null) {
          SessionServiceGrpc.getSearchMemoryMethod = getSearchMemoryMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.SearchMemoryRequest, dev.agentsvc.v1.SearchMemoryResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SearchMemory"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.SearchMemoryRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.SearchMemoryResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SessionServiceMethodDescriptorSupplier("SearchMemory"))
              .build();
        }
      }
    }
    return getSearchMemoryMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.UpdateSessionStateRequest,
      dev.agentsvc.v1.UpdateSessionStateResponse> getUpdateSessionStateMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "UpdateSessionState",
      requestType = dev.agentsvc.v1.UpdateSessionStateRequest.class,
      responseType = dev.agentsvc.v1.UpdateSessionStateResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.UpdateSessionStateRequest,
      dev.agentsvc.v1.UpdateSessionStateResponse> getUpdateSessionStateMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.UpdateSessionStateRequest, dev.agentsvc.v1.UpdateSessionStateResponse> getUpdateSessionStateMethod;
    if ((getUpdateSessionStateMethod = SessionServiceGrpc.getUpdateSessionStateMethod) == null) {
      synchronized (SessionServiceGrpc.class) {
        if ((getUpdateSessionStateMethod = SessionServiceGrpc.getUpdateSessionStateMethod) == null) {
          SessionServiceGrpc.getUpdateSessionStateMethod = getUpdateSessionStateMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.UpdateSessionStateRequest, dev.agentsvc.v1.UpdateSessionStateResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "UpdateSessionState"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.UpdateSessionStateRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.UpdateSessionStateResponse.getDefaultInstance()))
              .setSchemaDescriptor(new SessionServiceMethodDescriptorSupplier("UpdateSessionState"))
              .build();
        }
      }
    }
    return getUpdateSessionStateMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static SessionServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SessionServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SessionServiceStub>() {
        @java.lang.Override
        public SessionServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SessionServiceStub(channel, callOptions);
        }
      };
    return SessionServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static SessionServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SessionServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SessionServiceBlockingV2Stub>() {
        @java.lang.Override
        public SessionServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SessionServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return SessionServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static SessionServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SessionServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SessionServiceBlockingStub>() {
        @java.lang.Override
        public SessionServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SessionServiceBlockingStub(channel, callOptions);
        }
      };
    return SessionServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static SessionServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<SessionServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<SessionServiceFutureStub>() {
        @java.lang.Override
        public SessionServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new SessionServiceFutureStub(channel, callOptions);
        }
      };
    return SessionServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * SessionService manages sessions and their state.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * CreateSession creates a session, with a generated id unless one is given.
     * </pre>
     */
    default void createSession(dev.agentsvc.v1.CreateSessionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.CreateSessionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getCreateSessionMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetSession returns a session with its events.
     * </pre>
     */
    default void getSession(dev.agentsvc.v1.GetSessionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.GetSessionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetSessionMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListSessions returns the sessions of a user, without events.
     * </pre>
     */
    default void listSessions(dev.agentsvc.v1.ListSessionsRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListSessionsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListSessionsMethod(), responseObserver);
    }

    /**
     * <pre>
     * DeleteSession deletes a session; deleting a missing one is not an error.
     * </pre>
     */
    default void deleteSession(dev.agentsvc.v1.DeleteSessionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.DeleteSessionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDeleteSessionMethod(), responseObserver);
    }

    /**
     * <pre>
     * RewindSession undoes the invocations from rewind_before_invocation_id
     * on: it appends a user event carrying the rewind and a state delta that
     * restores the session-scoped state as it was before that invocation. The
     * rewound events stay stored but no longer reach the model.
     * </pre>
     */
    default void rewindSession(dev.agentsvc.v1.RewindSessionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.RewindSessionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRewindSessionMethod(), responseObserver);
    }

    /**
     * <pre>
     * AddSessionToMemory adds the session's events to the user's memory (the
     * service of --memory), replacing what an earlier add of the same
     * session put there, as ADK's memory services do.
     * </pre>
     */
    default void addSessionToMemory(dev.agentsvc.v1.AddSessionToMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.AddSessionToMemoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getAddSessionToMemoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * SearchMemory returns the user's memories that match a query, as the
     * load_memory tool finds them.
     * </pre>
     */
    default void searchMemory(dev.agentsvc.v1.SearchMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.SearchMemoryResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSearchMemoryMethod(), responseObserver);
    }

    /**
     * <pre>
     * UpdateSessionState appends an event that carries the state delta.
     * </pre>
     */
    default void updateSessionState(dev.agentsvc.v1.UpdateSessionStateRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.UpdateSessionStateResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getUpdateSessionStateMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service SessionService.
   * <pre>
   * SessionService manages sessions and their state.
   * </pre>
   */
  public static abstract class SessionServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return SessionServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service SessionService.
   * <pre>
   * SessionService manages sessions and their state.
   * </pre>
   */
  public static final class SessionServiceStub
      extends io.grpc.stub.AbstractAsyncStub<SessionServiceStub> {
    private SessionServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SessionServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SessionServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSession creates a session, with a generated id unless one is given.
     * </pre>
     */
    public void createSession(dev.agentsvc.v1.CreateSessionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.CreateSessionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getCreateSessionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetSession returns a session with its events.
     * </pre>
     */
    public void getSession(dev.agentsvc.v1.GetSessionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.GetSessionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetSessionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListSessions returns the sessions of a user, without events.
     * </pre>
     */
    public void listSessions(dev.agentsvc.v1.ListSessionsRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListSessionsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListSessionsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DeleteSession deletes a session; deleting a missing one is not an error.
     * </pre>
     */
    public void deleteSession(dev.agentsvc.v1.DeleteSessionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.DeleteSessionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDeleteSessionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * RewindSession undoes the invocations from rewind_before_invocation_id
     * on: it appends a user event carrying the rewind and a state delta that
     * restores the session-scoped state as it was before that invocation. The
     * rewound events stay stored but no longer reach the model.
     * </pre>
     */
    public void rewindSession(dev.agentsvc.v1.RewindSessionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.RewindSessionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getRewindSessionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * AddSessionToMemory adds the session's events to the user's memory (the
     * service of --memory), replacing what an earlier add of the same
     * session put there, as ADK's memory services do.
     * </pre>
     */
    public void addSessionToMemory(dev.agentsvc.v1.AddSessionToMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.AddSessionToMemoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getAddSessionToMemoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * SearchMemory returns the user's memories that match a query, as the
     * load_memory tool finds them.
     * </pre>
     */
    public void searchMemory(dev.agentsvc.v1.SearchMemoryRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.SearchMemoryResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSearchMemoryMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * UpdateSessionState appends an event that carries the state delta.
     * </pre>
     */
    public void updateSessionState(dev.agentsvc.v1.UpdateSessionStateRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.UpdateSessionStateResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getUpdateSessionStateMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service SessionService.
   * <pre>
   * SessionService manages sessions and their state.
   * </pre>
   */
  public static final class SessionServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<SessionServiceBlockingV2Stub> {
    private SessionServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SessionServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SessionServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSession creates a session, with a generated id unless one is given.
     * </pre>
     */
    public dev.agentsvc.v1.CreateSessionResponse createSession(dev.agentsvc.v1.CreateSessionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getCreateSessionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSession returns a session with its events.
     * </pre>
     */
    public dev.agentsvc.v1.GetSessionResponse getSession(dev.agentsvc.v1.GetSessionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetSessionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListSessions returns the sessions of a user, without events.
     * </pre>
     */
    public dev.agentsvc.v1.ListSessionsResponse listSessions(dev.agentsvc.v1.ListSessionsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListSessionsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteSession deletes a session; deleting a missing one is not an error.
     * </pre>
     */
    public dev.agentsvc.v1.DeleteSessionResponse deleteSession(dev.agentsvc.v1.DeleteSessionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDeleteSessionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RewindSession undoes the invocations from rewind_before_invocation_id
     * on: it appends a user event carrying the rewind and a state delta that
     * restores the session-scoped state as it was before that invocation. The
     * rewound events stay stored but no longer reach the model.
     * </pre>
     */
    public dev.agentsvc.v1.RewindSessionResponse rewindSession(dev.agentsvc.v1.RewindSessionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getRewindSessionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AddSessionToMemory adds the session's events to the user's memory (the
     * service of --memory), replacing what an earlier add of the same
     * session put there, as ADK's memory services do.
     * </pre>
     */
    public dev.agentsvc.v1.AddSessionToMemoryResponse addSessionToMemory(dev.agentsvc.v1.AddSessionToMemoryRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getAddSessionToMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SearchMemory returns the user's memories that match a query, as the
     * load_memory tool finds them.
     * </pre>
     */
    public dev.agentsvc.v1.SearchMemoryResponse searchMemory(dev.agentsvc.v1.SearchMemoryRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getSearchMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * UpdateSessionState appends an event that carries the state delta.
     * </pre>
     */
    public dev.agentsvc.v1.UpdateSessionStateResponse updateSessionState(dev.agentsvc.v1.UpdateSessionStateRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getUpdateSessionStateMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service SessionService.
   * <pre>
   * SessionService manages sessions and their state.
   * </pre>
   */
  public static final class SessionServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<SessionServiceBlockingStub> {
    private SessionServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SessionServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SessionServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSession creates a session, with a generated id unless one is given.
     * </pre>
     */
    public dev.agentsvc.v1.CreateSessionResponse createSession(dev.agentsvc.v1.CreateSessionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getCreateSessionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetSession returns a session with its events.
     * </pre>
     */
    public dev.agentsvc.v1.GetSessionResponse getSession(dev.agentsvc.v1.GetSessionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetSessionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListSessions returns the sessions of a user, without events.
     * </pre>
     */
    public dev.agentsvc.v1.ListSessionsResponse listSessions(dev.agentsvc.v1.ListSessionsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListSessionsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteSession deletes a session; deleting a missing one is not an error.
     * </pre>
     */
    public dev.agentsvc.v1.DeleteSessionResponse deleteSession(dev.agentsvc.v1.DeleteSessionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDeleteSessionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * RewindSession undoes the invocations from rewind_before_invocation_id
     * on: it appends a user event carrying the rewind and a state delta that
     * restores the session-scoped state as it was before that invocation. The
     * rewound events stay stored but no longer reach the model.
     * </pre>
     */
    public dev.agentsvc.v1.RewindSessionResponse rewindSession(dev.agentsvc.v1.RewindSessionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getRewindSessionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * AddSessionToMemory adds the session's events to the user's memory (the
     * service of --memory), replacing what an earlier add of the same
     * session put there, as ADK's memory services do.
     * </pre>
     */
    public dev.agentsvc.v1.AddSessionToMemoryResponse addSessionToMemory(dev.agentsvc.v1.AddSessionToMemoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getAddSessionToMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SearchMemory returns the user's memories that match a query, as the
     * load_memory tool finds them.
     * </pre>
     */
    public dev.agentsvc.v1.SearchMemoryResponse searchMemory(dev.agentsvc.v1.SearchMemoryRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSearchMemoryMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * UpdateSessionState appends an event that carries the state delta.
     * </pre>
     */
    public dev.agentsvc.v1.UpdateSessionStateResponse updateSessionState(dev.agentsvc.v1.UpdateSessionStateRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getUpdateSessionStateMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service SessionService.
   * <pre>
   * SessionService manages sessions and their state.
   * </pre>
   */
  public static final class SessionServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<SessionServiceFutureStub> {
    private SessionServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected SessionServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new SessionServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * CreateSession creates a session, with a generated id unless one is given.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.CreateSessionResponse> createSession(
        dev.agentsvc.v1.CreateSessionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getCreateSessionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetSession returns a session with its events.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.GetSessionResponse> getSession(
        dev.agentsvc.v1.GetSessionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetSessionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListSessions returns the sessions of a user, without events.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.ListSessionsResponse> listSessions(
        dev.agentsvc.v1.ListSessionsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListSessionsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DeleteSession deletes a session; deleting a missing one is not an error.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.DeleteSessionResponse> deleteSession(
        dev.agentsvc.v1.DeleteSessionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDeleteSessionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * RewindSession undoes the invocations from rewind_before_invocation_id
     * on: it appends a user event carrying the rewind and a state delta that
     * restores the session-scoped state as it was before that invocation. The
     * rewound events stay stored but no longer reach the model.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.RewindSessionResponse> rewindSession(
        dev.agentsvc.v1.RewindSessionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getRewindSessionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * AddSessionToMemory adds the session's events to the user's memory (the
     * service of --memory), replacing what an earlier add of the same
     * session put there, as ADK's memory services do.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.AddSessionToMemoryResponse> addSessionToMemory(
        dev.agentsvc.v1.AddSessionToMemoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getAddSessionToMemoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * SearchMemory returns the user's memories that match a query, as the
     * load_memory tool finds them.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.SearchMemoryResponse> searchMemory(
        dev.agentsvc.v1.SearchMemoryRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSearchMemoryMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * UpdateSessionState appends an event that carries the state delta.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.UpdateSessionStateResponse> updateSessionState(
        dev.agentsvc.v1.UpdateSessionStateRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getUpdateSessionStateMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_CREATE_SESSION = 0;
  private static final int METHODID_GET_SESSION = 1;
  private static final int METHODID_LIST_SESSIONS = 2;
  private static final int METHODID_DELETE_SESSION = 3;
  private static final int METHODID_REWIND_SESSION = 4;
  private static final int METHODID_ADD_SESSION_TO_MEMORY = 5;
  private static final int METHODID_SEARCH_MEMORY = 6;
  private static final int METHODID_UPDATE_SESSION_STATE = 7;

  private static final class MethodHandlers<Req, Resp> implements
      io.grpc.stub.ServerCalls.UnaryMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ServerStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.ClientStreamingMethod<Req, Resp>,
      io.grpc.stub.ServerCalls.BidiStreamingMethod<Req, Resp> {
    private final AsyncService serviceImpl;
    private final int methodId;

    MethodHandlers(AsyncService serviceImpl, int methodId) {
      this.serviceImpl = serviceImpl;
      this.methodId = methodId;
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public void invoke(Req request, io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        case METHODID_CREATE_SESSION:
          serviceImpl.createSession((dev.agentsvc.v1.CreateSessionRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.CreateSessionResponse>) responseObserver);
          break;
        case METHODID_GET_SESSION:
          serviceImpl.getSession((dev.agentsvc.v1.GetSessionRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.GetSessionResponse>) responseObserver);
          break;
        case METHODID_LIST_SESSIONS:
          serviceImpl.listSessions((dev.agentsvc.v1.ListSessionsRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListSessionsResponse>) responseObserver);
          break;
        case METHODID_DELETE_SESSION:
          serviceImpl.deleteSession((dev.agentsvc.v1.DeleteSessionRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.DeleteSessionResponse>) responseObserver);
          break;
        case METHODID_REWIND_SESSION:
          serviceImpl.rewindSession((dev.agentsvc.v1.RewindSessionRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.RewindSessionResponse>) responseObserver);
          break;
        case METHODID_ADD_SESSION_TO_MEMORY:
          serviceImpl.addSessionToMemory((dev.agentsvc.v1.AddSessionToMemoryRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.AddSessionToMemoryResponse>) responseObserver);
          break;
        case METHODID_SEARCH_MEMORY:
          serviceImpl.searchMemory((dev.agentsvc.v1.SearchMemoryRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.SearchMemoryResponse>) responseObserver);
          break;
        case METHODID_UPDATE_SESSION_STATE:
          serviceImpl.updateSessionState((dev.agentsvc.v1.UpdateSessionStateRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.UpdateSessionStateResponse>) responseObserver);
          break;
        default:
          throw new AssertionError();
      }
    }

    @java.lang.Override
    @java.lang.SuppressWarnings("unchecked")
    public io.grpc.stub.StreamObserver<Req> invoke(
        io.grpc.stub.StreamObserver<Resp> responseObserver) {
      switch (methodId) {
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getCreateSessionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.CreateSessionRequest,
              dev.agentsvc.v1.CreateSessionResponse>(
                service, METHODID_CREATE_SESSION)))
        .addMethod(
          getGetSessionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.GetSessionRequest,
              dev.agentsvc.v1.GetSessionResponse>(
                service, METHODID_GET_SESSION)))
        .addMethod(
          getListSessionsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.ListSessionsRequest,
              dev.agentsvc.v1.ListSessionsResponse>(
                service, METHODID_LIST_SESSIONS)))
        .addMethod(
          getDeleteSessionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.DeleteSessionRequest,
              dev.agentsvc.v1.DeleteSessionResponse>(
                service, METHODID_DELETE_SESSION)))
        .addMethod(
          getRewindSessionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.RewindSessionRequest,
              dev.agentsvc.v1.RewindSessionResponse>(
                service, METHODID_REWIND_SESSION)))
        .addMethod(
          getAddSessionToMemoryMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.AddSessionToMemoryRequest,
              dev.agentsvc.v1.AddSessionToMemoryResponse>(
                service, METHODID_ADD_SESSION_TO_MEMORY)))
        .addMethod(
          getSearchMemoryMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.SearchMemoryRequest,
              dev.agentsvc.v1.SearchMemoryResponse>(
                service, METHODID_SEARCH_MEMORY)))
        .addMethod(
          getUpdateSessionStateMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.UpdateSessionStateRequest,
              dev.agentsvc.v1.UpdateSessionStateResponse>(
                service, METHODID_UPDATE_SESSION_STATE)))
        .build();
  }

  private static abstract class SessionServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    SessionServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.agentsvc.v1.SessionServiceOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("SessionService");
    }
  }

  private static final class SessionServiceFileDescriptorSupplier
      extends SessionServiceBaseDescriptorSupplier {
    SessionServiceFileDescriptorSupplier() {}
  }

  private static final class SessionServiceMethodDescriptorSupplier
      extends SessionServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    SessionServiceMethodDescriptorSupplier(java.lang.String methodName) {
      this.methodName = methodName;
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.MethodDescriptor getMethodDescriptor() {
      return getServiceDescriptor().findMethodByName(methodName);
    }
  }

  private static volatile io.grpc.ServiceDescriptor serviceDescriptor;

  public static io.grpc.ServiceDescriptor getServiceDescriptor() {
    io.grpc.ServiceDescriptor result = serviceDescriptor;
    if (result == null) {
      synchronized (SessionServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new SessionServiceFileDescriptorSupplier())
              .addMethod(getCreateSessionMethod())
              .addMethod(getGetSessionMethod())
              .addMethod(getListSessionsMethod())
              .addMethod(getDeleteSessionMethod())
              .addMethod(getRewindSessionMethod())
              .addMethod(getAddSessionToMemoryMethod())
              .addMethod(getSearchMemoryMethod())
              .addMethod(getUpdateSessionStateMethod())
              .build();
        }
      }
    }
    return result;
  }
}
