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

// TestOpenEndpoints: only health and reflection (gRPC) and /health and
// /openapi.json (REST) are served without authentication.
func TestOpenEndpoints(t *testing.T) {
	t.Parallel()
	for method, open := range map[string]bool{
		"/grpc.health.v1.Health/Check":                                   true,
		"/grpc.health.v1.Health/Watch":                                   true,
		"/grpc.reflection.v1.ServerReflection/ServerReflectionInfo":      true,
		"/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo": true,
		"/agentsvc.v1.AppService/ListApps":                               false,
		"/agentsvc.v1.RunnerService/Connect":                             false,
		"/grpc.health.v1.HealthX/Check":                                  false,
		"/grpc.reflection.v1.ServerReflectionX/ServerReflectionInfo":     false,
		"/agentsvc.v1.SessionService/grpc.health.v1.Health/":             false,
	} {
		if openMethod(method) != open {
			t.Errorf("openMethod(%q) = %v, want %v", method, !open, open)
		}
	}
	for path, open := range map[string]bool{
		"/health": true, "/openapi.json": true, "/metrics": true,
		"/health/": false, "/list-apps": false, "/run": false, "//health": false, "/openapi.json/x": false,
	} {
		if openPath(path) != open {
			t.Errorf("openPath(%q) = %v, want %v", path, !open, open)
		}
	}
}
