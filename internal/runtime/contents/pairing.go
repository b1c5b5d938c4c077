package contents

import (
	"hash/maphash"
	"sync"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// pairing watches, as contents are added, whether every function response
// already sits where the response rearrangement would put it, so that
// [contentList.finish] can skip that rearrangement. It holds when:
//
//  1. each content holding responses directly follows a content that holds
//     calls and no responses, and every response id it holds is one of that
//     content's call ids; and
//  2. no call id is shared by two contents that hold calls and no
//     responses.
//
// Then every response content is the only one answering its predecessor's
// calls, and the latest response to any call is in the content right after
// it (a later response with the same id would have to follow another
// content calling that id), so ADK's rearrangements leave the list as it
// is: the last content answers the calls just before it, and each call
// content is followed by the content it already has.
//
// Call ids are checked for uniqueness by their hash; a collision only sends
// the build down the general path, whose result is the same.
type pairing struct {
	// broken is set once the list departs from the shape above, by the
	// content at index brokenAt.
	broken   bool
	brokenAt int
	// last holds the flags of the content added last.
	last partFlags
	// calls maps the hash of each call id seen to the index of its content;
	// made on the first call content.
	calls *idTable
	// tableSize, when set, has that table made for so many ids rather than
	// taken from the pool.
	tableSize int
}

// add records c, whose flags are f, as it is added after the contents of
// list.
func (p *pairing) add(list []*v1.Content, c *v1.Content, f partFlags) {
	if f&(hasCall|hasResponse) != 0 && !p.broken {
		p.check(list, c, f)
	}
	p.last = f
}

func (p *pairing) check(list []*v1.Content, c *v1.Content, f partFlags) {
	i := len(list)
	if f&hasResponse != 0 {
		if i == 0 || p.last&(hasCall|hasResponse) != hasCall || !answersOnly(c, list[i-1]) {
			p.broken, p.brokenAt = true, i
		}
		return
	}
	if p.calls == nil {
		if p.tableSize > 0 {
			p.calls = newIDTable(p.tableSize)
			p.calls.logClaims = true // a Cache's table may be cut back
			p.calls.claims = make([]idSlot, 0, p.tableSize)
		} else {
			p.calls = idTablePool.Get().(*idTable)
		}
	}
	for _, part := range c.GetParts() {
		if fc := part.GetFunctionCall(); fc != nil && !p.calls.claim(fc.GetId(), int32(i)) {
			p.broken, p.brokenAt = true, i
			return
		}
	}
}

// truncate forgets the contents from index n on; flags are the flags the
// contents kept were added with.
func (p *pairing) truncate(flags []partFlags, n int) {
	if p.broken && p.brokenAt >= n {
		// Contents added after the break were not looked at: they are
		// among those forgotten.
		p.broken = false
	}
	p.last = 0
	if n > 0 {
		p.last = flags[n-1]
	}
	if p.calls != nil {
		p.calls.dropFrom(int32(n))
	}
}

// release returns the table to its pool.
func (p *pairing) release() {
	if p.calls != nil {
		p.calls.release()
		p.calls = nil
	}
}

// answersOnly reports whether every function response in c answers one of
// the calls in prev.
func answersOnly(c, prev *v1.Content) bool {
	for _, part := range c.GetParts() {
		fr := part.GetFunctionResponse()
		if fr == nil {
			continue
		}
		if !callsID(prev, fr.GetId()) {
			return false
		}
	}
	return true
}

// callsID reports whether c calls id.
func callsID(c *v1.Content, id string) bool {
	for _, p := range c.GetParts() {
		if fc := p.GetFunctionCall(); fc != nil && fc.GetId() == id {
			return true
		}
	}
	return false
}

// idSeed seeds the hashes of call ids; any seed will do, as a collision
// only costs the fast path.
var idSeed = maphash.MakeSeed()

// idTable is an open-addressing set of call id hashes, each with the index
// of the content that holds the call. It grows by doubling at half load.
type idTable struct {
	slots []idSlot
	n     int
	// claims are the entries in the order they were made, owners rising,
	// for [idTable.dropFrom]; kept when logClaims is set.
	claims    []idSlot
	logClaims bool
}

// idSlot is one entry; hash 0 marks a free slot.
type idSlot struct {
	hash  uint64
	owner int32
}

// minIDTable is the initial number of slots, a power of two.
const minIDTable = 64

// maxPooledIDTable bounds the tables kept for reuse, so that one huge
// history does not pin its table for good, nor a short one pay for
// clearing it.
const maxPooledIDTable = 1 << 11

var idTablePool = sync.Pool{New: func() any { return newIDTable(0) }}

// newIDTable returns a table that holds n ids without growing.
func newIDTable(n int) *idTable {
	size := minIDTable
	for size < 2*n {
		size *= 2
	}
	return &idTable{slots: make([]idSlot, size)}
}

// claim records id as called by content owner. It returns false when
// another content already calls an id of the same hash.
func (t *idTable) claim(id string, owner int32) bool {
	h := maphash.String(idSeed, id)
	if h == 0 {
		h = 1 // 0 marks a free slot
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		switch s.hash {
		case 0:
			*s = idSlot{h, owner}
			t.n++
			if t.logClaims {
				t.claims = append(t.claims, *s)
			}
			return true
		case h:
			return s.owner == owner
		}
	}
}

func (t *idTable) grow() {
	old := t.slots
	t.slots = make([]idSlot, 2*len(old))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.hash == 0 {
			continue
		}
		i := s.hash & mask
		for t.slots[i].hash != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// dropFrom removes the ids called by contents at index n or later: the
// latest claims.
func (t *idTable) dropFrom(n int32) {
	mask := uint64(len(t.slots) - 1)
	for k := len(t.claims) - 1; k >= 0 && t.claims[k].owner >= n; k-- {
		c := t.claims[k]
		i := c.hash & mask
		for t.slots[i] != c {
			i = (i + 1) & mask
		}
		t.remove(int(i))
		t.claims = t.claims[:k]
	}
}

// remove empties slot i and moves later entries of its run back, so that
// every entry stays reachable from its home slot.
func (t *idTable) remove(i int) {
	mask := len(t.slots) - 1
	t.slots[i] = idSlot{}
	t.n--
	for j := (i + 1) & mask; t.slots[j].hash != 0; j = (j + 1) & mask {
		home := int(t.slots[j].hash) & mask
		// The entry at j stays when its home lies cyclically in (i, j].
		if (j-home)&mask < (j-i)&mask {
			continue
		}
		t.slots[i], t.slots[j] = t.slots[j], idSlot{}
		i = j
	}
}

func (t *idTable) release() {
	if len(t.slots) > maxPooledIDTable {
		return
	}
	if t.n > 0 {
		clear(t.slots)
		t.n = 0
		t.claims = t.claims[:0]
	}
	idTablePool.Put(t)
}
