// Package mcp provides ADK's MCP toolset: the tools of a Model Context
// Protocol server (over stdio, SSE or streamable HTTP), listed and called
// through one client session per server that every invocation shares.
package mcp

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport is how the service reaches an MCP server.
type Transport int

const (
	// Stdio runs the server as a child process and talks over its stdin
	// and stdout.
	Stdio Transport = iota
	// SSE is the HTTP+SSE transport of the 2024-11-05 protocol.
	SSE
	// Streamable is the streamable HTTP transport.
	Streamable
)

// ADK's defaults: 5 seconds to connect (and, on stdio, to wait for each
// answer), 5 minutes to wait for an answer over HTTP.
const (
	DefaultTimeout     = 5 * time.Second
	DefaultReadTimeout = 5 * time.Minute
)

// Params are the connection parameters of one server, as ADK's
// StdioConnectionParams, SseConnectionParams and
// StreamableHTTPConnectionParams.
type Params struct {
	Transport Transport
	// Command, Args, Env and Dir start a stdio server. Env adds to (and
	// overrides) the service's environment.
	Command string
	Args    []string
	Env     map[string]string
	Dir     string
	// URL and Headers reach an HTTP server.
	URL     string
	Headers map[string]string
	// Timeout bounds connecting; on stdio it also bounds each call.
	Timeout time.Duration
	// ReadTimeout bounds each call over HTTP.
	ReadTimeout time.Duration
}

// Key identifies the server: toolsets with equal keys share a session.
func (p Params) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s", p.Transport, p.Command, strings.Join(p.Args, "\x01"),
		sortedPairs(p.Env), p.Dir, p.URL, sortedPairs(p.Headers))
	fmt.Fprintf(&b, "\x00%d\x00%d", p.Timeout, p.ReadTimeout)
	return b.String()
}

func sortedPairs(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + m[k] + "\x01")
	}
	return b.String()
}

// String names the server in logs and errors.
func (p Params) String() string {
	if p.Transport == Stdio {
		return strings.Join(append([]string{p.Command}, p.Args...), " ")
	}
	return p.URL
}

// callTimeout bounds one call.
func (p Params) callTimeout() time.Duration {
	if p.Transport == Stdio {
		return orDefault(p.Timeout, DefaultTimeout)
	}
	return orDefault(p.ReadTimeout, DefaultReadTimeout)
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// transport builds a fresh transport for one connection; stderr receives
// a stdio server's standard error.
func (p Params) transport(stderr func(line string)) (mcp.Transport, error) {
	switch p.Transport {
	case Stdio:
		cmd := exec.Command(p.Command, p.Args...)
		cmd.Dir = p.Dir
		if len(p.Env) > 0 {
			cmd.Env = os.Environ()
			for k, v := range p.Env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
		}
		cmd.Stderr = &lineWriter{emit: stderr}
		// The terminal's signals go to the service, which stops the server
		// (a server also ends when its stdin closes with the service).
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil
	case SSE:
		return &mcp.SSEClientTransport{Endpoint: p.URL, HTTPClient: p.httpClient()}, nil
	case Streamable:
		return &mcp.StreamableClientTransport{Endpoint: p.URL, HTTPClient: p.httpClient(), MaxRetries: 1}, nil
	}
	return nil, fmt.Errorf("unknown MCP transport %d", p.Transport)
}

func (p Params) httpClient() *http.Client {
	if len(p.Headers) == 0 {
		return &http.Client{}
	}
	return &http.Client{Transport: &headerTransport{headers: p.Headers, next: http.DefaultTransport}}
}

// headerTransport adds the configured headers to every request.
type headerTransport struct {
	headers map[string]string
	next    http.RoundTripper
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	return t.next.RoundTrip(r)
}

// lineWriter passes a child's output on line by line, each line bounded.
type lineWriter struct {
	emit func(string)
	buf  []byte
}

const maxStderrLine = 4096

func (w *lineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := slices.Index(p, '\n')
		if i < 0 {
			room := maxStderrLine - len(w.buf)
			w.buf = append(w.buf, p[:min(room, len(p))]...)
			break
		}
		room := maxStderrLine - len(w.buf)
		w.buf = append(w.buf, p[:min(room, i)]...)
		if w.emit != nil && len(w.buf) > 0 {
			w.emit(string(w.buf))
		}
		w.buf = w.buf[:0]
		p = p[i+1:]
	}
	return n, nil
}
