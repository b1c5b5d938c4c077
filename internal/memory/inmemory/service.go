// Package inmemory is the in-memory [memory.Service] (memory://), ADK's
// InMemoryMemoryService: memories live in the process, are lost on restart
// and are not shared between replicas.
//
// Each user's memories are indexed by word, so a search reads only the
// entries that share a word with the query, merging the words' lists in
// search order, rather than scanning every memory as ADK does; the answer
// is the same.
package inmemory

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

// Service is an in-memory [memory.Service]. It is safe for concurrent use:
// adds to one user are serialised, searches of a user run alongside each
// other, and different users never wait for each other beyond a map
// lookup.
type Service struct {
	limits memory.Limits

	mu    sync.RWMutex
	users map[userKey]*user
}

var _ memory.Service = (*Service)(nil)

type userKey struct{ app, user string }

// Option configures a [Service].
type Option interface {
	apply(*Service)
}

type optionFunc func(*Service)

func (f optionFunc) apply(s *Service) { f(s) }

// WithLimits bounds the store; the default is the zero [memory.Limits].
func WithLimits(l memory.Limits) Option {
	return optionFunc(func(s *Service) { s.limits = l.Resolved() })
}

// New returns an empty store.
func New(opts ...Option) *Service {
	s := &Service{limits: memory.Limits{}.Resolved(), users: make(map[userKey]*user)}
	for _, o := range opts {
		o.apply(s)
	}
	return s
}

// AddSession implements [memory.Service].
func (s *Service) AddSession(ctx context.Context, sess *v1.Session) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("memory.add_session: %w", err)
	}
	if sess == nil {
		return errors.New("memory.add_session: no session")
	}
	records := memory.Records(ownCopy(sess))
	u := s.user(userKey{sess.GetAppName(), sess.GetUserId()}, true)
	if err := u.replace(sess.GetId(), records, s.limits); err != nil {
		return fmt.Errorf("memory.add_session: %w", err)
	}
	return nil
}

// Search implements [memory.Service].
func (s *Service) Search(ctx context.Context, appName, userID, query string) ([]memory.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("memory.search: %w", err)
	}
	if err := s.limits.CheckQuery(query); err != nil {
		return nil, fmt.Errorf("memory.search: %w", err)
	}
	words := memory.Words(query)
	if len(words) == 0 {
		return nil, nil
	}
	u := s.user(userKey{appName, userID}, false)
	if u == nil {
		return nil, nil
	}
	found := u.search(words, s.limits.MaxResults)
	if len(found) == 0 {
		return nil, nil
	}
	out := make([]memory.Entry, len(found))
	for i, e := range found {
		out[i] = memory.Entry{
			Content:   e.content,
			Author:    e.author,
			Timestamp: e.timestamp,
		}
	}
	return out, nil
}

// user returns the memories of key, creating them when create is set, else
// nil when there are none.
func (s *Service) user(key userKey, create bool) *user {
	s.mu.RLock()
	u := s.users[key]
	s.mu.RUnlock()
	if u != nil || !create {
		return u
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if u = s.users[key]; u == nil {
		u = newUser()
		s.users[key] = u
	}
	return u
}

// Ping implements [memory.Service]; the store is always reachable.
func (s *Service) Ping(context.Context) error { return nil }

// Close implements [memory.Service]; the store holds no resources, and
// works on after it.
func (s *Service) Close() error { return nil }

// ownCopy returns the events of sess that hold content, with copies of their
// contents: the store keeps them, and the words found in them.
func ownCopy(sess *v1.Session) *v1.Session {
	out := &v1.Session{}
	for _, ev := range sess.GetEvents() {
		if len(ev.GetContent().GetParts()) == 0 {
			continue
		}
		out.Events = append(out.Events, &v1.Event{
			Content:   proto.Clone(ev.GetContent()).(*v1.Content),
			Author:    ev.GetAuthor(),
			Timestamp: ev.GetTimestamp(),
		})
	}
	return out
}
