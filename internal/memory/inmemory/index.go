package inmemory

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

// maxSessions bounds the sessions ever added for one user, so that a
// session's seq and the one after it fit in a position.
const maxSessions = math.MaxUint32

// user holds the memories of one app and user, indexed by word.
type user struct {
	mu sync.RWMutex
	// sessions by id.
	sessions map[string]*session
	// added counts the sessions ever added, so it numbers the next one.
	added uint32
	// entries counts the stored entries, across sessions.
	entries int
	// postings lists, per word, the entries holding it ordered by
	// position: by session, then within it. A session's entries are
	// contiguous in every list.
	postings map[string][]*entry
}

// session is what is remembered of one session.
type session struct {
	// seq is the session's place in search order: when it was first added.
	seq     uint32
	entries []*entry
	// words are the distinct words of its entries, whose postings hold it.
	words []string
}

// entry is one remembered event. It is never modified once stored, so
// searches hand out its content without copying it.
type entry struct {
	pos     uint64
	content *v1.Content
	author  string
	// timestamp is formatted once, when stored, in the process's zone.
	timestamp string
}

// position orders entries as ADK's search returns them: the session's seq,
// then the entry's index within the session.
func position(seq uint32, index int) uint64 {
	return uint64(seq)<<32 | uint64(index)
}

func newUser() *user {
	return &user{sessions: make(map[string]*session), postings: make(map[string][]*entry)}
}

// replace stores records as the entries of session id, in place of those
// stored before, or fails with nothing changed when the user would pass
// limits.MaxEntriesPerUser.
func (u *user) replace(id string, records []memory.Record, limits memory.Limits) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	old := u.sessions[id]
	total := u.entries + len(records)
	if old != nil {
		total -= len(old.entries)
	}
	if err := limits.CheckEntries(total); err != nil {
		return err
	}
	sess := old
	switch {
	case old != nil:
		u.unindex(old)
	case u.added == maxSessions:
		return fmt.Errorf("%w: the user has had %d sessions added", memory.ErrTooLarge, u.added)
	default:
		sess = &session{seq: u.added}
		u.added++
		u.sessions[strings.Clone(id)] = sess
	}
	sess.entries = make([]*entry, len(records))
	byWord := make(map[string][]*entry)
	for i, r := range records {
		e := &entry{
			pos: position(sess.seq, i), content: r.Content, author: r.Author,
			timestamp: memory.FormatTimestamp(r.Timestamp, time.Local),
		}
		sess.entries[i] = e
		for _, w := range r.Words {
			byWord[w] = append(byWord[w], e)
		}
	}
	sess.words = make([]string, 0, len(byWord))
	for w, es := range byWord {
		sess.words = append(sess.words, w)
		u.index(w, es)
	}
	u.entries = total
	return nil
}

// index inserts es, the entries of one session holding w in order, into w's
// postings at their position.
func (u *user) index(w string, es []*entry) {
	list, ok := u.postings[w]
	if !ok {
		// w is part of an entry's text, which may be replaced while
		// the word stays: keep only the word.
		w = strings.Clone(w)
	}
	at, _ := slices.BinarySearchFunc(list, es[0].pos, byPosition)
	u.postings[w] = slices.Insert(list, at, es...)
}

// unindex removes the entries of sess from the postings.
func (u *user) unindex(sess *session) {
	first, next := position(sess.seq, 0), position(sess.seq+1, 0)
	for _, w := range sess.words {
		list := u.postings[w]
		from, _ := slices.BinarySearchFunc(list, first, byPosition)
		to, _ := slices.BinarySearchFunc(list, next, byPosition)
		if list = slices.Delete(list, from, to); len(list) == 0 {
			delete(u.postings, w)
		} else {
			u.postings[w] = list
		}
	}
}

func byPosition(e *entry, pos uint64) int {
	switch {
	case e.pos < pos:
		return -1
	case e.pos > pos:
		return 1
	}
	return 0
}

// search returns, in position order, at most limit entries holding one of
// words.
func (u *user) search(words []string, limit int) []*entry {
	u.mu.RLock()
	defer u.mu.RUnlock()
	lists := make([][]*entry, 0, len(words))
	for _, w := range words {
		if list := u.postings[w]; len(list) > 0 {
			lists = append(lists, list)
		}
	}
	return merge(lists, limit)
}
