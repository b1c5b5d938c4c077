package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// t0 is the load's start in these tests.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

func TestAvailabilityObserve(t *testing.T) {
	t.Parallel()
	type attempt struct {
		at     float64
		failed bool
	}
	tests := []struct {
		name     string
		attempts []attempt
		end      float64
		want     []outage
	}{
		{"never failed", []attempt{{1, false}, {2, false}}, 10, nil},
		{"from the first failure to the next success", []attempt{{1, false}, {2, true}, {3, true}, {4.5, true}, {6, false}, {7, false}}, 10,
			[]outage{{start: at(2), end: at(6), first: "failure at 2s", last: "failure at 4.5s"}}},
		{"two outages", []attempt{{1, true}, {2, false}, {5, true}, {5.25, false}}, 10,
			[]outage{{start: at(1), end: at(2), first: "failure at 1s", last: "failure at 1s"},
				{start: at(5), end: at(5.25), first: "failure at 5s", last: "failure at 5s"}}},
		{"still failing at the end", []attempt{{1, false}, {3, true}, {4, true}}, 10,
			[]outage{{start: at(3), end: at(10), open: true, first: "failure at 3s", last: "failure at 4s"}}},
		{"an end before the failure does not go negative", []attempt{{3, true}}, 2,
			[]outage{{start: at(3), end: at(3), open: true, first: "failure at 3s", last: "failure at 3s"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var a availability
			for _, x := range tt.attempts {
				reason := ""
				if x.failed {
					reason = fmt.Sprintf("failure at %gs", x.at)
				}
				a.observe(at(x.at), x.failed, reason)
			}
			a.finish(at(tt.end))
			if diff := cmp.Diff(tt.want, a.outages, cmp.AllowUnexported(outage{})); diff != "" {
				t.Errorf("outages (-want +got):\n%s", diff)
			}
			if a.attempts != len(tt.attempts) {
				t.Errorf("attempts = %d, want %d", a.attempts, len(tt.attempts))
			}
			for _, o := range a.outages {
				if o.length() < 0 {
					t.Errorf("outage %v has a negative length", o)
				}
			}
		})
	}
}

func TestAttemptOutcome(t *testing.T) {
	t.Parallel()
	st := func(c codes.Code) error { return status.Error(c, "x") }
	tests := []struct {
		kind            opKind
		err             error
		failed, neutral bool
	}{
		{opRun, nil, false, false},
		{opRun, st(codes.Unavailable), true, false},
		{opRun, st(codes.Aborted), true, false},
		{opConnect, st(codes.DeadlineExceeded), true, false},
		{opUpdate, st(codes.Internal), true, false},
		{opRead, errors.New("connection refused"), true, false},
		{opCreate, st(codes.AlreadyExists), false, false},
		{opUpdate, st(codes.AlreadyExists), true, false},
		{opSilent, st(codes.DeadlineExceeded), false, true},
		{opSilent, st(codes.Unavailable), true, false},
		{opCancelMsg, st(codes.Canceled), false, true},
		{opCancelMsg, st(codes.Aborted), true, false},
		{opRun, context.Canceled, true, false},
	}
	for _, tt := range tests {
		failed, neutral := attemptOutcome(tt.kind, tt.err)
		if failed != tt.failed || neutral != tt.neutral {
			t.Errorf("attemptOutcome(%s, %v) = %v, %v; want %v, %v", tt.kind, tt.err, failed, neutral, tt.failed, tt.neutral)
		}
	}
}

func TestCauseOf(t *testing.T) {
	t.Parallel()
	events := []chaosEvent{
		{at: 10 * time.Second, kind: chaosPrimaryKill},
		{at: 12 * time.Second, kind: chaosPromoted},
		{at: 30 * time.Second, kind: chaosNodeStart},
		{at: 50 * time.Second, kind: chaosReplicaKill, err: errors.New("not killed")},
		{at: 60 * time.Second, kind: chaosReplicaKill},
		{at: 70 * time.Second, kind: chaosModelFail},
		{at: 80 * time.Second, kind: chaosRedisKill},
	}
	tests := []struct {
		at   time.Duration
		want string
	}{
		{5 * time.Second, causeNone},
		{10 * time.Second, causeFailover},
		{40 * time.Second, causeFailover},
		{55 * time.Second, causeFailover},
		{60 * time.Second, causeReplica},
		{75 * time.Second, causeReplica},
		{90 * time.Second, causeRedis},
	}
	for _, tt := range tests {
		if got := causeOf(events, tt.at); got != tt.want {
			t.Errorf("causeOf(%s) = %q, want %q", tt.at, got, tt.want)
		}
	}
}

// The soak's percentile sorts what the load collected, unsorted.
func TestPercentileSorts(t *testing.T) {
	t.Parallel()
	ds := []time.Duration{3 * time.Second, time.Second, 2 * time.Second}
	if got := percentile(ds, 50); got != 2*time.Second {
		t.Errorf("percentile(50) = %s, want 2s", got)
	}
	if got := percentile(ds, 99); got != 3*time.Second {
		t.Errorf("percentile(99) = %s, want 3s", got)
	}
}

func TestSummarizeUnavailability(t *testing.T) {
	t.Parallel()
	session := func(id string, os ...outage) *sessionLog {
		l := &sessionLog{id: id}
		l.avail.attempts = 1 + len(os)
		l.avail.outages = os
		return l
	}
	logs := []*sessionLog{
		session("quiet"),
		{id: "never used"},
		// Two outages after the primary kill at 10 s: the longest counts.
		session("a", outage{start: at(11), end: at(13)}, outage{start: at(20), end: at(80), first: "Unavailable: x", last: "Aborted: y"}),
		session("b", outage{start: at(12), end: at(14)}),
		// After the replica kill at 100 s; one still failing at the end.
		session("c", outage{start: at(101), end: at(131)}),
		session("d", outage{start: at(102), end: at(110), open: true}),
		// Before any kill.
		session("e", outage{start: at(1), end: at(1.5)}),
	}
	events := []chaosEvent{{at: 10 * time.Second, kind: chaosPrimaryKill}, {at: 100 * time.Second, kind: chaosReplicaKill}}
	got := summarizeUnavailability(logs, t0, events)
	want := unavailability{sessions: 6, affected: 5, open: 1, max: 60 * time.Second, p99: 60 * time.Second,
		worst: "a", worstAt: 20 * time.Second, worstOutage: outage{start: at(20), end: at(80), first: "Unavailable: x", last: "Aborted: y"},
		causes: []causeFigures{
			{cause: causeFailover, outages: 3, sessions: 2, max: 60 * time.Second, p99: 60 * time.Second},
			{cause: causeReplica, outages: 2, sessions: 2, max: 30 * time.Second, p99: 30 * time.Second},
			{cause: causeNone, outages: 1, sessions: 1, max: 500 * time.Millisecond, p99: 500 * time.Millisecond},
		},
		kills: []killFigures{
			{at: 10 * time.Second, cause: causeFailover, sessions: 2, served: 70 * time.Second},
			{at: 100 * time.Second, cause: causeReplica, sessions: 2, served: 31 * time.Second, open: 1},
		}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(unavailability{}, causeFigures{}, killFigures{}, outage{}),
		cmpopts.IgnoreFields(causeFigures{}, "longest")); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if l := got.causes[0].longest; l.length() != 60*time.Second || l.first != "Unavailable: x" {
		t.Errorf("the failover's longest outage = %v from %q, want the 1m0s one from \"Unavailable: x\"", l.length(), l.first)
	}

	var out bytes.Buffer
	got.print(&out)
	for _, s := range []string{"5 of 6 sessions", "max 1m0s, p99 1m0s (max in a, from 20s)", "1 still failing",
		"cluster failover at 10s: 2 sessions failed after it (before the next kill); the last of their outages ended 1m10s after it\n",
		"replica kill at 1m40s: 2 sessions failed after it (before the next kill); the last of their outages ended 31s after it, 1 of them still failing",
		"its first failure: Unavailable: x", "its last failure:  Aborted: y",
		"after cluster failover:", "after replica kill:", "max 30s"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("summary lacks %q:\n%s", s, out.String())
		}
	}
}

func TestWorkerMovesToTheNextReplicaAfterAFailure(t *testing.T) {
	t.Parallel()
	o := &options{app: "soak", sessions: 1, turns: 10, seed: 1}
	w := newWorker(&soak{o: o, runID: "soaktest"}, 0, make([]*grpc.ClientConn, 2))
	s := w.newSession()
	first := s.replica
	w.observe(s, opRun, nil)
	if s.replica != first {
		t.Fatalf("a success moved the session from replica %d to %d", first, s.replica)
	}
	w.observe(s, opRun, status.Error(codes.Unavailable, "down"))
	if s.replica != (first+1)%2 {
		t.Errorf("after a failure the session is on replica %d, want %d", s.replica, (first+1)%2)
	}
	w.observe(s, opSilent, status.Error(codes.DeadlineExceeded, "own deadline"))
	if s.replica != (first+1)%2 || !s.avail.down {
		t.Errorf("a neutral outcome moved the session or closed its outage: replica %d, down %v", s.replica, s.avail.down)
	}
	w.observe(s, opUpdate, nil)
	if s.avail.down || len(s.avail.outages) != 1 || s.avail.attempts != 3 {
		t.Errorf("availability after the success = %+v, want one closed outage over 3 attempts", s.avail)
	}
}
