package server

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// CreateSession implements [v1.SessionServiceServer].
func (s *Server) CreateSession(ctx context.Context, req *v1.CreateSessionRequest) (*v1.CreateSessionResponse, error) {
	if _, err := s.app(req.GetAppName()); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := validateID("user_id", req.GetUserId()); err != nil {
		return nil, err
	}
	if req.GetSessionId() != "" {
		if err := validateID("session_id", req.GetSessionId()); err != nil {
			return nil, err
		}
	}
	sess, err := s.sessions.Create(ctx, sessions.CreateRequest{
		AppName: req.AppName, UserID: req.UserId, SessionID: req.SessionId, State: req.State,
	})
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &v1.CreateSessionResponse{Session: sess}, nil
}

// GetSession implements [v1.SessionServiceServer].
func (s *Server) GetSession(ctx context.Context, req *v1.GetSessionRequest) (*v1.GetSessionResponse, error) {
	if err := s.checkSessionKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return nil, err
	}
	if req.GetNumRecentEvents() < 0 {
		return nil, invalid("num_recent_events must not be negative")
	}
	sess, err := s.sessions.Get(ctx, sessions.GetRequest{
		AppName: req.AppName, UserID: req.UserId, SessionID: req.SessionId,
		NumRecentEvents: int(req.NumRecentEvents), AfterTimestamp: req.AfterTimestamp,
	})
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &v1.GetSessionResponse{Session: sess}, nil
}

// ListSessions implements [v1.SessionServiceServer].
func (s *Server) ListSessions(ctx context.Context, req *v1.ListSessionsRequest) (*v1.ListSessionsResponse, error) {
	if _, err := s.app(req.GetAppName()); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := validateID("user_id", req.GetUserId()); err != nil {
		return nil, err
	}
	list, err := s.sessions.List(ctx, req.AppName, req.UserId)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &v1.ListSessionsResponse{Sessions: list}, nil
}

// DeleteSession implements [v1.SessionServiceServer].
func (s *Server) DeleteSession(ctx context.Context, req *v1.DeleteSessionRequest) (*v1.DeleteSessionResponse, error) {
	if err := s.checkSessionKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return nil, err
	}
	if err := s.sessions.Delete(ctx, req.AppName, req.UserId, req.SessionId); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &v1.DeleteSessionResponse{}, nil
}

// UpdateSessionState implements [v1.SessionServiceServer]: it appends an
// event by "user" with invocation id "p-<uuid4>", no content and the delta,
// as ADK's PATCH does. It takes the session's lease, so it fails with
// ABORTED while an invocation runs instead of breaking that invocation.
func (s *Server) UpdateSessionState(ctx context.Context, req *v1.UpdateSessionStateRequest) (*v1.UpdateSessionStateResponse, error) {
	if err := validateSessionKey(req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return nil, err
	}
	if _, err := s.app(req.AppName); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	lease, err := s.sessions.Lease(ctx, req.AppName, req.UserId, req.SessionId, s.owner+"/"+runtime.NewEventID(), s.leaseTTL)
	if err != nil {
		return nil, toStatus(ctx, s.log, fmt.Errorf("server: lease session: %w", err))
	}
	defer s.releaseLease(ctx, lease)
	sess, err := s.sessions.Get(ctx, sessions.GetRequest{AppName: req.AppName, UserID: req.UserId, SessionID: req.SessionId})
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	delta := req.GetStateDelta()
	if delta == nil {
		delta = &structpb.Struct{}
	}
	ev := &v1.Event{
		Id:           runtime.NewEventID(),
		InvocationId: "p-" + runtime.NewEventID(),
		Author:       "user",
		Timestamp:    runtime.Now(),
		Actions:      &v1.EventActions{StateDelta: delta},
	}
	if err := s.sessions.AppendEvent(ctx, sess, ev); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &v1.UpdateSessionStateResponse{Session: sess}, nil
}

// checkSessionKey validates a session's key and that its app exists.
func (s *Server) checkSessionKey(ctx context.Context, app, user, session string) error {
	if err := validateSessionKey(app, user, session); err != nil {
		return err
	}
	if _, err := s.app(app); err != nil {
		return toStatus(ctx, s.log, err)
	}
	return nil
}
