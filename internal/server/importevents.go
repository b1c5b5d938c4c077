package server

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// maxImportEvents bounds the events one session create may restore.
const maxImportEvents = 10_000

// maxAuthorBytes bounds an imported event's author.
const maxAuthorBytes = 256

// importEvents checks the events a session create restores, as ADK's
// create route does, and returns them ready to append: copies with ids and
// timestamps made where they had none. Nothing is stored when one is
// refused.
func (s *Server) importEvents(events []*v1.Event) ([]*v1.Event, error) {
	if len(events) > maxImportEvents {
		return nil, invalid(fmt.Sprintf("events: %d events, at most %d may be restored", len(events), maxImportEvents))
	}
	seen := make(map[string]bool, len(events))
	out := make([]*v1.Event, len(events))
	now := float64(time.Now().UnixMicro()) / 1e6
	for i, ev := range events {
		field := indexed("events", i)
		if err := s.checkDepth(field, ev); err != nil {
			return nil, err
		}
		refuse := func(what string) error {
			return invalid(fmt.Sprintf("Session initialization event %d cannot include %s.", i, what))
		}
		switch {
		case len(ev.GetLongRunningToolIds()) > 0:
			return nil, refuse("long-running tool IDs")
		case ev.GetActions() != nil && !proto.Equal(ev.GetActions(), &v1.EventActions{}):
			return nil, refuse("event actions")
		case frameworkCall(ev):
			return nil, refuse("ADK protocol function calls")
		case ev.GetAuthor() == "":
			return nil, invalid(field + ".author: required")
		case len(ev.GetAuthor()) > maxAuthorBytes || !utf8.ValidString(ev.GetAuthor()):
			return nil, invalid(fmt.Sprintf("%s.author: at most %d bytes of UTF-8", field, maxAuthorBytes))
		case math.IsNaN(ev.GetTimestamp()) || math.IsInf(ev.GetTimestamp(), 0) || ev.GetTimestamp() < 0:
			return nil, invalid(field + ".timestamp: not a time")
		}
		c := proto.CloneOf(ev)
		if c.Id == "" {
			c.Id = uuid.NewString()
		} else if err := validateID(field+".id", c.Id); err != nil {
			return nil, err
		}
		if seen[c.Id] {
			return nil, invalid(fmt.Sprintf("%s.id: %q is the id of an earlier event", field, c.Id))
		}
		seen[c.Id] = true
		if c.Timestamp == 0 {
			c.Timestamp = now
		}
		out[i] = c
	}
	return out, nil
}

// frameworkCall reports whether ev calls or answers one of ADK's own
// functions (adk_request_credential, adk_request_confirmation, ...).
func frameworkCall(ev *v1.Event) bool {
	for _, p := range ev.GetContent().GetParts() {
		if strings.HasPrefix(p.GetFunctionCall().GetName(), "adk_") || strings.HasPrefix(p.GetFunctionResponse().GetName(), "adk_") {
			return true
		}
	}
	return false
}

// restore appends the checked events to a new session; on a failure the
// session is deleted again, so that a create stores all or nothing.
func (s *Server) restore(ctx context.Context, sess *v1.Session, events []*v1.Event) error {
	for _, ev := range events {
		if err := s.sessions.AppendEvent(ctx, sess, ev); err != nil {
			if derr := s.sessions.Delete(context.WithoutCancel(ctx), sess.AppName, sess.UserId, sess.Id); derr != nil {
				s.log.Error("deleting a session whose events could not be restored", "session", sess.Id, "err", derr)
			}
			return err
		}
	}
	return nil
}
