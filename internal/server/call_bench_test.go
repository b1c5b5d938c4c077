package server

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// BenchmarkRequestCall is the cost the request interceptor adds to every
// unary call: a request id (the caller's, or a new one), the call in the
// context and, with the audit log on, one JSON line.
func BenchmarkRequestCall(b *testing.B) {
	req := &api.DeleteSessionRequest{AppName: "desk", UserId: "u1", SessionId: "s1"}
	info := &grpc.UnaryServerInfo{FullMethod: api.SessionService_DeleteSession_FullMethodName}
	handler := func(ctx context.Context, _ any) (any, error) {
		noteRequest(ctx, req)
		return nil, nil
	}
	for _, bc := range []struct {
		name  string
		id    string
		audit *slog.Logger
	}{
		{"generated_id", "", nil},
		{"caller_id", "req-0123456789", nil},
		{"caller_id_audited", "req-0123456789", slog.New(slog.NewJSONHandler(io.Discard, nil))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := &Server{audit: bc.audit}
			ctx := grpc.NewContextWithServerTransportStream(b.Context(), headerStream{})
			if bc.id != "" {
				ctx = metadata.NewIncomingContext(ctx, metadata.Pairs(RequestIDHeader, bc.id))
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = s.unaryCall(ctx, req, info, handler)
			}
		})
	}
}

// headerStream is a [grpc.ServerTransportStream] that drops what is set.
type headerStream struct{}

func (headerStream) Method() string                  { return "" }
func (headerStream) SetHeader(metadata.MD) error     { return nil }
func (headerStream) SendHeader(metadata.MD) error    { return nil }
func (headerStream) SetTrailer(md metadata.MD) error { return nil }
