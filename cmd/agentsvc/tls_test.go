package main

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/tlsconfig"
	"github.com/agentsvc/agentsvc/internal/tlsconfig/tlstest"
)

func TestInsecureListenFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args    []string
		wantErr string // "" for success
	}{
		{nil, ""},
		{[]string{"--grpc-addr", "localhost:1", "--http-addr", "[::1]:2"}, ""},
		{[]string{"--grpc-addr", "127.9.9.9:1", "--http-addr", "LOCALHOST:2"}, ""},
		{[]string{"--grpc-addr", "0.0.0.0:50051"}, "--grpc-addr 0.0.0.0:50051 is not a loopback address"},
		{[]string{"--http-addr", ":8080"}, "--http-addr :8080 is not a loopback address"},
		{[]string{"--http-addr", "[::]:8080"}, "not a loopback address"},
		{[]string{"--grpc-addr", "10.0.0.5:50051"}, "not a loopback address"},
		{[]string{"--grpc-addr", "svc.example.com:50051"}, "not a loopback address"},
		{[]string{"--grpc-addr", "0.0.0.0:50051", "--http-addr", ":8080", "--insecure-listen"}, ""},
		{[]string{"--grpc-addr", "0.0.0.0:50051", "--tls-cert", "c.pem", "--tls-key", "k.pem"}, ""},
		{[]string{"--tls-cert", "c.pem"}, "--tls-cert and --tls-key go together"},
		{[]string{"--tls-key", "k.pem"}, "--tls-cert and --tls-key go together"},
		{[]string{"--client-ca", "ca.pem"}, "--client-ca needs --tls-cert"},
		{[]string{"--client-ca", "ca.pem", "--tls-cert", "c.pem", "--tls-key", "k.pem"}, ""},
	} {
		_, err := parseFlags(c.args, func(string) string { return "" })
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("parseFlags(%q): %v", c.args, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("parseFlags(%q) = %v, want an error with %q", c.args, err, c.wantErr)
		}
	}
	// The environment sets them as well.
	env := map[string]string{"AGENTSVC_HTTP_ADDR": "0.0.0.0:8080", "AGENTSVC_INSECURE_LISTEN": "true"}
	if _, err := parseFlags(nil, func(k string) string { return env[k] }); err != nil {
		t.Errorf("AGENTSVC_INSECURE_LISTEN: %v", err)
	}
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestServeMutualTLS runs the service with --tls-cert, --tls-key and
// --client-ca and checks both listeners: clients with a certificate from
// the CA are served, others refused, plain connections fail, and a
// rotated certificate is served without a restart.
func TestServeMutualTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "test CA")
	c1, k1 := ca.Issue(t, 1, false)
	certFile, keyFile := tlstest.WriteFile(t, dir, "server.pem", c1), tlstest.WriteFile(t, dir, "server-key.pem", k1)
	grpcAddr, httpAddr := freeAddr(t), freeAddr(t)
	o, err := parseFlags([]string{"--grpc-addr", grpcAddr, "--http-addr", httpAddr,
		"--gemini-base-url", "http://127.0.0.1:1", "--shutdown-grace", "1s",
		"--tls-cert", certFile, "--tls-key", keyFile, "--client-ca", tlstest.WriteFile(t, dir, "ca.pem", ca.PEM)},
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

	good := &tls.Config{RootCAs: ca.Pool(), Certificates: []tls.Certificate{ca.ClientCert(t)}}
	noCert := &tls.Config{RootCAs: ca.Pool()}
	dialGRPC := func(cfg *tls.Config) api.AppServiceClient {
		conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return api.NewAppServiceClient(conn)
	}
	httpsClient := func(cfg *tls.Config) *http.Client {
		tr := &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}
		t.Cleanup(tr.CloseIdleConnections)
		return &http.Client{Transport: tr, Timeout: 5 * time.Second}
	}

	// Wait for the health check over mTLS.
	conn, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(credentials.NewTLS(good)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	waitServing(t, ctx, conn, "health over mTLS")

	rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
	defer rcancel()
	if resp, err := dialGRPC(good).ListApps(rctx, &api.ListAppsRequest{}); err != nil || len(resp.GetAppNames()) == 0 {
		t.Errorf("gRPC with a client certificate: %v, %v", resp, err)
	}
	if _, err := dialGRPC(noCert).ListApps(rctx, &api.ListAppsRequest{}); err == nil {
		t.Error("gRPC without a client certificate was served")
	}
	plain, err := grpc.NewClient(grpcAddr, grpc.WithTransportCredentials(insecureCreds()))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, err := api.NewAppServiceClient(plain).ListApps(rctx, &api.ListAppsRequest{}); err == nil {
		t.Error("plaintext gRPC was served")
	}

	get := func(c *http.Client, url, origin string) (int, error) {
		req, _ := http.NewRequestWithContext(rctx, "GET", url, nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, nil
	}
	base := "https://" + httpAddr
	for _, c := range []struct {
		name, url, origin string
		client            *http.Client
		want              int // 0: the request fails
	}{
		{"health", base + "/health", "", httpsClient(good), 200},
		{"list apps", base + "/list-apps", "", httpsClient(good), 200},
		{"loopback https origin", base + "/list-apps", "https://localhost:" + portOf(httpAddr), httpsClient(good), 200},
		{"foreign origin", base + "/list-apps", "https://evil.example", httpsClient(good), 403},
		{"no client certificate", base + "/health", "", httpsClient(noCert), 0},
		{"plain http", "http://" + httpAddr + "/health", "", &http.Client{Timeout: 5 * time.Second}, 400},
	} {
		got, err := get(c.client, c.url, c.origin)
		if (c.want == 0) != (err != nil) || (err == nil && got != c.want) {
			t.Errorf("%s: GET %s = %d, %v; want %d", c.name, c.url, got, err, c.want)
		}
	}

	// Rotation: a new pair is served within the check interval, on both
	// listeners, without a restart.
	c2, k2 := ca.Issue(t, 2, false)
	tlstest.WriteFile(t, dir, "server.pem", c2)
	tlstest.WriteFile(t, dir, "server-key.pem", k2)
	serial := func(addr string, protos ...string) (int64, error) {
		cfg := good.Clone()
		cfg.NextProtos = protos
		c, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr, cfg)
		if err != nil {
			return 0, err
		}
		defer c.Close()
		if got := c.ConnectionState().NegotiatedProtocol; got != protos[0] {
			return 0, errors.New("negotiated " + got)
		}
		return c.ConnectionState().PeerCertificates[0].SerialNumber.Int64(), nil
	}
	for _, addr := range []string{grpcAddr, httpAddr} {
		deadline := time.Now().Add(3 * tlsconfigInterval)
		for {
			s, err := serial(addr, "h2")
			if err != nil {
				t.Fatalf("%s: %v", addr, err)
			}
			if s == 2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s still serves serial %d", addr, s)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if _, err := serial(httpAddr, "http/1.1"); err != nil {
		t.Errorf("HTTP/1.1 over TLS: %v", err)
	}
	if got, err := get(httpsClient(good), base+"/health", ""); err != nil || got != 200 {
		t.Errorf("health after rotation: %d, %v", got, err)
	}
}

func portOf(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}

const tlsconfigInterval = tlsconfig.DefaultCheckInterval

func insecureCreds() credentials.TransportCredentials { return insecure.NewCredentials() }

// waitServing waits up to 10s for conn's server to report SERVING on
// health checks; what names the check in the failure.
func waitServing(t *testing.T, ctx context.Context, conn *grpc.ClientConn, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		hctx, hcancel := context.WithTimeout(ctx, time.Second)
		resp, err := healthpb.NewHealthClient(conn).Check(hctx, &healthpb.HealthCheckRequest{})
		hcancel()
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v, %v", what, resp, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
