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
