package main

import (
	"log/slog"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/tlsconfig"
)

// maxStreamsPerConn bounds the concurrent streams of one gRPC connection
// (grpc-go allows any number by default), so that one connection cannot
// open streams without end. The load bench holds 10,000 Connect streams
// over 8 connections, 1,250 each; a client with more streams in flight on
// one connection waits for a free one rather than failing.
const maxStreamsPerConn = 4096

// newGRPCServer returns the gRPC server of svc, with gRPC health and
// reflection, and the health server that reports its readiness.
func newGRPCServer(o *options, svc *service, tlsr *tlsconfig.Reloader, tel *telemetry, log *slog.Logger) (*grpc.Server, *health.Server) {
	srv := svc.srv
	// The request ids and the audit come first, so that every interceptor
	// after them logs with the id and every refusal is audited; the
	// authentication after them puts the caller in the call's context.
	gs := grpc.NewServer(append(append(append(append(srv.RequestOptions(), srv.ReceiveOptions()...), server.RecoveryOptions(log)...), server.AuthOptions(svc.authn, log)...),
		grpcCreds(tlsr),
		grpc.MaxRecvMsgSize(o.maxRequestBytes),
		grpc.MaxSendMsgSize(server.DefaultMaxResponseBytes),
		grpc.MaxConcurrentStreams(maxStreamsPerConn),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second, PermitWithoutStream: true}),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: time.Minute, Timeout: 20 * time.Second}),
		tel.grpcOption(),
	)...)
	api.RegisterRunnerServiceServer(gs, srv)
	api.RegisterSessionServiceServer(gs, srv)
	api.RegisterAppServiceServer(gs, srv)
	api.RegisterArtifactServiceServer(gs, srv)
	healthSrv := health.NewServer()
	healthpb.RegisterHealthServer(gs, healthSrv)
	reflection.Register(gs)
	return gs, healthSrv
}
