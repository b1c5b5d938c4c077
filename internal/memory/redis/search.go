package redis

import (
	"context"
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

// Search implements [memory.Service]: one round trip, which reads the sets
// of the query's words and the entries it returns.
func (s *Service) Search(ctx context.Context, appName, userID, query string) ([]memory.Entry, error) {
	const op = "memory.search"
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if err := s.limits.CheckQuery(query); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	words := memory.Words(query)
	if len(words) == 0 {
		return nil, nil
	}
	k := s.keys.user(appName, userID)
	keys := make([]string, 1+len(words))
	keys[0] = k.entries
	for i, w := range words {
		keys[1+i] = k.word + w
	}
	limit := int64(-1)
	if s.limits.MaxResults < math.MaxInt {
		limit = int64(s.limits.MaxResults)
	}
	reply, err := searchScript.Run(ctx, s.client, keys, limit).Slice()
	if err != nil {
		return nil, classify(ctx, op, err)
	}
	if len(reply) == 0 {
		return nil, nil
	}
	out := make([]memory.Entry, len(reply))
	for i, r := range reply {
		b, _ := r.(string)
		var ev v1.Event
		if err := proto.Unmarshal([]byte(b), &ev); err != nil {
			return nil, fmt.Errorf("%s: decode entry: %w", op, err)
		}
		out[i] = memory.Entry{
			Content:   ev.GetContent(),
			Author:    ev.GetAuthor(),
			Timestamp: memory.FormatTimestamp(ev.GetTimestamp(), time.Local),
		}
	}
	return out, nil
}
