package procstat

import (
	"os"
	"testing"
)

// Loop runs op as benchmark b's loop body, after one warm-up run, and
// reports allocations and this process's CPU time per op as cpu-ns/op.
func Loop(b *testing.B, op func()) {
	b.Helper()
	op()
	cpu0, _ := CPU(os.Getpid())
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		op()
		n++
	}
	cpu1, _ := CPU(os.Getpid())
	b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(max(n, 1)), "cpu-ns/op")
}
