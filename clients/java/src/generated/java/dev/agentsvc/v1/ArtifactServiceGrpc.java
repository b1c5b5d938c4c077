package dev.agentsvc.v1;

import static io.grpc.MethodDescriptor.generateFullMethodName;

/**
 * <pre>
 * ArtifactService reads and writes the versioned files (artifacts) of a
 * session, and of its user under names starting "user:", as ADK's artifact
 * services do; its REST routes are ADK's API server's.
 * </pre>
 */
@io.grpc.stub.annotations.GrpcGenerated
public final class ArtifactServiceGrpc {

  private ArtifactServiceGrpc() {}

  public static final java.lang.String SERVICE_NAME = "agentsvc.v1.ArtifactService";

  // Static method descriptors that strictly reflect the proto.
  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.ListArtifactKeysRequest,
      dev.agentsvc.v1.ListArtifactKeysResponse> getListArtifactKeysMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListArtifactKeys",
      requestType = dev.agentsvc.v1.ListArtifactKeysRequest.class,
      responseType = dev.agentsvc.v1.ListArtifactKeysResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.ListArtifactKeysRequest,
      dev.agentsvc.v1.ListArtifactKeysResponse> getListArtifactKeysMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.ListArtifactKeysRequest, dev.agentsvc.v1.ListArtifactKeysResponse> getListArtifactKeysMethod;
    if ((getListArtifactKeysMethod = ArtifactServiceGrpc.getListArtifactKeysMethod) == null) {
      synchronized (ArtifactServiceGrpc.class) {
        if ((getListArtifactKeysMethod = ArtifactServiceGrpc.getListArtifactKeysMethod) == null) {
          ArtifactServiceGrpc.getListArtifactKeysMethod = getListArtifactKeysMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.ListArtifactKeysRequest, dev.agentsvc.v1.ListArtifactKeysResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListArtifactKeys"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListArtifactKeysRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListArtifactKeysResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ArtifactServiceMethodDescriptorSupplier("ListArtifactKeys"))
              .build();
        }
      }
    }
    return getListArtifactKeysMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.LoadArtifactRequest,
      dev.agentsvc.v1.LoadArtifactResponse> getLoadArtifactMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "LoadArtifact",
      requestType = dev.agentsvc.v1.LoadArtifactRequest.class,
      responseType = dev.agentsvc.v1.LoadArtifactResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.LoadArtifactRequest,
      dev.agentsvc.v1.LoadArtifactResponse> getLoadArtifactMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.LoadArtifactRequest, dev.agentsvc.v1.LoadArtifactResponse> getLoadArtifactMethod;
    if ((getLoadArtifactMethod = ArtifactServiceGrpc.getLoadArtifactMethod) == null) {
      synchronized (ArtifactServiceGrpc.class) {
        if ((getLoadArtifactMethod = ArtifactServiceGrpc.getLoadArtifactMethod) == null) {
          ArtifactServiceGrpc.getLoadArtifactMethod = getLoadArtifactMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.LoadArtifactRequest, dev.agentsvc.v1.LoadArtifactResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "LoadArtifact"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.LoadArtifactRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.LoadArtifactResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ArtifactServiceMethodDescriptorSupplier("LoadArtifact"))
              .build();
        }
      }
    }
    return getLoadArtifactMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.ListArtifactVersionsRequest,
      dev.agentsvc.v1.ListArtifactVersionsResponse> getListArtifactVersionsMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListArtifactVersions",
      requestType = dev.agentsvc.v1.ListArtifactVersionsRequest.class,
      responseType = dev.agentsvc.v1.ListArtifactVersionsResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.ListArtifactVersionsRequest,
      dev.agentsvc.v1.ListArtifactVersionsResponse> getListArtifactVersionsMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.ListArtifactVersionsRequest, dev.agentsvc.v1.ListArtifactVersionsResponse> getListArtifactVersionsMethod;
    if ((getListArtifactVersionsMethod = ArtifactServiceGrpc.getListArtifactVersionsMethod) == null) {
      synchronized (ArtifactServiceGrpc.class) {
        if ((getListArtifactVersionsMethod = ArtifactServiceGrpc.getListArtifactVersionsMethod) == null) {
          ArtifactServiceGrpc.getListArtifactVersionsMethod = getListArtifactVersionsMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.ListArtifactVersionsRequest, dev.agentsvc.v1.ListArtifactVersionsResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListArtifactVersions"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListArtifactVersionsRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListArtifactVersionsResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ArtifactServiceMethodDescriptorSupplier("ListArtifactVersions"))
              .build();
        }
      }
    }
    return getListArtifactVersionsMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.ListArtifactVersionsMetadataRequest,
      dev.agentsvc.v1.ListArtifactVersionsMetadataResponse> getListArtifactVersionsMetadataMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "ListArtifactVersionsMetadata",
      requestType = dev.agentsvc.v1.ListArtifactVersionsMetadataRequest.class,
      responseType = dev.agentsvc.v1.ListArtifactVersionsMetadataResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.ListArtifactVersionsMetadataRequest,
      dev.agentsvc.v1.ListArtifactVersionsMetadataResponse> getListArtifactVersionsMetadataMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.ListArtifactVersionsMetadataRequest, dev.agentsvc.v1.ListArtifactVersionsMetadataResponse> getListArtifactVersionsMetadataMethod;
    if ((getListArtifactVersionsMetadataMethod = ArtifactServiceGrpc.getListArtifactVersionsMetadataMethod) == null) {
      synchronized (ArtifactServiceGrpc.class) {
        if ((getListArtifactVersionsMetadataMethod = ArtifactServiceGrpc.getListArtifactVersionsMetadataMethod) == null) {
          ArtifactServiceGrpc.getListArtifactVersionsMetadataMethod = getListArtifactVersionsMetadataMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.ListArtifactVersionsMetadataRequest, dev.agentsvc.v1.ListArtifactVersionsMetadataResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "ListArtifactVersionsMetadata"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListArtifactVersionsMetadataRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.ListArtifactVersionsMetadataResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ArtifactServiceMethodDescriptorSupplier("ListArtifactVersionsMetadata"))
              .build();
        }
      }
    }
    return getListArtifactVersionsMetadataMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.GetArtifactVersionRequest,
      dev.agentsvc.v1.GetArtifactVersionResponse> getGetArtifactVersionMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "GetArtifactVersion",
      requestType = dev.agentsvc.v1.GetArtifactVersionRequest.class,
      responseType = dev.agentsvc.v1.GetArtifactVersionResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.GetArtifactVersionRequest,
      dev.agentsvc.v1.GetArtifactVersionResponse> getGetArtifactVersionMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.GetArtifactVersionRequest, dev.agentsvc.v1.GetArtifactVersionResponse> getGetArtifactVersionMethod;
    if ((getGetArtifactVersionMethod = ArtifactServiceGrpc.getGetArtifactVersionMethod) == null) {
      synchronized (ArtifactServiceGrpc.class) {
        if ((getGetArtifactVersionMethod = ArtifactServiceGrpc.getGetArtifactVersionMethod) == null) {
          ArtifactServiceGrpc.getGetArtifactVersionMethod = getGetArtifactVersionMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.GetArtifactVersionRequest, dev.agentsvc.v1.GetArtifactVersionResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "GetArtifactVersion"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.GetArtifactVersionRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.GetArtifactVersionResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ArtifactServiceMethodDescriptorSupplier("GetArtifactVersion"))
              .build();
        }
      }
    }
    return getGetArtifactVersionMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.SaveArtifactRequest,
      dev.agentsvc.v1.SaveArtifactResponse> getSaveArtifactMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "SaveArtifact",
      requestType = dev.agentsvc.v1.SaveArtifactRequest.class,
      responseType = dev.agentsvc.v1.SaveArtifactResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.SaveArtifactRequest,
      dev.agentsvc.v1.SaveArtifactResponse> getSaveArtifactMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.SaveArtifactRequest, dev.agentsvc.v1.SaveArtifactResponse> getSaveArtifactMethod;
    if ((getSaveArtifactMethod = ArtifactServiceGrpc.getSaveArtifactMethod) == null) {
      synchronized (ArtifactServiceGrpc.class) {
        if ((getSaveArtifactMethod = ArtifactServiceGrpc.getSaveArtifactMethod) == null) {
          ArtifactServiceGrpc.getSaveArtifactMethod = getSaveArtifactMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.SaveArtifactRequest, dev.agentsvc.v1.SaveArtifactResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "SaveArtifact"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.SaveArtifactRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.SaveArtifactResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ArtifactServiceMethodDescriptorSupplier("SaveArtifact"))
              .build();
        }
      }
    }
    return getSaveArtifactMethod;
  }

  private static volatile io.grpc.MethodDescriptor<dev.agentsvc.v1.DeleteArtifactRequest,
      dev.agentsvc.v1.DeleteArtifactResponse> getDeleteArtifactMethod;

  @io.grpc.stub.annotations.RpcMethod(
      fullMethodName = SERVICE_NAME + '/' + "DeleteArtifact",
      requestType = dev.agentsvc.v1.DeleteArtifactRequest.class,
      responseType = dev.agentsvc.v1.DeleteArtifactResponse.class,
      methodType = io.grpc.MethodDescriptor.MethodType.UNARY)
  public static io.grpc.MethodDescriptor<dev.agentsvc.v1.DeleteArtifactRequest,
      dev.agentsvc.v1.DeleteArtifactResponse> getDeleteArtifactMethod() {
    io.grpc.MethodDescriptor<dev.agentsvc.v1.DeleteArtifactRequest, dev.agentsvc.v1.DeleteArtifactResponse> getDeleteArtifactMethod;
    if ((getDeleteArtifactMethod = ArtifactServiceGrpc.getDeleteArtifactMethod) == null) {
      synchronized (ArtifactServiceGrpc.class) {
        if ((getDeleteArtifactMethod = ArtifactServiceGrpc.getDeleteArtifactMethod) == null) {
          ArtifactServiceGrpc.getDeleteArtifactMethod = getDeleteArtifactMethod =
              io.grpc.MethodDescriptor.<dev.agentsvc.v1.DeleteArtifactRequest, dev.agentsvc.v1.DeleteArtifactResponse>newBuilder()
              .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
              .setFullMethodName(generateFullMethodName(SERVICE_NAME, "DeleteArtifact"))
              .setSampledToLocalTracing(true)
              .setRequestMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.DeleteArtifactRequest.getDefaultInstance()))
              .setResponseMarshaller(io.grpc.protobuf.ProtoUtils.marshaller(
                  dev.agentsvc.v1.DeleteArtifactResponse.getDefaultInstance()))
              .setSchemaDescriptor(new ArtifactServiceMethodDescriptorSupplier("DeleteArtifact"))
              .build();
        }
      }
    }
    return getDeleteArtifactMethod;
  }

  /**
   * Creates a new async stub that supports all call types for the service
   */
  public static ArtifactServiceStub newStub(io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ArtifactServiceStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ArtifactServiceStub>() {
        @java.lang.Override
        public ArtifactServiceStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ArtifactServiceStub(channel, callOptions);
        }
      };
    return ArtifactServiceStub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports all types of calls on the service
   */
  public static ArtifactServiceBlockingV2Stub newBlockingV2Stub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ArtifactServiceBlockingV2Stub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ArtifactServiceBlockingV2Stub>() {
        @java.lang.Override
        public ArtifactServiceBlockingV2Stub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ArtifactServiceBlockingV2Stub(channel, callOptions);
        }
      };
    return ArtifactServiceBlockingV2Stub.newStub(factory, channel);
  }

  /**
   * Creates a new blocking-style stub that supports unary and streaming output calls on the service
   */
  public static ArtifactServiceBlockingStub newBlockingStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ArtifactServiceBlockingStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ArtifactServiceBlockingStub>() {
        @java.lang.Override
        public ArtifactServiceBlockingStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ArtifactServiceBlockingStub(channel, callOptions);
        }
      };
    return ArtifactServiceBlockingStub.newStub(factory, channel);
  }

  /**
   * Creates a new ListenableFuture-style stub that supports unary calls on the service
   */
  public static ArtifactServiceFutureStub newFutureStub(
      io.grpc.Channel channel) {
    io.grpc.stub.AbstractStub.StubFactory<ArtifactServiceFutureStub> factory =
      new io.grpc.stub.AbstractStub.StubFactory<ArtifactServiceFutureStub>() {
        @java.lang.Override
        public ArtifactServiceFutureStub newStub(io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
          return new ArtifactServiceFutureStub(channel, callOptions);
        }
      };
    return ArtifactServiceFutureStub.newStub(factory, channel);
  }

  /**
   * <pre>
   * ArtifactService reads and writes the versioned files (artifacts) of a
   * session, and of its user under names starting "user:", as ADK's artifact
   * services do; its REST routes are ADK's API server's.
   * </pre>
   */
  public interface AsyncService {

    /**
     * <pre>
     * ListArtifactKeys lists the names of the session's artifacts and the
     * user's, sorted.
     * </pre>
     */
    default void listArtifactKeys(dev.agentsvc.v1.ListArtifactKeysRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListArtifactKeysResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListArtifactKeysMethod(), responseObserver);
    }

    /**
     * <pre>
     * LoadArtifact returns an artifact's latest version, or the version
     * asked for; NOT_FOUND when there is none.
     * </pre>
     */
    default void loadArtifact(dev.agentsvc.v1.LoadArtifactRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.LoadArtifactResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getLoadArtifactMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListArtifactVersions lists an artifact's version numbers.
     * </pre>
     */
    default void listArtifactVersions(dev.agentsvc.v1.ListArtifactVersionsRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListArtifactVersionsResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListArtifactVersionsMethod(), responseObserver);
    }

    /**
     * <pre>
     * ListArtifactVersionsMetadata describes each version of an artifact.
     * </pre>
     */
    default void listArtifactVersionsMetadata(dev.agentsvc.v1.ListArtifactVersionsMetadataRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListArtifactVersionsMetadataResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getListArtifactVersionsMetadataMethod(), responseObserver);
    }

    /**
     * <pre>
     * GetArtifactVersion describes one version of an artifact.
     * </pre>
     */
    default void getArtifactVersion(dev.agentsvc.v1.GetArtifactVersionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.GetArtifactVersionResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getGetArtifactVersionMethod(), responseObserver);
    }

    /**
     * <pre>
     * SaveArtifact stores a new version of an artifact and describes it.
     * </pre>
     */
    default void saveArtifact(dev.agentsvc.v1.SaveArtifactRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.SaveArtifactResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getSaveArtifactMethod(), responseObserver);
    }

    /**
     * <pre>
     * DeleteArtifact deletes every version of an artifact; deleting a
     * missing one is not an error.
     * </pre>
     */
    default void deleteArtifact(dev.agentsvc.v1.DeleteArtifactRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.DeleteArtifactResponse> responseObserver) {
      io.grpc.stub.ServerCalls.asyncUnimplementedUnaryCall(getDeleteArtifactMethod(), responseObserver);
    }
  }

  /**
   * Base class for the server implementation of the service ArtifactService.
   * <pre>
   * ArtifactService reads and writes the versioned files (artifacts) of a
   * session, and of its user under names starting "user:", as ADK's artifact
   * services do; its REST routes are ADK's API server's.
   * </pre>
   */
  public static abstract class ArtifactServiceImplBase
      implements io.grpc.BindableService, AsyncService {

    @java.lang.Override public final io.grpc.ServerServiceDefinition bindService() {
      return ArtifactServiceGrpc.bindService(this);
    }
  }

  /**
   * A stub to allow clients to do asynchronous rpc calls to service ArtifactService.
   * <pre>
   * ArtifactService reads and writes the versioned files (artifacts) of a
   * session, and of its user under names starting "user:", as ADK's artifact
   * services do; its REST routes are ADK's API server's.
   * </pre>
   */
  public static final class ArtifactServiceStub
      extends io.grpc.stub.AbstractAsyncStub<ArtifactServiceStub> {
    private ArtifactServiceStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ArtifactServiceStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ArtifactServiceStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListArtifactKeys lists the names of the session's artifacts and the
     * user's, sorted.
     * </pre>
     */
    public void listArtifactKeys(dev.agentsvc.v1.ListArtifactKeysRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListArtifactKeysResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListArtifactKeysMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * LoadArtifact returns an artifact's latest version, or the version
     * asked for; NOT_FOUND when there is none.
     * </pre>
     */
    public void loadArtifact(dev.agentsvc.v1.LoadArtifactRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.LoadArtifactResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getLoadArtifactMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListArtifactVersions lists an artifact's version numbers.
     * </pre>
     */
    public void listArtifactVersions(dev.agentsvc.v1.ListArtifactVersionsRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListArtifactVersionsResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListArtifactVersionsMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * ListArtifactVersionsMetadata describes each version of an artifact.
     * </pre>
     */
    public void listArtifactVersionsMetadata(dev.agentsvc.v1.ListArtifactVersionsMetadataRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListArtifactVersionsMetadataResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getListArtifactVersionsMetadataMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * GetArtifactVersion describes one version of an artifact.
     * </pre>
     */
    public void getArtifactVersion(dev.agentsvc.v1.GetArtifactVersionRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.GetArtifactVersionResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getGetArtifactVersionMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * SaveArtifact stores a new version of an artifact and describes it.
     * </pre>
     */
    public void saveArtifact(dev.agentsvc.v1.SaveArtifactRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.SaveArtifactResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getSaveArtifactMethod(), getCallOptions()), request, responseObserver);
    }

    /**
     * <pre>
     * DeleteArtifact deletes every version of an artifact; deleting a
     * missing one is not an error.
     * </pre>
     */
    public void deleteArtifact(dev.agentsvc.v1.DeleteArtifactRequest request,
        io.grpc.stub.StreamObserver<dev.agentsvc.v1.DeleteArtifactResponse> responseObserver) {
      io.grpc.stub.ClientCalls.asyncUnaryCall(
          getChannel().newCall(getDeleteArtifactMethod(), getCallOptions()), request, responseObserver);
    }
  }

  /**
   * A stub to allow clients to do synchronous rpc calls to service ArtifactService.
   * <pre>
   * ArtifactService reads and writes the versioned files (artifacts) of a
   * session, and of its user under names starting "user:", as ADK's artifact
   * services do; its REST routes are ADK's API server's.
   * </pre>
   */
  public static final class ArtifactServiceBlockingV2Stub
      extends io.grpc.stub.AbstractBlockingStub<ArtifactServiceBlockingV2Stub> {
    private ArtifactServiceBlockingV2Stub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ArtifactServiceBlockingV2Stub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ArtifactServiceBlockingV2Stub(channel, callOptions);
    }

    /**
     * <pre>
     * ListArtifactKeys lists the names of the session's artifacts and the
     * user's, sorted.
     * </pre>
     */
    public dev.agentsvc.v1.ListArtifactKeysResponse listArtifactKeys(dev.agentsvc.v1.ListArtifactKeysRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListArtifactKeysMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * LoadArtifact returns an artifact's latest version, or the version
     * asked for; NOT_FOUND when there is none.
     * </pre>
     */
    public dev.agentsvc.v1.LoadArtifactResponse loadArtifact(dev.agentsvc.v1.LoadArtifactRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getLoadArtifactMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListArtifactVersions lists an artifact's version numbers.
     * </pre>
     */
    public dev.agentsvc.v1.ListArtifactVersionsResponse listArtifactVersions(dev.agentsvc.v1.ListArtifactVersionsRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListArtifactVersionsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListArtifactVersionsMetadata describes each version of an artifact.
     * </pre>
     */
    public dev.agentsvc.v1.ListArtifactVersionsMetadataResponse listArtifactVersionsMetadata(dev.agentsvc.v1.ListArtifactVersionsMetadataRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getListArtifactVersionsMetadataMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetArtifactVersion describes one version of an artifact.
     * </pre>
     */
    public dev.agentsvc.v1.GetArtifactVersionResponse getArtifactVersion(dev.agentsvc.v1.GetArtifactVersionRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getGetArtifactVersionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SaveArtifact stores a new version of an artifact and describes it.
     * </pre>
     */
    public dev.agentsvc.v1.SaveArtifactResponse saveArtifact(dev.agentsvc.v1.SaveArtifactRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getSaveArtifactMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteArtifact deletes every version of an artifact; deleting a
     * missing one is not an error.
     * </pre>
     */
    public dev.agentsvc.v1.DeleteArtifactResponse deleteArtifact(dev.agentsvc.v1.DeleteArtifactRequest request) throws io.grpc.StatusException {
      return io.grpc.stub.ClientCalls.blockingV2UnaryCall(
          getChannel(), getDeleteArtifactMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do limited synchronous rpc calls to service ArtifactService.
   * <pre>
   * ArtifactService reads and writes the versioned files (artifacts) of a
   * session, and of its user under names starting "user:", as ADK's artifact
   * services do; its REST routes are ADK's API server's.
   * </pre>
   */
  public static final class ArtifactServiceBlockingStub
      extends io.grpc.stub.AbstractBlockingStub<ArtifactServiceBlockingStub> {
    private ArtifactServiceBlockingStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ArtifactServiceBlockingStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ArtifactServiceBlockingStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListArtifactKeys lists the names of the session's artifacts and the
     * user's, sorted.
     * </pre>
     */
    public dev.agentsvc.v1.ListArtifactKeysResponse listArtifactKeys(dev.agentsvc.v1.ListArtifactKeysRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListArtifactKeysMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * LoadArtifact returns an artifact's latest version, or the version
     * asked for; NOT_FOUND when there is none.
     * </pre>
     */
    public dev.agentsvc.v1.LoadArtifactResponse loadArtifact(dev.agentsvc.v1.LoadArtifactRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getLoadArtifactMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListArtifactVersions lists an artifact's version numbers.
     * </pre>
     */
    public dev.agentsvc.v1.ListArtifactVersionsResponse listArtifactVersions(dev.agentsvc.v1.ListArtifactVersionsRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListArtifactVersionsMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * ListArtifactVersionsMetadata describes each version of an artifact.
     * </pre>
     */
    public dev.agentsvc.v1.ListArtifactVersionsMetadataResponse listArtifactVersionsMetadata(dev.agentsvc.v1.ListArtifactVersionsMetadataRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getListArtifactVersionsMetadataMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * GetArtifactVersion describes one version of an artifact.
     * </pre>
     */
    public dev.agentsvc.v1.GetArtifactVersionResponse getArtifactVersion(dev.agentsvc.v1.GetArtifactVersionRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getGetArtifactVersionMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * SaveArtifact stores a new version of an artifact and describes it.
     * </pre>
     */
    public dev.agentsvc.v1.SaveArtifactResponse saveArtifact(dev.agentsvc.v1.SaveArtifactRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getSaveArtifactMethod(), getCallOptions(), request);
    }

    /**
     * <pre>
     * DeleteArtifact deletes every version of an artifact; deleting a
     * missing one is not an error.
     * </pre>
     */
    public dev.agentsvc.v1.DeleteArtifactResponse deleteArtifact(dev.agentsvc.v1.DeleteArtifactRequest request) {
      return io.grpc.stub.ClientCalls.blockingUnaryCall(
          getChannel(), getDeleteArtifactMethod(), getCallOptions(), request);
    }
  }

  /**
   * A stub to allow clients to do ListenableFuture-style rpc calls to service ArtifactService.
   * <pre>
   * ArtifactService reads and writes the versioned files (artifacts) of a
   * session, and of its user under names starting "user:", as ADK's artifact
   * services do; its REST routes are ADK's API server's.
   * </pre>
   */
  public static final class ArtifactServiceFutureStub
      extends io.grpc.stub.AbstractFutureStub<ArtifactServiceFutureStub> {
    private ArtifactServiceFutureStub(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      super(channel, callOptions);
    }

    @java.lang.Override
    protected ArtifactServiceFutureStub build(
        io.grpc.Channel channel, io.grpc.CallOptions callOptions) {
      return new ArtifactServiceFutureStub(channel, callOptions);
    }

    /**
     * <pre>
     * ListArtifactKeys lists the names of the session's artifacts and the
     * user's, sorted.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.ListArtifactKeysResponse> listArtifactKeys(
        dev.agentsvc.v1.ListArtifactKeysRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListArtifactKeysMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * LoadArtifact returns an artifact's latest version, or the version
     * asked for; NOT_FOUND when there is none.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.LoadArtifactResponse> loadArtifact(
        dev.agentsvc.v1.LoadArtifactRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getLoadArtifactMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListArtifactVersions lists an artifact's version numbers.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.ListArtifactVersionsResponse> listArtifactVersions(
        dev.agentsvc.v1.ListArtifactVersionsRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListArtifactVersionsMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * ListArtifactVersionsMetadata describes each version of an artifact.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.ListArtifactVersionsMetadataResponse> listArtifactVersionsMetadata(
        dev.agentsvc.v1.ListArtifactVersionsMetadataRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getListArtifactVersionsMetadataMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * GetArtifactVersion describes one version of an artifact.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.GetArtifactVersionResponse> getArtifactVersion(
        dev.agentsvc.v1.GetArtifactVersionRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getGetArtifactVersionMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * SaveArtifact stores a new version of an artifact and describes it.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.SaveArtifactResponse> saveArtifact(
        dev.agentsvc.v1.SaveArtifactRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getSaveArtifactMethod(), getCallOptions()), request);
    }

    /**
     * <pre>
     * DeleteArtifact deletes every version of an artifact; deleting a
     * missing one is not an error.
     * </pre>
     */
    public com.google.common.util.concurrent.ListenableFuture<dev.agentsvc.v1.DeleteArtifactResponse> deleteArtifact(
        dev.agentsvc.v1.DeleteArtifactRequest request) {
      return io.grpc.stub.ClientCalls.futureUnaryCall(
          getChannel().newCall(getDeleteArtifactMethod(), getCallOptions()), request);
    }
  }

  private static final int METHODID_LIST_ARTIFACT_KEYS = 0;
  private static final int METHODID_LOAD_ARTIFACT = 1;
  private static final int METHODID_LIST_ARTIFACT_VERSIONS = 2;
  private static final int METHODID_LIST_ARTIFACT_VERSIONS_METADATA = 3;
  private static final int METHODID_GET_ARTIFACT_VERSION = 4;
  private static final int METHODID_SAVE_ARTIFACT = 5;
  private static final int METHODID_DELETE_ARTIFACT = 6;

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
        case METHODID_LIST_ARTIFACT_KEYS:
          serviceImpl.listArtifactKeys((dev.agentsvc.v1.ListArtifactKeysRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListArtifactKeysResponse>) responseObserver);
          break;
        case METHODID_LOAD_ARTIFACT:
          serviceImpl.loadArtifact((dev.agentsvc.v1.LoadArtifactRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.LoadArtifactResponse>) responseObserver);
          break;
        case METHODID_LIST_ARTIFACT_VERSIONS:
          serviceImpl.listArtifactVersions((dev.agentsvc.v1.ListArtifactVersionsRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListArtifactVersionsResponse>) responseObserver);
          break;
        case METHODID_LIST_ARTIFACT_VERSIONS_METADATA:
          serviceImpl.listArtifactVersionsMetadata((dev.agentsvc.v1.ListArtifactVersionsMetadataRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.ListArtifactVersionsMetadataResponse>) responseObserver);
          break;
        case METHODID_GET_ARTIFACT_VERSION:
          serviceImpl.getArtifactVersion((dev.agentsvc.v1.GetArtifactVersionRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.GetArtifactVersionResponse>) responseObserver);
          break;
        case METHODID_SAVE_ARTIFACT:
          serviceImpl.saveArtifact((dev.agentsvc.v1.SaveArtifactRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.SaveArtifactResponse>) responseObserver);
          break;
        case METHODID_DELETE_ARTIFACT:
          serviceImpl.deleteArtifact((dev.agentsvc.v1.DeleteArtifactRequest) request,
              (io.grpc.stub.StreamObserver<dev.agentsvc.v1.DeleteArtifactResponse>) responseObserver);
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
          getListArtifactKeysMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.ListArtifactKeysRequest,
              dev.agentsvc.v1.ListArtifactKeysResponse>(
                service, METHODID_LIST_ARTIFACT_KEYS)))
        .addMethod(
          getLoadArtifactMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.LoadArtifactRequest,
              dev.agentsvc.v1.LoadArtifactResponse>(
                service, METHODID_LOAD_ARTIFACT)))
        .addMethod(
          getListArtifactVersionsMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.ListArtifactVersionsRequest,
              dev.agentsvc.v1.ListArtifactVersionsResponse>(
                service, METHODID_LIST_ARTIFACT_VERSIONS)))
        .addMethod(
          getListArtifactVersionsMetadataMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.ListArtifactVersionsMetadataRequest,
              dev.agentsvc.v1.ListArtifactVersionsMetadataResponse>(
                service, METHODID_LIST_ARTIFACT_VERSIONS_METADATA)))
        .addMethod(
          getGetArtifactVersionMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.GetArtifactVersionRequest,
              dev.agentsvc.v1.GetArtifactVersionResponse>(
                service, METHODID_GET_ARTIFACT_VERSION)))
        .addMethod(
          getSaveArtifactMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.SaveArtifactRequest,
              dev.agentsvc.v1.SaveArtifactResponse>(
                service, METHODID_SAVE_ARTIFACT)))
        .addMethod(
          getDeleteArtifactMethod(),
          io.grpc.stub.ServerCalls.asyncUnaryCall(
            new MethodHandlers<
              dev.agentsvc.v1.DeleteArtifactRequest,
              dev.agentsvc.v1.DeleteArtifactResponse>(
                service, METHODID_DELETE_ARTIFACT)))
        .build();
  }

  private static abstract class ArtifactServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoFileDescriptorSupplier, io.grpc.protobuf.ProtoServiceDescriptorSupplier {
    ArtifactServiceBaseDescriptorSupplier() {}

    @java.lang.Override
    public com.google.protobuf.Descriptors.FileDescriptor getFileDescriptor() {
      return dev.agentsvc.v1.ArtifactServiceOuterClass.getDescriptor();
    }

    @java.lang.Override
    public com.google.protobuf.Descriptors.ServiceDescriptor getServiceDescriptor() {
      return getFileDescriptor().findServiceByName("ArtifactService");
    }
  }

  private static final class ArtifactServiceFileDescriptorSupplier
      extends ArtifactServiceBaseDescriptorSupplier {
    ArtifactServiceFileDescriptorSupplier() {}
  }

  private static final class ArtifactServiceMethodDescriptorSupplier
      extends ArtifactServiceBaseDescriptorSupplier
      implements io.grpc.protobuf.ProtoMethodDescriptorSupplier {
    private final java.lang.String methodName;

    ArtifactServiceMethodDescriptorSupplier(java.lang.String methodName) {
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
      synchronized (ArtifactServiceGrpc.class) {
        result = serviceDescriptor;
        if (result == null) {
          serviceDescriptor = result = io.grpc.ServiceDescriptor.newBuilder(SERVICE_NAME)
              .setSchemaDescriptor(new ArtifactServiceFileDescriptorSupplier())
              .addMethod(getListArtifactKeysMethod())
              .addMethod(getLoadArtifactMethod())
              .addMethod(getListArtifactVersionsMethod())
              .addMethod(getListArtifactVersionsMetadataMethod())
              .addMethod(getGetArtifactVersionMethod())
              .addMethod(getSaveArtifactMethod())
              .addMethod(getDeleteArtifactMethod())
              .build();
        }
      }
    }
    return result;
  }
}
