package contents

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// pairwiseLive is ADK's check of every pair of windows, which liveWindows
// must agree with.
func pairwiseLive(windows []window) []int {
	var live []int
	for _, w := range windows {
		subsumed := false
		for _, o := range windows {
			if o.index != w.index && o.start <= w.start && o.end >= w.end &&
				(o.start < w.start || o.end > w.end || o.index > w.index) {
				subsumed = true
				break
			}
		}
		if !subsumed {
			live = append(live, w.index)
		}
	}
	return live
}

// TestLiveWindowsAgreeWithPairwiseCheck: on random windows, with many equal
// starts, ends and ranges, the sorted pass keeps the windows ADK's pairwise
// check keeps, and covers exactly the timestamps one of them covers.
func TestLiveWindowsAgreeWithPairwiseCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 2000 {
		windows := make([]window, r.IntN(12))
		for i := range windows {
			a, b := float64(r.IntN(10)), float64(r.IntN(10))
			windows[i] = window{index: i * 3, start: min(a, b), end: max(a, b)}
		}
		set := liveWindows(windows)
		var got []int
		for _, w := range set.windows {
			got = append(got, w.index)
		}
		slices.Sort(got)
		want := pairwiseLive(windows)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %v: live %v, want %v", round, windows, got, want)
		}
		for ts := -1.0; ts <= 10; ts += 0.5 {
			covered := false
			for _, w := range set.windows {
				covered = covered || w.start <= ts && ts <= w.end
			}
			if set.covers(ts) != covered {
				t.Fatalf("round %d: %v: covers(%v) = %v, want %v", round, windows, ts, !covered, covered)
			}
		}
	}
}
