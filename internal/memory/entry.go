package memory

import (
	"math"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Entry is one memory a search found: ADK's MemoryEntry, less its
// custom_metadata, which ADK's in-memory service always leaves empty.
type Entry struct {
	// Content is the remembered event's content, every part of it.
	Content *v1.Content
	// ID is empty: ADK's in-memory service leaves a memory's id unset.
	ID string
	// Author is the event's author: "user" or an agent's name.
	Author string
	// Timestamp is when the event happened, as ADK formats it: the
	// process's local time in ISO 8601 without a zone (see
	// [FormatTimestamp]).
	Timestamp string
}

// FormatTimestamp formats seconds since the epoch as ADK formats a memory's
// timestamp (Python's datetime.fromtimestamp(seconds).isoformat()): the wall
// clock in loc, "2006-01-02T15:04:05", followed by six digits of
// microseconds when they are not zero. The fraction is rounded to the
// microsecond half to even, as Python rounds it. Python refuses years past
// 9999; this formats them.
func FormatTimestamp(seconds float64, loc *time.Location) string {
	whole, frac := math.Modf(seconds)
	micros := math.RoundToEven(frac * 1e6)
	// Like Python, carry a fraction that rounds to a whole second, and keep
	// the microseconds of a time before the epoch positive.
	switch {
	case micros >= 1e6:
		micros -= 1e6
		whole++
	case micros < 0:
		micros += 1e6
		whole--
	}
	t := time.Unix(int64(whole), int64(micros)*1e3).In(loc)
	b := make([]byte, 0, len("2006-01-02T15:04:05.000000"))
	b = t.AppendFormat(b, "2006-01-02T15:04:05")
	if micros != 0 {
		b = append(b, '.')
		for unit := 100_000; unit > 0; unit /= 10 {
			b = append(b, byte('0'+int(micros)/unit%10))
		}
	}
	return string(b)
}
