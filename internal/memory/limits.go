package memory

import (
	"fmt"
	"math"
)

// Default bounds; see [Limits].
const (
	DefaultMaxQueryBytes     = 16 << 10
	DefaultMaxResults        = 1_000
	DefaultMaxEntriesPerUser = 100_000
)

// Limits bound what a store holds and what a search costs; ADK sets none, so
// they only come into play past sizes ADK's in-memory service is not made
// for. The zero value applies the defaults; a negative field means no bound.
type Limits struct {
	// MaxQueryBytes caps the length of a query, in bytes; a longer one
	// fails with [ErrQueryTooLarge] (ADK's preload_memory logs a failed
	// search and goes on without memories). Default
	// [DefaultMaxQueryBytes].
	MaxQueryBytes int
	// MaxResults caps the entries one search returns; past it the rest are
	// dropped, the first in search order kept. Default
	// [DefaultMaxResults].
	MaxResults int
	// MaxEntriesPerUser caps the entries stored for one app and user,
	// across their sessions. An entry is an event a search can find: one
	// with content holding at least one word. Events without a word are
	// never returned, so they are not stored and do not count. Adding a
	// session that would take the user past the cap fails with
	// [ErrTooLarge] and stores nothing. Default
	// [DefaultMaxEntriesPerUser].
	MaxEntriesPerUser int
}

// Resolved returns l with its zero fields set to the defaults and its
// negative ones to no bound (the largest int).
func (l Limits) Resolved() Limits {
	l.MaxQueryBytes = resolve(l.MaxQueryBytes, DefaultMaxQueryBytes)
	l.MaxResults = resolve(l.MaxResults, DefaultMaxResults)
	l.MaxEntriesPerUser = resolve(l.MaxEntriesPerUser, DefaultMaxEntriesPerUser)
	return l
}

func resolve(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return math.MaxInt
	}
	return v
}

// CheckQuery fails with [ErrQueryTooLarge] when query is longer than l
// allows; l must be resolved.
func (l Limits) CheckQuery(query string) error {
	if len(query) > l.MaxQueryBytes {
		return fmt.Errorf("%w: %d bytes, the limit is %d", ErrQueryTooLarge, len(query), l.MaxQueryBytes)
	}
	return nil
}

// CheckEntries fails with [ErrTooLarge] when a user would hold more than l
// allows, total entries; l must be resolved.
func (l Limits) CheckEntries(total int) error {
	if total > l.MaxEntriesPerUser {
		return fmt.Errorf("%w: the user would hold %d entries, the limit is %d", ErrTooLarge, total, l.MaxEntriesPerUser)
	}
	return nil
}
