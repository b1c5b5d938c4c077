package sessions

import (
	"context"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Held names the start of a session's history that a caller holds from an
// earlier read through a [TailReader]. It is the store's own mark: pass
// back the one a read returned. The zero value holds nothing.
type Held struct {
	// Events is how many stored events, the first of the history, the
	// caller holds (those a read left out because they did not decode
	// included).
	Events int
	// Incarnation tells the session apart from an earlier one stored
	// under the same id (deleted or expired, then created again).
	Incarnation string
}

// TailReader is a [Service] that can read only the events stored since an
// earlier read, for a caller that keeps a session's events between reads
// (another process may have appended since: the read fetches all it
// lacks). Only a store whose reads cross a network implements it.
type TailReader interface {
	// GetTail is Get of the whole history (req must select all events,
	// without filters) that leaves out the events held names when they
	// are still the first of the stored session: then tail is true and
	// the session holds only the events stored after them. Otherwise (a
	// session deleted and created again, or held from another session)
	// it holds them all and tail is false. next names all the events read
	// so far, for the next GetTail. The state and LastUpdateTime are
	// always the stored ones.
	GetTail(ctx context.Context, req GetRequest, held Held) (sess *v1.Session, next Held, tail bool, err error)
}
