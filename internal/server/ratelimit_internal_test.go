package server

import (
	"strconv"
	"testing"
	"time"
)

func TestUserLimiterBucket(t *testing.T) {
	t.Parallel()
	l := newUserLimiter(2, 3)
	now := time.Unix(1000, 0)
	u1, u2 := userKey{"app", "u1"}, userKey{"app", "u2"}
	for i := range 3 {
		if d := l.wait(u1, now); d != 0 {
			t.Fatalf("request %d within the burst: wait %v", i, d)
		}
	}
	if d := l.wait(u1, now); d != 500*time.Millisecond {
		t.Errorf("request past the burst: wait %v, want 500ms", d)
	}
	// A refused request takes no token.
	if d := l.wait(u1, now.Add(500*time.Millisecond)); d != 0 {
		t.Errorf("request after the delay: wait %v, want 0", d)
	}
	if d := l.wait(u2, now); d != 0 {
		t.Errorf("another user: wait %v, want 0", d)
	}
	if newUserLimiter(0, 5) != nil {
		t.Error("a limiter without rate is not nil")
	}
	s := newSettings(Config{UserRate: 2.5})
	if l := newUserLimiter(s.userRate, s.userBurst); l.burst != 3 {
		t.Errorf("default burst = %d, want 3", l.burst)
	}
}

// TestUserLimiterEvictsIdleBuckets checks that memory follows the users
// active within a refill, not every user ever seen.
func TestUserLimiterEvictsIdleBuckets(t *testing.T) {
	t.Parallel()
	l := newUserLimiter(10, 10) // refills in 1s
	now := time.Unix(1000, 0)
	for i := range 5000 {
		l.wait(userKey{"app", "old" + strconv.Itoa(i)}, now)
	}
	if n := l.size(); n != 5000 {
		t.Fatalf("buckets = %d, want 5000", n)
	}
	later := now.Add(2 * time.Second)
	for i := range 1000 {
		l.wait(userKey{"app", "new" + strconv.Itoa(i)}, later)
	}
	if n := l.size(); n != 1000 {
		t.Errorf("buckets after the old users went idle = %d, want 1000", n)
	}
}

// BenchmarkUserLimiter measures the per-request cost of the limiter with
// many users in parallel.
func BenchmarkUserLimiter(b *testing.B) {
	l := newUserLimiter(1e9, 1<<30)
	keys := make([]userKey, 1024)
	for i := range keys {
		keys[i] = userKey{"app", "user" + strconv.Itoa(i)}
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			l.wait(keys[i%len(keys)], time.Now())
			i++
		}
	})
}
