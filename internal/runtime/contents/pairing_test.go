package contents

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

func TestIDTableFindsCallIDsOfOtherContents(t *testing.T) {
	t.Parallel()
	table := &idTable{slots: make([]idSlot, minIDTable)}
	const n = 5000 // enough to grow the table several times
	for i := range n {
		id := "adk-" + strconv.Itoa(i)
		if !table.claim(id, int32(i)) {
			t.Fatalf("claim(%q, %d) = false for a new id", id, i)
		}
		if !table.claim(id, int32(i)) {
			t.Fatalf("claim(%q, %d) = false for an id of the same content", id, i)
		}
	}
	for i := range n {
		id := "adk-" + strconv.Itoa(i)
		if table.claim(id, int32(i+1)) {
			t.Fatalf("claim(%q, %d) = true for an id content %d calls", id, i+1, i)
		}
	}
	if table.n != n || 2*table.n > len(table.slots) {
		t.Errorf("table holds %d ids in %d slots, want %d at most half full", table.n, len(table.slots), n)
	}
}

func TestIDTableDropFromForgetsLaterContents(t *testing.T) {
	t.Parallel()
	// A small table keeps runs long, so that removals move entries.
	table := &idTable{slots: make([]idSlot, minIDTable), logClaims: true}
	const n = 30
	for i := range n {
		table.claim("call-"+strconv.Itoa(i), int32(i))
	}
	for _, from := range []int32{25, 12, 3} {
		table.dropFrom(from)
		if table.n != int(from) {
			t.Fatalf("after dropFrom(%d) the table holds %d ids, want %d", from, table.n, from)
		}
		for i := range n {
			id := "call-" + strconv.Itoa(i)
			// Another content claiming the id succeeds only once it is gone.
			if got, want := table.claim(id, int32(n+i)), int32(i) >= from; got != want {
				t.Fatalf("after dropFrom(%d), claim(%q) by another content = %v, want %v", from, id, got, want)
			}
			if int32(i) >= from {
				table.dropFrom(int32(n)) // forget that claim again
			}
		}
	}
}

func TestCacheCutBackKeepsPairing(t *testing.T) {
	t.Parallel()
	call := func(id string) *v1.Event {
		return &v1.Event{Id: "c" + id, Author: "agent", Content: &v1.Content{Role: "model",
			Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: id, Name: "f"}}}}}
	}
	response := func(id string) *v1.Event {
		return &v1.Event{Id: "r" + id, Author: "agent", Content: &v1.Content{Role: "user",
			Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: id, Name: "f"}}}}}
	}
	// The last response answers an older call: the pairing breaks there.
	events := []*v1.Event{call("a"), response("a"), call("b"), response("b"), response("a")}
	var c Cache
	if _, err := Build(events, "agent", "", Options{Cache: &c}); err != nil {
		t.Fatal(err)
	}
	if !c.paired.broken {
		t.Fatal("pairing holds over a response to an older call")
	}
	// Cut back before the break; then a call, at another place, of the id
	// a cut event called.
	text := &v1.Event{Id: "t", Author: "user", Content: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "hi"}}}}
	again := append(slices.Clone(events[:2]), text, call("b"))
	if _, err := Build(again, "agent", "", Options{Cache: &c}); err != nil {
		t.Fatal(err)
	}
	if c.paired.broken {
		t.Error("pairing still broken after the events that broke it were cut")
	}
}

// TestIDTableMatchesAMap claims and drops at random, owners rising as
// contents are added, and checks the table against a map after each step.
func TestIDTableMatchesAMap(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	table := &idTable{slots: make([]idSlot, minIDTable), logClaims: true}
	model := map[string]int32{}
	owner := int32(0)
	for step := range 50000 {
		if r.IntN(10) == 0 {
			n := r.Int32N(owner + 1)
			table.dropFrom(n)
			for id, o := range model {
				if o >= n {
					delete(model, id)
				}
			}
			owner = n
			continue
		}
		id := "c" + strconv.Itoa(r.IntN(2000))
		want := true
		if o, ok := model[id]; ok {
			want = o == owner
		} else {
			model[id] = owner
		}
		if got := table.claim(id, owner); got != want {
			t.Fatalf("step %d: claim(%s, %d) = %v, want %v", step, id, owner, got, want)
		}
		if r.IntN(3) == 0 {
			owner++
		}
		if table.n != len(model) {
			t.Fatalf("step %d: table holds %d ids, the map %d", step, table.n, len(model))
		}
	}
}
