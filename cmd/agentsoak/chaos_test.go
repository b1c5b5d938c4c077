package main

import (
	"testing"
	"time"
)

// A kill is noted once it is done, at the time of its signal: the log
// stays in order of time, so that an outage the kill opened while it was
// being noted is put down to it.
func TestChaosLogInOrderOfTime(t *testing.T) {
	t.Parallel()
	c := &chaos{start: t0}
	c.noteAt(at(10), chaosModelFail, "", nil)
	c.noteAt(at(20), chaosReplicaStart, "", nil)
	c.noteAt(at(15), chaosReplicaKill, "", nil)
	var got []time.Duration
	for _, e := range c.log() {
		got = append(got, e.at)
	}
	want := []time.Duration{10 * time.Second, 15 * time.Second, 20 * time.Second}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("chaos log at %v, want %v", got, want)
	}
	if cause := causeOf(c.log(), 15500*time.Millisecond); cause != causeReplica {
		t.Errorf("an outage from 15.5s is put down to %q, want %q", cause, causeReplica)
	}
}
