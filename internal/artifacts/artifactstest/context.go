package artifactstest

import (
	"context"
	"testing"
)

// contextCancelled returns a context of t that is already cancelled.
func contextCancelled(t *testing.T) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	return ctx, cancel
}
