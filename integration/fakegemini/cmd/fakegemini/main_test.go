package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestRunServesScriptAndStops(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "script.json")
	err := os.WriteFile(script, []byte(`{"responses":[{"response":{"candidates":[{"content":{"role":"model","parts":[{"text":"from file"}]},"finishReason":"STOP"}]}}]}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--script", script, "--latency", "1ms"}, outW, io.Discard)
		outW.Close()
	}()

	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the start line: %v", err)
	}
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "fakegemini listening on ")
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("start line %q", line)
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }()

	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	resp, err := (&http.Client{Transport: transport}).Post(base+"/v1beta/models/m:generateContent", "application/json", strings.NewReader(`{"contents":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "from file") {
		t.Errorf("answer %s, want the scripted text", body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run returned %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after cancellation")
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"responses":[{"model":"m"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
	}{
		{name: "unknown flag", args: []string{"--nope"}},
		{name: "missing script", args: []string{"--script", filepath.Join(t.TempDir(), "absent.json")}},
		{name: "invalid script", args: []string{"--script", bad}},
		{name: "bad address", args: []string{"--addr", "256.0.0.1:bad"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := run(t.Context(), tt.args, io.Discard, io.Discard); err == nil {
				t.Errorf("run(%v) succeeded, want an error", tt.args)
			}
		})
	}
}
