package server

import (
	"context"
	"crypto/x509"
	"errors"
	"log/slog"
	"net/http"
	"strings"

	gwruntime "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/server/devui"
)

// AuthOptions returns the interceptors that authenticate every gRPC call
// with a, on every service but health and reflection, and put the caller's
// identity in the call's context. A call that fails is UNAUTHENTICATED, with
// the [auth.Error]'s reason in its ErrorInfo and nothing more about why.
// Nil a returns no options. The server authorises what an identity may do:
// give it the same authenticator in [Config.Authenticator].
func AuthOptions(a *auth.Authenticator, log *slog.Logger) []grpc.ServerOption {
	if a == nil {
		return nil
	}
	if log == nil {
		log = slog.Default()
	}
	i := authInterceptor{a: a, log: log}
	return []grpc.ServerOption{grpc.ChainUnaryInterceptor(i.unary), grpc.ChainStreamInterceptor(i.stream)}
}

type authInterceptor struct {
	a   *auth.Authenticator
	log *slog.Logger
}

// openMethod reports whether a gRPC method is served without
// authentication: health checks and reflection.
func openMethod(fullMethod string) bool {
	return strings.HasPrefix(fullMethod, "/grpc.health.v1.Health/") ||
		strings.HasPrefix(fullMethod, "/grpc.reflection.v1.ServerReflection/") ||
		strings.HasPrefix(fullMethod, "/grpc.reflection.v1alpha.ServerReflection/")
}

func (i authInterceptor) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if openMethod(info.FullMethod) {
		return handler(ctx, req)
	}
	ctx, err := i.authenticate(ctx)
	if err != nil {
		return nil, err
	}
	return handler(ctx, req)
}

func (i authInterceptor) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if openMethod(info.FullMethod) {
		return handler(srv, ss)
	}
	ctx, err := i.authenticate(ss.Context())
	if err != nil {
		return err
	}
	return handler(srv, &identityStream{ServerStream: ss, ctx: ctx})
}

// authenticate returns ctx with the identity of the call's token or
// client certificate.
func (i authInterceptor) authenticate(ctx context.Context) (context.Context, error) {
	var chains [][]*x509.Certificate
	if p, ok := peer.FromContext(ctx); ok {
		if ti, ok := p.AuthInfo.(credentials.TLSInfo); ok {
			chains = ti.State.VerifiedChains
		}
	}
	id, err := i.a.Authenticate(ctx, metadata.ValueFromIncomingContext(ctx, "authorization"), chains)
	if err != nil {
		return ctx, authStatus(ctx, i.log, err)
	}
	return auth.WithIdentity(ctx, id), nil
}

// identityStream is a server stream whose context carries the caller's
// identity.
type identityStream struct {
	grpc.ServerStream
	ctx context.Context //nolint:containedctx // a stream interceptor replaces a stream's context by wrapping it.
}

func (s *identityStream) Context() context.Context { return s.ctx }

// authStatus is the UNAUTHENTICATED status of a refused authentication: its
// reason and a message that says no more than that. Why it was refused is
// logged at debug level.
func authStatus(ctx context.Context, log *slog.Logger, err error) error {
	log.DebugContext(ctx, "authentication refused", "err", err)
	reason, msg := auth.ReasonUnauthenticated, "authentication required"
	if ae := (*auth.Error)(nil); errors.As(err, &ae) {
		reason, msg = ae.Reason, ae.Message
	}
	return statusError(codes.Unauthenticated, reason, msg)
}

// openPath reports whether a REST path is served without authentication.
func openPath(path string) bool {
	return path == "/health" || path == "/openapi.json" || path == "/metrics"
}

// authenticateHTTP returns r with the identity of its bearer token or
// client certificate in its context; a refused request is answered 401
// with WWW-Authenticate: Bearer.
func (g *guard) authenticateHTTP(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	if g.authn == nil || openPath(r.URL.Path) || g.cfg.devUI != nil && devui.OpenPath(r.URL.Path) ||
		g.cfg.a2a && r.Method == http.MethodGet && isA2ACardPath(r.URL.Path) {
		return r, true
	}
	var chains [][]*x509.Certificate
	if r.TLS != nil {
		chains = r.TLS.VerifiedChains
	}
	id, err := g.authn.Authenticate(r.Context(), r.Header.Values("Authorization"), chains)
	if err != nil {
		challenge := `Bearer realm="agentsvc"`
		if ae := (*auth.Error)(nil); errors.As(err, &ae) && ae.Reason != auth.ReasonUnauthenticated {
			challenge += `, error="invalid_token"`
		}
		g.fail(&challengeWriter{ResponseWriter: w, challenge: challenge}, r,
			&gwruntime.HTTPStatusError{HTTPStatus: http.StatusUnauthorized, Err: authStatus(r.Context(), g.log, err)})
		return r, false
	}
	return r.WithContext(auth.WithIdentity(r.Context(), id)), true
}

// challengeWriter answers with its WWW-Authenticate challenge in place of
// the one grpc-gateway sets, which is the status message.
type challengeWriter struct {
	http.ResponseWriter
	challenge string
}

func (w *challengeWriter) WriteHeader(code int) {
	w.Header().Set("WWW-Authenticate", w.challenge)
	w.ResponseWriter.WriteHeader(code)
}
