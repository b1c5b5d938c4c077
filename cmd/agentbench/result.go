package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/agentsvc/agentsvc/internal/loadclient"
)

// workerStats is what one worker saw; workers do not share it.
type workerStats struct {
	latencies  []time.Duration
	errors     map[codes.Code]int
	example    map[codes.Code]string
	noToolCall int
}

func (w *workerStats) fail(err error) {
	st := status.Convert(err)
	if w.errors == nil {
		w.errors, w.example = map[codes.Code]int{}, map[codes.Code]string{}
	}
	w.errors[st.Code()]++
	if _, ok := w.example[st.Code()]; !ok {
		w.example[st.Code()] = st.Message()
	}
}

// result is the outcome of a load run.
type result struct {
	elapsed    time.Duration
	latencies  []time.Duration // sorted
	failed     int
	errors     map[codes.Code]int
	example    map[codes.Code]string
	noToolCall int
	server     *serverReport
}

// gather merges the workers' stats.
func gather(workers []*workerStats, elapsed time.Duration) *result {
	r := &result{elapsed: elapsed, errors: map[codes.Code]int{}, example: map[codes.Code]string{}}
	for _, w := range workers {
		r.latencies = append(r.latencies, w.latencies...)
		r.noToolCall += w.noToolCall
		for c, n := range w.errors {
			r.errors[c] += n
			r.failed += n
			if _, ok := r.example[c]; !ok {
				r.example[c] = w.example[c]
			}
		}
	}
	slices.Sort(r.latencies)
	return r
}

func (r *result) throughput() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(len(r.latencies)) / r.elapsed.Seconds()
}

func (r *result) print(w io.Writer, o *options) {
	if o.mode == "rest" {
		fmt.Fprintf(w, "mode rest at %s, app %s, %d concurrent", o.target(), o.app, o.concurrency)
	} else {
		fmt.Fprintf(w, "mode %s, app %s, %d concurrent over %d connections", o.mode, o.app, o.concurrency, o.conns)
	}
	if o.mode == "connect" {
		fmt.Fprintf(w, ", tool calls held %s", o.hold)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "invocations  %d ok, %d failed in %s\n", len(r.latencies), r.failed, r.elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "throughput   %.0f invocations/s\n", r.throughput())
	if n := len(r.latencies); n > 0 {
		fmt.Fprintf(w, "latency      p50 %s  p99 %s  max %s\n", round(loadclient.Percentile(r.latencies, 50)),
			round(loadclient.Percentile(r.latencies, 99)), round(r.latencies[n-1]))
	}
	if r.noToolCall > 0 {
		fmt.Fprintf(w, "warning      %d connect invocations got no tool call (is the model scripted to call %s?)\n", r.noToolCall, o.tool)
	}
	codesSeen := make([]codes.Code, 0, len(r.errors))
	for c := range r.errors {
		codesSeen = append(codesSeen, c)
	}
	sort.Slice(codesSeen, func(i, j int) bool { return codesSeen[i] < codesSeen[j] })
	for _, c := range codesSeen {
		fmt.Fprintf(w, "errors       %s: %d (e.g. %q)\n", c, r.errors[c], r.example[c])
	}
	if m := r.server; m != nil {
		if o.mode == "connect" {
			fmt.Fprintf(w, "streams      at most %d tool calls waiting at once; server RSS then %s\n", m.peakWaiting, mib(m.rssAtPeakWaiting))
		}
		fmt.Fprintf(w, "server RSS   peak sampled %s, VmHWM %s\n", mib(m.peakRSS), mib(m.hwm))
		fmt.Fprintf(w, "server CPU   %s in %s (%.2f cores)", m.cpu.Round(10*time.Millisecond), r.elapsed.Round(time.Millisecond),
			m.cpu.Seconds()/r.elapsed.Seconds())
		if n := len(r.latencies); n > 0 {
			fmt.Fprintf(w, ", %s per invocation", round(m.cpu/time.Duration(n)))
		}
		fmt.Fprintln(w)
	}
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

func mib(bytes uint64) string { return fmt.Sprintf("%.1f MiB", float64(bytes)/(1<<20)) }
