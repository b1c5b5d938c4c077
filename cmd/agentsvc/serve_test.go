package main

import "testing"

func TestHistorySessions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sessions string
		flag     int
		want     int
	}{
		{"memory://", -1, 0},
		{"memory://", 0, -1},
		{"memory://", 50, 50},
		{"redis://127.0.0.1:6379/0", -1, -1},
		{"rediss://cache:6380/1", -1, -1},
		{"redis://127.0.0.1:6379/0", 200, 200},
	} {
		if got := historySessions(&options{sessions: c.sessions, historySessions: c.flag}); got != c.want {
			t.Errorf("historySessions(--sessions %s --history-sessions %d) = %d, want %d", c.sessions, c.flag, got, c.want)
		}
	}
}
