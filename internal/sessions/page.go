package sessions

// PageRequest asks [Service.GetPage] for one page of a session's selected
// events, oldest first.
type PageRequest struct {
	// Cursor continues a listing: the Next of the previous page's cursor.
	// The zero value starts one at the first event the [GetRequest]
	// selects.
	Cursor Cursor
	// Size is the most events on the page; it must be positive.
	Size int
	// MaxBytes, when positive, ends the page early rather than let the
	// encoded size of its events pass it. A page holds at least one event
	// while any remain, whatever its size.
	MaxBytes int
}

// Cursor is a position in a listing of a session's events. Positions index
// the session's whole history, which only grows, so a cursor stays valid
// while events are appended: the listing covers the events that were
// selected when it started.
type Cursor struct {
	// Next is the position of the next event to read.
	Next int
	// End is the position just past the last event of the listing.
	End int
}

// Done reports whether the listing has no more events.
func (c Cursor) Done() bool { return c.Next >= c.End }

// Start reports whether c starts a listing: a cursor that continues one
// has End > 0.
func (c Cursor) Start() bool { return c.End <= 0 }

// ListPageRequest asks [Service.ListPage] for one page of a user's
// sessions.
type ListPageRequest struct {
	// After continues a listing: the next cursor of the previous page. The
	// zero value starts at the user's first session.
	After ListCursor
	// Size is the most sessions on the page; it must be positive.
	Size int
}

// ListCursor is a position in the listing of a user's sessions, which are
// ordered by creation time, then id. It names a session by those two, not
// by its rank, so a listing neither repeats nor skips a session that
// existed throughout it while others are created or deleted.
type ListCursor struct {
	// Created is the session's creation time, in microseconds since the
	// epoch.
	Created int64
	// ID is the session's id; empty in the zero cursor.
	ID string
}

// Start reports whether c is the zero cursor: the start of a listing, or
// the end of one when a page returns it.
func (c ListCursor) Start() bool { return c.ID == "" }

// After reports whether a session created at created with id id comes
// after c in a listing.
func (c ListCursor) After(created int64, id string) bool {
	return created > c.Created || created == c.Created && id > c.ID
}
