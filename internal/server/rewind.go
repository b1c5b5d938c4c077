package server

import (
	"context"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// RewindSession implements [api.SessionServiceServer]. It holds the session's
// lease while it writes, so it cannot interleave with a running invocation.
func (s *Server) RewindSession(ctx context.Context, req *api.RewindSessionRequest) (*api.RewindSessionResponse, error) {
	noteRequest(ctx, req)
	if err := validateSessionKey(req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return nil, err
	}
	if err := validateID("rewind_before_invocation_id", req.GetRewindBeforeInvocationId()); err != nil {
		return nil, err
	}
	app, err := s.app(req.AppName)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := s.authorize(ctx, req.UserId); err != nil {
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
	sess, err := app.Runner.Rewind(ctx, req.UserId, req.SessionId, req.RewindBeforeInvocationId)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return &api.RewindSessionResponse{Session: sess}, nil
}
