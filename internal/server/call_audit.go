package server

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/limits"
)

// auditedRPCs are the RPCs that change state: each call of one, refused or
// not, writes an audit line. An invocation counts, since it appends events.
var auditedRPCs = map[string]bool{
	api.SessionService_CreateSession_FullMethodName:      true,
	api.SessionService_DeleteSession_FullMethodName:      true,
	api.SessionService_UpdateSessionState_FullMethodName: true,
	api.SessionService_RewindSession_FullMethodName:      true,
	api.RunnerService_Run_FullMethodName:                 true,
	api.RunnerService_Connect_FullMethodName:             true,
}

// maxAuditStateKeys bounds the state keys an audit line names.
const maxAuditStateKeys = 32

// restRoute returns the audited REST route a request takes, as its method
// and path template, with the session key its path names; op is "" for a
// request that changes nothing (or matches no route).
func restRoute(method, path string) (op, app, user, session string) {
	switch method {
	case http.MethodPost:
		switch path {
		case "/run", "/run_sse":
			return method + " " + path, "", "", ""
		}
	case http.MethodDelete, http.MethodPatch:
	default:
		return "", "", "", ""
	}
	// apps/{app_name}/users/{user_id}/sessions[/{session_id}[/rewind]]
	seg := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(seg) < 5 || seg[0] != "apps" || seg[2] != "users" || seg[4] != "sessions" {
		return "", "", "", ""
	}
	const base = "/apps/{app_name}/users/{user_id}/sessions"
	switch {
	case len(seg) == 5 && method == http.MethodPost:
		op = method + " " + base
	case len(seg) == 6 && method != http.MethodPost:
		op = method + " " + base + "/{session_id}"
	case len(seg) == 7 && seg[6] == "rewind" && method == http.MethodPost:
		op = method + " " + base + "/{session_id}/rewind"
	default:
		return "", "", "", ""
	}
	app, user = seg[1], seg[3]
	if len(seg) > 5 {
		session = seg[5]
	}
	return op, app, user, session
}

// note records the session key of the call, leaving fields given empty as
// they are.
func (c *call) note(app, user, session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if app != "" {
		c.app = app
	}
	if user != "" {
		c.user = user
	}
	if session != "" {
		c.session = session
	}
}

// noteKey records what an audited request message names: its session key
// and the keys of the state it writes (never their values).
func (c *call) noteKey(m any) {
	if cr, ok := m.(*api.ConnectRequest); ok {
		m = cr.GetStart().GetRun()
	}
	k, ok := m.(interface {
		GetAppName() string
		GetUserId() string
	})
	if !ok || k == nil {
		return
	}
	session := ""
	if s, ok := m.(interface{ GetSessionId() string }); ok {
		session = s.GetSessionId()
	}
	c.note(k.GetAppName(), k.GetUserId(), session)
	var st *structpb.Struct
	switch r := m.(type) {
	case *api.CreateSessionRequest:
		st = r.GetState()
	case *api.UpdateSessionStateRequest:
		st = r.GetStateDelta()
	case *api.RunRequest:
		st = r.GetStateDelta()
	}
	if len(st.GetFields()) > 0 {
		keys := make([]string, 0, min(len(st.GetFields()), maxAuditStateKeys))
		for key := range st.GetFields() {
			if len(keys) == maxAuditStateKeys {
				break
			}
			keys = append(keys, auditValue(key))
		}
		slices.Sort(keys)
		c.mu.Lock()
		c.stateKeys = keys
		c.mu.Unlock()
	}
}

// noteRequest records, for the audit line of the call ctx serves, what
// req names (see noteKey) and the verified caller ctx carries, which
// interceptors outside of the audit's do not see. Handlers call it first,
// so that a call they refuse is recorded as well.
func noteRequest(ctx context.Context, req any) {
	c := callFrom(ctx)
	if c == nil || c.op == "" {
		return
	}
	c.noteKey(req)
	if id, ok := auth.FromContext(ctx); ok {
		c.mu.Lock()
		c.who = id
		c.mu.Unlock()
	}
}

// noteSession records the id of the session a call created.
func noteSession(ctx context.Context, id string) {
	if c := callFrom(ctx); c != nil && c.op != "" {
		c.note("", "", id)
	}
}

// auditCall writes the audit line of a call that ended with err: who
// called (the verified identity, or "anonymous"), what (the RPC or REST
// route), on which session, the resulting code, the request ids and the
// duration. It never writes prompt text or state values.
func (s *Server) auditCall(ctx context.Context, c *call, err error) {
	c.mu.Lock()
	who := c.who
	app, user, session, keys, runID := c.app, c.user, c.session, c.stateKeys, c.runRequestID
	c.mu.Unlock()
	if who == nil {
		who, _ = auth.FromContext(ctx)
	}
	subject, method, admin := "anonymous", "none", false
	if who != nil {
		subject, method, admin = who.Subject, who.Method, who.Admin
	}
	attrs := make([]slog.Attr, 0, 14)
	attrs = append(attrs,
		slog.String("request_id", c.id),
		slog.String("op", c.op),
		slog.String("transport", c.transport),
		slog.String("caller", auditValue(subject)),
		slog.String("auth", method),
		slog.Bool("admin", admin),
		slog.String("app", auditValue(app)),
		slog.String("user", auditValue(user)),
		slog.String("session", auditValue(session)),
		slog.String("code", status.Code(err).String()),
		slog.Float64("duration_ms", float64(time.Since(c.start).Microseconds())/1000),
	)
	if runID != "" {
		attrs = append(attrs, slog.String("run_request_id", runID))
	}
	if len(keys) > 0 {
		attrs = append(attrs, slog.Any("state_keys", keys))
	}
	s.audit.LogAttrs(ctx, slog.LevelInfo, "audit", attrs...)
}

// auditValue bounds a value of the request (which may not have passed
// validation) for the audit line: valid UTF-8 of at most maxIDLength bytes.
func auditValue(v string) string {
	return limits.Clip(v, maxIDLength)
}
