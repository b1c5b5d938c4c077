package redis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

// addAttempts bounds how often AddSession sends its script again because
// the session changed since it last read it: each retry means another add
// of the same session went through meanwhile.
const addAttempts = 64

// AddSession implements [memory.Service]. The first add of a session is one
// round trip; adding it again takes two, the first of which reads the words
// it held (see addScript).
func (s *Service) AddSession(ctx context.Context, sess *v1.Session) error {
	const op = "memory.add_session"
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if sess == nil {
		return errors.New(op + ": no session")
	}
	records := memory.Records(sess)
	if len(records) >= positionsPerSession {
		return fmt.Errorf("%s: %w: the session holds %d entries, the most is %d", op, memory.ErrTooLarge, len(records), positionsPerSession-1)
	}
	add, err := newAddition(records)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	keys := s.keys.user(sess.GetAppName(), sess.GetUserId())
	maxEntries := int64(-1)
	if s.limits.MaxEntriesPerUser < math.MaxInt {
		maxEntries = int64(s.limits.MaxEntriesPerUser)
	}
	record := ""
	for range addAttempts {
		reply, err := addScript.Run(ctx, s.client, add.keys(keys, record), add.args(sess.GetId(), record, maxEntries, keys.word)...).Slice()
		if err != nil {
			return classify(ctx, op, err)
		}
		code, _ := reply[0].(int64)
		switch code {
		case 0:
			record, _ = reply[1].(string)
			continue
		case 1:
			total, _ := reply[1].(int64)
			return fmt.Errorf("%s: %w", op, s.limits.CheckEntries(int(total)))
		case 2:
			return fmt.Errorf("%s: %w: the user has had %d sessions added", op, memory.ErrTooLarge, maxSessions)
		case 3:
			return nil
		}
		return fmt.Errorf("%s: unexpected reply %v", op, reply)
	}
	return fmt.Errorf("%s: %w: the session kept changing, %d adds of it raced this one", op, memory.ErrUnavailable, addAttempts)
}

// addition is a session's entries encoded for addScript.
type addition struct {
	entries []any
	// words are the session's distinct words, sorted, and for each the
	// indexes of the entries holding it.
	words   []string
	holders [][]int
	nArgs   int
}

func newAddition(records []memory.Record) (addition, error) {
	a := addition{entries: make([]any, len(records))}
	at := make(map[string]int)
	for i, r := range records {
		b, err := proto.Marshal(&v1.Event{Content: r.Content, Author: r.Author, Timestamp: r.Timestamp})
		if err != nil {
			return addition{}, fmt.Errorf("encode entry: %w", err)
		}
		a.entries[i] = b
		for _, w := range r.Words {
			j, ok := at[w]
			if !ok {
				j = len(a.words)
				at[w] = j
				a.words = append(a.words, w)
				a.holders = append(a.holders, nil)
			}
			a.holders[j] = append(a.holders[j], i)
			a.nArgs++
		}
	}
	a.nArgs += len(a.entries) + 2*len(a.words)
	return a, nil
}

// keys declares the keys the script touches: the user's, and the word keys
// of the session's new words and of those its record (as last read) holds.
func (a addition) keys(k userKeys, record string) []string {
	keys := make([]string, 0, 3+len(a.words))
	keys = append(keys, k.sessions, k.added, k.entries)
	for _, w := range a.words {
		keys = append(keys, k.word+w)
	}
	for i, w := range strings.Fields(record) {
		if i >= 2 {
			keys = append(keys, k.word+w)
		}
	}
	return keys
}

func (a addition) args(id, record string, maxEntries int64, wordPrefix string) []any {
	args := make([]any, 0, 6+a.nArgs)
	args = append(args, id, record, maxEntries, wordPrefix, len(a.entries), len(a.words))
	args = append(args, a.entries...)
	for j, w := range a.words {
		args = append(args, w, len(a.holders[j]))
		for _, i := range a.holders[j] {
			args = append(args, strconv.Itoa(i))
		}
	}
	return args
}
