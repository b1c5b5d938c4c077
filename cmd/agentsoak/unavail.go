package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/agentsvc/agentsvc/internal/loadclient"
)

// outage is one stretch during which the requests for a session failed:
// from the first failed attempt to the next attempt that succeeded. open
// marks one still failing when the load stopped (its end is then the
// load's end).
type outage struct {
	start, end time.Time
	open       bool
	// first and last are the failures that opened it and that came last
	// (see reasonOf).
	first, last string
}

func (o outage) length() time.Duration { return o.end.Sub(o.start) }

// availability is what the load saw of one session's availability, attempt
// by attempt. The worker that owns the session writes it; the report reads
// it once the load has stopped.
type availability struct {
	down        bool
	since       time.Time
	first, last string
	outages     []outage
	attempts    int
}

// observe notes an attempt that ended at t: failed (with reason) or
// succeeded. A failure while up opens an outage; a success while down
// closes it.
func (a *availability) observe(t time.Time, failed bool, reason string) {
	a.attempts++
	switch {
	case failed && !a.down:
		a.down, a.since, a.first, a.last = true, t, reason, reason
	case failed:
		a.last = reason
	case a.down:
		a.down = false
		a.outages = append(a.outages, outage{start: a.since, end: t, first: a.first, last: a.last})
	}
}

// finish closes an outage still open at end, the load's end.
func (a *availability) finish(end time.Time) {
	if a.down {
		a.down = false
		if end.Before(a.since) {
			end = a.since
		}
		a.outages = append(a.outages, outage{start: a.since, end: end, open: true, first: a.first, last: a.last})
	}
}

// attemptOutcome classifies an attempt of k that ended with err: failed
// when the service did not serve it, neutral when the client provoked
// the failure itself (a client that never answers its tool call gets its
// own deadline, one that cancels gets CANCELLED), so that neither opens
// nor closes an outage.
func attemptOutcome(k opKind, err error) (failed, neutral bool) {
	c := status.Code(err)
	switch {
	case err == nil:
		return false, false
	case k == opCreate && c == codes.AlreadyExists:
		return false, false
	case k == opSilent && c == codes.DeadlineExceeded, k == opCancelMsg && c == codes.Canceled:
		return false, true
	}
	return true, false
}

// Causes an outage is put down to: the kill that came last before it
// began.
const (
	causeFailover = "cluster failover"
	causeReplica  = "replica kill"
	causeRedis    = "redis kill"
	causeNone     = "no kill before it"
)

// causeOf names the kind of the last kill at or before at (an offset from
// the load's start) in events, in order of time.
func causeOf(events []chaosEvent, at time.Duration) string {
	i := lastKill(events, at)
	if i < 0 {
		return causeNone
	}
	return killCauses[events[i].kind]
}

// killCauses maps the kinds of kill to the causes of outages.
var killCauses = map[string]string{chaosPrimaryKill: causeFailover, chaosReplicaKill: causeReplica, chaosRedisKill: causeRedis}

// lastKill returns the index in events of the last kill that succeeded at
// or before at, or -1.
func lastKill(events []chaosEvent, at time.Duration) int {
	last := -1
	for i, e := range events {
		if e.at > at {
			break
		}
		if _, ok := killCauses[e.kind]; ok && e.err == nil {
			last = i
		}
	}
	return last
}

// unavailability sums up the outages: the longest per session, over
// every session the load used and by cause.
type unavailability struct {
	sessions, affected, open int
	max, p99                 time.Duration
	// worst is the session with the longest outage, which began at
	// worstAt after the load's start.
	worst   string
	worstAt time.Duration
	// worstOutage is that outage.
	worstOutage outage
	causes      []causeFigures
	kills       []killFigures
}

// killFigures are the outages that began after one kill and before the
// next: how many sessions they hit, and when the last of them ended (which
// counts an outage of another cause that began in that stretch too).
type killFigures struct {
	at       time.Duration
	cause    string
	sessions int
	// served is from the kill to the end of its last outage that ended:
	// every session it hit, but the open ones, was served again by then.
	served time.Duration
	// open counts its outages still open when the load stopped.
	open int
}

// causeFigures are the outages put down to one cause: per session the
// longest, over the sessions it affected.
type causeFigures struct {
	cause    string
	outages  int
	sessions int
	max, p99 time.Duration
	// longest is the longest of its outages, for the failures that
	// opened and closed it.
	longest outage
}

// summarizeUnavailability reads the outages of logs, which started at
// start, against the chaos events.
func summarizeUnavailability(logs []*sessionLog, start time.Time, events []chaosEvent) unavailability {
	var u unavailability
	var longest []time.Duration
	byCause := map[string][]time.Duration{}
	counts := map[string]int{}
	kills := map[int]*killFigures{}
	longestOf := map[string]outage{}
	for _, l := range logs {
		if l.avail.attempts == 0 {
			continue
		}
		u.sessions++
		var worst time.Duration
		var worstAt time.Duration
		var worstO outage
		perCause := map[string]time.Duration{}
		perKill := map[int]bool{}
		for _, o := range l.avail.outages {
			d, began := o.length(), o.start.Sub(start)
			if d > worst || d == worst && worstO.start.IsZero() {
				worst, worstAt, worstO = d, began, o
			}
			c := causeOf(events, began)
			counts[c]++
			if l, ok := longestOf[c]; !ok || d > l.length() {
				longestOf[c] = o
			}
			perCause[c] = max(perCause[c], d)
			if o.open {
				u.open++
			}
			if k := lastKill(events, began); k >= 0 {
				kf := kills[k]
				if kf == nil {
					kf = &killFigures{at: events[k].at, cause: c}
					kills[k] = kf
				}
				if !perKill[k] {
					perKill[k] = true
					kf.sessions++
				}
				if o.open {
					kf.open++
				} else {
					kf.served = max(kf.served, o.end.Sub(start)-kf.at)
				}
			}
		}
		if len(l.avail.outages) > 0 {
			u.affected++
		}
		if worst > u.max {
			u.max, u.worst, u.worstAt, u.worstOutage = worst, l.id, worstAt, worstO
		}
		longest = append(longest, worst)
		for c, d := range perCause {
			byCause[c] = append(byCause[c], d)
		}
	}
	u.p99 = percentile(longest, 99)
	for i := range events {
		if kf := kills[i]; kf != nil {
			u.kills = append(u.kills, *kf)
		}
	}
	for _, c := range []string{causeFailover, causeReplica, causeRedis, causeNone} {
		ds := byCause[c]
		if len(ds) == 0 {
			continue
		}
		u.causes = append(u.causes, causeFigures{cause: c, outages: counts[c], sessions: len(ds),
			max: slices.Max(ds), p99: percentile(ds, 99), longest: longestOf[c]})
	}
	return u
}

// percentile sorts ds and returns its nearest-rank percentile p (0–100).
func percentile(ds []time.Duration, p float64) time.Duration {
	slices.Sort(ds)
	return loadclient.Percentile(ds, p)
}

func (u unavailability) print(w io.Writer) {
	fmt.Fprintf(w, "unavailability: %d of %d sessions had requests fail; longest per session: max %s, p99 %s",
		u.affected, u.sessions, round(u.max), round(u.p99))
	if u.worst != "" {
		fmt.Fprintf(w, " (max in %s, from %s)", u.worst, round(u.worstAt))
	}
	if u.open > 0 {
		fmt.Fprintf(w, "; %d still failing when the load stopped", u.open)
	}
	fmt.Fprintln(w)
	if o := u.worstOutage; o.first != "" {
		fmt.Fprintf(w, "  its first failure: %.150s\n  its last failure:  %.150s\n", o.first, o.last)
	}
	for _, c := range u.causes {
		fmt.Fprintf(w, "  after %-18s %4d outages in %4d sessions; longest per session: max %s, p99 %s\n",
			c.cause+":", c.outages, c.sessions, round(c.max), round(c.p99))
		if o := c.longest; o.first != "" && o.first != u.worstOutage.first {
			fmt.Fprintf(w, "    its longest's first failure: %.150s\n    its longest's last failure:  %.150s\n", o.first, o.last)
		}
	}
	for _, k := range u.kills {
		fmt.Fprintf(w, "  %s at %s: %d sessions failed after it (before the next kill); the last of their outages ended %s after it",
			k.cause, round(k.at), k.sessions, round(k.served))
		if k.open > 0 {
			fmt.Fprintf(w, ", %d of them still failing when the load stopped", k.open)
		}
		fmt.Fprintln(w)
	}
}

func round(d time.Duration) time.Duration { return d.Round(100 * time.Millisecond) }
