package llmagent

import (
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// contextCache is ADK's context cache request processor: when the app sets
// context_cache_config it puts the config on the request, with the agent's
// latest cache metadata and prompt token count from the session's events.
// The model adapter decides what to cache.
func (a *Agent) contextCache(ictx *runtime.InvocationContext, req *v1.LlmRequest) {
	cfg := ictx.App().ContextCache
	if cfg == nil {
		return
	}
	req.CacheConfig = cfg
	req.CacheMetadata, req.CacheableContentsTokenCount = latestCacheInfo(ictx.Events(), a.cfg.Name, ictx.InvocationID)
}

// latestCacheInfo is ADK's _find_cache_info_from_events: the newest cache
// metadata and the newest prompt token count among agent's events. Metadata
// of an active cache from an earlier invocation counts this invocation as
// one more use.
func latestCacheInfo(events []*v1.Event, agent, invocationID string) (*v1.CacheMetadata, *int32) {
	var meta *v1.CacheMetadata
	var tokens *int32
	for i := len(events) - 1; i >= 0 && (meta == nil || tokens == nil); i-- {
		e := events[i]
		if e.GetAuthor() != agent {
			continue
		}
		if m := e.GetCacheMetadata(); meta == nil && m != nil {
			meta = proto.CloneOf(m)
			if e.GetInvocationId() != "" && e.GetInvocationId() != invocationID && m.CacheName != nil {
				meta.InvocationsUsed = proto.Int32(m.GetInvocationsUsed() + 1)
			}
		}
		// ADK reads a prompt count of zero too; proto3 cannot tell zero from
		// unset, so an event with usage metadata always has one.
		if u := e.GetUsageMetadata(); tokens == nil && u != nil {
			tokens = proto.Int32(u.GetPromptTokenCount())
		}
	}
	return meta, tokens
}
