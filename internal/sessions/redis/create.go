package redis

import (
	"context"
	"fmt"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// Create implements [sessions.Service] in one round trip. Each create carries
// a random nonce, so a create the client retried after a lost reply succeeds
// instead of reporting its own session as already existing.
func (s *Service) Create(ctx context.Context, req sessions.CreateRequest) (*v1.Session, error) {
	const op = "sessions.create"
	id := req.SessionID
	if id == "" {
		id = scope.NewID()
	}
	var initial *structpb.Struct
	if req.State != nil {
		initial = proto.Clone(req.State).(*structpb.Struct)
	}
	split := scope.SplitState(initial)
	version := s.now().UnixMicro()
	sk := s.keys.session(req.AppName, req.UserID, id)
	keys := []string{sk.meta, sk.state, sk.events, sk.ts,
		s.keys.appState(req.AppName), s.keys.userState(req.AppName, req.UserID), s.keys.index(req.AppName, req.UserID)}
	args, err := appendScoped([]any{id, scope.NewID(), formatVersion(version), s.ttlMS}, split)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	reply, err := createScript.Run(ctx, s.client, keys, args...).Slice()
	if err != nil {
		return nil, classify(ctx, op, err)
	}
	if code, _ := reply[0].(int64); code == 0 {
		return nil, fmt.Errorf("%s: %w: %q", op, sessions.ErrAlreadyExists, id)
	}
	if len(reply) != 3 {
		return nil, fmt.Errorf("%s: unexpected reply of %d elements", op, len(reply))
	}
	app, err := s.decodeState(ctx, keys[4], reply[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	user, err := s.decodeState(ctx, keys[5], reply[2])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	session := make(map[string]*structpb.Value, len(split.Session))
	scope.Apply(session, split.Session)
	return &v1.Session{
		Id: id, AppName: req.AppName, UserId: req.UserID,
		State:          scope.Merge(app, user, session),
		LastUpdateTime: scope.Seconds(version),
	}, nil
}

// Delete implements [sessions.Service] in one round trip. App and user state
// stay; a held lease runs out on its own.
func (s *Service) Delete(ctx context.Context, appName, userID, sessionID string) error {
	sk := s.keys.session(appName, userID, sessionID)
	keys := []string{sk.meta, sk.events, sk.ts, sk.state, s.keys.index(appName, userID)}
	return classify(ctx, "sessions.delete", deleteScript.Run(ctx, s.client, keys, sessionID).Err())
}
