package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// restTimeout bounds each REST call.
const restTimeout = time.Minute

// restClient drives ADK's REST API: POST {prefix}/apps/{app}/users/{user}/sessions
// to create a session, POST {prefix}/run with ADK's body to run an
// invocation. agentsvc serves it at the root of --http-addr, adk-go's
// launcher under /api. It is safe for concurrent use.
type restClient struct {
	o    *options
	base string // --rest-url and --rest-prefix
	http *http.Client
}

func newRESTClient(o *options) *restClient {
	// One idle connection per worker: the load reuses its connections as
	// the gRPC modes reuse their streams' connections.
	transport := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		MaxIdleConns:        o.concurrency,
		MaxIdleConnsPerHost: o.concurrency,
		IdleConnTimeout:     30 * time.Second,
	}
	return &restClient{
		o:    o,
		base: strings.TrimSuffix(o.restURL, "/") + o.restPrefix,
		http: &http.Client{Transport: transport, Timeout: restTimeout},
	}
}

func (c *restClient) close() { c.http.CloseIdleConnections() }

// newSession creates a session and returns its id.
func (c *restClient) newSession(ctx context.Context) (string, error) {
	path := "/apps/" + url.PathEscape(c.o.app) + "/users/" + url.PathEscape(c.o.user) + "/sessions"
	var created struct {
		ID string `json:"id"`
	}
	if err := c.post(ctx, path, []byte("{}"), &created); err != nil {
		return "", err
	}
	if created.ID == "" {
		return "", status.Error(codes.Internal, "the created session has no id")
	}
	return created.ID, nil
}

// run runs one invocation with /run and reads its answer, the JSON array
// of the invocation's events.
func (c *restClient) run(ctx context.Context, sid string) error {
	body, err := json.Marshal(map[string]any{
		"appName":   c.o.app,
		"userId":    c.o.user,
		"sessionId": sid,
		"newMessage": map[string]any{
			"role":  "user",
			"parts": []any{map[string]any{"text": c.o.text}},
		},
	})
	if err != nil {
		return err
	}
	var events []json.RawMessage
	if err := c.post(ctx, "/run", body, &events); err != nil {
		return err
	}
	if len(events) == 0 {
		return status.Error(codes.Internal, "/run answered no event")
	}
	return nil
}

// post sends body as JSON to path under the base and decodes the answer
// into out. Errors carry the gRPC code of the HTTP status (Unavailable
// when the server could not be reached).
func (c *restClient) post(ctx context.Context, path string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.o.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.o.bearer)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return status.Error(codes.Unavailable, err.Error())
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return status.Errorf(codeOfHTTP(resp.StatusCode), "POST %s: %s: %s", path, resp.Status, bytes.TrimSpace(msg))
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return status.Errorf(codes.Internal, "POST %s: read the answer: %v", path, err)
	}
	// Drain what follows, so that the connection is reused.
	_, _ = io.Copy(io.Discard, resp.Body)
	return nil
}

// codeOfHTTP is the gRPC code of an HTTP error status, as grpc-gateway
// maps them, for the error counts of the report.
func codeOfHTTP(s int) codes.Code {
	switch s {
	case http.StatusBadRequest:
		return codes.InvalidArgument
	case http.StatusUnauthorized:
		return codes.Unauthenticated
	case http.StatusForbidden:
		return codes.PermissionDenied
	case http.StatusNotFound:
		return codes.NotFound
	case http.StatusConflict:
		return codes.Aborted
	case http.StatusTooManyRequests:
		return codes.ResourceExhausted
	case http.StatusNotImplemented:
		return codes.Unimplemented
	case http.StatusServiceUnavailable:
		return codes.Unavailable
	case http.StatusGatewayTimeout:
		return codes.DeadlineExceeded
	case http.StatusInternalServerError:
		return codes.Internal
	}
	return codes.Unknown
}

// target names the server of the load, for messages.
func (o *options) target() string {
	if o.mode == "rest" {
		return strings.TrimSuffix(o.restURL, "/") + o.restPrefix
	}
	return o.addr
}

// checkRESTFlags checks the flags of rest mode.
func checkRESTFlags(o *options) error {
	u, err := url.Parse(o.restURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--rest-url %q: want http[s]://host:port", o.restURL)
	}
	if o.restPrefix != "" && (!strings.HasPrefix(o.restPrefix, "/") || strings.HasSuffix(o.restPrefix, "/")) {
		return fmt.Errorf("--rest-prefix %q: want empty or /path without a trailing slash", o.restPrefix)
	}
	return nil
}
