package server

import (
	"context"
	"fmt"

	"github.com/agentsvc/agentsvc/internal/runtime"
)

// checkUserSessions fails with RESOURCE_EXHAUSTED (USER_SESSION_LIMIT) when
// the user holds Config.MaxSessionsPerUser sessions.
func (s *Server) checkUserSessions(ctx context.Context, app, user string) error {
	if s.maxSessionsPerUser <= 0 {
		return nil
	}
	list, err := s.sessions.List(ctx, app, user)
	if err != nil {
		return fmt.Errorf("server: count the user's sessions: %w", err)
	}
	if len(list) >= s.maxSessionsPerUser {
		return &runtime.Error{Code: runtime.CodeResourceExhausted, Reason: "USER_SESSION_LIMIT",
			Message: fmt.Sprintf("too many sessions for this user (limit %d); delete one first", s.maxSessionsPerUser)}
	}
	return nil
}
