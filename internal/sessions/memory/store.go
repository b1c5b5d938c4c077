package memory

import (
	"hash/maphash"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// shardCount spreads users over independent locks; creates, deletes and
// lookups of different users rarely contend.
const shardCount = 64

// Lock order, outermost first: shard, session, user state, app state. A
// goroutine never takes a shard lock while holding any of the others, so the
// order has no cycle.

// shard owns the users whose (app, user) pair hashes to it.
type shard struct {
	mu    sync.RWMutex
	users map[userKey]*userEntry
}

type userKey struct{ app, user string }

// userEntry holds one user's state and sessions. It is never removed:
// user state outlives the user's sessions, as in ADK.
type userEntry struct {
	state    *stateScope
	sessions map[string]*session // guarded by the shard's mu
}

// stateScope is the stored state of an app or a user. Values are never
// edited in place, only replaced, so readers clone them under the read lock.
type stateScope struct {
	mu     sync.RWMutex
	values map[string]*structpb.Value
}

func newStateScope() *stateScope {
	return &stateScope{values: make(map[string]*structpb.Value)}
}

// session is one stored session. Its events are the store's own copies and
// are never modified after they are appended.
type session struct {
	mu      sync.RWMutex
	id      string
	app     string
	userID  string
	created int64 // micros; orders List
	version int64 // micros; see scope.NextVersion
	state   map[string]*structpb.Value
	events  []*v1.Event
	bytes   int64 // encoded size of events
	// boundary is where the compacted selection of events starts.
	boundary sessions.Boundary
	deleted  bool
	user     *userEntry
	appSt    *stateScope
}

// index finds a user's entry and sessions.
type index struct {
	seed   maphash.Seed
	shards [shardCount]shard
	apps   sync.Map // app name → *stateScope
}

func (x *index) shardOf(app, user string) *shard {
	var h maphash.Hash
	h.SetSeed(x.seed)
	_, _ = h.WriteString(app)
	_ = h.WriteByte(0)
	_, _ = h.WriteString(user)
	return &x.shards[h.Sum64()%shardCount]
}

// appState returns the app's state scope, creating it on first use.
func (x *index) appState(app string) *stateScope {
	if st, ok := x.apps.Load(app); ok {
		return st.(*stateScope)
	}
	st, _ := x.apps.LoadOrStore(app, newStateScope())
	return st.(*stateScope)
}

// lookup returns the stored session or nil.
func (x *index) lookup(app, user, id string) *session {
	sh := x.shardOf(app, user)
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	ue := sh.users[userKey{app, user}]
	if ue == nil {
		return nil
	}
	return ue.sessions[id]
}
