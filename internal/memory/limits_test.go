package memory_test

import (
	"errors"
	"math"
	"testing"

	"github.com/agentsvc/agentsvc/internal/memory"
)

func TestLimitsResolved(t *testing.T) {
	t.Parallel()
	got := memory.Limits{MaxResults: 5, MaxEntriesPerUser: -1}.Resolved()
	want := memory.Limits{MaxQueryBytes: memory.DefaultMaxQueryBytes, MaxResults: 5, MaxEntriesPerUser: math.MaxInt}
	if got != want {
		t.Errorf("Resolved() = %+v, want %+v", got, want)
	}
	l := memory.Limits{MaxQueryBytes: 3, MaxEntriesPerUser: 2}.Resolved()
	if err := l.CheckQuery("abc"); err != nil {
		t.Errorf("CheckQuery at the limit: %v", err)
	}
	if err := l.CheckQuery("abcd"); !errors.Is(err, memory.ErrQueryTooLarge) {
		t.Errorf("CheckQuery past the limit: %v, want ErrQueryTooLarge", err)
	}
	if err := l.CheckEntries(2); err != nil {
		t.Errorf("CheckEntries at the limit: %v", err)
	}
	if err := l.CheckEntries(3); !errors.Is(err, memory.ErrTooLarge) {
		t.Errorf("CheckEntries past the limit: %v, want ErrTooLarge", err)
	}
}
