package llmagent

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TestBehaviorContextCacheInfoFromEvents checks ADK's
// _find_cache_info_from_events: the agent's newest cache metadata, one
// more use when its cache is active and it came from an earlier
// invocation, and the agent's newest prompt token count, each from its
// own event.
func TestBehaviorContextCacheInfoFromEvents(t *testing.T) {
	t.Parallel()
	active := &v1.CacheMetadata{CacheName: proto.String("cachedContents/c"), ExpireTime: proto.Float64(2000),
		Fingerprint: "f", InvocationsUsed: proto.Int32(2), ContentsCount: 3, CreatedAt: proto.Float64(1000)}
	withUse := func(m *v1.CacheMetadata, used int32) *v1.CacheMetadata {
		m = proto.CloneOf(m)
		m.InvocationsUsed = proto.Int32(used)
		return m
	}
	fpOnly := &v1.CacheMetadata{Fingerprint: "f", ContentsCount: 4}
	ev := func(author, inv string, m *v1.CacheMetadata, prompt int32) *v1.Event {
		e := &v1.Event{Author: author, InvocationId: inv, CacheMetadata: m}
		if prompt > 0 {
			e.UsageMetadata = &v1.UsageMetadata{PromptTokenCount: prompt}
		}
		return e
	}
	tests := []struct {
		name       string
		events     []*v1.Event
		wantMeta   *v1.CacheMetadata
		wantTokens *int32
	}{
		{name: "no events"},
		{name: "earlier invocation counts one more use",
			events:   []*v1.Event{ev("a", "e-1", active, 5000), ev("user", "e-2", nil, 0)},
			wantMeta: withUse(active, 3), wantTokens: proto.Int32(5000)},
		{name: "same invocation as it is",
			events:   []*v1.Event{ev("a", "e-2", active, 5000)},
			wantMeta: active, wantTokens: proto.Int32(5000)},
		{name: "fingerprint only as it is",
			events:   []*v1.Event{ev("a", "e-1", fpOnly, 10)},
			wantMeta: fpOnly, wantTokens: proto.Int32(10)},
		{name: "other agents ignored",
			events:   []*v1.Event{ev("a", "e-1", fpOnly, 10), ev("b", "e-1", active, 20)},
			wantMeta: fpOnly, wantTokens: proto.Int32(10)},
		// A tool response event has neither: look further back for each.
		{name: "newest of each",
			events:   []*v1.Event{ev("a", "e-1", active, 0), ev("a", "e-1", nil, 7000), ev("a", "e-2", nil, 0)},
			wantMeta: withUse(active, 3), wantTokens: proto.Int32(7000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			meta, tokens := latestCacheInfo(tt.events, "a", "e-2")
			if d := cmp.Diff(tt.wantMeta, meta, protocmp.Transform()); d != "" {
				t.Errorf("metadata (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.wantTokens, tokens); d != "" {
				t.Errorf("tokens (-want +got):\n%s", d)
			}
			// The stored events are never changed.
			if len(tt.events) > 0 && tt.events[0].GetCacheMetadata() == active && active.GetInvocationsUsed() != 2 {
				t.Error("the stored metadata was changed")
			}
		})
	}
}
