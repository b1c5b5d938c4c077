package redis

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
)

// Create implements [sessions.Service] in one round trip (on Redis Cluster,
// two: app state is written and read after the session). Each create carries
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
		s.keys.scriptAppState(req.AppName, req.UserID), s.keys.userState(req.AppName, req.UserID), s.keys.index(req.AppName, req.UserID)}
	scripted := split
	if s.keys.cluster {
		// App state is in another slot: written and read below.
		scripted.App = nil
	}
	args, err := appendScoped([]any{id, scope.NewID(), formatVersion(version), s.ttlMS}, scripted)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	reply, err := s.runWrite(ctx, createScript, keys, args...)
	if err != nil {
		if s.keys.cluster && errors.Is(err, errNotReplicated) && len(reply) > 0 && reply[0] != int64(0) {
			// The primary created the session; its replica has yet to
			// confirm it. Its app keys follow it as they would.
			s.keepAppEntries(ctx, req.AppName, split.App)
		}
		return nil, classify(ctx, op, err)
	}
	if code, _ := reply[0].(int64); code == 0 {
		return nil, fmt.Errorf("%s: %w: %q", op, sessions.ErrAlreadyExists, id)
	}
	if len(reply) != 3 {
		return nil, fmt.Errorf("%s: unexpected reply of %d elements", op, len(reply))
	}
	if s.keys.cluster {
		var stored map[string]string
		if err := s.writeAppState(ctx, req.AppName, split.App, &stored); err != nil {
			return nil, classify(ctx, op, err)
		}
		reply[1] = pairsOf(stored)
	}
	app, err := s.decodeState(ctx, s.keys.appState(req.AppName), reply[1])
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
