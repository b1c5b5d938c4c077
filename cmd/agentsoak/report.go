package main

import (
	"fmt"
	"io"
	"sort"
	"time"

	"google.golang.org/grpc/codes"
)

// maxShown is how many violations of each kind the summary prints.
const maxShown = 5

// maxReasons is how many kinds of failure the summary prints.
const maxReasons = 10

// report is the outcome of a soak.
type report struct {
	o     *options
	runID string

	// start is when the load started.
	start   time.Time
	elapsed time.Duration
	stats   opStats
	unavail unavailability
	chaos   []chaosEvent

	sessions, readBack int
	events, acked      int
	lone               int
	// reopened counts the sessions that held a call without a response
	// after the load, on which the checks ran one more invocation.
	reopened   int
	violations []violation

	rssBefore, rssPeak, rssAfter, hwm uint64
	goroutinesBefore, goroutinesAfter int
	settled                           time.Duration
}

func (r *report) print(w io.Writer) {
	o := r.o
	fmt.Fprintf(w, "soak %s: %s of load, %d workers × %d sessions, seed %d\n", r.runID, r.elapsed.Round(time.Second),
		o.workers, o.sessions, o.seed)
	kinds := make([]opKind, 0, len(r.stats.outcomes))
	for k := range r.stats.outcomes {
		kinds = append(kinds, k)
	}
	for k := range r.stats.vanished {
		if r.stats.outcomes[k] == nil {
			kinds = append(kinds, k)
		}
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	for _, k := range kinds {
		m := r.stats.outcomes[k]
		fmt.Fprintf(w, "  %-18s %5d ok", k, m[codes.OK])
		if n := r.stats.vanished[k]; n > 0 {
			fmt.Fprintf(w, ", %d vanished mid call", n)
		}
		for _, c := range sortedCodes(m) {
			if c != codes.OK {
				fmt.Fprintf(w, ", %s %d", c, m[c])
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "  retries            %d (%d invocations succeeded on a retry)\n", r.stats.retries, r.stats.retriedOK)
	reasons := make([]string, 0, len(r.stats.reasons))
	for k := range r.stats.reasons {
		reasons = append(reasons, k)
	}
	sort.Slice(reasons, func(i, j int) bool {
		a, b := r.stats.reasons[reasons[i]], r.stats.reasons[reasons[j]]
		return a > b || a == b && reasons[i] < reasons[j]
	})
	for _, k := range reasons[:min(len(reasons), maxReasons)] {
		fmt.Fprintf(w, "  %5d × %.150s\n", r.stats.reasons[k], k)
	}

	counts := map[string]int{}
	var failed []chaosEvent
	for _, e := range r.chaos {
		counts[e.kind]++
		if e.err != nil {
			failed = append(failed, e)
		}
	}
	fmt.Fprintf(w, "chaos: redis killed %d, restarted %d; model hung %d, failed %d; streamed forever %d",
		counts[chaosRedisKill], counts[chaosRedisStart], counts[chaosModelHang], counts[chaosModelFail], counts[chaosStreamForever])
	if o.primaryEvery > 0 || o.replicaEvery > 0 {
		fmt.Fprintf(w, "; cluster primaries killed %d, nodes restarted %d; agentsvc replicas killed %d, restarted %d",
			counts[chaosPrimaryKill], counts[chaosNodeStart], counts[chaosReplicaKill], counts[chaosReplicaStart])
	}
	fmt.Fprintln(w)
	for _, e := range r.chaos {
		switch e.kind {
		case chaosPrimaryKill, chaosPromoted, chaosNodeStart, chaosReplicaKill, chaosReplicaStart:
			if e.err == nil {
				fmt.Fprintf(w, "  at %s %s: %s\n", round(e.at), e.kind, e.detail)
			}
		}
	}
	for _, e := range failed {
		fmt.Fprintf(w, "  at %s %s: %v\n", e.at.Round(time.Second), e.kind, e.err)
	}
	r.unavail.print(w)

	fmt.Fprintf(w, "sessions: %d used, %d read back, %d events stored, %d events acknowledged; %d user messages left alone by a failed run (not a violation)\n",
		r.sessions, r.readBack, r.events, r.acked, r.lone)
	if o.replicaEvery > 0 {
		fmt.Fprintf(w, "  %d sessions held a call without a response after the load (a killed replica's); one more invocation ran on each before the checks\n", r.reopened)
	}
	fmt.Fprintf(w, "server: RSS %s before, peak %s (VmHWM %s), %s after the GC window (bound %s); goroutines %d before, %d after (slack %d, settled in %s)\n",
		mib(r.rssBefore), mib(r.rssPeak), mib(r.hwm), mib(r.rssAfter), mib(o.rssBoundMiB<<20),
		r.goroutinesBefore, r.goroutinesAfter, o.goroutineSlack, r.settled.Round(time.Second))

	byKind := map[string][]violation{}
	var order []string
	for _, v := range r.violations {
		if byKind[v.kind] == nil {
			order = append(order, v.kind)
		}
		byKind[v.kind] = append(byKind[v.kind], v)
	}
	for _, k := range allChecks {
		if byKind[k] == nil && (k != vUnavailable || o.maxUnavail > 0) {
			fmt.Fprintf(w, "  PASS %s: none\n", k)
		}
	}
	for _, k := range order {
		vs := byKind[k]
		fmt.Fprintf(w, "  FAIL %s: %d\n", k, len(vs))
		for _, v := range vs[:min(len(vs), maxShown)] {
			fmt.Fprintf(w, "       %s\n", v)
		}
	}
	if len(r.violations) == 0 {
		fmt.Fprintln(w, "result: PASS")
	} else {
		fmt.Fprintf(w, "result: FAIL, %d violations\n", len(r.violations))
	}
}

// allChecks are the kinds of violation, in the order the summary lists
// the checks that passed.
var allChecks = []string{vUnreadable, vList, vLostSession, vLostEvent, vDuplicateEvent, vLostRun, vDuplicateRun,
	vLostUpdate, vDuplicateUpdate, vDangling, vStateMismatch, vCounterBehind, vTempStored, vServer, vUnavailable}

func sortedCodes(m map[codes.Code]int) []codes.Code {
	out := make([]codes.Code, 0, len(m))
	for c := range m {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
