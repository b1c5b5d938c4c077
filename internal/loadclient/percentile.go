package loadclient

import "time"

// Percentile returns the nearest-rank percentile p (0–100) of sorted, which
// the caller sorted in increasing order; 0 when sorted is empty.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
