package redis

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	goredis "github.com/redis/go-redis/v9"
)

// roundTrips is a go-redis hook that counts what the client sends: one per
// command sent alone, one per pipeline, whatever its length. A connection's
// handshake (HELLO, sent whenever the pool dials, as it may mid-operation
// on a loaded machine) is not counted.
type roundTrips struct {
	n atomic.Int64

	mu    sync.Mutex
	names []string
}

func (r *roundTrips) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (r *roundTrips) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		if cmd.Name() != "hello" {
			r.record(cmd.Name())
		}
		return next(ctx, cmd)
	}
}

func (r *roundTrips) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		names := make([]string, len(cmds))
		for i, c := range cmds {
			names[i] = c.Name()
		}
		r.record("pipeline(" + strings.Join(names, ",") + ")")
		return next(ctx, cmds)
	}
}

func (r *roundTrips) record(name string) {
	r.n.Add(1)
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
}

// reset returns the count so far and the commands, and starts over.
func (r *roundTrips) reset() (int64, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := r.names
	r.names = nil
	return r.n.Swap(0), names
}

// newCountingService is newTestService with a round-trip counter on its
// client.
func newCountingService(t testing.TB, opts Options) (*Service, *roundTrips) {
	t.Helper()
	url := testURL(t)
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = randomPrefix(t)
	}
	o, err := goredis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	o.DisableIdentity = true
	o.ContextTimeoutEnabled = true
	client := goredis.NewClient(o)
	counter := &roundTrips{}
	client.AddHook(counter)
	svc := NewFromClient(client, opts)
	t.Cleanup(func() {
		dropKeys(t, svc, opts.KeyPrefix)
		if err := svc.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return svc, counter
}
