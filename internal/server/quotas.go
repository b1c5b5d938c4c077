package server

import (
	"context"
	"fmt"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// checkUserSessions fails with RESOURCE_EXHAUSTED (USER_SESSION_LIMIT) when
// the user holds Config.MaxSessionsPerUser sessions. A store that counts
// (a [sessions.Counter]) answers without reading the sessions; only a count
// at the cap, which may include sessions that expired, is checked against
// the list of the user's sessions.
func (s *Server) checkUserSessions(ctx context.Context, app, user string) error {
	if s.maxSessionsPerUser <= 0 {
		return nil
	}
	if c, ok := s.sessions.(sessions.Counter); ok {
		n, err := c.Count(ctx, app, user)
		if err != nil {
			return fmt.Errorf("server: count the user's sessions: %w", err)
		}
		if n < s.maxSessionsPerUser {
			return nil
		}
	}
	list, err := s.sessions.List(ctx, app, user)
	if err != nil {
		return fmt.Errorf("server: count the user's sessions: %w", err)
	}
	if len(list) >= s.maxSessionsPerUser {
		return &runtime.Error{Code: runtime.CodeResourceExhausted, Reason: v1.ErrorReason_USER_SESSION_LIMIT.String(),
			Message: fmt.Sprintf("too many sessions for this user (limit %d); delete one first", s.maxSessionsPerUser)}
	}
	return nil
}
