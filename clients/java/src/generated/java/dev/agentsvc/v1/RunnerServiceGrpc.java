package dev.agentsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * RunnerService runs agents.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class RunnerServiceGrpc {

  private RunnerServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "agentsvc.v1.RunnerService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.RunRequest,
      dev.agentsvc.v1.RunResponse> getRunMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Run",
      requestType = dev.agentsvc.v1.RunRequest.class,
      responseType = dev.agentsvc.v1.RunResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.RunRequest,
      dev.agentsvc.v1.RunResponse> getRunMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.RunRequest, dev.agentsvc.v1.RunResponse> getRunMethod;
    if ((getRunMethod = RunnerServiceGrpc.getRunMethod) == null) {
      synchronized (RunnerServiceGrpc.class) {
        if ((getRunMethod = RunnerServiceGrpc.getRunMethod) == null) {
          RunnerServiceGrpc.getRunMethod = getRunMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.RunRequest, dev.agentsvc.v1.RunResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.SERVER_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Run"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.RunRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.RunResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunnerServiceMethodDescriptorSupplier("Run"))
              .build();
        }
      }
    }
    return getRunMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.ConnectRequest,
      dev.agentsvc.v1.ConnectResponse> getConnectMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "Connect",
      requestType = dev.agentsvc.v1.ConnectRequest.class,
      responseType = dev.agentsvc.v1.ConnectResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.ConnectRequest,
      dev.agentsvc.v1.ConnectResponse> getConnectMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.ConnectRequest, dev.agentsvc.v1.ConnectResponse> getConnectMethod;
    if ((getConnectMethod = RunnerServiceGrpc.getConnectMethod) == null) {
      synchronized (RunnerServiceGrpc.class) {
        if ((getConnectMethod = RunnerServiceGrpc.getConnectMethod) == null) {
          RunnerServiceGrpc.getConnectMethod = getConnectMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.ConnectRequest, dev.agentsvc.v1.ConnectResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.BIDI_STREAMING)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "Connect"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ConnectRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ConnectResponse.getDefaultInstance()))
              .setSchemaDescriptor(new RunnerServiceMethodDescriptorSupplier("Connect"))
              .build();
        }
      }
    }
    return getConnectMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static RunnerServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunnerServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunnerServiceStub>() {
        @java.lang.Override
        public RunnerServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunnerServiceStub(channel, callOptions);
        }
      };
    return RunnerServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static RunnerServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunnerServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunnerServiceBlockingV2Stub>() {
        @java.lang.Override
        public RunnerServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunnerServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return RunnerServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static RunnerServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunnerServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunnerServiceBlockingStub>() {
        @java.lang.Override
        public RunnerServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunnerServiceBlockingStub(channel, callOptions);
        }
      };
    return RunnerServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static RunnerServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<RunnerServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<RunnerServiceFutureStub>() {
        @java.lang.Override
        public RunnerServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new RunnerServiceFutureStub(channel, callOptions);
        }
      };
    return RunnerServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * RunnerService runs agents.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * Run runs one invocation and streams its events as the engine yields them
     * (partial events included in SSE mode). Tools that live in a client are
     * not available on this call. A failed run ends the stream with a status.
     * </pre>
     */
    default void run(dev.agentsvc.v1.RunRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.RunResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getRunMethod(), responseObserver);
    }

    /**
     * <pre>
     * Connect runs one invocation whose tools and callbacks may live in the
     * client: the client opens with StartRun, the server streams events,
     * ToolCalls and CallbackCalls, the client answers each ToolCall with a
     * ToolResult and each CallbackCall with a CallbackResult, and the server
     * ends with RunDone after the last event of a successful run.
     * </pre>
     */
    default io.grpc.stub.StreamObserver<dev.agentsvc.v1.ConnectRequest> connect(
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ConnectResponse> responseObserver) {
      return io.grpc.stub.ServerCalls.asyncUnimplementedStreamingCall(getConnectMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service RunnerService.
   * <pre>
   * RunnerService runs agents.
   * </pre>
   */
  public static abstract class RunnerServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return RunnerServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service RunnerService.
   * <pre>
   * RunnerService runs agents.
   * </pre>
   */
  public static final class RunnerServiceStub
      extends io.grpc.stub.AbstractAsyncStub<RunnerServiceStub> {
    private RunnerServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunnerServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunnerServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * Run runs one invocation and streams its events as the engine yields them
     * (partial events included in SSE mode). Tools that live in a client are
     * not available on this call. A failed run ends the stream with a status.
     * </pre>
     */
    public void run(dev.agentsvc.v1.RunRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.RunResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncServerStreamingCall(
          getChannel().newCall(getRunMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * Connect runs one invocation whose tools and callbacks may live in the
     * client: the client opens with StartRun, the server streams events,
     * ToolCalls and CallbackCalls, the client answers each ToolCall with a
     * ToolResult and each CallbackCall with a CallbackResult, and the server
     * ends with RunDone after the last event of a successful run.
     * </pre>
     */
    public io.grpc.stub.StreamObserver<dev.agentsvc.v1.ConnectRequest> connect(
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ConnectResponse> responseObserver) {
      return io.grpc.stub.ClientCalls.asyncBidiStreamingCall(
          getChannel().newCall(getConnectMethod(), getCallOptions()), responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service RunnerService.
   * <pre>
   * RunnerService runs agents.
   * </pre>
   */
  public static final class RunnerServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<RunnerServiceBlockingV2Stub> {
    private RunnerServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunnerServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunnerServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * Run runs one invocation and streams its events as the engine yields them
     * (partial events included in SSE mode). Tools that live in a client are
     * not available on this call. A failed run ends the stream with a status.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<?, dev.agentsvc.v1.RunResponse>
        run(dev.agentsvc.v1.RunRequest request) {
      return io.grpc.stub.ClientCalls.blockingV2ServerStreamingCall(
          getChannel(), getRunMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * Connect runs one invocation whose tools and callbacks may live in the
     * client: the client opens with StartRun, the server streams events,
     * ToolCalls and CallbackCalls, the client answers each ToolCall with a
     * ToolResult and each CallbackCall with a CallbackResult, and the server
     * ends with RunDone after the last event of a successful run.
     * </pre>
     */
    @io.grpc.ExperimentalApi("https://github.com/grpc/grpc-java/issues/10918")
    public io.grpc.stub.BlockingClientCall<dev.agentsvc.v1.ConnectRequest, dev.agentsvc.v1.ConnectResponse>
        connect() {
      return io.grpc.stub.ClientCalls.blockingBidiStreamingCall(
          getChannel(), getConnectMethod(), getCallOptions());
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service RunnerService.
   * <pre>
   * RunnerService runs agents.
   * </pre>
   */
  public static final class RunnerServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<RunnerServiceBlockingStub> {
    private RunnerServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunnerServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunnerServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * Run runs one invocation and streams its events as the engine yields them
     * (partial events included in SSE mode). Tools that live in a client are
     * not available on this call. A failed run ends the stream with a status.
     * </pre>
     */
    public java.util.Iterator<dev.agentsvc.v1.RunResponse> run(
        dev.agentsvc.v1.RunRequest request) {
      return io.grpc.stub.ClientCalls.blockingServerStreamingCall(
          getChannel(), getRunMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service RunnerService.
   * <pre>
   * RunnerService runs agents.
   * </pre>
   */
  public static final class RunnerServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<RunnerServiceFutureStub> {
    private RunnerServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected RunnerServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new RunnerServiceFutureStub(channel, callOptions);
    }
  }

  private static final int METHODID_RUN = 0;
  private static final int METHODID_CONNECT = 1;

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
        case METHODID_RUN:
          serviceImpl.run((dev.agentsvc.v1.RunRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.RunResponse>) responseObserver);
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
        case METHODID_CONNECT:
          return (io.grpc.stub.StreamObserver<Req>) serviceImpl.connect(
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.ConnectResponse>) responseObserver);
        default:
          throw new AssertionError();
      }
    }
  }

  public static final io.grpc.ServerServiceDefinition bindService(AsyncService service) {
    return io.grpc.ServerServiceDefinition.builder(getServiceDescriptor())
        .addMethod(
          getRunMethod(),
          io.grpc.stub.ServerCalls.asyncServerStreamingCall(
            new MethodHandlers<
              dev.agentsvc.v1.RunRequest,
              dev.agentsvc.v1.RunResponse>(
                service, METHODID_RUN)))
        .addMethod(
          getConnectMethod(),
          io.grpc.stub.ServerCalls.asyncBidiStreamingCall(
            new MethodHandlers<
              dev.agentsvc.v1.ConnectRequest,
              dev.agentsvc.v1.ConnectResponse>(
                service, METHODID_CONNECT)))
        .build();
  }

  private static abstract class RunnerServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    RunnerServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.agentsvc.v1.RunnerServiceOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("RunnerService");
    }
  }

  private static final class RunnerServiceFileDescriptorSupplier
      extends RunnerServiceBaseDescriptorSupplier {
    RunnerServiceFileDescriptorSupplier() {}
  }

  private static final class RunnerServiceMethodDescriptorSupplier
      extends RunnerServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    RunnerServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (RunnerServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new RunnerServiceFileDescriptorSupplier())
              .addMethod(getRunMethod())
              .addMethod(getConnectMethod())
              .build();
        }
      }
    }
    return result;
  }
}
