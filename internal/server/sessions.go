package server

import (
	"context"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// CreateSession implements [api.SessionServiceServer].
func (s *Server) CreateSession(ctx context.Context, req *api.CreateSessionRequest) (*api.CreateSessionResponse, error) {
	noteRequest(ctx, req)
	if _, err := s.app(req.GetAppName()); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := validateID("user_id", req.GetUserId()); err != nil {
		return nil, err
	}
	if req.GetSessionId() != "" {
		if err := validateNewSessionID(req.GetSessionId()); err != nil {
			return nil, err
		}
	}
	if err := s.checkDepth("state", req.GetState()); err != nil {
		return nil, err
	}
	events, err := s.importEvents(req.GetEvents())
	if err != nil {
		return nil, err
	}
	if err := s.authorize(ctx, req.UserId); err != nil {
		return nil, err
	}
	if err := s.authorizeState(ctx, "state", req.GetState()); err != nil {
		return nil, err
	}
	if err := s.limitUser(req.AppName, req.UserId); err != nil {
		return nil, err
	}
	if err := s.checkUserSessions(ctx, req.AppName, req.UserId); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	sess, err := s.sessions.Create(ctx, sessions.CreateRequest{
		AppName: req.AppName, UserID: req.UserId, SessionID: req.SessionId, State: req.State,
	})
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := s.restore(ctx, sess, events); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	noteSession(ctx, sess.GetId())
	return &api.CreateSessionResponse{Session: sess}, nil
}

// GetSession implements [api.SessionServiceServer].
func (s *Server) GetSession(ctx context.Context, req *api.GetSessionRequest) (*api.GetSessionResponse, error) {
	if err := s.checkSessionKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return nil, err
	}
	if req.GetNumRecentEvents() < 0 {
		return nil, invalid("num_recent_events must not be negative")
	}
	if req.GetPageSize() < 0 {
		return nil, invalid("page_size must not be negative")
	}
	greq := sessions.GetRequest{
		AppName: req.AppName, UserID: req.UserId, SessionID: req.SessionId,
		NumRecentEvents: int(req.NumRecentEvents), AfterTimestamp: req.AfterTimestamp,
	}
	if req.GetPageSize() > 0 || req.GetPageToken() != "" {
		return s.getSessionPage(ctx, req, greq)
	}
	sess, err := s.sessions.Get(ctx, greq)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	resp := &api.GetSessionResponse{Session: sess}
	if err := s.checkResponseSize(resp); err != nil {
		return nil, err
	}
	return resp, nil
}

// ListSessions implements [api.SessionServiceServer]. With page_size or
// page_token it answers one page, oldest session first, and names the next
// one in next_page_token and in the next-page-token response header (for
// REST, whose body is a bare array); without them, every session, or
// RESOURCE_EXHAUSTED when they would not fit in one response.
func (s *Server) ListSessions(ctx context.Context, req *api.ListSessionsRequest) (*api.ListSessionsResponse, error) {
	if _, err := s.app(req.GetAppName()); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := validateID("user_id", req.GetUserId()); err != nil {
		return nil, err
	}
	if req.GetPageSize() < 0 {
		return nil, invalid("page_size must not be negative")
	}
	if err := s.authorize(ctx, req.UserId); err != nil {
		return nil, err
	}
	if err := s.limitUser(req.AppName, req.UserId); err != nil {
		return nil, err
	}
	if req.GetPageSize() > 0 || req.GetPageToken() != "" {
		return s.listSessionsPage(ctx, req)
	}
	list, err := s.sessions.List(ctx, req.AppName, req.UserId)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	resp := &api.ListSessionsResponse{Sessions: list}
	if err := s.checkListSize(proto.Size(resp)); err != nil {
		return nil, err
	}
	return resp, nil
}

// DeleteSession implements [api.SessionServiceServer].
func (s *Server) DeleteSession(ctx context.Context, req *api.DeleteSessionRequest) (*api.DeleteSessionResponse, error) {
	noteRequest(ctx, req)
	if err := s.checkSessionKey(ctx, req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return nil, err
	}
	if err := s.sessions.Delete(ctx, req.AppName, req.UserId, req.SessionId); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &api.DeleteSessionResponse{}, nil
}

// UpdateSessionState implements [api.SessionServiceServer]: it appends an
// event by "user" with invocation id "p-<uuid4>", no content and the delta,
// as ADK's PATCH does. It takes the session's lease, so it fails with
// ABORTED while an invocation runs instead of breaking that invocation.
func (s *Server) UpdateSessionState(ctx context.Context, req *api.UpdateSessionStateRequest) (*api.UpdateSessionStateResponse, error) {
	noteRequest(ctx, req)
	if err := validateSessionKey(req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return nil, err
	}
	if _, err := s.app(req.AppName); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := s.checkDepth("state_delta", req.GetStateDelta()); err != nil {
		return nil, err
	}
	if err := s.authorize(ctx, req.UserId); err != nil {
		return nil, err
	}
	if err := s.authorizeState(ctx, "state_delta", req.GetStateDelta()); err != nil {
		return nil, err
	}
	if err := s.limitUser(req.AppName, req.UserId); err != nil {
		return nil, err
	}
	lease, err := s.leaseSession(ctx, req.AppName, req.UserId, req.SessionId)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
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
	return &api.UpdateSessionStateResponse{Session: sess}, nil
}

// checkSessionKey validates a session's key and that its app exists,
// authorises the caller for the user, and takes a token of the user's rate.
func (s *Server) checkSessionKey(ctx context.Context, app, user, session string) error {
	if err := validateSessionKey(app, user, session); err != nil {
		return err
	}
	if _, err := s.app(app); err != nil {
		return toStatus(ctx, s.log, err)
	}
	if err := s.authorize(ctx, user); err != nil {
		return err
	}
	return s.limitUser(app, user)
}
