package server

import (
	"context"
	"log/slog"
	"runtime/debug"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// RecoveryOptions returns interceptors that turn a panic in a gRPC handler
// into an INTERNAL status for that call, logged with its stack, so that one
// request cannot end the process and every other caller's invocation with
// it. (net/http already does this for the REST routes.) Put them after
// [DecodeOptions].
func RecoveryOptions(log *slog.Logger) []grpc.ServerOption {
	if log == nil {
		log = slog.Default()
	}
	r := recoverer{log: log}
	return []grpc.ServerOption{grpc.ChainUnaryInterceptor(r.unary), grpc.ChainStreamInterceptor(r.stream)}
}

type recoverer struct{ log *slog.Logger }

func (r recoverer) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (_ any, err error) {
	defer r.recover(ctx, info.FullMethod, &err)
	return handler(ctx, req)
}

func (r recoverer) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
	defer r.recover(ss.Context(), info.FullMethod, &err)
	return handler(srv, ss)
}

// recover, deferred, sets *err to INTERNAL when the call panicked.
func (r recoverer) recover(ctx context.Context, method string, err *error) {
	p := recover()
	if p == nil {
		return
	}
	r.log.ErrorContext(ctx, "handler panicked", "method", method, "panic", p, "stack", string(debug.Stack()))
	*err = statusError(codes.Internal, v1.ErrorReason_INTERNAL.String(), "internal error")
}
