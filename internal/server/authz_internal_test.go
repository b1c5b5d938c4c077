package server

import (
	"context"
	"log/slog"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/tlsconfig/tlstest"
)

// BenchmarkAuthInterceptor is the per-call cost of JWT authentication in
// the gRPC interceptor, for a client that sends the same token on every
// call (its key and its verification cached), and the cost of authorising
// the identity it yields.
func BenchmarkAuthInterceptor(b *testing.B) {
	key := authtest.NewKey(b, "k1")
	a, err := auth.New(b.Context(), auth.Config{JWT: true,
		JWKSFile: tlstest.WriteFile(b, b.TempDir(), "jwks.json", authtest.JWKS(b, key)),
		Issuer:   authtest.Issuer, Audience: authtest.Audience, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	i := authInterceptor{a: a, log: slog.New(slog.DiscardHandler)}
	s := &Server{authn: a}
	ctx := metadata.NewIncomingContext(b.Context(), metadata.Pairs("authorization", "Bearer "+key.Token(b, "alice", nil)))
	info := &grpc.UnaryServerInfo{FullMethod: "/agentsvc.v1.SessionService/GetSession"}
	handler := func(ctx context.Context, _ any) (any, error) { return nil, s.authorize(ctx, "alice") }
	b.ReportAllocs()
	for b.Loop() {
		if _, err := i.unary(ctx, nil, info, handler); err != nil {
			b.Fatal(err)
		}
	}
}
