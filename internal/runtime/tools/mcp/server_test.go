package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testServer is an MCP server of the Go SDK over streamable HTTP, with an
// echo tool, a slow tool, an image tool and a tool that fails.
type testServer struct {
	srv     *mcp.Server
	http    *httptest.Server
	calls   atomic.Int32
	release chan struct{}
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	ts := &testServer{srv: mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil), release: make(chan struct{})}
	obj := map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}
	ts.srv.AddTool(&mcp.Tool{Name: "echo", Description: "Echoes.", InputSchema: obj},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ts.calls.Add(1)
			var args map[string]any
			_ = json.Unmarshal(req.Params.Arguments, &args)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(args["text"])}}}, nil
		})
	ts.srv.AddTool(&mcp.Tool{Name: "slow", InputSchema: obj},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-ts.release:
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "late"}}}, nil
		})
	ts.srv.AddTool(&mcp.Tool{Name: "image", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte{1, 2, 3}, MIMEType: "image/png"}},
				StructuredContent: map[string]any{"n": 1}, Meta: mcp.Meta{"k": "v"}}, nil
		})
	ts.srv.AddTool(&mcp.Tool{Name: "fails", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: -32000, Message: "no luck"}
		})
	// A session whose client went away with the connection (a server
	// stopped under it) stays on the MCP server until closed.
	t.Cleanup(func() {
		for ss := range ts.srv.Sessions() {
			_ = ss.Close()
		}
	})
	ts.http = httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ts.srv }, nil))
	t.Cleanup(ts.http.Close)
	return ts
}

func (ts *testServer) client(t *testing.T, timeout time.Duration) *Server {
	t.Helper()
	s := NewServer(Params{Transport: Streamable, URL: ts.http.URL, Timeout: timeout, ReadTimeout: timeout},
		slog.New(slog.DiscardHandler))
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestServerCallsAndRenders(t *testing.T) {
	ts := newTestServer(t)
	s := ts.client(t, 5*time.Second)
	ctx := t.Context()
	tools, err := s.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	if diff := cmp.Diff([]string{"echo", "fails", "image", "slow"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	tests := []struct {
		tool string
		want map[string]any
	}{
		{"echo", map[string]any{"content": []any{map[string]any{"type": "text", "text": "hi"}}, "isError": false}},
		{"image", map[string]any{"meta": map[string]any{"k": "v"},
			"content":           []any{map[string]any{"type": "image", "data": "AQID", "mimeType": "image/png"}},
			"structuredContent": map[string]any{"n": float64(1)}, "isError": false}},
		{"fails", map[string]any{"error": "MCP tool execution failed: no luck"}},
	}
	for _, tt := range tests {
		res, err := s.Call(ctx, tt.tool, map[string]any{"text": "hi"})
		var got map[string]any
		if err != nil {
			got = errorResponse(err)
		} else if got, err = render(res); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.tool, diff)
		}
	}
}

// TestServerSharesOneSession: concurrent calls share the session, and the
// tool list is listed once until the server announces a change.
func TestServerSharesOneSession(t *testing.T) {
	ts := newTestServer(t)
	s := ts.client(t, 5*time.Second)
	ctx := t.Context()
	done := make(chan error)
	for range 8 {
		go func() {
			_, err := s.Call(ctx, "echo", map[string]any{"text": "x"})
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	first, _ := s.Tools(ctx)
	s.mu.Lock()
	sess := s.sess
	s.mu.Unlock()
	again, _ := s.Tools(ctx)
	if &first[0] != &again[0] {
		t.Error("the tool list was listed again without a change")
	}
	ts.srv.RemoveTools("image")
	deadline := time.Now().Add(5 * time.Second)
	for {
		list, err := s.Tools(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tools after removal = %d, want 3", len(list))
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != sess {
		t.Error("the session changed")
	}
}

// TestServerTimeout: a call past the timeout fails with ADK's words for
// it; the session stays and serves the next call.
func TestServerTimeout(t *testing.T) {
	ts := newTestServer(t)
	s := ts.client(t, 300*time.Millisecond)
	ctx := t.Context()
	_, err := s.Call(ctx, "slow", nil)
	if diff := cmp.Diff(map[string]any{"error": "MCP tool execution failed: Timed out while waiting for response to ClientRequest. Waited 0.3 seconds."},
		errorResponse(err)); diff != "" {
		t.Errorf("timeout (-want +got):\n%s", diff)
	}
	close(ts.release)
	if _, err := s.Call(ctx, "echo", map[string]any{"text": "x"}); err != nil {
		t.Fatal(err)
	}
}

// TestServerReconnects: after the server goes away and comes back, the
// next call opens a new session; while it is away calls fail with ADK's
// words; a closed client fails at once.
func TestServerReconnects(t *testing.T) {
	ts := newTestServer(t)
	s := ts.client(t, time.Second)
	ctx := t.Context()
	if _, err := s.Call(ctx, "echo", map[string]any{"text": "x"}); err != nil {
		t.Fatal(err)
	}
	addr := ts.http.Listener.Addr().String()
	ts.http.CloseClientConnections()
	ts.http.Close()
	_, err := s.Call(ctx, "echo", map[string]any{"text": "x"})
	if err == nil {
		t.Fatal("a call to a stopped server succeeded")
	}
	if got := errorResponse(err)["error"].(string); !strings.HasPrefix(got, "Unexpected error during MCP tool execution: ") &&
		!strings.HasPrefix(got, "MCP tool execution failed: ") {
		t.Errorf("error = %q", got)
	}

	// The same address serves again.
	back := newTestServerAt(t, ts, addr)
	defer back.Close()
	if _, err := s.Call(ctx, "echo", map[string]any{"text": "x"}); err != nil {
		t.Fatalf("after the server came back: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Call(ctx, "echo", nil); !errors.Is(err, errClosed) {
		t.Errorf("after Close: %v", err)
	}
}

// newTestServerAt serves ts's MCP server again on addr.
func newTestServerAt(t *testing.T, ts *testServer, addr string) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ts.srv }, nil))
	l, err := listenRetry(addr)
	if err != nil {
		t.Skipf("cannot listen on %s again: %v", addr, err)
	}
	srv.Listener = l
	srv.Start()
	return srv
}

func TestLineWriter(t *testing.T) {
	var lines []string
	w := &lineWriter{emit: func(s string) { lines = append(lines, s) }}
	_, _ = io.WriteString(w, "one\ntw")
	_, _ = io.WriteString(w, "o\n\nthree")
	if diff := cmp.Diff([]string{"one", "two"}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestParamsKey(t *testing.T) {
	a := Params{Transport: Stdio, Command: "node", Args: []string{"x"}, Env: map[string]string{"A": "1", "B": "2"}}
	b := Params{Transport: Stdio, Command: "node", Args: []string{"x"}, Env: map[string]string{"B": "2", "A": "1"}}
	c := Params{Transport: Stdio, Command: "node", Args: []string{"x", ""}}
	if a.Key() != b.Key() || a.Key() == c.Key() {
		t.Error("keys must match exactly the same parameters")
	}
}

// listenRetry listens on addr, retrying while the old listener lets go.
func listenRetry(addr string) (net.Listener, error) {
	var err error
	for range 50 {
		var l net.Listener
		if l, err = net.Listen("tcp", addr); err == nil {
			return l, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, err
}
