package redis

import (
	"context"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// ListPage implements [sessions.Service]. It reads the page's entries of
// the user's index, a sorted set scored by creation time, in one round
// trip: from the start by rank, or after the cursor by score (the entries
// that share the cursor's score, then the later ones), and then the
// sessions of the page, so that a page costs the same however many
// sessions the user has.
func (s *Service) ListPage(ctx context.Context, appName, userID string, page sessions.ListPageRequest) ([]*v1.Session, sessions.ListCursor, error) {
	const op = "sessions.list"
	if page.Size <= 0 {
		return nil, sessions.ListCursor{}, fmt.Errorf("%s: page size %d is not positive", op, page.Size)
	}
	index := s.keys.index(appName, userID)
	var entries []goredis.Z
	if page.After.Start() {
		var err error
		entries, err = s.client.ZRangeWithScores(ctx, index, 0, int64(page.Size)).Result()
		if err != nil {
			return nil, sessions.ListCursor{}, classify(ctx, op, err)
		}
	} else {
		score := strconv.FormatInt(page.After.Created, 10)
		pipe := s.client.Pipeline()
		// Sessions created in the same microsecond share a score and are
		// ordered by id; they are few.
		ties := pipe.ZRangeArgsWithScores(ctx, goredis.ZRangeArgs{Key: index, ByScore: true, Start: score, Stop: score})
		later := pipe.ZRangeArgsWithScores(ctx, goredis.ZRangeArgs{Key: index, ByScore: true,
			Start: "(" + score, Stop: "+inf", Count: int64(page.Size) + 1})
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, sessions.ListCursor{}, classify(ctx, op, err)
		}
		for _, z := range ties.Val() {
			if id, _ := z.Member.(string); id > page.After.ID {
				entries = append(entries, z)
			}
		}
		entries = append(entries, later.Val()...)
	}
	var next sessions.ListCursor
	if len(entries) > page.Size {
		entries = entries[:page.Size]
		last := entries[len(entries)-1]
		id, _ := last.Member.(string)
		next = sessions.ListCursor{Created: int64(last.Score), ID: id}
	}
	ids := make([]string, len(entries))
	for i, z := range entries {
		ids[i], _ = z.Member.(string)
	}
	list, err := s.listed(ctx, appName, userID, ids)
	if err != nil {
		return nil, sessions.ListCursor{}, err
	}
	return list, next, nil
}
