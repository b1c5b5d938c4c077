package contents

import (
	"strconv"
	"testing"
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
