package integration

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/tlsconfig/tlstest"
)

// TestMutualTLS runs the binary with --tls-cert, --tls-key and --client-ca
// and runs an agent over gRPC and REST with a client certificate; clients
// without one, and plaintext clients, are refused.
func TestMutualTLS(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := tlstest.NewCA(t, "e2e CA")
	cert, key := ca.Issue(t, 1, false)
	s := startStack(t, map[string]string{"weather": weatherAgent},
		"--tls-cert", tlstest.WriteFile(t, dir, "server.pem", cert),
		"--tls-key", tlstest.WriteFile(t, dir, "server-key.pem", key),
		"--client-ca", tlstest.WriteFile(t, dir, "ca.pem", ca.PEM))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	good := &tls.Config{RootCAs: ca.Pool(), Certificates: []tls.Certificate{ca.ClientCert(t)}}

	conn, err := grpc.NewClient(s.grpcAddr, grpc.WithTransportCredentials(credentials.NewTLS(good)))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if h, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil || h.Status != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health over mTLS = %v, %v", h, err)
	}
	created, err := api.NewSessionServiceClient(conn).CreateSession(ctx, &api.CreateSessionRequest{AppName: "weather", UserId: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := api.NewRunnerServiceClient(conn).Run(ctx, &api.RunRequest{AppName: "weather", UserId: "u1",
		SessionId: created.Session.Id, NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "over gRPC"}}}})
	if err != nil {
		t.Fatal(err)
	}
	var answer string
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Run over mTLS: %v", err)
		}
		answer += resp.GetEvent().GetContent().GetParts()[0].GetText()
	}
	if answer != "Echo: over gRPC" {
		t.Errorf("gRPC answer %q", answer)
	}

	for name, opt := range map[string]grpc.DialOption{
		"no client certificate": grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: ca.Pool()})),
		"plaintext":             grpc.WithTransportCredentials(insecure.NewCredentials()),
	} {
		c, err := grpc.NewClient(s.grpcAddr, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := api.NewAppServiceClient(c).ListApps(ctx, &api.ListAppsRequest{}); err == nil {
			t.Errorf("gRPC %s: served", name)
		}
		c.Close()
	}

	httpsURL := strings.Replace(s.httpURL, "http://", "https://", 1)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: good}}
	body, _ := json.Marshal(map[string]any{"appName": "weather", "userId": "u1", "sessionId": created.Session.Id,
		"newMessage": map[string]any{"role": "user", "parts": []map[string]any{{"text": "over REST"}}}})
	resp, err := client.Post(httpsURL+"/run", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(out), "Echo: over REST") {
		t.Errorf("POST /run over https = %d %s", resp.StatusCode, out)
	}
	noCert := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}}}
	if resp, err := noCert.Get(httpsURL + "/health"); err == nil {
		resp.Body.Close()
		t.Errorf("https without a client certificate: %s", resp.Status)
	}
	if resp, err := http.Get(s.httpURL + "/health"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == 200 {
			t.Error("plain http served")
		}
	}
}

// TestNonLoopbackNeedsTLS checks that the binary refuses to listen on all
// interfaces without TLS or --insecure-listen.
func TestNonLoopbackNeedsTLS(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.agentsvc, "serve", "--gemini-base-url", "http://127.0.0.1:1",
		"--grpc-addr", "127.0.0.1:0", "--http-addr", "0.0.0.0:0")
	cmd.Env = append(os.Environ(), "AGENTSVC_INSECURE_LISTEN=")
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "--http-addr 0.0.0.0:0 is not a loopback address") {
		t.Errorf("exit %v, output %s", err, out)
	}
}
