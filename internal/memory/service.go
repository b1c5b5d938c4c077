// Package memory is the long-term memory of agents: ADK's BaseMemoryService.
//
// A session added to memory is remembered event by event; a search returns
// the remembered events of one app and user that share a word with the
// query, as ADK's InMemoryMemoryService matches them (see [Words]): the
// sessions in the order they were first added, each session's events in
// their order. Adding a session again replaces what was remembered of it and
// keeps its place in that order.
//
// The backends are in the subpackages inmemory (memory://) and redis
// (redis://, redis+cluster://); memoryurl opens one by URL. memorytest is the
// contract suite every backend passes.
package memory

import (
	"context"
	"errors"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Errors returned by a [Service]; test with errors.Is.
var (
	// ErrTooLarge: adding the session would take its user past
	// [Limits.MaxEntriesPerUser]; nothing was stored.
	ErrTooLarge = errors.New("memory full")
	// ErrQueryTooLarge: the query is longer than [Limits.MaxQueryBytes].
	ErrQueryTooLarge = errors.New("memory query too large")
	// ErrUnavailable: the store could not be reached.
	ErrUnavailable = errors.New("memory store unavailable")
)

// Service remembers sessions and searches them: ADK's BaseMemoryService with
// the matching of its InMemoryMemoryService. Implementations are safe for
// concurrent use.
type Service interface {
	// AddSession remembers the events of sess that hold content with at
	// least one part (ADK's add_session_to_memory), under sess's app and
	// user. Adding a session id again replaces the events remembered of it
	// by those of sess, all at once, and keeps the session's place in the
	// search order. The store keeps its own copy: sess may change after.
	// It fails with [ErrTooLarge], storing nothing, when the user would
	// hold more than [Limits.MaxEntriesPerUser] entries.
	AddSession(ctx context.Context, sess *v1.Session) error

	// Search returns the remembered events of appName and userID that share
	// at least one word with query (ADK's search_memory), in ADK's order:
	// sessions by when they were first added, events in session order. A
	// query without words finds nothing. At most [Limits.MaxResults]
	// entries are returned, the first in that order. A query longer than
	// [Limits.MaxQueryBytes] fails with [ErrQueryTooLarge]. The entries'
	// Content may be shared with the store and must not be modified.
	Search(ctx context.Context, appName, userID, query string) ([]Entry, error)

	// Ping checks that the store can be reached, for readiness probes; it
	// fails with [ErrUnavailable] when it cannot.
	Ping(ctx context.Context) error

	// Close releases the store's resources.
	Close() error
}
