package memory

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// GetPage implements [sessions.Service]; it copies only the page's event
// pointers.
func (s *Service) GetPage(ctx context.Context, req sessions.GetRequest, page sessions.PageRequest) (*v1.Session, sessions.Cursor, error) {
	const op = "sessions.get_page"
	if page.Size <= 0 {
		return nil, sessions.Cursor{}, errors.New(op + ": page size must be positive")
	}
	if err := ctx.Err(); err != nil {
		return nil, sessions.Cursor{}, fmt.Errorf("%s: %w", op, err)
	}
	st := s.idx.lookup(req.AppName, req.UserID, req.SessionID)
	if st == nil {
		return nil, sessions.Cursor{}, notFound(op, req.SessionID)
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	if st.deleted {
		return nil, sessions.Cursor{}, notFound(op, req.SessionID)
	}
	cur := page.Cursor
	if cur.Start() {
		cur = firstSelected(st.events, req)
	}
	cur.Next = max(cur.Next, 0)
	end := min(cur.End, len(st.events))
	out := st.snapshot()
	used := 0
	for cur.Next < end && len(out.Events) < page.Size {
		ev := st.events[cur.Next]
		size := proto.Size(ev)
		if page.MaxBytes > 0 && len(out.Events) > 0 && used+size > page.MaxBytes {
			break
		}
		used += size
		cur.Next++
		if req.AfterTimestamp <= 0 || ev.GetTimestamp() >= req.AfterTimestamp {
			out.Events = append(out.Events, ev)
		}
	}
	return out, cur, nil
}

// firstSelected is the cursor of the events a GetRequest selects: the last
// N, or from the first at or after the timestamp.
func firstSelected(events []*v1.Event, req sessions.GetRequest) sessions.Cursor {
	cur := sessions.Cursor{End: len(events)}
	switch {
	case req.NumRecentEvents > 0:
		cur.Next = max(len(events)-req.NumRecentEvents, 0)
	case req.AfterTimestamp > 0:
		cur.Next = len(events)
		for i, ev := range events {
			if ev.GetTimestamp() >= req.AfterTimestamp {
				cur.Next = i
				break
			}
		}
	}
	return cur
}
