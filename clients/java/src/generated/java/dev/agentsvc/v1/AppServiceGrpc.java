package dev.agentsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * AppService describes the apps the service runs.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class AppServiceGrpc {

  private AppServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "agentsvc.v1.AppService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.ListAppsRequest,
      dev.agentsvc.v1.ListAppsResponse> getListAppsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListApps",
      requestType = dev.agentsvc.v1.ListAppsRequest.class,
      responseType = dev.agentsvc.v1.ListAppsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.ListAppsRequest,
      dev.agentsvc.v1.ListAppsResponse> getListAppsMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.ListAppsRequest, dev.agentsvc.v1.ListAppsResponse> getListAppsMethod;
    if ((getListAppsMethod = AppServiceGrpc.getListAppsMethod) == null) {
      synchronized (AppServiceGrpc.class) {
        if ((getListAppsMethod = AppServiceGrpc.getListAppsMethod) == null) {
          AppServiceGrpc.getListAppsMethod = getListAppsMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.ListAppsRequest, dev.agentsvc.v1.ListAppsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListApps"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListAppsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListAppsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AppServiceMethodDescriptorSupplier("ListApps"))
              .build();
        }
      }
    }
    return getListAppsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.GetAppRequest,
      dev.agentsvc.v1.GetAppResponse> getGetAppMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetApp",
      requestType = dev.agentsvc.v1.GetAppRequest.class,
      responseType = dev.agentsvc.v1.GetAppResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.GetAppRequest,
      dev.agentsvc.v1.GetAppResponse> getGetAppMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.GetAppRequest, dev.agentsvc.v1.GetAppResponse> getGetAppMethod;
    if ((getGetAppMethod = AppServiceGrpc.getGetAppMethod) == null) {
      synchronized (AppServiceGrpc.class) {
        if ((getGetAppMethod = AppServiceGrpc.getGetAppMethod) == null) {
          AppServiceGrpc.getGetAppMethod = getGetAppMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.GetAppRequest, dev.agentsvc.v1.GetAppResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetApp"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.GetAppRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.GetAppResponse.getDefaultInstance()))
              .setSchemaDescriptor(new AppServiceMethodDescriptorSupplier("GetApp"))
              .build();
        }
      }
    }
    return getGetAppMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static AppServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AppServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AppServiceStub>() {
        @java.lang.Override
        public AppServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AppServiceStub(channel, callOptions);
        }
      };
    return AppServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static AppServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AppServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AppServiceBlockingV2Stub>() {
        @java.lang.Override
        public AppServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AppServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return AppServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static AppServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AppServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AppServiceBlockingStub>() {
        @java.lang.Override
        public AppServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AppServiceBlockingStub(channel, callOptions);
        }
      };
    return AppServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static AppServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<AppServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<AppServiceFutureStub>() {
        @java.lang.Override
        public AppServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new AppServiceFutureStub(channel, callOptions);
        }
      };
    return AppServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * AppService describes the apps the service runs.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * ListApps returns the names of the apps, sorted.
     * </pre>
     */
    default void listApps(dev.agentsvc.v1.ListAppsRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListAppsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListAppsMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetApp returns an app's agent tree.
     * </pre>
     */
    default void getApp(dev.agentsvc.v1.GetAppRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.GetAppResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetAppMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service AppService.
   * <pre>
   * AppService describes the apps the service runs.
   * </pre>
   */
  public static abstract class AppServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return AppServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service AppService.
   * <pre>
   * AppService describes the apps the service runs.
   * </pre>
   */
  public static final class AppServiceStub
      extends io.grpc.stub.AbstractAsyncStub<AppServiceStub> {
    private AppServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AppServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AppServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListApps returns the names of the apps, sorted.
     * </pre>
     */
    public void listApps(dev.agentsvc.v1.ListAppsRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListAppsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListAppsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetApp returns an app's agent tree.
     * </pre>
     */
    public void getApp(dev.agentsvc.v1.GetAppRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.GetAppResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetAppMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service AppService.
   * <pre>
   * AppService describes the apps the service runs.
   * </pre>
   */
  public static final class AppServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<AppServiceBlockingV2Stub> {
    private AppServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AppServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AppServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * ListApps returns the names of the apps, sorted.
     * </pre>
     */
    public dev.agentsvc.v1.ListAppsResponse listApps(dev.agentsvc.v1.ListAppsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListAppsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetApp returns an app's agent tree.
     * </pre>
     */
    public dev.agentsvc.v1.GetAppResponse getApp(dev.agentsvc.v1.GetAppRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetAppMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service AppService.
   * <pre>
   * AppService describes the apps the service runs.
   * </pre>
   */
  public static final class AppServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<AppServiceBlockingStub> {
    private AppServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AppServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AppServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListApps returns the names of the apps, sorted.
     * </pre>
     */
    public dev.agentsvc.v1.ListAppsResponse listApps(dev.agentsvc.v1.ListAppsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListAppsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetApp returns an app's agent tree.
     * </pre>
     */
    public dev.agentsvc.v1.GetAppResponse getApp(dev.agentsvc.v1.GetAppRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetAppMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service AppService.
   * <pre>
   * AppService describes the apps the service runs.
   * </pre>
   */
  public static final class AppServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<AppServiceFutureStub> {
    private AppServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected AppServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new AppServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListApps returns the names of the apps, sorted.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.ListAppsResponse> listApps(
        dev.agentsvc.v1.ListAppsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListAppsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetApp returns an app's agent tree.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.GetAppResponse> getApp(
        dev.agentsvc.v1.GetAppRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetAppMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_LIST_APPS = 0;
  private static final int METHODID_GET_APP = 1;

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
        case METHODID_LIST_APPS:
          serviceImpl.listApps((dev.agentsvc.v1.ListAppsRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListAppsResponse>) responseObserver);
          break;
        case METHODID_GET_APP:
          serviceImpl.getApp((dev.agentsvc.v1.GetAppRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.GetAppResponse>) responseObserver);
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
          getListAppsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.ListAppsRequest,
              dev.agentsvc.v1.ListAppsResponse>(
                service, METHODID_LIST_APPS)))
        .addMethod(
          getGetAppMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.GetAppRequest,
              dev.agentsvc.v1.GetAppResponse>(
                service, METHODID_GET_APP)))
        .build();
  }

  private static abstract class AppServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    AppServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.agentsvc.v1.AppServiceOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("AppService");
    }
  }

  private static final class AppServiceFileDescriptorSupplier
      extends AppServiceBaseDescriptorSupplier {
    AppServiceFileDescriptorSupplier() {}
  }

  private static final class AppServiceMethodDescriptorSupplier
      extends AppServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    AppServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (AppServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new AppServiceFileDescriptorSupplier())
              .addMethod(getListAppsMethod())
              .addMethod(getGetAppMethod())
              .build();
        }
      }
    }
    return result;
  }
}
