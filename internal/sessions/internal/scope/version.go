package scope

import (
	"fmt"
	"math"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// A session's version is its last update time in whole microseconds since the
// epoch. Micros fit a float64 exactly for the next few centuries, so the
// LastUpdateTime a handle carries converts back to the stored version without
// loss, and the version can be compared for equality.

// Micros converts seconds since the epoch to whole microseconds.
func Micros(seconds float64) int64 {
	return int64(math.Round(seconds * 1e6))
}

// Seconds converts microseconds since the epoch to seconds.
func Seconds(micros int64) float64 {
	return float64(micros) / 1e6
}

// NextVersion returns the version after stored for an event at timestamp ts.
// Like ADK, the last update time follows the event's timestamp; because it is
// also the version, it is bumped by one microsecond whenever the timestamp
// would not move it forward.
func NextVersion(stored int64, ts float64) int64 {
	v := Micros(ts)
	if v <= stored {
		v = stored + 1
	}
	return v
}

// StaleError reports an append through a handle older than the stored
// session. Its text follows ADK's and tells the caller to reload.
func StaleError(op string, handle, stored int64) error {
	return fmt.Errorf("%s: %w: the last_update_time provided in the session object (%.6f) does not match "+
		"the update time of the stored session (%.6f); reload the session and retry",
		op, sessions.ErrStale, Seconds(handle), Seconds(stored))
}
