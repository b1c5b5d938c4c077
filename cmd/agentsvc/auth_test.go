package main

import (
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/tlsconfig/tlstest"
)

func TestAuthFlags(t *testing.T) {
	t.Parallel()
	jwt := []string{"--auth", "jwt", "--jwks-url", "https://idp.test/jwks", "--jwt-issuer", "https://idp.test", "--jwt-audience", "agentsvc"}
	mtls := []string{"--tls-cert", "c.pem", "--tls-key", "k.pem", "--client-ca", "ca.pem"}
	for _, c := range []struct {
		args    []string
		wantErr string // "" for success
	}{
		{jwt, ""},
		{append([]string{"--grpc-addr", "0.0.0.0:50051", "--http-addr", ":8080"}, jwt...), ""},
		{[]string{"--grpc-addr", "0.0.0.0:50051", "--auth", "none"}, "not a loopback address"},
		{[]string{"--auth", "oidc"}, `--auth "oidc": use none or jwt`},
		{[]string{"--auth", "jwt", "--jwt-issuer", "i", "--jwt-audience", "a"}, "--auth jwt needs --jwks-url or --jwks-file"},
		{append(jwt, "--jwks-file", "jwks.json"), "--jwks-url and --jwks-file exclude each other"},
		{[]string{"--auth", "jwt", "--jwks-file", "f", "--jwt-audience", "a"}, "needs --jwt-issuer"},
		{[]string{"--auth", "jwt", "--jwks-file", "f", "--jwt-issuer", "i"}, "needs --jwt-audience"},
		{append(jwt, "--user-claim", ""), "--user-claim must not be empty"},
		{[]string{"--jwks-url", "https://idp.test/jwks"}, "need --auth jwt"},
		{[]string{"--admin-scope", "admin"}, "need --auth jwt"},
		{append(jwt, "--cert-identity", "spiffe"), "--cert-identity spiffe needs client certificates"},
		{append(mtls, "--cert-identity", "spiffe"), ""},
		{append(mtls, "--cert-identity", "subject", "--admin-identities", "ops,deploy"), ""},
		{append(mtls, "--cert-identity", "dns"), `--cert-identity "dns"`},
		{[]string{"--admin-identities", "ops"}, "--admin-identities needs --cert-identity"},
	} {
		_, err := parseFlags(c.args, func(string) string { return "" })
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("parseFlags(%q): %v", c.args, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("parseFlags(%q) = %v, want an error with %q", c.args, err, c.wantErr)
		}
	}
}

// TestServeAuth runs the service with --auth jwt against a JWKS URL and
// with mTLS certificate identities, and checks that tokens and
// certificates decide which user a caller acts for on both listeners, and
// that a key added to the JWKS serves without a restart.
func TestServeAuth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "test CA")
	c1, k1 := ca.Issue(t, 1, false)
	first, rotated := authtest.NewKey(t, "k1"), authtest.NewKey(t, "k2")
	var mu sync.Mutex
	jwks := authtest.JWKS(t, first)
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		_, _ = w.Write(jwks)
	}))
	t.Cleanup(idp.Close)

	grpcAddr, httpAddr := freeAddr(t), freeAddr(t)
	o, err := parseFlags([]string{"--grpc-addr", grpcAddr, "--http-addr", httpAddr,
		"--gemini-base-url", "http://127.0.0.1:1", "--shutdown-grace", "1s",
		"--tls-cert", tlstest.WriteFile(t, dir, "server.pem", c1), "--tls-key", tlstest.WriteFile(t, dir, "server-key.pem", k1),
		"--client-ca", tlstest.WriteFile(t, dir, "ca.pem", ca.PEM),
		"--auth", "jwt", "--jwks-url", idp.URL, "--jwt-issuer", authtest.Issuer, "--jwt-audience", authtest.Audience,
		"--admin-scope", "agentsvc.admin", "--cert-identity", "subject"},
		func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, o, func(string) string { return "" }, slog.New(slog.DiscardHandler)) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})

	// The client certificate's common name is "client".
	clientTLS := &tls.Config{RootCAs: ca.Pool(), Certificates: []tls.Certificate{ca.ClientCert(t)}}
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(credentials.NewTLS(clientTLS)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	waitServing(t, ctx, conn, "health without a token")

	rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
	defer rcancel()
	sessions := api.NewSessionServiceClient(conn)
	list := func(token, user string) error {
		c := rctx
		if token != "" {
			c = metadata.AppendToOutgoingContext(rctx, "authorization", "Bearer "+token)
		}
		_, err := sessions.ListSessions(c, &api.ListSessionsRequest{AppName: "weather_bot", UserId: user})
		return err
	}
	for _, c := range []struct {
		name, token, user string
		want              codes.Code
	}{
		{"certificate identity, own user", "", "client", codes.OK},
		{"certificate identity, another user", "", "alice", codes.PermissionDenied},
		{"token wins over the certificate", first.Token(t, "alice", nil), "alice", codes.OK},
		{"token for another user", first.Token(t, "alice", nil), "client", codes.PermissionDenied},
		{"admin token", first.Token(t, "ops", map[string]any{"scope": "agentsvc.admin"}), "bob", codes.OK},
		{"expired token", first.Token(t, "alice", map[string]any{"exp": time.Now().Add(-time.Hour).Unix()}), "alice", codes.Unauthenticated},
	} {
		if err := list(c.token, c.user); status.Code(err) != c.want {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}

	// Key rotation: the first call with the new key id fetches the JWKS
	// again, without a restart.
	mu.Lock()
	jwks = authtest.JWKS(t, first, rotated)
	mu.Unlock()
	if err := list(rotated.Token(t, "alice", nil), "alice"); err != nil {
		t.Fatalf("first call with a token of the rotated key: %v", err)
	}

	// REST: the same rules, 401 with a Bearer challenge, 403, and /health
	// open.
	tr := &http.Transport{TLSClientConfig: clientTLS, ForceAttemptHTTP2: true}
	t.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	base := "https://" + httpAddr
	for _, c := range []struct {
		name, path, token string
		want              int
	}{
		{"health", "/health", "", 200},
		{"certificate identity", "/apps/weather_bot/users/client/sessions", "", 200},
		{"certificate identity, another user", "/apps/weather_bot/users/alice/sessions", "", 403},
		{"token", "/apps/weather_bot/users/alice/sessions", first.Token(t, "alice", nil), 200},
		{"bad token", "/apps/weather_bot/users/alice/sessions", "x.y.z", 401},
	} {
		req, _ := http.NewRequestWithContext(rctx, "GET", base+c.path, nil)
		if c.token != "" {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: GET %s = %d, want %d", c.name, c.path, resp.StatusCode, c.want)
		}
		if c.want == 401 && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: WWW-Authenticate = %q", c.name, resp.Header.Get("WWW-Authenticate"))
		}
	}
}
