package server

import (
	"context"
	"fmt"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Reasons of the authorisation errors.
var (
	reasonPermissionDenied = v1.ErrorReason_PERMISSION_DENIED.String()
	reasonAppStateDenied   = v1.ErrorReason_APP_STATE_DENIED.String()
)

// authorize fails with PERMISSION_DENIED unless the caller may act for
// user: its identity's subject is user, or it is admin. Without
// authentication configured everyone may act for every user. It reads
// nothing, so that another user's session is refused the same whether or
// not it exists.
func (s *Server) authorize(ctx context.Context, user string) error {
	if s.authn == nil {
		return nil
	}
	id, ok := auth.FromContext(ctx)
	switch {
	case !ok:
		return statusError(codes.Unauthenticated, auth.ReasonUnauthenticated, "authentication required")
	case id.Admin || id.Subject == user:
		return nil
	}
	return statusError(codes.PermissionDenied, reasonPermissionDenied, "the caller may not act for this user")
}

// authorizeState fails with PERMISSION_DENIED when state, written from the
// request's field, holds an "app:" key and the caller is not admin: app
// state reaches every user's sessions.
func (s *Server) authorizeState(ctx context.Context, field string, state *structpb.Struct) error {
	if s.authn == nil || state == nil {
		return nil
	}
	if id, ok := auth.FromContext(ctx); ok && id.Admin {
		return nil
	}
	for k := range state.GetFields() {
		if strings.HasPrefix(k, sessions.AppPrefix) {
			return statusError(codes.PermissionDenied, reasonAppStateDenied,
				fmt.Sprintf("%s: writing %q state needs the admin scope", field, sessions.AppPrefix))
		}
	}
	return nil
}

// traceUser returns the user whose spans the caller may read: its own
// subject; "" (every user's) for an admin or without authentication. It is
// false for a caller without an identity. Another user's spans read as no
// trace, whether or not they exist.
func (s *Server) traceUser(ctx context.Context) (string, bool) {
	if s.authn == nil {
		return "", true
	}
	id, ok := auth.FromContext(ctx)
	switch {
	case !ok:
		return "", false
	case id.Admin:
		return "", true
	}
	return id.Subject, id.Subject != ""
}
